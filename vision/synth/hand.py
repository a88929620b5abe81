"""A procedural hand: kinematics in table millimetres and a 2.5D renderer MediaPipe detects.

Two halves, used by the synthetic scenes (``vision/synth``):

* :class:`HandModel` poses a palm-down hand over the table. Table frame: x right, y up the wall
  (away from the player), z up from the table towards the camera, millimetres. The forearm
  comes from -y. ``pose()`` turns a wrist position, a heading and a state per finger
  (:class:`Down` on a table point, :class:`Lifted`, :class:`Rest`) into the 21 landmarks
  (MediaPipe's numbering, :mod:`vision.landmarks`) as a (21, 3) array; ``place()`` searches a
  wrist position and heading that puts chosen fingertips on chosen table points (or says it
  cannot), and :func:`blend_poses` moves smoothly between two poses.
* :func:`render_hand` draws the posed hand, its forearm and a soft cast shadow into a top-down
  image of the table: spheres and flattened ellipsoids swept along the skeleton are ray-cast
  from above into a height buffer (exact normals), then shaded with wrapped diffuse light, a
  reddish subsurface tint, a specular highlight, crease/occlusion darkening, nails and skin
  noise. A flat cartoon hand is not detected by MediaPipe; this one is (tech-notes.md).

Ground truth and MediaPipe's convention: the model's landmarks are joint centres on the bone
axes and the tip landmark is the contact point of the finger pad. MediaPipe's landmarks sit a
little differently (its wrist is nearer the fingers, its knuckles further back, and the tip of
a finger pressing the table further out along the finger, as on real video).
:func:`mediapipe_landmarks_px` applies fixed per-landmark offset tables (one for resting or
lifted fingers, one for pressing fingers), measured with ``python -m vision.synth.bench_hand
--fit-offsets``, to express rendered landmarks in MediaPipe's convention; use it when comparing
with MediaPipe, and keep the model's landmarks as the physical ground truth (which finger
touches where).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass

import numpy as np

from vision.landmarks import FINGER_JOINTS, FINGERS

__all__ = [
    "FINGERS",
    "Down",
    "Lifted",
    "Rest",
    "FingerState",
    "HandStyle",
    "SKIN_TONES_RGB",
    "random_style",
    "HandModel",
    "Placement",
    "blend_poses",
    "HandRender",
    "render_hand",
    "mediapipe_landmarks_px",
    "landmarks_to_canvas_px",
    "finish_image",
]


# --------------------------------------------------------------------------------------------
# Finger states and style
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Down:
    """Fingertip pressed on the table at (x_mm, y_mm) (tip landmark at z = 0)."""

    x_mm: float
    y_mm: float


@dataclass(frozen=True)
class Lifted:
    """Finger raised and curled, tip ``height_mm`` above the table (25–45 mm is typical)."""

    height_mm: float = 35.0


@dataclass(frozen=True)
class Rest:
    """Finger relaxed, tip slightly above the table (about 10 mm, never below 8 mm)."""


FingerState = Down | Lifted | Rest

#: Skin tones from light to dark, RGB 0..255 (a spread of real skin reflectances).
SKIN_TONES_RGB: tuple[tuple[int, int, int], ...] = (
    (243, 214, 196),
    (234, 192, 165),
    (224, 172, 140),
    (198, 145, 110),
    (170, 118, 84),
    (141, 92, 62),
    (107, 68, 46),
    (80, 52, 38),
)


@dataclass(frozen=True)
class HandStyle:
    """How a hand looks and how big it is.

    Attributes:
        handedness: the person's ``"left"`` or ``"right"`` hand.
        skin_rgb: base skin colour, RGB 0..255.
        size_scale: multiplies every length (1.0: ~92 mm from the wrist landmark to the middle
            knuckle, ~190 mm wrist to middle fingertip).
        nail_rgb: nail colour, RGB 0..255 (None: derived from the skin).
        sss_rgb: colour of light scattered under the skin (reddish), RGB 0..255.
        specular: strength of the skin's highlight, 0..1.
    """

    handedness: str = "right"
    skin_rgb: tuple[int, int, int] = (224, 172, 140)
    size_scale: float = 1.0
    nail_rgb: tuple[int, int, int] | None = None
    sss_rgb: tuple[int, int, int] = (200, 60, 50)
    specular: float = 0.18

    def __post_init__(self) -> None:
        if self.handedness not in ("left", "right"):
            raise ValueError(f"HandStyle.handedness must be 'left' or 'right', got "
                             f"{self.handedness!r}")
        if not 0.5 <= self.size_scale <= 1.6:
            raise ValueError(f"HandStyle.size_scale must be in [0.5, 1.6], got {self.size_scale}")
        for name in ("skin_rgb", "sss_rgb"):
            v = getattr(self, name)
            if len(v) != 3:
                raise ValueError(f"HandStyle.{name} must be 3 values (RGB), got {v!r}")

    @property
    def nail_color_rgb(self) -> tuple[int, int, int]:
        """The nail colour: given, or a lighter pinkish version of the skin."""
        if self.nail_rgb is not None:
            return self.nail_rgb
        r, g, b = self.skin_rgb
        return (int(min(255, r * 0.75 + 70)), int(min(255, g * 0.7 + 62)),
                int(min(255, b * 0.7 + 62)))


def random_style(rng: np.random.Generator, handedness: str | None = None) -> HandStyle:
    """A random plausible hand: skin tone light to dark, size 0.85–1.15, either hand."""
    if handedness is None:
        handedness = "right" if rng.random() < 0.5 else "left"
    base = np.array(SKIN_TONES_RGB[int(rng.integers(len(SKIN_TONES_RGB)))], dtype=float)
    # Brightness and a little per-channel (hue) variation, relative so dark tones stay brown.
    skin = np.clip(base * rng.uniform(0.93, 1.07) * (1.0 + rng.normal(0, 0.025, 3)), 20, 255)
    return HandStyle(
        handedness=handedness,
        skin_rgb=(int(skin[0]), int(skin[1]), int(skin[2])),
        size_scale=float(rng.uniform(0.85, 1.15)),
        specular=float(rng.uniform(0.1, 0.28)),
    )


# --------------------------------------------------------------------------------------------
# Kinematic model
# --------------------------------------------------------------------------------------------

# Hand-local frame of a RIGHT hand at scale 1: u lateral (+ towards the little finger),
# v forward (towards the fingers), mm, wrist landmark at the origin. A left hand mirrors u.
_ROOT_UV_MM: dict[str, tuple[float, float]] = {
    "thumb": (-19.0, 21.0),  # thumb CMC
    "index": (-27.0, 88.0),
    "middle": (-8.0, 92.0),
    "ring": (10.0, 87.0),
    "little": (26.0, 77.0),
}
# Bone lengths from the root joint outwards (root→2nd, 2nd→3rd, 3rd→tip), mm at scale 1.
_BONES_MM: dict[str, tuple[float, float, float]] = {
    "thumb": (42.0, 31.0, 27.0),
    "index": (43.0, 25.0, 22.0),
    "middle": (47.0, 29.0, 24.0),
    "ring": (44.0, 28.0, 23.0),
    "little": (35.0, 20.0, 20.0),
}
# Finger radii at root, 2nd, 3rd joint and tip, mm at scale 1.
_RADII_MM: dict[str, tuple[float, float, float, float]] = {
    "thumb": (12.5, 11.0, 10.2, 9.2),
    "index": (9.6, 8.6, 7.7, 6.9),
    "middle": (10.0, 8.9, 7.9, 7.1),
    "ring": (9.4, 8.4, 7.5, 6.8),
    "little": (8.4, 7.4, 6.7, 6.1),
}
# Neutral finger direction (yaw, deg, + towards the little finger) and allowed range.
_YAW_NEUTRAL_DEG = {"thumb": -32.0, "index": -6.0, "middle": 0.0, "ring": 5.0, "little": 12.0}
_YAW_RANGE_DEG = {
    "thumb": (-85.0, -8.0),
    "index": (-28.0, 12.0),
    "middle": (-16.0, 16.0),
    "ring": (-10.0, 22.0),
    "little": (-6.0, 38.0),
}
# In-plane joint model: 2nd-joint flexion theta2 in [0, max]; 3rd joint = coupling * theta2.
_THETA2_MAX_DEG = {"thumb": 80.0, "index": 105.0, "middle": 105.0, "ring": 105.0, "little": 105.0}
_COUPLING = {"thumb": 0.8, "index": 0.67, "middle": 0.67, "ring": 0.67, "little": 0.67}
# Root flexion (pitch below the palm's direction) limits, deg.
_THETA1_RANGE_DEG = {"thumb": (-20.0, 70.0), "index": (-25.0, 95.0), "middle": (-25.0, 95.0),
                     "ring": (-25.0, 95.0), "little": (-25.0, 95.0)}
# Comfortable 2nd-joint flexion for a finger pressing down (a steep, claw-like finger).
_THETA2_COMFORT_DEG = {"thumb": 30.0, "index": 75.0, "middle": 75.0, "ring": 75.0, "little": 70.0}

# Palm heights (mm at scale 1) of the wrist landmark and of the finger roots (MCP joints).
_PALM_Z_DOWN_MM = (36.0, 48.0)  # when at least one finger presses the table
_PALM_Z_REST_MM = (26.0, 32.0)  # otherwise
_THUMB_ROOT_DZ_MM = -4.0  # thumb CMC below the wrist height
_REST_TIP_Z_MM = 10.0
_MIN_TIP_GAP_MM = 13.0  # two fingertips down are at least this far apart (finger width)

_N_TABLE = 256


@dataclass(frozen=True)
class _Chain:
    lengths: np.ndarray  # (3,)
    theta2: np.ndarray  # (N,) rad, increasing
    chord: np.ndarray  # (N,) distance root→tip, decreasing
    alpha: np.ndarray  # (N,) angle of the chord below bone 1, rad


def _make_chain(finger: str, scale: float) -> _Chain:
    lengths = np.array(_BONES_MM[finger]) * scale
    k = _COUPLING[finger]
    th = np.linspace(0.0, math.radians(_THETA2_MAX_DEG[finger]), _N_TABLE)
    ang = np.stack([np.zeros_like(th), th, th * (1 + k)], axis=1)  # downward pitch per bone
    fx = (lengths * np.cos(ang)).sum(1)
    fz = (lengths * np.sin(ang)).sum(1)
    return _Chain(lengths, th, np.hypot(fx, fz), np.arctan2(fz, fx))


def _chain_points(chain: _Chain, k: float, phi1: float, theta2: float) -> np.ndarray:
    """(3, 2) in-plane points (forward, down) of the 2nd joint, 3rd joint and tip."""
    ang = np.array([phi1, phi1 + theta2, phi1 + theta2 * (1 + k)])
    steps = chain.lengths[:, None] * np.stack([np.cos(ang), np.sin(ang)], axis=1)
    return np.cumsum(steps, axis=0)


@dataclass(frozen=True)
class Placement:
    """A hand position found by :meth:`HandModel.place`.

    Attributes:
        wrist_xy_mm: wrist landmark position on the table, mm.
        heading_deg: counter-clockwise rotation seen from above; 0 = fingers point +y.
        finger_states: the state of every finger (Down on its target, Lifted or Rest).
        landmarks_mm: (21, 3) float the posed hand, table mm.
        cost: how strained the pose is (0 = every finger at its comfortable bend).
    """

    wrist_xy_mm: tuple[float, float]
    heading_deg: float
    finger_states: dict[str, FingerState]
    landmarks_mm: np.ndarray
    cost: float


class HandModel:
    """A palm-down kinematic hand over the table (table mm: x right, y away, z up).

    Heading: counter-clockwise rotation seen from above, degrees; 0 means the fingers point
    +y (away from the player), +30 turns them towards -x. Sensible range -60…+60.
    A right hand seen from above has its thumb on the left (-x at heading 0); a left hand is
    its mirror image.
    """

    def __init__(self, style: HandStyle | None = None) -> None:
        self.style = style or HandStyle()
        s = self.style.size_scale
        self.scale = s
        self.mirror = 1.0 if self.style.handedness == "right" else -1.0
        self.chains = {f: _make_chain(f, s) for f in FINGERS}
        self.root_uv_mm = {f: np.array(_ROOT_UV_MM[f]) * s for f in FINGERS}
        self.finger_length_mm = {f: float(self.chains[f].lengths.sum()) for f in FINGERS}

    # -- geometry helpers ---------------------------------------------------------------------

    def _palm_z(self, any_down: bool) -> tuple[float, float]:
        zw, zm = _PALM_Z_DOWN_MM if any_down else _PALM_Z_REST_MM
        return zw * self.scale, zm * self.scale

    def _root_z(self, finger: str, any_down: bool) -> float:
        zw, zm = self._palm_z(any_down)
        if finger == "thumb":
            return zw + _THUMB_ROOT_DZ_MM * self.scale
        return zm

    def _palm_pitch(self, any_down: bool) -> float:
        """Upward pitch (rad) of the palm from the wrist to the finger roots."""
        zw, zm = self._palm_z(any_down)
        return math.atan2(zm - zw, 92.0 * self.scale)

    def _world_from_local(self, wrist_xy: np.ndarray, heading_rad: float, u: np.ndarray,
                          v: np.ndarray) -> np.ndarray:
        """Table xy of hand-local (u, v) points (right-hand convention, mirrored for left)."""
        c, s = math.cos(heading_rad), math.sin(heading_rad)
        uu = self.mirror * u
        return np.stack([wrist_xy[0] + c * uu - s * v, wrist_xy[1] + s * uu + c * v], axis=-1)

    def _local_from_world(self, wrist_xy: np.ndarray, heading_rad: float, xy: np.ndarray
                          ) -> np.ndarray:
        c, s = math.cos(heading_rad), math.sin(heading_rad)
        dx, dy = xy[..., 0] - wrist_xy[0], xy[..., 1] - wrist_xy[1]
        return np.stack([self.mirror * (c * dx + s * dy), -s * dx + c * dy], axis=-1)

    def _solve_plane(self, finger: str, horiz_mm: float, drop_mm: float, pitch: float
                     ) -> tuple[float, float, bool]:
        """(phi1, theta2, ok) so the chain tip lies horiz forward and drop below the root."""
        ch = self.chains[finger]
        dist = math.hypot(horiz_mm, drop_mm)
        ok = ch.chord[-1] <= dist <= ch.chord[0]
        theta2 = float(np.interp(dist, ch.chord[::-1], ch.theta2[::-1]))
        alpha = float(np.interp(theta2, ch.theta2, ch.alpha))
        phi1 = math.atan2(drop_mm, horiz_mm) - alpha
        lo, hi = (math.radians(a) for a in _THETA1_RANGE_DEG[finger])
        theta1 = phi1 + pitch
        if not lo - 1e-6 <= theta1 <= hi + 1e-6:
            ok = False
        return phi1, theta2, ok

    def _pose_free(self, finger: str, state: Lifted | Rest, root_z: float, pitch: float
                   ) -> tuple[float, float]:
        """(phi1, theta2) of a finger whose tip should hover at a height.

        The root joint takes a fixed relaxed flexion (slightly bent for Rest, raised for
        Lifted) and the finger curls (theta2) until its tip reaches the wanted height.
        """
        ch = self.chains[finger]
        if isinstance(state, Lifted):
            theta1 = math.radians(-12.0 if finger != "thumb" else -5.0)
            tip_z = max(float(state.height_mm), _REST_TIP_Z_MM * self.scale)
        else:
            theta1 = math.radians(8.0 if finger != "thumb" else 12.0)
            tip_z = _REST_TIP_Z_MM * self.scale
        drop = root_z - tip_z
        for _ in range(12):  # bend more at the root until the curled finger reaches down
            phi1 = theta1 - pitch
            down = ch.chord * np.sin(phi1 + ch.alpha)  # tip drop below the root, per theta2
            if down.max() >= drop:
                break
            theta1 += math.radians(6.0)
        if drop <= down[0]:
            # Straight finger already reaches below the wanted height: raise it at the root.
            theta2 = 0.0
            phi1 = math.asin(max(-1.0, min(1.0, drop / ch.chord[0]))) - ch.alpha[0]
        else:
            i = int(np.searchsorted(np.maximum.accumulate(down), drop))
            theta2 = float(ch.theta2[min(i, len(down) - 1)])
        lo, hi = (math.radians(a) for a in _THETA1_RANGE_DEG[finger])
        phi1 = min(max(phi1, lo - pitch), hi - pitch)
        return phi1, theta2

    # -- public API -----------------------------------------------------------------------------

    def pose(self, wrist_xy_mm: tuple[float, float], heading_deg: float,
             finger_states: Mapping[str, FingerState] | None = None, *, strict: bool = True
             ) -> np.ndarray:
        """The 21 landmarks (table mm, (21, 3) float64) of the hand in this pose.

        Args:
            wrist_xy_mm: wrist landmark on the table, mm.
            heading_deg: counter-clockwise rotation seen from above (0: fingers point +y).
            finger_states: state per finger name (:data:`FINGERS`); missing fingers Rest.
            strict: raise ValueError if a Down target is out of that finger's reach (else the
                finger stretches towards it as far as its joints allow).
        """
        states: dict[str, FingerState] = {f: Rest() for f in FINGERS}
        for f, st in (finger_states or {}).items():
            if f not in states:
                raise ValueError(f"unknown finger {f!r}; expected one of {FINGERS}")
            if not isinstance(st, (Down, Lifted, Rest)):
                raise TypeError(f"finger state for {f!r} must be Down, Lifted or Rest, got {st!r}")
            states[f] = st
        any_down = any(isinstance(st, Down) for st in states.values())
        wrist = np.asarray(wrist_xy_mm, dtype=float)
        h = math.radians(heading_deg)
        zw, _ = self._palm_z(any_down)
        pitch = self._palm_pitch(any_down)
        out = np.zeros((21, 3))
        out[0] = (wrist[0], wrist[1], zw)

        # Yaw of every finger: towards its target if Down, else neutral kept in finger order.
        yaw: dict[str, float] = {}
        for f in FINGERS:
            st = states[f]
            if isinstance(st, Down):
                loc = self._local_from_world(wrist, h, np.array([st.x_mm, st.y_mm]))
                d = loc - self.root_uv_mm[f]
                yaw[f] = math.degrees(math.atan2(d[0], d[1]))
        for i, f in enumerate(FINGERS):
            if f in yaw:
                continue
            y = _YAW_NEUTRAL_DEG[f]
            if f != "thumb":
                lower = [yaw[g] for g in FINGERS[1:i] if g in yaw]
                upper = [yaw[g] for g in FINGERS[i + 1:] if g in yaw]
                if lower:
                    y = max(y, max(lower) - 2.0)
                if upper:
                    y = min(y, min(upper) + 2.0)
            yaw[f] = y

        for f in FINGERS:
            st = states[f]
            joints = FINGER_JOINTS[f]
            root_uv = self.root_uv_mm[f]
            root_z = self._root_z(f, any_down)
            root_xy = self._world_from_local(wrist, h, np.array(root_uv[0]), np.array(root_uv[1]))
            fdir_local = np.array([math.sin(math.radians(yaw[f])), math.cos(math.radians(yaw[f]))])
            fdir = self._world_from_local(np.zeros(2), h, fdir_local[0], fdir_local[1])
            ok = False
            if isinstance(st, Down):
                horiz = float(np.hypot(st.x_mm - root_xy[0], st.y_mm - root_xy[1]))
                phi1, theta2, ok = self._solve_plane(f, horiz, root_z, pitch)
                if not ok:
                    if strict:
                        raise ValueError(
                            f"{self.style.handedness} {f} cannot reach ({st.x_mm:.1f}, "
                            f"{st.y_mm:.1f}) mm from wrist {tuple(np.round(wrist, 1))} at "
                            f"heading {heading_deg:.1f} deg")
                    lo, hi = (math.radians(a) for a in _THETA1_RANGE_DEG[f])
                    phi1 = min(max(phi1, lo - pitch), hi - pitch)
            else:
                phi1, theta2 = self._pose_free(f, st, root_z, pitch)
            pts = _chain_points(self.chains[f], _COUPLING[f], phi1, theta2)
            out[joints.mcp] = (root_xy[0], root_xy[1], root_z)
            for j, (fwd, down) in zip((joints.pip, joints.dip, joints.tip), pts):
                out[j] = (root_xy[0] + fdir[0] * fwd, root_xy[1] + fdir[1] * fwd, root_z - down)
            if isinstance(st, Down) and ok:
                out[joints.tip] = (st.x_mm, st.y_mm, 0.0)  # exact (removes table round-off)
        return out

    def place(self, targets: Mapping[str, tuple[float, float]], lifted: Collection[str] = (),
              *, heading_hint_deg: float = 0.0, near_wrist_xy_mm: tuple[float, float] | None = None,
              heading_range_deg: tuple[float, float] = (-60.0, 60.0)) -> Placement | None:
        """Find a wrist position and heading putting each targeted fingertip on its target.

        Args:
            targets: finger name → (x_mm, y_mm) table point to press.
            lifted: fingers to hold up (:class:`Lifted`); the others rest.
            heading_hint_deg: preferred heading (small cost for turning away from it).
            near_wrist_xy_mm: preferred wrist position (small cost for moving away), e.g. the
                previous one, to keep a climb smooth.
            heading_range_deg: allowed headings.

        Returns:
            The least strained :class:`Placement` that respects each finger's reach and joint
            limits, keeps the fingers in their order across the hand and the tips apart, or
            None when the targets cannot all be reached.
        """
        for f in list(targets) + list(lifted):
            if f not in FINGERS:
                raise ValueError(f"unknown finger {f!r}; expected one of {FINGERS}")
        both = set(targets) & set(lifted)
        if both:
            raise ValueError(f"fingers both targeted and lifted: {sorted(both)}")
        if not targets:
            raise ValueError("place() needs at least one target")
        names = [f for f in FINGERS if f in targets]
        tgt = np.array([targets[f] for f in names], dtype=float)  # (F, 2)
        # Fingertips too close together, or out of order, can never be placed.
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                if np.hypot(*(tgt[i] - tgt[j])) < _MIN_TIP_GAP_MM * self.scale:
                    return None

        s = self.scale
        pitch = self._palm_pitch(True)
        root_uv = np.array([self.root_uv_mm[f] for f in names])  # (F, 2)
        root_z = np.array([self._root_z(f, True) for f in names])
        comfort = []
        for f, rz in zip(names, root_z):
            ch = self.chains[f]
            chord = float(np.interp(math.radians(_THETA2_COMFORT_DEG[f]), ch.theta2, ch.chord))
            comfort.append(math.sqrt(max(chord**2 - rz**2, 1.0)))
        comfort_h = np.array(comfort)  # comfortable horizontal reach from the root
        yaw0 = np.radians([_YAW_NEUTRAL_DEG[f] for f in names])
        ylo = np.radians([_YAW_RANGE_DEG[f][0] for f in names])
        yhi = np.radians([_YAW_RANGE_DEG[f][1] for f in names])

        # Candidate headings; for each, wrist candidates around the comfortable position.
        hmin, hmax = heading_range_deg
        heads = np.radians(np.arange(hmin, hmax + 1e-9, 5.0))
        off = np.array([(dx, dy) for dx in (-24, -12, 0, 12, 24) for dy in (-24, -12, 0, 12, 24)],
                       dtype=float) * s
        # Root + comfortable reach along the neutral yaw, in local then world coordinates.
        tl = root_uv + comfort_h[:, None] * np.stack([np.sin(yaw0), np.cos(yaw0)], 1)  # (F, 2)
        tl = tl * np.array([self.mirror, 1.0])
        c, sn = np.cos(heads)[:, None], np.sin(heads)[:, None]  # (Hd, 1)
        rel = np.stack([c * tl[None, :, 0] - sn * tl[None, :, 1],
                        sn * tl[None, :, 0] + c * tl[None, :, 1]], axis=-1)  # (Hd, F, 2)
        wrist0 = (tgt[None] - rel).mean(axis=1)  # (Hd, 2)
        xy = (wrist0[:, None, :] + off[None, :, :]).reshape(-1, 2)
        cand = np.column_stack([xy, np.repeat(heads, len(off))])  # (N, 3)
        best = self._evaluate(cand, names, tgt, root_uv, root_z, pitch, comfort_h, yaw0, ylo, yhi,
                              heading_hint_deg, near_wrist_xy_mm)
        if best is None:
            return None
        # Refine around the best candidate with a smaller grid.
        for step_mm, step_deg in ((6.0, 2.5), (2.0, 1.0)):
            bx, by, bh = best[0]
            fine = np.array([(bx + dx * step_mm * s, by + dy * step_mm * s,
                              bh + math.radians(dh * step_deg))
                             for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dh in (-1, 0, 1)])
            fine = fine[(fine[:, 2] >= math.radians(hmin) - 1e-9)
                        & (fine[:, 2] <= math.radians(hmax) + 1e-9)]
            r = self._evaluate(fine, names, tgt, root_uv, root_z, pitch, comfort_h, yaw0, ylo,
                               yhi, heading_hint_deg, near_wrist_xy_mm)
            if r is not None and r[1] <= best[1]:
                best = r
        (bx, by, bh), cost = best
        states: dict[str, FingerState] = {f: Rest() for f in FINGERS}
        for f in lifted:
            states[f] = Lifted()
        for f, (x, y) in zip(names, tgt):
            states[f] = Down(float(x), float(y))
        wrist = (float(bx), float(by))
        heading = float(math.degrees(bh))
        try:
            lms = self.pose(wrist, heading, states, strict=True)
        except ValueError:
            return None
        return Placement(wrist, heading, states, lms, float(cost))

    def _evaluate(self, cand: np.ndarray, names: list[str], tgt: np.ndarray, root_uv: np.ndarray,
                  root_z: np.ndarray, pitch: float, comfort_h: np.ndarray, yaw0: np.ndarray,
                  ylo: np.ndarray, yhi: np.ndarray, heading_hint_deg: float,
                  near_wrist: tuple[float, float] | None
                  ) -> tuple[np.ndarray, float] | None:
        """Best feasible candidate (wrist x, wrist y, heading rad) and its cost, or None."""
        wx, wy, h = cand[:, 0:1], cand[:, 1:2], cand[:, 2:3]  # (N, 1)
        c, sn = np.cos(h), np.sin(h)
        dx, dy = tgt[None, :, 0] - wx, tgt[None, :, 1] - wy  # (N, F)
        lu = self.mirror * (c * dx + sn * dy)  # target in hand-local coordinates
        lv = -sn * dx + c * dy
        du, dv = lu - root_uv[None, :, 0], lv - root_uv[None, :, 1]
        horiz = np.hypot(du, dv)
        yaw = np.arctan2(du, dv)
        dist = np.hypot(horiz, root_z[None, :])
        ok = np.ones(len(cand), dtype=bool)
        th2 = np.empty_like(dist)
        lo_t1 = np.radians([_THETA1_RANGE_DEG[f][0] for f in names])
        hi_t1 = np.radians([_THETA1_RANGE_DEG[f][1] for f in names])
        for i, f in enumerate(names):
            ch = self.chains[f]
            ok &= (dist[:, i] >= ch.chord[-1]) & (dist[:, i] <= ch.chord[0])
            th2[:, i] = np.interp(dist[:, i], ch.chord[::-1], ch.theta2[::-1])
            alpha = np.interp(th2[:, i], ch.theta2, ch.alpha)
            theta1 = np.arctan2(root_z[i], horiz[:, i]) - alpha + pitch
            ok &= (theta1 >= lo_t1[i]) & (theta1 <= hi_t1[i])
            # The last bone should point down (a pressing finger, not a flat stretched one).
            ok &= (theta1 - pitch + th2[:, i] * (1 + _COUPLING[f])) >= math.radians(
                25.0 if f != "thumb" else 10.0)
        ok &= np.all((yaw >= ylo[None]) & (yaw <= yhi[None]), axis=1)
        # Finger order across the hand: yaw non-decreasing index→little, and tips ordered.
        nonthumb = [i for i, f in enumerate(names) if f != "thumb"]
        for a, b in zip(nonthumb, nonthumb[1:]):
            ok &= yaw[:, b] >= yaw[:, a] - math.radians(4.0)
            ok &= lu[:, b] >= lu[:, a] + 8.0 * self.scale
        if names[0] == "thumb" and len(names) > 1:
            ok &= lu[:, 1] >= lu[:, 0] + 10.0 * self.scale
        if not ok.any():
            return None
        th2c = np.radians([_THETA2_COMFORT_DEG[f] for f in names])
        cost = (((th2 - th2c[None]) / math.radians(30.0)) ** 2).sum(1)
        cost += (((yaw - yaw0[None]) / math.radians(15.0)) ** 2).sum(1)
        cost += ((h[:, 0] - math.radians(heading_hint_deg)) / math.radians(45.0)) ** 2
        if near_wrist is not None:
            cost += 0.5 * (np.hypot(wx[:, 0] - near_wrist[0], wy[:, 0] - near_wrist[1])
                           / (40.0 * self.scale)) ** 2
        cost = np.where(ok, cost, np.inf)
        i = int(np.argmin(cost))
        return cand[i], float(cost[i])


def blend_poses(a: np.ndarray, b: np.ndarray, s: float) -> np.ndarray:
    """Pose between landmark sets ``a`` (s=0) and ``b`` (s=1), both (21, 3) mm.

    Wrist and finger roots move linearly; each bone turns smoothly and keeps its length
    (directions interpolated and renormalised), so fingers lift and lower naturally.
    ``s`` is eased (smoothstep) so the motion starts and stops gently.
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape != (21, 3) or b.shape != (21, 3):
        raise ValueError(f"blend_poses needs two (21, 3) arrays, got {a.shape} and {b.shape}")
    t = float(np.clip(s, 0.0, 1.0))
    t = t * t * (3 - 2 * t)
    out = (1 - t) * a + t * b
    for f in FINGERS:
        j = FINGER_JOINTS[f]
        chain = [j.mcp, j.pip, j.dip, j.tip]
        for p, c in zip(chain, chain[1:]):
            va, vb = a[c] - a[p], b[c] - b[p]
            la, lb = np.linalg.norm(va), np.linalg.norm(vb)
            d = (1 - t) * va / max(la, 1e-9) + t * vb / max(lb, 1e-9)
            n = np.linalg.norm(d)
            if n < 1e-6:
                continue
            out[c] = out[p] + d / n * ((1 - t) * la + t * lb)
    return out


