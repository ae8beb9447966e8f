"""
The bounded hand-over: a checked trajectory in rest-to-rest segments of at most H seconds.

Pure checks of backends/ros/horizon.py on RobotTrajectory dicts, with and
without velocities (MoveIt's plans carry them; compute_cartesian_path's too),
and conformance of every segment with the upstream ExecuteTrajectory goal.
"""

from itertools import pairwise
import math

from mcp_ros_bridge.backends.ros import cartesian, horizon, plan_check
import pytest
from test_ros_goals import check, DISTROS, store_for

NAMES = [f'panda_joint{i}' for i in range(1, 8)]


def plan(duration_s=6.0, samples=30, velocities=True):
    """Return a rest-to-rest RobotTrajectory dict (a half cosine in each joint)."""
    points = []
    for k in range(samples + 1):
        t = duration_s * k / samples
        s = math.pi * t / duration_s
        point = {'positions': [0.3 * (j + 1) * (1 - math.cos(s)) / 2 for j in range(7)],
                 'time_from_start': {'sec': int(t), 'nanosec': round((t - int(t)) * 1e9)}}
        if velocities:
            point['velocities'] = [0.3 * (j + 1) * math.sin(s) / 2 * math.pi / duration_s
                                   for j in range(7)]
            point['accelerations'] = [0.0] * 7
        points.append(point)
    return {'joint_trajectory': {'header': {'frame_id': 'panda_link0'}, 'joint_names': NAMES,
                                 'points': points}}


def timed_rows(trajectory):
    """Return (times, joint rows) of a trajectory dict."""
    points = trajectory['joint_trajectory']['points']
    return ([plan_check.seconds(p['time_from_start']) for p in points],
            [p['positions'] for p in points])


def peak_joint_speed(trajectory):
    """Return the fastest joint speed between consecutive points (rad/s)."""
    times, rows = timed_rows(trajectory)
    return max(abs(b - a) / (tb - ta) for ra, rb, ta, tb in zip(rows, rows[1:], times, times[1:])
               for a, b in zip(ra, rb))


@pytest.mark.parametrize('velocities', [True, False])
@pytest.mark.parametrize('horizon_s', [0.5, 1.0, 2.5])
def test_segments_are_short_follow_the_plan_and_rest_at_every_seam(velocities, horizon_s):
    whole = plan(velocities=velocities)
    segments = horizon.split(whole, horizon_s)
    assert len(segments) == math.ceil(6.0 * horizon.PEAK / horizon_s - 1e-9) > 1
    first, last = whole['joint_trajectory']['points'][0], whole['joint_trajectory']['points'][-1]
    assert segments[0]['joint_trajectory']['points'][0]['positions'] == first['positions']
    assert segments[-1]['joint_trajectory']['points'][-1]['positions'] == pytest.approx(
        last['positions'], abs=1e-9)
    for a, b in pairwise(segments):
        assert a['joint_trajectory']['points'][-1]['positions'] == \
            b['joint_trajectory']['points'][0]['positions']  # exactly where the last one ended
    for segment in segments:
        assert cartesian.trajectory_duration(segment) <= horizon_s + 1e-9
        assert segment['joint_trajectory']['joint_names'] == NAMES
        points = segment['joint_trajectory']['points']
        if velocities:
            assert points[0]['velocities'] == [0.0] * 7 and points[-1]['velocities'] == [0.0] * 7
        else:
            assert 'velocities' not in points[0]
    assert max(peak_joint_speed(s) for s in segments) <= peak_joint_speed(whole) * 1.001


def test_segments_keep_to_the_planned_path():
    """Every segment point lies on the plan, between the two planned samples around it."""
    whole = plan(velocities=False)
    rows = timed_rows(whole)[1]
    for segment in horizon.split(whole, 1.0):
        for q in timed_rows(segment)[1]:
            # On a linear plan each point is between two planned samples, joint by joint.
            i = max(k for k, row in enumerate(rows) if row[6] <= q[6] + 1e-12)
            j = min(i + 1, len(rows) - 1)
            for a, b, x in zip(rows[i], rows[j], q):
                assert min(a, b) - 1e-9 <= x <= max(a, b) + 1e-9


@pytest.mark.parametrize('horizon_s,duration_s', [(0.0, 6.0), (1.0, 0.8), (1.0, 1.0)])
def test_short_plans_and_horizon_zero_are_handed_over_whole(horizon_s, duration_s):
    whole = plan(duration_s)
    assert horizon.split(whole, horizon_s) == [whole]


def test_progress_rises_across_segments():
    seen = []
    readers = [horizon.progress_of(k, 3, {'MONITOR': (0.4, 'executing')}, seen.append)
               for k in range(3)]
    feedback = [type('Feedback', (), {'state': s})() for s in ('MONITOR', 'IDLE')]
    fractions = [read(f)[0] for read in readers for f in feedback]
    assert fractions == sorted(fractions) and fractions[0] == 0.4
    assert fractions[-1] == pytest.approx(0.95)
    assert len(seen) == 6


@pytest.mark.parametrize('distro', DISTROS)
def test_every_segment_is_a_conforming_execute_trajectory_goal(distro):
    store = store_for(distro)
    for segment in horizon.split(plan(), 1.0):
        check(store, 'moveit_msgs/msg/ExecuteTrajectory_Goal',
              cartesian.build_execute_goal(segment, distro))
