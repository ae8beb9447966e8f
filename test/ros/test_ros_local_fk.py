"""
The ROS backend's local FK over DDS: the fakes' URDF on robot_description, compute_fk counted.

The move_group fake publishes its robot's URDF on ``robot_description`` (transient
local) as robot_state_publisher does, and answers compute_fk from its own chain
(fake_moveit.py). The bridge's poses from the URDF must be compute_fk's, and a
move or a pick must then cost at most the one compute_fk request that checks the
model (counted at the fake server); without the description every sample is asked.
"""

from mcp_ros_bridge.backends.ros.kinematics import turn_between
import numpy as np
import pytest
import ros_support
from test_ros_pick_place import FORCE_N, table

pytestmark = [pytest.mark.ros_moveit, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
moveit_rig = ros_support.import_moveit_rig()
MOVE = {'position': {'x': 0.45, 'y': 0.1, 'z': 0.3}}


async def test_local_fk_is_the_fakes_compute_fk_for_links_and_frames(rig):
    backend = rig[0]
    await moveit_rig.until_described(backend)
    config, moveit = backend.config, backend.parts.moveit
    rng = np.random.default_rng(7)
    lo, hi = np.array(config.arm_position_limits).T
    rows = [list(map(float, rng.uniform(lo, hi))) for _ in range(12)]
    names = list(config.arm_joints)
    for frame, link in (('panda_link0', ''), ('panda_link0', 'panda_link4'),
                        ('panda_link0', 'panda_hand'), ('panda_link3', 'panda_link7')):
        local = moveit.kinematics.local(frame, link, rows)
        assert local is not None, (frame, link)
        for row, mine in zip(rows, local):
            asked = await moveit.fk(frame, link, names, row)  # compute_fk over DDS
            assert mine.position == pytest.approx(asked.position, abs=1e-6), (frame, link)
            assert turn_between(mine.orientation, asked.orientation) <= 1e-6, (frame, link)
            assert mine.frame_id == asked.frame_id == frame


@pytest.mark.parametrize('describe', [True, False], ids=['described', 'compute_fk only'])
async def test_a_move_and_a_pick_ask_compute_fk_at_most_twice(tmp_path, describe):
    async with table(tmp_path, 'legacy', describe) as (client, _, fake, _, _):
        counts = [len(fake.fk_requests)]
        moved = await client.call_tool('move_arm_to_pose', MOVE)
        counts.append(len(fake.fk_requests))
        picked = await client.call_tool('pick_object', {'object': 'box', 'force_n': FORCE_N})
        counts.append(len(fake.fk_requests))
    assert not moved.is_error, ros_support.result_text(moved)
    assert not picked.is_error, ros_support.result_text(picked)
    move, pick = counts[1] - counts[0], counts[2] - counts[1]
    checked = moved.structured_content.get('details', {}).get('checked_samples', 0)
    if describe:  # the model's one check, and the F/T frame no URDF link names (once)
        assert move <= 2 and pick <= 2, fake.fk_requests
    else:  # the path before the model: one request per checked sample at least
        assert move > max(2, checked) and pick > move, counts