def landmarks_to_canvas_px(landmarks_mm: np.ndarray, px_per_mm: float, canvas_height_px: int,
                           origin_xy_mm: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """Table mm (21, 3) → canvas (21, 3) [x px, y px, height px] for a top-down canvas.

    The canvas shows the table with ``origin_xy_mm`` at its bottom-left corner and y_mm
    increasing up the image (row 0 at the top).
    """
    lm = np.asarray(landmarks_mm, dtype=float)
    out = np.empty_like(lm)
    out[:, 0] = (lm[:, 0] - origin_xy_mm[0]) * px_per_mm
    out[:, 1] = canvas_height_px - (lm[:, 1] - origin_xy_mm[1]) * px_per_mm
    out[:, 2] = lm[:, 2] * px_per_mm
    return out




# --------------------------------------------------------------------------------------------
# Renderer
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class HandRender:
    """What :func:`render_hand` drew.

    Attributes:
        mask: (H, W) bool, canvas pixels covered by the hand or its forearm.
        height_px: (H, W) float32, height above the table of the surface point each pixel
            shows (along the camera's ray when drawn with ``eye``), canvas pixels (0 where
            the table shows).
        hand_mask: (H, W) bool, like ``mask`` but without the forearm.
        bbox: (x0, y0, x1, y1) canvas region that was modified (shadow included), x1/y1
            exclusive.
        px_per_mm: canvas scale used for the hand's thickness (given or inferred).
    """

    mask: np.ndarray
    height_px: np.ndarray
    hand_mask: np.ndarray
    bbox: tuple[int, int, int, int]
    px_per_mm: float


# Part ids in the primitive list.
_PART_FOREARM = 0
_PART_PALM = 1


def _finger_part(finger_index: int, bone: int) -> int:
    return 10 + 3 * finger_index + bone


def _infer_px_per_mm(lm: np.ndarray, style: HandStyle) -> float:
    """Canvas scale from the 3D bone lengths of the four fingers (they never change)."""
    got = 0.0
    ref = 0.0
    for f in FINGERS[1:]:
        j = FINGER_JOINTS[f]
        chain = [j.mcp, j.pip, j.dip, j.tip]
        got += sum(float(np.linalg.norm(lm[b] - lm[a])) for a, b in zip(chain, chain[1:]))
        ref += sum(_BONES_MM[f]) * style.size_scale
    return got / ref


def _build_primitives(lm: np.ndarray, style: HandStyle, k: float, forearm: bool,
                      canvas_hw: tuple[int, int]) -> np.ndarray:
    """Ellipsoids that make up the hand, canvas px: (N, 10) rows of
    (cx, cy, cz, r_xy, r_z, part, axis_x, axis_y, axis_z, taper).

    A swept primitive remembers its sweep axis (unit vector) and taper (dr/dl) so its normal
    is the swept surface's, not the single sphere's (no banding); standalone ellipsoids have
    a zero axis. ``k`` converts the hand's mm constants to canvas px (px_per_mm * size_scale).
    """
    prims: list[tuple[float, ...]] = []

    def add(c: np.ndarray, r: float, rz: float, part: int,
            axis: tuple[float, float, float] = (0.0, 0.0, 0.0), taper: float = 0.0) -> None:
        prims.append((c[0], c[1], c[2], r, rz, part, axis[0], axis[1], axis[2], taper))

    def sweep(p: np.ndarray, q: np.ndarray, r0: float, r1: float, part: int,
              flat: float = 1.0, density: float = 0.22) -> None:
        d = q - p
        length = float(np.linalg.norm(d))
        n = max(2, int(math.ceil(length / (density * min(r0, r1)))) + 1)
        axis = tuple(d / length) if length > 1e-6 else (0.0, 0.0, 0.0)
        taper = (r1 - r0) / length if length > 1e-6 else 0.0
        for t in np.linspace(0.0, 1.0, n):
            add(p + d * t, r0 + (r1 - r0) * t, (r0 + (r1 - r0) * t) * flat, part, axis, taper)

    # Fingers: tapered swept spheres, slightly bulging knuckles.
    for fi, f in enumerate(FINGERS):
        j = FINGER_JOINTS[f]
        chain = [j.mcp, j.pip, j.dip, j.tip]
        radii = np.array(_RADII_MM[f]) * k
        for b, (a, c) in enumerate(zip(chain, chain[1:])):
            pa, pc = lm[a].copy(), lm[c].copy()
            if b == 2:  # the pad's end is rounded by the tip sphere; keep it on the contact point
                d = pc - pa
                pc = pa + d * max(0.0, 1.0 - 0.55 * radii[3] / max(np.linalg.norm(d), 1e-6))
            sweep(pa, pc, radii[b], radii[b + 1], _finger_part(fi, b))
        for b, jj in enumerate(chain[1:3]):
            add(lm[jj], radii[b + 1] * 1.05, radii[b + 1] * 1.05, _finger_part(fi, b))

    # Palm: a flattened grid spanning wrist and knuckles.
    wrist = lm[0]
    idx, mid, rng_, lit = lm[5], lm[9], lm[13], lm[17]
    lat = lit[:2] - idx[:2]
    lat /= max(np.linalg.norm(lat), 1e-6)
    lat3 = np.array([lat[0], lat[1], 0.0])
    w_thumb = wrist - lat3 * 12.0 * k
    w_little = wrist + lat3 * 12.0 * k
    knuckles = [idx, mid, rng_, lit]
    seg = np.array([0.0, 1 / 3, 2 / 3, 1.0])
    for a in np.linspace(0.0, 1.0, 15):
        for bb in np.linspace(0.0, 1.0, 10):
            i = min(int(bb * 3), 2)
            tt = (bb - seg[i]) * 3
            kn = knuckles[i] * (1 - tt) + knuckles[i + 1] * tt
            wr = w_thumb * (1 - bb) + w_little * bb
            c = wr * (1 - a) + kn * a
            r = (15.0 - 2.5 * a) * k
            add(c, r, r * 0.62, _PART_PALM)
    # Thenar eminence and thumb web.
    cmc, tmcp = lm[1], lm[2]
    sweep(wrist * 0.6 + cmc * 0.4, cmc, 15.0 * k, 15.0 * k, _PART_PALM, flat=0.7)
    sweep(cmc, tmcp, 15.0 * k, 11.5 * k, _PART_PALM, flat=0.8)
    web_end = idx + (lm[6] - idx) * 0.15
    web_end = web_end - np.array([0, 0, 4.0 * k])
    sweep(tmcp, web_end, 8.0 * k, 8.5 * k, _PART_PALM, flat=0.8)
    # Webs between neighbouring fingers.
    for f1, f2 in (("index", "middle"), ("middle", "ring"), ("ring", "little")):
        j1, j2 = FINGER_JOINTS[f1], FINGER_JOINTS[f2]
        for t in (0.1, 0.22, 0.34):
            p1 = lm[j1.mcp] + (lm[j1.pip] - lm[j1.mcp]) * t
            p2 = lm[j2.mcp] + (lm[j2.pip] - lm[j2.mcp]) * t
            c = (p1 + p2) / 2 - np.array([0, 0, (2.0 + 6.0 * t) * k])
            add(c, (8.0 - 4.0 * t) * k, 6.0 * k, _PART_PALM)

    # Forearm: a flattened tapered cylinder leaving the hand away from the fingers.
    if forearm:
        d = wrist[:2] - mid[:2]
        d /= max(np.linalg.norm(d), 1e-6)
        h, w = canvas_hw
        reach = min(float(np.hypot(h, w)) + 60.0 * k, 420.0 * k)
        # Starts under the palm's rounded wrist end, its top a little lower than the palm's.
        p = wrist + np.array([d[0], d[1], 0.0]) * 10.0 * k - np.array([0, 0, 10.0 * k])
        q = p + np.array([d[0], d[1], 0.0]) * reach + np.array([0, 0, 10.0 * k])
        axis = (q - p) / np.linalg.norm(q - p)
        n_ref = 220.0 * k  # width grows over the first 220 mm
        steps = max(3, int(reach / (0.2 * 27.0 * k)))
        for t in np.linspace(0.0, 1.0, steps):
            c = p + (q - p) * t
            grow = min(1.0, t * reach / n_ref)
            r = (26.0 + 10.0 * grow) * k
            if (c[0] + r < 0 or c[1] + r < 0 or c[0] - r > w or c[1] - r > h):
                continue
            add(c, r, r * 0.72, _PART_FOREARM, tuple(axis), 10.0 / 220.0 if grow < 1 else 0.0)
    return np.array(prims, dtype=np.float64)


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int], sigma_px: float
                  ) -> np.ndarray:
    """Zero-mean, unit-ish std noise with spatial correlation sigma_px (float32)."""
    import cv2

    n = rng.standard_normal(shape).astype(np.float32)
    if sigma_px > 0.3:
        n = cv2.GaussianBlur(n, (0, 0), sigma_px)
        n /= max(float(n.std()), 1e-6)
    return n


