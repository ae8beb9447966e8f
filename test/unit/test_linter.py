"""The catalog linter: each rule fires on a bad example; the shipped config passes."""

import copy
import json
import os
import re
import shutil

from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.lint_model import MAX_LIST_BYTES, MAX_TOOLS, RULES
from mcp_ros_bridge.catalog.linter import format_findings, lint_config, main
from mcp_ros_bridge.catalog.listing import (APPROVAL_META_KEY, HINT_DEFAULTS, list_bytes,
                                            tool_entries, tool_entry)
from mcp_ros_bridge.catalog.loader import ConfigError, load_catalog
from mcp_ros_bridge.catalog.token_count import count_tokens
from mcp_ros_bridge.server.bridge import tool_models
import pytest
import yaml

MEASURES = ['token-estimate', 'token-estimate-model']  # the two size figures (info)

pytestmark = pytest.mark.lint

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHIPPED = os.path.join(REPO, 'config')
GRASP = 'grasp_object_force_control'


def shipped_tools():
    """Return the shipped tools.yaml, parsed."""
    with open(os.path.join(SHIPPED, 'tools.yaml'), encoding='utf-8') as f:
        return yaml.safe_load(f)


def tool(doc, name):
    """Return the tool named ``name`` in a parsed tools.yaml."""
    return next(t for t in doc['tools'] if t['name'] == name)


def write_config(tmp_path, doc=None, tools_text=None, robot_text=None):
    """Write robot.yaml (shipped unless given) and tools.yaml into tmp_path."""
    if robot_text is None:
        shutil.copy(os.path.join(SHIPPED, 'robot.yaml'), tmp_path / 'robot.yaml')
    else:
        (tmp_path / 'robot.yaml').write_text(robot_text, encoding='utf-8')
    if tools_text is None:
        tools_text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=200)
    (tmp_path / 'tools.yaml').write_text(tools_text, encoding='utf-8')
    return str(tmp_path)


def props(doc, name):
    """Return the top-level input properties of a tool."""
    return tool(doc, name)['input']['properties']


def _ros_tool(name, properties):
    return {'name': name, 'title': 'Declared service', 'version': '1.0.0', 'kind': 'ros_service',
            'description': tool(shipped_tools(), 'stop_arm')['description'],
            'input': {'type': 'object', 'additionalProperties': False,
                      'properties': properties},
            'binding': {'service': '/demo', 'type': 'std_srvs/srv/Trigger'}}


def _flag(i):
    return {'type': 'boolean', 'description': f'Flag number {i}.', 'default': False}


def m_schema_valid(doc):
    props(doc, GRASP)['force_n']['type'] = 'float'


def m_schema_object(doc):
    tool(doc, 'stop_arm')['input'] = {'type': 'array', 'items': {'type': 'number'}}


def m_additional_properties(doc):
    del props(doc, 'move_arm_to_pose')['position']['additionalProperties']


def m_default_valid(doc):
    props(doc, GRASP)['force_n']['default'] = 50


def m_example_valid(doc):
    props(doc, 'move_arm_to_pose')['position']['examples'] = [{'x': 0.5, 'y': 0.0}]


def m_name_pattern(doc):
    tool(doc, 'stop_arm')['name'] = 'stop arm!'


def m_name_snake_case(doc):
    tool(doc, 'stop_arm')['name'] = 'StopArm'


def m_name_unique(doc):
    tool(doc, 'get_joint_states')['name'] = 'stop_arm'


def m_title_present(doc):
    tool(doc, 'stop_arm')['title'] = '   '


def m_text_one_language(doc):
    tool(doc, 'stop_arm')['title'] = 'Stop arm'


def m_text_without_zh(doc):
    props(doc, 'pick_object')['object']['description'] = {'en': 'Name of the object.'}


def m_shared_wording(doc):
    props(doc, 'move_arm_joints')['idempotency_key']['description'] = {
        'en': 'Same key, same result.', 'zh': '同一键，同一结果。'}


def m_text_units_differ(doc):
    props(doc, GRASP)['force_n']['description']['zh'] = '要调节到的夹持力，单位牛。'


def m_description_present(doc):
    tool(doc, 'stop_arm')['description'] = {'en': '   '}


def m_description_when_en(doc):
    d = tool(doc, 'read_ft_sensor')['description']
    d['en'] = d['en'].replace('Use it to check', 'It can check')


