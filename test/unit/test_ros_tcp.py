"""The TCP offset on ROS: goals name the real parent link and carry the shifted target."""

from mcp_ros_bridge.backends.port import CartesianGoal, MotionLimits, Pose, PoseGoal
from mcp_ros_bridge.backends.ros import cartesian, goals, tcp
from mcp_ros_bridge.catalog.robot import RobotConfig
from paths import CONFIG_DIR
import pytest
import yaml

pytestmark = pytest.mark.unit
DOWN = (0.0, 1.0, 0.0, 0.0)  # w, x, y, z: 180 degrees about x, the tool z axis points down
LIMITS = MotionLimits(0.2, 0.2, 40.0)


def shipped():
    """Return the shipped robot.yaml as a dict (TCP: panda_hand + 0.1034 m along its z)."""
    with open(f'{CONFIG_DIR}/robot.yaml', encoding='utf-8') as f:
        return yaml.safe_load(f)


@pytest.fixture
def config():
    """Return the shipped robot config."""
    return RobotConfig.from_dict(shipped())


def test_shipped_config_commands_the_real_parent_link(config):
    assert config.end_effector == 'panda_hand_tcp'
    assert tcp.moveit_link(config) == 'panda_hand'
    assert tcp.moveit_link(config, 'panda_link8') == 'panda_link8'


def test_pose_goal_targets_the_parent_above_a_downward_tcp(config):
    target = Pose((0.4, 0.1, 0.3), DOWN, 'panda_link0')
    data = goals.build_move_group_goal(config, PoseGoal(target, LIMITS), 'jazzy')
    constraints = data['request']['goal_constraints'][0]
    position = constraints['position_constraints'][0]
    assert position['link_name'] == 'panda_hand'
    centre = position['constraint_region']['primitive_poses'][0]['position']
    assert (centre['x'], centre['y'], centre['z']) == pytest.approx((0.4, 0.1, 0.4034))
    assert constraints['orientation_constraints'][0]['link_name'] == 'panda_hand'


def test_cartesian_waypoints_are_shifted_too(config):
    waypoints = [Pose((0.4, 0.0, 0.3), DOWN, 'panda_link0'),
                 Pose((0.5, 0.0, 0.3), DOWN, 'panda_link0')]
    request = cartesian.build_cartesian_path_request(config, CartesianGoal(waypoints, LIMITS),
                                                     'jazzy')
    assert request['link_name'] == 'panda_hand'
    assert [w['position']['z'] for w in request['waypoints']] == pytest.approx([0.4034] * 2)


def test_from_parent_inverts_to_parent(config):
    tilted = Pose((0.3, -0.2, 0.5), (0.9238795, 0.0, 0.3826834, 0.0), 'panda_link0')
    back = tcp.from_parent(config, '', tcp.to_parent(config, '', tilted))
    assert back.position == pytest.approx(tilted.position)
    assert back.orientation == tilted.orientation


def test_without_tcp_config_links_pass_through():
    plain = RobotConfig.from_dict({**shipped(), 'ros': {}})
    pose = Pose((0.4, 0.0, 0.3), DOWN, 'panda_link0')
    assert tcp.moveit_link(plain) == 'panda_hand_tcp'
    assert tcp.to_parent(plain, '', pose) is pose
