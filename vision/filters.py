"""Temporal filters for landmarks: the One-Euro filter (Casiez, Roussel & Vogel, CHI 2012).

A fingertip seen by MediaPipe jitters by 0.5–1.5 px when still and moves fast when placed. The
One-Euro filter is a low-pass filter whose cutoff rises with speed: strong smoothing when the
finger rests (stable contact tests), little lag when it moves (timely events).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["OneEuroFilter"]


def _alpha(cutoff_hz: np.ndarray | float, dt_s: float) -> np.ndarray | float:
    tau = 1.0 / (2.0 * math.pi * np.asarray(cutoff_hz, dtype=np.float64))
    return 1.0 / (1.0 + tau / dt_s)


class OneEuroFilter:
    """One-Euro filter over an array of any fixed shape (each element filtered on its own).

    Args:
        min_cutoff_hz: cutoff at rest, Hz; lower = smoother when still.
        beta: how fast the cutoff grows with speed (per unit of the signal per second).
        d_cutoff_hz: cutoff of the speed estimate, Hz.

    ``update(x, t_s)`` returns the filtered value (float64, the shape of ``x``). Time must
    increase; a repeated time returns the last output. ``reset()`` forgets the past (e.g. when
    the hand is lost), and the next sample passes through unchanged.
    """

    def __init__(self, min_cutoff_hz: float = 1.5, beta: float = 0.05, d_cutoff_hz: float = 1.0
                 ) -> None:
        if min_cutoff_hz <= 0 or d_cutoff_hz <= 0 or beta < 0:
            raise ValueError(
                f"OneEuroFilter needs min_cutoff_hz > 0, d_cutoff_hz > 0, beta >= 0; got "
                f"{min_cutoff_hz}, {d_cutoff_hz}, {beta}"
            )
        self.min_cutoff_hz = float(min_cutoff_hz)
        self.beta = float(beta)
        self.d_cutoff_hz = float(d_cutoff_hz)
        self.reset()

    def reset(self) -> None:
        self._x: np.ndarray | None = None
        self._dx: np.ndarray | None = None
        self._t_s: float | None = None

    @property
    def speed(self) -> np.ndarray | None:
        """Filtered speed of each element (signal units per second), None before two samples."""
        return None if self._dx is None else np.abs(self._dx)

    def update(self, x: np.ndarray, t_s: float) -> np.ndarray:
        x = np.asarray(x, dtype=np.float64)
        if self._x is None or self._t_s is None:
            self._x, self._dx, self._t_s = x.copy(), np.zeros_like(x), float(t_s)
            return x.copy()
        if x.shape != self._x.shape:
            raise ValueError(f"OneEuroFilter: expected shape {self._x.shape}, got {x.shape}")
        dt = float(t_s) - self._t_s
        if dt <= 0:
            return self._x.copy()
        assert self._dx is not None
        dx = (x - self._x) / dt
        a_d = _alpha(self.d_cutoff_hz, dt)
        self._dx = a_d * dx + (1 - a_d) * self._dx
        cutoff = self.min_cutoff_hz + self.beta * np.abs(self._dx)
        a = _alpha(cutoff, dt)
        self._x = a * x + (1 - a) * self._x
        self._t_s = float(t_s)
        return self._x.copy()
