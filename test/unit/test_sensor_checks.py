"""
The sensor validators and the caches built on them, without ROS.

Samples go into the caches through ``on_message`` with plain objects shaped
like rclpy messages (the raw path is the same code after parsing; the ros
layer runs both over DDS).
"""

import math
from types import SimpleNamespace

from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.backends.ros.joint_cache import JointStateCache, MAX_OTHER_JOINTS
from mcp_ros_bridge.backends.ros.sensors import Checks, WrenchBuffer
from mcp_ros_bridge.backends.sensor_checks import (check_joint_arrays, check_stamp,
                                                   check_wrench, FUTURE_TOLERANCE_S, REASONS,
                                                   Rejections)
from mcp_ros_bridge.messages import MESSAGES
import pytest

NOW = 1_700_000_000.0  # a wall-clock node time
ARM = ('j1', 'j2')


def header(stamp):
    sec = int(stamp)
    return SimpleNamespace(stamp=SimpleNamespace(sec=sec, nanosec=int((stamp - sec) * 1e9)),
                           frame_id='ft')


def joint_msg(stamp, names=ARM, position=(0.1, 0.2), velocity=(), effort=()):
    return SimpleNamespace(header=header(stamp), name=list(names), position=list(position),
                           velocity=list(velocity), effort=list(effort))


def wrench_msg(stamp, force=(0.0, 0.0, 5.0), torque=(0.0, 0.0, 0.0)):
    v = SimpleNamespace
    return v(header=header(stamp), wrench=v(force=v(x=force[0], y=force[1], z=force[2]),
                                            torque=v(x=torque[0], y=torque[1], z=torque[2])))


CHECKS = Checks(lambda: NOW, 0.5, 1000.0, 100.0)


@pytest.mark.parametrize('row,expected', [
    ((0.0, 0.0, 5.0, 0.0, 0.0, 0.0), None),
    ((math.nan, 0.0, 5.0, 0.0, 0.0, 0.0), 'non_finite'),
    ((0.0, 0.0, 0.0, 0.0, math.inf, 0.0), 'non_finite'),
    ((0.0, -1000.1, 0.0, 0.0, 0.0, 0.0), 'out_of_range'),
    ((0.0, 0.0, 0.0, 0.0, 0.0, 100.5), 'out_of_range'),
    ((999.0, 999.0, 999.0, 99.0, 99.0, 99.0), None),
])
def test_check_wrench_rejects_non_finite_and_beyond_the_rating(row, expected):
    bad = check_wrench(row, 1000.0, 100.0)
    assert (bad[0] if bad else None) == expected


@pytest.mark.parametrize('names,pos,vel,eff,expected', [
    (ARM, (0.1, 0.2), (), (), None),
    (ARM, (0.1, 0.2), (1.0, 2.0), (3.0, 4.0), None),
    (ARM, (), (), (1.0, 2.0), 'position'),  # effort only: sensor_msgs allows it, we cannot use it
    (ARM, (0.1,), (), (), 'position'),
    (ARM, (0.1, 0.2), (1.0,), (), 'velocity'),
    (ARM, (0.1, 0.2), (), (1.0, 2.0, 3.0), 'effort'),
    (('j1', 'j1'), (0.1, 0.2), (), (), 'name'),
    ((), (), (), (), 'name'),
    (ARM, (0.1, math.nan), (), (), 'position[j2]'),
    (ARM, (0.1, 0.2), (0.0, -math.inf), (), 'velocity[j2]'),
])
def test_check_joint_arrays_needs_positions_per_name_and_finite_values(
        names, pos, vel, eff, expected):
    bad = check_joint_arrays(names, pos, vel, eff)
    assert (bad[1] if bad else None) == expected


@pytest.mark.parametrize('stamp,now,reason', [
    (NOW - 0.1, NOW, None),
    (NOW + FUTURE_TOLERANCE_S / 2, NOW, None),
    (NOW + 3600.0, NOW, 'future_stamp'),
    (5.0, NOW, 'other_clock'),  # simulation time on a wall-clock node
    (NOW, 105.0, 'other_clock'),  # wall time on a sim-time node
    (NOW - 2.0, NOW, 'old_stamp'),
    (0.0, NOW, None),  # unstamped: aged by receipt time instead
    (NOW + 3600.0, 0.0, None),  # node time unknown (no /clock yet): not judged here
])
def test_check_stamp(stamp, now, reason):
    bad = check_stamp(stamp, now, 0.5)
    assert (bad[0] if bad else None) == reason


def test_every_reason_has_a_text_naming_field_and_value():
    for reason in REASONS:
        en, zh = MESSAGES[f'sensor_reject_{reason}']
        assert '{field}' in en and '{value}' in en and '{field}' in zh and '{value}' in zh


def test_rejections_count_by_reason_and_remember_the_newest():
    log = Rejections()
    assert log.total == 0 and log.recent(1.0) is None
    log.add('non_finite', 'Fx', math.nan)
    log.add('non_finite', 'Fy', math.nan)
    newest = log.add('future_stamp', 'header.stamp', 3600.0)
    assert log.counts() == {'non_finite': 2, 'future_stamp': 1} and log.total == 3
    assert log.recent(1.0) is newest and log.recent(-1.0) is None


