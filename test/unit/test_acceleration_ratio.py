"""Each motion's acceleration scaling: the call's velocity scaling times the configured ratio."""

from dataclasses import replace
import os

from mcp_ros_bridge.catalog.loader import load_robot
import pytest

pytestmark = [pytest.mark.unit]

CONFIG_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), 'config')
LIMITS = load_robot(CONFIG_DIR)[0].limits


def _limits(default_acc: float, default_vel: float = 0.2, max_acc: float = 0.5):
    return replace(LIMITS, default_acceleration_scaling=default_acc,
                   default_velocity_scaling=default_vel, max_acceleration_scaling=max_acc)


def test_the_shipped_defaults_accelerate_at_the_velocity_scaling():
    """0.2 with 0.2: acceleration scaling equals velocity scaling, as the tools describe."""
    assert LIMITS.default_acceleration_scaling == LIMITS.default_velocity_scaling
    for v in (1e-6, 0.1, 0.2, 0.5):
        assert LIMITS.acceleration_scaling(v) == pytest.approx(v)


@pytest.mark.parametrize('default_acc, default_vel, velocity, expected', [
    (0.1, 0.2, 0.2, 0.1),      # the default speed gets the default acceleration
    (0.1, 0.2, 0.4, 0.2),      # twice the speed, twice the acceleration
    (0.1, 0.2, 0.02, 0.01),
    (0.4, 0.1, 0.2, 0.5),      # 0.8 capped by max_acceleration_scaling 0.5
])
def test_the_defaults_set_the_ratio_and_the_max_caps_it(default_acc, default_vel, velocity,
                                                        expected):
    """Acceleration = min(max_acceleration_scaling, velocity * default_acc / default_vel)."""
    lim = _limits(default_acc, default_vel)
    assert lim.acceleration_scaling(velocity) == pytest.approx(expected)
    assert 0 < lim.acceleration_scaling(velocity) <= lim.max_acceleration_scaling
