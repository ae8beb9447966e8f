"""Tool bindings: typed and frozen, defaults only in their schema, unknown keys refused."""

import ast
from dataclasses import fields, FrozenInstanceError
import os
import types
import typing

from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog import bindings
from mcp_ros_bridge.catalog.bindings import FORMS, PathBinding, yaml_key
from mcp_ros_bridge.catalog.loader import ConfigError, load_catalog
from mcp_ros_bridge.catalog.schemas import BINDING_SCHEMAS
from paths import CONFIG_DIR, REPO
import pytest
import yaml

pytestmark = pytest.mark.unit

# Modules that read tool arguments or bindings: none may supply a default of its own.
READERS = [os.path.join(REPO, 'mcp_ros_bridge', 'capabilities', name)
           for name in sorted(os.listdir(os.path.join(REPO, 'mcp_ros_bridge', 'capabilities')))
           if name.endswith('.py')] + [
    os.path.join(REPO, 'mcp_ros_bridge', 'safety', 'approval.py'),
    os.path.join(REPO, 'mcp_ros_bridge', 'backends', 'ros', 'bindings.py')]


def _fallbacks(source):
    """Return ``x.get(key, default)`` calls on ``args``/``binding`` values in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == 'get' and len(node.args) + len(node.keywords) > 1):
            receiver = ast.unparse(node.func.value)
            if 'args' in receiver or 'binding' in receiver:
                found.append(ast.unparse(node))
    return found


def test_the_fallback_check_catches_a_default_written_in_python():
    assert _fallbacks("s = float(args.get('velocity_scaling', 0.1))")
    assert _fallbacks("f = ctx.binding.get('frame', robot.base_frame)")
    assert not _fallbacks("t = args.get('position')")


@pytest.mark.parametrize('path', READERS, ids=os.path.basename)
def test_no_python_fallback_for_a_schema_default(path):
    with open(path, encoding='utf-8') as f:
        assert _fallbacks(f.read()) == []


@pytest.mark.parametrize('form', sorted(FORMS))
def test_each_binding_field_is_required_defaulted_or_optional(form):
    schema = BINDING_SCHEMAS[form]
    cls = FORMS[form]
    hints = typing.get_type_hints(cls, vars(bindings))
    keys = {yaml_key(f): f.name for f in fields(cls)}
    assert set(schema['properties']) == set(keys)
    for name, sub in schema['properties'].items():
        optional = type(None) in typing.get_args(hints[keys[name]])
        assert (name in schema['required']) + ('default' in sub) + optional == 1, name


def test_every_kind_names_a_binding_form():
    assert {kind.binding for kind in KINDS.values()} <= set(FORMS)


def _config(tmp_path, edit):
    with open(os.path.join(CONFIG_DIR, 'tools.yaml'), encoding='utf-8') as f:
        doc = yaml.safe_load(f)
    added = edit({t['name']: t for t in doc['tools']})
    doc['tools'] += added or []
    (tmp_path / 'tools.yaml').write_text(yaml.safe_dump(doc, sort_keys=False), encoding='utf-8')
    with open(os.path.join(CONFIG_DIR, 'robot.yaml'), encoding='utf-8') as f:
        (tmp_path / 'robot.yaml').write_text(f.read(), encoding='utf-8')
    return str(tmp_path)


def test_defaults_are_filled_once_at_load(tmp_path):
    def drop(tools):
        del tools['plan_trajectory']['binding']
    catalog = load_catalog(_config(tmp_path, drop), kinds=KINDS)
    binding = catalog.get('plan_trajectory').binding
    assert binding == PathBinding(frame=catalog.robot.base_frame, max_step_m=BINDING_SCHEMAS[
        'path']['properties']['max_step_m']['default'])
    with pytest.raises(FrozenInstanceError):
        binding.max_step_m = 1.0


def test_shipped_bindings_are_typed_and_frozen():
    catalog = load_catalog(CONFIG_DIR, kinds=KINDS)
    grasp = catalog.get('grasp_object_force_control').binding
    assert isinstance(grasp.strategies, types.MappingProxyType)
    assert all(isinstance(t.binding, FORMS[KINDS[t.kind].binding]) for t in catalog.tools)


def test_unknown_binding_key_is_refused_with_its_line(tmp_path):
    def typo(tools):
        tools['plan_trajectory']['binding']['max_step'] = 0.01
    with pytest.raises(ConfigError) as err:
        load_catalog(_config(tmp_path, typo), kinds=KINDS)
    assert err.value.path[-1] == 'binding' and err.value.line is not None
    assert "'max_step' was unexpected" in err.value.problem
    assert "'path' binding" in err.value.problem


def test_grasp_strategy_without_a_speed_is_refused(tmp_path):
    def gentle_only(tools):
        tools['grasp_object_force_control']['binding'] = {'strategies': {'gentle': 0.01}}
    with pytest.raises(ConfigError) as err:
        load_catalog(_config(tmp_path, gentle_only), kinds=KINDS)
    assert err.value.path[-2:] == ('binding', 'strategies')
    assert "no closing speed for strategy ['standard']" in err.value.problem


def test_ros_binding_needs_its_interface_type(tmp_path):
    def declare(tools):
        return [dict(tools['stop_arm'], name='read_battery', kind='ros_topic',
                     binding={'topic': '/battery'})]
    with pytest.raises(ConfigError) as err:
        load_catalog(_config(tmp_path, declare), kinds=KINDS)
    assert "'type' is a required property" in err.value.problem