def m_description_when_zh(doc):
    d = tool(doc, 'read_ft_sensor')['description']
    d['zh'] = d['zh'].replace('用于', '可')


def m_description_short(doc):
    tool(doc, 'stop_arm')['description'] = 'Stop the arm. Use it when needed.'


def m_description_long_zh(doc):
    tool(doc, 'stop_arm')['description']['zh'] = '用于停止机械臂。' + '很' * 300


def m_param_description(doc):
    del props(doc, 'move_arm_to_pose')['position']['properties']['x']['description']


def m_param_bare_schema(doc):
    doc['tools'].append(_ros_tool('declared_service', {'anything': True}))


def m_description_short_zh_string(doc):
    tool(doc, 'stop_arm')['description'] = '用于取消正在执行的机械臂运动。'


def m_numeric_unit(doc):
    props(doc, GRASP)['force_n']['description'] = 'Grip force to regulate.'


def m_numeric_unit_item(doc):
    _make_room(doc)  # seven written-out items would pass the model-visible budget (an error)
    positions = props(doc, 'move_arm_joints')['positions']
    del positions['$arm_joints']  # written out, the first item without its unit
    home = (0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785)
    positions.update(minItems=7, maxItems=7, prefixItems=[
        {'type': 'number', 'description': 'Joint 1.' if i == 0 else f'joint {i + 1} (rad).',
         'minimum': v - 0.01, 'maximum': v + 0.01} for i, v in enumerate(home)])


def m_numeric_bounds(doc):
    del props(doc, GRASP)['timeout_s']['maximum']


def m_string_enum(doc):
    del props(doc, GRASP)['strategy']['enum']


def m_max_parameters(doc):
    _make_room(doc)
    doc['tools'].append(_ros_tool('declared_service', {f'flag_{i}': _flag(i) for i in range(6)}))


def m_nesting_depth(doc):
    leaf = {'type': 'object', 'description': 'Level four.', 'additionalProperties': False,
            'properties': {'v': _flag(0)}}
    mid = {'type': 'object', 'description': 'Level three.', 'additionalProperties': False,
           'properties': {'c': leaf}}
    top = {'type': 'object', 'description': 'Level two.', 'additionalProperties': False,
           'properties': {'b': mid}}
    doc['tools'].append(_ros_tool('declared_service', {'a': top}))


def m_required_default(doc):
    tool(doc, GRASP)['input']['required'] = ['force_n']


def _make_room(doc):
    """Drop three tools so added ones stay within the model-visible budget (an error)."""
    dropped = ('capture_scene_image', 'list_objects', 'read_ft_sensor')
    doc['tools'] = [t for t in doc['tools'] if t['name'] not in dropped]


def m_max_tools(doc):
    stop = tool(doc, 'stop_arm')
    _make_room(doc)
    for i in range(MAX_TOOLS + 1 - len(doc['tools'])):
        doc['tools'].append(dict(copy.deepcopy(stop), name=f'stop_arm_{i}'))


def m_list_budget(doc):
    pose = tool(doc, 'move_arm_to_pose')
    for i in range(max(12, 20 - len(doc['tools']))):  # shared parts are said once: long texts
        copied = dict(copy.deepcopy(pose), name=f'move_arm_to_pose_{i}')  # long own texts
        copied['description'] = {'en': f'Copy {i}. ' + 'More words here. ' * 400,
                                 'zh': f'副本 {i}。' + '更多的文字。' * 400}
        doc['tools'].append(copied)


def m_model_audience(doc):
    tool(doc, 'stop_arm')['description']['en'] += ' Limits are in robot.yaml.'


def m_model_audience_param(doc):
    props(doc, GRASP)['force_n']['description']['zh'] += '（ROS：腕部力）'


def m_model_budget(doc):
    tool(doc, 'stop_arm')['description']['en'] += ' More words here.' * 60


def m_unknown_placeholder(doc):
    tool(doc, 'stop_arm')['description']['en'] += ' The arm ${arm_name} holds.'


def m_portable_schema(doc):
    props(doc, 'move_arm_joints')['positions']['items'] = False


def m_portable_type(doc):
    props(doc, GRASP)['force_n']['type'] = ['number', 'integer']


def m_force_over_limit(doc):
    props(doc, GRASP)['force_n']['maximum'] = 50


def m_velocity_zero(doc):
    p = props(doc, 'move_arm_joints')['velocity_scaling']
    del p['exclusiveMinimum']
    p['minimum'] = 0


