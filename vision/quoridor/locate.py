"""Finding the board in an image and fitting a camera model to it.

The result is a :class:`BoardPose`: a :class:`vision.camera.CameraModel` whose world frame is the
board frame (:mod:`vision.quoridor.geometry`), so any board point *with its height* (a pawn's
middle, a wall's top) projects to the pixel where it shows — the reader samples there, which
accounts for parallax in oblique views.

Steps: (1) a first pose from the four ArUco markers at the board's corners (``DICT_4X4_50`` ids
0–3, any two suffice) or, without markers, from the board's outline (its image-bottom side is
taken as row 1, i.e. the camera sits on player 1's side); (2) refinement on the grooves: across
each of the 16 grooves at 9 places the dark band is located, and the camera (focal length when
the view is oblique enough to tell it, radial distortion k1 and pose) is re-fitted to those
~144 points with outliers dropped. A calibration's lens (K, dist), when given, is kept fixed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.camera import CameraModel, default_intrinsics, focal_from_homography
from vision.quoridor.geometry import DEFAULT_BOARD, BoardSpec

__all__ = ["BoardPose", "find_board", "detect_markers", "fit_camera", "BoardNotFound"]


class BoardNotFound(RuntimeError):
    """No board could be located in the image (message says why)."""


@dataclass
class BoardPose:
    """The board as one camera sees it.

    Attributes:
        camera: board frame (mm) → image pixels, with distortion.
        method: ``"markers"`` or ``"outline"``.
        residual_px: RMS reprojection error of the groove points used in the last fit.
        n_points: how many groove points entered the last fit.
        markers_seen: ids of the corner markers detected.
    """

    camera: CameraModel
    method: str
    residual_px: float
    n_points: int
    markers_seen: list[int] = field(default_factory=list)

    def px_per_mm(self) -> float:
        """Approximate image scale at the board centre (pixels per mm)."""
        p = self.camera.project(np.array([[0.0, 0.0, 0.0], [10.0, 0.0, 0.0], [0.0, 10.0, 0.0]]))
        return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 20.0)


_ARUCO: cv2.aruco.ArucoDetector | None = None


def detect_markers(gray: np.ndarray) -> dict[int, np.ndarray]:
    """Corner markers (ids 0–3 of ``DICT_4X4_50``) → their four corners (4, 2) in pixels."""
    global _ARUCO
    if _ARUCO is None:
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        _ARUCO = cv2.aruco.ArucoDetector(
            cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)
    corners, ids, _ = _ARUCO.detectMarkers(gray)
    out: dict[int, np.ndarray] = {}
    if ids is None:
        return out
    for c, i in zip(corners, ids.ravel()):
        if 0 <= int(i) <= 3 and int(i) not in out:
            out[int(i)] = c.reshape(4, 2).astype(np.float64)
    return out


def fit_camera(obj_mm: np.ndarray, img_px: np.ndarray, size: tuple[int, int], *,
               K: np.ndarray | None = None, dist: np.ndarray | None = None,
               lens_fixed: bool = False, fit_focal: bool = True,
               init: CameraModel | None = None) -> tuple[CameraModel, np.ndarray]:
    """Fit a camera to board points (N, 3) mm seen at pixels (N, 2); returns it and the
    per-point reprojection errors (N,) in pixels.

    With ``lens_fixed`` only the pose is fitted (a calibrated lens). Otherwise the focal
    length (when ``fit_focal``), radial k1 and the pose; the principal point stays at the
    image centre (a single view cannot tell it).
    """
    obj = np.asarray(obj_mm, np.float64).reshape(-1, 3)
    img = np.asarray(img_px, np.float64).reshape(-1, 2)
    K0 = default_intrinsics(size) if K is None else np.asarray(K, np.float64)
    d0 = np.zeros(5) if dist is None else np.asarray(dist, np.float64).ravel()[:5]
    if init is not None and not lens_fixed:
        K0, d0 = init.K.copy(), init.dist.copy()
    if lens_fixed or len(obj) < 12:
        if init is not None:
            rv, tv = init.rvec.reshape(3, 1), init.t_cam_from_world_mm.reshape(3, 1)
            ok, rv, tv = cv2.solvePnP(obj, img, K0, d0, rv.copy(), tv.copy(), True,
                                      cv2.SOLVEPNP_ITERATIVE)
        else:
            z0 = float(obj[0, 2])
            planar = np.ptp(obj[:, 2]) < 1e-9 and len(obj) >= 4
            o = obj - [0.0, 0.0, z0] if planar else obj
            ok, rv, tv = cv2.solvePnP(o, img, K0, d0, flags=cv2.SOLVEPNP_IPPE if planar
                                      else cv2.SOLVEPNP_ITERATIVE)
            if ok:
                ok, rv, tv = cv2.solvePnP(o, img, K0, d0, rv, tv, True, cv2.SOLVEPNP_ITERATIVE)
            if ok and planar:
                tv = tv - z0 * cv2.Rodrigues(rv)[0][:, 2:3]
        if not ok:
            raise BoardNotFound("the board's pose could not be solved")
        Kf, df = K0, d0
    else:
        flags = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT
                 | cv2.CALIB_FIX_ASPECT_RATIO | cv2.CALIB_ZERO_TANGENT_DIST
                 | cv2.CALIB_FIX_K2 | cv2.CALIB_FIX_K3)
        if not fit_focal:
            flags |= cv2.CALIB_FIX_FOCAL_LENGTH
        d_init = np.zeros(5)
        d_init[0] = d0[0]
        _, Kf, df, rvs, tvs = cv2.calibrateCamera(
            [obj.astype(np.float32)], [img.astype(np.float32)], size, K0.copy(), d_init, flags=flags,
            criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 60, 1e-9))
        rv, tv = rvs[0], tvs[0]
        df = np.asarray(df, np.float64).ravel()[:5]
    R = cv2.Rodrigues(rv)[0]
    cam = CameraModel(size, Kf, df, R, np.asarray(tv, np.float64).ravel())
    err = np.linalg.norm(cam.project(obj) - img, axis=1)
    return cam, err


def _order_quad(quad: np.ndarray) -> np.ndarray:
    """Order (4, 2) corners a1, i1, i9, a9, taking the image-bottom side as row 1."""
    centre = quad.mean(0)
    ang = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    q = quad[np.argsort(ang)]
    mids = [(q[i] + q[(i + 1) % 4]) / 2 for i in range(4)]
    b = int(np.argmax([m[1] for m in mids]))
    p0, p1 = q[b], q[(b + 1) % 4]
    if p0[0] <= p1[0]:
        order = [b, (b + 1) % 4, (b + 2) % 4, (b + 3) % 4]
    else:
        a1 = (b + 1) % 4
        order = [a1, (a1 - 1) % 4, (a1 - 2) % 4, (a1 - 3) % 4]
    return q[order]


def _clusters(values: np.ndarray, gap: float) -> int:
    v = np.sort(values)
    return int(1 + np.sum(np.diff(v) > gap))


def _cell_holes(binary: np.ndarray) -> np.ndarray | None:
    """Centroids (N, 2) of the cell-sized holes of the connected net with the most of them."""
    h, w = binary.shape
    contours, hier = cv2.findContours(binary, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hier is None:
        return None
    hier = hier[0]
    best, best_n = None, 0
    for i, c in enumerate(contours):
        if hier[i][3] != -1 or hier[i][2] == -1:
            continue
        outer_area = cv2.contourArea(cv2.convexHull(c))
        if outer_area < 0.02 * w * h:
            continue
        holes = []
        j = hier[i][2]
        while j != -1:
            a = cv2.contourArea(contours[j])
            if a > outer_area / 400:
                m = cv2.moments(contours[j])
                if m["m00"] > 0:
                    holes.append((a, m["m10"] / m["m00"], m["m01"] / m["m00"]))
            j = hier[j][0]
        if len(holes) < 20:
            continue
        arr = np.array(holes)
        med = np.median(arr[:, 0])
        cells = arr[(arr[:, 0] > 0.4 * med) & (arr[:, 0] < 2.5 * med), 1:]
        if len(cells) > best_n:
            best, best_n = cells, len(cells)
    return best


def _label_lattice(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Integer lattice coordinates (M, 2) for points (N, 2) on a perspective grid, grown from
    the point nearest the middle by steps to neighbours; returns (labels, their points)."""
    n = len(pts)
    d = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    np.fill_diagonal(d, np.inf)
    spacing = float(np.median(d.min(1)))
    seed = int(np.argmin(np.linalg.norm(pts - np.median(pts, axis=0), axis=1)))
    order = np.argsort(d[seed])[:8]
    u = pts[order[0]] - pts[seed]
    v = None
    for j in order[1:]:
        step = pts[j] - pts[seed]
        cos = abs(step @ u) / (np.linalg.norm(step) * np.linalg.norm(u))
        if cos < 0.7 and np.linalg.norm(step) < 2.0 * np.linalg.norm(u):
            v = step
            break
    if v is None:
        return None
    labels: dict[int, tuple[int, int]] = {seed: (0, 0)}
    basis = {seed: (u, v)}
    queue = [seed]
    taken = {(0, 0)}
    while queue:
        p = queue.pop(0)
        (i, j), (bu, bv) = labels[p], basis[p]
        for di, dj, step in ((1, 0, bu), (-1, 0, -bu), (0, 1, bv), (0, -1, -bv)):
            q = pts[p] + step
            dist = np.linalg.norm(pts - q, axis=1)
            k = int(np.argmin(dist))
            if dist[k] > 0.35 * np.linalg.norm(step) or k in labels or (i + di, j + dj) in taken:
                continue
            labels[k] = (i + di, j + dj)
            taken.add((i + di, j + dj))
            actual = pts[k] - pts[p]
            nb = (actual * np.sign(di) if di else bu, actual * np.sign(dj) if dj else bv)
            basis[k] = nb
            queue.append(k)
    if len(labels) < 16:
        return None
    idx = np.array(sorted(labels))
    return np.array([labels[i] for i in idx]), pts[idx]


