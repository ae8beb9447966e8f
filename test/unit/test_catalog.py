"""The catalog loader: precise errors, $robot references, languages and the content hash."""

from dataclasses import FrozenInstanceError, replace
import os
import re

from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.language import localize_schema
from mcp_ros_bridge.catalog.loader import ConfigError, load_catalog, load_robot
from mcp_ros_bridge.catalog.schemas import ROS_SCHEMA
from mcp_ros_bridge.contract.errors import unit_of
import pytest
import yaml

pytestmark = pytest.mark.unit

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHIPPED = os.path.join(REPO, 'config')
GRASP = 'grasp_object_force_control'
STOP_TITLE = '    title: {en: Stop arm, zh: 停止机械臂}\n'


def shipped_text(name):
    """Return the text of a shipped config file."""
    with open(os.path.join(SHIPPED, name), encoding='utf-8') as f:
        return f.read()


def write_config(tmp_path, tools=None, robot=None):
    """Write robot.yaml and tools.yaml (shipped text unless given) into tmp_path."""
    (tmp_path / 'robot.yaml').write_text(robot or shipped_text('robot.yaml'), encoding='utf-8')
    (tmp_path / 'tools.yaml').write_text(tools or shipped_text('tools.yaml'), encoding='utf-8')
    return str(tmp_path)


def edit(text, old, new):
    """Replace the single occurrence of ``old`` in ``text``."""
    assert text.count(old) == 1, old
    return text.replace(old, new)


def line_of(text, fragment):
    """Return the 1-based line of the single line containing ``fragment``."""
    hits = [i + 1 for i, line in enumerate(text.splitlines()) if fragment in line]
    assert len(hits) == 1, (fragment, hits)
    return hits[0]


def load_error(config_dir):
    """Load and return the ConfigError it raises."""
    with pytest.raises(ConfigError) as info:
        load_catalog(config_dir, kinds=KINDS)
    return info.value


def tool_index(name):
    """Return the position of a tool in the shipped tools.yaml."""
    tools = yaml.safe_load(shipped_text('tools.yaml'))['tools']
    return [t['name'] for t in tools].index(name)


def test_shipped_catalog_loads():
    catalog = load_catalog(SHIPPED, kinds=KINDS)
    names = [t.name for t in catalog.tools]
    for required in ('move_arm_to_pose', 'move_arm_joints', 'plan_trajectory', GRASP,
                     'release_object', 'stop_arm', 'read_ft_sensor', 'get_joint_states',
                     'get_end_effector_pose'):
        assert required in names


def test_yaml_syntax_error_names_file_and_line(tmp_path):
    tools = edit(shipped_text('tools.yaml'), '    title: {en: Stop arm, zh: 停止机械臂}\n',
                 '    title: {en: Stop arm, zh: 停止机械臂}\n    version: [1.0.0\n')
    err = load_error(write_config(tmp_path, tools=tools))
    assert err.file == str(tmp_path / 'tools.yaml')
    assert err.line is not None and abs(err.line - line_of(tools, 'version: [1.0.0')) <= 1
    assert 'YAML syntax error' in str(err)
    assert str(err).startswith(f'{tmp_path / "tools.yaml"}:{err.line}: ')


def test_duplicate_yaml_key_names_its_line(tmp_path):
    tools = edit(shipped_text('tools.yaml'), '    title: {en: Stop arm, zh: 停止机械臂}\n',
                 '    title: {en: Stop arm, zh: 停止机械臂}\n    title: Halt\n')
    err = load_error(write_config(tmp_path, tools=tools))
    assert err.line == line_of(tools, 'title: Halt')
    assert "duplicate key 'title'" in str(err)


def test_robot_schema_violation_names_path_line_and_expectation(tmp_path):
    robot = edit(shipped_text('robot.yaml'), 'max_force_n: 30.0', 'max_force_n: -30.0')
    err = load_error(write_config(tmp_path, robot=robot))
    assert err.file == str(tmp_path / 'robot.yaml')
    assert err.path == ('gripper', 'max_force_n')
    assert err.line == line_of(robot, 'max_force_n: -30.0')
    assert 'at gripper.max_force_n' in str(err)
    assert 'less than or equal to the minimum of 0' in err.problem
    assert 'robot.yaml format' in err.problem