def m_velocity_over_limit(doc):
    props(doc, 'plan_trajectory')['velocity_scaling']['maximum'] = 0.9


def m_joint_count(doc):
    positions = props(doc, 'move_arm_joints')['positions']
    positions['minItems'] = positions['maxItems'] = 8


def m_position_outside(doc):
    props(doc, 'move_arm_to_pose')['position']['properties']['x']['maximum'] = 2.0


def m_waypoint_outside(doc):
    props(doc, 'plan_trajectory')['waypoints']['items']['properties']['z']['minimum'] = -0.5


def m_width_over_limit(doc):
    props(doc, 'release_object')['width_m']['maximum'] = 0.2


def m_unknown_kind(doc):
    tool(doc, 'stop_arm')['kind'] = 'teleport'


def m_kind_parameter(doc):
    props(doc, GRASP)['speed_mps'] = {'type': 'number', 'description': 'Speed (m/s).',
                                      'minimum': 0.01, 'maximum': 0.1}


def m_robot_ref(doc):
    props(doc, GRASP)['force_n']['maximum'] = {'$robot': 'gripper.max_force'}


def m_kind_default(doc):
    del props(doc, 'read_ft_sensor')['window_s']['default']


def m_binding(doc):
    tool(doc, 'plan_trajectory')['binding']['max_step'] = 0.01


def m_config_format(doc):
    tool(doc, 'stop_arm')['version'] = 'one'


CASES = [
    # rule, severity, tool, path, mutation
    ('schema-valid', 'error', GRASP, 'input.properties.force_n.type', m_schema_valid),
    ('schema-object', 'error', 'stop_arm', 'input.type', m_schema_object),
    ('additional-properties', 'error', 'move_arm_to_pose', 'input.properties.position',
     m_additional_properties),
    ('default-valid', 'error', GRASP, 'input.properties.force_n.default', m_default_valid),
    ('example-valid', 'error', 'move_arm_to_pose', 'input.properties.position.examples[0]',
     m_example_valid),
    ('name-pattern', 'error', 'stop arm!', 'name', m_name_pattern),
    ('name-snake-case', 'warning', 'StopArm', 'name', m_name_snake_case),
    ('name-unique', 'error', 'stop_arm', 'name', m_name_unique),
    ('title-present', 'error', 'stop_arm', 'title', m_title_present),
    ('text-languages', 'warning', 'stop_arm', 'title', m_text_one_language),
    ('text-languages', 'warning', 'pick_object', 'input.properties.object.description',
     m_text_without_zh),
    ('text-languages', 'warning', GRASP, 'input.properties.force_n.description',
     m_text_units_differ),
    ('shared-wording', 'warning', 'move_arm_joints',
     'input.properties.idempotency_key.description', m_shared_wording),
    ('description-present', 'error', 'stop_arm', 'description', m_description_present),
    ('model-audience', 'error', 'stop_arm', 'description', m_model_audience),
    ('model-audience', 'error', GRASP, 'input.properties.force_n.description',
     m_model_audience_param),
    ('model-budget', 'warning', '', 'tools', m_model_budget),
    ('description-when', 'warning', 'read_ft_sensor', 'description.en', m_description_when_en),
    ('description-when', 'warning', 'read_ft_sensor', 'description.zh', m_description_when_zh),
    ('description-length', 'warning', 'stop_arm', 'description', m_description_short),
    ('description-length', 'warning', 'stop_arm', 'description.zh', m_description_long_zh),
    ('param-description', 'error', 'move_arm_to_pose',
     'input.properties.position.properties.x', m_param_description),
    ('param-description', 'error', 'declared_service', 'input.properties.anything',
     m_param_bare_schema),
    ('description-length', 'warning', 'stop_arm', 'description', m_description_short_zh_string),
    ('numeric-unit', 'warning', GRASP, 'input.properties.force_n', m_numeric_unit),
    ('numeric-unit', 'warning', 'move_arm_joints', 'input.properties.positions.prefixItems[0]',
     m_numeric_unit_item),
    ('numeric-bounds', 'error', GRASP, 'input.properties.timeout_s', m_numeric_bounds),
    ('string-enum', 'warning', GRASP, 'input.properties.strategy', m_string_enum),
    ('max-parameters', 'warning', 'declared_service', 'input.properties', m_max_parameters),
    ('nesting-depth', 'error', 'declared_service',
     'input.properties.a.properties.b.properties.c', m_nesting_depth),
    ('required-default', 'warning', GRASP, 'input.properties.force_n', m_required_default),
    ('max-tools', 'warning', '', 'tools', m_max_tools),
    ('list-budget', 'error', '', 'tools', m_list_budget),
    ('portable-schema', 'error', 'move_arm_joints', 'input.properties.positions.items',
     m_portable_schema),
    ('portable-type', 'warning', GRASP, 'input.properties.force_n.type', m_portable_type),
    ('robot-limits', 'error', GRASP, 'input.properties.force_n', m_force_over_limit),
    ('robot-limits', 'error', 'move_arm_joints', 'input.properties.velocity_scaling',
     m_velocity_zero),
    ('robot-limits', 'error', 'plan_trajectory', 'input.properties.velocity_scaling',
     m_velocity_over_limit),
    ('robot-limits', 'error', 'move_arm_to_pose', 'input.properties.position.properties.x',
     m_position_outside),
    ('robot-limits', 'error', 'plan_trajectory',
     'input.properties.waypoints.items.properties.z', m_waypoint_outside),
    ('robot-limits', 'error', 'release_object', 'input.properties.width_m', m_width_over_limit),
    ('joint-count', 'error', 'move_arm_joints', 'input.properties.positions.maxItems',
     m_joint_count),
    ('unknown-kind', 'error', 'stop_arm', 'kind', m_unknown_kind),
    ('kind-parameter', 'error', GRASP, 'input.properties.speed_mps', m_kind_parameter),
    ('robot-ref', 'error', GRASP, 'input.properties.force_n.maximum', m_robot_ref),
    ('config-format', 'error', 'stop_arm', 'version', m_config_format),
    ('kind-default', 'error', 'read_ft_sensor', 'input.properties.window_s', m_kind_default),
    ('binding', 'error', 'plan_trajectory', 'binding', m_binding),
    ('text-placeholder', 'error', 'stop_arm', '', m_unknown_placeholder),
]


