"""
Named negative tests, one per validation rule, through the in-memory client.

Each asserts the failure contract: isError, the parameter named, the allowed
range or values stated, a "Valid example:" that itself succeeds, what a
corrected call returns, and zero calls reaching the backend.
"""

from __future__ import annotations

import math
from typing import Any

import anyio
from bridge_kit import HOME, make_bridge, MODES, parse_example, POSE_ARGS, text_of
from jsonschema import Draft202012Validator
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_ros_bridge.contract.results import error_block
import mcp_types as types
import pytest

pytestmark = [pytest.mark.contract, pytest.mark.anyio]


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest) -> str:
    """Run the test once per protocol generation."""
    return request.param


def pose(**position: Any) -> dict[str, Any]:
    """Return move_arm_to_pose arguments with ``position`` overridden."""
    return {'position': {**POSE_ARGS['position'], **position}}


async def check_rejected(mode: str, tool: str, args: Any, param: str, *allowed: str,
                         also: tuple[str, ...] = ()) -> str:
    """Call with bad ``args`` and check the whole failure contract; return the error text."""
    bridge, backend = make_bridge()
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(10):
            schema = {t.name: t for t in (await client.list_tools()).tools}[tool].input_schema
            result = await client.call_tool(tool, args)
            text = text_of(result)
            assert result.is_error, text
            assert error_block(result)['code'] == 'INVALID_ARGUMENTS'
            assert result.structured_content is None, 'no client may reject the error text'
            assert backend.calls == [], 'invalid arguments reached the backend'
            assert param in text, f'{param!r} not named in:\n{text}'
            fields = error_block(result)['details']['fields']
            # The machine-readable field is the parameter or (unknown/missing keys) its parent.
            assert any(f == 'arguments' or param == f or param.startswith(f) or
                       f.startswith(param) for f in fields), fields
            for part in allowed + also:
                assert part in text, f'{part!r} missing from:\n{text}'
            assert 'nothing was executed' in text
            assert '\nA corrected call returns ' in text
            example_tool, example = parse_example(text)
            assert example_tool == tool
            assert not list(Draft202012Validator(schema).iter_errors(example))
            fixed = await client.call_tool(example_tool, example)
            assert not fixed.is_error, text_of(fixed)
    return text


async def test_call_rejects_string_for_number(mode: str) -> None:
    """'15N' and '0.2' are not numbers: no coercion, and the bare number is suggested."""
    await check_rejected(mode, 'grasp_object_force_control', {'force_n': '15N'}, 'force_n',
                         '[5.0, 30.0]', also=('got a string "15N"', 'bare JSON number 15'))
    await check_rejected(mode, 'move_arm_to_pose', {**POSE_ARGS, 'velocity_scaling': '0.2'},
                         'velocity_scaling', '(0, 0.5]', also=('bare JSON number 0.2',))


async def test_call_rejects_boolean_for_number(mode: str) -> None:
    """A boolean is not a number (jsonschema would accept it as 1 without the type check)."""
    await check_rejected(mode, 'grasp_object_force_control', {'force_n': True}, 'force_n',
                         '[5.0, 30.0]', also=('boolean',))
    await check_rejected(mode, 'read_ft_sensor', {'window_s': False}, 'window_s', '(0, 2]',
                         also=('boolean',))


async def test_call_rejects_unknown_key(mode: str) -> None:
    """Unknown keys are refused and the allowed keys listed."""
    await check_rejected(mode, 'move_arm_to_pose', {**POSE_ARGS, 'speed': 1}, 'speed',
                         'position, orientation, velocity_scaling, plan_only, idempotency_key')
    await check_rejected(mode, 'move_arm_to_pose', pose(w=1.0), 'position', 'x, y, z',
                         also=("'w' was unexpected",))


async def test_call_rejects_missing_required(mode: str) -> None:
    """A missing required parameter is named with what it must be."""
    await check_rejected(mode, 'move_arm_to_pose', {}, 'position', 'with keys x, y, z')
    await check_rejected(mode, 'move_arm_to_pose', {'position': {'x': 0.5, 'y': 0.0}},
                         'position.z', '[0.009, 1.19]')
    await check_rejected(mode, 'pick_object', {}, 'object', '"box", "cylinder"')


@pytest.mark.parametrize('z', [1.5, -0.1])
async def test_call_rejects_out_of_range(mode: str, z: float) -> None:
    """Above the maximum and below the minimum, nested (position.z) and top level."""
    await check_rejected(mode, 'move_arm_to_pose', pose(z=z), 'position.z', '[0.009, 1.19]',
                         also=(f'is {z}', '(m)'))
    force = 31 if z > 0 else 4.9
    await check_rejected(mode, 'grasp_object_force_control', {'force_n': force}, 'force_n',
                         '[5.0, 30.0]', also=('(N)',))


async def test_call_rejects_enum_violation(mode: str) -> None:
    """A value outside a closed set lists the allowed values."""
    await check_rejected(mode, 'read_ft_sensor', {'filter': 'median'}, 'filter',
                         '"raw", "kalman", "moving_average"', also=('"median"',))


