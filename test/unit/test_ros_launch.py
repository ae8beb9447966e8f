"""The launch file and the parameters file come from the settings table the node reads."""

import ast
from dataclasses import fields
import importlib.util
import os
import py_compile
import subprocess
import sys
import types

from mcp_ros_bridge import ros_entry
from mcp_ros_bridge.server import launch_settings
from mcp_ros_bridge.server.settings import ServeOptions, settings
import pytest
import yaml

pytestmark = pytest.mark.unit
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAUNCH = os.path.join(REPO, 'launch', 'bridge.launch.py')
PARAMS = os.path.join(REPO, 'config', 'bridge.params.yaml')


def launch_tree():
    """Return the launch file's syntax tree."""
    with open(LAUNCH, encoding='utf-8') as f:
        return ast.parse(f.read(), LAUNCH)


class Recorded:
    """A stand-in for a launch action: it keeps what it was built with."""

    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs


class Configuration:
    """A stand-in ``LaunchConfiguration``: performs to the context's value of its name."""

    def __init__(self, name):
        self.name = name

    def perform(self, context):
        return context[self.name]


@pytest.fixture
def launch_file(monkeypatch):
    """Import the launch file with stand-ins for launch and launch_ros (not installable)."""
    stand_ins = {
        'launch': {'LaunchDescription': Recorded},
        'launch.actions': {'DeclareLaunchArgument': Recorded, 'OpaqueFunction': Recorded},
        'launch.substitutions': {'LaunchConfiguration': Configuration},
        'launch_ros': {},
        'launch_ros.actions': {'Node': Recorded},
    }
    for name, attributes in stand_ins.items():
        monkeypatch.setitem(sys.modules, name, types.SimpleNamespace(**attributes))
    spec = importlib.util.spec_from_file_location('bridge_launch', LAUNCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _declared(launch_file):
    description = launch_file.generate_launch_description()
    *arguments, opaque = description.args[0]
    return {a.args[0]: a.kwargs['default_value'] for a in arguments}, opaque.kwargs['function']


def test_launch_file_compiles(tmp_path):
    py_compile.compile(LAUNCH, cfile=str(tmp_path / 'launch.pyc'), doraise=True)


def test_every_setting_is_a_launch_argument_with_the_node_default(launch_file):
    declared, _ = _declared(launch_file)
    names = {s.launch_name: s for s in settings()}
    assert set(declared) == set(names)
    assert {'config', 'backend', 'transport', 'host', 'port', 'namespace', 'node_name',
            'use_sim_time', 'approval_policy', 'watch', 'sim_speed', 'allowed_origins',
            'motion_rate_per_s', 'motion_burst', 'idempotency_ttl_s',
            'read_timeout_s'} <= set(declared)
    assert declared['backend'] == 'ros' and declared['transport'] == 'http'
    assert declared['watch'] == 'true' and declared['allowed_origins'] == '[]'


def test_launch_defaults_become_typed_node_parameters(launch_file):
    declared, bridge_node = _declared(launch_file)
    [node] = bridge_node(declared)
    assert node.kwargs['executable'] == ros_entry.EXECUTABLE
    assert node.kwargs['name'] == ros_entry.NODE_NAME and node.kwargs['namespace'] == ''
    [parameters] = node.kwargs['parameters']
    arrays = {n for n, (default, _) in ros_entry.PARAMETERS.items() if default == []}
    assert set(parameters) == set(ros_entry.PARAMETERS) - arrays
    for name, value in parameters.items():
        default = ros_entry.PARAMETERS[name][0]
        assert type(value) is type(default), name
        assert value == default or name == 'transport', name
    assert ServeOptions(**parameters).transport == 'http'


def test_launch_arguments_reach_the_node(launch_file):
    declared, bridge_node = _declared(launch_file)
    given = dict(declared, node_name='arm_bridge', namespace='/lab', watch='False',
                 motion_burst='3', read_timeout_s='2.5', allowed_hosts='[robot.lan, 10.0.0.2]',
                 approval_policy='allow')
    [node] = bridge_node(given)
    [parameters] = node.kwargs['parameters']
    assert (node.kwargs['name'], node.kwargs['namespace']) == ('arm_bridge', '/lab')
    options = ServeOptions(**parameters)
    assert options.allowed_hosts == ['robot.lan', '10.0.0.2'] and not options.watch
    assert options.call_settings().motion_burst == 3
    assert options.read_timeout_s == 2.5 and options.approval_policy == 'allow'


@pytest.mark.parametrize(('name', 'text', 'allowed'), [
    ('watch', 'yes', 'watch:=true'), ('port', '80a', 'port:=8765'),
    ('transport', 'tcp', 'stdio, http'), ('allowed_origins', '{a: 1}', 'allowed_origins:=[]')])
def test_launch_rejects_a_bad_argument_naming_it_and_what_is_allowed(launch_file, name, text,
                                                                     allowed):
    declared, bridge_node = _declared(launch_file)
    with pytest.raises(ValueError) as err:
        bridge_node(dict(declared, **{name: text}))
    assert f'{name}:={text!r}' in str(err.value) and allowed in str(err.value)


def test_shipped_params_file_is_generated_from_the_settings_table():
    with open(PARAMS, encoding='utf-8') as f:
        shipped = f.read()
    assert shipped == launch_settings.params_yaml(), (
        f'config/bridge.params.yaml is out of date; regenerate: {launch_settings.REGENERATE}')
    params = yaml.safe_load(shipped)['/**']['ros__parameters']
    arrays = {n for n, (default, _) in ros_entry.PARAMETERS.items() if default == []}
    assert params == {n: d for n, (d, _) in ros_entry.PARAMETERS.items() if n not in arrays}


def test_ros_args_are_split_from_the_command_line():
    argv = ['--ros-args', '-p', 'transport:=stdio', '-r', '__ns:=/arm']
    assert ros_entry.split_ros_args(argv) == argv[1:]
    assert ros_entry.split_ros_args(['--verbose']) == []


def test_node_executable_is_installed_under_lib_and_named_for_the_package():
    """``ros2 run`` finds it in lib/mcp_ros_bridge; no generic name such as ``bridge``."""
    import configparser
    with open(os.path.join(REPO, 'setup.py'), encoding='utf-8') as f:
        setup_py = f.read()
    assert f"'{ros_entry.EXECUTABLE} = mcp_ros_bridge.ros_entry:main'" in setup_py
    assert "'bridge = " not in setup_py
    cfg = configparser.ConfigParser()
    cfg.read(os.path.join(REPO, 'setup.cfg'))
    assert cfg['install']['install_scripts'] == '$base/lib/mcp_ros_bridge'
    assert cfg['develop']['script_dir'] == '$base/lib/mcp_ros_bridge'
    executables = {kw.value.value for node in ast.walk(launch_tree())
                   if isinstance(node, ast.Call) for kw in node.keywords
                   if kw.arg == 'executable'}
    assert executables == {ros_entry.EXECUTABLE}


def test_node_help_prints_every_parameter_without_starting_ros():
    proc = subprocess.run([sys.executable, '-m', 'mcp_ros_bridge.ros_entry', '--help'],
                          check=False, capture_output=True, text=True, timeout=60, cwd=REPO,
                          env=dict(os.environ, PYTHONPATH=REPO))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f'usage: ros2 run mcp_ros_bridge {ros_entry.EXECUTABLE}')
    for name in ros_entry.PARAMETERS:
        assert f'  {name} ' in proc.stdout, name
    assert 'use_sim_time:=true' in proc.stdout
    assert proc.stderr == ''


def test_cli_flags_and_ros_parameters_come_from_one_settings_table():
    from mcp_ros_bridge.cli import _parser
    names = [f.name for f in fields(ServeOptions)]
    remapped = ['node_name', 'namespace']  # set on the node by remapping, not parameters
    assert list(ros_entry.PARAMETERS) == [n for n in names if n not in remapped]
    serve = _parser().parse_args(['serve'])
    assert {n: getattr(serve, n) for n in names} == vars(ServeOptions())
    assert ros_entry.PARAMETERS['backend'][0] == 'ros' and serve.backend == 'sim'
    flags = _parser().parse_args(['serve', '--no-watch', '--motion-burst', '3',
                                  '--allowed-host', 'robot.lan'])
    options = ServeOptions(**{n: getattr(flags, n) for n in names})
    assert not options.watch and options.allowed_hosts == ['robot.lan']
    assert options.call_settings().motion_burst == 3