@pytest.mark.parametrize('rule,severity,tool_name,path,mutate', CASES,
                         ids=[f'{c[0]}:{c[4].__name__[2:]}' for c in CASES])
def test_rule_fires_on_bad_example(tmp_path, rule, severity, tool_name, path, mutate):
    doc = shipped_tools()
    mutate(doc)
    config = write_config(tmp_path, doc)
    findings = lint_config(config, KINDS)
    hits = [f for f in findings if f.rule == rule]
    if mutate is m_list_budget:  # one language is served: each has the whole budget
        assert [h.message.split()[1] for h in hits] == ['en', 'zh']
        hits = hits[:1]
    assert [(f.severity, f.tool, f.path) for f in hits] == [(severity, tool_name, path)], \
        format_findings(findings)
    if mutate is m_text_units_differ:
        assert "en ['N']; zh []" in hits[0].message
    if mutate is m_description_short_zh_string:
        assert 'zh description has 15 characters' in hits[0].message
    hit = hits[0]
    assert hit.file == os.path.join(config, 'tools.yaml')
    assert hit.fix and hit.message
    text = (tmp_path / 'tools.yaml').read_text(encoding='utf-8').splitlines()
    key = re.split(r'[.\[]', path)[-1].rstrip(']')
    assert hit.line is not None
    # A block mapping's recorded line is its first entry, just below its key.
    near = text[max(hit.line - 2, 0):hit.line]
    assert key.isdigit() or any(key in line for line in near), (hit, near)
    assert main([config], KINDS) == (1 if severity == 'error' else 0)


def test_every_rule_has_a_failing_fixture():
    # description-note fires on a robot description: test/unit/test_description.py
    fired = {c[0] for c in CASES} | {'config-load', 'description-note', *MEASURES}
    assert fired == set(RULES)


def test_shipped_config_has_no_errors_or_warnings(capsys):
    findings = lint_config(SHIPPED, KINDS)
    assert [f for f in findings if f.severity != 'info'] == []
    assert [f.rule for f in findings] == MEASURES
    assert main([], KINDS) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith('0 error(s), 0 warning(s), 2 info')


