"""Calibration patterns (chessboard, ChArUco) and their detection with sub-pixel corners.

Object points are in millimetres in the board's own frame (x along the rows of corners, y down
the board, z = 0 on the board), as OpenCV defines them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["Pattern", "Detection", "parse_pattern", "aruco_dictionary", "DICTIONARIES"]

DICTIONARIES = {
    name.lower(): getattr(cv2.aruco, f"DICT_{name}")
    for name in ("4X4_50", "4X4_100", "4X4_250", "4X4_1000", "5X5_50", "5X5_100", "5X5_250",
                 "5X5_1000", "6X6_50", "6X6_100", "6X6_250", "6X6_1000", "7X7_50", "7X7_100",
                 "7X7_250", "7X7_1000", "ARUCO_ORIGINAL")
}


def aruco_dictionary(name: str) -> cv2.aruco.Dictionary:
    """An ArUco dictionary by its short name, e.g. ``6x6_250`` or ``4x4_50``."""
    key = name.strip().lower().removeprefix("dict_")
    if key not in DICTIONARIES:
        raise ValueError(f"unknown ArUco dictionary {name!r}; use one of "
                         f"{', '.join(sorted(DICTIONARIES))}")
    return cv2.aruco.getPredefinedDictionary(DICTIONARIES[key])


@dataclass
class Detection:
    """Corners of a pattern found in one image.

    object_mm: (N, 3) float32 board coordinates; image_px: (N, 2) float32 pixels;
    ids: (N,) int corner ids (row-major index for a chessboard).
    """

    object_mm: np.ndarray
    image_px: np.ndarray
    ids: np.ndarray

    def __post_init__(self) -> None:
        n = len(self.ids)
        if self.object_mm.shape != (n, 3) or self.image_px.shape != (n, 2):
            raise ValueError(f"Detection: expected object_mm (N, 3) and image_px (N, 2) with "
                             f"N={n}, got {self.object_mm.shape} and {self.image_px.shape}")


@dataclass(frozen=True)
class Pattern:
    """A calibration board.

    ``chessboard``: ``cols`` x ``rows`` INNER corners (OpenCV's pattern size), e.g. 9x6.
    ``charuco``: ``cols`` x ``rows`` SQUARES, markers of ``marker_mm`` from ``dictionary``.
    """

    kind: str
    cols: int
    rows: int
    square_mm: float
    marker_mm: float | None = None
    dictionary: str = "6x6_250"
    legacy: bool = False

    def __post_init__(self) -> None:
        if self.kind not in ("chessboard", "charuco"):
            raise ValueError(f"pattern kind must be 'chessboard' or 'charuco', got {self.kind!r}")
        if self.cols < 2 or self.rows < 2:
            raise ValueError(f"pattern {self.cols}x{self.rows} is too small")
        if self.square_mm <= 0:
            raise ValueError(f"square size must be positive, got {self.square_mm} mm")
        if self.kind == "charuco":
            if self.marker_mm is None or not 0 < self.marker_mm < self.square_mm:
                raise ValueError(f"ChArUco marker size must be between 0 and the square size "
                                 f"({self.square_mm} mm), got {self.marker_mm}")
            aruco_dictionary(self.dictionary)

    @property
    def spec(self) -> str:
        return f"{self.kind}:{self.cols}x{self.rows}"

    @property
    def size_mm(self) -> tuple[float, float]:
        """Width and height of the printed pattern (squares only, no margin), mm."""
        if self.kind == "chessboard":
            return (self.cols + 1) * self.square_mm, (self.rows + 1) * self.square_mm
        return self.cols * self.square_mm, self.rows * self.square_mm

    @property
    def n_corners(self) -> int:
        if self.kind == "chessboard":
            return self.cols * self.rows
        return (self.cols - 1) * (self.rows - 1)

    def board(self) -> cv2.aruco.CharucoBoard:
        """The OpenCV ChArUco board (ChArUco patterns only)."""
        b = cv2.aruco.CharucoBoard((self.cols, self.rows), float(self.square_mm),
                                   float(self.marker_mm), aruco_dictionary(self.dictionary))
        if self.legacy:
            b.setLegacyPattern(True)
        return b

    def object_points_mm(self) -> np.ndarray:
        """All corners (n_corners, 3) in board millimetres, indexed by corner id."""
        if self.kind == "charuco":
            return np.asarray(self.board().getChessboardCorners(), dtype=np.float32).reshape(-1, 3)
        j, i = np.meshgrid(np.arange(self.cols), np.arange(self.rows))
        # chessboard corners start one square in from the board's outer edge
        pts = np.column_stack([(j.ravel() + 1) * self.square_mm, (i.ravel() + 1) * self.square_mm,
                               np.zeros(j.size)])
        return pts.astype(np.float32)

    def detect(self, gray: np.ndarray, *, sb: bool = False, quick: bool = False
               ) -> Detection | None:
        """Find the pattern's corners in an 8-bit grey image; None when it is not found.

        ``quick`` (chessboard): one global threshold only, ~10 ms even when the board is
        absent (the full search takes about a second to give up); for guessing sizes.
        """
        if gray.ndim == 3:
            gray = cv2.cvtColor(gray, cv2.COLOR_BGR2GRAY)
        if self.kind == "chessboard":
            return self._detect_chessboard(gray, sb, quick)
        return self._detect_charuco(gray)

    def _detect_chessboard(self, gray: np.ndarray, sb: bool, quick: bool = False
                           ) -> Detection | None:
        size = (self.cols, self.rows)
        if sb:
            ok, corners = cv2.findChessboardCornersSB(
                gray, size, cv2.CALIB_CB_EXHAUSTIVE | cv2.CALIB_CB_ACCURACY)
            if not ok:
                return None
        else:
            # a plain threshold finds a well-lit board in ~10 ms; the adaptive search copes
            # with uneven light but takes ~1 s to give up on an image without the board
            ok, corners = cv2.findChessboardCorners(gray, size, 0)
            if not ok and not quick:
                ok, corners = cv2.findChessboardCorners(
                    gray, size, cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE)
            if not ok:
                return None
            c = corners.reshape(self.rows, self.cols, 2)
            spacing = min(np.linalg.norm(np.diff(c, axis=0), axis=2).min(),
                          np.linalg.norm(np.diff(c, axis=1), axis=2).min())
            half = int(np.clip(spacing * 0.4, 2, 11))
            corners = cv2.cornerSubPix(
                gray, corners, (half, half), (-1, -1),
                (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 50, 1e-3))
        img = corners.reshape(-1, 2).astype(np.float32)
        if self._board_continues(gray, img):
            return None  # a larger board: a sub-grid of it would give wrong object points
        obj = self.object_points_mm()
        return Detection(obj, img, np.arange(len(obj)))

    def _board_continues(self, gray: np.ndarray, img: np.ndarray) -> bool:
        """True when chessboard corners continue past a side of the detected grid.

        Past the last inner corner a real board has one row of squares then its margin, so the
        predicted next corner is an edge (half contrast), not an X-corner (full contrast).
        """
        j, i = np.meshgrid(np.arange(self.cols, dtype=np.float64),
                           np.arange(self.rows, dtype=np.float64))
        grid = np.column_stack([j.ravel(), i.ravel()])
        H, _ = cv2.findHomography(grid, img.astype(np.float64), 0)
        if H is None:
            return False
        hull = cv2.convexHull(img.astype(np.float32)).astype(np.int32)
        mask = np.zeros(gray.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, hull, 255)
        vals = gray[mask > 0]
        contrast = float(np.percentile(vals, 95) - np.percentile(vals, 5)) if vals.size else 0.0
        if contrast < 20:
            return False
        g = cv2.GaussianBlur(gray, (0, 0), 1.0).astype(np.float32)
        sides = [
            np.column_stack([np.full(self.rows, -1.0), np.arange(self.rows)]),
            np.column_stack([np.full(self.rows, float(self.cols)), np.arange(self.rows)]),
            np.column_stack([np.arange(self.cols), np.full(self.cols, -1.0)]),
            np.column_stack([np.arange(self.cols), np.full(self.cols, float(self.rows))]),
        ]
        offs = np.array([[-0.3, -0.3], [0.3, -0.3], [0.3, 0.3], [-0.3, 0.3]])
        h, w = g.shape
        for side in sides:
            pts = (side[:, None, :] + offs[None]).reshape(-1, 2)
            px = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), H).reshape(-1, 2)
            if (px[:, 0] < 0).any() or (px[:, 0] > w - 1).any() or (px[:, 1] < 0).any() or \
                    (px[:, 1] > h - 1).any():
                continue
            v = cv2.remap(g, px[:, 0].reshape(-1, 1).astype(np.float32),
                          px[:, 1].reshape(-1, 1).astype(np.float32), cv2.INTER_LINEAR)
            v = v.reshape(-1, 4)
            score = np.abs((v[:, 0] + v[:, 2]) - (v[:, 1] + v[:, 3])) / 2 / contrast
            if np.median(score) > 0.7:
                return True
        return False

    def _refine(self, gray: np.ndarray, corners: np.ndarray) -> np.ndarray:
        pts = corners.reshape(-1, 2)
        d = np.linalg.norm(pts[:, None] - pts[None], axis=2)
        d[d == 0] = np.inf
        spacing = float(np.median(d.min(axis=1)))  # about one square, in pixels
        gap = (self.square_mm - float(self.marker_mm)) / 2 / self.square_mm
        half = int(np.clip(spacing * gap * 0.8, 2, 11))
        return cv2.cornerSubPix(gray, corners, (half, half), (-1, -1),
                                (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 50, 1e-3))

    def _detect_charuco(self, gray: np.ndarray) -> Detection | None:
        board = self.board()
        detector = cv2.aruco.CharucoDetector(board)
        ch_corners, ch_ids, _, _ = detector.detectBoard(gray)
        if ch_ids is None or len(ch_ids) < 6:
            return None
        # OpenCV 4.11's ChArUco corners sit 0.5 px off (seen on exact synthetic boards): refine
        # them again with a window that stays inside the plain squares around each corner.
        ch_corners = self._refine(gray, ch_corners.reshape(-1, 1, 2).astype(np.float32))
        obj, img = board.matchImagePoints(ch_corners, ch_ids)
        if obj is None or len(obj) < 6:
            return None
        obj = obj.reshape(-1, 3).astype(np.float32)
        # a line of corners does not constrain a homography
        centred = obj[:, :2] - obj[:, :2].mean(axis=0)
        if np.linalg.svd(centred, compute_uv=False)[-1] < 0.5 * self.square_mm:
            return None
        return Detection(obj, img.reshape(-1, 2).astype(np.float32), ch_ids.ravel().astype(int))


_SPEC = re.compile(r"^\s*(chessboard|charuco)\s*:\s*(\d+)\s*[xX]\s*(\d+)\s*$")


def parse_pattern(spec: str, square_mm: float, marker_mm: float | None = None,
                  dictionary: str = "6x6_250") -> Pattern:
    """``chessboard:9x6`` (inner corners) or ``charuco:5x7`` (squares) → :class:`Pattern`."""
    m = _SPEC.match(spec)
    if not m:
        raise ValueError(f"pattern {spec!r} not understood; write chessboard:COLSxROWS (inner "
                         f"corners, e.g. chessboard:9x6) or charuco:COLSxROWS (squares, e.g. "
                         f"charuco:5x7)")
    kind, cols, rows = m.group(1), int(m.group(2)), int(m.group(3))
    if kind == "charuco" and marker_mm is None:
        marker_mm = round(square_mm * 0.75, 3)
    return Pattern(kind, cols, rows, float(square_mm), marker_mm, dictionary)
