"""Schema defaults: filled in one place, an absent all-defaulted object filled from its fields."""

from __future__ import annotations

from mcp_ros_bridge.catalog.defaults import all_defaulted, fill_defaults
import pytest

pytestmark = pytest.mark.unit

ANGLES = {'type': 'object', 'properties': {
    'roll': {'type': 'number', 'default': 180}, 'yaw': {'type': 'number', 'default': 0}}}
SCHEMA = {'type': 'object', 'properties': {'orientation': ANGLES,
                                           'speed': {'type': 'number', 'default': 0.2}}}


def test_an_absent_object_whose_fields_all_have_defaults_is_filled_from_them() -> None:
    """No own default needed: {} with each field's default, as a host leaving it out meant."""
    assert fill_defaults(SCHEMA, {}) == {'orientation': {'roll': 180, 'yaw': 0}, 'speed': 0.2}
    assert fill_defaults(SCHEMA, {'orientation': {'yaw': 90}}) == {
        'orientation': {'roll': 180, 'yaw': 90}, 'speed': 0.2}


@pytest.mark.parametrize('schema', [
    {'type': 'object', 'properties': {'x': {'type': 'number'}}},  # a field without a default
    {**ANGLES, 'required': ['roll']},  # a required field
    {'type': 'object', 'properties': {}},  # nothing to fill
])
def test_an_object_with_a_field_the_caller_must_give_is_not_filled(schema: dict) -> None:
    """Only an object the caller may leave out whole is filled."""
    assert not all_defaulted(schema)
    assert fill_defaults({'type': 'object', 'properties': {'o': schema}}, {}) == {}
