"""The tools/list: every parameter described in each tool; shared results said once."""

import json
import re

from jsonschema import Draft202012Validator
from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.listing import list_bytes, tool_entries, tool_entry
from mcp_ros_bridge.catalog.loader import load_catalog
from mcp_ros_bridge.catalog.robot import default_config_dir
import pytest

MOTIONS = ['move_arm_to_pose', 'move_arm_joints', 'plan_trajectory', 'move_arm_relative',
           'move_arm_to_posture']


@pytest.fixture(scope='module', params=['en', 'zh'])
def listed(request):
    catalog = load_catalog(default_config_dir(), request.param, kinds=KINDS)
    return catalog, {e['name']: e for e in tool_entries(catalog.tools, request.param)}


def test_the_motion_result_is_spelled_once_and_named_after(listed):
    catalog, entries = listed
    first, *rest = [entries[n]['outputSchema'] for n in MOTIONS]
    assert {'scene_changes', 'peak_force_n', 'path_length_m', 'grip'} <= set(first['properties'])
    assert 'description' in first['properties']['peak_force_n']
    for name, schema in zip(MOTIONS[1:], rest):
        assert 'properties' not in schema and 'move_arm_to_pose' in schema['description'], name
        assert schema['required'] == first['required'], name
        assert tool_entry(catalog.get(name))['outputSchema'] == tool_entry(
            catalog.get('move_arm_to_pose'))['outputSchema'], 'the kinds return one shape'


def test_every_parameter_keeps_its_description_and_bounds_in_every_tool(listed):
    """A host shows one tool's schema at a time: no parameter relies on another tool's text."""
    catalog, entries = listed
    for n in MOTIONS:
        key = entries[n]['inputSchema']['properties']['idempotency_key']
        assert key['maxLength'] == 64 and key['pattern'] and key['description'], n
        vel = entries[n]['inputSchema']['properties']['velocity_scaling']
        assert vel['exclusiveMinimum'] == 0 and vel['maximum'] > 0 and vel['description'], n
    for spec in catalog.tools:  # the listed input schema is the tool's own, whole
        assert entries[spec.name]['inputSchema'] == spec.input_schema, spec.name


def test_every_listed_schema_is_still_a_valid_schema(listed):
    _, entries = listed
    for e in entries.values():
        Draft202012Validator.check_schema(e['inputSchema'])
        Draft202012Validator.check_schema(e['outputSchema'])
        assert e['outputSchema']['type'] == 'object'


def test_the_list_is_smaller_than_its_entries_one_by_one(listed):
    catalog, entries = listed
    alone = list_bytes([tool_entry(t) for t in catalog.tools])
    shared = list_bytes(list(entries.values()))
    assert shared < alone * 0.85, (shared, alone)
    assert json.dumps(entries['list_objects']['outputSchema']).count('position_m') <= 1


def _descriptions(schema):
    if isinstance(schema, dict):
        for k, v in schema.items():
            if k == 'description' and isinstance(v, str):
                yield v
            else:
                yield from _descriptions(v)
    elif isinstance(schema, list):
        for v in schema:
            yield from _descriptions(v)


def test_result_schema_texts_are_in_the_listed_language(listed):
    catalog, entries = listed
    lang = 'zh' if entries['stop_arm']['title'] == '停止机械臂' else 'en'
    texts = [d for e in entries.values() for d in _descriptions(e['outputSchema'])]
    assert len(texts) >= 8  # peak force, path length, grip, scene changes, pose forms...
    han = [bool(re.search(r'[\u4e00-\u9fff]', d)) for d in texts]
    assert all(han) if lang == 'zh' else not any(han), texts
    assert type(catalog.get('move_arm_to_pose').output_schema['properties']['peak_force_n'][
        'description']) is not str, 'the catalog keeps the table text; the list renders it'
