"""
pick_object and place_object on ROS through MCP, and their plan_only previews, over DDS.

A ``BridgeServer`` on a real ``RosBackend`` runs both jobs against the typed
move_group fakes, the GripperActionController fake and a peer publishing the
objects' poses on ``ros.object_pose_topics`` (:mod:`object_scene`). The fake
planner answers with a numerical IK (a line: IK along the straight line), so
each executed trajectory ends where the bridge aimed. The test's world model is
the only physics: a closing gripper holds the box between its fingers (its
published pose then follows the TCP), the wrist force rises once the held box
is pressed into the table, and an opening gripper leaves the box resting on the
table. The assertions are on what the bridge sent over DDS: which goals, in
which order, and the heights, computed here from the catalog's sizes and the
published poses.
"""

import contextlib
import os

import anyio
from mcp import Client
from mcp_ros_bridge.capabilities.pick_place import PICK_STEPS, PLACE_STEPS, TOUCH_M
from mcp_ros_bridge.capabilities.placing import CLEAR_M, PLACE_GAP_M
from mcp_ros_bridge.catalog.schemas import APPROACH_M
from mcp_ros_bridge.contract.results import error_block
from mcp_ros_bridge.server.bridge import BridgeServer
from mcp_ros_bridge.server.calls import CallSettings
from object_scene import ik_line, IkAnswers, ObjectPose, TableWorld, until_seen
import pytest
import ros_support