def render_hand(canvas_bgr: np.ndarray, landmarks_px: np.ndarray, style: HandStyle, *,
                light_dir: tuple[float, float, float] = (-0.35, -0.45, 0.82),
                rng: np.random.Generator | None = None, px_per_mm: float | None = None,
                forearm: bool = True, shadow_strength: float = 0.5,
                work_px_per_mm: float | None = 1.7,
                eye: tuple[float, float, float] | None = None) -> HandRender:
    """Draw the shaded hand (and forearm, and its soft cast shadow) into ``canvas_bgr``.

    Args:
        canvas_bgr: (H, W, 3) uint8 top-down image of the table; modified in place.
        landmarks_px: (21, 3) float [x px, y px, height px above the table] in the canvas's
            pixel scale (see :func:`landmarks_to_canvas_px`).
        style: skin, nails, size (its size_scale sets finger thickness).
        light_dir: direction TOWARDS the light in canvas axes (x right, y down the image,
            z up from the table); need not be normalised; z must be > 0.
        rng: randomness for skin noise (fixed seed → identical image).
        px_per_mm: canvas scale; None infers it from the landmarks' 3D bone lengths.
        forearm: draw a forearm leaving the hand away from the fingers (MediaPipe's palm
            detector relies on that context).
        shadow_strength: darkening of the table in full shadow, 0..1.
        work_px_per_mm: shade at most this resolution and upsample (a webcam sees a table at
            ~1–1.5 px/mm, so finer shading is wasted time); None shades at canvas resolution.
        eye: the camera's centre in the canvas's axes (col px, row px, height px above the
            table). Each canvas pixel then shows what the camera's ray through that table point
            meets first: a raised part is drawn where the camera sees it (moved away from the
            camera, the more the higher it is), looks bigger the nearer it is, and shows the
            sides the camera sees; the cast shadow falls from where each surface point really
            is. None: every ray is vertical (a camera infinitely far above), the hand drawn as
            seen from straight above wherever the camera is.
    """
    import cv2

    canvas = canvas_bgr
    if canvas.ndim != 3 or canvas.shape[2] != 3 or canvas.dtype != np.uint8:
        raise ValueError(f"canvas_bgr must be uint8 (H, W, 3), got {canvas.dtype} {canvas.shape}")
    lm = np.asarray(landmarks_px, dtype=np.float64)
    if lm.shape != (21, 3):
        raise ValueError(f"landmarks_px must have shape (21, 3), got {lm.shape}")
    if not np.all(np.isfinite(lm)):
        raise ValueError("landmarks_px must be finite")
    light = np.asarray(light_dir, dtype=np.float64)
    if light.shape != (3,) or light[2] <= 0:
        raise ValueError(f"light_dir must be 3 values with z > 0, got {light_dir!r}")
    light = light / np.linalg.norm(light)
    rng = rng if rng is not None else np.random.default_rng(0)
    ppm = float(px_per_mm) if px_per_mm is not None else _infer_px_per_mm(lm, style)
    if not ppm > 0:
        raise ValueError(f"px_per_mm must be > 0, got {ppm}")
    H, W = canvas.shape[:2]

    if eye is not None:
        eye_a = np.asarray(eye, dtype=np.float64)
        if eye_a.shape != (3,) or not np.all(np.isfinite(eye_a)):
            raise ValueError(f"eye must be 3 finite values, got {eye!r}")
        if eye_a[2] <= 2.0 * max(float(lm[:, 2].max()), 1.0):
            raise ValueError(f"eye must be well above the hand, got height {eye_a[2]:.1f} px "
                             f"for a hand up to {float(lm[:, 2].max()):.1f} px")

    prims = _build_primitives(lm, style, ppm * style.size_scale, forearm, (H, W))
    cx, cy, cz, pr, prz = (prims[:, i] for i in range(5))
    # Region that can change: what the camera sees of the primitives, plus the cast shadow's
    # reach (thrown from the primitives' true places).
    max_h = float(np.max(cz + prz))
    sx, sy = -light[0] / light[2], -light[1] / light[2]
    blur_pad = 4.0 + 0.1 * max_h
    fx0, fx1, fy0, fy1 = _footprints(prims, None if eye is None else eye_a)
    x0 = min(float(fx0.min()), float(np.min(cx - pr)) + min(0.0, sx * max_h)) - blur_pad * 3
    x1 = max(float(fx1.max()), float(np.max(cx + pr)) + max(0.0, sx * max_h)) + blur_pad * 3
    y0 = min(float(fy0.min()), float(np.min(cy - pr)) + min(0.0, sy * max_h)) - blur_pad * 3
    y1 = max(float(fy1.max()), float(np.max(cy + pr)) + max(0.0, sy * max_h)) + blur_pad * 3
    bx0, by0 = max(0, int(math.floor(x0))), max(0, int(math.floor(y0)))
    bx1, by1 = min(W, int(math.ceil(x1)) + 1), min(H, int(math.ceil(y1)) + 1)
    mask_full = np.zeros((H, W), dtype=bool)
    height_full = np.zeros((H, W), dtype=np.float32)
    if bx1 <= bx0 or by1 <= by0:
        return HandRender(mask_full, height_full, mask_full.copy(), (0, 0, 0, 0), ppm)
    bh, bw = by1 - by0, bx1 - bx0

    # Work grid: the bbox at (at most) work_px_per_mm; pixel centres aligned as cv2.resize does.
    f = 1.0 if work_px_per_mm is None else min(1.0, float(work_px_per_mm) / ppm)
    ww, wh = max(1, int(round(bw * f))), max(1, int(round(bh * f)))
    fx, fy = ww / bw, wh / bh
    fm = (fx + fy) / 2
    wp = prims.copy()
    wp[:, 0] = (cx - bx0 + 0.5) * fx - 0.5
    wp[:, 1] = (cy - by0 + 0.5) * fy - 0.5
    wp[:, 2:5] *= fm
    lm_w = np.column_stack([(lm[:, 0] - bx0 + 0.5) * fx - 0.5, (lm[:, 1] - by0 + 0.5) * fy - 0.5,
                            lm[:, 2] * fm])
    eye_w = None if eye is None else ((eye_a[0] - bx0 + 0.5) * fx - 0.5,
                                      (eye_a[1] - by0 + 0.5) * fy - 0.5, eye_a[2] * fm)
    color, alpha, shade, hsurf, fore = _shade(wp, lm_w, (wh, ww), ppm * style.size_scale * fm,
                                              style, light, rng, shadow_strength, blur_pad * fm,
                                              eye_w)
    if f < 1.0:
        size = (bw, bh)
        color = cv2.resize(color, size, interpolation=cv2.INTER_LINEAR)
        alpha = cv2.resize(alpha, size, interpolation=cv2.INTER_LINEAR)
        shade = cv2.resize(shade, size, interpolation=cv2.INTER_LINEAR)
        hsurf = cv2.resize(hsurf, size, interpolation=cv2.INTER_LINEAR) / fm
        fore = cv2.resize(fore.astype(np.float32), size, interpolation=cv2.INTER_LINEAR) > 0.5
    region = canvas[by0:by1, bx0:bx1].astype(np.float32) * shade[..., None]
    out = region * (1.0 - alpha[..., None]) + color * alpha[..., None]
    canvas[by0:by1, bx0:bx1] = np.clip(out + 0.5, 0, 255).astype(np.uint8)

    mask = alpha > 0.5
    mask_full[by0:by1, bx0:bx1] = mask
    height_full[by0:by1, bx0:bx1] = np.where(mask, hsurf, 0.0)
    hand_mask = mask_full.copy()
    hand_mask[by0:by1, bx0:bx1] &= ~fore
    return HandRender(mask_full, height_full, hand_mask, (bx0, by0, bx1, by1), ppm)


