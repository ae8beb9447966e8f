"""A push's arithmetic: the fingertips lead the hand, touch low, and the way is checked."""

import math
import os

from mcp_ros_bridge.backends.port import BackendError, Pose
from mcp_ros_bridge.capabilities.push_plan import (blocked_by, check_push, finger_tilt_deg,
                                                   plan_push, TABLE_CLEAR_M)
from mcp_ros_bridge.catalog.loader import load_robot
import numpy as np
import pytest
from transforms3d.quaternions import quat2mat

ROBOT = load_robot(os.path.join(os.path.dirname(__file__), '..', '..', 'config'))[0]
UP = (1.0, 0.0, 0.0, 0.0)


def _at(x, y, z):
    return Pose((x, y, z), UP, 'panda_link0')


@pytest.mark.parametrize('direction,unit', [('forward', (1, 0)), ('left', (0, 1)),
                                            ('backward', (-1, 0)), ('right', (0, -1))])
def test_the_leading_fingertip_is_ahead_of_every_hand_corner_and_below_the_centre(
        direction, unit):
    g = ROBOT.gripper_geometry
    box = _at(0.5, 0.0, 0.025)
    plan = plan_push(ROBOT, 'box', box, direction, 0.05)
    r = quat2mat(plan.orientation)
    tcp = np.asarray(plan.start)
    tip_z = g.tip_past_tcp_m  # TCP frame: z along the fingers, x across the closing axis
    w, hx, hz = g.finger_width_m / 2, g.hand_size_m[0] / 2, g.hand_size_m[2]
    face = -(g.finger_length_m - tip_z)  # the hand's face, above the TCP
    fingers = [tcp + r @ (x, 0.0, tip_z) for x in (-w, w)]
    hand = [tcp + r @ (x, 0.0, z) for x in (-hx, hx) for z in (face, face - hz)]
    u = np.array([*unit, 0.0])
    lead = max(float(np.dot(p, u)) for p in fingers)
    assert all(float(np.dot(p, u)) < lead - 0.005 for p in hand)
    assert min(p[2] for p in fingers) == pytest.approx(TABLE_CLEAR_M, abs=1e-6)
    assert plan.contact_z < 0.025 and max(p[2] for p in fingers) == pytest.approx(plan.contact_z)
    # the leading corner starts 2 cm from the box's face, and the line covers gap + distance
    assert lead == pytest.approx(float(np.dot(box.position, u)) - 0.025 - 0.02, abs=1e-6)
    assert plan.line_m == pytest.approx(0.07)
    assert finger_tilt_deg(g) == pytest.approx(plan.tilt_deg)
    assert math.degrees(math.atan2(hx - w, g.finger_length_m)) < plan.tilt_deg


def test_the_way_is_blocked_by_objects_beside_not_below():
    cylinder = _at(0.3, 0.35, 0.05)
    assert blocked_by(ROBOT, 'cylinder', cylinder, 'right', 0.1, {'box': _at(0.3, 0.2, 0.025)})
    assert not blocked_by(ROBOT, 'cylinder', cylinder, 'left', 0.1,
                          {'box': _at(0.3, 0.2, 0.025)})
    on_box = _at(0.5, 0.0, 0.1)  # stacked: the box under it is not in its way
    assert not blocked_by(ROBOT, 'cylinder', on_box, 'forward', 0.05,
                          {'box': _at(0.5, 0.0, 0.025)})
    with pytest.raises(BackendError) as err:
        check_push(ROBOT, 'cylinder', cylinder, 'right', 0.1, {'box': _at(0.3, 0.2, 0.025)})
    assert err.value.details['field'] == 'direction'
    assert 'forward' in err.value.details['allowed'] and 'right' not in err.value.details[
        'allowed']


def test_a_push_out_of_the_workspace_is_refused_with_the_room_left():
    edge = _at(0.8, 0.0, 0.025)
    with pytest.raises(BackendError) as err:
        check_push(ROBOT, 'box', edge, 'forward', 0.1, {})
    assert err.value.details['field'] == 'distance_m'
    assert err.value.details['allowed'] == f'<= {0.855 - 0.8:.3f} m'
