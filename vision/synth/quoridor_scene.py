"""Synthetic Quoridor scenes and game videos with exact ground truth.

A scene is a board (wood or plastic, with grooves) lying on a table, optionally four ArUco
markers on the table at its corners, a 3D camera (straight above down to ~40° oblique, with lens
distortion), pawns and walls drawn as solids with their real height (so their tops show parallax
in oblique views), lighting, sensor noise and compression. A game video plays a game from the
rules engine; between moves a hand and forearm pass over the board, picking up and dropping the
moved pawn or placing the wall. Ground truth is written per frame.

Frames of the board frame (see :mod:`vision.quoridor.geometry`): the board top is z = 0, the
table z = −thickness.

Run ``python -m vision.synth.quoridor_scene --seed 3 --out /tmp/q3`` to write ``game.mp4``,
``truth.json`` and a still ``first.png``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from games.quoridor import PawnMove, QuoridorGame, WallMove
from vision.camera import CameraModel, look_at
from vision.quoridor.geometry import DEFAULT_BOARD, BoardSpec, square_coords
from vision.synth.table import random_table_style, render_table, value_noise

__all__ = [
    "QuoridorStyle",
    "QuoridorScene",
    "HandPose",
    "random_style",
    "random_camera",
    "random_scene",
    "play_game",
    "render_game",
    "GameRender",
    "QuoridorGameScene",
]

#: Pawn colours (B, G, R) a scene picks from: saturated or very light/dark, never skin-like.
PAWN_PALETTE: tuple[tuple[int, int, int], ...] = (
    (40, 40, 200),    # red
    (190, 90, 20),    # blue
    (40, 150, 40),    # green
    (30, 200, 235),   # yellow
    (235, 235, 235),  # white
    (35, 30, 30),     # black
    (150, 40, 120),   # purple
    (160, 160, 30),   # teal
)
SKIN_TONES: tuple[tuple[int, int, int], ...] = (
    (150, 175, 225), (120, 150, 205), (95, 125, 180), (70, 95, 140), (60, 75, 105),
)


@dataclass(frozen=True)
class QuoridorStyle:
    """How a scene looks. Colours are BGR 0..255."""

    board_kind: str  # "wood" or "plastic"
    cell_bgr: tuple[int, int, int]
    groove_bgr: tuple[int, int, int]
    rim_bgr: tuple[int, int, int]
    wall_bgr: tuple[int, int, int]
    pawn_bgr: tuple[tuple[int, int, int], ...]
    skin_bgr: tuple[int, int, int]
    markers: bool
    light_dir: tuple[float, float, float]
    noise_sigma: float
    jpeg_quality: int
    seed: int

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["pawn_bgr"] = [list(c) for c in self.pawn_bgr]
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in d.items()}


def random_style(rng: np.random.Generator, players: int, *, markers: bool | None = None) -> QuoridorStyle:
    kind = "wood" if rng.random() < 0.6 else "plastic"
    if kind == "wood":
        boards = [((70, 110, 150), (25, 40, 60), (55, 90, 125), (150, 200, 230)),
                  ((110, 160, 200), (40, 60, 85), (90, 135, 175), (205, 228, 240)),
                  ((50, 75, 105), (20, 30, 40), (40, 62, 90), (140, 185, 215))]
    else:
        boards = [((60, 60, 62), (20, 20, 22), (50, 50, 52), (200, 200, 190)),
                  ((200, 200, 196), (90, 90, 90), (180, 180, 176), (40, 60, 170)),
                  ((90, 60, 40), (35, 22, 15), (75, 50, 35), (190, 215, 225))]
    order = [int(i) for i in rng.permutation(len(boards))]
    pawns: list[tuple[int, int, int]] = []
    for bi in order:
        cell, groove, rim, wall = boards[bi]
        # pawns far (in BGR distance) from the cell, wall and groove colours and from each other
        cands = [c for c in PAWN_PALETTE
                 if min(np.linalg.norm(np.subtract(c, x)) for x in (cell, wall, groove)) > 90]
        rng.shuffle(cands)
        pawns = []
        for c in cands:
            if all(np.linalg.norm(np.subtract(c, p)) > 110 for p in pawns):
                pawns.append(tuple(int(v) for v in c))  # type: ignore[arg-type]
            if len(pawns) == players:
                break
        if len(pawns) == players:
            break
    if len(pawns) < players:
        raise RuntimeError("palette too small for these boards")
    light = np.array([rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), 1.0])
    light /= np.linalg.norm(light)
    return QuoridorStyle(
        board_kind=kind, cell_bgr=cell, groove_bgr=groove, rim_bgr=rim, wall_bgr=wall,
        pawn_bgr=tuple(pawns), skin_bgr=SKIN_TONES[int(rng.integers(len(SKIN_TONES)))],
        markers=bool(rng.random() < 0.5) if markers is None else markers,
        light_dir=tuple(float(v) for v in light),  # type: ignore[arg-type]
        noise_sigma=float(rng.uniform(1.0, 3.5)), jpeg_quality=int(rng.integers(70, 95)),
        seed=int(rng.integers(2**31)),
    )


def random_camera(rng: np.random.Generator, size: tuple[int, int] = (1280, 720), *,
                  tilt_deg: float | None = None, any_azimuth: bool = False,
                  markers: bool = True, board: BoardSpec = DEFAULT_BOARD) -> CameraModel:
    """A camera on player 1's side (within ±30° azimuth; any azimuth when ``any_azimuth``),
    tilted ``tilt_deg`` from straight down (random 0–40°), framing the whole board."""
    tilt = float(rng.uniform(0, 40)) if tilt_deg is None else float(tilt_deg)
    az = float(rng.uniform(-180, 180) if any_azimuth else rng.uniform(-30, 30))
    hfov = float(rng.uniform(50, 70))
    w, h = size
    # board (with markers) should fill ~70–90 % of the image height
    extent = (board.marker_offset_mm + board.marker_mm / 2 + 15) if markers else board.side_mm / 2 + 25
    vfov = 2 * np.degrees(np.arctan(np.tan(np.radians(hfov) / 2) * h / w))
    fill = rng.uniform(0.75, 0.92)
    dist_mm = extent / np.tan(np.radians(vfov) / 2) / fill
    dist_mm *= 1 + 0.25 * np.sin(np.radians(tilt))
    a = np.radians(az)
    away = np.array([np.sin(a), np.cos(a), 0.0])  # horizontal direction camera → board (towards row 9)
    t = np.radians(tilt)
    target = np.array([rng.uniform(-10, 10), rng.uniform(-10, 10), 0.0])
    eye = target - away * dist_mm * np.sin(t) + np.array([0, 0, dist_mm * np.cos(t)])
    k1 = float(rng.uniform(-0.15, 0.04))
    return look_at(size, tuple(eye), tuple(target), hfov_deg=hfov, up_world=tuple(away),
                   dist=(k1, float(rng.uniform(-0.02, 0.02)), 0, 0, 0),
                   principal_offset_px=(float(rng.uniform(-8, 8)), float(rng.uniform(-8, 8))))


@dataclass
class HandPose:
    """A hand and forearm above the board, in board mm: the forearm runs from ``elbow_mm`` to
    ``wrist_mm``; the fingers reach towards ``tip_mm``. All (3,) with z above the board top."""

    elbow_mm: np.ndarray
    wrist_mm: np.ndarray
    tip_mm: np.ndarray


def _shade(bgr: Sequence[int], normal: np.ndarray, light: np.ndarray) -> tuple[int, int, int]:
    k = 0.5 + 0.55 * max(0.0, float(normal @ light))
    return tuple(int(min(255, c * k)) for c in bgr)  # type: ignore[return-value]


class QuoridorScene:
    """A board on a table seen by one camera; :meth:`render` draws any position on it."""

    def __init__(self, camera: CameraModel, style: QuoridorStyle, board: BoardSpec = DEFAULT_BOARD
                 ) -> None:
        self.camera = camera
        self.style = style
        self.board = board
        self._background: np.ndarray | None = None
        self._board_mask: np.ndarray | None = None
        rng = np.random.default_rng(style.seed)
        w, h = camera.image_size
        self._light_field = (1.0 + 0.08 * value_noise(rng, (h, w), max(w, h) / 2, 2)).astype(np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (w * w / 4 + h * h / 4)
        self._light_field *= (1.0 - 0.18 * r2)
        self._noise = [rng.normal(0, style.noise_sigma, (h, w, 3)).astype(np.float32) for _ in range(3)]
        self._light = np.asarray(style.light_dir, float)

    # -- static part --------------------------------------------------------------------
    def _board_texture(self, px_per_mm: float) -> tuple[np.ndarray, tuple[float, float]]:
        b, st = self.board, self.style
        side = b.side_mm
        n = int(round(side * px_per_mm))
        rng = np.random.default_rng(st.seed + 1)
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
        x = xx / px_per_mm - side / 2
        y = side / 2 - yy / px_per_mm
        if st.board_kind == "wood":
            warp = value_noise(rng, (n, n), 50 * px_per_mm, 3)
            grain = 0.5 + 0.5 * np.sin((y * 0.8 + warp * 18) * 2 * np.pi / 6.0)
            t = (0.10 * grain ** 2 + 0.04 * value_noise(rng, (n, n), 3 * px_per_mm, 2))[..., None]
        else:
            t = (0.03 * value_noise(rng, (n, n), 20 * px_per_mm, 2))[..., None]
        cell = np.array(st.cell_bgr, np.float32)
        img = np.empty((n, n, 3), np.float32)
        img[:] = np.array(st.rim_bgr, np.float32)
        p, half_grid = b.pitch_mm, b.grid_mm / 2
        inside = (np.abs(x) <= half_grid) & (np.abs(y) <= half_grid)
        # position within a pitch: cells are [0, cell), grooves [cell, pitch)
        u = (x + half_grid) % p
        v = (y + half_grid) % p
        in_cell = inside & (u < b.cell_mm) & (v < b.cell_mm)
        groove = inside & ~in_cell
        img[in_cell] = cell
        img[groove] = np.array(st.groove_bgr, np.float32)
        # a darker line where the groove's far wall shows, and a bevel at cell edges
        bevel = inside & in_cell & ((u < 0.8) | (v < 0.8) | (u > b.cell_mm - 0.8) | (v > b.cell_mm - 0.8))
        img[bevel] *= 0.85
        img *= (1 - t) if st.board_kind == "wood" else (1 + t)
        img += rng.normal(0, 2.0, img.shape).astype(np.float32)
        return np.clip(img, 0, 255).astype(np.uint8), (-side / 2 + 0.5 / px_per_mm, side / 2 - 0.5 / px_per_mm)

    def _table_texture(self, px_per_mm: float) -> tuple[np.ndarray, tuple[float, float]]:
        b, st = self.board, self.style
        rng = np.random.default_rng(st.seed + 2)
        ext = 520.0
        n = int(2 * ext * px_per_mm)
        tstyle = random_table_style(rng)
        # keep the table from looking like the board
        img = render_table(tstyle, (n, n), px_per_mm, rng).astype(np.float32)
        if np.linalg.norm(img.reshape(-1, 3).mean(0) - np.array(st.rim_bgr)) < 40:
            img = 255 - img * 0.7
        origin = (-ext, ext)

        def to_px(xy: np.ndarray) -> np.ndarray:
            return np.column_stack([(xy[:, 0] - origin[0]) * px_per_mm, (origin[1] - xy[:, 1]) * px_per_mm])

        # the board's soft shadow
        half = b.side_mm / 2 + 3
        shadow = np.zeros((n, n), np.float32)
        sh = -np.asarray(st.light_dir[:2]) * b.thickness_mm * 0.8
        quad = to_px(np.array([[-half, -half], [half, -half], [half, half], [-half, half]]) + sh)
        cv2.fillConvexPoly(shadow, np.round(quad).astype(np.int32), 1.0, cv2.LINE_AA)
        shadow = cv2.GaussianBlur(shadow, (0, 0), 6 * px_per_mm)
        img *= (1 - 0.45 * shadow)[..., None]
        if st.markers:
            d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
            for i, c in enumerate(b.marker_centres_mm()):
                paper = b.marker_mm / 2 + 8
                q = to_px(np.array([c + [-paper, paper], c + [paper, -paper]]))
                x0, y0 = np.round(q[0]).astype(int)
                x1, y1 = np.round(q[1]).astype(int)
                img[y0:y1, x0:x1] = (238, 240, 240)
                m = cv2.aruco.generateImageMarker(d, i, 6 * 20)
                side_px = int(round(b.marker_mm * px_per_mm))
                m = cv2.resize(m, (side_px, side_px), interpolation=cv2.INTER_AREA)
                tl = np.round(to_px((c + [-b.marker_mm / 2, b.marker_mm / 2])[None])[0]).astype(int)
                img[tl[1]:tl[1] + side_px, tl[0]:tl[0] + side_px] = (
                    m[..., None].astype(np.float32) * (225 / 255.0) + 18)
        return np.clip(img, 0, 255).astype(np.uint8), origin

    def _edge_points(self, a: np.ndarray, b: np.ndarray, n: int = 16) -> np.ndarray:
        s = np.linspace(0, 1, n, endpoint=False)[:, None]
        return a + (b - a) * s

    def background(self) -> np.ndarray:
        """The table, markers and the empty board (BGR uint8), before lighting and noise."""
        if self._background is not None:
            return self._background
        cam, b, st = self.camera, self.board, self.style
        tex, origin = self._table_texture(2.0)
        img = cam.render_plane(tex, 2.0, (origin[0] + 0.25, origin[1] - 0.25), z_mm=-b.thickness_mm,
                               border_value=tuple(int(v) for v in tex[0, 0]))
        half = b.side_mm / 2
        corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
        centre = cam.centre_world_mm
        # side faces that face the camera
        for k in range(4):
            a, c = corners[k], corners[(k + 1) % 4]
            normal = np.array([c[1] - a[1], a[0] - c[0], 0.0])
            normal /= np.linalg.norm(normal)
            mid = np.array([(a[0] + c[0]) / 2, (a[1] + c[1]) / 2, -b.thickness_mm / 2])
            if normal @ (centre - mid) <= 0:
                continue
            top = self._edge_points(np.r_[a, 0.0], np.r_[c, 0.0])
            bottom = self._edge_points(np.r_[c, -b.thickness_mm], np.r_[a, -b.thickness_mm])
            poly = cam.project(np.vstack([top, np.r_[c, 0.0][None], bottom, np.r_[a, -b.thickness_mm][None]]))
            colour = _shade([v * 0.8 for v in st.rim_bgr], normal, self._light)
            cv2.fillPoly(img, [np.round(poly * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)
        ppm = 4.0
        btex, borigin = self._board_texture(ppm)
        top_img = cam.render_plane(btex, ppm, borigin, z_mm=0.0)
        outline = np.vstack([self._edge_points(np.r_[corners[k], 0.0], np.r_[corners[(k + 1) % 4], 0.0])
                             for k in range(4)])
        mask = np.zeros(img.shape[:2], np.uint8)
        cv2.fillPoly(mask, [np.round(cam.project(outline) * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
        a = (mask.astype(np.float32) / 255.0)[..., None]
        img = (img * (1 - a) + top_img * a).astype(np.uint8)
        self._board_mask = mask
        self._background = img
        return img

    # -- dynamic part ----------------------------------------------------------------------
    def _pawn_solid(self, centre_xy: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        """(polygon 3D points, outward normal) faces of a pawn: two stacked frustums + top."""
        b = self.board
        r, h = b.pawn_radius_mm, b.pawn_height_mm
        rings = [(0.0, r), (0.72 * h, 0.72 * r), (h, 0.42 * r)]
        n = 20
        ang = np.linspace(0, 2 * np.pi, n, endpoint=False)
        cs, sn = np.cos(ang), np.sin(ang)
        faces = []
        for (z0, r0), (z1, r1) in zip(rings[:-1], rings[1:]):
            slope = (r0 - r1) / (z1 - z0)
            for k in range(n):
                k2 = (k + 1) % n
                pts = np.array([
                    [centre_xy[0] + r0 * cs[k], centre_xy[1] + r0 * sn[k], z0],
                    [centre_xy[0] + r0 * cs[k2], centre_xy[1] + r0 * sn[k2], z0],
                    [centre_xy[0] + r1 * cs[k2], centre_xy[1] + r1 * sn[k2], z1],
                    [centre_xy[0] + r1 * cs[k], centre_xy[1] + r1 * sn[k], z1],
                ])
                am = (ang[k] + np.pi / n)
                nrm = np.array([np.cos(am), np.sin(am), slope])
                faces.append((pts, nrm / np.linalg.norm(nrm)))
        top = np.column_stack([centre_xy[0] + rings[-1][1] * cs, centre_xy[1] + rings[-1][1] * sn,
                               np.full(n, h)])
        faces.append((top, np.array([0.0, 0.0, 1.0])))
        return faces

    def _wall_solid(self, wall: str) -> list[tuple[np.ndarray, np.ndarray]]:
        b = self.board
        c, r = square_coords(wall[:-1])
        cx, cy = b.wall_centre_mm(c, r)
        hl, ht = b.wall_length_mm / 2, b.wall_thickness_mm / 2
        dx, dy = (hl, ht) if wall[-1] == "h" else (ht, hl)
        z1 = b.wall_height_mm
        x0, x1, y0, y1 = cx - dx, cx + dx, cy - dy, cy + dy
        P = lambda x, y, z: [x, y, z]  # noqa: E731
        return [
            (np.array([P(x0, y0, z1), P(x1, y0, z1), P(x1, y1, z1), P(x0, y1, z1)]), np.array([0, 0, 1.0])),
            (np.array([P(x0, y0, 0), P(x1, y0, 0), P(x1, y0, z1), P(x0, y0, z1)]), np.array([0, -1.0, 0])),
            (np.array([P(x1, y1, 0), P(x0, y1, 0), P(x0, y1, z1), P(x1, y1, z1)]), np.array([0, 1.0, 0])),
            (np.array([P(x0, y1, 0), P(x0, y0, 0), P(x0, y0, z1), P(x0, y1, z1)]), np.array([-1.0, 0, 0])),
            (np.array([P(x1, y0, 0), P(x1, y1, 0), P(x1, y1, z1), P(x1, y0, z1)]), np.array([1.0, 0, 0])),
        ]

    def _draw_solid(self, img: np.ndarray, faces: list[tuple[np.ndarray, np.ndarray]],
                    bgr: Sequence[int]) -> None:
        cam = self.camera
        centre = cam.centre_world_mm
        vis = [(f, n) for f, n in faces if n @ (centre - f.mean(0)) > 0]
        vis.sort(key=lambda fn: -float(cam.depth_mm(fn[0].mean(0)[None])[0]))
        for f, n in vis:
            poly = cam.project(f)
            cv2.fillConvexPoly(img, np.round(poly * 16).astype(np.int32), _shade(bgr, n, self._light),
                               cv2.LINE_AA, shift=4)

    def _draw_hand(self, img: np.ndarray | None, mask: np.ndarray, hand: HandPose) -> None:
        cam, st = self.camera, self.style
        skin = np.array(st.skin_bgr, float)

        def capsule(a: np.ndarray, b: np.ndarray, r_mm: float, shade: float) -> None:
            pts = np.linspace(a, b, 8)
            px = cam.project(pts)
            depth = cam.depth_mm(pts)
            rad = cam.fx * r_mm / np.maximum(depth, 1.0)
            col = tuple(int(min(255, v * shade)) for v in skin)
            for k in range(len(pts) - 1):
                th = int(max(2, round(rad[k] + rad[k + 1])))
                p0 = tuple(int(round(v)) for v in px[k])
                p1 = tuple(int(round(v)) for v in px[k + 1])
                for target, value in ((img, col), (mask, 255)):
                    if target is None:
                        continue
                    cv2.line(target, p0, p1, value, th, cv2.LINE_AA)
                    cv2.circle(target, p1, th // 2, value, -1, cv2.LINE_AA)

        capsule(hand.elbow_mm, hand.wrist_mm, 32.0, 0.85)
        capsule(hand.elbow_mm, hand.wrist_mm, 22.0, 1.0)
        d = hand.tip_mm - hand.wrist_mm
        d_xy = d[:2] / max(np.linalg.norm(d[:2]), 1e-6)
        side = np.array([-d_xy[1], d_xy[0], 0.0])
        palm = hand.wrist_mm + 0.45 * d
        capsule(hand.wrist_mm, palm, 38.0, 0.9)
        capsule(hand.wrist_mm, palm, 30.0, 1.02)
        for k, off in enumerate((-24.0, -8.0, 8.0, 22.0)):
            base = palm + side * off
            tip = hand.tip_mm + side * off * 0.6 + np.array([0, 0, 6.0 * abs(k - 1.5)])
            capsule(base, tip, 8.5, 0.92)
        capsule(palm - side * 30, hand.tip_mm - side * 40 + np.array([0, 0, 10.0]), 10.0, 0.95)

    def hand_covers_board(self, hand: HandPose | None) -> bool:
        """Whether ``hand`` drawn in this view overlaps the board's top."""
        if hand is None:
            return False
        self.background()
        w, h = self.camera.image_size
        hmask = np.zeros((h, w), np.uint8)
        self._draw_hand(None, hmask, hand)
        assert self._board_mask is not None
        return bool(np.count_nonzero((hmask > 0) & (self._board_mask > 0)) > 0)

    def render(self, pawns: Sequence[str | None], walls: Iterable[str], *,
               hand: HandPose | None = None, rng: np.random.Generator | None = None,
               jpeg: bool = True) -> tuple[np.ndarray, bool]:
        """One frame (BGR uint8) of the position, and whether a hand covers the board.

        ``pawns[k]`` is player k+1's square, or None for a pawn held in the hand (not drawn).
        """
        rng = rng or np.random.default_rng()
        b, st, cam = self.board, self.style, self.camera
        img = self.background().copy()
        # contact shadows of the pawns
        light_xy = np.asarray(st.light_dir[:2])
        for sq in pawns:
            if sq is None:
                continue
            c = b.cell_centre_mm(*square_coords(sq)) - light_xy * 4
            ring = np.column_stack([c[0] + 1.15 * b.pawn_radius_mm * np.cos(np.linspace(0, 6.28, 24)),
                                    c[1] + 1.15 * b.pawn_radius_mm * np.sin(np.linspace(0, 6.28, 24))])
            poly = np.round(cam.project(ring)).astype(np.int32)
            x, y, w, h = cv2.boundingRect(poly)
            x0, y0 = max(x - 6, 0), max(y - 6, 0)
            roi = img[y0:y + h + 6, x0:x + w + 6]
            m = np.zeros(roi.shape[:2], np.float32)
            cv2.fillConvexPoly(m, poly - [x0, y0], 1.0, cv2.LINE_AA)
            m = cv2.GaussianBlur(m, (0, 0), 2.0)
            roi[:] = (roi * (1 - 0.35 * m[..., None])).astype(np.uint8)
        solids: list[tuple[float, list, Sequence[int]]] = []
        for k, sq in enumerate(pawns):
            if sq is None:
                continue
            c = b.cell_centre_mm(*square_coords(sq))
            depth = float(cam.depth_mm(np.array([[c[0], c[1], b.pawn_height_mm / 2]]))[0])
            solids.append((depth, self._pawn_solid(c), st.pawn_bgr[k]))
        for wall in walls:
            c = b.wall_centre_mm(*square_coords(wall[:-1]))
            depth = float(cam.depth_mm(np.array([[c[0], c[1], b.wall_height_mm / 2]]))[0])
            solids.append((depth, self._wall_solid(wall), st.wall_bgr))
        solids.sort(key=lambda s: -s[0])
        for _, faces, colour in solids:
            self._draw_solid(img, faces, colour)
        occluded = False
        if hand is not None:
            hmask = np.zeros(img.shape[:2], np.uint8)
            self._draw_hand(img, hmask, hand)
            assert self._board_mask is not None
            occluded = bool(np.count_nonzero((hmask > 0) & (self._board_mask > 0)) > 0)
        out = img.astype(np.float32) * self._light_field[..., None] * float(rng.uniform(0.98, 1.02))
        out += self._noise[int(rng.integers(len(self._noise)))]
        out = cv2.GaussianBlur(out, (0, 0), 0.6)
        frame = np.clip(out, 0, 255).astype(np.uint8)
        if jpeg:
            ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, st.jpeg_quality])
            frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        return frame, occluded


