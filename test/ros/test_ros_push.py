"""
push_object on ROS through MCP: the push line stops on a wrench spike above the cap.

A ``BridgeServer`` on a real ``RosBackend`` runs the whole push job against the
typed move_group fakes and a gripper controller fake over DDS. A peer publishes
the box's and the cylinder's poses (PoseStamped, 20 Hz) as a perception node
would; the fake planner answers each pose goal and each line with the joints of
a numerical IK on the fakes' own FK, so every motion the bridge verifies is
where it was sent. When the push line starts executing, the box is shifted
12 mm along the push (it is being pushed), the cylinder is knocked 30 mm, and
the wrist force rises 8 N over the 5 N at the start: above the 6 N cap, which
on ROS is the threshold of the whole force change. The job ends FORCE_CAP at
step push, the execution "stop" halts the arm, and the result tells the pushed
box's displacement (its own numbers) from the knocked cylinder (a scene change).
"""

import os

import anyio
from mcp import Client
from mcp_ros_bridge.contract.results import error_block
from mcp_ros_bridge.server.bridge import BridgeServer
from mcp_ros_bridge.server.calls import CallSettings
from object_scene import IkAnswers, ObjectPose, until_seen
import pytest
import ros_support

pytestmark = [pytest.mark.ros_moveit, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
moveit_rig = ros_support.import_moveit_rig()

BOX, CYLINDER = (0.5, 0.0, 0.025), (0.3, 0.35, 0.05)


@pytest.mark.parametrize('mode', ('legacy', '2026-07-28'))
async def test_push_line_stops_on_a_wrench_spike_above_the_cap(tmp_path, mode):
    raw = moveit_rig.tagged_yaml(moveit_rig.new_tag(), execution_horizon_s=0.0)  # one run each
    topics = {n: f'/t{os.getpid()}_push/{n}_pose' for n in ('box', 'cylinder')}
    raw['ros']['object_pose_topics'] = {n: {'name': t} for n, t in topics.items()}
    catalog = moveit_rig.ros_catalog(tmp_path, raw)
    from test_ros_moveit_checks import FakeGripperController  # the generated control_msgs
    async with moveit_rig.rigged(config=catalog.robot) as (backend, fake, pub, peer):
        box, cylinder = ObjectPose(peer, topics['box'], BOX), ObjectPose(
            peer, topics['cylinder'], CYLINDER)
        assert box.published.wait(5.0) and cylinder.published.wait(5.0)
        FakeGripperController(peer, backend.config.ros.actions['gripper'], pub, 0.0)
        fake.solution = IkAnswers(fake, backend.config.arm_position_limits)
        pushed, run = [], fake.arm.run

        def run_pushed(points, should_stop):
            if len(fake.path_requests) == 2 and not pushed:  # the descent, then the push line
                pushed.append(points)  # slowed to 6 s: the stop ends it
                box.shift(0.012)
                cylinder.shift(0.03, tilt_deg=20.0)
                pub.force = (0.0, 0.0, 13.0)
                points = [(t * 20.0, q) for t, q in points]
            return run(points, should_stop)
        fake.arm.run = run_pushed
        bridge = BridgeServer(catalog, backend, CallSettings(motion_rate_per_s=1000.0,
                                                             motion_burst=1000))
        try:
            async with Client(bridge.server, mode=mode) as client:
                with anyio.fail_after(90):
                    await until_seen(client)
                    r = await client.call_tool('push_object', {
                        'object': 'box', 'direction': 'left', 'distance_m': 0.05,
                        'max_force_n': 6})
        finally:
            fake.arm.run = run
            bridge.close()
    text, s = r.content[0].text, r.structured_content
    assert r.is_error and error_block(r)['code'] == 'FORCE_CAP', text
    assert s['failed_step'] == 'push' and s['steps_done'] == ['check', 'close', 'above',
                                                              'descend'], s
    assert 7.0 < s['push_force_n'] < 9.5, s  # the wrist force change, not |F|
    assert 'stop' in fake.events.received  # the path that actually halts MoveIt
    assert s['moved_m'] == pytest.approx(0.012, abs=1e-4) and abs(s['lateral_m']) < 1e-4
    (change,) = s['scene_changes']  # the pushed box is the push's own numbers, not a change
    assert change['object'] == 'cylinder' and change['moved_mm'] == pytest.approx(30.0, abs=0.2)
    assert 'max_force_n 6 N (the wrist force changed by' in text, text
    assert 'The box moved 12 mm along the direction' in text
