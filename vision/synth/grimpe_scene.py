"""A synthetic Grimpe! scene: a route on a table, a camera, a hand climbing it, ground truth.

``GrimpeScene(SceneConfig(seed=7, camera="oblique", script="wrong_finger"))`` builds everything
from the seed (route, hand, table, printing, light, camera, sensor); ``render_frame(i)`` draws
frame ``i``; ``ground_truth()`` gives the JSON (route in table mm, camera, per-frame hand
landmarks in image pixels with visibility, the event log, the expected verdict from
:func:`games.grimpe.climb.judge_events`).

Simplification (documented in the ground truth): the hand is a 2.5D render drawn into the
table texture, then the texture is seen by the camera. Each texture pixel shows what the
camera's ray through that table point meets first (the hand's ellipsoids are ray-cast along the
camera's rays, :func:`vision.synth.hand.render_hand` with ``eye``), so the image is the
camera's own view of the 3D hand: a raised finger is seen beside its foot (roughly 0.6-1 mm per
mm of height in the oblique views; in the top ones from nothing under the camera to about
0.4-0.5 near the picture's edge), a nearer part looks bigger, an oblique camera sees the sides
of the fingers, and a part hides what lies behind it along the ray. The cast shadow falls from
where each surface point really is. Generator ``synth-1`` drew the hand flat, like a photograph
lying on the table (a finger hovering over a hold looked like one pressing it); ``synth-2``
moved each joint to where the camera sees it but still drew the hand as seen from straight
above. Not modelled: besides its highlight, the skin's shading does not depend on where the
camera is (skin is close to a diffuse reflector).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from games.grimpe.cards import ColourMap, default_catalog
from games.grimpe.climb import judge_events
from games.grimpe.route import Route
from vision.camera import CameraModel
from vision.synth.cards_art import (
    CardArtStyle,
    card_texture,
    composite_card,
    help_card_texture,
    random_art_style,
)
from vision.synth.climb_script import SCRIPTS, Script, build_script, plan_climb
from vision.synth.grimpe_route import random_route, route_card_poses, route_extent_mm
from vision.synth.hand import (
    HandModel,
    HandStyle,
    mediapipe_landmarks_px,
    random_style,
    render_hand,
)
from vision.synth.scene import (
    GENERATOR_VERSION,
    Lighting,
    SensorModel,
    apply_sensor,
    fit_camera,
    random_lighting,
    random_sensor,
)
from vision.synth.table import TableStyle, random_table_style, render_table

__all__ = ["GrimpeScene", "SceneConfig", "SIMPLIFICATIONS"]

SIMPLIFICATIONS = (
    "The hand is drawn into the top-down table texture as the camera sees it: each texture "
    "pixel shows what the camera's ray through that table point meets first (the hand's "
    "ellipsoids ray-cast along the camera's rays), so a raised finger shows the parallax a real "
    "camera gives it, nearer parts look bigger and an oblique camera sees the fingers' sides; "
    "the cast shadow falls from each surface point's true place. The skin's shading does not "
    "depend on the view except its highlight. landmarks_px are the camera's projections of the "
    "model's joints, which is where their pixels are. "
    "landmarks_mediapipe_px adds the fixed offsets from the model's joints to MediaPipe's "
    "landmark convention (vision.synth.hand.mediapipe_landmarks_px). A landmark is visible when "
    "it is inside the image and the camera's ray to it does not meet the hand well before it."
)
_MAX_ATTEMPTS = 60


@dataclass(frozen=True)
class SceneConfig:
    """What to render. Everything else follows from ``seed``.

    Attributes:
        seed: the scene's seed (same seed and options ⇒ same scene).
        camera: ``"top"`` or ``"oblique"``.
        script: one of :data:`vision.synth.climb_script.SCRIPTS`.
        image_size: (width, height) in pixels.
        fps: frames per second.
        num_frames: cut or extend the script to this many frames (None: the script's length).
        handedness: ``"left"``/``"right"`` or None (random).
        table_kind: ``wood``/``cloth``/``plain``/``patterned`` or None (random).
        parallax: draw the hand as the camera sees it (see the module doc); False draws it
            flat on the table as generator ``synth-1`` did (to compare with figures measured
            on such renders).
    """

    seed: int
    camera: str = "top"
    script: str = "clean"
    image_size: tuple[int, int] = (640, 480)
    fps: float = 30.0
    num_frames: int | None = None
    handedness: str | None = None
    table_kind: str | None = None
    parallax: bool = True

    def __post_init__(self) -> None:
        if self.script not in SCRIPTS:
            raise ValueError(f"script must be one of {SCRIPTS}, got {self.script!r}")
        if self.camera not in ("top", "oblique"):
            raise ValueError(f"camera must be 'top' or 'oblique', got {self.camera!r}")
        if self.num_frames is not None and self.num_frames < 1:
            raise ValueError(f"num_frames must be >= 1, got {self.num_frames}")

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["image_size"] = list(self.image_size)
        return d


def _sub_rng(seed: int, *keys: int) -> np.random.Generator:
    return np.random.default_rng([int(seed) & 0xFFFFFFFF, *keys])


_SCRIPT_ID = {name: i for i, name in enumerate(SCRIPTS)}


@dataclass
class _Canvas:
    px_per_mm: float
    origin_mm: tuple[float, float]  # table (x, y) of the top-left pixel centre
    shape_hw: tuple[int, int]

    def to_px(self, pts_mm: np.ndarray) -> np.ndarray:
        """Table mm (N, 3) → canvas [col, row, height px] (N, 3)."""
        p = np.asarray(pts_mm, np.float64)
        out = np.empty_like(p)
        out[:, 0] = (p[:, 0] - self.origin_mm[0]) * self.px_per_mm
        out[:, 1] = (self.origin_mm[1] - p[:, 1]) * self.px_per_mm
        out[:, 2] = p[:, 2] * self.px_per_mm
        return out


@dataclass
class GrimpeScene:
    """See the module doc. Build with ``GrimpeScene(SceneConfig(...))``."""

    config: SceneConfig
    colour_map: ColourMap = field(default_factory=ColourMap)

    def __post_init__(self) -> None:
        cfg = self.config
        seed = cfg.seed
        self.fps = float(cfg.fps)
        catalog = default_catalog()
        script: Script | None = None
        for attempt in range(_MAX_ATTEMPTS):
            rng = _sub_rng(seed, attempt, 1)
            route = random_route(rng, catalog)
            style = random_style(_sub_rng(seed, attempt, 2), cfg.handedness)
            model = HandModel(style)
            # the same person's other hand: same skin and size
            other_style = dataclasses.replace(
                style, handedness="left" if style.handedness == "right" else "right")
            other = HandModel(other_style)
            if cfg.script == "empty":
                script = build_script("empty", route, model, None, rng, fps=self.fps)
                break
            plan = plan_climb(route, model, _sub_rng(seed, attempt, 4), colour_map=self.colour_map)
            if plan is None or not plan.summit:
                continue
            script = build_script(cfg.script, route, model, plan,
                                  _sub_rng(seed, attempt, 5, _SCRIPT_ID[cfg.script]),
                                  fps=self.fps, colour_map=self.colour_map, other_model=other)
            if script is not None:
                break
        if script is None:
            raise RuntimeError(f"seed {seed}: no route allowed script {cfg.script!r} "
                               f"in {_MAX_ATTEMPTS} attempts")
        self.attempt = attempt
        self.route: Route = route
        self.hand_style: HandStyle = style
        self.model = model
        self.other_style: HandStyle = other_style
        self.other_model = other
        self.full_script = script
        self.script = script if cfg.num_frames is None else script.truncated(cfg.num_frames)
        self.num_frames = self.script.num_frames

        look = _sub_rng(seed, 10)
        self.table_style: TableStyle = random_table_style(look, cfg.table_kind)
        self.art_style: CardArtStyle = random_art_style(look)
        ext = route_extent_mm(route)
        self.lighting: Lighting = random_lighting(look, ((ext[0] + ext[2]) / 2, (ext[1] + ext[3]) / 2))
        self.sensor: SensorModel = random_sensor(look)
        self.camera: CameraModel = fit_camera(cfg.camera, cfg.image_size, self._focus_mm(),
                                              _sub_rng(seed, 11, 0 if cfg.camera == "top" else 1))
        self._canvas = self._canvas_geometry()
        self._textures: dict[Any, np.ndarray] = {}
        self._base_cache: dict[tuple, np.ndarray] = {}
        self._table_rgb: np.ndarray | None = None
        self._gain_img: np.ndarray | None = None
        self._vis_cache: dict[int, list[np.ndarray]] = {}

    # -- geometry -------------------------------------------------------------------------
    def _focus_mm(self) -> np.ndarray:
        x0, y0, x1, y1 = route_extent_mm(self.route)
        half = 38.0
        pts = [(cx + dx, cy + dy) for _, (cx, cy), _ in route_card_poses(self.route)
               for dx in (-half, half) for dy in (-half, half)]
        if self.script.keyframes:
            # fingertips and wrist of every keyframe: the hand must stay in view
            for k in self.script.keyframes[:: max(1, len(self.script.keyframes) // 12)]:
                lm = self.model.pose(k.wrist_xy_mm, k.heading_deg, k.states, strict=False)
                pts.extend(lm[[0, 4, 8, 12, 16, 20], :2].tolist())
            wy = min(k.wrist_xy_mm[1] for k in self.script.keyframes)
            pts.append(((x0 + x1) / 2, wy - 25.0))
        return np.array(pts)

    def _canvas_geometry(self) -> _Canvas:
        cam = self.camera
        w, h = cam.image_size
        border = np.concatenate([
            np.column_stack([np.linspace(0, w - 1, 33), np.zeros(33)]),
            np.column_stack([np.linspace(0, w - 1, 33), np.full(33, h - 1)]),
            np.column_stack([np.zeros(25), np.linspace(0, h - 1, 25)]),
            np.column_stack([np.full(25, w - 1), np.linspace(0, h - 1, 25)]),
        ])
        xy = cam.pixels_to_plane(border)
        xy = xy[np.all(np.isfinite(xy), axis=1)]
        focus = self._focus_mm()
        lo = np.maximum(xy.min(0), focus.min(0) - 900) - 15
        hi = np.minimum(xy.max(0), focus.max(0) + 900) + 15
        # finest image scale over the view (px per mm), to size the canvas without aliasing
        probe = cam.pixels_to_plane(np.array([[x, y] for x in np.linspace(0, w - 1, 5)
                                              for y in np.linspace(0, h - 1, 5)]))
        probe = probe[np.all(np.isfinite(probe), axis=1)]
        d = cam.project(np.column_stack([probe, np.zeros(len(probe))]))
        d2 = cam.project(np.column_stack([probe + [1.0, 0.0], np.zeros(len(probe))]))
        img_ppm = float(np.max(np.linalg.norm(d2 - d, axis=1)))
        ppm = float(np.clip(1.25 * img_ppm, 1.4, 3.0))
        while (hi[0] - lo[0]) * (hi[1] - lo[1]) * ppm * ppm > 9e6 and ppm > 1.2:
            ppm *= 0.9
        shape = (int(np.ceil((hi[1] - lo[1]) * ppm)) + 1, int(np.ceil((hi[0] - lo[0]) * ppm)) + 1)
        return _Canvas(ppm, (float(lo[0]), float(hi[1])), shape)

    # -- static layers ----------------------------------------------------------------------
    def _texture(self, key: Any) -> np.ndarray:
        if key not in self._textures:
            ppm = self._canvas.px_per_mm
            if key in ("depart", "arrivee"):
                self._textures[key] = help_card_texture(key, ppm, self.art_style)
            else:
                self._textures[key] = card_texture(self.route.catalog[key], ppm, self.art_style)
        return self._textures[key]

    def _table(self) -> np.ndarray:
        if self._table_rgb is None:
            c = self._canvas
            self._table_rgb = render_table(self.table_style, c.shape_hw, c.px_per_mm,
                                           _sub_rng(self.config.seed, 12))
        return self._table_rgb

    def _base(self, frame: int) -> np.ndarray:
        """Table and cards at ``frame`` (cards moved by nudges), before the hand."""
        offsets = {n.card: n.at(frame) for n in self.script.nudges}
        key = tuple(sorted((k, tuple(round(x, 3) for x in v)) for k, v in offsets.items()))
        base = self._base_cache.get(key)
        if base is None:
            c = self._canvas
            base = self._table().copy()
            sd = self.lighting.shadow_dir
            for name, (x, y), rot in route_card_poses(self.route):
                dx, dy, dr = offsets.get(name, (0.0, 0.0, 0.0)) if isinstance(name, int) else (0, 0, 0)
                composite_card(base, self._texture(name), (x + dx, y + dy), rot + dr,
                               c.px_per_mm, c.origin_mm, light_dir=sd)
            base = cv2.GaussianBlur(base, (0, 0), 0.45)
            if len(self._base_cache) > 8:
                self._base_cache.clear()
            self._base_cache[key] = base
        return base

    def _gain(self) -> np.ndarray:
        if self._gain_img is None:
            c = self._canvas
            g = self.lighting.gain_map(c.shape_hw, c.px_per_mm, c.origin_mm)
            self._gain_img = self.camera.render_plane(g, c.px_per_mm, c.origin_mm,
                                                      border_value=(1.0, 1.0, 1.0))
        return self._gain_img

    # -- hands --------------------------------------------------------------------------------
    def hands_mm(self, frame: int) -> list[tuple[str, HandModel, np.ndarray]]:
        """[(role, model, (21, 3) table mm)] of the hands in ``frame`` (climbing first)."""
        out = []
        lm = self.script.hand_mm(self.model, frame)
        if lm is not None:
            out.append(("climbing", self.model, lm))
        lo = self.script.hand_mm(self.other_model, frame, other=True)
        if lo is not None:
            out.append(("other", self.other_model, lo))
        return out

    def _light_dir(self) -> tuple[float, float, float]:
        sx, sy = self.lighting.shadow_dir
        return (-0.5 * sx, 0.5 * sy, 0.8)  # canvas axes: y down

    def seen_mm(self, lm: np.ndarray) -> np.ndarray:
        """Where the camera sees table-mm points (N, 3): each moved to the table point on the
        camera's ray through it, its height kept (unmoved when the hand is drawn flat)."""
        lm = np.asarray(lm, np.float64)
        if not self.config.parallax:
            return lm.copy()
        cam = self.camera.centre_world_mm
        k = cam[2] / np.maximum(cam[2] - lm[:, 2], 1.0)
        seen = lm.copy()
        seen[:, :2] = cam[:2] + (lm[:, :2] - cam[:2]) * k[:, None]
        return seen

    def _draw_hands(self, canvas: np.ndarray, frame: int) -> list[np.ndarray]:
        """Draw the hands into ``canvas``; returns per hand its (21,) bool 'not covered'."""
        c = self._canvas
        eye = tuple(c.to_px(self.camera.centre_world_mm[None])[0]) if self.config.parallax else None
        vis = []
        for j, (_, model, lm) in enumerate(self.hands_mm(frame)):
            r = render_hand(canvas, c.to_px(lm), model.style, light_dir=self._light_dir(),
                            rng=_sub_rng(self.config.seed, 20 + j, frame), px_per_mm=c.px_per_mm,
                            eye=eye)
            # a joint is covered when its ray meets the hand well above it
            px = c.to_px(self.seen_mm(lm))
            cols = np.clip(np.round(px[:, 0]).astype(int), 0, c.shape_hw[1] - 1)
            rows = np.clip(np.round(px[:, 1]).astype(int), 0, c.shape_hw[0] - 1)
            surf = r.height_px[rows, cols]
            vis.append(surf <= px[:, 2] + 15.0 * c.px_per_mm)
        return vis

    # -- Scene protocol ------------------------------------------------------------------------
    def render_frame(self, index: int) -> np.ndarray:
        """Frame ``index`` (BGR uint8, camera image size), before video compression."""
        if not 0 <= index < self.num_frames:
            raise IndexError(f"frame {index} out of range 0..{self.num_frames - 1}")
        c = self._canvas
        canvas = self._base(index).copy()
        self._vis_cache[index] = self._draw_hands(canvas, index)
        mean = tuple(float(v) for v in self._table().reshape(-1, 3)[::97].mean(0))
        img = self.camera.render_plane(canvas, c.px_per_mm, c.origin_mm, border_value=mean)
        lit = img.astype(np.float32) * self._gain() * self.lighting.drift(index / self.fps)
        lit = np.clip(lit, 0, 255).astype(np.uint8)
        return apply_sensor(lit, self.sensor, _sub_rng(self.config.seed, 30, index))

    def _visibility(self, frame: int) -> list[np.ndarray]:
        if frame not in self._vis_cache:
            c = self._canvas
            scratch = np.zeros(c.shape_hw + (3,), np.uint8)
            self._vis_cache[frame] = self._draw_hands(scratch, frame)
        return self._vis_cache[frame]

    def frame_truth(self, frame: int, *, visibility: bool = True) -> list[dict[str, Any]]:
        """Ground truth of the hands in one frame (see :meth:`ground_truth`)."""
        w, h = self.camera.image_size
        out = []
        vis = self._visibility(frame) if visibility else None
        for j, (role, model, lm) in enumerate(self.hands_mm(frame)):
            # the camera's projection of each joint (where its pixels are, see seen_mm)
            px = self.camera.project(lm if self.config.parallax
                                     else np.column_stack([lm[:, :2], np.zeros(len(lm))]))
            mp = mediapipe_landmarks_px(px)
            inside = (px[:, 0] >= 0) & (px[:, 0] <= w - 1) & (px[:, 1] >= 0) & (px[:, 1] <= h - 1)
            visible = inside if vis is None else inside & vis[j]
            out.append({
                "role": role,
                "handedness": model.style.handedness,
                "landmarks_px": np.round(px, 2).tolist(),
                "landmarks_mediapipe_px": np.round(mp, 2).tolist(),
                "visible": [bool(v) for v in visible],
                "landmarks_mm": np.round(lm, 2).tolist(),
            })
        return out

    @property
    def events(self) -> list[dict[str, Any]]:
        return [dict(e) for e in self.script.events]

    def expected_verdict(self) -> dict[str, Any]:
        """The judge's verdict on the event log (``games.grimpe.climb.judge_events``)."""
        return judge_events(self.route, self.events, self.colour_map).to_json()

    def ground_truth(self, *, frames: bool = True) -> dict[str, Any]:
        """JSON-ready ground truth. ``frames=False`` leaves out the per-frame landmarks (fast)."""
        cfg = self.config
        gt: dict[str, Any] = {
            "format": "arbitre-synth-scene",
            "kind": "grimpe",
            "generator_version": GENERATOR_VERSION,
            "seed": cfg.seed,
            "config": cfg.to_dict(),
            "script": self.script.name,
            "image_size": list(self.camera.image_size),
            "fps": self.fps,
            "num_frames": self.num_frames,
            "route": self.route.to_json(),
            "colour_map": self.colour_map.to_dict(),
            "camera": self.camera.to_dict(),
            "camera_kind": cfg.camera,
            "hand": {"handedness": self.hand_style.handedness,
                     "style": _style_dict(self.hand_style)},
            "other_hand": ({"handedness": self.other_style.handedness,
                            "style": _style_dict(self.other_style)}
                           if self.script.other_keyframes else None),
            "table": self.table_style.to_dict(),
            "card_art": self.art_style.to_dict(),
            "lighting": self.lighting.to_dict(),
            "sensor": self.sensor.to_dict(),
            "card_nudges": [n.to_dict() for n in self.script.nudges],
            "events": self.events,
            # the fault the script was written for (None when the clip is cut before it)
            "expected_fault": (self.script.expected_fault
                               if self.num_frames >= self.full_script.num_frames else None),
            "expected_verdict": self.expected_verdict(),
            "simplifications": SIMPLIFICATIONS,
        }
        if frames:
            gt["frames"] = [{"frame": i, "t": round(i / self.fps, 4), "hands": self.frame_truth(i)}
                            for i in range(self.num_frames)]
        return gt

    def extra_files(self) -> dict[str, str]:
        events = "".join(json.dumps(e) + "\n" for e in self.events)
        return {"route.json": self.route.dumps(), "events.jsonl": events}


def _style_dict(style: HandStyle) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in style.__dict__.items()}