def test_robot_semantic_violation_names_path(tmp_path):
    robot = edit(shipped_text('robot.yaml'), 'default_velocity_scaling: 0.2',
                 'default_velocity_scaling: 0.9')
    err = load_error(write_config(tmp_path, robot=robot))
    assert err.path == ('limits', 'default_velocity_scaling')
    assert err.line == line_of(robot, 'default_velocity_scaling: 0.9')
    assert 'exceeds max_velocity_scaling' in err.problem


def test_tools_schema_violation_names_path_line_and_expectation(tmp_path):
    tools = edit(shipped_text('tools.yaml'), STOP_TITLE + '    version: 1.0.0\n',
                 '    title: {en: Stop arm, zh: 停止机械臂}\n    version: one\n')
    err = load_error(write_config(tmp_path, tools=tools))
    assert err.path == ('tools', tool_index('stop_arm'), 'version')
    assert err.line == line_of(tools, 'version: one')
    assert f"at tools[{tool_index('stop_arm')}].version" in str(err)
    assert "does not match '^\\\\d+" in err.problem and 'tools.yaml format' in err.problem


def test_unknown_kind_lists_the_kinds(tmp_path):
    tools = edit(shipped_text('tools.yaml'), '    kind: stop\n', '    kind: teleport\n')
    err = load_error(write_config(tmp_path, tools=tools))
    assert err.path == ('tools', tool_index('stop_arm'), 'kind')
    assert err.line == line_of(tools, 'kind: teleport')
    assert "unknown kind 'teleport'" in err.problem
    assert re.search(r'expected one of .*\bgrasp\b.*\bstop\b', err.problem)


def test_parameter_the_kind_does_not_use(tmp_path):
    tools = edit(shipped_text('tools.yaml'), '        force_n:\n',
                 '        speed_mps: {type: number}\n        force_n:\n')
    err = load_error(write_config(tmp_path, tools=tools))
    assert err.path == ('tools', tool_index(GRASP), 'input', 'properties', 'speed_mps')
    assert err.line == line_of(tools, 'speed_mps: {type: number}')
    assert "kind 'grasp' does not use ['speed_mps']" in err.problem
    assert "it accepts ['force_n', 'idempotency_key', 'strategy', 'timeout_s']" in err.problem


def test_bad_robot_reference_names_the_path(tmp_path):
    tools = edit(shipped_text('tools.yaml'), 'maximum: {$robot: gripper.max_force_n}',
                 'maximum: {$robot: gripper.max_force}')
    err = load_error(write_config(tmp_path, tools=tools))
    assert err.path == ('tools', tool_index(GRASP), 'input', 'properties', 'force_n',
                        'maximum')
    assert err.line == line_of(tools, '$robot: gripper.max_force}')
    assert "robot.yaml has no value at 'gripper.max_force'" in err.problem


def test_duplicate_tool_name(tmp_path):
    tools = edit(shipped_text('tools.yaml'), '  - name: get_joint_states\n',
                 '  - name: stop_arm\n')
    err = load_error(write_config(tmp_path, tools=tools))
    assert err.path == ('tools', tool_index('get_joint_states'), 'name')
    lines = [i + 1 for i, line in enumerate(tools.splitlines()) if line == '  - name: stop_arm']
    assert len(lines) == 2 and err.line == lines[1]
    assert "duplicate tool name 'stop_arm'" in err.problem


def test_robot_references_resolve():
    catalog = load_catalog(SHIPPED, kinds=KINDS)
    robot = yaml.safe_load(shipped_text('robot.yaml'))
    force = catalog.get(GRASP).input_schema['properties']['force_n']
    assert force['maximum'] == robot['gripper']['max_force_n'] == catalog.robot.gripper_max_force_n
    assert force['minimum'] == robot['gripper']['min_force_n']
    x = catalog.get('move_arm_to_pose').input_schema['properties']['position']['properties']['x']
    assert (x['minimum'], x['maximum']) == (robot['limits']['workspace']['min'][0],
                                            robot['limits']['workspace']['max'][0])


