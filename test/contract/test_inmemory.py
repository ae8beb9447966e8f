"""In-memory MCP client against the bridge, in both protocol generations the SDK speaks."""

from __future__ import annotations

import json
import os
from typing import Any

import anyio
from bridge_kit import (APPROVAL_EDIT, BackgroundCalls, CONFIG_DIR, copy_config, error_code,
                        HOME, make_bridge, MODES, POSE_ARGS, text_of)
from jsonschema import Draft202012Validator
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_ros_bridge.contract.results import error_block
from mcp_ros_bridge.server.calls import CallSettings
import mcp_types as types
import pytest
import yaml

pytestmark = [pytest.mark.contract, pytest.mark.anyio]

READ_ONLY = {'read_ft_sensor', 'get_joint_states', 'get_end_effector_pose', 'list_objects',
             'capture_scene_image', 'read_gripper_state', 'get_robot_info'}
MOTION = {'move_arm_to_pose', 'move_arm_joints', 'plan_trajectory', 'move_arm_relative',
          'move_arm_to_posture', 'grasp_object_force_control', 'release_object',
          'move_until_contact', 'pick_object', 'place_object', 'push_object', 'close_gripper',
          'execute_plan'}
JOBS = {'pick_object': 5, 'place_object': 6,  # their motions on the double (lift, carry...)
        'push_object': 6}
VALID_CALLS: dict[str, dict[str, Any]] = {
    'move_arm_to_pose': {'position': {'x': 0.5, 'y': 0.1, 'z': 0.3},
                         'orientation': {'roll': 180, 'pitch': 0, 'yaw': 45},
                         'velocity_scaling': 0.3},
    'move_arm_joints': {'positions': HOME},
    'move_arm_relative': {'offset': {'z': 0.1}, 'frame': 'tool'},
    'move_arm_to_posture': {'posture': 'home'},
    'execute_plan': {'plan_id': ''},  # the id a plan_only call returns just before
    'plan_trajectory': {'waypoints': [{'x': 0.5, 'y': 0.0, 'z': 0.25},
                                      {'x': 0.5, 'y': 0.0, 'z': 0.15}]},
    'grasp_object_force_control': {'force_n': 15, 'strategy': 'gentle'},
    'release_object': {'width_m': 0.06},
    'close_gripper': {'width_m': 0.01},
    'stop_arm': {},
    'release_robot': {},
    'move_until_contact': {'direction': 'down', 'max_distance_m': 0.05},
    'pick_object': {'object': 'box'},
    'place_object': {'target': {'x': 0.45, 'y': 0.2}},
    'push_object': {'object': 'box', 'direction': 'left', 'distance_m': 0.05},
    'read_ft_sensor': {'filter': 'moving_average', 'axes': ['Fz', 'Mx'], 'window_s': 0.01},
    'tare_ft_sensor': {'window_s': 0.05},
    'get_joint_states': {'include_gripper': False},
    'get_end_effector_pose': {},
    'list_objects': {},
    'read_gripper_state': {},
    'get_robot_info': {},
    'capture_scene_image': {'width_px': 320},
}


def shipped_tool_names() -> list[str]:
    """Read the tool names straight from the shipped YAML, independently of the server."""
    with open(os.path.join(CONFIG_DIR, 'tools.yaml'), encoding='utf-8') as f:
        return [t['name'] for t in yaml.safe_load(f)['tools']]


# MCP ToolAnnotations: the value a host assumes for a hint the server leaves out
SPEC_DEFAULTS = {'readOnlyHint': False, 'destructiveHint': True, 'idempotentHint': False,
                 'openWorldHint': True}


def hints(tool: types.Tool) -> dict[str, bool]:
    """Return the tool's four hints as a host reads them: an absent hint is the spec's default."""
    sent = tool.annotations.model_dump(by_alias=True, exclude_none=True) if tool.annotations \
        else {}
    return SPEC_DEFAULTS | {k: v for k, v in sent.items() if k in SPEC_DEFAULTS}


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest) -> str:
    """Run the test once per protocol generation."""
    return request.param