pytestmark = [pytest.mark.ros_moveit, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
moveit_rig = ros_support.import_moveit_rig()
MODES = ('legacy', '2026-07-28')
# box and cylinder on the table; far_box beyond the workspace box (x <= 0.855 m)
PLACES = {'box': (0.5, 0.0, 0.025), 'cylinder': (0.3, 0.35, 0.05), 'far_box': (0.95, 0.0, 0.025)}
TARGET = {'x': 0.45, 'y': 0.2}
FORCE_N = 20.0


@contextlib.asynccontextmanager
async def table(tmp_path, mode, describe=True, approve=(), elicitation_callback=None):
    """
    Yield (MCP client, catalog, move_group fake, gripper fake, world) with the objects seen.

    ``describe``: the fakes publish the robot's URDF and the bridge has taken it (its local
    FK answers); False: no description, compute_fk answers every pose. ``approve``: the
    tool kinds that ask the client (``elicitation_callback``) before they run.
    """
    from test_ros_moveit_checks import FakeGripperController  # the generated control_msgs
    raw = moveit_rig.tagged_yaml(moveit_rig.new_tag(), execution_horizon_s=0.0)  # one goal each
    # the shipped sensor max age, not the rig's 0.2 s: a loaded machine keeps it
    raw['limits']['sensor_max_age_s'] = ros_support.shipped_limit('sensor_max_age_s')
    raw['objects']['far_box'] = dict(raw['objects']['box'], colour='green')
    topics = {n: f'/t{os.getpid()}_{tmp_path.name}/{n}_pose' for n in PLACES}
    raw['ros']['object_pose_topics'] = {n: {'name': t} for n, t in topics.items()}
    catalog = moveit_rig.ros_catalog(tmp_path, raw, approve)
    robot = catalog.robot
    async with moveit_rig.rigged(config=robot, describe=describe) as (backend, fake, pub, peer):
        if describe:
            await moveit_rig.until_described(backend)
        poses = {n: ObjectPose(peer, topics[n], xyz) for n, xyz in PLACES.items()}
        world = TableWorld(lambda q: moveit_rig.tcp_pose(robot, q).position, fake.arm,
                           {n: o.size_m for n, o in robot.objects.items()}, poses, pub,
                           robot.gripper_geometry.tip_past_tcp_m)
        open_m = robot.gripper_max_width_m / 2  # this hand's finger position when open

        def on_goal(command):
            fake.log.append('open' if command.position >= open_m - 1e-6 else 'close')
            world.on_gripper_goal(command, open_m)
        gripper = FakeGripperController(peer, robot.ros.actions['gripper'], pub,
                                        robot.objects['box'].size_m[1], on_goal)
        fake.solution = IkAnswers(fake, backend.config.arm_position_limits)
        fake.plan_line = ik_line(fake, backend.config.arm_position_limits)
        bridge = BridgeServer(catalog, backend, CallSettings(motion_rate_per_s=1000.0,
                                                             motion_burst=1000))
        try:
            async with Client(bridge.server, mode=mode,
                              elicitation_callback=elicitation_callback) as client:
                with anyio.fail_after(240):
                    await until_seen(client)
                    yield client, catalog, fake, gripper, world
        finally:
            bridge.close()


def _ends(robot, fake, first=0):
    """Return the TCP position (rounded, m) at the end of each ExecuteTrajectory from ``first``."""
    from fake_moveit import points_of
    return [tuple(round(float(v), 3) for v in moveit_rig.tcp_pose(
        robot, points_of(e.trajectory)[-1][1]).position) for e in fake.executions[first:]]


@pytest.mark.parametrize('mode', MODES)
async def test_pick_then_place_sends_its_goals_in_order_at_the_catalog_heights(tmp_path, mode):
    async with table(tmp_path, mode) as (client, catalog, fake, gripper, world):
        picked = await client.call_tool('pick_object', {'object': 'box', 'force_n': FORCE_N})
        pick_log, pick_runs = list(fake.log), len(fake.executions)
        placed = await client.call_tool('place_object', {'target': TARGET})
        box_now = world.poses['box'].xyz
    robot = catalog.robot
    size = {n: robot.objects[n].size_m for n in ('box', 'cylinder')}
    assert not picked.is_error, ros_support.result_text(picked)
    s = picked.structured_content
    assert s['status'] == 'HOLDING' and s['steps_done'] == PICK_STEPS, s
    x, y, centre = PLACES['box']
    grasp, above = centre, centre + APPROACH_M  # the TCP at the box's centre, then 10 cm up
    assert (s['grasp_z_m'], s['lifted_z_m']) == pytest.approx((grasp, above), abs=1e-4)
    assert pick_log == ['open', 'plan', 'execute', 'path', 'execute', 'close', 'path', 'execute']
    assert _ends(robot, fake)[:pick_runs] == [(x, y, above), (x, y, grasp), (x, y, above)]
    assert [round(g.position, 4) for g in gripper.goals[:2]] == [robot.gripper_max_width_m / 2,
                                                                 0.0]
    assert gripper.goals[1].max_effort == FORCE_N

    text = ros_support.result_text(placed)
    assert not placed.is_error, text
    p = placed.structured_content
    assert p['status'] == 'PLACED' and p['steps_done'] == PLACE_STEPS, p
    # carried high enough that the held box's bottom clears the cylinder's top by 3 cm
    cylinder_top = PLACES['cylinder'][2] + size['cylinder'][2] / 2
    carry = cylinder_top + size['box'][2] / 2 + CLEAR_M
    place = size['box'][2] / 2 + PLACE_GAP_M  # the box's bottom 2 mm above the table
    assert fake.log[len(pick_log):] == ['path', 'execute'] * 4 + ['open', 'path', 'execute']
    lift, carried, descended, touch, retreat = _ends(robot, fake, pick_runs)
    assert lift == pytest.approx((x, y, carry), abs=1e-3)
    assert carried == pytest.approx((TARGET['x'], TARGET['y'], carry), abs=1e-3)
    assert descended == pytest.approx((TARGET['x'], TARGET['y'], place + TOUCH_M), abs=1e-3)
    assert retreat == pytest.approx((TARGET['x'], TARGET['y'], place + APPROACH_M), abs=2e-3)
    touched = fake.path_requests[-2]  # the guarded touch-down: the impact's speed bound
    assert touched.avoid_collisions is False and touched.max_cartesian_speed == pytest.approx(
        robot.limits.max_guarded_speed_mps)
    assert 'stop' in fake.events.received  # the touch was halted on the wrist force
    # the TCP stopped where the box's bottom met the table (its half height), give or take
    # the millimetre the force needs to rise 5 N and the halt's latency
    assert p['contact_height_m'] == pytest.approx(size['box'][2] / 2, abs=0.004), p
    assert touch[2] < p['contact_height_m']  # the line was planned further down
    assert [round(g.position, 4) for g in gripper.goals[2:]] == [robot.gripper_max_width_m / 2]
    assert box_now == pytest.approx((TARGET['x'], TARGET['y'], size['box'][2] / 2), abs=2e-3)
    assert p['error_m'] < 0.005 and p['tilt_deg'] == 0.0, p


def _starts(robot, fake, log, first_goal, first_path):
    """Return the TCP position (rounded, m) each plan request from ``log`` started at."""
    goals, paths = iter(fake.goals[first_goal:]), iter(fake.path_requests[first_path:])
    starts = []
    for entry in log:
        state = (next(goals).request if entry == 'plan' else next(paths)).start_state
        joints = dict(zip(state.joint_state.name, state.joint_state.position))
        row = [joints.get(n, q) for n, q in zip(robot.arm_joints, fake.arm.positions)]
        starts.append(tuple(round(float(v), 3) for v in moveit_rig.tcp_pose(robot, row).position)
                      if joints else 'current')
    return starts


@pytest.mark.parametrize('mode', MODES)
async def test_plan_only_jobs_send_no_execution_and_no_gripper_goal(tmp_path, mode):
    async with table(tmp_path, mode) as (client, catalog, fake, gripper, world):
        still = fake.arm.positions
        planned = await client.call_tool('pick_object', {'object': 'box', 'plan_only': True})
        far = await client.call_tool('pick_object', {'object': 'far_box', 'plan_only': True})
        preview_log, moved = list(fake.log), fake.arm.positions != still
        pick_starts = _starts(catalog.robot, fake, preview_log, 0, 0)
        picked = await client.call_tool('pick_object', {'object': 'box'})
        assert not picked.is_error, ros_support.result_text(picked)
        n, held_at, box_at = len(fake.log), fake.arm.positions, world.poses['box'].xyz
        goals_before, paths_before = len(fake.goals), len(fake.path_requests)
        place = await client.call_tool('place_object', {'target': TARGET, 'plan_only': True})
        place_log = fake.log[n:]
        place_starts = _starts(catalog.robot, fake, place_log, goals_before, paths_before)
        outside = await client.call_tool('place_object', {'on': 'far_box', 'plan_only': True})
        unmoved = fake.arm.positions == held_at and world.poses['box'].xyz == box_at
    robot = catalog.robot
    x, y, centre = PLACES['box']
    # the pick preview: MoveGroup plans above from here, then compute_cartesian_path plans
    # the descent from above and the lift from the grasp (each request's start_state);
    # nothing executed, and the pick of far_box sent nothing at all
    assert preview_log == ['plan', 'path', 'path'] and not moved, preview_log
    assert pick_starts == ['current', (x, y, centre + APPROACH_M), (x, y, centre)], pick_starts
    assert all(g.planning_options.plan_only for g in fake.goals)
    assert not planned.is_error, ros_support.result_text(planned)
    s = planned.structured_content
    assert s['status'] == 'PLANNED' and s['steps_done'] == [], s
    plan = {step['step']: step for step in s['plan']}
    assert list(plan) == ['open', 'above', 'descend', 'grasp', 'lift']
    assert [plan[k]['check'] for k in plan] == ['gripper', 'planned', 'planned', 'gripper',
                                                'planned']
    assert plan['above']['target_m'] == pytest.approx({'x': x, 'y': y, 'z': centre + APPROACH_M})
    assert plan['descend']['target_m'] == pytest.approx({'x': x, 'y': y, 'z': centre})
    assert plan['above']['duration_s'] > 0 and 'nothing moved' in ros_support.result_text(planned)

    assert far.is_error, ros_support.result_text(far)
    block = error_block(far)
    assert block['code'] == 'LIMIT_EXCEEDED' and block['details']['failed_step'] == 'above'
    assert block['details']['plan_only'] is True and block['details']['steps_done'] == []
    assert block['details']['steps_checked'] == ['check', 'open']

    # the place preview: four lines (lift, carry, descend, retreat), each planned from where
    # the one before ends; the retreat from the descent's end (the touch-down is not planned)
    assert place_log == ['path'] * 4 and unmoved, place_log
    assert len(gripper.goals) == 2 and len(fake.executions) == 3  # the real pick's only
    assert not place.is_error, ros_support.result_text(place)
    assert place.structured_content['status'] == 'PLANNED'
    steps = {step['step']: step for step in place.structured_content['plan']}
    assert list(steps) == ['lift', 'carry', 'descend', 'touch', 'release', 'retreat']
    assert [steps[k]['check'] for k in steps] == ['planned', 'planned', 'planned',
                                                  'contact', 'gripper', 'planned']
    size = {n: robot.objects[n].size_m for n in ('box', 'cylinder')}
    carry = PLACES['cylinder'][2] + size['cylinder'][2] / 2 + size['box'][2] / 2 + CLEAR_M
    assert steps['carry']['target_m'] == pytest.approx({**TARGET, 'z': carry}, abs=1e-3)
    start = size['box'][2] / 2 + PLACE_GAP_M + TOUCH_M  # where the guarded touch-down starts
    assert steps['descend']['target_m'] == pytest.approx({**TARGET, 'z': start}, abs=1e-3)
    tx, ty = TARGET['x'], TARGET['y']
    lifted = steps['lift']['target_m']['z']
    assert place_starts == ['current', pytest.approx((x, y, lifted), abs=2e-3),
                            pytest.approx((tx, ty, carry), abs=2e-3),
                            pytest.approx((tx, ty, start), abs=2e-3)], place_starts
    assert outside.is_error, ros_support.result_text(outside)
    block = error_block(outside)  # on top of far_box: outside the workspace box
    assert block['code'] == 'INVALID_ARGUMENTS' and block['details']['failed_step'] == 'check'
    assert block['details']['field'] == 'target' and block['details']['plan_only'] is True
    assert 'holding the box' in ros_support.result_text(outside)


async def test_a_pick_whose_descent_is_blocked_fails_in_its_preview_as_in_its_run(tmp_path):
    """The descent is planned from the approach's end in the preview: it fails there too."""
    async with table(tmp_path, 'legacy') as (client, catalog, fake, gripper, _world):
        robot = catalog.robot
        grasp_z = PLACES['box'][2]

        def blocked(request, points):  # 60 % of any line that would end at the grasp height
            end = moveit_rig.tcp_pose(robot, points[-1][1]).position
            return 0.6 if abs(end[2] - grasp_z) < 0.005 else 1.0
        fake.path_fraction = blocked
        still = fake.arm.positions
        preview = await client.call_tool('pick_object', {'object': 'box', 'plan_only': True})
        preview_log, moved = list(fake.log), fake.arm.positions != still
        grips = len(gripper.goals)
        run = await client.call_tool('pick_object', {'object': 'box'})
    assert preview.is_error, ros_support.result_text(preview)
    ahead, done = error_block(preview), error_block(run)
    assert ahead['details']['failed_step'] == 'descend' and ahead['details']['plan_only'], ahead
    assert preview_log == ['plan', 'path'] and not moved and grips == 0, preview_log
    assert 'only 60% of the path' in ros_support.result_text(preview)
    # the run fails at the same step with the same code, after opening and moving above
    assert run.is_error and done['details']['failed_step'] == 'descend', done
    assert done['code'] == ahead['code']


@pytest.mark.parametrize('mode', MODES)
async def test_approving_a_pick_on_ros_runs_the_chain_of_moveit_plans_it_quoted(tmp_path, mode):
    """The question quotes the preview's three MoveIt plans; the pick then runs exactly them."""
    import re

    import mcp_types as types
    from fake_moveit import points_of
    asked = []

    async def accept(context, params):
        asked.append(params.message)
        return types.ElicitResult(action='accept', content={'approve': True})
    async with table(tmp_path, mode, approve=('pick_object',),
                     elicitation_callback=accept) as (client, _catalog, fake, _gripper, _world):
        picked = await client.call_tool('pick_object', {'object': 'box'})
        log = list(fake.log)
    assert not picked.is_error, ros_support.result_text(picked)
    assert picked.structured_content['plans_run_as_approved'] == 3
    # the preview's plans (MoveGroup plan only, two lines from their start states), then the
    # run: those three trajectories, nothing planned again
    assert log == ['plan', 'path', 'path', 'open', 'execute', 'execute', 'close', 'execute'], log
    # the joint paths MoveIt answered (the bridge retimed them to its limits when planning)
    assert [[q for _, q in points_of(e.trajectory)] for e in fake.executions] == \
        [[q for _, q in points] for points in fake.answered]
    assert len(asked) == 1 and 'Object: the box.' in asked[0], asked
    card = re.search(r"The job's (\d+) arm motions, each planned from where the one before "
                     r'ends: ([\d.]+) s in all', asked[0])
    assert card, asked[0]
    ran_s = sum(points_of(e.trajectory)[-1][0] for e in fake.executions)
    assert int(card.group(1)) == len(fake.executions) == 3
    assert float(card.group(2)) == pytest.approx(ran_s, rel=0.2), (asked[0], ran_s)