def test_robot_reference_follows_robot_yaml(tmp_path):
    robot = edit(shipped_text('robot.yaml'), 'max_force_n: 30.0', 'max_force_n: 22.5')
    catalog = load_catalog(write_config(tmp_path, robot=robot), kinds=KINDS)
    assert catalog.get(GRASP).input_schema['properties']['force_n']['maximum'] == 22.5


def test_robot_reference_scale(tmp_path):
    release = 'maximum: {$robot: gripper.max_width_m}\n          default: {$robot: gripper'
    tools = edit(shipped_text('tools.yaml'), release,
                 release.replace('max_width_m}', 'max_width_m, scale: 0.5}', 1))
    catalog = load_catalog(write_config(tmp_path, tools=tools), kinds=KINDS)
    assert catalog.get('release_object').input_schema['properties']['width_m']['maximum'] == 0.04


def test_lang_zh_picks_chinese():
    en = load_catalog(SHIPPED, kinds=KINDS).get('move_arm_to_pose').description
    zh = load_catalog(SHIPPED, lang='zh', kinds=KINDS).get('move_arm_to_pose').description
    assert en.startswith('Move the fingertip centre') and not re.search(r'[\u4e00-\u9fff]', en)
    assert zh.startswith('规划并执行')
    # Folded lines are joined without the space YAML inserts between Chinese characters.
    assert not re.search(r'[\u4e00-\u9fff，。；]\s+[\u4e00-\u9fff（]', zh)


def test_lang_falls_back_to_english():
    catalog = load_catalog(SHIPPED, lang='fr', kinds=KINDS)
    assert catalog.get('stop_arm').description.startswith('Cancel the running arm')


def test_content_hash_changes_only_with_content(tmp_path):
    shipped = load_catalog(SHIPPED, kinds=KINDS).content_hash
    assert load_catalog(SHIPPED, kinds=KINDS).content_hash == shipped
    cosmetic = '# an extra comment\n' + shipped_text('tools.yaml').replace(
        '    version: 1.0.0\n    kind: stop\n', '    version: "1.0.0"\n    kind: stop\n')
    same = tmp_path / 'same'
    same.mkdir()
    assert load_catalog(write_config(same, tools=cosmetic), kinds=KINDS).content_hash == shipped
    changed = tmp_path / 'changed'
    changed.mkdir()
    tools = edit(shipped_text('tools.yaml'), 'safe to repeat', 'safe to call again')
    assert load_catalog(write_config(changed, tools=tools), kinds=KINDS).content_hash != shipped


def test_ros_defaults_in_the_schema_agree_with_the_shipped_robot_yaml(tmp_path):
    shipped = load_robot(SHIPPED)[0].ros
    text = shipped_text('robot.yaml')
    start = text.index('\nros:\n')
    end = text.index('\ngripper:\n')
    without_ros = write_config(tmp_path, robot=text[:start] + text[end:])
    defaults = load_robot(without_ros)[0].ros
    assert defaults.tcp is None and shipped.tcp.parent_link == 'panda_hand'  # robot data
    assert replace(defaults, tcp=shipped.tcp) == shipped
    assert shipped.actions['gripper'] == '/panda_hand_controller/gripper_cmd'


def test_ros_maps_merge_with_their_defaults_per_key(tmp_path):
    robot = edit(shipped_text('robot.yaml'), '    move_group: /move_action\n', '')
    ros = load_robot(write_config(tmp_path, robot=robot))[0].ros
    assert ros.actions['move_group'] == '/move_action'


def test_an_unimplemented_ee_pose_source_is_refused_at_load(tmp_path):
    robot = edit(shipped_text('robot.yaml'), '  distro: auto',
                 '  ee_pose_source: tf\n  distro: auto')
    err = load_error(write_config(tmp_path, robot=robot))
    assert err.file.endswith('robot.yaml') and 'ee_pose_source' in str(err)