async def test_list_tools_publishes_every_shipped_tool(mode: str) -> None:
    """tools/list: every shipped tool with title, description, schemas and annotations."""
    bridge, _ = make_bridge()
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(10):
            tools = {t.name: t for t in (await client.list_tools()).tools}
    names = shipped_tool_names()
    assert sorted(tools) == sorted(names)
    assert set(VALID_CALLS) == set(names), 'every shipped tool needs a valid call here'
    for name, tool in tools.items():
        assert tool.title and tool.description and len(tool.description) > 80, name
        Draft202012Validator.check_schema(tool.input_schema)
        Draft202012Validator.check_schema(tool.output_schema)
        assert tool.input_schema['type'] == 'object', name
        assert tool.input_schema.get('additionalProperties') is False, name
        assert tool.output_schema['type'] == 'object', name
        a = hints(tool)
        if name in READ_ONLY:
            assert a['readOnlyHint'] is True, name
            assert a['destructiveHint'] is False, name
        elif name in MOTION:  # sent: the true hints; left out: the false ones (as the default)
            assert tool.annotations is not None and tool.annotations.destructive_hint is True
            assert tool.annotations.read_only_hint is None, name
            assert not a['readOnlyHint'] and a['destructiveHint'], name
            assert a['idempotentHint'] is False, name
        elif name in ('tare_ft_sensor', 'release_robot'):  # the bridge's state, not the robot
            assert (a['readOnlyHint'], a['destructiveHint'], a['openWorldHint']) == (
                False, False, False), name
        else:
            assert name == 'stop_arm'
            assert a['idempotentHint'] is True and a['destructiveHint'] is False
            assert a['readOnlyHint'] is False


@pytest.mark.parametrize('tool', sorted(VALID_CALLS))
async def test_successful_call_matches_output_schema(mode: str, tool: str) -> None:
    """A valid call returns text plus structuredContent valid against the published schema."""
    bridge, backend = make_bridge()
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(10):
            listed = {t.name: t for t in (await client.list_tools()).tools}
            if tool == 'place_object':  # holding the box; the double's poses do not follow it
                await client.call_tool('pick_object', {'object': 'box'})
                backend.calls.clear()
            args = VALID_CALLS[tool]
            if tool == 'execute_plan':
                planned = await client.call_tool('move_arm_to_posture',
                                                 {'posture': 'home', 'plan_only': True})
                args = {'plan_id': planned.structured_content['plan_id']}
            result = await client.call_tool(tool, args)
    if tool in ('place_object', 'push_object'):  # the double's objects never move: verify fails
        assert error_block(result)['code'] in ('PLACEMENT_OFF', 'SHORT'), text_of(result)
        assert result.structured_content['steps_done'][-1] == 'retreat'
    else:
        assert not result.is_error, text_of(result)
    assert text_of(result).strip()
    assert result.structured_content is not None
    errors = list(Draft202012Validator(listed[tool].output_schema)
                  .iter_errors(result.structured_content))
    assert not errors, [e.message for e in errors]
    moved = len(backend.motion_calls)
    assert moved == JOBS.get(tool, 1 if tool in MOTION else 0)


async def test_image_tool_returns_png(mode: str) -> None:
    """capture_scene_image returns an ImageContent block besides the text."""
    bridge, _ = make_bridge()
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(10):
            result = await client.call_tool('capture_scene_image', {})
    images = [c for c in result.content if isinstance(c, types.ImageContent)]
    assert len(images) == 1 and images[0].mime_type == 'image/png'


async def test_unknown_tool_is_a_protocol_error(mode: str) -> None:
    """An unknown tool is a JSON-RPC error -32602 naming the tool, and nothing runs."""
    bridge, backend = make_bridge()
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(10):
            with pytest.raises(MCPError) as info:
                await client.call_tool('teleport_arm', {})
            assert info.value.code == -32602 == types.INVALID_PARAMS
            assert 'teleport_arm' in info.value.message
            # The connection stays usable.
            assert not (await client.call_tool('get_joint_states', {})).is_error
    assert backend.motion_calls == []


