"""Pinhole camera with OpenCV's lens distortion model, in table millimetres.

World frame: the table, in millimetres, z up towards the camera (for Grimpe: origin at the
centre of the Départ slot, x to the right, y up the wall). The camera frame is OpenCV's: x right,
y down, z forward along the optical axis. ``R_cam_from_world`` and ``t_cam_from_world_mm`` map a
world point ``X`` to ``R @ X + t`` in the camera frame.

The same model serves the synthetic renderer (it makes images whose answer we know) and the
calibration tools (they estimate it from images).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

__all__ = ["LOW_CAMERA_DEG", "CameraModel", "apply_homography", "axis_scale_log_ratio",
           "camera_centre_from_homography", "camera_placement", "default_intrinsics",
           "focal_from_homography", "homography_from_pose", "inverse_3x3", "look_at",
           "plausible_focal"]

#: A camera seen from less than this many degrees above the table, from the route's middle, is
#: told to go higher (:func:`camera_placement`). Measured 2026-12-06 on the 196 rendered
#: oblique climbs of seeds 18900-19398 (the elevation as the referee estimates it from the
#: route, within 0.6 degrees of the truth at the median, 2.6 at the 90th percentile): verdicts
#: right 23/41 below 45 degrees, 28/45 at 45-50, 23/38 at 50-55, 32/42 at 55-60 and 27/30
#: above 60 (top-down cameras, about 75-90 degrees: 217/245).
LOW_CAMERA_DEG = 55.0


def apply_homography(H: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a (3, 3) homography to points (N, 2) → (N, 2) float64; points mapped to infinity
    give NaN."""
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    q = p @ np.asarray(H, np.float64)[:, :2].T + np.asarray(H, np.float64)[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        out = q[:, :2] / q[:, 2:3]
    out[~np.isfinite(out).all(axis=1)] = np.nan
    return out


def inverse_3x3(M: np.ndarray) -> np.ndarray:
    """The inverse of a 3x3 matrix (a homography) from its adjugate (cross products of its
    rows), without LAPACK; :class:`numpy.linalg.LinAlgError` for a singular one. Until
    session 33 the contact stage inverted the route's homography on every processed frame
    (now once per route: :attr:`vision.observations.RouteObservation.H_route_from_image`), and
    ``np.linalg.inv`` woke OpenBLAS's threads each time (2026-12-05, session 32): a 3x3
    inverse took about 1 ms on the 2 cores while another process ran (3 µs with
    ``OPENBLAS_NUM_THREADS=1``), and the threads spun after it. On an idle machine, ``python
    -m vision.bench_speed`` on a 640x480 and a 1280x720 bench clip (seeds 18800 and 18899),
    two rounds run alternately with the tree before: CPU-time ratio (bare MediaPipe /
    referee) 0.56 and 0.55 -> 0.73 and 0.74 at 640x480, 0.60 and 0.58 -> 0.69 and 0.70 at
    1280x720; the tree before with one OpenBLAS thread: 0.72. The wall-time ratio, medians of
    3: 1.01 and 0.99 before, 0.95 and 0.95 after at 640x480 (1.03, 0.99 and 0.94, 0.97 at
    1280x720); single runs spread over 0.88-1.06, so no change of wall time is shown either
    way on an idle machine."""
    M = np.asarray(M, np.float64)
    adj = np.stack([np.cross(M[1], M[2]), np.cross(M[2], M[0]), np.cross(M[0], M[1])], axis=1)
    det = float(np.sum(M[0] * adj[:, 0]))
    if det == 0.0 or not np.isfinite(det):
        raise np.linalg.LinAlgError("singular 3x3 matrix")
    return adj / det


def default_intrinsics(image_wh: tuple[int, int], hfov_deg: float = 60.0,
                       focal_px: float | None = None) -> np.ndarray:
    """(3, 3) camera matrix of an uncalibrated camera: a ``hfov_deg`` horizontal field of
    view (or the focal length ``focal_px`` when known), square pixels, the principal point at
    the image's centre."""
    w, h = image_wh
    f = (w / 2) / np.tan(np.radians(hfov_deg) / 2) if focal_px is None else float(focal_px)
    return np.array([[f, 0, (w - 1) / 2], [0, f, (h - 1) / 2], [0, 0, 1.0]])


def focal_from_homography(H: np.ndarray, principal_px: np.ndarray) -> float | None:
    """The focal length (px) of a camera seeing a plane through the homography ``H`` (plane
    -> image), by Zhang's closed form (square pixels, the principal point ``principal_px``
    known); None when the view does not tell it (a camera looking straight at the plane)."""
    C = np.array([[1, 0, -principal_px[0]], [0, 1, -principal_px[1]], [0, 0, 1.0]])
    Hc = C @ np.asarray(H, np.float64)
    h1, h2 = Hc[:, 0], Hc[:, 1]
    a1, b1 = h1[0] * h2[0] + h1[1] * h2[1], h1[2] * h2[2]
    a2, b2 = h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2, h1[2] ** 2 - h2[2] ** 2
    den = a1 * a1 + a2 * a2
    if den <= 0:
        return None
    x = -(a1 * b1 + a2 * b2) / den
    if x <= 0:
        return None
    return float(1 / np.sqrt(x))


def plausible_focal(H: np.ndarray, image_wh: tuple[int, int], hfov_deg: float = 60.0) -> float | None:
    """:func:`focal_from_homography` with the principal point at the image's centre, kept only
    within half to twice the focal length of a ``hfov_deg`` field of view (a camera looking
    nearly straight down does not tell it: the closed form then gives anything)."""
    K0 = default_intrinsics(image_wh, hfov_deg)
    f = focal_from_homography(H, K0[:2, 2])
    return f if f is not None and 0.5 * K0[0, 0] < f < 2.0 * K0[0, 0] else None


def axis_scale_log_ratio(H_image_from_plane: np.ndarray, K: np.ndarray) -> float:
    """How far the homography plane -> image is from any camera with intrinsics ``K``: a
    camera's homography is ``K [r1 r2 t]`` up to scale, with ``r1``, ``r2`` of equal length, so
    ``|log(|c1| / |c2|)|`` of the first two columns of ``K^-1 H`` is 0 for it. A homography fitted
    on too few points, or on points nearly on a line, is free to stretch one axis of the
    plane: it gives a large value (inf for a degenerate one)."""
    B = np.linalg.solve(np.asarray(K, np.float64), np.asarray(H_image_from_plane, np.float64))
    a, b = float(np.linalg.norm(B[:, 0])), float(np.linalg.norm(B[:, 1]))
    if not (a > 0 and b > 0 and np.isfinite(a) and np.isfinite(b)):
        return float("inf")
    return abs(float(np.log(a / b)))


def homography_from_pose(plane_pts: np.ndarray, image_px: np.ndarray, K: np.ndarray) -> np.ndarray | None:
    """The homography plane -> image of a camera with intrinsics ``K`` (no distortion) posed
    to see the plane points ``plane_pts`` ((N, 2), N >= 4) at ``image_px``: six numbers (the
    pose) fitted instead of a homography's eight, so it cannot stretch the plane's axes the way
    no camera does. None when the pose cannot be solved."""
    P = np.asarray(plane_pts, np.float64).reshape(-1, 2)
    Q = np.asarray(image_px, np.float64).reshape(-1, 2)
    if len(P) < 4 or len(Q) != len(P):
        return None
    obj = np.column_stack([P, np.zeros(len(P))])
    try:
        ok, rvec, tvec = cv2.solvePnP(obj, Q, np.asarray(K, np.float64), None, flags=cv2.SOLVEPNP_IPPE)
    except cv2.error:
        return None
    if not ok:
        return None
    R, _ = cv2.Rodrigues(rvec)
    H = np.asarray(K, np.float64) @ np.column_stack([R[:, 0], R[:, 1], tvec.ravel()])
    return H / H[2, 2] if abs(H[2, 2]) > 1e-12 and np.isfinite(H).all() else None


def camera_placement(eye_mm: np.ndarray, centre_mm: np.ndarray) -> dict[str, Any]:
    """Where the camera is seen from the route: ``eye_mm`` (3,) the camera's centre in the
    route's mm (:func:`camera_centre_from_homography`), ``centre_mm`` (2,) the route's middle.
    ``{"height_mm", "distance_mm" (along the table), "elevation_deg" (0: level with the table,
    90: straight above), "low" (below :data:`LOW_CAMERA_DEG`)}``."""
    eye = np.asarray(eye_mm, np.float64).ravel()
    if eye.shape != (3,) or not np.isfinite(eye).all():
        raise ValueError(f"eye_mm must be 3 finite numbers, got {eye_mm!r}")
    d = float(np.linalg.norm(eye[:2] - np.asarray(centre_mm, np.float64).ravel()[:2]))
    elevation = float(np.degrees(np.arctan2(abs(eye[2]), d)))
    return {"height_mm": round(abs(float(eye[2])), 1), "distance_mm": round(d, 1),
            "elevation_deg": round(elevation, 1), "low": elevation < LOW_CAMERA_DEG}


def camera_centre_from_homography(H_image_from_plane: np.ndarray, image_wh: tuple[int, int], *,
                                  hfov_deg: float = 60.0, min_tilt_deg: float = 20.0
                                  ) -> np.ndarray | None:
    """Where the camera is, (3,) in the plane's frame (its units; z: its height above the
    plane, > 0), from the homography plane -> image alone: the principal point at the image's
    centre, square pixels, no distortion. The focal length is :func:`focal_from_homography`'s
    when the camera looks at the plane at least ``min_tilt_deg`` from straight on (and the
    answer lies within half to twice the default), else that of a ``hfov_deg`` horizontal field
    of view: a camera looking straight down cannot tell it, and there its position matters
    little. None for a degenerate homography."""
    H = np.asarray(H_image_from_plane, np.float64)
    if H.shape != (3, 3) or not np.isfinite(H).all():
        return None
    K0 = default_intrinsics(image_wh, hfov_deg)
    f_default = float(K0[0, 0])

    def pose(f: float) -> tuple[np.ndarray, float] | None:
        B = np.linalg.solve(default_intrinsics(image_wh, focal_px=f), H)
        # H is known up to its scale, sign included: the plane's origin lies in front of the
        # camera (t_z > 0)
        n = float(np.linalg.norm(B[:, 0])) * (1.0 if B[2, 2] >= 0 else -1.0)
        if n == 0:
            return None
        r1, r2, t = B[:, 0] / n, B[:, 1] / n, B[:, 2] / n
        U, _, Vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
        R = U @ Vt
        c = -R.T @ t
        # a plane frame mirrored against the camera's (x, y, z not right-handed) puts the camera
        # below the plane: its place over the plane is the same
        c[2] = abs(c[2])
        tilt = float(np.degrees(np.arccos(min(1.0, abs(R[2, 2])))))
        return c, tilt

    first = pose(f_default)
    if first is None:
        return None
    c, tilt = first
    f = plausible_focal(H, image_wh, hfov_deg) if tilt >= min_tilt_deg else None
    if f is not None:
        better = pose(f)
        if better is not None:
            c = better[0]
    return c if np.isfinite(c).all() and c[2] > 0 else None


def _as_f64(a: object, shape: tuple[int, ...], name: str) -> np.ndarray:
    arr = np.asarray(a, dtype=np.float64)
    if arr.shape != shape:
        raise ValueError(f"{name}: expected shape {shape}, got {arr.shape}")
    return arr


@dataclass
class CameraModel:
    """A calibrated camera.

    Attributes:
        image_size: (width, height) in pixels.
        K: (3, 3) intrinsic matrix in pixels.
        dist: (5,) OpenCV distortion coefficients ``k1, k2, p1, p2, k3``.
        R_cam_from_world: (3, 3) rotation.
        t_cam_from_world_mm: (3,) translation in millimetres.
    """

    image_size: tuple[int, int]
    K: np.ndarray
    dist: np.ndarray = field(default_factory=lambda: np.zeros(5))
    R_cam_from_world: np.ndarray = field(default_factory=lambda: np.eye(3))
    t_cam_from_world_mm: np.ndarray = field(default_factory=lambda: np.zeros(3))

    def __post_init__(self) -> None:
        w, h = (int(v) for v in self.image_size)
        if w <= 0 or h <= 0:
            raise ValueError(f"image_size: expected positive (width, height), got {self.image_size}")
        self.image_size = (w, h)
        self.K = _as_f64(self.K, (3, 3), "K")
        dist = np.asarray(self.dist, dtype=np.float64).ravel()
        if dist.size not in (4, 5, 8):
            raise ValueError(f"dist: expected 4, 5 or 8 coefficients, got {dist.size}")
        self.dist = np.pad(dist, (0, 5 - dist.size)) if dist.size < 5 else dist
        self.R_cam_from_world = _as_f64(self.R_cam_from_world, (3, 3), "R_cam_from_world")
        self.t_cam_from_world_mm = _as_f64(self.t_cam_from_world_mm, (3,), "t_cam_from_world_mm")
        self._plane_maps: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}

    # -- convenience -------------------------------------------------------------
    @property
    def fx(self) -> float:
        return float(self.K[0, 0])

    @property
    def fy(self) -> float:
        return float(self.K[1, 1])

    @property
    def cx(self) -> float:
        return float(self.K[0, 2])

    @property
    def cy(self) -> float:
        return float(self.K[1, 2])

    @property
    def rvec(self) -> np.ndarray:
        return cv2.Rodrigues(self.R_cam_from_world)[0].ravel()

    @property
    def centre_world_mm(self) -> np.ndarray:
        """Camera centre in world millimetres."""
        return -self.R_cam_from_world.T @ self.t_cam_from_world_mm

    # -- projection ----------------------------------------------------------------
    def project(self, points_world_mm: np.ndarray) -> np.ndarray:
        """World points (N, 3) or (N, 2) on the table (z = 0) → distorted image pixels (N, 2)."""
        pts = np.asarray(points_world_mm, dtype=np.float64)
        if pts.ndim == 1:
            pts = pts[None]
        if pts.shape[1] == 2:
            pts = np.column_stack([pts, np.zeros(len(pts))])
        if pts.shape[1] != 3:
            raise ValueError(f"points_world_mm: expected (N, 2) or (N, 3), got {pts.shape}")
        if len(pts) == 0:
            return np.zeros((0, 2))
        img, _ = cv2.projectPoints(pts, self.rvec, self.t_cam_from_world_mm, self.K, self.dist)
        return img.reshape(-1, 2)

    def depth_mm(self, points_world_mm: np.ndarray) -> np.ndarray:
        """Distance along the optical axis (N,) of world points (N, 3); > 0 in front."""
        pts = np.asarray(points_world_mm, dtype=np.float64).reshape(-1, 3)
        return (pts @ self.R_cam_from_world.T + self.t_cam_from_world_mm)[:, 2]

    def undistort_px(self, pixels: np.ndarray) -> np.ndarray:
        """Distorted pixels (N, 2) → normalised image coordinates (N, 2) (x/z, y/z)."""
        px = np.asarray(pixels, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.undistortPointsIter(
            px, self.K, self.dist, None, None,
            (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-10),
        ).reshape(-1, 2)

    def pixels_to_plane(self, pixels: np.ndarray, z_mm: float = 0.0) -> np.ndarray:
        """Distorted pixels (N, 2) → world points (N, 2) on the plane z = ``z_mm``.

        Rays that miss the plane (parallel or behind the camera) give NaN.
        """
        xy = self.undistort_px(pixels)
        rays_cam = np.column_stack([xy, np.ones(len(xy))])
        rays_world = rays_cam @ self.R_cam_from_world  # R^T @ ray for each row
        c = self.centre_world_mm
        with np.errstate(divide="ignore", invalid="ignore"):
            s = (z_mm - c[2]) / rays_world[:, 2]
        s = np.where(s > 0, s, np.nan)
        return c[:2] + s[:, None] * rays_world[:, :2]

    def H_image_from_table(self) -> np.ndarray:
        """(3, 3) homography from table millimetres (z = 0) to *undistorted* pixels."""
        R, t = self.R_cam_from_world, self.t_cam_from_world_mm
        H = self.K @ np.column_stack([R[:, 0], R[:, 1], t])
        return H / H[2, 2]

    # -- rendering -----------------------------------------------------------------
    def plane_maps(
        self, px_per_mm: float, origin_mm: tuple[float, float], z_mm: float = 0.0
    ) -> tuple[np.ndarray, np.ndarray]:
        """Remap tables for :meth:`render_plane` (cached per arguments).

        ``origin_mm`` is the world (x, y) of the texture's top-left pixel centre; texture columns
        grow with x, rows grow with −y (so "up the wall" is up in the texture).
        """
        key = (round(float(px_per_mm), 9), float(origin_mm[0]), float(origin_mm[1]), float(z_mm))
        maps = self._plane_maps.get(key)
        if maps is None:
            w, h = self.image_size
            u, v = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
            xy = self.pixels_to_plane(np.column_stack([u.ravel(), v.ravel()]), z_mm)
            map_x = ((xy[:, 0] - origin_mm[0]) * px_per_mm).reshape(h, w)
            map_y = ((origin_mm[1] - xy[:, 1]) * px_per_mm).reshape(h, w)
            maps = (
                np.nan_to_num(map_x, nan=-1e6).astype(np.float32),
                np.nan_to_num(map_y, nan=-1e6).astype(np.float32),
            )
            self._plane_maps[key] = maps
        return maps

    def render_plane(
        self,
        texture: np.ndarray,
        px_per_mm: float,
        origin_mm: tuple[float, float],
        *,
        z_mm: float = 0.0,
        border_value: tuple[int, ...] | int = 0,
    ) -> np.ndarray:
        """Image of a flat texture lying on the plane z = ``z_mm`` as this camera sees it.

        The texture should have at least as many pixels per millimetre as the image has where
        the table is nearest (render it finer and let this downsample, to avoid aliasing).
        """
        map_x, map_y = self.plane_maps(px_per_mm, origin_mm, z_mm)
        return cv2.remap(
            texture, map_x, map_y, cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT, borderValue=border_value,
        )

    # -- serialisation -----------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "image_size": list(self.image_size),
            "K": self.K.tolist(),
            "dist": self.dist.tolist(),
            "R_cam_from_world": self.R_cam_from_world.tolist(),
            "t_cam_from_world_mm": self.t_cam_from_world_mm.tolist(),
        }

    @classmethod
    def from_dict(cls, d: dict) -> "CameraModel":
        try:
            return cls(
                image_size=tuple(d["image_size"]),
                K=d["K"],
                dist=d.get("dist", [0, 0, 0, 0, 0]),
                R_cam_from_world=d.get("R_cam_from_world", np.eye(3)),
                t_cam_from_world_mm=d.get("t_cam_from_world_mm", np.zeros(3)),
            )
        except KeyError as exc:
            raise ValueError(f"camera: missing key {exc.args[0]!r}") from None


