"""The One-Euro filter: smooths a still signal, follows a moving one with little lag."""

from __future__ import annotations

import numpy as np
import pytest

from vision.filters import OneEuroFilter


def test_still_noisy_point_is_smoothed():
    rng = np.random.default_rng(0)
    f = OneEuroFilter(min_cutoff_hz=1.0, beta=0.0)
    raw = 100 + rng.normal(0, 1.0, (300, 2))
    out = np.array([f.update(x, i / 30) for i, x in enumerate(raw)])
    assert out[50:].std(0).max() < 0.5 * raw[50:].std(0).min()
    assert np.abs(out[50:].mean(0) - 100).max() < 0.5


def test_speed_raises_the_cutoff_so_motion_lags_less():
    t = np.arange(60) / 30
    x = 300 * t  # 300 px/s
    lags = []
    for beta in (0.0, 0.05):
        f = OneEuroFilter(min_cutoff_hz=1.0, beta=beta)
        out = [float(f.update(np.array([v]), s)[0]) for v, s in zip(x, t)]
        lags.append(x[-1] - out[-1])
    assert lags[1] < 0.5 * lags[0]


def test_first_sample_passes_and_reset_forgets():
    f = OneEuroFilter()
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert np.array_equal(f.update(a, 0.0), a)
    f.update(a + 10, 0.1)
    f.reset()
    assert np.array_equal(f.update(a, 0.2), a)


def test_bad_arguments_and_shapes():
    with pytest.raises(ValueError):
        OneEuroFilter(min_cutoff_hz=0)
    f = OneEuroFilter()
    f.update(np.zeros(3), 0.0)
    with pytest.raises(ValueError, match="expected shape"):
        f.update(np.zeros(4), 0.1)