async def test_motion_reports_progress(mode: str) -> None:
    """Progress notifications of a motion reach the client's progress_callback."""
    bridge, _ = make_bridge()
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(10):
            result = await client.call_tool('move_arm_to_pose', POSE_ARGS,
                                            progress_callback=on_progress)
    assert not result.is_error, text_of(result)
    assert (0.5, 1.0, 'halfway') in seen


async def test_cancelling_a_motion_cancels_the_backend_and_stops(mode: str) -> None:
    """Client cancellation of an in-flight motion cancels the backend call and stops (deadman)."""
    bridge, backend = make_bridge()
    backend.hold_motion = True
    async with Client(bridge.server, mode=mode) as client:
        scope = anyio.CancelScope()
        outcome: list[Any] = []

        async def move() -> None:
            with scope:
                outcome.append(await client.call_tool('move_arm_to_pose', POSE_ARGS))

        with anyio.fail_after(10):
            async with anyio.create_task_group() as tg:
                tg.start_soon(move)
                await backend.motion_started.wait()
                scope.cancel()
            await backend.stopped.wait()
            assert outcome == [] and scope.cancelled_caught
            assert ('cancelled', 'move_to_pose') in backend.calls
            assert backend.calls.index(('cancelled', 'move_to_pose')) < \
                backend.calls.index(('stop', None))
            # The arm is free again and the connection still works.
            backend.hold_motion = False
            again = await client.call_tool('move_arm_joints', {'positions': HOME})
    assert not again.is_error, text_of(again)
    assert bridge.pipeline.arbiter.running is None


async def test_second_motion_busy_reads_concurrent_stop_preempts(mode: str) -> None:
    """One motion at a time; 50 concurrent reads still answer; stop_arm preempts the motion."""
    bridge, backend = make_bridge()
    backend.hold_motion = True
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(20):
            async with anyio.create_task_group() as tg:
                calls = BackgroundCalls(tg, client)
                calls.start('first', 'move_arm_to_pose', POSE_ARGS)
                await backend.motion_started.wait()

                busy = await client.call_tool('move_arm_joints', {'positions': HOME})
                assert busy.is_error and error_code(busy) == 'BUSY'
                assert 'move_arm_to_pose' in text_of(busy) and 'stop_arm' in text_of(busy)
                assert error_block(busy)['details']['running_tool'] == \
                    'move_arm_to_pose'

                reads: list[types.CallToolResult] = []
                read_tools = ['get_joint_states', 'read_ft_sensor', 'get_end_effector_pose',
                              'list_objects']

                async def read(i: int) -> None:
                    tool = read_tools[i % len(read_tools)]
                    reads.append(await client.call_tool(tool, VALID_CALLS[tool]))

                async with anyio.create_task_group() as readers:
                    for i in range(50):
                        readers.start_soon(read, i)
                assert len(reads) == 50
                assert not [text_of(r) for r in reads if r.is_error]
                assert 'first' not in calls.results, 'the held motion must still be running'

                stop = await client.call_tool('stop_arm', {})
                assert not stop.is_error, text_of(stop)
                assert stop.structured_content['stopped_motion'] is True
    first = calls.results['first']
    assert first.structured_content['status'] == 'STOPPED'
    assert len(backend.motion_calls) == 1
    assert bridge.pipeline.arbiter.running is None


async def test_stop_arm_is_idempotent_when_idle(mode: str) -> None:
    """stop_arm with nothing running answers (twice) that nothing was stopped."""
    bridge, backend = make_bridge()
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(10):
            for _ in range(2):
                r = await client.call_tool('stop_arm', {})
                assert not r.is_error and r.structured_content['stopped_motion'] is False
    assert [c for c in backend.calls if c[0] == 'stop'] == [('stop', None)] * 2


