"""The struct-packed WrenchStamped encoder: the generic encoder's bytes, or not used at all."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp_ros_bridge.recording.fast_cdr import faster, wrench_stamped
from mcp_ros_bridge.recording.msg_schemas import ros2msg
from mcp_ros_bridge.recording.robot_samples import wrench_message
import pytest

NEEDS = 'recording needs mcap (pip install -e ".[record]")'
serialize_dynamic = pytest.importorskip('mcap_ros2._dynamic', reason=NEEDS).serialize_dynamic

pytestmark = pytest.mark.unit
KIND = 'geometry_msgs/msg/WrenchStamped'


@pytest.fixture(scope='module')
def generic() -> Callable[[Any], bytes]:
    """Return the generic encoder of the installed WrenchStamped schema."""
    text = ros2msg(KIND)
    if text is None:
        pytest.skip('no geometry_msgs definitions installed')
    return serialize_dynamic(KIND, text)[KIND]


@pytest.mark.parametrize('frame', ['', 'a', 'abc', 'abcdefg', 'panda_hand_tcp', 'ñ_frame'])
def test_the_bytes_are_the_generic_encoders(generic: Callable[[Any], bytes], frame: str) -> None:
    """Every frame length (each padding) and signed values: byte for byte the same."""
    from rosbags.typesys import get_typestore, Stores
    message = wrench_message((1.5, -2.0, 3e3, -4e-4, 5.0, -6.25), 1764680000.123456, frame)
    assert wrench_stamped(message) == bytes(generic(message))
    decoded = get_typestore(Stores.ROS2_JAZZY).deserialize_cdr(wrench_stamped(message), KIND)
    assert decoded.header.frame_id == frame and decoded.wrench.torque.z == -6.25


def test_a_schema_it_does_not_match_keeps_the_generic_encoder(
        generic: Callable[[Any], bytes]) -> None:
    """Where the installed definition packs differently, the generic encoder stays."""
    assert faster(KIND, generic) is wrench_stamped

    def other(message: object) -> bytes:  # another layout
        return b'\x00\x01\x00\x00' + bytes(64)
    assert faster(KIND, other) is other
    assert faster('sensor_msgs/msg/JointState', generic) is generic