def random_scene(seed: int, *, players: int = 2, size: tuple[int, int] = (1280, 720),
                 markers: bool | None = None, tilt_deg: float | None = None) -> QuoridorScene:
    """A random scene; deterministic in ``seed``."""
    rng = np.random.default_rng([seed, 7001])
    style = random_style(rng, players, markers=markers)
    cam = random_camera(rng, size, tilt_deg=tilt_deg, any_azimuth=style.markers,
                        markers=style.markers)
    return QuoridorScene(cam, style)


# --------------------------------------------------------------------------------------------
# Games and videos
# --------------------------------------------------------------------------------------------


def play_game(rng: np.random.Generator, players: int = 2, max_plies: int = 80) -> list[str]:
    """A plausible game from the engine: mostly shortest-path pawn moves, some walls that
    lengthen an opponent's path. Returns the record in notation."""
    game = QuoridorGame(num_players=players)
    record: list[str] = []
    while not game.is_terminal() and len(record) < max_plies:
        me = game.current_player()
        legal = game.legal_moves()
        pawn_moves = [m for m in legal if isinstance(m, PawnMove)]
        wall_moves = [m for m in legal if isinstance(m, WallMove)]
        move: Any = None
        if wall_moves and rng.random() < 0.35:
            best, best_gain = None, 0
            for k in rng.choice(len(wall_moves), size=min(25, len(wall_moves)), replace=False):
                g = game.copy()
                g.apply(wall_moves[int(k)])
                d = g.shortest_path_lengths()
                gain = min(d[p] for p in range(players) if p != me) - d[me]
                if best is None or gain > best_gain:
                    best, best_gain = wall_moves[int(k)], gain
            move = best
        if move is None:
            scored = []
            for m in pawn_moves:
                g = game.copy()
                g.apply(m)
                scored.append((g.distance(me) + rng.uniform(0, 0.9 if rng.random() < 0.2 else 0.1), m))
            move = min(scored, key=lambda s: s[0])[1]
        game.play(move)
        record.append(move.notation())
    return record