async def test_idempotency_key_replays_the_first_result(mode: str) -> None:
    """Same key and arguments → the first result again; the backend saw one motion."""
    bridge, backend = make_bridge()
    args = dict(POSE_ARGS, idempotency_key='pick-1')
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(10):
            r1 = await client.call_tool('move_arm_to_pose', args)
            r2 = await client.call_tool('move_arm_to_pose', args)
            other = await client.call_tool('move_arm_to_pose', dict(args, idempotency_key='p2'))
    assert not r1.is_error and not r2.is_error and not other.is_error
    assert r2.structured_content == r1.structured_content
    assert 'Replayed' in text_of(r2) and 'Replayed' not in text_of(r1)
    assert len(backend.motion_calls) == 2


async def test_idempotency_key_reuse_with_other_arguments_is_refused(mode: str) -> None:
    """Same key with different arguments → isError KEY_REUSED, nothing moves again."""
    bridge, backend = make_bridge()
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(10):
            r1 = await client.call_tool('move_arm_to_pose', dict(POSE_ARGS, idempotency_key='k'))
            r2 = await client.call_tool('move_arm_to_pose', {
                'position': {'x': 0.4, 'y': 0.0, 'z': 0.3}, 'idempotency_key': 'k'})
    assert not r1.is_error
    assert r2.is_error and error_code(r2) == 'KEY_REUSED'
    assert "'k'" in text_of(r2)
    assert len(backend.motion_calls) == 1


async def test_idempotent_repeat_while_running_waits_for_the_first(mode: str) -> None:
    """A repeat while the first call still runs waits for it and returns the same result."""
    bridge, backend = make_bridge()
    backend.hold_motion = True
    args = dict(POSE_ARGS, idempotency_key='slow-1')
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(10):
            async with anyio.create_task_group() as tg:
                calls = BackgroundCalls(tg, client)
                calls.start('first', 'move_arm_to_pose', args)
                await backend.motion_started.wait()
                calls.start('repeat', 'move_arm_to_pose', args)
                await anyio.wait_all_tasks_blocked()
                assert calls.results == {}, 'the repeat must wait, not answer BUSY'
                backend.release_motion.set()
    results = calls.results
    assert not results['first'].is_error and not results['repeat'].is_error, \
        text_of(results['repeat'])
    assert results['repeat'].structured_content == results['first'].structured_content
    assert len(backend.motion_calls) == 1


def _approval_bridge(tmp_path: Any, policy: str = 'deny') -> tuple[Any, Any]:
    cfg = copy_config(str(tmp_path / 'cfg'), APPROVAL_EDIT)
    return make_bridge(cfg, CallSettings(approval_policy=policy))


