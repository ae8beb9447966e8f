"""The force/torque filters smooth every axis alike, whatever its unit or noise level."""

from mcp_ros_bridge.filters import apply_filter
import numpy as np
import pytest

pytestmark = [pytest.mark.unit]

TRUE = np.array([1.0, -2.0, 7.5, 0.12, -0.03, 0.0])     # N, N, N, Nm, Nm, Nm
NOISE = np.array([0.05] * 3 + [0.002] * 3)              # the simulated sensor's noise


def _reduction(kind: str, window: int, trials: int = 400) -> np.ndarray:
    """Return the per-axis factor by which ``kind`` cuts the noise's standard deviation."""
    rng = np.random.default_rng(7)
    est = [apply_filter(kind, TRUE + rng.standard_normal((window, 6)) * NOISE)
           for _ in range(trials)]
    return np.asarray(NOISE / np.std(est, axis=0))


@pytest.mark.parametrize('window', [20, 100, 500])
def test_kalman_cuts_force_and_torque_noise_by_a_similar_factor(window):
    """Forces (0.05 N noise) and torques (0.002 Nm) both lose about 3x of their noise."""
    factor = _reduction('kalman', window)
    assert factor.min() > 2.2, factor
    assert factor[3:].mean() == pytest.approx(factor[:3].mean(), rel=0.2), factor


def test_kalman_is_unchanged_by_the_unit_of_an_axis():
    """Scaling an axis (N to mN, say) scales its estimate and nothing else."""
    rng = np.random.default_rng(3)
    window = TRUE + rng.standard_normal((100, 6)) * NOISE
    scale = np.array([1e3, 1.0, 1e-3, 1e3, 1.0, 1e-3])
    assert np.allclose(apply_filter('kalman', window * scale),
                       apply_filter('kalman', window) * scale, rtol=1e-9)


def test_kalman_of_a_noiseless_window_is_its_value_and_moving_average_still_averages():
    """No noise: the Kalman estimate is the constant; the moving average keeps its 1/sqrt(N)."""
    assert np.allclose(apply_filter('kalman', np.tile(TRUE, (50, 1))), TRUE)
    factor = _reduction('moving_average', 100)
    assert np.all((factor > 8) & (factor < 12.5)), factor
