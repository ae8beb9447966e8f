"""Force/torque filters over a window of raw samples: raw, moving average, Kalman."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FILTERS = ('raw', 'moving_average', 'kalman')


def moving_average(samples: np.ndarray) -> np.ndarray:
    """Return the per-axis mean of an (N, k) window."""
    return np.asarray(samples.mean(axis=0))


# Process variance per sample as a fraction of each axis's measurement variance. The
# filter's gain depends only on this ratio, so every axis (newtons or newton-metres, large
# or small noise) is smoothed alike: about 3x less noise in steady state.
PROCESS_TO_MEASUREMENT = 0.04


def kalman(samples: np.ndarray, measurement_var: float | None = None,
           process_ratio: float = PROCESS_TO_MEASUREMENT) -> np.ndarray:
    """
    Run a per-axis constant-value Kalman filter over an (N, k) window.

    The measurement variance defaults to each axis's own sample variance over
    the window (a floor keeps it positive), and the process variance is
    ``process_ratio`` times it, so the filter adapts to each axis's noise and
    unit without configuration. Returns the final state estimate.
    """
    n = samples.shape[0]
    if n == 1:
        return np.array(samples[0], dtype=float)
    if measurement_var is None:
        r = samples.var(axis=0)
    else:
        r = np.full(samples.shape[1], measurement_var)
    r = np.maximum(r, 1e-12)
    q = process_ratio * r
    x = samples[0].astype(float).copy()
    p = r.copy()
    for z in samples[1:]:
        p = p + q
        k = p / (p + r)
        x = x + k * (z - x)
        p = (1.0 - k) * p
    return np.asarray(x)


def apply_filter(kind: str, samples: npt.ArrayLike) -> np.ndarray:
    """Filter an (N, k) window with ``kind`` (raw | moving_average | kalman)."""
    arr = np.asarray(samples, dtype=float)
    if arr.ndim != 2 or arr.shape[0] == 0:
        raise ValueError('need at least one sample')
    if kind == 'raw':
        return np.array(arr[-1])
    if kind == 'moving_average':
        return moving_average(arr)
    if kind == 'kalman':
        return kalman(arr)
    raise ValueError(f'unknown filter {kind!r}; use one of {", ".join(FILTERS)}')