def test_token_estimate_measures_the_tool_list():
    catalog = load_catalog(SHIPPED, kinds=KINDS)
    # Exactly what the server sends: the SDK's Tool model round-trips the linter's entries.
    sent = [t.model_dump(by_alias=True, mode='json', exclude_none=True)
            for t in tool_models(catalog.tools)]
    assert sent == tool_entries(catalog.tools)
    text = json.dumps({'tools': sent}, separators=(',', ':'), ensure_ascii=False)
    (estimate,) = [f for f in lint_config(SHIPPED, KINDS) if f.rule == 'token-estimate']
    assert estimate.severity == 'info'
    assert estimate.value == count_tokens(text)[0]
    assert f'is {list_bytes(sent)} bytes' in estimate.message
    assert 'outputSchema' in json.dumps(sent) and estimate.value > 1000
    assert list_bytes(sent) * MAX_TOOLS / len(sent) < MAX_LIST_BYTES, 'no room for more tools'


def test_model_estimate_counts_what_hosts_pass_to_the_model():
    catalog = load_catalog(SHIPPED, kinds=KINDS)
    sent = tool_entries(catalog.tools)
    seen = [{k: t[k] for k in ('name', 'title', 'description', 'inputSchema')} for t in sent]
    text = json.dumps({'tools': seen}, separators=(',', ':'), ensure_ascii=False)
    findings = lint_config(SHIPPED, KINDS)
    (model,) = [f for f in findings if f.rule == 'token-estimate-model']
    (whole,) = [f for f in findings if f.rule == 'token-estimate']
    assert model.value == count_tokens(text)[0] and f'is {len(text)} characters' in model.message
    assert 'outputSchema' not in json.dumps(seen) and model.value < whole.value
    line = format_findings(findings).splitlines()[-1]
    assert line.endswith(f'tools/list ~{whole.value} tokens, ~{model.value} of them seen by '
                         'the model'), line


def test_tool_entry_drops_duplicates_and_keeps_approval_meta():
    catalog = load_catalog(SHIPPED, kinds=KINDS)
    for t in catalog.tools:
        entry = tool_entry(t)
        sent = entry.get('annotations', {})
        assert 'title' not in sent, 'the title is sent once'
        # false hints whose MCP default is false are left out, every true one is sent: a
        # host applying the spec's defaults and one reading absent as false agree
        meant = {k: bool(t.annotations[k]) for k in HINT_DEFAULTS}
        assert HINT_DEFAULTS | sent == meant, t.name
        assert {k: sent.get(k, False) for k in HINT_DEFAULTS} == meant, t.name
        assert not {k for k, v in sent.items() if v is False and HINT_DEFAULTS[k] is False}
        assert (sent == {}) == ('annotations' not in entry), 'no empty object'
        assert entry.get('_meta') == ({APPROVAL_META_KEY: True} if t.requires_approval
                                      else None)


def test_token_estimate_grows_with_descriptions(tmp_path):
    doc = shipped_tools()
    tool(doc, 'stop_arm')['description']['en'] += ' Extra words.' * 40
    longer = [f.value for f in lint_config(write_config(tmp_path, doc), KINDS)
              if f.rule == 'token-estimate']
    shipped = [f.value for f in lint_config(SHIPPED, KINDS) if f.rule == 'token-estimate']
    assert longer[0] > shipped[0] + 100


def test_json_output_parses(capsys):
    assert main([SHIPPED, '--json'], KINDS) == 0
    out = json.loads(capsys.readouterr().out)
    assert out['summary']['error'] == 0 and out['summary']['warning'] == 0
    assert out['summary']['tokens'] > out['summary']['model_tokens'] > 0
    assert {'rule', 'severity', 'tool', 'path', 'file', 'line', 'message', 'fix'} <= set(
        out['findings'][0])


def test_json_output_reports_errors(tmp_path, capsys):
    doc = shipped_tools()
    m_force_over_limit(doc)
    assert main([write_config(tmp_path, doc), '--json'], KINDS) == 1
    out = json.loads(capsys.readouterr().out)
    assert out['summary']['error'] == 1
    assert [f['rule'] for f in out['findings'] if f['severity'] == 'error'] == ['robot-limits']


def test_format_one_line_per_finding_then_summary(tmp_path):
    doc = shipped_tools()
    m_force_over_limit(doc)
    findings = lint_config(write_config(tmp_path, doc), KINDS)
    lines = format_findings(findings).splitlines()
    assert len(lines) == len(findings) + 1
    pattern = (r'^.+tools\.yaml:\d+: error robot-limits '
               rf'{GRASP}/input\.properties\.force_n: .+\. Fix: .+$')
    assert any(re.match(pattern, line) for line in lines), lines
    assert re.match(r'^1 error\(s\), 0 warning\(s\), 2 info; tools/list ~\d+ tokens, '
                    r'~\d+ of them seen by the model$',
                    lines[-1])


