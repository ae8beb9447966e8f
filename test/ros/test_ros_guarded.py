"""
The guarded move on ROS through MCP: a wrench spike from the test peer stops it.

A ``BridgeServer`` on a real ``RosBackend`` runs ``move_until_contact`` against
the typed move_group fakes over DDS. The peer publishes the wrist wrench at
1 kHz with a constant 5 N (the gripper's weight, which must not trip a 3 N
threshold); once the fake arm executes, the peer adds 8 N. The guard trips on
the change, the execution "stop" halts the arm (confirmed still from joint
states) and the result is CONTACT with the change that stopped it.
"""

import asyncio

import anyio
from mcp import Client
from mcp_ros_bridge.contract.results import error_block
from mcp_ros_bridge.server.bridge import BridgeServer
from mcp_ros_bridge.server.calls import CallSettings
import pytest
import ros_support

pytestmark = [pytest.mark.ros_moveit, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
moveit_rig = ros_support.import_moveit_rig()


@pytest.mark.parametrize('mode', ('legacy', '2026-07-28'))
async def test_guarded_move_stops_on_a_wrench_spike(tmp_path, mode):
    raw = moveit_rig.tagged_yaml(moveit_rig.new_tag())
    catalog = moveit_rig.ros_catalog(tmp_path, raw)
    async with moveit_rig.rigged(config=catalog.robot) as (backend, fake, pub, _):
        fake.solution = [q + 0.02 for q in backend.config.home]
        fake.duration_s = 20.0
        bridge = BridgeServer(catalog, backend, CallSettings(motion_rate_per_s=1000.0,
                                                             motion_burst=1000))
        result = {}
        try:
            async with Client(bridge.server, mode=mode) as client:
                async def move():
                    result['r'] = await client.call_tool('move_until_contact', {
                        'direction': 'down', 'max_distance_m': 0.05, 'contact_force_n': 3})

                with anyio.fail_after(60):
                    async with anyio.create_task_group() as tg:
                        tg.start_soon(move)
                        assert await asyncio.to_thread(fake.executing.wait, 30.0)
                        assert 'r' not in result  # the 5 N at the start did not trip it
                        pub.force = (0.0, 0.0, 13.0)
        finally:
            bridge.close()
    r = result['r']
    text = r.content[0].text
    assert not r.is_error, text
    s = r.structured_content
    assert s['status'] == 'CONTACT', s
    assert 7.0 < s['contact']['force_n'] < 9.5, s  # the change since the start, not |F|
    assert s['contact']['point_source'] == 'tip'
    assert s['ended_by'] == 'contact' and 'by' not in s['contact']  # one wrist sensor
    assert 'does not say which part' in text and 'holds where it stopped' in text
    assert s['stop_latency_s'] < 2.0
    assert 'stop' in fake.events.received  # the path that actually halts MoveIt
    request = fake.path_requests[-1]
    assert request.avoid_collisions is False and request.max_cartesian_speed == pytest.approx(
        catalog.robot.limits.max_guarded_speed_mps)  # the default: the impact's bound
    assert s['peak_force_n'] >= s['contact']['force_n']  # the trip sample, then the peak
    checked = fake.validity_requests  # the line's states, before it ran
    assert checked and all(r.group_name == catalog.robot.group for r in checked)


@pytest.mark.parametrize('mode', ('legacy', '2026-07-28'))
async def test_guarded_line_bringing_an_arm_link_into_contact_is_refused_unmoved(tmp_path, mode):
    """The hand touching first passes; panda_link5 on the table with it refuses, unexecuted."""
    catalog = moveit_rig.ros_catalog(tmp_path, moveit_rig.tagged_yaml(moveit_rig.new_tag()))
    async with moveit_rig.rigged(config=catalog.robot) as (backend, fake, _pub, _):
        fake.solution = [q + 0.02 for q in backend.config.home]
        end = fake.solution

        def near_end(q):
            return max(abs(a - b) for a, b in zip(q, end)) < 1e-3
        bridge = BridgeServer(catalog, backend, CallSettings(motion_rate_per_s=1000.0,
                                                             motion_burst=1000))
        args = {'direction': 'down', 'max_distance_m': 0.05}
        try:
            async with Client(bridge.server, mode=mode) as client:
                with anyio.fail_after(60):
                    # the hand (and a held box) touch all along, the arm only at the end:
                    # the guard stops it where the hand touches first
                    fake.contacts_at = lambda q: [('panda_hand', 0, 'table', 1),
                                                  ('box', 2, 'table', 1)] + (
                        [('panda_link5', 0, 'table', 1)] if near_end(q) else [])
                    hand_only = await client.call_tool('move_until_contact', args)
                    ran = len(fake.executions)
                    fake.contacts_at = lambda q: [('panda_leftfinger', 0, 'table', 1),
                                                  ('panda_link5', 0, 'table', 1)] \
                        if near_end(q) else []
                    arm = await client.call_tool('move_until_contact', args)
        finally:
            bridge.close()
    assert not hand_only.is_error and ran >= 1, hand_only.content[0].text
    assert arm.is_error, arm.content[0].text
    block = error_block(arm)
    assert block['code'] == 'PLANNING_FAILED' and 'panda_link5<->table' in arm.content[0].text
    assert 'panda_leftfinger' not in arm.content[0].text  # the hand's contact is allowed
    assert len(fake.executions) == ran, 'the refused line was not executed'
    assert 'CONTACT' in arm.content[0].text  # what a corrected call returns
