"""
Parse the serialized (CDR) sensor messages that ``raw=True`` subscriptions deliver.

Only the fields the bridge needs are read, straight from the bytes with
``struct``: no rclpy message objects are built. Layout (classic CDR as
Fast DDS and Cyclone DDS send it for ROS 2): a 4-byte encapsulation header
whose second byte is 1 for little endian and 0 for big endian, then the body,
where every primitive is aligned to its size counted from the body start.
Strings are a uint32 length (including the NUL) and the bytes; sequences a
uint32 count and the elements; a double sequence is aligned to 8 only when it
has elements.
"""

from __future__ import annotations

import struct

Wrench = tuple[float, str, tuple[float, float, float, float, float, float]]
Joints = tuple[float, tuple[str, ...], tuple[float, ...], tuple[float, ...], tuple[float, ...]]

_LE = (struct.Struct('<iII'), struct.Struct('<6d'), struct.Struct('<I'))
_BE = (struct.Struct('>iII'), struct.Struct('>6d'), struct.Struct('>I'))


def _codecs(data: bytes) -> tuple[struct.Struct, struct.Struct, struct.Struct]:
    if len(data) < 16:
        raise ValueError(f'{len(data)} bytes is too short for a stamped message')
    return _LE if data[1] == 1 else _BE


def parse_wrench(data: bytes) -> Wrench:
    """
    Return (stamp in s, frame_id, (fx, fy, fz, tx, ty, tz)) of a WrenchStamped.

    Raises ``ValueError`` (or ``struct.error``) on truncated input.
    """
    head, six, _ = _codecs(data)
    sec, nanosec, size = head.unpack_from(data, 4)
    start = 16 + size
    frame = data[16:start - 1].decode() if size else ''
    return sec + nanosec * 1e-9, frame, six.unpack_from(data, 4 + ((start - 4 + 7) & ~7))


def parse_bare_wrench(data: bytes) -> tuple[float, float, float, float, float, float]:
    """
    Return (fx, fy, fz, tx, ty, tz) of a bare geometry_msgs/Wrench (no header).

    Raises ``ValueError`` on truncated input.
    """
    if len(data) < 52:
        raise ValueError(f'{len(data)} bytes is too short for a Wrench (52)')
    six = _LE[1] if data[1] == 1 else _BE[1]
    return six.unpack_from(data, 4)


def _doubles(data: bytes, at: int, endian: str, count_of: struct.Struct
             ) -> tuple[tuple[float, ...], int]:
    at = (at + 3) & ~3  # body offset + 4 is a multiple of 4 exactly when at is
    (count,) = count_of.unpack_from(data, at)
    at += 4
    if not count:
        return (), at
    at = 4 + ((at - 4 + 7) & ~7)
    values = struct.unpack_from(f'{endian}{count}d', data, at)
    return values, at + 8 * count


def _names(data: bytes, count_of: struct.Struct) -> tuple[tuple[str, ...], int]:
    (size,) = count_of.unpack_from(data, 12)
    at = (16 + size + 3) & ~3
    (count,) = count_of.unpack_from(data, at)
    at += 4
    names = []
    for _ in range(count):
        at = (at + 3) & ~3
        (size,) = count_of.unpack_from(data, at)
        names.append(data[at + 4:at + 3 + size].decode())
        at += 4 + size
    if at > len(data):
        raise ValueError(f'JointState truncated: needs {at} bytes, has {len(data)}')
    return tuple(names), at


def joint_names(data: bytes) -> tuple[str, ...]:
    """
    Return only the joint names of a serialized JointState.

    A cache files a message under its names and leaves the numbers for the
    reader. (The raw name bytes are no key: CDR padding bytes are not zeroed.)
    """
    return _names(data, _codecs(data)[2])[0]


def parse_joint_state(data: bytes) -> Joints:
    """
    Return (stamp in s, names, positions, velocities, efforts) of a JointState.

    Raises ``ValueError`` (or ``struct.error``) on truncated input.
    """
    head, _, count_of = _codecs(data)
    endian = '<' if data[1] == 1 else '>'
    sec, nanosec, _ = head.unpack_from(data, 4)
    names, at = _names(data, count_of)
    positions, at = _doubles(data, at, endian, count_of)
    velocities, at = _doubles(data, at, endian, count_of)
    efforts, at = _doubles(data, at, endian, count_of)
    if at > len(data):
        raise ValueError(f'JointState truncated: needs {at} bytes, has {len(data)}')
    return sec + nanosec * 1e-9, names, positions, velocities, efforts
