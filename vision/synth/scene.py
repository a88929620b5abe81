"""What every synthetic scene kind shares: the :class:`Scene` protocol, camera placement,
lighting, the sensor model (blur, noise, vignetting) and writing a scene to disk.

A scene kind (Grimpe today, Quoridor later) is a module that builds an object with
``render_frame(i)`` and ``ground_truth()``; :func:`write_scene` turns any of them into
``video.mp4`` + ``ground_truth.json`` (+ the kind's own extra files).

Rendering model: the table is drawn top-down in millimetres into a canvas (x right, y up the
wall = up the canvas), then :meth:`vision.camera.CameraModel.render_plane` warps it into the
camera image with lens distortion, then :func:`apply_sensor` adds blur, noise and vignetting;
the video writer adds compression.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import cv2
import numpy as np

from vision.camera import CameraModel, look_at

__all__ = [
    "CAMERA_KINDS",
    "GENERATOR_VERSION",
    "Lighting",
    "Scene",
    "SensorModel",
    "apply_sensor",
    "fit_camera",
    "random_lighting",
    "random_sensor",
    "dumps_ground_truth",
    "write_scene",
]

#: Bumped whenever the same seed would give a different scene.
GENERATOR_VERSION = "synth-3"  # synth-3: the hand is ray-cast along the camera's rays
CAMERA_KINDS: tuple[str, ...] = ("top", "oblique")


@runtime_checkable
class Scene(Protocol):
    """A rendered scene with exact ground truth, deterministic from its seed."""

    camera: CameraModel
    fps: float
    num_frames: int

    def render_frame(self, index: int) -> np.ndarray:
        """Frame ``index`` as BGR uint8 (H, W, 3), before video compression."""

    def ground_truth(self) -> dict[str, Any]:
        """JSON-ready ground truth of the whole scene."""

    def extra_files(self) -> dict[str, str]:
        """Other files to write beside the video (name → text), e.g. ``route.json``."""


# --- camera ----------------------------------------------------------------------------------


def fit_camera(
    kind: str,
    image_size: tuple[int, int],
    focus_mm: np.ndarray,
    rng: np.random.Generator,
    *,
    margin: float = 0.04,
) -> CameraModel:
    """A random camera of ``kind`` (``top``: within ~8° of straight down; ``oblique``: 25–45°
    from vertical, from the climber's side) placed so the table points ``focus_mm`` (N, 2) fill
    the image, ``margin`` (fraction of the image) left free around them. Random horizontal field
    of view 52–68° and mild radial/tangential distortion. A route much taller than wide is seen
    sideways (top: rolled 90°; oblique: from the left or right side instead of the climber's
    side) so that the hand stays large enough for MediaPipe."""
    if kind not in CAMERA_KINDS:
        raise ValueError(f"camera kind must be one of {CAMERA_KINDS}, got {kind!r}")
    pts = np.asarray(focus_mm, np.float64).reshape(-1, 2)
    w, h = image_size
    centre = (pts.min(0) + pts.max(0)) / 2
    hfov = float(rng.uniform(52, 68))
    k1 = float(rng.uniform(-0.22, 0.04))
    dist = (k1, float(rng.uniform(-0.02, 0.06)) * abs(k1) * 4, float(rng.normal(0, 0.001)),
            float(rng.normal(0, 0.001)), 0.0)
    ext = pts.max(0) - pts.min(0)
    # a tall route (the usual Grimpe shape) is seen sideways so it spans the image's width
    tall = ext[1] / max(ext[0], 1e-6) > (h / w) * 1.15
    if kind == "top":
        tilt = float(rng.uniform(0, 8))
        azimuth_deg = float(rng.uniform(-180, 180))
        side = float(rng.choice([-1.0, 1.0]))
        up = np.array([side, float(rng.normal(0, 0.05)), 0.0]) if tall else \
            np.array([float(rng.normal(0, 0.05)), 1.0, 0.0])
    else:
        tilt = float(rng.uniform(25, 45))
        base = float(rng.choice([0.0, 180.0])) if tall else -90.0  # from a side / the climber
        azimuth_deg = base + float(rng.uniform(-25, 25))
        up = None
    azimuth = np.radians(azimuth_deg)
    direction = np.array([np.cos(azimuth) * np.sin(np.radians(tilt)),
                          np.sin(azimuth) * np.sin(np.radians(tilt)),
                          np.cos(np.radians(tilt))])
    if up is None:  # image up = away from the camera, across the table
        up = np.array([-np.cos(azimuth), -np.sin(azimuth), 0.0])
    roll_up = tuple(float(v) for v in up)
    target = np.array([centre[0], centre[1], 0.0])
    d = 800.0
    pts3 = np.column_stack([pts, np.zeros(len(pts))])
    cam = None
    for _ in range(30):
        cam = look_at(image_size, tuple(target + d * direction), tuple(target), hfov_deg=hfov,
                      up_world=roll_up, dist=dist)
        px = cam.project(pts3)
        lo, hi = px.min(0), px.max(0)
        # recentre the target on the projected box, then scale the distance to fit
        mid = (lo + hi) / 2
        shift = cam.pixels_to_plane(mid[None])[0] - cam.pixels_to_plane(
            np.array([[(w - 1) / 2, (h - 1) / 2]]))[0]
        if np.all(np.isfinite(shift)):
            target[:2] += 0.8 * shift
        fill = max((hi[0] - lo[0]) / (w * (1 - 2 * margin)), (hi[1] - lo[1]) / (h * (1 - 2 * margin)))
        if abs(fill - 1) < 0.005 and np.abs(mid - ((w - 1) / 2, (h - 1) / 2)).max() < 2:
            break
        d *= float(np.clip(fill, 0.5, 2.0)) ** 0.9
    assert cam is not None
    return cam


# --- lighting --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lighting:
    """Light over the table: a linear gradient plus soft blobs (a lamp's pool, a shadow),
    a slow brightness drift over time, and the direction shadows fall (table plane, unit)."""

    gradient: tuple[float, float]  # brightness change per metre along x, y
    blobs: tuple[tuple[float, float, float, float], ...]  # (x_mm, y_mm, sigma_mm, gain)
    drift_amp: float
    drift_period_s: float
    shadow_dir: tuple[float, float]
    warmth: float  # > 0 warm (more red), < 0 cool

    def to_dict(self) -> dict[str, Any]:
        return {
            "gradient_per_m": list(self.gradient),
            "blobs": [list(b) for b in self.blobs],
            "drift_amp": self.drift_amp,
            "drift_period_s": self.drift_period_s,
            "shadow_dir": list(self.shadow_dir),
            "warmth": self.warmth,
        }

    def gain_map(self, shape_hw: tuple[int, int], px_per_mm: float, origin_mm: tuple[float, float]
                 ) -> np.ndarray:
        """(H, W, 3) float32 multiplicative light over a canvas (static part)."""
        h, w = shape_hw
        xs = origin_mm[0] + np.arange(w, dtype=np.float32) / px_per_mm
        ys = origin_mm[1] - np.arange(h, dtype=np.float32) / px_per_mm
        g = 1.0 + (xs[None, :] - xs.mean()) * self.gradient[0] / 1000 + \
            (ys[:, None] - ys.mean()) * self.gradient[1] / 1000
        for bx, by, s, gain in self.blobs:
            ex = np.exp(-0.5 * ((xs - bx) / s) ** 2)
            ey = np.exp(-0.5 * ((ys - by) / s) ** 2)
            g = g + gain * ey[:, None] * ex[None, :]
        g = np.clip(g, 0.35, 1.6).astype(np.float32)
        tint = np.array([1 - 0.5 * self.warmth, 1.0, 1 + 0.5 * self.warmth], np.float32)
        return g[..., None] * tint[None, None]

    def drift(self, t_s: float) -> float:
        return 1.0 + self.drift_amp * float(np.sin(2 * np.pi * t_s / self.drift_period_s))


def random_lighting(rng: np.random.Generator, centre_mm: tuple[float, float]) -> Lighting:
    a = rng.uniform(0, 2 * np.pi)
    blobs = []
    for _ in range(int(rng.integers(1, 3))):
        blobs.append((float(centre_mm[0] + rng.normal(0, 200)), float(centre_mm[1] + rng.normal(0, 200)),
                      float(rng.uniform(120, 350)), float(rng.uniform(-0.35, 0.3))))
    sd = rng.normal(0, 1, 2)
    sd = sd / np.linalg.norm(sd)
    return Lighting(
        gradient=(float(0.5 * np.cos(a)), float(0.5 * np.sin(a))),
        blobs=tuple(blobs),
        drift_amp=float(rng.uniform(0, 0.05)),
        drift_period_s=float(rng.uniform(3, 9)),
        shadow_dir=(float(sd[0]), float(sd[1])),
        warmth=float(rng.uniform(-0.08, 0.12)),
    )


# --- sensor ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SensorModel:
    """Optical blur (Gaussian sigma, px), read/shot noise (std in grey levels), vignetting
    (relative darkening at the corners) and overall exposure gain."""

    blur_sigma_px: float
    noise_std: float
    vignette: float
    exposure: float

    def to_dict(self) -> dict[str, float]:
        return dict(self.__dict__)


def random_sensor(rng: np.random.Generator) -> SensorModel:
    return SensorModel(
        blur_sigma_px=float(rng.uniform(0.4, 1.1)),
        noise_std=float(rng.uniform(1.5, 5.0)),
        vignette=float(rng.uniform(0.05, 0.3)),
        exposure=float(rng.uniform(0.9, 1.08)),
    )


def apply_sensor(image_bgr: np.ndarray, sensor: SensorModel, rng: np.random.Generator,
                 gain: float = 1.0) -> np.ndarray:
    """Blur, vignetting, exposure × ``gain``, then noise (brighter pixels a bit noisier)."""
    img = image_bgr.astype(np.float32)
    if sensor.blur_sigma_px > 0:
        img = cv2.GaussianBlur(img, (0, 0), sensor.blur_sigma_px)
    h, w = img.shape[:2]
    yy, xx = np.ogrid[0:h, 0:w]
    r2 = ((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2
    vig = (1 - sensor.vignette * np.clip(r2 / 2, 0, 1)).astype(np.float32)
    img *= (vig * sensor.exposure * gain)[..., None]
    noise = rng.standard_normal(img.shape, dtype=np.float32)
    img += noise * (sensor.noise_std * (0.6 + 0.4 * img / 255.0))
    return np.clip(img + 0.5, 0, 255).astype(np.uint8)


# --- writing ---------------------------------------------------------------------------------


def dumps_ground_truth(gt: dict[str, Any]) -> str:
    """JSON text of a ground truth: the header indented, then one compact line per frame
    (keeps the per-frame landmarks small and the file readable)."""
    frames = gt.get("frames")
    head = {k: v for k, v in gt.items() if k != "frames"}
    text = json.dumps(head, indent=1)
    if frames is None:
        return text + "\n"
    body = ",\n".join(json.dumps(f, separators=(",", ":")) for f in frames)
    return text[:-2] + ',\n "frames": [\n' + body + "\n ]\n}\n"


def write_scene(scene: Scene, out_dir: str | Path, *, progress: bool = True,
                desc: str = "rendering") -> dict[str, Any]:
    """Render every frame into ``out_dir/video.mp4`` (mp4v) and write ``ground_truth.json``
    plus the scene's extra files. Returns the ground truth. Progress bar on stderr."""
    from tqdm import tqdm

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    w, h = scene.camera.image_size
    video_path = out / "video.mp4"
    writer = cv2.VideoWriter(str(video_path), cv2.VideoWriter_fourcc(*"mp4v"), float(scene.fps),
                             (w, h))
    if not writer.isOpened():
        raise OSError(f"cannot open a video writer for {video_path}")
    try:
        for i in tqdm(range(scene.num_frames), desc=desc, unit="frame", disable=None if progress else True):
            frame = scene.render_frame(i)
            writer.write(frame)
    finally:
        writer.release()
    gt = scene.ground_truth()
    gt["video"] = video_path.name
    (out / "ground_truth.json").write_text(dumps_ground_truth(gt), encoding="utf-8")
    for name, text in scene.extra_files().items():
        (out / name).write_text(text, encoding="utf-8")
    return gt
