"""Lens calibration (intrinsics and distortion) with an honest report.

A low RMS alone does not prove a calibration is good (see tech-notes "Camera calibration"), so
besides the fit this module reports, for every result:

- per-view RMS errors, with outlier views named and left out of the final fit;
- the parameters' 1-sigma uncertainty from the solver's covariance
  (``cv2.calibrateCameraExtended``);
- a split-half cross-validation: the views are split in two, each half is calibrated alone,
  and the two lenses are compared where the board was seen (and, for information, over the
  whole image), after the best common rotation (which any later pose estimate absorbs) — the
  pixel difference is what changing the input images would change;
- coverage of the image by the detected corners (score, covered cells, image corners reached);
- blur of the views (edge width in pixels) and the tilt of the board;
- a VERDICT (accept / reject with reasons) and concrete ADVICE.

Acceptance bar (after OpenCV's interactive calibration and mrcal's advice): at least 10 views,
RMS < 0.5 px (warn above 0.3), 1.96 sigma of f and c under 5 % (f) / 2 % of the image size
(c), coverage score > 1.0 and 70 % of a 10x10 grid reached, every image corner reached,
split-half difference < 1 px (95th percentile where the board was seen), some view tilted by
20 degrees or more, median edge blur < 2.5 px.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.file import LENS_PARAM_NAMES, Lens
from calibration.patterns import Detection, Pattern

__all__ = [
    "IMAGE_EXTENSIONS",
    "VIDEO_EXTENSIONS",
    "Thresholds",
    "View",
    "IntrinsicsReport",
    "load_views",
    "detect_views",
    "calibrate_views",
    "calibrate_intrinsics",
    "coverage_grid",
    "write_coverage_png",
    "edge_blur_px",
    "compare_lenses_px",
    "seen_grid_points",
    "capture_views",
]

IMAGE_EXTENSIONS = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp", ".pgm", ".ppm"}
VIDEO_EXTENSIONS = {".mp4", ".avi", ".mkv", ".mov", ".webm", ".m4v", ".mpg", ".mpeg"}


@dataclass(frozen=True)
class Thresholds:
    """The acceptance bar; every number here is a reason a calibration can be rejected."""

    min_views: int = 10
    max_rms_px: float = 0.5
    warn_rms_px: float = 0.3
    max_rel_f_95: float = 0.05  # 1.96 sigma(f) / f
    max_c_95_frac: float = 0.02  # 1.96 sigma(c) / image size
    # mean/std of corner counts on a 10x10 grid. OpenCV's interactive tool asks 1.8 of its own
    # grid; well-spread synthetic sets of 25-40 views score 1.2-1.7 here, one-corner sets 0.4.
    min_coverage_score: float = 1.0
    min_cells_covered: float = 0.7  # fraction of the 10x10 grid with a corner
    max_cross_validation_px: float = 1.0  # 95th percentile over the image
    max_blur_px: float = 2.5  # median edge blur sigma
    outlier_factor: float = 3.0  # view RMS above factor x median (and > 0.5 px) is an outlier
    min_tilt_deg: float = 20.0  # the most tilted view must reach this


@dataclass
class View:
    """One input image: where it came from and what was found in it."""

    name: str
    image_size: tuple[int, int]
    detection: Detection | None = None
    blur_px: float | None = None
    rejected: str | None = None  # why the view is not used
    rms_px: float | None = None
    tilt_deg: float | None = None


@dataclass
class IntrinsicsReport:
    """The result of a lens calibration, good or bad; ``to_json()`` gives the CLI's JSON."""

    pattern: str
    image_size: tuple[int, int] | None
    views: list[View]
    lens: Lens | None = None
    rms_px: float | None = None
    stddev: dict[str, float] = field(default_factory=dict)
    cross_validation: dict[str, float] | None = None
    coverage: dict[str, Any] = field(default_factory=dict)
    reasons: list[dict[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    advice: list[str] = field(default_factory=list)
    suggested_pattern: str | None = None

    @property
    def accepted(self) -> bool:
        return self.lens is not None and not self.reasons

    @property
    def reason_codes(self) -> list[str]:
        return [r["code"] for r in self.reasons]

    @property
    def views_used(self) -> list[View]:
        return [v for v in self.views if v.rejected is None and v.detection is not None]

    def to_json(self) -> dict[str, Any]:
        ln = self.lens
        used = self.views_used
        return {
            "pattern": self.pattern,
            "image_size": list(self.image_size) if self.image_size else None,
            "rms_px": self.rms_px,
            "fx": ln.fx if ln else None,
            "fy": ln.fy if ln else None,
            "cx": ln.cx if ln else None,
            "cy": ln.cy if ln else None,
            "dist": ln.dist.tolist() if ln else None,
            "stddev": self.stddev,
            "cross_validation": self.cross_validation,
            "coverage": self.coverage,
            "views_used": len(used),
            "views_rejected": [{"name": v.name, "reason": v.rejected} for v in self.views
                               if v.rejected is not None],
            "views": [
                {"name": v.name, "corners": 0 if v.detection is None else len(v.detection.ids),
                 "rms_px": v.rms_px, "tilt_deg": v.tilt_deg, "blur_px": v.blur_px,
                 "used": v in used}
                for v in self.views
            ],
            "verdict": {"status": "accept" if self.accepted else "reject",
                        "reasons": self.reasons, "warnings": self.warnings},
            "advice": self.advice,
            "suggested_pattern": self.suggested_pattern,
        }


# --------------------------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------------------------


def _expand(paths: Sequence[str | os.PathLike]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            files = sorted(f for f in p.iterdir()
                           if f.suffix.lower() in IMAGE_EXTENSIONS | VIDEO_EXTENSIONS)
            if not files:
                raise ValueError(f"{p}: the folder holds no images or videos")
            out.extend(files)
        elif p.exists():
            out.append(p)
        else:
            raise ValueError(f"{p}: no such file or folder")
    return out


def load_views(paths: Sequence[str | os.PathLike], *, max_video_frames: int = 40
               ) -> Iterable[tuple[str, np.ndarray]]:
    """Yield (name, grey image) from image files, folders of them, and videos.

    A video gives up to ``max_video_frames`` frames spread evenly over its length, named
    ``file.mp4#frame``. Raises ValueError for a missing or unreadable input.
    """
    for path in _expand(paths):
        if path.suffix.lower() in VIDEO_EXTENSIONS:
            cap = cv2.VideoCapture(str(path))
            if not cap.isOpened():
                raise ValueError(f"{path}: cannot open the video")
            n = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
            step = max(1, n // max_video_frames) if n > 0 else 1
            idx = 0
            taken = 0
            while taken < max_video_frames:
                ok, frame = cap.read()
                if not ok:
                    break
                if idx % step == 0:
                    taken += 1
                    yield f"{path.name}#{idx}", cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
                idx += 1
            cap.release()
            if taken == 0:
                raise ValueError(f"{path}: the video has no readable frame")
        else:
            img = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
            if img is None:
                raise ValueError(f"{path}: not a readable image (expected one of "
                                 f"{', '.join(sorted(IMAGE_EXTENSIONS))} or a video)")
            yield path.name, img


def capture_views(source: int | str, pattern: Pattern, *, max_views: int = 30,
                  timeout_s: float = 180.0, min_move: float = 0.1,
                  log: Callable[[str], None] | None = None
                  ) -> Iterable[tuple[str, np.ndarray]]:
    """Yield (name, grey frame) from a live camera (index) or a stream, one per new board view.

    A frame is kept when the pattern is found and the board moved by more than ``min_move``
    of the image size, or its apparent size changed by 20 %, since every view kept so far;
    so the user just moves the board around. Stops after ``max_views`` views, ``timeout_s``
    seconds, or at the end of the stream. ``log`` gets one line per view kept.
    """
    import time

    cap = cv2.VideoCapture(source)
    if not cap.isOpened():
        raise ValueError(f"cannot open the camera {source!r}: check the index and that no other "
                         f"program uses it")
    kept: list[tuple[np.ndarray, float]] = []
    start = time.monotonic()
    index = 0
    try:
        while len(kept) < max_views and time.monotonic() - start < timeout_s:
            ok, frame = cap.read()
            if not ok:
                break
            index += 1
            gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
            det = pattern.detect(gray)
            if det is None:
                continue
            h, w = gray.shape[:2]
            centre = det.image_px.mean(axis=0) / [w, h]
            size = float(np.sqrt(cv2.contourArea(cv2.convexHull(det.image_px)) / (w * h)))
            if any(np.linalg.norm(centre - c) < min_move and abs(size / s - 1) < 0.2
                   for c, s in kept):
                continue
            kept.append((centre, size))
            where = ("top" if centre[1] < 1 / 3 else "bottom" if centre[1] > 2 / 3 else
                     "middle") + "-" + ("left" if centre[0] < 1 / 3 else "right"
                                        if centre[0] > 2 / 3 else "centre")
            if log:
                log(f"view {len(kept)}: {len(det.ids)} corners, board at the {where} of the image")
            yield f"camera{source}#{index}", gray
    finally:
        cap.release()


def edge_blur_px(gray: np.ndarray, points_px: np.ndarray) -> float:
    """Blur of the pattern's edges as a Gaussian sigma in pixels (about 0.6-1 when sharp).

    For a step edge of contrast C blurred by sigma, the steepest gradient is
    C / (sigma sqrt(2 pi)); contrast and gradient are taken inside the corners' hull.
    """
    hull = cv2.convexHull(points_px.astype(np.float32)).astype(np.int32)
    mask = np.zeros(gray.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, hull, 255)
    g = gray.astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    sel = mask > 0
    if sel.sum() < 50:
        return float("nan")
    vals = g[sel]
    contrast = float(np.percentile(vals, 95) - np.percentile(vals, 5))
    grad = float(np.percentile(np.hypot(gx, gy)[sel], 99))
    if grad <= 0 or contrast <= 0:
        return float("nan")
    return contrast / (grad * np.sqrt(2 * np.pi))


def detect_views(images: Iterable[tuple[str, np.ndarray]], pattern: Pattern, *,
                 sb: bool = False, progress: Callable[[Iterable], Iterable] | None = None
                 ) -> list[View]:
    """Find the pattern in each (name, grey image); views of another size are rejected."""
    views: list[View] = []
    size: tuple[int, int] | None = None
    it = progress(images) if progress else images
    for name, gray in it:
        h, w = gray.shape[:2]
        view = View(name, (w, h))
        views.append(view)
        if size is None:
            size = (w, h)
        elif (w, h) != size:
            view.rejected = f"image size {w}x{h} differs from the first view's {size[0]}x{size[1]}"
            continue
        det = pattern.detect(gray, sb=sb)
        if det is None:
            view.rejected = "pattern not found"
            continue
        view.detection = det
        view.blur_px = round(edge_blur_px(gray, det.image_px), 3)
    return views


# --------------------------------------------------------------------------------------------
# Fitting
# --------------------------------------------------------------------------------------------


def _calibrate(dets: list[Detection], size: tuple[int, int], flags: int):
    obj = [d.object_mm.reshape(-1, 1, 3).astype(np.float32) for d in dets]
    img = [d.image_px.reshape(-1, 1, 2).astype(np.float32) for d in dets]
    crit = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 100, 1e-12)
    (rms, K, dist, rvecs, tvecs, std_int, _std_ext, per_view) = cv2.calibrateCameraExtended(
        obj, img, size, None, None, flags=flags, criteria=crit)
    return float(rms), K, dist.ravel()[:5], rvecs, tvecs, std_int.ravel(), per_view.ravel()


def _view_rms(det: Detection, K: np.ndarray, dist: np.ndarray, rvec, tvec) -> float:
    p, _ = cv2.projectPoints(det.object_mm.astype(np.float64), rvec, tvec, K, dist)
    return float(np.sqrt(np.mean(np.sum((p.reshape(-1, 2) - det.image_px) ** 2, axis=1))))


def compare_lenses_px(a: Lens, b: Lens, *, compensate_rotation: bool = True,
                      grid: tuple[int, int] = (32, 24), points_px: np.ndarray | None = None
                      ) -> np.ndarray:
    """Pixel distance (N,) between where two lenses put the same rays, over a grid of the image.

    ``points_px`` (N, 2), when given, replaces the grid (e.g. only where the board was seen).
    Rays are taken from lens ``a`` at grid pixels and projected with lens ``b``; with
    ``compensate_rotation`` the best common rotation is removed first (a pose estimate absorbs
    it, so it does not harm measurements made with either lens).
    """
    w, h = a.image_size
    u, v = np.meshgrid(np.linspace(0, w - 1, grid[0]), np.linspace(0, h - 1, grid[1]))
    px = np.column_stack([u.ravel(), v.ravel()]) if points_px is None else \
        np.asarray(points_px, dtype=np.float64).reshape(-1, 2)
    xy_a = cv2.undistortPointsIter(px.reshape(-1, 1, 2), a.K, a.dist, None, None,
                                   (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-10)
                                   ).reshape(-1, 2)
    rays = np.column_stack([xy_a, np.ones(len(xy_a))])
    R = np.eye(3)
    if compensate_rotation:
        xy_b = cv2.undistortPointsIter(px.reshape(-1, 1, 2), b.K, b.dist, None, None,
                                       (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-10)
                                       ).reshape(-1, 2)
        rays_b = np.column_stack([xy_b, np.ones(len(xy_b))])
        A = rays / np.linalg.norm(rays, axis=1, keepdims=True)
        B = rays_b / np.linalg.norm(rays_b, axis=1, keepdims=True)
        U, _, Vt = np.linalg.svd(B.T @ A)
        D = np.diag([1, 1, np.sign(np.linalg.det(U @ Vt))])
        R = U @ D @ Vt  # rotates a's rays onto b's
    proj, _ = cv2.projectPoints(rays @ R.T, np.zeros(3), np.zeros(3), b.K, b.dist)
    return np.linalg.norm(proj.reshape(-1, 2) - px, axis=1)


def seen_grid_points(views: Sequence[View], image_size: tuple[int, int],
                     grid: tuple[int, int] = (32, 24)) -> np.ndarray:
    """Grid points (N, 2) of the image inside the convex hull of all detected corners."""
    pts = [v.detection.image_px for v in views if v.detection is not None]
    w, h = image_size
    u, v = np.meshgrid(np.linspace(0, w - 1, grid[0]), np.linspace(0, h - 1, grid[1]))
    px = np.column_stack([u.ravel(), v.ravel()])
    if not pts:
        return np.zeros((0, 2))
    hull = cv2.convexHull(np.concatenate(pts).astype(np.float32))
    inside = [cv2.pointPolygonTest(hull, (float(x), float(y)), False) >= 0 for x, y in px]
    return px[np.array(inside)]


def coverage_grid(points_px: np.ndarray, image_size: tuple[int, int], cells: int = 10
                  ) -> np.ndarray:
    """Corner counts (cells, cells) on a grid over the image (rows = y)."""
    w, h = image_size
    if len(points_px) == 0:
        return np.zeros((cells, cells), int)
    ix = np.clip((points_px[:, 0] / w * cells).astype(int), 0, cells - 1)
    iy = np.clip((points_px[:, 1] / h * cells).astype(int), 0, cells - 1)
    grid = np.zeros((cells, cells), int)
    np.add.at(grid, (iy, ix), 1)
    return grid


def _coverage(points_px: np.ndarray, size: tuple[int, int]) -> dict[str, Any]:
    grid = coverage_grid(points_px, size, 10)
    mean, std = grid.mean(), grid.std()
    score = float(mean / std) if std > 0 else (float("inf") if mean > 0 else 0.0)
    # image corners: the 2x2-cell squares (20 % of each side) at the four corners
    corners = {
        "top_left": int(grid[:2, :2].sum()), "top_right": int(grid[:2, -2:].sum()),
        "bottom_left": int(grid[-2:, :2].sum()), "bottom_right": int(grid[-2:, -2:].sum()),
    }
    return {"score": round(score, 3) if np.isfinite(score) else 99.0,
            "cells_covered": round(float((grid > 0).mean()), 3),
            "corner_counts": corners, "grid_10x10": grid.tolist()}


def _tilt_deg(rvec: np.ndarray) -> float:
    R = cv2.Rodrigues(rvec)[0]
    return float(np.degrees(np.arccos(np.clip(abs(R[2, 2]), 0, 1))))


def calibrate_views(views: list[View], pattern: Pattern, *, fix_k3: bool = False,
                    thresholds: Thresholds = Thresholds(), cross_validate: bool = True
                    ) -> IntrinsicsReport:
    """Calibrate from detected views and judge the result (see the module docstring)."""
    th = thresholds
    size = next((v.image_size for v in views), None)
    rep = IntrinsicsReport(pattern.spec, size, views)
    good = [v for v in views if v.detection is not None and v.rejected is None]
    if not views:
        rep.reasons.append({"code": "no_input", "message": "no images were given"})
        rep.advice.append("Give a folder of photos or a video of the calibration board.")
        return rep
    if len(good) == 0:
        rep.reasons.append({"code": "pattern_not_found",
                            "message": f"the {pattern.spec} pattern was not found in any of the "
                                       f"{len(views)} images"})
        rep.advice.append(_pattern_advice(pattern))
        return rep
    if len(good) < 3:
        rep.reasons.append({"code": "too_few_views",
                            "message": f"only {len(good)} views with the pattern; at least "
                                       f"{th.min_views} are needed"})
        rep.advice.append(f"Take at least {th.min_views - len(good)} more views (20-40 is good).")
        return rep
    flags = cv2.CALIB_FIX_K3 if fix_k3 else 0
    dets = [v.detection for v in good]
    rms, K, dist, rvecs, tvecs, std, per_view = _calibrate(dets, size, flags)
    # outlier views: refit once without them
    med = float(np.median(per_view))
    bad = [i for i, e in enumerate(per_view) if e > th.outlier_factor * med and e > 0.5]
    if bad and len(good) - len(bad) >= 3:
        for i in bad:
            good[i].rejected = (f"outlier: {per_view[i]:.2f} px RMS, more than "
                                f"{th.outlier_factor:g}x the median {med:.2f} px")
        good = [v for i, v in enumerate(good) if i not in bad]
        dets = [v.detection for v in good]
        rms, K, dist, rvecs, tvecs, std, per_view = _calibrate(dets, size, flags)
    for v, e, rv in zip(good, per_view, rvecs):
        v.rms_px = round(float(e), 4)
        v.tilt_deg = round(_tilt_deg(rv), 1)
    rep.rms_px = rms
    stddev = {n: float(s) for n, s in zip(LENS_PARAM_NAMES, std[:9])}
    if fix_k3:
        stddev["k3"] = 0.0
    rep.stddev = stddev
    quality: dict[str, Any] = {"rms_px": round(rms, 4), "views_used": len(good),
                               "pattern": pattern.spec, "square_mm": pattern.square_mm}
    rep.lens = Lens(size, K, dist, stddev, quality)
    if cross_validate and len(good) >= 8:
        rep.cross_validation = _split_half(dets, size, flags, seen_grid_points(good, size))
    pts = np.concatenate([d.image_px for d in dets])
    rep.coverage = _coverage(pts, size)
    _judge(rep, pattern, th)
    quality.update({"verdict": "accept" if rep.accepted else "reject",
                    "reasons": rep.reason_codes,
                    "coverage_score": rep.coverage["score"],
                    "cross_validation_p95_px": (rep.cross_validation or {}).get("p95_px")})
    return rep


def _split_half(dets: list[Detection], size: tuple[int, int], flags: int,
                seen_px: np.ndarray) -> dict[str, float]:
    """Calibrate even and odd views apart and compare the two lenses (pixels).

    ``*_px`` figures are over the part of the image the corners covered (``seen_px``), where
    the data constrains the lens; ``*_whole_image`` also counts the extrapolated rest.
    """
    halves = [dets[0::2], dets[1::2]]
    lenses = []
    for half in halves:
        _, K, dist, *_ = _calibrate(half, size, flags)
        lenses.append(Lens(size, K, dist))
    pts = seen_px if len(seen_px) >= 10 else None
    d = compare_lenses_px(lenses[0], lenses[1], points_px=pts)
    d_all = compare_lenses_px(lenses[0], lenses[1])
    d_raw = compare_lenses_px(lenses[0], lenses[1], compensate_rotation=False, points_px=pts)
    return {"mean_px": round(float(d.mean()), 4), "p95_px": round(float(np.percentile(d, 95)), 4),
            "max_px": round(float(d.max()), 4),
            "p95_px_whole_image": round(float(np.percentile(d_all, 95)), 4),
            "max_px_whole_image": round(float(d_all.max()), 4),
            "p95_px_without_rotation": round(float(np.percentile(d_raw, 95)), 4),
            "views_per_half": min(len(h) for h in halves)}


_CORNER_WORDS = {"top_left": "top-left", "top_right": "top-right",
                 "bottom_left": "bottom-left", "bottom_right": "bottom-right"}


def _judge(rep: IntrinsicsReport, pattern: Pattern, th: Thresholds) -> None:
    """Fill ``reasons``, ``warnings`` and ``advice`` of a fitted report."""
    used = rep.views_used
    ln = rep.lens
    assert ln is not None
    w, h = ln.image_size
    reasons, advice, warnings = rep.reasons, rep.advice, rep.warnings

    def reason(code: str, message: str) -> None:
        reasons.append({"code": code, "message": message})

    n = len(used)
    if n < th.min_views:
        reason("too_few_views", f"only {n} views used; at least {th.min_views} are needed")
        advice.append(f"Take at least {th.min_views - n} more views (20-40 is good), each with "
                      f"the board in a different place and at a different angle.")
    blur = [v.blur_px for v in used if v.blur_px is not None and np.isfinite(v.blur_px)]
    if blur and float(np.median(blur)) > th.max_blur_px:
        reason("blurred", f"the views are blurred: median edge blur {np.median(blur):.1f} px "
                          f"(limit {th.max_blur_px} px)")
        advice.append("Focus the camera on the board, add light, and hold the board still "
                      "(or lean it against something) when a frame is taken.")
    if rep.rms_px is not None and rep.rms_px > th.max_rms_px:
        reason("high_rms", f"reprojection error {rep.rms_px:.2f} px RMS is above "
                           f"{th.max_rms_px} px")
        advice.append("Check that the board is flat (glue it to card or glass), that "
                      "--square-mm is the measured square size, and remove blurred views.")
    elif rep.rms_px is not None and rep.rms_px > th.warn_rms_px:
        warnings.append(f"reprojection error {rep.rms_px:.2f} px RMS is higher than a sharp, "
                        f"flat board gives (< {th.warn_rms_px} px)")
    cov = rep.coverage
    if cov["score"] < th.min_coverage_score or cov["cells_covered"] < th.min_cells_covered:
        reason("poor_coverage", f"the corners cover the image poorly: coverage score "
                                f"{cov['score']:.2f} (needs > {th.min_coverage_score}), "
                                f"{cov['cells_covered']:.0%} of the image cells reached "
                                f"(needs {th.min_cells_covered:.0%})")
        grid = np.asarray(cov["grid_10x10"])
        empty_cols = [i for i in range(10) if grid[:, i].sum() == 0]
        empty_rows = [i for i in range(10) if grid[i].sum() == 0]
        where = []
        if empty_cols and max(empty_cols) >= 5:
            where.append("right")
        if empty_cols and min(empty_cols) < 5:
            where.append("left")
        if empty_rows and min(empty_rows) < 5:
            where.append("top")
        if empty_rows and max(empty_rows) >= 5:
            where.append("bottom")
        side = " and ".join(where) if where else "edges"
        advice.append(f"Move the board over the whole picture, especially the {side} of the "
                      f"image; hold it so it fills about a third of the picture.")
    missing = [k for k, c in cov["corner_counts"].items() if c == 0]
    if missing:
        names = ", ".join(_CORNER_WORDS[k] for k in missing)
        reason("corners_not_covered", f"no corner detected in the {names} corner(s) of the "
                                      f"image, where distortion is strongest")
        for k in missing:
            advice.append(f"Add views with the board reaching into the {_CORNER_WORDS[k]} "
                          f"corner of the image (part of the board may leave the picture with "
                          f"a ChArUco board).")
    f95 = max(1.96 * rep.stddev.get("fx", 0) / ln.fx, 1.96 * rep.stddev.get("fy", 0) / ln.fy)
    c95 = max(1.96 * rep.stddev.get("cx", 0) / w, 1.96 * rep.stddev.get("cy", 0) / h)
    if f95 > th.max_rel_f_95 or c95 > th.max_c_95_frac:
        reason("uncertainty_too_high",
               f"the parameters are poorly determined: 1.96 sigma of f is {100 * f95:.1f} % "
               f"(limit {100 * th.max_rel_f_95:.0f} %), of the principal point "
               f"{100 * c95:.1f} % of the image (limit {100 * th.max_c_95_frac:.0f} %)")
    cv = rep.cross_validation
    if cv is not None and cv["p95_px"] > th.max_cross_validation_px:
        reason("cross_validation", f"two halves of the views give lenses that differ by "
                                   f"{cv['p95_px']:.2f} px (95th percentile over the part of "
                                   f"the image the board covered; limit "
                                   f"{th.max_cross_validation_px} px)")
    elif cv is None:
        warnings.append("too few views for a split-half cross-validation (needs 8)")
    elif cv["p95_px_whole_image"] > 3 * th.max_cross_validation_px:
        warnings.append(f"outside the area the board covered the lens is extrapolated: the two "
                        f"halves differ there by up to {cv['max_px_whole_image']:.1f} px")
    tilts = [v.tilt_deg for v in used if v.tilt_deg is not None]
    if tilts and max(tilts) < th.min_tilt_deg:
        reason("little_tilt", f"the board is never tilted by more than {max(tilts):.0f} degrees "
                              f"(needs some views beyond {th.min_tilt_deg:.0f}): the focal "
                              f"length cannot be told from the distance")
    if any(r["code"] in ("uncertainty_too_high", "cross_validation") for r in reasons) or (
            tilts and max(tilts) < th.min_tilt_deg):
        advice.append("Tilt the board by 30-45 degrees in some views: top away from the "
                      "camera, then bottom, left and right; keep it close to the camera so it "
                      "fills a third of the picture.")
    outliers = [v for v in rep.views if v.rejected and v.rejected.startswith("outlier")]
    if outliers:
        warnings.append("outlier views left out: " + ", ".join(v.name for v in outliers))
    not_found = [v for v in rep.views if v.rejected == "pattern not found"]
    if not_found and len(not_found) > 0.5 * len(rep.views):
        warnings.append(f"the pattern was not found in {len(not_found)} of {len(rep.views)} "
                        f"images; check --pattern and the lighting")


def _pattern_advice(pattern: Pattern) -> str:
    if pattern.kind == "chessboard":
        return (f"Check --pattern: chessboard:{pattern.cols}x{pattern.rows} means "
                f"{pattern.cols}x{pattern.rows} INNER corners (where four squares meet), not "
                f"squares; check also that the whole board is in the picture and sharp.")
    return (f"Check --pattern (charuco:{pattern.cols}x{pattern.rows} counts squares), "
            f"--dict ({pattern.dictionary}) and that the markers are sharp and well lit.")


def suggest_pattern(images: Sequence[np.ndarray], pattern: Pattern) -> Pattern | None:
    """When the pattern is never found, try nearby sizes on a few images; the one found, if any."""
    from dataclasses import replace

    if pattern.kind == "charuco":
        cands = [(c, r) for c in range(3, 13) for r in range(3, 13)]
    else:
        cands = [(c, r) for c in range(3, 15) for r in range(3, 15)]
    near = {(c, r) for c, r in cands
            if abs(c - pattern.cols) <= 2 and abs(r - pattern.rows) <= 2}
    swapped = {(c, r) for c, r in cands
               if abs(c - pattern.rows) <= 2 and abs(r - pattern.cols) <= 2}
    cands = sorted(near | swapped,
                   key=lambda cr: abs(cr[0] - pattern.cols) + abs(cr[1] - pattern.rows))
    best, best_n = None, 0
    if pattern.kind == "charuco" and pattern.rows % 2 == 0:
        old = replace(pattern, legacy=not pattern.legacy)
        n_old = sum(len(d.ids) for g in images if (d := old.detect(g)) is not None)
        if n_old:
            best, best_n = old, n_old  # a board from OpenCV <= 4.5.5 (or the reverse)
    for cols, rows in cands[:60]:
        if (cols, rows) == (pattern.cols, pattern.rows):
            continue
        try:
            cand = replace(pattern, cols=cols, rows=rows)
        except ValueError:
            continue
        dets = [cand.detect(g, quick=True) for g in images]
        n = sum(len(d.ids) for d in dets if d is not None)
        if pattern.kind == "chessboard" and n:
            return cand  # the board-continues check makes a chessboard match exact
        if n > best_n or (n and n == best_n and best is not None
                          and cand.n_corners < best.n_corners):
            best, best_n = cand, n  # ties: the smallest board that explains every corner
    return best
    return None


def calibrate_intrinsics(inputs: Sequence[str | os.PathLike], pattern: Pattern, *,
                         fix_k3: bool = False, sb: bool = False, max_video_frames: int = 40,
                         thresholds: Thresholds = Thresholds(),
                         progress: Callable[[Iterable], Iterable] | None = None,
                         frames_in: Iterable[tuple[str, np.ndarray]] | None = None
                         ) -> IntrinsicsReport:
    """Calibrate a lens from image files, folders and videos; see :class:`IntrinsicsReport`.

    ``frames_in`` (name, grey image) pairs, e.g. from :func:`capture_views`, replace ``inputs``.
    """
    first: list[np.ndarray] = []  # kept to guess the pattern size if it is never found

    def frames() -> Iterable[tuple[str, np.ndarray]]:
        source = frames_in if frames_in is not None else load_views(
            inputs, max_video_frames=max_video_frames)
        for name, gray in source:
            if len(first) < 2:
                first.append(gray)
            yield name, gray  # images are not kept: a folder of large photos stays small

    views = detect_views(frames(), pattern, sb=sb, progress=progress)
    rep = calibrate_views(views, pattern, fix_k3=fix_k3, thresholds=thresholds)
    if "pattern_not_found" in rep.reason_codes:
        sug = suggest_pattern(first, pattern)
        if sug is not None and (sug.cols, sug.rows) == (pattern.cols, pattern.rows):
            rep.suggested_pattern = sug.spec + (" (legacy)" if sug.legacy else "")
            rep.advice.insert(0, "The board was made by OpenCV 4.5.5 or older: re-run with "
                                 "--legacy-charuco." if sug.legacy else
                              "The board is a current-layout ChArUco: drop --legacy-charuco.")
        elif sug is not None:
            rep.suggested_pattern = sug.spec
            rep.advice.insert(0, f"The images show a {sug.spec} pattern: re-run with "
                                 f"--pattern {sug.spec}.")
    return rep


def write_coverage_png(report: IntrinsicsReport, path: str | os.PathLike,
                       cells: tuple[int, int] = (32, 18)) -> None:
    """Heat map of corner counts over the image, with the corners drawn and the verdict."""
    if report.image_size is None:
        raise ValueError("no image size: no view was read")
    w, h = report.image_size
    pts = [v.detection.image_px for v in report.views_used]
    pts_all = np.concatenate(pts) if pts else np.zeros((0, 2))
    gx, gy = cells
    grid = np.zeros((gy, gx))
    if len(pts_all):
        ix = np.clip((pts_all[:, 0] / w * gx).astype(int), 0, gx - 1)
        iy = np.clip((pts_all[:, 1] / h * gy).astype(int), 0, gy - 1)
        np.add.at(grid, (iy, ix), 1)
    norm = (255 * np.clip(grid / max(1.0, np.percentile(grid[grid > 0], 95) if (grid > 0).any()
                                     else 1.0), 0, 1)).astype(np.uint8)
    heat = cv2.applyColorMap(cv2.resize(norm, (w, h), interpolation=cv2.INTER_NEAREST),
                             cv2.COLORMAP_VIRIDIS)
    heat[cv2.resize((grid == 0).astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST) > 0] = 40
    for p in pts_all:
        cv2.circle(heat, (int(round(p[0])), int(round(p[1]))), 1, (255, 255, 255), -1)
    status = "ACCEPT" if report.accepted else "REJECT: " + ", ".join(report.reason_codes)
    cov = report.coverage
    text = f"{status} | coverage score {cov.get('score', 0):.2f}, " \
           f"{100 * cov.get('cells_covered', 0):.0f}% cells"
    scale = max(0.4, w / 1600)
    cv2.putText(heat, text, (10, int(30 * scale + 8)), cv2.FONT_HERSHEY_SIMPLEX, scale,
                (0, 0, 0), 4, cv2.LINE_AA)
    cv2.putText(heat, text, (10, int(30 * scale + 8)), cv2.FONT_HERSHEY_SIMPLEX, scale,
                (255, 255, 255), 1, cv2.LINE_AA)
    try:
        ok = cv2.imwrite(str(path), heat)
    except cv2.error:
        ok = False
    if not ok:
        raise ValueError(f"{path}: cannot write the image (check the folder and the extension)")
