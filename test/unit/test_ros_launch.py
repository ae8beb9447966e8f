"""The launch file compiles and its arguments match the node's declared parameters."""

import ast
import os
import py_compile
import subprocess
import sys

from mcp_ros_bridge import ros_entry
import pytest
import yaml

pytestmark = pytest.mark.unit
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAUNCH = os.path.join(REPO, 'launch', 'bridge.launch.py')
PARAMS = os.path.join(REPO, 'config', 'bridge.params.yaml')
# Launch argument -> node parameter (the rest of the arguments are not parameters).
RENAMED = {'config': 'config_dir'}
NOT_PARAMETERS = {'namespace'}


def launch_tree():
    """Return the launch file's syntax tree."""
    with open(LAUNCH, encoding='utf-8') as f:
        return ast.parse(f.read(), LAUNCH)


def literal(tree, name):
    """Return the literal value assigned to ``name`` at module level."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError(f'{name} not found in {LAUNCH}')


def override_keys(tree):
    """Return the keys of the ``overrides`` dict passed to the Node."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == 'overrides' for t in node.targets):
            return {k.value for k in node.value.keys}
    raise AssertionError('no overrides dict in the launch file')


def test_launch_file_compiles(tmp_path):
    py_compile.compile(LAUNCH, cfile=str(tmp_path / 'launch.pyc'), doraise=True)


def test_launch_arguments_match_node_parameters():
    tree = launch_tree()
    arguments = set(literal(tree, 'ARGUMENTS'))
    assert {'config', 'backend', 'transport', 'host', 'port', 'namespace',
            'use_sim_time'} <= arguments
    mapped = {RENAMED.get(a, a) for a in arguments - NOT_PARAMETERS}
    assert mapped <= set(ros_entry.PARAMETERS), mapped - set(ros_entry.PARAMETERS)
    assert override_keys(tree) == mapped


def test_params_yaml_declares_exactly_the_node_parameters():
    with open(PARAMS, encoding='utf-8') as f:
        params = yaml.safe_load(f)[ros_entry.NODE_NAME]['ros__parameters']
    # String arrays are left out: an empty array has no type in a ROS parameters file.
    arrays = {n for n, (default, _) in ros_entry.PARAMETERS.items() if isinstance(default, list)}
    assert set(params) == set(ros_entry.PARAMETERS) - arrays
    for name, value in params.items():
        assert type(value) is type(ros_entry.PARAMETERS[name][0]), name


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
    from dataclasses import fields
    from mcp_ros_bridge.cli import _parser
    from mcp_ros_bridge.server.settings import ServeOptions
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