def _grid_candidates(gray: np.ndarray, board: BoardSpec) -> list[tuple[np.ndarray, np.ndarray]]:
    """Hypotheses (image corners (4, 2), board corners (4, 2) mm) for the grid, from the cells
    that grooves enclose on all sides. Row 1 is taken as the image-bottom side.

    The grooves are dark thin lines: a black-hat filter brings them out, and the grid is the
    connected net of them enclosing the most cell-sized holes. The holes' centres are labelled
    with lattice coordinates by stepping from neighbour to neighbour, a homography is fitted to
    them, and every placement of that ``n_u × n_v`` lattice on the 9×9 board is a hypothesis
    (the caller keeps the one whose grooves show best).
    """
    h, w = gray.shape
    k = max(9, int(round(min(w, h) / 34)) | 1)
    bh = cv2.morphologyEx(cv2.GaussianBlur(gray, (3, 3), 0), cv2.MORPH_BLACKHAT,
                          cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    otsu, _ = cv2.threshold(bh, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    best, best_n = None, 0
    for frac in (1.0, 0.6, 0.35):
        _, binary = cv2.threshold(bh, max(10.0, otsu * frac), 255, cv2.THRESH_BINARY)
        cells = _cell_holes(binary)
        if cells is not None and len(cells) > best_n:
            best, best_n = cells, len(cells)
    if best is None or best_n < 20:
        return []
    lat = _label_lattice(best)
    if lat is None:
        return []
    ij, pts = lat
    H, inl = cv2.findHomography(ij.astype(np.float64), pts, cv2.RANSAC, 3.0)
    if H is None:
        return []
    inl = inl.ravel().astype(bool)
    i0, j0 = ij[inl].min(0)
    i1, j1 = ij[inl].max(0)
    if i1 - i0 > 8 or j1 - j0 > 8 or i1 - i0 < 3 or j1 - j0 < 3:
        return []
    lat_corners = np.array([[i0, j0], [i1, j0], [i1, j1], [i0, j1]], np.float64)
    img_corners = cv2.perspectiveTransform(lat_corners.reshape(-1, 1, 2), H).reshape(-1, 2)
    quad = _order_quad(img_corners)
    back = cv2.perspectiveTransform(quad.reshape(-1, 1, 2), np.linalg.inv(H)).reshape(-1, 2)
    n_u = int(round(np.abs(back[1] - back[0]).sum())) + 1
    n_v = int(round(np.abs(back[3] - back[0]).sum())) + 1
    out = []
    for c0 in range(0, 10 - n_u):
        for r0 in range(0, 10 - n_v):
            corners = np.array([
                board.cell_centre_mm(c0, r0), board.cell_centre_mm(c0 + n_u - 1, r0),
                board.cell_centre_mm(c0 + n_u - 1, r0 + n_v - 1), board.cell_centre_mm(c0, r0 + n_v - 1)])
            out.append((quad, corners))
    return out


def _groove_points(board: BoardSpec) -> tuple[np.ndarray, np.ndarray]:
    """Centres (144, 2) of the groove profiles and their across-groove unit directions (144, 2)."""
    p = board.pitch_mm
    pts, dirs = [], []
    for r in range(8):
        for c in range(9):
            pts.append(((c - 4) * p, (r - 3.5) * p))
            dirs.append((0.0, 1.0))
    for c in range(8):
        for r in range(9):
            pts.append(((c - 3.5) * p, (r - 4) * p))
            dirs.append((1.0, 0.0))
    return np.array(pts), np.array(dirs)


def _measure_grooves(gray: np.ndarray, cam: CameraModel, board: BoardSpec, search_mm: float
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Where each groove's dark band lies across its nominal line: offsets (144,) mm (NaN when
    not found) and contrasts (144,) grey levels."""
    pts, dirs = _groove_points(board)
    step = 0.5
    half = search_mm + board.groove_mm / 2 + 4.0
    s = np.arange(-half, half + 1e-9, step)
    along = np.array([-6.0, -3.0, 0.0, 3.0, 6.0])
    n, m, k = len(pts), len(s), len(along)
    perp = dirs[:, ::-1]
    P = (pts[:, None, None, :] + dirs[:, None, None, :] * s[None, :, None, None]
         + perp[:, None, None, :] * along[None, None, :, None])
    P3 = np.concatenate([P.reshape(-1, 2), np.zeros((n * m * k, 1))], axis=1)
    px = cam.project(P3).astype(np.float32)
    vals = cv2.remap(gray, px[:, 0].reshape(n, -1), px[:, 1].reshape(n, -1), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE).reshape(n, m, k).astype(np.float32)
    prof = np.median(vals, axis=2)
    cs = np.concatenate([np.zeros((n, 1), np.float32), np.cumsum(prof, axis=1)], axis=1)
    gw = int(round(board.groove_mm / step))
    sw = int(round(3.0 / step))
    offs, contrast = np.full(n, np.nan), np.zeros(n)
    starts = np.arange(sw, m - gw - sw + 1)
    inside = (cs[:, starts + gw] - cs[:, starts]) / gw
    left = (cs[:, starts] - cs[:, starts - sw]) / sw
    right = (cs[:, starts + gw + sw] - cs[:, starts + gw]) / sw
    score = np.minimum(left, right) - inside
    j = np.argmax(score, axis=1)
    for i in range(n):
        jj = j[i]
        sc = score[i]
        sub = 0.0
        if 0 < jj < len(sc) - 1:
            d = sc[jj - 1] - 2 * sc[jj] + sc[jj + 1]
            if d < 0:
                sub = 0.5 * (sc[jj - 1] - sc[jj + 1]) / d
        centre_idx = starts[jj] + sub + gw / 2 - 0.5
        offs[i] = s[0] + (centre_idx + 0.5) * step - step / 2
        contrast[i] = sc[jj]
    return offs, contrast


def _refine(gray: np.ndarray, cam: CameraModel, board: BoardSpec, *, extra_obj: np.ndarray,
            extra_img: np.ndarray, lens_fixed: bool, iterations: int = 4,
            search_mm: float = 11.0) -> tuple[CameraModel, float, int]:
    pts, dirs = _groove_points(board)
    resid, npts = float("nan"), 0
    fit_focal = False
    for it in range(iterations):
        offs, contrast = _measure_grooves(gray, cam, board, search_mm if it == 0 else 4.0)
        good = np.isfinite(offs) & (contrast > max(8.0, 0.35 * float(np.median(contrast))))
        if good.sum() < 30:
            break
        # one groove line is straight in the board: drop points far from their line's median
        line_id = np.r_[np.repeat(np.arange(8), 9), 8 + np.repeat(np.arange(8), 9)]
        for g in range(16):
            sel = good & (line_id == g)
            if sel.sum() >= 3:
                med = np.median(offs[sel])
                good &= ~((line_id == g) & (np.abs(offs - med) > 3.0))
        seen = pts + dirs * offs[:, None]
        img = cam.project(np.column_stack([seen[good], np.zeros(good.sum())]))
        obj = np.column_stack([pts[good], np.zeros(good.sum())])
        # the view's tilt decides whether the focal length can be told from one image
        fit_focal = _tilt_deg(cam) > 15.0
        all_obj = np.vstack([obj, extra_obj]) if len(extra_obj) else obj
        all_img = np.vstack([img, extra_img]) if len(extra_img) else img
        cam, err = fit_camera(all_obj, all_img, cam.image_size, K=cam.K, dist=cam.dist,
                              lens_fixed=lens_fixed, fit_focal=fit_focal, init=cam)
        e = err[: len(obj)]
        keep = e < max(1.0, 3.0 * float(np.median(e)))
        if keep.sum() < len(keep):
            all_obj = np.vstack([obj[keep], extra_obj]) if len(extra_obj) else obj[keep]
            all_img = np.vstack([img[keep], extra_img]) if len(extra_img) else img[keep]
            cam, err = fit_camera(all_obj, all_img, cam.image_size, K=cam.K, dist=cam.dist,
                                  lens_fixed=lens_fixed, fit_focal=fit_focal, init=cam)
        resid = float(np.sqrt(np.mean(err[: int(keep.sum())] ** 2)))
        npts = int(keep.sum())
    return cam, resid, npts


def _tilt_deg(cam: CameraModel) -> float:
    return float(np.degrees(np.arccos(min(1.0, abs(cam.R_cam_from_world[2, 2])))))


def _first_pose(obj: np.ndarray, img: np.ndarray, size: tuple[int, int], K0: np.ndarray,
                d0: np.ndarray, lens_fixed: bool) -> CameraModel:
    """A pose from a few planar points; the focal length from the homography when the view is
    oblique enough to tell it (else the default field of view)."""
    cam, _ = fit_camera(obj, img, size, K=K0, dist=d0, lens_fixed=True)
    if not lens_fixed and _tilt_deg(cam) > 18.0:
        Hm, _ = cv2.findHomography(obj[:, :2], img)
        f = focal_from_homography(Hm, K0[:2, 2]) if Hm is not None else None
        w = size[0]
        if f is not None and 0.5 * w < f < 2.0 * w:
            K1 = K0.copy()
            K1[0, 0] = K1[1, 1] = f
            cam, _ = fit_camera(obj, img, size, K=K1, dist=d0, lens_fixed=True)
    return cam


def find_board(frame_bgr: np.ndarray, board: BoardSpec = DEFAULT_BOARD, *,
               K: np.ndarray | None = None, dist: np.ndarray | None = None,
               use_markers: bool = True) -> BoardPose:
    """Locate the board; raise :class:`BoardNotFound` when it cannot be seen.

    ``K``/``dist`` come from a calibration file's lens when one is given (then kept fixed).
    The frame should show the board without hands (the start of a game).
    """
    gray = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY) if frame_bgr.ndim == 3 else frame_bgr
    h, w = gray.shape
    size = (w, h)
    lens_fixed = K is not None
    K0 = default_intrinsics(size) if K is None else np.asarray(K, np.float64)
    d0 = np.zeros(5) if dist is None else np.asarray(dist, np.float64)
    markers = detect_markers(gray) if use_markers else {}
    extra_obj = np.zeros((0, 3))
    extra_img = np.zeros((0, 2))
    if len(markers) >= 2:
        mc = board.marker_corners_mm()
        ids = sorted(markers)
        obj = np.vstack([mc[i] for i in ids])
        img = np.vstack([markers[i] for i in ids])
        cam = _first_pose(obj, img, size, K0, d0, lens_fixed)
        extra_obj, extra_img = obj, img
        method = "markers"
    else:
        cands = _grid_candidates(gray, board)
        if not cands:
            raise BoardNotFound(
                "no corner markers and no board grid found: make sure the whole board is in "
                "view, or print the corner markers (arbitre calibrate print-markers)")
        best_score, cam = -np.inf, None
        for quad, corners in cands:
            obj = np.column_stack([corners, np.zeros(4)])
            c = _first_pose(obj, quad, size, K0, d0, lens_fixed)
            _, contrast = _measure_grooves(gray, c, board, 3.0)
            score = float(np.mean(contrast))
            if score > best_score:
                best_score, cam = score, c
        assert cam is not None
        method = "outline"
    cam, resid, npts = _refine(gray, cam, board, extra_obj=extra_obj, extra_img=extra_img,
                               lens_fixed=lens_fixed, search_mm=8.0)
    if npts < 30:
        raise BoardNotFound(f"the board's grooves were not found ({npts} points); is the whole "
                            "board in view and free of hands?")
    return BoardPose(cam, method, resid, npts, sorted(markers))