def _footprints(prims: np.ndarray, eye: np.ndarray | None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per primitive, the table region (x0, x1, y0, y1) whose rays towards ``eye`` can meet it
    (seen from straight above when ``eye`` is None): the central projection onto the table of
    its bounding box's corners."""
    cx, cy, cz, pr, prz = (prims[:, i] for i in range(5))
    if eye is None:
        return cx - pr, cx + pr, cy - pr, cy + pr
    xs = np.stack([cx - pr, cx + pr] * 2, 1)  # (N, 4) corners, bottom then top
    ys = np.stack([cy - pr, cy + pr, cy + pr, cy - pr], 1)
    xs, ys = np.concatenate([xs, xs], 1), np.concatenate([ys, ys], 1)
    zs = np.concatenate([np.repeat((cz - prz)[:, None], 4, 1),
                         np.repeat((cz + prz)[:, None], 4, 1)], 1)
    k = eye[2] / (eye[2] - zs)  # the table point on the ray from the eye through the corner
    px = eye[0] + (xs - eye[0]) * k
    py = eye[1] + (ys - eye[1]) * k
    return px.min(1), px.max(1), py.min(1), py.max(1)


def _cast_down(prims: np.ndarray, zbuf: np.ndarray, who: np.ndarray) -> None:
    """Ray-cast the ellipsoids from straight above: keep, per grid pixel, the highest surface
    in ``zbuf`` and its primitive in ``who``."""
    bh, bw = zbuf.shape
    cx, cy, cz, pr, prz = (prims[:, i] for i in range(5))
    for i in range(len(prims)):
        r = pr[i]
        px0, px1 = max(0, int(cx[i] - r)), min(bw, int(cx[i] + r) + 2)
        py0, py1 = max(0, int(cy[i] - r)), min(bh, int(cy[i] + r) + 2)
        if px1 <= px0 or py1 <= py0:
            continue
        xs = np.arange(px0, px1, dtype=np.float32) - np.float32(cx[i])
        ys = np.arange(py0, py1, dtype=np.float32) - np.float32(cy[i])
        q = 1.0 - (xs * xs)[None, :] * np.float32(1 / (r * r)) - (ys * ys)[:, None] * np.float32(
            1 / (r * r))
        inside = q > 0
        np.sqrt(np.maximum(q, 0, out=q), out=q)
        q *= np.float32(prz[i])
        q += np.float32(cz[i])
        sub = zbuf[py0:py1, px0:px1]
        upd = inside & (q > sub)
        sub[upd] = q[upd]
        who[py0:py1, px0:px1][upd] = i


def _cast_towards(prims: np.ndarray, eye: np.ndarray, zbuf: np.ndarray, who: np.ndarray) -> None:
    """Ray-cast the ellipsoids along each grid pixel's ray towards ``eye``: keep in ``zbuf``
    the height of the first surface the ray meets coming from the eye (along one ray, the
    nearer to the eye the higher) and in ``who`` its primitive.

    An ellipsoid (radius r across, rz up) is a sphere once heights are scaled by r / rz, and
    lines stay lines; with w the table point minus the centre and d the ray's direction (both
    scaled), the meeting points solve |w + mu d|^2 = r^2, the eye's side being the larger mu.
    w is small, so the quadratic is well conditioned in float64."""
    bh, bw = zbuf.shape
    ex, ey, ez = (float(v) for v in eye)
    fx0, fx1, fy0, fy1 = _footprints(prims, eye)
    for i in range(len(prims)):
        cx, cy, cz, r, rz = (float(v) for v in prims[i, :5])
        px0, px1 = max(0, int(fx0[i])), min(bw, int(fx1[i]) + 2)
        py0, py1 = max(0, int(fy0[i])), min(bh, int(fy1[i]) + 2)
        if px1 <= px0 or py1 <= py0:
            continue
        s = r / rz
        xs = np.arange(px0, px1, dtype=np.float64)
        ys = np.arange(py0, py1, dtype=np.float64)[:, None]
        dx, dy, dz = ex - xs, ey - ys, ez * s
        wx, wy, wz = xs - cx, ys - cy, -cz * s
        a = dx * dx + dy * dy + dz * dz
        b = wx * dx + wy * dy + wz * dz
        disc = b * b - a * (wx * wx + wy * wy + (wz * wz - r * r))
        inside = disc > 0
        mu = (np.sqrt(np.maximum(disc, 0.0)) - b) / a
        z = (mu * ez).astype(np.float32)
        sub = zbuf[py0:py1, px0:px1]
        upd = inside & (z > sub)
        sub[upd] = z[upd]
        who[py0:py1, px0:px1][upd] = i


def _shade(prims: np.ndarray, lm: np.ndarray, shape: tuple[int, int], k: float,
           style: HandStyle, light: np.ndarray, rng: np.random.Generator,
           shadow_strength: float, blur_pad: float,
           eye: tuple[float, float, float] | None = None
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Ray-cast and shade primitives on a (h, w) grid whose pixel (0, 0) is at the origin,
    along vertical rays, or along the rays towards ``eye`` (the camera's centre, grid px; see
    :func:`render_hand`).

    Returns colour (h, w, 3) float32 0..255 (premultiplication undone), coverage alpha (h, w),
    table shading factor (h, w) (cast shadow), surface height (h, w) (of the point each pixel
    shows) and forearm mask (h, w).
    """
    import cv2

    bh, bw = shape
    cx, cy, cz, pr, prz = (prims[:, i] for i in range(5))
    parts = prims[:, 5].astype(np.int16)
    sx, sy = -light[0] / light[2], -light[1] / light[2]

    zbuf = np.full((bh, bw), -1.0, dtype=np.float32)
    who = np.full((bh, bw), -1, dtype=np.int32)
    if eye is None:
        _cast_down(prims, zbuf, who)
    else:
        _cast_towards(prims, np.asarray(eye, np.float64), zbuf, who)
    mask = (zbuf > 0.0) & (who >= 0)
    hsurf = np.where(mask, zbuf, 0.0).astype(np.float32)

    # Everything below is worked out at the hand's pixels only (flat arrays, row-major), the
    # grids (blurs, noise, shadow) being sampled there.
    yy, xx = np.nonzero(mask)
    hh = hsurf[yy, xx]
    wi = who[yy, xx]
    gx, gy = xx.astype(np.float32), yy.astype(np.float32)
    if eye is not None:  # the surface point a pixel shows lies on its ray, towards the eye
        gx = gx + (np.float32(eye[0]) - gx) * (hh / np.float32(eye[2]))
        gy = gy + (np.float32(eye[1]) - gy) * (hh / np.float32(eye[2]))

    # Normals of the winning primitive's surface, computed where it is a sphere (z scaled
    # by r/rz): swept ones drop the axial component and add the taper; the palm (a grid of
    # flat ellipsoids) and the forearm take the smoothed height field's gradient instead.
    zs = (pr / prz)[wi]
    vx, vy, vz = gx - cx[wi], gy - cy[wi], (hh - cz[wi]) * zs
    ax, ay, az = prims[wi, 6], prims[wi, 7], prims[wi, 8] * zs
    an = np.sqrt(ax * ax + ay * ay + az * az)
    swept = an > 1e-6
    ax, ay, az = (np.where(swept, a / np.maximum(an, 1e-9), 0.0) for a in (ax, ay, az))
    dot = vx * ax + vy * ay + vz * az
    vx, vy, vz = vx - dot * ax, vy - dot * ay, vz - dot * az
    vn = np.sqrt(vx * vx + vy * vy + vz * vz) + 1e-9
    taper = prims[wi, 9]
    vx, vy, vz = vx / vn - taper * ax, vy / vn - taper * ay, vz / vn - taper * az
    nx, ny, nz = vx, vy, vz * zs
    part = parts[wi]
    palm = (part == _PART_PALM) | (part == _PART_FOREARM)  # smooth, seamless wrist
    if palm.any():
        hp = cv2.GaussianBlur(hsurf, (0, 0), 1.6 * k)
        gyy, gxx = np.gradient(hp)
        nx = np.where(palm, -gxx[yy, xx], nx)
        ny = np.where(palm, -gyy[yy, xx], ny)
        nz = np.where(palm, 1.0, nz)
    nn = np.sqrt(nx * nx + ny * ny + nz * nz) + 1e-9
    nx, ny, nz = nx / nn, ny / nn, np.maximum(nz / nn, 0.0)

    # Cast shadow on the table: splat each hand pixel along the light, then soften.
    shadow = np.zeros((bh, bw), dtype=np.float32)
    fx_, fy_ = (xx, yy) if eye is None else (gx, gy)  # the points' feet
    sxp = np.clip(np.round(fx_ + sx * hh).astype(int), 0, bw - 1)
    syp = np.clip(np.round(fy_ + sy * hh).astype(int), 0, bh - 1)
    shadow[syp, sxp] = 1.0
    shadow = cv2.dilate(shadow, np.ones((3, 3), np.uint8))
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, blur_pad))
    if eye is None:
        contact = cv2.GaussianBlur(mask.astype(np.float32), (0, 0), max(1.0, 2.5 * k))
    else:  # the table darkens near the parts close to it, around their feet
        near = np.zeros((bh, bw), dtype=np.float32)
        near[np.clip(np.round(fy_).astype(int), 0, bh - 1),
             np.clip(np.round(fx_).astype(int), 0, bw - 1)] = np.exp(-hh / (8.0 * k))
        near = cv2.dilate(near, np.ones((3, 3), np.uint8))
        contact = cv2.GaussianBlur(near, (0, 0), max(1.0, 2.5 * k))
    shade_table = 1.0 - np.clip(shadow_strength * shadow + 0.25 * contact, 0.0, 0.8)

    # Surface shading.
    skin = np.array(style.skin_rgb[::-1], dtype=np.float32) / 255.0
    sss = np.array(style.sss_rgb[::-1], dtype=np.float32) / 255.0
    nail = np.array(style.nail_color_rgb[::-1], dtype=np.float32) / 255.0
    low = _smooth_noise(rng, (bh, bw), 6.0 * k)[yy, xx]
    fine = _smooth_noise(rng, (bh, bw), 0.6)[yy, xx]
    albedo = skin[None, :] * (1.0 + 0.045 * low[:, None] + 0.025 * fine[:, None])
    is_finger = part >= 10
    distal = is_finger & ((part - 10) % 3 == 2)
    albedo = np.where(distal[:, None], albedo * 0.93 + sss * 0.07 * skin.mean(), albedo)
    fore = np.zeros((bh, bw), dtype=bool)
    fore[yy, xx] = part == _PART_FOREARM

    ndl = nx * light[0] + ny * light[1] + nz * light[2]
    wrap = np.clip((ndl + 0.45) / 1.45, 0.0, 1.0)
    lambert = np.clip(ndl, 0.0, 1.0)
    scatter = np.clip(wrap - lambert, 0.0, 1.0)
    hblur = cv2.GaussianBlur(hsurf, (0, 0), max(1.0, 5.0 * k))[yy, xx]
    ao = np.clip(1.0 - 0.9 * np.maximum(hblur - hh, 0.0) / (9.0 * k), 0.45, 1.0)

    # Creases across the fingers at the PIP and DIP joints, nails on the distal bones.
    crease = np.ones(len(yy), dtype=np.float32)
    nail_w = np.zeros(len(yy), dtype=np.float32)
    for fi, fname in enumerate(FINGERS):
        j = FINGER_JOINTS[fname]
        sel = np.nonzero((part >= _finger_part(fi, 0)) & (part <= _finger_part(fi, 2)))[0]
        if not len(sel):
            continue
        pts = np.column_stack([gx[sel], gy[sel], hh[sel]]).astype(np.float64)
        for jj, pa, pb in ((j.pip, j.mcp, j.dip), (j.dip, j.pip, j.tip)):
            axis = lm[pb] - lm[pa]
            axis /= max(np.linalg.norm(axis), 1e-6)
            d = (pts - lm[jj]) @ axis
            depth = 0.08 if fname == "thumb" else 0.13
            crease[sel] *= 1.0 - depth * np.exp(-(d / (1.1 * k)) ** 2)
        # Nail: a patch on the back of the distal bone.
        dd, tt = lm[j.dip], lm[j.tip]
        b = tt - dd
        blen = max(float(np.linalg.norm(b)), 1e-6)
        b = b / blen
        fh = lm[j.tip][:2] - lm[j.mcp][:2]
        if np.linalg.norm(fh) < 1e-3:
            fh = lm[j.mcp][:2] - lm[0][:2]
        fh = fh / max(np.linalg.norm(fh), 1e-6)
        bh_ = float(b[0] * fh[0] + b[1] * fh[1])
        dorsal = np.array([-b[2] * fh[0], -b[2] * fh[1], bh_])
        dorsal /= max(np.linalg.norm(dorsal), 1e-6)
        lat = np.array([-fh[1], fh[0], 0.0])
        r_tip = _RADII_MM[fname][3] * k
        half_len = (0.42 if fname != "thumb" else 0.38) * (_BONES_MM[fname][2] * k) / 2 + 1e-6
        centre = dd + b * (blen * 0.62)
        dsel = part[sel] == _finger_part(fi, 2)
        rel = pts - centre
        e = ((rel @ b) / half_len) ** 2 + ((rel @ lat) / (0.62 * r_tip)) ** 2
        w = np.clip((1.0 - e) * 4.0, 0.0, 1.0) * ((rel @ dorsal) > 0.15 * r_tip) * dsel
        nail_w[sel] = np.maximum(nail_w[sel], w)

    diffuse = 0.26 * ao + 0.78 * wrap * (0.6 + 0.4 * ao)
    base = albedo * (1.0 - 0.55 * nail_w[:, None]) + nail * 0.55 * nail_w[:, None]
    color = base * (diffuse * crease)[:, None]
    color += sss[None, :] * (0.22 * scatter * ao * skin.mean())[:, None]
    if eye is None:
        hv = light + np.array([0.0, 0.0, 1.0])
        hv /= np.linalg.norm(hv)
        ndh = np.clip(nx * hv[0] + ny * hv[1] + nz * hv[2], 0.0, 1.0)
    else:  # half vector between the light and each point's direction to the camera
        vx_, vy_, vz_ = np.float32(eye[0]) - gx, np.float32(eye[1]) - gy, np.float32(eye[2]) - hh
        vn_ = np.sqrt(vx_ * vx_ + vy_ * vy_ + vz_ * vz_)
        hx_, hy_, hz_ = (light[0] + vx_ / vn_, light[1] + vy_ / vn_, light[2] + vz_ / vn_)
        hn_ = np.sqrt(hx_ * hx_ + hy_ * hy_ + hz_ * hz_)
        ndh = np.clip((nx * hx_ + ny * hy_ + nz * hz_) / hn_, 0.0, 1.0)
    spec_k = style.specular * (1.0 + 2.0 * nail_w) * (0.85 + 0.15 * fine)
    color += (spec_k * ndh ** (18.0 + 40.0 * nail_w) * ao)[:, None]
    color = np.clip(color * 255.0, 0.0, 255.0).astype(np.float32)

    # Soft (anti-aliased) edges: blur coverage and premultiplied colour alike (the colour is
    # zero off the hand).
    alpha = mask.astype(np.float32)
    alpha_s = cv2.GaussianBlur(alpha, (0, 0), 0.6)
    pre = np.zeros((bh, bw, 3), dtype=np.float32)
    pre[yy, xx] = color
    pre_s = cv2.GaussianBlur(pre, (0, 0), 0.6)
    col_s = pre_s / np.maximum(alpha_s, 1e-4)[..., None]
    return col_s, alpha_s, shade_table.astype(np.float32), hsurf, fore


def finish_image(image_bgr: np.ndarray, rng: np.random.Generator, *, blur_sigma_px: float = 0.6,
                 noise_sigma: float = 2.0, jpeg_quality: int | None = 88) -> np.ndarray:
    """A camera-like copy of ``image_bgr``: slight blur, sensor noise, optional JPEG round trip."""
    import cv2

    img = image_bgr.astype(np.float32)
    if blur_sigma_px > 0:
        img = cv2.GaussianBlur(img, (0, 0), blur_sigma_px)
    if noise_sigma > 0:
        img += rng.normal(0.0, noise_sigma, img.shape).astype(np.float32)
    out = np.clip(img + 0.5, 0, 255).astype(np.uint8)
    if jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


# Offsets from the model's landmarks to where MediaPipe puts them, per landmark, as
# (along, across) in units of the palm's image size (wrist → middle root): for the wrist and
# finger roots "along" is the hand's axis (wrist → middle root) and "across" points to the
# little finger; for the other joints of a finger "along" is that finger's direction (root →
# 2nd joint in the image) and "across" its perpendicular towards the little-finger side.
# Two tables: fingers that rest or are lifted, and fingers pressing the table (MediaPipe puts
# a pressed tip ~0.1–0.15 palm further out along the finger, as on real video). Medians
# measured with ``python -m vision.synth.bench_hand --seeds 1000-1079 --fit-offsets``.
_MP_OFFSETS = np.array([
    ( 0.1751,  0.0175),  # 0 (n=159)
    ( 0.1176, -0.0835),  # 1 (n=159)
    ( 0.0363, -0.0184),  # 2 (n=90)
    (-0.0023, -0.0107),  # 3 (n=90)
    (-0.0348, -0.0127),  # 4 (n=90)
    (-0.0714,  0.0011),  # 5 (n=159)
    (-0.0811, -0.0019),  # 6 (n=83)
    (-0.0630,  0.0008),  # 7 (n=83)
    (-0.0219,  0.0013),  # 8 (n=83)
    (-0.0784, -0.0015),  # 9 (n=159)
    (-0.0994,  0.0003),  # 10 (n=73)
    (-0.0818,  0.0013),  # 11 (n=73)
    (-0.0366, -0.0048),  # 12 (n=73)
    (-0.0463,  0.0009),  # 13 (n=159)
    (-0.0795,  0.0037),  # 14 (n=69)
    (-0.0757,  0.0049),  # 15 (n=69)
    (-0.0451, -0.0015),  # 16 (n=69)
    (-0.0090,  0.0062),  # 17 (n=159)
    (-0.0576,  0.0059),  # 18 (n=88)
    (-0.0494,  0.0045),  # 19 (n=88)
    (-0.0197, -0.0035),  # 20 (n=88)
])  # fmt: skip
_MP_OFFSETS_DOWN = np.array([
    ( 0.1751,  0.0175),  # 0 (n=159)
    ( 0.1176, -0.0835),  # 1 (n=159)
    (-0.0392, -0.0283),  # 2 (n=69)
    (-0.0783, -0.0186),  # 3 (n=69)
    ( 0.0212, -0.0022),  # 4 (n=69)
    (-0.0714,  0.0011),  # 5 (n=159)
    (-0.1851, -0.0017),  # 6 (n=76)
    (-0.0860,  0.0016),  # 7 (n=76)
    ( 0.0977,  0.0044),  # 8 (n=76)
    (-0.0784, -0.0015),  # 9 (n=159)
    (-0.1613, -0.0010),  # 10 (n=86)
    (-0.0589,  0.0044),  # 11 (n=86)
    ( 0.1457, -0.0002),  # 12 (n=86)
    (-0.0463,  0.0009),  # 13 (n=159)
    (-0.1268,  0.0044),  # 14 (n=90)
    (-0.0655, -0.0011),  # 15 (n=90)
    ( 0.1254, -0.0164),  # 16 (n=90)
    (-0.0090,  0.0062),  # 17 (n=159)
    (-0.0704,  0.0029),  # 18 (n=71)
    (-0.0388, -0.0061),  # 19 (n=71)
    ( 0.0832, -0.0185),  # 20 (n=71)
])  # fmt: skip


def mediapipe_landmarks_px(landmarks_px: np.ndarray, *, down: Collection[str] | None = None
                           ) -> np.ndarray:
    """Rendered landmarks (21, 2 or 3) in canvas/image px → MediaPipe's convention (21, 2).

    Applies the fixed per-landmark offset tables measured by the benchmark (e.g. MediaPipe
    puts the wrist a little towards the fingers, the knuckles a little back, and the tip of a
    finger pressing the table ~0.1 palm further out along the finger). Use it to compare
    renders with MediaPipe; the un-shifted landmarks stay the physical ground truth (where a
    finger touches the table).

    Args:
        landmarks_px: (21, 2) image/canvas px, or (21, 3) canvas px with heights.
        down: fingers pressing the table (their PIP, DIP and tip take the pressed-finger
            offsets). None: inferred from the heights when given (tip within 3 % of the palm
            size of the table), else no finger is taken as pressing.
    """
    lm = np.asarray(landmarks_px, dtype=np.float64)
    if lm.ndim != 2 or lm.shape[0] != 21 or lm.shape[1] not in (2, 3):
        raise ValueError(f"landmarks_px must have shape (21, 2) or (21, 3), got {lm.shape}")
    xy = lm[:, :2]
    palm = _palm_size(xy)
    if down is None:
        down = ([f for f in FINGERS if lm[FINGER_JOINTS[f].tip, 2] < 0.03 * palm]
                if lm.shape[1] == 3 else [])
    table = _MP_OFFSETS.copy()
    for f in down:
        if f not in FINGER_JOINTS:
            raise ValueError(f"unknown finger {f!r} in down; expected one of {FINGERS}")
        rows = list(FINGER_JOINTS[f][1:])
        table[rows] = _MP_OFFSETS_DOWN[rows]
    return xy + palm * np.einsum("nij,nj->ni", _offset_frames(xy), table)


def _palm_size(xy: np.ndarray) -> float:
    return float(np.linalg.norm(xy[9] - xy[0]))


def _offset_frames(xy: np.ndarray) -> np.ndarray:
    """(21, 2, 2) per landmark: columns = unit 'along' and 'across' directions in the image."""
    axis = xy[9] - xy[0]
    axis /= max(np.linalg.norm(axis), 1e-9)
    side = xy[17] - xy[5]
    across = side - axis * (side @ axis)
    across /= max(np.linalg.norm(across), 1e-9)
    frames = np.zeros((21, 2, 2))
    frames[:, :, 0] = axis
    frames[:, :, 1] = across
    for f in FINGERS:
        j = FINGER_JOINTS[f]
        d = xy[j.pip] - xy[j.mcp]
        n = np.linalg.norm(d)
        if n < 1e-6:
            continue
        d = d / n
        c = across - d * (across @ d)
        cn = np.linalg.norm(c)
        c = c / cn if cn > 1e-6 else np.array([-d[1], d[0]])
        for b in (j.pip, j.dip, j.tip):
            frames[b, :, 0] = d
            frames[b, :, 1] = c
    return frames
