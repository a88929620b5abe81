"""Synthetic calibration images whose answer is known, made with ``vision.camera.CameraModel``.

A board texture is rendered through a camera with known intrinsics and distortion from many
poses (tilted up to ~45°, spread over the image), 2x supersampled, then blurred and noised like
a webcam. Tests and ``python -m calibration.bench`` measure the calibration against the truth.

Frames: the board frame is OpenCV's (x right, y down the board, z into the board); the
render frame (``CameraModel``'s "world") is the same plane seen from the front, so
``world = F @ board`` with ``F = diag(1, -1, -1)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.patterns import Pattern
from vision.camera import CameraModel, look_at

__all__ = ["SyntheticCamera", "board_texture", "board_poses", "render_board_views",
           "default_camera", "F_world_from_board", "table_scene",
           "colour_card_scene"]

F_world_from_board = np.diag([1.0, -1.0, -1.0])


def default_camera(image_size: tuple[int, int] = (1280, 720), *, hfov_deg: float = 70.0,
                   dist: tuple[float, ...] = (-0.28, 0.09, 0.0008, -0.0006, 0.0),
                   principal_offset_px: tuple[float, float] = (14.0, -9.0)) -> CameraModel:
    """A webcam-like camera (barrel distortion, principal point off-centre) at the origin."""
    cam = look_at(image_size, (0, 0, 0), (0, 0, 1), hfov_deg=hfov_deg, dist=dist,
                  principal_offset_px=principal_offset_px, up_world=(0, -1, 0))
    return CameraModel(cam.image_size, cam.K, cam.dist)


def board_texture(pattern: Pattern, px_per_mm: float, margin_mm: float = 10.0
                  ) -> tuple[np.ndarray, float, tuple[float, float]]:
    """White-margined board image (8-bit grey), its exact px/mm and ``origin_mm`` (render frame)."""
    w_mm, h_mm = pattern.size_mm
    if pattern.kind == "charuco":
        sq_px = int(round(pattern.square_mm * px_per_mm))
        board = pattern.board().generateImage((pattern.cols * sq_px, pattern.rows * sq_px),
                                              marginSize=0, borderBits=1)
    else:
        sq_px = int(round(pattern.square_mm * px_per_mm))
        nx, ny = pattern.cols + 1, pattern.rows + 1
        cells = ((np.add.outer(np.arange(ny), np.arange(nx)) % 2) == 0).astype(np.uint8) * 255
        cells = 255 - cells  # top-left square black, as printed boards usually are
        board = np.kron(cells, np.ones((sq_px, sq_px), np.uint8))
    ppm = sq_px / pattern.square_mm
    m = int(round(margin_mm * ppm))
    tex = cv2.copyMakeBorder(board, m, m, m, m, cv2.BORDER_CONSTANT, value=255)
    # texture pixel (col, row) centre = board ((col - m + 0.5) / ppm, (row - m + 0.5) / ppm)
    origin = (-(m - 0.5) / ppm, (m - 0.5) / ppm)
    return tex, ppm, origin


@dataclass
class SyntheticCamera:
    """Renders planar textures through ``camera`` (intrinsics only) at any pose, fast.

    The undistorted ray of every (supersampled) pixel is computed once; each pose then costs
    one ray-plane intersection and a remap.
    """

    camera: CameraModel
    supersample: int = 2

    def __post_init__(self) -> None:
        s = self.supersample
        w, h = self.camera.image_size
        K2 = self.camera.K.copy()
        K2[:2] *= s
        K2[0, 2] = s * self.camera.cx + (s - 1) / 2.0
        K2[1, 2] = s * self.camera.cy + (s - 1) / 2.0
        big = CameraModel((w * s, h * s), K2, self.camera.dist)
        u, v = np.meshgrid(np.arange(w * s, dtype=np.float64), np.arange(h * s, dtype=np.float64))
        xy = big.undistort_px(np.column_stack([u.ravel(), v.ravel()]))
        self._rays = np.column_stack([xy, np.ones(len(xy))])
        self._big_size = (w * s, h * s)

    def pose_camera(self, R_cam_from_board: np.ndarray, t_cam_from_board_mm: np.ndarray
                    ) -> CameraModel:
        """The true camera (with extrinsics in the render frame) for a board pose."""
        R = np.asarray(R_cam_from_board) @ F_world_from_board
        return CameraModel(self.camera.image_size, self.camera.K, self.camera.dist, R,
                           np.asarray(t_cam_from_board_mm, dtype=np.float64))

    def render(self, texture: np.ndarray, px_per_mm: float, origin_mm: tuple[float, float],
               R_cam_from_world: np.ndarray, t_cam_from_world_mm: np.ndarray,
               background: int | tuple[int, ...] = 128) -> np.ndarray:
        """Image (camera size) of ``texture`` lying on the world plane z = 0."""
        R = np.asarray(R_cam_from_world, dtype=np.float64)
        t = np.asarray(t_cam_from_world_mm, dtype=np.float64)
        rays_world = self._rays @ R
        c = -R.T @ t
        with np.errstate(divide="ignore", invalid="ignore"):
            s = -c[2] / rays_world[:, 2]
        s = np.where(s > 0, s, np.nan)
        x = c[0] + s * rays_world[:, 0]
        y = c[1] + s * rays_world[:, 1]
        W, H = self._big_size
        map_x = np.nan_to_num((x - origin_mm[0]) * px_per_mm, nan=-1e6).reshape(H, W)
        map_y = np.nan_to_num((origin_mm[1] - y) * px_per_mm, nan=-1e6).reshape(H, W)
        big = cv2.remap(texture, map_x.astype(np.float32), map_y.astype(np.float32),
                        cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=background)
        return cv2.resize(big, self.camera.image_size, interpolation=cv2.INTER_AREA)


def _rotation(axis: np.ndarray, angle_rad: float) -> np.ndarray:
    return cv2.Rodrigues(np.asarray(axis, dtype=np.float64) * angle_rad)[0]


def board_poses(camera: CameraModel, pattern: Pattern, n: int, rng: np.random.Generator, *,
                region: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0),
                max_tilt_deg: float = 45.0, fill: tuple[float, float] = (0.35, 0.6),
                whole_board: bool = True, max_tries: int = 400
                ) -> list[tuple[np.ndarray, np.ndarray]]:
    """``n`` board poses (R_cam_from_board, t_cam_from_board_mm) seen by ``camera``.

    The board centre lands in ``region`` (x0, y0, x1, y1 as fractions of the image), stratified
    over a 3x3 grid of that region so views reach its corners; ``fill`` is the board's width
    as a fraction of the image width; the board is tilted by up to ``max_tilt_deg`` about a
    random in-plane axis and rolled freely. With ``whole_board`` every pattern corner is inside
    the image (needed for a chessboard).
    """
    w, h = camera.image_size
    bw, bh = pattern.size_mm
    centre = np.array([bw / 2, bh / 2, 0.0])
    outer = np.array([[0, 0, 0], [bw, 0, 0], [bw, bh, 0], [0, bh, 0]], dtype=np.float64)
    poses: list[tuple[np.ndarray, np.ndarray]] = []
    x0, y0, x1, y1 = region
    k = 0
    tries = 0
    while len(poses) < n:
        tries += 1
        if tries > max_tries * max(n, 1):
            raise RuntimeError("board_poses: could not place the board; widen region or fill")
        cell = (k + tries // 300) % 9  # a cell where the board cannot fit is skipped in time
        fx_ = (cell % 3 + rng.uniform(0.0, 1.0)) / 3.0
        fy_ = (cell // 3 + rng.uniform(0.0, 1.0)) / 3.0
        u = (x0 + (x1 - x0) * fx_) * (w - 1)
        v = (y0 + (y1 - y0) * fy_) * (h - 1)
        ray = np.append(camera.undistort_px(np.array([[u, v]]))[0], 1.0)
        ray /= np.linalg.norm(ray)
        frac = rng.uniform(*fill)
        D = camera.fx * bw / (frac * w)
        axis = np.array([np.cos(a := rng.uniform(0, 2 * np.pi)), np.sin(a), 0.0])
        tilt = np.radians(rng.uniform(0.3, 1.0) * max_tilt_deg)
        R = _rotation(axis, tilt) @ _rotation(np.array([0, 0, 1.0]), rng.uniform(-np.pi, np.pi))
        normal = R @ np.array([0, 0, 1.0])
        if np.degrees(np.arccos(abs(normal @ ray))) > 60:
            continue
        t = D * ray - R @ centre
        cam_pts = outer @ R.T + t
        if (cam_pts[:, 2] < 50).any():
            continue
        px, _ = cv2.projectPoints(outer, cv2.Rodrigues(R)[0], t, camera.K, camera.dist)
        px = px.reshape(-1, 2)
        if whole_board:
            if (px[:, 0] < 4).any() or (px[:, 0] > w - 5).any() or (px[:, 1] < 4).any() or \
                    (px[:, 1] > h - 5).any():
                continue
        poses.append((R, t))
        k += 1
    return poses


def render_board_views(pattern: Pattern, camera: CameraModel, n: int, *, seed: int = 0,
                       region: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0),
                       fill: tuple[float, float] = (0.35, 0.6), max_tilt_deg: float = 45.0,
                       blur_sigma_px: float = 0.6, noise_sigma: float = 2.0,
                       texture_px_per_mm: float | None = None, synth: SyntheticCamera | None = None
                       ) -> tuple[list[np.ndarray], list[tuple[np.ndarray, np.ndarray]]]:
    """``n`` grey 8-bit views of ``pattern`` and their true poses (R_cam_from_board, t_mm)."""
    rng = np.random.default_rng(seed)
    synth = synth or SyntheticCamera(camera)
    poses = board_poses(camera, pattern, n, rng, region=region, fill=fill,
                        max_tilt_deg=max_tilt_deg, whole_board=pattern.kind == "chessboard")
    if texture_px_per_mm is None:
        # about 3 texture pixels per supersampled image pixel where the board is nearest
        texture_px_per_mm = min(12.0, 3.0 * 2 * camera.image_size[0] * fill[1] / pattern.size_mm[0])
    tex, ppm, origin = board_texture(pattern, texture_px_per_mm)
    tex = cv2.GaussianBlur(tex, (0, 0), 0.5)
    images = []
    for R, t in poses:
        cam = synth.pose_camera(R, t)
        img = synth.render(tex, ppm, origin, cam.R_cam_from_world, cam.t_cam_from_world_mm,
                           background=int(rng.integers(60, 200)))
        img = img.astype(np.float32)
        if blur_sigma_px > 0:
            img = cv2.GaussianBlur(img, (0, 0), blur_sigma_px)
        gain = rng.uniform(0.75, 1.0)
        img = 20 + img * gain * (215 / 255) + rng.normal(0, noise_sigma, img.shape)
        images.append(np.clip(img, 0, 255).astype(np.uint8))
    return images, poses


def table_scene(lens_camera: CameraModel, layout: dict, *, eye_mm: tuple[float, float, float],
                target_mm: tuple[float, float, float], seed: int = 0, px_per_mm: float = 3.0,
                blur_sigma_px: float = 0.6, noise_sigma: float = 2.0,
                synth: SyntheticCamera | None = None) -> tuple[np.ndarray, CameraModel]:
    """A BGR photo of a table with the four corner markers (``targets.marker_layout`` dict).

    The camera has ``lens_camera``'s intrinsics, sits at ``eye_mm`` (table mm, z up) and looks
    at ``target_mm``; returns the image and the true posed camera.
    """
    from calibration.patterns import aruco_dictionary

    rng = np.random.default_rng(seed)
    pose = look_at(lens_camera.image_size, eye_mm, target_mm)
    cam = CameraModel(lens_camera.image_size, lens_camera.K, lens_camera.dist,
                      pose.R_cam_from_world, pose.t_cam_from_world_mm)
    all_c = np.concatenate([np.asarray(m["corners_mm"]) for m in layout["markers"]])
    x0, y0 = all_c.min(axis=0) - 250
    x1, y1 = all_c.max(axis=0) + 250
    W, H = int((x1 - x0) * px_per_mm), int((y1 - y0) * px_per_mm)
    # a wood-like table: low-frequency colour variation and grain along x
    base = np.array([70, 110, 150], np.float32)
    low = cv2.resize(rng.normal(0, 12, (max(2, H // 200), max(2, W // 200))).astype(np.float32),
                     (W, H), interpolation=cv2.INTER_CUBIC)
    grain = cv2.resize(rng.normal(0, 8, (max(2, H // 3), max(2, W // 60))).astype(np.float32),
                       (W, H), interpolation=cv2.INTER_LINEAR)
    tex = np.clip(base[None, None] + (low + grain)[..., None], 0, 255).astype(np.uint8)
    d = aruco_dictionary(layout["dictionary"])
    s_mm = float(layout["marker_size_mm"])
    s_px = int(round(s_mm * px_per_mm))
    for m in layout["markers"]:
        tl = np.asarray(m["corners_mm"])[0]
        col, row = (tl[0] - x0) * px_per_mm, (y1 - tl[1]) * px_per_mm
        q = int(12 * px_per_mm)
        c0, r0 = int(round(col)), int(round(row))
        tex[r0 - q:r0 + s_px + q, c0 - q:c0 + s_px + q] = (235, 240, 242)
        n = d.markerSize + 2
        bits = cv2.aruco.generateImageMarker(d, int(m["id"]), n, borderBits=1)
        mark = cv2.resize(bits, (s_px, s_px), interpolation=cv2.INTER_NEAREST)
        mark = np.where(mark[..., None] > 128, np.array([235, 240, 242], np.uint8),
                        np.array([25, 25, 25], np.uint8))
        tex[r0:r0 + s_px, c0:c0 + s_px] = mark
    # texture pixel (c, r) centre is at x0 + (c + 0.5) / ppm, y1 - (r + 0.5) / ppm; the marker
    # pasted at round(col) starts at that pixel's left edge = exactly tl when col is integral
    origin = (x0 + 0.5 / px_per_mm, y1 - 0.5 / px_per_mm)
    synth = synth or SyntheticCamera(lens_camera)
    img = synth.render(tex, px_per_mm, origin, cam.R_cam_from_world, cam.t_cam_from_world_mm,
                       background=(30, 30, 30)).astype(np.float32)
    if blur_sigma_px > 0:
        img = cv2.GaussianBlur(img, (0, 0), blur_sigma_px)
    img += rng.normal(0, noise_sigma, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8), cam


def colour_card_scene(lens_camera: CameraModel, *, light_bgr: tuple[float, float, float] =
                      (1.0, 1.0, 1.0), seed: int = 0, noise_sigma: float = 2.0,
                      synth: SyntheticCamera | None = None) -> np.ndarray:
    """A BGR photo of the printed colour card lying on a grey table under a tinted light.

    ``light_bgr`` multiplies each channel (e.g. (0.6, 0.8, 1.0) is warm light; 0.15 dims it).
    """
    from calibration.targets import colour_card_page

    rng = np.random.default_rng(seed)
    page, (cx, cy) = colour_card_page()
    ppm = 8.0
    sheet = page.raster(int(round(ppm * 25.4)))
    # print the sheet's inks a little less saturated than the screen values, as paper does
    sheet = (sheet.astype(np.float32) * 0.85 + 20).astype(np.uint8)
    table = np.full((int(400 * ppm), int(400 * ppm), 3), 110, np.uint8)
    oy, ox = int(80 * ppm), int(95 * ppm)
    h = min(sheet.shape[0], table.shape[0] - oy)
    table[oy:oy + h, ox:ox + sheet.shape[1]] = sheet[:h]
    # table frame: card top-left at (0, 0) mm, y up; camera above the card centre
    x_card0 = -(ox + cx * ppm) / ppm
    y_card0 = (oy + cy * ppm) / ppm
    origin = (x_card0 + 0.5 / ppm, y_card0 - 0.5 / ppm)
    pose = look_at(lens_camera.image_size, (100, -120, 420), (90, -45, 0))
    synth = synth or SyntheticCamera(lens_camera)
    img = synth.render(table, ppm, origin, pose.R_cam_from_world, pose.t_cam_from_world_mm,
                       background=(60, 60, 60)).astype(np.float32)
    img *= np.asarray(light_bgr, np.float32)[None, None]
    img += rng.normal(0, noise_sigma, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)
