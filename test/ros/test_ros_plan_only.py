"""
``plan_only`` on ROS through MCP: MoveIt plans, the bridge checks the whole path, nothing runs.

A ``BridgeServer`` on a real ``RosBackend`` talks to the typed move_group fakes
(:mod:`fake_move_group`) over DDS. A plan-only motion must send its MoveGroup
goal with ``plan_only`` (or ask the Cartesian path service) and never an
ExecuteTrajectory goal; the arm must not move; a plan that leaves the
workspace is refused the same way a real motion would be.
"""


from mcp_ros_bridge.contract.results import error_block
import pytest
import ros_support

_call, _text = ros_support.call_tool_once, ros_support.result_text

pytestmark = [pytest.mark.ros_moveit, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
moveit_rig = ros_support.import_moveit_rig()
MODES = ('legacy', '2026-07-28')
TIP_SPEED_CAP_MPS = 0.25  # robot.yaml limits.max_cartesian_speed_mps


def _catalog(tmp_path, workspace_y_max=None):
    """Write the shipped config with this rig's MoveIt names to ``tmp_path``; load it."""
    raw = moveit_rig.tagged_yaml(moveit_rig.new_tag())
    if workspace_y_max is not None:
        raw['limits']['workspace']['max'][1] = workspace_y_max
    return moveit_rig.ros_catalog(tmp_path, raw)


@pytest.mark.parametrize('mode', MODES)
async def test_plan_only_posture_plans_and_sends_no_execution(tmp_path, mode):
    catalog = _catalog(tmp_path)
    async with moveit_rig.rigged(config=catalog.robot) as (backend, fake, _, _):
        before = fake.arm.positions
        r = await _call(catalog, backend, mode, 'move_arm_to_posture',
                        {'posture': 'ready', 'plan_only': True})
        assert not r.is_error, _text(r)
        s = r.structured_content
        assert s['status'] == 'PLANNED' and s['fraction'] == 1.0
        assert 'nothing moved' in _text(r)
        assert [g.planning_options.plan_only for g in fake.goals] == [True]
        assert fake.executions == [] and fake.arm.positions == before
        assert (await backend.joint_states()).positions[:7] == pytest.approx(before)
        # home -> ready moves the tip ~0.28 m; MoveIt's 0.3 s plan is retimed under the cap
        assert s['path_length_m'] > 0.2
        assert s['duration_s'] >= s['path_length_m'] / TIP_SPEED_CAP_MPS * 0.99
        assert s['final_pose']['position_m']['z'] == pytest.approx(0.25, abs=0.01)


async def test_plan_only_relative_move_asks_the_cartesian_path_service_only(tmp_path):
    catalog = _catalog(tmp_path)
    async with moveit_rig.rigged(config=catalog.robot) as (backend, fake, _, _):
        fake.solution = [q + 0.05 for q in backend.config.home]  # the fake has no IK
        before = fake.arm.positions
        r = await _call(catalog, backend, 'legacy', 'move_arm_relative',
                        {'offset': {'z': 0.05}, 'plan_only': True})
        assert not r.is_error, _text(r)
        assert r.structured_content['status'] == 'PLANNED'
        assert r.structured_content['duration_s'] > 0.0
        assert len(fake.path_requests) == 1 and fake.goals == []
        assert fake.executions == [] and fake.arm.positions == before


async def test_plan_only_path_leaving_the_workspace_is_refused_and_nothing_moves(tmp_path):
    catalog = _catalog(tmp_path, workspace_y_max=0.2)
    async with moveit_rig.rigged(config=catalog.robot) as (backend, fake, _, _):
        before = fake.arm.positions
        # Turning joint 1 by 2.8 rad swings the tip through y = 0.31 m; both ends are below 0.2.
        target = [2.8] + list(backend.config.home[1:])
        r = await _call(catalog, backend, 'legacy', 'move_arm_joints',
                        {'positions': target, 'plan_only': True})
        assert r.is_error
        assert error_block(r)['code'] == 'LIMIT_EXCEEDED'
        assert 'planned path' in _text(r) and 'nothing moved' in _text(r).lower()
        assert fake.executions == [] and fake.arm.positions == before


@pytest.mark.parametrize('mode', MODES)
async def test_a_kept_plan_runs_once_on_ros_and_a_stale_one_is_refused(tmp_path, mode):
    """plan_id → execute_plan sends the planned trajectory; again, or after a move: refused."""
    from mcp import Client
    from mcp_ros_bridge.server.bridge import BridgeServer
    from mcp_ros_bridge.server.calls import CallSettings
    catalog = _catalog(tmp_path)
    async with moveit_rig.rigged(config=catalog.robot) as (backend, fake, _, _):
        bridge = BridgeServer(catalog, backend, CallSettings(motion_rate_per_s=1000.0,
                                                             motion_burst=1000))
        try:
            async with Client(bridge.server, mode=mode) as c:
                ready = await c.call_tool('move_arm_to_posture',
                                          {'posture': 'ready', 'plan_only': True})
                home = await c.call_tool('move_arm_to_posture',
                                         {'posture': 'home', 'plan_only': True})
                assert fake.executions == []
                ran = await c.call_tool('execute_plan',
                                        {'plan_id': ready.structured_content['plan_id']})
                executed = len(fake.executions)
                again = await c.call_tool('execute_plan',
                                          {'plan_id': ready.structured_content['plan_id']})
                stale = await c.call_tool('execute_plan',
                                          {'plan_id': home.structured_content['plan_id']})
        finally:
            bridge.close()
        assert not ran.is_error, _text(ran)
        assert executed >= 1 and len(fake.executions) == executed, 'a refused plan ran'
        assert error_block(again)['code'] == 'PLAN_USED'
        assert error_block(stale)['code'] == 'STALE_PLAN', _text(stale)
        # what ran is the kept plan: its segments end at the plan's end state (the ready
        # posture); the execution horizon's seams make it longer than the plan, so its wall
        # duration is not compared here
        last = fake.executions[-1].trajectory.joint_trajectory.points[-1]
        ready_q = catalog.robot.postures['ready']
        assert list(last.positions)[:len(ready_q)] == pytest.approx(list(ready_q), abs=1e-6)


async def test_a_kept_plan_still_runs_after_the_fingers_moved(tmp_path):
    """A plan binds the arm's joints only: opening the hand (finger joints) leaves it valid."""
    import anyio
    from mcp import Client
    from mcp_ros_bridge.server.bridge import BridgeServer
    from mcp_ros_bridge.server.calls import CallSettings
    catalog = _catalog(tmp_path)
    fingers = catalog.robot.gripper_joints
    assert fingers, 'the rig has no finger joints to move'
    async with moveit_rig.rigged(config=catalog.robot) as (backend, fake, pub, _):
        bridge = BridgeServer(catalog, backend, CallSettings(motion_rate_per_s=1000.0,
                                                             motion_burst=1000))
        try:
            async with Client(bridge.server, mode='legacy') as c:
                ready = await c.call_tool('move_arm_to_posture',
                                          {'posture': 'ready', 'plan_only': True})
                arm = len(catalog.robot.arm_joints)
                pub.joint_msg.position = list(pub.joint_msg.position[:arm]) + [0.04] * len(fingers)
                with anyio.fail_after(30):
                    while True:  # until the bridge has the opened fingers
                        now = await backend.joint_states()
                        if dict(zip(now.names, now.positions)).get(fingers[0]) == 0.04:
                            break
                        await anyio.sleep(0.01)
                ran = await c.call_tool('execute_plan',
                                        {'plan_id': ready.structured_content['plan_id']})
        finally:
            bridge.close()
    assert not ran.is_error, _text(ran)
    assert len(fake.executions) >= 1
