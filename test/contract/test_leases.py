"""
Leases over MCP, both protocol generations: one client drives the arm, the others wait.

Two in-memory clients with their own names on one bridge (the recording backend
counts what reached the robot): the first motion takes the lease; the other
client's motion is ROBOT_LEASED naming the holder, with nothing moved, while its
reads, previews and stop_arm still work; release_robot, expiry (the book's clock
moved, no sleep) or the holder leaving (legacy: its connection closes) hand it over.
"""

from __future__ import annotations

import anyio
from bridge_kit import error_code, make_bridge, MODES, POSE_ARGS, text_of
from mcp import Client
from mcp_ros_bridge.server.calls import CallSettings
import mcp_types as types
import pytest

pytestmark = [pytest.mark.contract, pytest.mark.anyio]


def named(bridge, mode: str, name: str) -> Client:
    return Client(bridge.server, mode=mode,
                  client_info=types.Implementation(name=name, version='1.0'))


@pytest.mark.parametrize('mode', MODES)
async def test_a_second_client_is_refused_until_the_holder_releases(mode):
    bridge, backend = make_bridge()
    with anyio.fail_after(60):
        async with named(bridge, mode, 'agent-a') as a, named(bridge, mode, 'agent-b') as b:
            moved = await a.call_tool('move_arm_to_pose', POSE_ARGS)
            refused = await b.call_tool('move_arm_to_pose', POSE_ARGS)
            preview = await b.call_tool('move_arm_to_pose', {**POSE_ARGS, 'plan_only': True})
            read = await b.call_tool('get_joint_states', {})
            stop = await b.call_tool('stop_arm', {})
            not_mine = await b.call_tool('release_robot', {})
            again = await a.call_tool('move_arm_to_pose', POSE_ARGS)
            released = await a.call_tool('release_robot', {})
            taken = await b.call_tool('move_arm_to_pose', POSE_ARGS)
            now_refused = await a.call_tool('move_arm_to_pose', POSE_ARGS)
    assert not moved.is_error and not again.is_error, text_of(moved)
    assert error_code(refused) == 'ROBOT_LEASED'
    text = text_of(refused)
    assert '"agent-a"' in text and 'Nothing moved' in text and 'release_robot' in text
    details = refused.structured_content or {}
    assert 'agent-a' in str(details) or 'agent-a' in text
    assert not preview.is_error and not read.is_error and not stop.is_error, text_of(preview)
    assert not_mine.structured_content == {'released': False, 'held_by': 'agent-a'}
    assert released.structured_content == {'released': True, 'held_by': ''}
    assert not taken.is_error, text_of(taken)
    assert error_code(now_refused) == 'ROBOT_LEASED' and '"agent-b"' in text_of(now_refused)
    assert len(backend.motion_calls) == 3, 'the refused motions reached nothing'


@pytest.mark.parametrize('mode', MODES)
async def test_an_unrenewed_lease_expires(mode):
    bridge, backend = make_bridge(settings=CallSettings(motion_rate_per_s=1000.0,
                                                        motion_burst=1000, lease_ttl_s=30.0))
    book = bridge.pipeline.leases.book
    now = [1000.0]
    book._clock = lambda: now[0]
    with anyio.fail_after(60):
        async with named(bridge, mode, 'agent-a') as a, named(bridge, mode, 'agent-b') as b:
            await a.call_tool('move_arm_to_pose', POSE_ARGS)
            now[0] += 29.0
            refused = await b.call_tool('move_arm_to_pose', POSE_ARGS)
            now[0] += 1.0  # 30 s after agent-a's last call
            taken = await b.call_tool('move_arm_to_pose', POSE_ARGS)
    assert error_code(refused) == 'ROBOT_LEASED' and 'expires 1 s' in text_of(refused)
    assert not taken.is_error, text_of(taken)
    assert len(backend.motion_calls) == 2


async def test_the_holder_leaving_hands_it_over():
    """Legacy: the holder's connection closing (its deadman) ends its lease at once."""
    bridge, backend = make_bridge()
    with anyio.fail_after(60):
        async with named(bridge, 'legacy', 'agent-b') as b:
            async with named(bridge, 'legacy', 'agent-a') as a:
                await a.call_tool('move_arm_to_pose', POSE_ARGS)
                refused = await b.call_tool('move_arm_to_pose', POSE_ARGS)
            taken = await b.call_tool('move_arm_to_pose', POSE_ARGS)
    assert error_code(refused) == 'ROBOT_LEASED'
    assert not taken.is_error, text_of(taken)
    assert len(backend.motion_calls) == 2


async def test_leases_off_lets_every_client_move():
    bridge, backend = make_bridge(settings=CallSettings(motion_rate_per_s=1000.0,
                                                        motion_burst=1000, lease_ttl_s=0.0))
    with anyio.fail_after(60):
        async with named(bridge, 'legacy', 'a') as a, named(bridge, 'legacy', 'b') as b:
            await a.call_tool('move_arm_to_pose', POSE_ARGS)
            moved = await b.call_tool('move_arm_to_pose', POSE_ARGS)
            released = await b.call_tool('release_robot', {})
    assert not moved.is_error and len(backend.motion_calls) == 2
    assert 'off' in text_of(released)


@pytest.mark.parametrize('mode', MODES)
async def test_anyone_stops_the_holders_motion(mode):
    bridge, backend = make_bridge()
    backend.hold_motion = True
    results = []
    with anyio.fail_after(60):
        async with named(bridge, mode, 'agent-a') as a, named(bridge, mode, 'agent-b') as b, \
                anyio.create_task_group() as tg:
            async def move() -> None:
                results.append(await a.call_tool('move_arm_to_pose', POSE_ARGS))
            tg.start_soon(move)
            await backend.motion_started.wait()
            stop = await b.call_tool('stop_arm', {})
    assert not stop.is_error and stop.structured_content['stopped_motion'] is True
    assert results[0].structured_content['status'] == 'STOPPED', text_of(results[0])