def test_a_read_parameter_without_default_or_required_is_refused(tmp_path):
    tools = edit(shipped_text('tools.yaml'), '          maximum: 2\n          default: 0.1\n',
                 '          maximum: 2\n')
    err = load_error(write_config(tmp_path, tools=tools))
    index = tool_index('read_ft_sensor')
    assert err.path == ('tools', index, 'input', 'properties', 'window_s')
    assert "kind 'read_wrench' reads window_s" in err.problem and 'default' in err.problem


def test_a_nested_field_without_default_is_refused(tmp_path):
    roll = '              maximum: 180\n              default: 180\n'
    tools = edit(shipped_text('tools.yaml'), roll, '              maximum: 180\n')
    err = load_error(write_config(tmp_path, tools=tools))
    assert err.path[-2:] == ('orientation', 'roll')


def test_lang_zh_translates_titles_and_parameter_descriptions():
    en = load_catalog(SHIPPED, kinds=KINDS).get(GRASP)
    zh = load_catalog(SHIPPED, lang='zh', kinds=KINDS).get(GRASP)
    assert (en.title, zh.title) == ('Grasp with force control', '力控抓取物体')
    assert zh.annotations['title'] == zh.title
    force = [t.input_schema['properties']['force_n'] for t in (en, zh)]
    assert force[0]['description'].startswith('Grip force') and '夹持力' in force[1]['description']
    assert [unit_of(f) for f in force] == ['N', 'N']  # errors read the unit in both languages

    def without_texts(node):
        if isinstance(node, dict):
            return {k: without_texts(v) for k, v in node.items() if k != 'description'}
        return [without_texts(v) for v in node] if isinstance(node, list) else node
    assert without_texts(zh.input_schema) == without_texts(en.input_schema)


def test_localize_schema_leaves_data_and_property_names_alone():
    text = {'en': 'Width (m).', 'zh': '宽度 (m)。'}
    schema = {'type': 'object', 'description': text, 'properties': {
        'description': {'type': 'string', 'enum': ['a'], 'description': text},
        'note': {'type': 'object', 'default': {'description': text}, 'description': 'plain'}}}
    zh = localize_schema(schema, 'zh')
    assert zh['description'] == '宽度(m)。'
    assert zh['properties']['description']['description'] == '宽度(m)。'
    assert zh['properties']['note'] == {'type': 'object', 'default': {'description': text},
                                        'description': 'plain'}
    assert schema['description'] is text, 'the input is not changed'


def test_a_topic_without_qos_gets_the_schema_default(tmp_path):
    robot = edit(shipped_text('robot.yaml'), '/joint_states, qos: sensor_data}', '/joint_states}')
    ros = load_robot(write_config(tmp_path, robot=robot))[0].ros
    qos = ROS_SCHEMA['properties']['topics']['additionalProperties']['properties']['qos']
    assert ros.topics['joint_states'].qos == qos['default']


def test_the_robot_config_cannot_be_changed_after_load():
    robot = load_robot(SHIPPED)[0]
    with pytest.raises(FrozenInstanceError):
        robot.limits = None
    with pytest.raises(FrozenInstanceError):
        robot.objects['box'].mass_kg = 1.0
    for mapping in (robot.postures, robot.objects, robot.limits.policies, robot.ros.topics,
                    robot.ros.actions, robot.ros.services):
        with pytest.raises(TypeError):
            mapping['changed'] = None


def test_an_object_started_outside_the_workspace_names_the_field_and_a_spot_inside(tmp_path):
    robot = edit(shipped_text('robot.yaml'), 'mass_kg: 0.2}',
                 'mass_kg: 0.2, start_xy_m: [1.5, 0]}')
    err = load_error(write_config(tmp_path, robot=robot))
    assert err.path == ('objects', 'box', 'start_xy_m')
    assert err.line == line_of(robot, 'start_xy_m: [1.5, 0]')
    assert '[1.5, 0] is outside the workspace (x in [-0.855, 0.855]' in err.problem
    assert 'e.g. [0.43, 0.0]' in err.problem