@dataclass
class GameRender:
    """Where a rendered game went, and its ground truth (the same dict as ``truth.json``)."""

    video_path: Path
    truth: dict[str, Any]
    stills: dict[str, Path] = field(default_factory=dict)


def _side_dir(player: int, players: int) -> np.ndarray:
    dirs = [(0, -1), (0, 1)] if players == 2 else [(0, -1), (-1, 0), (0, 1), (1, 0)]
    return np.array(dirs[player], float)


def _hand_path(b: BoardSpec, side: np.ndarray, stops: list[np.ndarray], rng: np.random.Generator,
               n_in: int, n_out: int) -> list[HandPose]:
    """Hand poses: in from ``side`` (outside the board), through ``stops`` (board xy), out."""
    far = side * (b.side_mm / 2 + 260) + rng.uniform(-60, 60, 2) * side[::-1]

    def pose(tip_xy: np.ndarray, height: float) -> HandPose:
        back = tip_xy - far
        back_dir = back / max(np.linalg.norm(back), 1e-6)
        wrist = tip_xy - back_dir * 95
        elbow = wrist - back_dir * 230
        return HandPose(np.r_[elbow, height + 120], np.r_[wrist, height + 45], np.r_[tip_xy, height])

    poses = []
    start = far * 1.0
    for k in range(n_in):
        s = (k + 1) / (n_in + 1)
        poses.append(pose(start + (stops[0] - start) * s, 80 - 50 * s))
    for k, p in enumerate(stops):
        poses.append(pose(p, 28.0))
        if k + 1 < len(stops):
            poses.append(pose((p + stops[k + 1]) / 2, 45.0))
    for k in range(n_out):
        s = (k + 1) / (n_out + 1)
        poses.append(pose(stops[-1] + (far - stops[-1]) * s, 30 + 60 * s))
    return poses