def look_at(
    image_size: tuple[int, int],
    eye_mm: tuple[float, float, float],
    target_mm: tuple[float, float, float],
    *,
    hfov_deg: float = 60.0,
    up_world: tuple[float, float, float] = (0.0, 1.0, 0.0),
    dist: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0),
    principal_offset_px: tuple[float, float] = (0.0, 0.0),
    aspect: float = 1.0,
) -> CameraModel:
    """A camera at ``eye_mm`` looking at ``target_mm``; ``up_world`` shows as "up" in the image.

    ``hfov_deg`` is the horizontal field of view; ``aspect`` = fy / fx.
    """
    w, h = image_size
    eye = np.asarray(eye_mm, dtype=np.float64)
    fwd = np.asarray(target_mm, dtype=np.float64) - eye
    fwd /= np.linalg.norm(fwd)
    up = np.asarray(up_world, dtype=np.float64)
    right = np.cross(fwd, up)
    if np.linalg.norm(right) < 1e-9:
        raise ValueError("look_at: up_world is parallel to the viewing direction")
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    R = np.stack([right, down, fwd])  # rows: camera axes in world coordinates
    t = -R @ eye
    fx = (w / 2.0) / np.tan(np.radians(hfov_deg) / 2.0)
    K = np.array(
        [
            [fx, 0.0, (w - 1) / 2.0 + principal_offset_px[0]],
            [0.0, fx * aspect, (h - 1) / 2.0 + principal_offset_px[1]],
            [0.0, 0.0, 1.0],
        ]
    )
    return CameraModel((w, h), K, np.asarray(dist, dtype=np.float64), R, t)
