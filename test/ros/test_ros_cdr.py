"""
The CDR parsers of ``raw=True`` sensor subscriptions against rclpy's own serializer.

Many random WrenchStamped and JointState messages (empty and odd-length
strings, empty and ragged sequences, non-ASCII names) are serialized with
``rclpy.serialization.serialize_message`` and parsed back field by field.
"""

import random
import struct

from mcp_ros_bridge.backends.ros import cdr
import pytest

pytestmark = [pytest.mark.ros]
serialization = pytest.importorskip(
    'rclpy.serialization', reason='rclpy does not import: the ros layer needs it')
WrenchStamped = pytest.importorskip('geometry_msgs.msg').WrenchStamped
JointState = pytest.importorskip('sensor_msgs.msg').JointState

_ALPHABET = 'abcxyz_0123456789/é'


def _text(rng: random.Random, longest: int = 23) -> str:
    return ''.join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, longest)))


def _floats(rng: random.Random, count: int) -> list[float]:
    return [rng.uniform(-1e4, 1e4) for _ in range(count)]


def _stamp(msg, rng: random.Random) -> float:
    msg.header.stamp.sec = rng.randint(-2**31, 2**31 - 1)
    msg.header.stamp.nanosec = rng.randint(0, 999_999_999)
    return msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9


def test_wrench_matches_serialize_message_for_random_messages():
    rng = random.Random(4)
    for _ in range(500):
        msg = WrenchStamped()
        stamp = _stamp(msg, rng)
        msg.header.frame_id = _text(rng)
        f, t = msg.wrench.force, msg.wrench.torque
        f.x, f.y, f.z, t.x, t.y, t.z = _floats(rng, 6)
        parsed = cdr.parse_wrench(serialization.serialize_message(msg))
        assert parsed == (stamp, msg.header.frame_id, (f.x, f.y, f.z, t.x, t.y, t.z))


def test_joint_state_matches_serialize_message_for_random_messages():
    rng = random.Random(5)
    for _ in range(500):
        msg = JointState()
        stamp = _stamp(msg, rng)
        msg.header.frame_id = _text(rng)
        count = rng.randint(0, 12)
        msg.name = [_text(rng) for _ in range(count)]
        msg.position = _floats(rng, rng.choice([0, count, max(0, count - 1)]))
        msg.velocity = _floats(rng, rng.choice([0, count]))
        msg.effort = _floats(rng, rng.choice([0, count, count + 1]))
        data = serialization.serialize_message(msg)
        stamp_s, names, pos, vel, eff = cdr.parse_joint_state(data)
        assert stamp_s == stamp
        assert names == tuple(msg.name)
        assert (pos, vel, eff) == (tuple(msg.position), tuple(msg.velocity),
                                   tuple(msg.effort))
        assert cdr.joint_names(data) == tuple(msg.name)


def test_big_endian_wrench():
    body = struct.pack('>iII', 7, 5, 3) + b'ab\x00' + b'\x00' + struct.pack(
        '>6d', 1, 2, 3, 4, 5, 6)
    assert cdr.parse_wrench(b'\x00\x00\x00\x00' + body) == (
        7 + 5e-9, 'ab', (1.0, 2.0, 3.0, 4.0, 5.0, 6.0))


@pytest.mark.parametrize('parse', [cdr.parse_wrench, cdr.parse_joint_state,
                                   cdr.joint_names])
def test_truncated_input_raises(parse):
    msg = JointState(name=['a_long_joint_name', 'b'], position=[1.0, 2.0])
    data = serialization.serialize_message(msg)  # (its buffer has trailing padding)
    for cut in (0, 14, 30):
        with pytest.raises((ValueError, struct.error)):
            parse(data[:cut])