class QuoridorGameScene:
    """A whole rendered game, shaped like :class:`vision.synth.scene.Scene`: ``camera``, ``fps``,
    ``num_frames``, ``render_frame(i)`` (random access, deterministic), ``ground_truth()`` and
    ``extra_files()`` — so ``vision.synth.scene.write_scene`` can write it.

    The timeline: a few still frames of the start position; then per move an optional hand
    passing without touching anything (12 %), the hand coming in from the mover's side, picking
    up the pawn (or holding the wall), dropping it, going away, then 4–7 still frames.
    ``record`` replays given moves (e.g. an illegal sequence, judged by nothing) instead of a
    generated game.
    """

    def __init__(self, seed: int, *, players: int | None = None, max_plies: int = 80,
                 size: tuple[int, int] = (1280, 720), fps: float = 10.0,
                 markers: bool | None = None, tilt_deg: float | None = None,
                 record: Sequence[str] | None = None) -> None:
        rng = np.random.default_rng([seed, 4242])
        if players is None:
            players = 2 if rng.random() < 0.7 else 4
        self.seed, self.players, self.fps = seed, players, float(fps)
        self.scene = scene = random_scene(seed, players=players, size=size, markers=markers,
                                          tilt_deg=tilt_deg)
        self.camera = scene.camera
        b = scene.board
        self.moves = list(record) if record is not None else play_game(rng, players, max_plies)
        pawns: list[str | None] = list(QuoridorGame(num_players=players).pawn_squares())
        walls: list[str] = []
        self._frames: list[dict[str, Any]] = []
        self._hands: list[HandPose | None] = []

        def emit(ply: int, hand: HandPose | None = None) -> None:
            n = len(self._frames)
            self._frames.append({"frame": n, "t_s": round(n / fps, 4), "ply": ply,
                                 "pawns": list(pawns), "walls": sorted(walls),
                                 "occluded": scene.hand_covers_board(hand), "hand": hand is not None})
            self._hands.append(hand)

        for _ in range(int(rng.integers(6, 10))):
            emit(0)
        turn = 0
        for ply, text in enumerate(self.moves):
            side = _side_dir(turn, players)
            if rng.random() < 0.12:  # a hand passing over without moving anything
                for hp in _hand_path(b, side, [rng.uniform(-100, 100, 2)], rng, 3, 3):
                    emit(ply, hp)
                for _ in range(int(rng.integers(2, 5))):
                    emit(ply)
            if text[-1] in "hv":
                c = b.wall_centre_mm(*square_coords(text[:-1]))
                path = _hand_path(b, side, [c, c], rng, int(rng.integers(3, 6)), int(rng.integers(3, 6)))
                drop = len(path) // 2
                for k, hp in enumerate(path):
                    if k == drop:
                        walls.append(text)
                    emit(ply if k < drop else ply + 1, hp)
            else:
                src = pawns[turn]
                assert src is not None
                a = b.cell_centre_mm(*square_coords(src))
                c = b.cell_centre_mm(*square_coords(text))
                n_in = int(rng.integers(3, 6))
                path = _hand_path(b, side, [a, c], rng, n_in, int(rng.integers(3, 6)))
                for k, hp in enumerate(path):
                    if k == n_in:
                        pawns[turn] = None
                    if k == n_in + 2:
                        pawns[turn] = text
                    emit(ply if k < n_in + 2 else ply + 1, hp)
            for _ in range(int(rng.integers(4, 8))):
                emit(ply + 1)
            turn = (turn + 1) % players
        self.num_frames = len(self._frames)

    def render_frame(self, index: int) -> np.ndarray:
        f = self._frames[index]
        frame, _ = self.scene.render(f["pawns"], f["walls"], hand=self._hands[index],
                                     rng=np.random.default_rng([self.seed, index, 17]), jpeg=False)
        return frame

    def ground_truth(self) -> dict[str, Any]:
        """``players``, ``moves`` (notation), ``fps``, ``camera``, ``style``, ``board`` and
        ``frames``: per frame ``{"frame", "t_s", "ply", "pawns", "walls", "occluded", "hand"}``;
        ``ply`` counts the moves completed, ``pawns`` are the physical squares (None while a
        pawn is in the hand), ``occluded`` says whether the hand covers the board."""
        return {
            "kind": "quoridor", "seed": self.seed, "players": self.players,
            "moves": list(self.moves), "fps": self.fps, "camera": self.camera.to_dict(),
            "style": self.scene.style.to_dict(), "board": self.scene.board.to_dict(),
            "frames": [dict(f) for f in self._frames],
        }

    def extra_files(self) -> dict[str, str]:
        return {"moves.txt": " ".join(self.moves) + "\n"}


