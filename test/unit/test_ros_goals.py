"""
Conformance of the ROS goal builders with the upstream interface definitions.

Every dict the pure builders produce is checked field by field against the
``moveit_msgs`` and ``control_msgs`` definitions of Humble and Jazzy in
``../shared/ros_interfaces``, loaded with rosbags: an unknown field, a value
of the wrong type or a fixed array of the wrong length fails the test.
"""

from dataclasses import replace
import glob
import math
import os
import re

from mcp_ros_bridge.backends.port import (BackendError, CartesianGoal, JointGoal, MotionLimits,
                                          Pose, PoseGoal)
from mcp_ros_bridge.backends.ros import cartesian, goals, gripper_goals
from mcp_ros_bridge.catalog.loader import load_robot
from paths import CONFIG_DIR, SHARED_INTERFACES
import pytest

pytestmark = pytest.mark.unit
rosbags_typesys = pytest.importorskip('rosbags.typesys', reason='rosbags is not installed')
if not os.path.isdir(SHARED_INTERFACES):
    pytest.skip(f'upstream interface definitions not found at {SHARED_INTERFACES}',
                allow_module_level=True)

INT_RANGES = {f'{s}int{b}': ((0, 2 ** b - 1) if s else (-2 ** (b - 1), 2 ** (b - 1) - 1))
              for s in ('', 'u') for b in (8, 16, 32, 64)}
INT_RANGES.update({'byte': (0, 255), 'char': (0, 255)})


def _split(text, parts):
    sections = re.split(r'^---\s*$', text, flags=re.MULTILINE)
    return dict(zip(parts, sections + [''] * (len(parts) - len(sections))))


def load_store(distro):
    """Return a rosbags type store holding the upstream interfaces of ``distro``."""
    stores = rosbags_typesys.Stores
    store = rosbags_typesys.get_typestore(getattr(stores, f'ROS2_{distro.upper()}'))
    types = {}
    for path in sorted(glob.glob(os.path.join(SHARED_INTERFACES, distro, '*', '*', '*.*'))):
        pkg, _, fname = path.split(os.sep)[-3:]
        name, ext = os.path.splitext(fname)
        with open(path, encoding='utf-8') as f:
            text = f.read()
        if ext == '.msg':
            parts = {name: text}
        elif ext == '.srv':
            parts = {f'{name}_{k}': v for k, v in _split(text, ['Request', 'Response']).items()}
        elif ext == '.action':
            parts = {f'{name}_{k}': v
                     for k, v in _split(text, ['Goal', 'Result', 'Feedback']).items()}
        else:
            continue
        for tname, body in parts.items():
            # Service and action parts are registered under msg/ so that their
            # relative field types (``RobotState``) resolve to the package's messages.
            types.update(rosbags_typesys.get_types_from_msg(body, f'{pkg}/msg/{tname}'))
    store.register(types)
    return store


STORES = {}


def store_for(distro):
    """Return the cached type store of ``distro``."""
    if distro not in STORES:
        STORES[distro] = load_store(distro)
    return STORES[distro]


def check(store, typename, data, path=''):
    """Fail with the path when ``data`` does not fit ``typename``."""
    assert isinstance(data, dict), f'{path or typename}: expected a mapping, got {data!r}'
    fields = dict(store.fielddefs[typename][1])
    for key, value in data.items():
        assert key in fields, f'{path}.{key}: no such field in {typename}'
        check_value(store, fields[key], value, f'{path}.{key}')


def check_value(store, desc, value, path):
    """Check one value against a rosbags field description."""
    node, spec = desc
    kind = getattr(node, 'name', str(node))
    if kind == 'NAME':
        check(store, spec, value, path)
    elif kind in ('ARRAY', 'SEQUENCE'):
        inner, size = spec
        assert isinstance(value, list), f'{path}: expected a list, got {value!r}'
        if kind == 'ARRAY':
            assert len(value) == size, f'{path}: expected {size} items, got {len(value)}'
        elif size:
            assert len(value) <= size, f'{path}: at most {size} items, got {len(value)}'
        for i, item in enumerate(value):
            check_value(store, inner, item, f'{path}[{i}]')
    else:
        base = spec[0]
        if base == 'string':
            assert isinstance(value, str), f'{path}: expected a string, got {value!r}'
        elif base == 'bool':
            assert isinstance(value, bool), f'{path}: expected a bool, got {value!r}'
        elif base in ('float32', 'float64'):
            assert isinstance(value, float), f'{path}: expected a float, got {value!r}'
            assert math.isfinite(value), f'{path}: not finite'
        else:
            lo, hi = INT_RANGES[base]
            assert isinstance(value, int) and not isinstance(value, bool), \
                f'{path}: expected an integer, got {value!r}'
            assert lo <= value <= hi, f'{path}: {value} outside [{lo}, {hi}]'


