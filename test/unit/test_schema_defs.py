"""A shape repeated inside one result schema is defined once in $defs; validation is unchanged."""

import json

from jsonschema import Draft202012Validator
from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.listing import tool_entries
from mcp_ros_bridge.catalog.loader import load_catalog
from mcp_ros_bridge.catalog.robot import default_config_dir
from mcp_ros_bridge.catalog.schema_defs import with_defs

NUM = {'type': 'number'}
XYZ = {'type': 'object', 'properties': {'x': NUM, 'y': NUM, 'z': NUM},
       'required': ['x', 'y', 'z']}
SCHEMA = {'type': 'object', 'properties': {
    'a': XYZ, 'b': {'type': 'object', 'properties': {'c': XYZ}},
    'many': {'type': 'array', 'items': XYZ}, 'n': NUM}, 'required': ['a']}
GOOD = {'a': {'x': 1, 'y': 2, 'z': 3}, 'b': {'c': {'x': 0, 'y': 0, 'z': 0}},
        'many': [{'x': 1, 'y': 1, 'z': 1}], 'n': 4}
BAD = [{**GOOD, 'a': {'x': 1, 'y': 2}}, {**GOOD, 'many': [{'x': 1, 'y': 1, 'z': 'up'}]},
       {**GOOD, 'b': {'c': {}}}]


def compact(schema):
    return json.dumps(schema, separators=(',', ':'))


def test_a_repeated_shape_is_defined_once_and_validates_the_same():
    shared = with_defs(SCHEMA)
    Draft202012Validator.check_schema(shared)
    assert shared['$defs'] == {'xyz': XYZ}
    assert compact(shared).count('"x":') == 1 and compact(shared).count('#/$defs/xyz') == 3
    assert len(compact(shared)) < len(compact(SCHEMA))
    for schema in (SCHEMA, shared):
        assert Draft202012Validator(schema).is_valid(GOOD)
        assert not [b for b in BAD if Draft202012Validator(schema).is_valid(b)]


def test_a_schema_without_repeats_or_with_short_ones_is_left_as_it_is():
    once = {'type': 'object', 'properties': {'a': XYZ, 'n': NUM, 'm': NUM}}
    assert with_defs(once) == once
    assert 'a' in with_defs(SCHEMA)['properties'] and SCHEMA['properties']['a'] == XYZ


def test_the_shipped_guarded_move_result_references_its_point_shape():
    for lang in ('en', 'zh'):
        catalog = load_catalog(default_config_dir(), lang, kinds=KINDS)
        out = {e['name']: e for e in tool_entries(catalog.tools, lang)}[
            'move_until_contact']['outputSchema']
        contact = out['properties']['contact']['properties']
        assert contact['point_m'] == contact['tip_m'] == {'$ref': '#/$defs/xyz'}
        assert Draft202012Validator(out).is_valid({
            'status': 'CONTACT', 'message': 'm', 'travelled_m': 0.1, 'duration_s': 1.0,
            'ended_by': 'contact',
            'contact': {'point_m': {'x': 0.5, 'y': 0, 'z': 0},
                        'tip_m': {'x': 0.5, 'y': 0, 'z': 0.01}}})
        for schema in (out, catalog.get('move_until_contact').output_schema):
            assert not Draft202012Validator(schema).is_valid({
                'status': 'CONTACT', 'message': 'm', 'travelled_m': 0.1, 'duration_s': 1.0,
                'ended_by': 'contact',
                'contact': {'point_m': {'x': 0.5, 'y': 0}}})
