"""Published joint bounds are short and never wider than the limit less its margin."""

import random

from mcp_ros_bridge.catalog.references import BOUND_DECIMALS, inward

STEP = 10 ** -BOUND_DECIMALS


def test_rounding_moves_each_bound_inward_by_less_than_one_step():
    """Over 20,000 values (radians and metres): lower bounds round up, upper bounds down."""
    rng = random.Random(7)
    for _ in range(10_000):
        v = rng.uniform(-7.0, 7.0)
        lo, hi = inward(v, up=True), inward(v, up=False)
        # float error aside (1e-10: below any joint's resolution), never outward
        assert v - 1e-9 <= lo < v + STEP and v - STEP < hi <= v + 1e-9, v
        assert len(repr(lo).split('.')[-1]) <= BOUND_DECIMALS, lo
        assert len(repr(hi).split('.')[-1]) <= BOUND_DECIMALS, hi


def test_a_bound_already_short_is_kept():
    """-2.8973 + 0.02 (the Panda's) stays -2.8773 both ways, despite float error."""
    assert inward(-2.8973 + 0.02, up=True) == inward(-2.8973 + 0.02, up=False) == -2.8773
    assert inward(0.345, up=False) == 0.345 and inward(0.005, up=True) == 0.005