@pytest.fixture(scope='module')
def config():
    """Return the shipped robot config."""
    return load_robot(CONFIG_DIR)[0]


def limits(speed=None, vel=0.2, acc=0.2):
    """Return motion limits for representative goals."""
    return MotionLimits(velocity_scaling=vel, acceleration_scaling=acc,
                        contact_force_limit_n=40.0, max_cartesian_speed_mps=speed)


TARGET = Pose((0.4, 0.1, 0.5), (0.0, 1.0, 0.0, 0.0), 'panda_link0')
DISTROS = ('humble', 'jazzy')


def move_goals(config):
    """Return representative pose and joint goals."""
    home = dict(zip(config.arm_joints, config.home))
    return [PoseGoal(TARGET, limits()), PoseGoal(TARGET, limits(speed=0.25), link='panda_link8'),
            JointGoal(home, limits()), JointGoal({'panda_joint1': 0.3}, limits(vel=0.5))]


@pytest.mark.parametrize('distro', DISTROS)
def test_move_group_goals_conform(config, distro):
    store = store_for(distro)
    for goal in move_goals(config):
        data = goals.build_move_group_goal(config, goal, distro)
        check(store, 'moveit_msgs/msg/MoveGroup_Goal', data)
        request = data['request']
        assert 0.0 < request['max_velocity_scaling_factor'] <= 0.5
        assert 0.0 < request['max_acceleration_scaling_factor'] <= 0.5
        assert request['group_name'] == 'panda_arm'
        assert request['workspace_parameters']['min_corner'] == {'x': -0.855, 'y': -0.855,
                                                                 'z': 0.0}


@pytest.mark.parametrize('distro', DISTROS)
def test_a_plan_from_a_start_state_sends_its_arm_joints_as_a_diff(config, distro):
    store = store_for(distro)
    start = dict(zip(config.arm_joints, [0.1 * i for i in range(len(config.arm_joints))]))
    move = goals.build_move_group_goal(config, PoseGoal(TARGET, limits()), distro,
                                       plan_only=True, start=start)
    check(store, 'moveit_msgs/msg/MoveGroup_Goal', move)
    path = cartesian.build_cartesian_path_request(
        config, CartesianGoal([TARGET], limits()), distro, start)
    check(store, 'moveit_msgs/msg/GetCartesianPath_Request', path)
    for state in (move['request']['start_state'], path['start_state']):
        assert state['is_diff'] is True  # the rest (fingers, attached objects) as move_group has
        joints = state['joint_state']
        assert dict(zip(joints['name'], joints['position'])) == start
    now = goals.build_move_group_goal(config, PoseGoal(TARGET, limits()), distro)
    assert now['request']['start_state'] == {'is_diff': True}  # from where the arm is
    with pytest.raises(ValueError, match='current state'):  # move_group executes from there
        goals.build_move_group_goal(config, PoseGoal(TARGET, limits()), distro, start=start)


def test_cartesian_speed_field_differs_between_distros(config):
    goal = PoseGoal(TARGET, limits(speed=0.25))
    humble = goals.build_move_group_goal(config, goal, 'humble')['request']
    jazzy = goals.build_move_group_goal(config, goal, 'jazzy')['request']
    assert humble['cartesian_speed_end_effector_link'] == 'panda_hand'
    assert jazzy['cartesian_speed_limited_link'] == 'panda_hand'
    with pytest.raises(AssertionError, match='no such field'):
        check(store_for('humble'), 'moveit_msgs/msg/MotionPlanRequest', jazzy)
    with pytest.raises(AssertionError, match='no such field'):
        check(store_for('jazzy'), 'moveit_msgs/msg/MotionPlanRequest', humble)


def trajectory_dict():
    """Return a small RobotTrajectory dict as compute_cartesian_path returns it."""
    points = [{'positions': [0.1 * i] * 7, 'velocities': [0.2] * 7, 'accelerations': [0.4] * 7,
               'time_from_start': {'sec': i, 'nanosec': 500_000_000}} for i in range(3)]
    return {'joint_trajectory': {'header': {'frame_id': 'panda_link0'},
                                 'joint_names': [f'panda_joint{i}' for i in range(1, 8)],
                                 'points': points}}