async def test_call_rejects_nan_and_infinity(mode: str) -> None:
    """Refuse NaN and ±inf (JSON clients send them as null; the server also checks)."""
    await check_rejected(mode, 'move_arm_to_pose', pose(x=math.nan), 'position.x',
                         '[-0.855, 0.855]', also=('finite',))
    for bad in (math.inf, -math.inf):
        await check_rejected(mode, 'move_arm_to_pose', {**POSE_ARGS, 'velocity_scaling': bad},
                             'velocity_scaling', '(0, 0.5]')


@pytest.mark.parametrize('value', [math.nan, math.inf, -math.inf])
async def test_pipeline_rejects_raw_non_finite_numbers(value: float) -> None:
    """A real NaN/inf reaching the handler (not via JSON) is refused before the schema runs."""
    bridge, backend = make_bridge()
    result = await bridge.pipeline.call(None, types.CallToolRequestParams(
        name='move_arm_to_pose', arguments=pose(y=value)))
    text = text_of(result)
    assert result.is_error and 'position.y' in text and 'not a finite number' in text, text
    assert '[-0.855, 0.855]' in text and 'Valid example:' in text
    assert backend.calls == []


async def test_call_rejects_1e308(mode: str) -> None:
    """Huge finite numbers fail the bounds."""
    await check_rejected(mode, 'move_arm_to_pose', pose(x=1e308), 'position.x',
                         '[-0.855, 0.855]')
    await check_rejected(mode, 'read_ft_sensor', {'window_s': 1e308}, 'window_s', '(0, 2]')


async def test_call_rejects_huge_string(mode: str) -> None:
    """A 100,000-character string is refused by the pre-scan, stating the real limit."""
    text = await check_rejected(mode, 'move_arm_to_pose',
                                {**POSE_ARGS, 'idempotency_key': 'a' * 100_000},
                                'idempotency_key', 'at most 64 characters')
    assert len(text) < 2000, 'the error must not echo the huge string'


async def test_call_rejects_deep_nesting(mode: str) -> None:
    """Deeply nested values are refused without recursion errors."""
    deep: Any = 0.5
    for _ in range(200):
        deep = {'x': deep}
    await check_rejected(mode, 'move_arm_to_pose', {'position': deep}, 'position.x',
                         '[-0.855, 0.855]', also=('nesting deeper than',))
    nested: Any = []
    for _ in range(200):
        nested = [nested]
    await check_rejected(mode, 'read_ft_sensor', {'axes': nested}, 'axes',
                         '"Fx", "Fy", "Fz", "Mx", "My", "Mz"')


async def test_call_rejects_wrong_array_length(mode: str) -> None:
    """move_arm_joints needs exactly seven angles."""
    await check_rejected(mode, 'move_arm_joints', {'positions': HOME[:6]}, 'positions',
                         'at least 7 items')
    await check_rejected(mode, 'move_arm_joints', {'positions': HOME + [0.0]}, 'positions',
                         'at most 7 items')


async def test_call_rejects_duplicate_axes(mode: str) -> None:
    """Axes are a set: a repeated axis is refused."""
    await check_rejected(mode, 'read_ft_sensor', {'axes': ['Fx', 'Fz', 'Fx']}, 'axes',
                         'no repeated items', '"Fx", "Fy", "Fz", "Mx", "My", "Mz"')


async def test_call_rejects_zero_velocity_scaling(mode: str) -> None:
    """0 is refused (MoveIt turns a zero scaling factor into full speed)."""
    for tool, args in (('move_arm_to_pose', POSE_ARGS), ('move_arm_joints', {'positions': HOME}),
                       ('plan_trajectory', {'waypoints': [{'x': 0.5, 'y': 0, 'z': 0.2}] * 2})):
        await check_rejected(mode, tool, {**args, 'velocity_scaling': 0}, 'velocity_scaling',
                             '(0, 0.5]')


@pytest.mark.parametrize('bad', [[1, 2], 'x', 5, None])
async def test_call_rejects_non_object_arguments(mode: str, bad: Any) -> None:
    """
    Non-object arguments never reach the backend.

    The SDK refuses them on the wire (-32602) before the handler runs; the
    handler's own check answers an isError when called directly.
    """
    bridge, backend = make_bridge()
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(10):
            if bad is not None:
                request = types.CallToolRequest(params=types.CallToolRequestParams
                                                .model_construct(name='get_joint_states',
                                                                 arguments=bad))
                with pytest.warns(UserWarning), pytest.raises(MCPError) as info:
                    await client.session.send_request(request,
                                                      client.session._call_tool_adapter)
                assert info.value.code == types.INVALID_PARAMS
            else:
                # No arguments at all means {} for a tool without required parameters.
                assert not (await client.call_tool('get_joint_states', None)).is_error
                backend.calls.clear()
    if bad is not None:
        direct = await bridge.pipeline.call(None, types.CallToolRequestParams.model_construct(
            name='move_arm_to_pose', arguments=bad))
        assert direct.is_error and 'must be a JSON object' in text_of(direct)
    assert backend.calls == []