def render_game(seed: int, out_dir: str | Path | None = None, *, players: int | None = None,
                max_plies: int = 80, size: tuple[int, int] = (1280, 720), fps: float = 10.0,
                markers: bool | None = None, tilt_deg: float | None = None,
                record: Sequence[str] | None = None, still_every_ply: bool = False,
                ) -> GameRender:
    """Render a whole game (:class:`QuoridorGameScene`) to ``out_dir/game.mp4`` with
    ``out_dir/truth.json`` (its :meth:`~QuoridorGameScene.ground_truth`) and ``first.png``."""
    game = QuoridorGameScene(seed, players=players, max_plies=max_plies, size=size, fps=fps,
                             markers=markers, tilt_deg=tilt_deg, record=record)
    truth = game.ground_truth()
    out = Path(out_dir) if out_dir is not None else None
    video_path = (out / "game.mp4") if out is not None else Path("game.mp4")
    stills: dict[str, Path] = {}
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        writer = cv2.VideoWriter(str(video_path), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
        if not writer.isOpened():
            raise RuntimeError(f"cannot write {video_path}")
        frames = truth["frames"]
        try:
            for i in range(game.num_frames):
                frame = game.render_frame(i)
                writer.write(frame)
                if i == 0 or (still_every_ply and not frames[i]["hand"] and frames[i - 1]["hand"]):
                    p = out / ("first.png" if i == 0 else f"ply{frames[i]['ply']:03d}.png")
                    cv2.imwrite(str(p), frame)
                    stills[p.stem] = p
        finally:
            writer.release()
        (out / "truth.json").write_text(json.dumps(truth))
    return GameRender(video_path, truth, stills)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--players", type=int, choices=(2, 4))
    ap.add_argument("--max-plies", type=int, default=80)
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=720)
    ap.add_argument("--stills", action="store_true", help="also save a PNG after every move")
    a = ap.parse_args(argv)
    r = render_game(a.seed, a.out, players=a.players, max_plies=a.max_plies,
                    size=(a.width, a.height), still_every_ply=a.stills)
    print(f"{r.video_path}: {len(r.truth['frames'])} frames, {len(r.truth['moves'])} moves: "
          f"{' '.join(r.truth['moves'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