@pytest.mark.parametrize('distro', DISTROS)
def test_cartesian_requests_and_execute_goals_conform(config, distro):
    store = store_for(distro)
    waypoints = [TARGET, Pose((0.4, 0.1, 0.4), TARGET.orientation, 'panda_link0')]
    goal = CartesianGoal(waypoints, limits(speed=0.1))
    request = cartesian.build_cartesian_path_request(config, goal, distro)
    check(store, 'moveit_msgs/msg/GetCartesianPath_Request', request)
    assert ('max_velocity_scaling_factor' in request) == (distro == 'jazzy')
    execute = cartesian.build_execute_goal(trajectory_dict(), distro)
    check(store, 'moveit_msgs/msg/ExecuteTrajectory_Goal', execute)
    slowed = cartesian.retime_trajectory(trajectory_dict(), 5.0)
    check(store, 'moveit_msgs/msg/RobotTrajectory', slowed)
    assert cartesian.trajectory_duration(slowed) == pytest.approx(12.5)


@pytest.mark.parametrize('distro', DISTROS)
@pytest.mark.parametrize('interface', gripper_goals.INTERFACES)
def test_gripper_goals_conform(config, distro, interface):
    cfg = replace(config, ros=replace(config.ros, gripper_interface=interface))
    action = gripper_goals.action_type(cfg).split('/')[-1]
    for width, force in ((0.0, 20.0), (0.08, 5.0)):
        data = gripper_goals.build_gripper_goal(cfg, width, force, speed_mps=0.05)
        check(store_for(distro), f'control_msgs/msg/{action}_Goal', data)


@pytest.mark.parametrize('distro', DISTROS)
def test_fk_request_conforms(config, distro):
    data = goals.build_fk_request(config, '', '', list(config.arm_joints), list(config.home))
    check(store_for(distro), 'moveit_msgs/msg/GetPositionFK_Request', data)
    assert data['fk_link_names'] == ['panda_hand']  # the TCP's parent link


@pytest.mark.parametrize('bad', [
    {'request': {'group': 'x'}},
    {'request': {'max_velocity_scaling_factor': '0.2'}},
    {'request': {'workspace_parameters': {'min_corner': [0.0, 0.0, 0.0]}}},
])
def test_checker_rejects_malformed_goals(bad):
    with pytest.raises(AssertionError):
        check(store_for('jazzy'), 'moveit_msgs/msg/MoveGroup_Goal', bad)


def test_checker_rejects_wrong_fixed_array_length():
    bad = {'pose': {'covariance': [0.0] * 35}}
    with pytest.raises(AssertionError, match='expected 36 items'):
        check(store_for('jazzy'), 'geometry_msgs/msg/PoseWithCovarianceStamped', bad)


@pytest.mark.parametrize('vel', [0.0, -0.1, 0.51, 1.0, float('nan'), float('inf')])
def test_builder_rejects_scaling_outside_zero_to_cap(config, vel):
    with pytest.raises(BackendError) as err:
        goals.build_move_group_goal(config, PoseGoal(TARGET, limits(vel=vel)), 'jazzy')
    assert err.value.code == 'INVALID_GOAL'
    assert 'velocity_scaling' in err.value.message


def test_builder_rejects_pose_outside_workspace(config):
    far = Pose((2.0, 0.0, 0.5), (1.0, 0.0, 0.0, 0.0), 'panda_link0')
    with pytest.raises(BackendError, match='workspace'):
        goals.build_move_group_goal(config, PoseGoal(far, limits()), 'humble')


def test_builder_rejects_unknown_joint(config):
    with pytest.raises(BackendError, match='unknown'):
        goals.build_move_group_goal(config, JointGoal({'elbow': 1.0}, limits()), 'jazzy')


def test_builder_rejects_unknown_distro(config):
    with pytest.raises(ValueError, match='distro'):
        goals.build_move_group_goal(config, PoseGoal(TARGET, limits()), 'iron')


def test_retime_factor_respects_scaling():
    assert cartesian.retime_factor(0.5, 0.25) == pytest.approx(2.0)
    assert cartesian.retime_factor(0.2, 0.5) == pytest.approx(5.0)
    with pytest.raises(ValueError):
        cartesian.retime_trajectory(trajectory_dict(), 0.5)