def _answer(action: str) -> Any:
    asked: list[str] = []

    async def on_elicit(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        if action == 'accept':
            return types.ElicitResult(action='accept', content={'approve': True})
        return types.ElicitResult(action=action)

    on_elicit.asked = asked  # type: ignore[attr-defined]
    return on_elicit


async def test_approval_accept_moves(mode: str, tmp_path: Any) -> None:
    """requires_approval: asked with the plan's facts; accept → that plan runs, not a re-plan."""
    bridge, backend = _approval_bridge(tmp_path)
    cb = _answer('accept')
    async with Client(bridge.server, mode=mode, elicitation_callback=cb) as client:
        with anyio.fail_after(10):
            r = await client.call_tool('move_arm_to_pose', POSE_ARGS)
            plain = await client.call_tool('move_arm_joints', {'positions': HOME})
    assert not r.is_error, text_of(r)
    assert len(cb.asked) == 1, 'only the tool marked requires_approval asks'
    assert 'Target: x=0.500' in cb.asked[0] and 'The plan: 0.20 s' in cb.asked[0]
    assert [c[0] for c in backend.calls].count('plan') == 1, 'planned once, asked, then run'
    assert not plain.is_error
    assert [c[0] for c in backend.motion_calls] == ['move_to_pose', 'move_to_joints']


@pytest.mark.parametrize('action', ['decline', 'cancel'])
async def test_approval_decline_moves_nothing(mode: str, tmp_path: Any, action: str) -> None:
    """Decline (or cancel) → isError NOT_APPROVED and nothing reached the backend."""
    bridge, backend = _approval_bridge(tmp_path)
    cb = _answer(action)
    async with Client(bridge.server, mode=mode, elicitation_callback=cb) as client:
        with anyio.fail_after(10):
            r = await client.call_tool('move_arm_to_pose', POSE_ARGS)
    assert len(cb.asked) == 1
    assert r.is_error and error_code(r) == 'NOT_APPROVED', text_of(r)
    assert 'nothing moved' in text_of(r)
    assert backend.motion_calls == []


@pytest.mark.parametrize('policy', ['deny', 'allow'])
async def test_approval_without_elicitation_follows_policy(mode: str, tmp_path: Any,
                                                           policy: str) -> None:
    """A client that cannot ask the user is denied by default, allowed with policy 'allow'."""
    bridge, backend = _approval_bridge(tmp_path, policy)
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(10):
            r = await client.call_tool('move_arm_to_pose', POSE_ARGS)
    if policy == 'deny':
        assert r.is_error and error_code(r) == 'NOT_APPROVED', text_of(r)
        assert 'elicitation' in text_of(r)
        assert backend.motion_calls == []
    else:
        assert not r.is_error, text_of(r)
        assert len(backend.motion_calls) == 1


async def test_motion_rate_limit(mode: str) -> None:
    """A token bucket per session: beyond the burst, motions get isError RATE_LIMITED."""
    bridge, backend = make_bridge(settings=CallSettings(motion_rate_per_s=0.001, motion_burst=2))
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(10):
            results = [await client.call_tool('move_arm_joints', {'positions': HOME})
                       for _ in range(4)]
            read = await client.call_tool('get_joint_states', {})
    assert [r.is_error for r in results] == [False, False, True, True]
    assert error_code(results[2]) == 'RATE_LIMITED'
    assert error_block(results[2])['details']['retry_after_s'] > 0
    assert not read.is_error, 'read-only tools are not rate limited'
    assert len(backend.motion_calls) == 2


async def test_audit_log_one_redacted_line_per_call(mode: str, tmp_path: Any) -> None:
    """The audit log writes one JSON line per call with secret-named fields redacted."""
    path = tmp_path / 'audit.jsonl'
    bridge, _ = make_bridge(audit_path=str(path))
    calls = [
        ('get_joint_states', {}),
        ('move_arm_to_pose', POSE_ARGS),
        ('get_joint_states', {'token': 'hunter2'}),
        ('move_arm_to_pose', {'position': {'x': 0.5, 'y': 0, 'z': 0.3, 'password': 's3cr3t'}}),
        ('read_ft_sensor', {'filter': 'raw', 'API_KEY': 'abc123'}),
    ]
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(10):
            for name, args in calls:
                await client.call_tool(name, args)
    bridge.pipeline.audit.close()
    text = path.read_text(encoding='utf-8')
    for secret in ('hunter2', 's3cr3t', 'abc123'):
        assert secret not in text
    lines = [json.loads(line) for line in text.splitlines()]
    assert [e['tool'] for e in lines] == [name for name, _ in calls]
    assert [e['outcome'] for e in lines] == ['ok', 'ok', 'error', 'error', 'error']
    assert lines[2]['args'] == {'token': '***'}
    assert lines[3]['args']['position']['password'] == '***'
    assert lines[3]['args']['position']['x'] == 0.5
    assert lines[4]['args']['API_KEY'] == '***'
    assert lines[2]['code'] == 'INVALID_ARGUMENTS'
    for e in lines:
        assert set(e) >= {'time', 'tool', 'args', 'duration_ms', 'outcome'}
        assert e['duration_ms'] >= 0
