"""
The typed MoveIt test rig: move_group fakes, a fake arm, sensors and a started RosBackend.

Importing this module needs the generated ``moveit_msgs`` (``.ci/build_ros_interfaces``),
not pytest: the benches use it too (the ``rig`` fixture lives in conftest.py).
"""

import contextlib
import os

import fake_move_group
from fake_moveit import fk
from mcp_ros_bridge.backends.port import MotionLimits, Pose
from mcp_ros_bridge.backends.ros import RosBackend, tcp
from mcp_ros_bridge.catalog.robot import RobotConfig
import ros_support

_N = iter(range(1_000_000))
REACHED = [0.3, -0.4, 0.1, -2.0, 0.05, 1.7, 0.9]  # the fake planner's answer to pose goals


def tcp_pose(config, q):
    """Return the TCP pose the bridge should compute for joints ``q``."""
    position, quat = fk(q, tcp.moveit_link(config))
    return tcp.from_parent(config, '', Pose(tuple(map(float, position)),
                                            tuple(map(float, quat)), 'panda_link0'))


def limits(timeout_s=30.0, path_check=None):
    """Return motion limits with the force guard on and the 0.25 m/s tip speed cap."""
    return MotionLimits(0.2, 0.2, contact_force_limit_n=40.0, max_cartesian_speed_mps=0.25,
                        timeout_s=timeout_s, path_check=path_check)


def new_tag():
    """Return a unique prefix for the MoveIt names of one rig."""
    return f'/mg{os.getpid()}_{next(_N)}'


def tagged_yaml(tag, **ros):
    """Return robot.yaml as a dict with every MoveIt name under ``tag``."""
    raw = ros_support.robot_yaml(**ros)
    raw['ros']['actions'] = {'move_group': f'{tag}/move_action',
                             'execute_trajectory': f'{tag}/execute_trajectory',
                             'gripper': f'{tag}/gripper_cmd'}
    raw['ros']['services'] = {'fk': f'{tag}/compute_fk',
                              'cartesian_path': f'{tag}/compute_cartesian_path',
                              'state_validity': f'{tag}/check_state_validity'}
    raw['ros']['topics']['trajectory_execution_event'] = {'name': f'{tag}/execution_event'}
    raw['ros']['topics']['robot_description'] = {'name': f'{tag}/robot_description'}
    return raw


@contextlib.asynccontextmanager
async def rigged(config=None, sensors=None, kinematics=None, solution=None, describe=True,
                 **ros):
    """
    Yield (backend, fake move_group, sensor publisher, peer); ``ros`` overrides robot.yaml.

    ``config``: a RobotConfig with its own names (from :func:`new_tag`), e.g. a catalog's;
    ``sensors``: SensorPublisher arguments (``wrench_hz``, ``force``...); ``kinematics``
    and ``solution``: another arm's FK (fake_moveit.UrdfKinematics) and the fake
    planner's joint answer to pose goals (default: the Panda's); ``describe``: publish
    the Panda's URDF on ``robot_description`` (False: the bridge has only compute_fk).
    """
    peer = ros_support.Peer()
    config = config or RobotConfig.from_dict(tagged_yaml(new_tag(), **ros))
    pub = ros_support.SensorPublisher(peer, config, **(sensors or {}))
    fake = fake_move_group.FakeMoveGroup(peer, config, pub, kinematics, describe)
    fake.solution = REACHED if solution is None else list(solution)
    backend = RosBackend(config, node_name='bridge_moveit')
    try:
        await backend.start()
        assert await backend.wait_for_sensors(5.0) == []
        yield backend, fake, pub, peer
    finally:
        await backend.close()
        peer.close()


async def until_described(backend, timeout_s=10.0):
    """Return once the backend took the fakes' URDF from robot_description (bounded)."""
    import asyncio
    kinematics = backend.parts.moveit.kinematics
    await asyncio.to_thread(ros_support.wait_until, lambda: kinematics.source == 'topic',
                            timeout_s)


def ros_catalog(directory, raw, approve=()):
    """
    Write the shipped tools.yaml and robot.yaml ``raw`` to ``directory``; load its ROS tools.

    ``approve``: the tool kinds marked ``requires_approval``.
    """
    from mcp_ros_bridge.capabilities import KINDS
    from mcp_ros_bridge.catalog.loader import load_catalog
    import yaml
    with open(os.path.join(ros_support.REPO, 'config', 'tools.yaml'), encoding='utf-8') as f:
        tools = f.read()
    for kind in approve:
        line = f'    kind: {kind}\n'
        assert line in tools, kind
        tools = tools.replace(line, f'{line}    requires_approval: true\n')
    with open(os.path.join(directory, 'tools.yaml'), 'w', encoding='utf-8') as f:
        f.write(tools)
    with open(os.path.join(directory, 'robot.yaml'), 'w', encoding='utf-8') as f:
        yaml.safe_dump(raw, f)
    return load_catalog(str(directory), kinds=KINDS).for_backend('ros')
