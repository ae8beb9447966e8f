"""A joint move takes exactly one bounded value per arm joint: the loader and the capability."""

from __future__ import annotations

import asyncio
import os

from doubles import RecordingBackend
from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.capabilities import CallContext, KINDS
from mcp_ros_bridge.catalog.bindings import NoBinding
from mcp_ros_bridge.catalog.checks import check_config
from mcp_ros_bridge.catalog.loader import ConfigError, load_catalog
from mcp_ros_bridge.messages import t
import pytest
from six_joints import HOME6, write_six_joint_config

pytestmark = [pytest.mark.unit]


def test_a_seven_value_joint_tool_for_a_six_joint_arm_does_not_load(tmp_path) -> None:
    """tools.yaml still says minItems 7: refused with file, line, the counts and the fix."""
    cfg = write_six_joint_config(str(tmp_path), tools_fixed=False)
    with pytest.raises(ConfigError) as info:
        load_catalog(cfg, kinds=KINDS)
    err = info.value
    assert err.file.endswith('tools.yaml') and err.line is not None
    assert err.path[-3:] == ('properties', 'positions', 'maxItems')
    with open(os.path.join(cfg, 'tools.yaml'), encoding='utf-8') as f:
        assert f.read().splitlines()[err.line - 1].strip() == 'maxItems: 7'
    text = str(err)
    assert 'maxItems 7' in text and '6 joints' in text
    assert 'set minItems: 6, maxItems: 6' in text
    findings = [f for f in check_config(cfg, KINDS).items if f[0].rule == 'joint-count']
    assert [f[0].tool for f in findings] == ['move_arm_joints']


def test_the_six_value_tool_loads_with_each_joint_bounded(tmp_path) -> None:
    """With six bounded prefixItems the tool loads and publishes exactly six values."""
    catalog = load_catalog(write_six_joint_config(str(tmp_path), tools_fixed=True), kinds=KINDS)
    positions = catalog.get('move_arm_joints').input_schema['properties']['positions']
    assert positions['minItems'] == positions['maxItems'] == len(positions['prefixItems']) == 6
    assert all('minimum' in i and 'maximum' in i for i in positions['prefixItems'])


def test_the_shipped_catalog_has_no_joint_count_finding() -> None:
    """The seven-joint Panda and its tools agree."""
    from paths import CONFIG_DIR
    assert [f for f, _ in check_config(CONFIG_DIR, KINDS).items if f.rule == 'joint-count'] == []


@pytest.mark.parametrize('values', [HOME6 + [123456.0], HOME6[:5]])
def test_the_capability_refuses_a_wrong_count_and_never_truncates(tmp_path, values) -> None:
    """Seven (or five) values for six joints: INVALID_ARGUMENTS naming the count; nothing moves."""
    catalog = load_catalog(write_six_joint_config(str(tmp_path), tools_fixed=True), kinds=KINDS)
    backend = RecordingBackend()
    kind = KINDS['move_to_joints']
    ctx = CallContext(backend, catalog.robot, NoBinding())
    with pytest.raises(BackendError) as info:
        asyncio.run(kind.run(ctx, {'positions': values, 'velocity_scaling': 0.2,
                                   'plan_only': False}))
    assert info.value.code == 'INVALID_ARGUMENTS'
    assert info.value.message == t('joints_count', got=len(values), n=6)
    assert '"positions": [0.0, -0.785, 0.0, -2.356, 0.0, 1.571]' in info.value.advice
    assert backend.motion_calls == []