def test_a_nan_wrench_is_never_stored_and_a_nan_stream_reads_as_sensor_fault():
    buffer = WrenchBuffer('/w', checks=CHECKS)
    faults = []
    buffer.fault_watcher = faults.append
    buffer.on_message(wrench_msg(NOW - 0.01))
    assert buffer.read(1, NOW, 0.5).samples[-1][2] == 5.0
    buffer.on_message(wrench_msg(NOW, force=(math.nan, 0.0, 0.0)))
    buffer.on_message(wrench_msg(NOW, torque=(0.0, 0.0, 1e9)))
    assert [f.reason for f in faults] == ['non_finite', 'out_of_range'] and buffer.count == 1
    fresh = buffer.read(5, NOW, 0.5)  # the valid sample is still fresh: served, rejects counted
    assert len(fresh.samples) == 1 and fresh.rejected == {'non_finite': 1, 'out_of_range': 1}
    with pytest.raises(BackendError, match='SENSOR_FAULT'):
        buffer.check_healthy(NOW, 0.5)  # but no motion starts on it
    with pytest.raises(BackendError) as err:
        buffer.read(5, NOW + 1.0, 0.5)  # no valid recent sample, rejections keep coming
    assert err.value.code == 'SENSOR_FAULT' and err.value.details['topic'] == '/w'
    assert err.value.details['rejected'] == {'non_finite': 1, 'out_of_range': 1}
    assert 'Mz=1000000000.0' in err.value.message


def test_a_stream_that_never_sent_a_valid_sample_is_a_fault_not_silence():
    buffer = WrenchBuffer('/w', checks=CHECKS)
    buffer.on_message(wrench_msg(NOW, force=(0.0, math.nan, 0.0)))
    assert buffer.received.is_set()
    with pytest.raises(BackendError, match='SENSOR_FAULT.*Fy is nan'):
        buffer.read(1, NOW, 0.5)


def test_a_bad_joint_message_never_displaces_good_data():
    cache = JointStateCache('/j', ARM, CHECKS)
    cache.on_message(joint_msg(NOW - 0.01, position=(0.1, 0.2)))
    for bad in (joint_msg(NOW, position=(), effort=(1.0, 2.0)),     # effort only
                joint_msg(NOW + 3600.0, position=(9.0, 9.0)),        # an hour ahead
                joint_msg(5.0, position=(9.0, 9.0)),                 # simulation time
                joint_msg(NOW, position=(math.nan, 9.0))):
        cache.on_message(bad)
    js = cache.read(ARM, NOW, 0.5)
    assert js.positions == (0.1, 0.2) and js.stamp == pytest.approx(NOW - 0.01)
    assert js.rejected == {'bad_arrays': 1, 'future_stamp': 1, 'other_clock': 1,
                           'non_finite': 1}


def test_joints_are_kept_per_joint_and_an_older_stamp_never_wins():
    cache = JointStateCache('/j', ('j1', 'j2', 'f1'), CHECKS)
    cache.on_message(joint_msg(NOW - 0.02, names=('j1', 'j2'), position=(0.1, 0.2)))
    cache.on_message(joint_msg(NOW - 0.01, names=('f1',), position=(0.04,)))
    cache.on_message(joint_msg(NOW - 0.015, names=('j2',), position=(0.3,)))
    cache.on_message(joint_msg(NOW - 0.03, names=('j1',), position=(7.0,)))  # out of order
    js = cache.read(ARM, NOW, 0.5)
    assert js.names == ('j1', 'j2', 'f1') and js.positions == (0.1, 0.3, 0.04)


def test_many_name_sets_keep_the_cache_bounded():
    configured, bare = JointStateCache('/j', ARM, CHECKS), JointStateCache('/j', (), CHECKS)
    for cache in (configured, bare):
        cache.on_message(joint_msg(NOW - 0.01))
        for i in range(5000):
            cache.on_message(joint_msg(NOW - 0.01, names=(f'x{i}', f'y{i}'),
                                       position=(0.0, 0.0)))
        assert cache.read(ARM, NOW, 0.5).positions[:2] == (0.1, 0.2)
    assert configured.read(ARM, NOW, 0.5).names == ARM  # other devices' joints stay out
    assert len(bare._joints) == MAX_OTHER_JOINTS


def test_joint_faults_say_which_topic_and_why():
    cache = JointStateCache('/j', ARM, CHECKS)
    cache.on_message(joint_msg(NOW, position=(0.1,)))
    with pytest.raises(BackendError) as err:
        cache.read(ARM, NOW, 0.5)
    assert err.value.code == 'SENSOR_FAULT' and err.value.details['reason'] == 'bad_arrays'
    assert err.value.details['field'] == 'position' and '/j' in err.value.message
    stale = JointStateCache('/j', ARM, CHECKS)
    stale.on_message(joint_msg(NOW - 2.0))
    with pytest.raises(BackendError, match='SENSOR_STALE') as err:
        stale.read(ARM, NOW, 0.5)  # too old on arrival is staleness, with its age
    assert err.value.details['age_s'] == pytest.approx(2.0, abs=0.01)
    clocks = JointStateCache('/j', ARM, CHECKS)
    clocks.on_message(joint_msg(5.0))
    with pytest.raises(BackendError, match='CLOCK_MISMATCH'):
        clocks.read(ARM, NOW, 0.5)