def test_yaml_syntax_error_is_one_finding_not_a_crash(tmp_path):
    config = write_config(tmp_path, tools_text='format: 1\ntools:\n  - name: [unclosed\n')
    findings = [f for f in lint_config(config, KINDS) if f.severity == 'error']
    assert [(f.rule, f.line) for f in findings] == [('config-load', 4)]
    assert 'YAML syntax error' in findings[0].message
    assert main([config], KINDS) == 1


def test_robot_yaml_problem_is_one_finding_with_line(tmp_path):
    with open(os.path.join(SHIPPED, 'robot.yaml'), encoding='utf-8') as f:
        robot = f.read()
    bad = robot.replace('max_velocity_scaling: 0.5', 'max_velocity_scaling: 2')
    config = write_config(tmp_path, shipped_tools(), robot_text=bad)
    (finding,) = lint_config(config, KINDS)
    assert (finding.rule, finding.severity, finding.path) == (
        'config-load', 'error', 'limits.max_velocity_scaling')
    assert finding.file.endswith('robot.yaml')
    assert 'max_velocity_scaling: 2' in bad.splitlines()[finding.line - 1]
    assert main([config], KINDS) == 1


# The rules of the loader's pass (catalog/checks.py): what keeps a catalog from loading.
LOAD_RULES = {'config-format', 'name-pattern', 'name-unique', 'unknown-kind', 'robot-ref',
              'schema-valid', 'schema-object', 'kind-parameter', 'kind-default', 'robot-limits',
              'joint-count', 'binding', 'text-placeholder'}


@pytest.mark.parametrize('rule,severity,tool_name,path,mutate', CASES,
                         ids=[f'{c[0]}:{c[4].__name__[2:]}' for c in CASES])
def test_loader_raises_the_first_error_of_the_same_pass(tmp_path, rule, severity,
                                                        tool_name, path, mutate):
    doc = shipped_tools()
    mutate(doc)
    config = write_config(tmp_path, doc)
    findings = lint_config(config, KINDS)
    if rule not in LOAD_RULES:  # advice: the catalog still loads
        assert load_catalog(config, kinds=KINDS).tools
        return
    with pytest.raises(ConfigError) as err:
        load_catalog(config, kinds=KINDS)
    (hit,) = [f for f in findings if f.rule == rule]
    assert (err.value.file, err.value.line) == (hit.file, hit.line)
    assert err.value.problem == f'{hit.message}; {hit.fix}'
    assert [f for f in findings if f.rule in LOAD_RULES] == [hit], 'one finding per problem'


def test_loader_error_not_duplicated(tmp_path):
    doc = shipped_tools()
    m_unknown_kind(doc)
    findings = lint_config(write_config(tmp_path, doc), KINDS)
    assert [f.rule for f in findings if f.severity == 'error'] == ['unknown-kind']


def test_missing_config_dir_is_a_finding(tmp_path):
    (finding,) = lint_config(str(tmp_path / 'absent'), KINDS)
    assert finding.rule == 'config-load' and 'cannot read' in finding.message
    assert main([str(tmp_path / 'absent')], KINDS) == 1


def test_velocity_minimum_above_zero_is_accepted(tmp_path):
    doc = shipped_tools()
    p = props(doc, 'move_arm_joints')['velocity_scaling']
    del p['exclusiveMinimum']
    p['minimum'] = 0.05
    assert [f.rule for f in lint_config(write_config(tmp_path, doc), KINDS)] == MEASURES


def test_non_numeric_scale_is_a_finding_not_a_crash(tmp_path):
    doc = shipped_tools()
    props(doc, 'release_object')['width_m']['maximum'] = {
        '$robot': 'gripper.max_width_m', 'scale': '1000'}
    config = write_config(tmp_path, doc)
    errors = [f for f in lint_config(config, KINDS) if f.severity == 'error']
    assert [(f.rule, f.tool) for f in errors] == [('robot-ref', 'release_object')]
    assert main([config], KINDS) == 1


def test_a_tool_off_the_format_is_reported_once_and_hides_no_other(tmp_path):
    doc = shipped_tools()
    m_config_format(doc)
    m_force_over_limit(doc)
    findings = lint_config(write_config(tmp_path, doc), KINDS)
    errors = [(f.rule, f.tool) for f in findings if f.severity == 'error']
    assert sorted(errors) == [('config-format', 'stop_arm'), ('robot-limits', GRASP)]
