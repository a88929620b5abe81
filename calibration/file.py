"""The calibration file: plain text, commented, versioned and self-describing.

The body is JSON in which ``#`` starts a comment that runs to the end of the line (outside
strings), so a person can read what every number means and where it came from, and the file
can be re-checked later (mrcal's habit). Sections are optional: a file may hold only the lens,
or the lens, the table plane and the colours.

Conventions written into every file:
- image pixels: origin at the centre of the top-left pixel, x right, y down;
- table millimetres: the frame set by the four corner markers (origin at marker 0's centre,
  x towards marker 1, y towards marker 3);
- ``T_table_from_image`` maps *undistorted* pixels (homogeneous, 3-vector) to table mm: undistort
  a detected pixel with the lens first (when the file has a lens), then apply the homography.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from vision.camera import apply_homography

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "Calibration",
    "CalibrationFileError",
    "Lens",
    "TablePlane",
    "load_calibration",
    "save_calibration",
    "dumps_calibration",
    "loads_calibration",
]

FORMAT_NAME = "arbitre-calibration"
FORMAT_VERSION = 1
DIST_NAMES = ("k1", "k2", "p1", "p2", "k3")
LENS_PARAM_NAMES = ("fx", "fy", "cx", "cy", *DIST_NAMES)


class CalibrationFileError(ValueError):
    """A calibration file that cannot be used; the message names the file, line/key and problem."""

    def __init__(self, path: str | os.PathLike | None, problem: str, *, line: int | None = None,
                 key: str | None = None) -> None:
        self.path = None if path is None else str(path)
        self.line = line
        self.key = key
        self.problem = problem
        where = self.path or "<calibration text>"
        if line is not None:
            where += f", line {line}"
        if key:
            where += f" ({key})"
        super().__init__(f"{where}: {problem}")


# --------------------------------------------------------------------------------------------
# Data model
# --------------------------------------------------------------------------------------------


@dataclass
class Lens:
    """Intrinsics of one camera: OpenCV pinhole + (k1, k2, p1, p2, k3) distortion, in pixels.

    ``stddev_px`` holds the 1-sigma uncertainty of each parameter by name (``fx`` ... ``k3``),
    from the solver's covariance. ``quality`` keeps the summary figures of the fit (RMS,
    cross-validation, coverage, verdict) so a later reader can judge the file.
    """

    image_size: tuple[int, int]
    K: np.ndarray
    dist: np.ndarray
    stddev: dict[str, float] = field(default_factory=dict)
    quality: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        w, h = (int(v) for v in self.image_size)
        if w <= 0 or h <= 0:
            raise ValueError(
                f"image_size: expected positive (width, height), got {self.image_size}")
        self.image_size = (w, h)
        self.K = np.asarray(self.K, dtype=np.float64)
        if self.K.shape != (3, 3):
            raise ValueError(f"K: expected shape (3, 3), got {self.K.shape}")
        dist = np.asarray(self.dist, dtype=np.float64).ravel()
        if dist.size not in (4, 5):
            raise ValueError(
                f"dist: expected 4 or 5 coefficients (k1 k2 p1 p2 [k3]), got {dist.size}")
        self.dist = np.pad(dist, (0, 5 - dist.size))

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

    def undistort_px(self, pixels_px: np.ndarray) -> np.ndarray:
        """Distorted pixels (N, 2) → undistorted pixels (N, 2) of the same pinhole ``K``."""
        import cv2

        px = np.asarray(pixels_px, dtype=np.float64).reshape(-1, 1, 2)
        if len(px) == 0:
            return np.zeros((0, 2))
        out = cv2.undistortPointsIter(
            px, self.K, self.dist, None, self.K,
            (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-10),
        )
        return out.reshape(-1, 2)

    def distort_px(self, undistorted_px: np.ndarray) -> np.ndarray:
        """Undistorted pixels (N, 2) → distorted (as the camera sees them) pixels (N, 2)."""
        import cv2

        p = np.asarray(undistorted_px, dtype=np.float64).reshape(-1, 2)
        if len(p) == 0:
            return np.zeros((0, 2))
        xy = (p - [self.cx, self.cy]) / [self.fx, self.fy]
        pts = np.column_stack([xy, np.ones(len(xy))])
        img, _ = cv2.projectPoints(pts, np.zeros(3), np.zeros(3), self.K, self.dist)
        return img.reshape(-1, 2)


@dataclass
class TablePlane:
    """The table plane seen by the camera.

    ``T_table_from_image`` (3, 3) maps undistorted pixels to table millimetres (when
    ``undistorted`` is False the homography was fitted on raw pixels, because no lens was known).
    ``markers`` records the marker layout and the pixels where each marker corner was seen, so
    a later session can tell whether the camera moved.
    """

    T_table_from_image: np.ndarray
    undistorted: bool
    residual_rms_mm: float
    residual_max_mm: float
    markers: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.T_table_from_image = np.asarray(self.T_table_from_image, dtype=np.float64)
        if self.T_table_from_image.shape != (3, 3):
            raise ValueError(
                f"T_table_from_image: expected shape (3, 3), got {self.T_table_from_image.shape}")
        if abs(np.linalg.det(self.T_table_from_image)) < 1e-300:
            raise ValueError("T_table_from_image: the matrix is singular")


@dataclass
class Calibration:
    """Everything a session needs to turn pixels into table millimetres and trusted colours."""

    lens: Lens | None = None
    table: TablePlane | None = None
    colours: Any | None = None  # calibration.colours.ColourModel
    inputs: dict[str, Any] = field(default_factory=dict)
    created_utc: str = field(
        default_factory=lambda: _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))

    def image_to_table_mm(self, pixels_px: np.ndarray) -> np.ndarray:
        """Raw (distorted) image pixels (N, 2) → table millimetres (N, 2).

        Undistorts with the lens when the table homography was fitted on undistorted pixels.
        """
        if self.table is None:
            raise ValueError("this calibration has no table plane: run `arbitre calibrate table`")
        px = np.asarray(pixels_px, dtype=np.float64).reshape(-1, 2)
        if self.table.undistorted:
            if self.lens is None:
                raise ValueError(
                    "the table plane needs undistorted pixels but the file has no lens")
            px = self.lens.undistort_px(px)
        return apply_homography(self.table.T_table_from_image, px)

    def camera_model(self) -> Any:
        """The posed camera (``vision.camera.CameraModel``) in table millimetres, z up.

        The pose comes from the homography and the lens: ``inv(T_table_from_image)`` is
        ``K [r1 r2 t]`` up to scale. Needs a lens and a table fitted on undistorted pixels.
        """
        from vision.camera import CameraModel

        if self.lens is None or self.table is None or not self.table.undistorted:
            raise ValueError("a posed camera needs both the lens and a table plane fitted with it")
        M = np.linalg.inv(self.lens.K) @ np.linalg.inv(self.table.T_table_from_image)
        scale = 2.0 / (np.linalg.norm(M[:, 0]) + np.linalg.norm(M[:, 1]))
        if M[2, 2] * scale < 0:
            scale = -scale  # the table must be in front of the camera
        r1, r2, t = scale * M[:, 0], scale * M[:, 1], scale * M[:, 2]
        U, _, Vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
        R = U @ Vt
        if np.linalg.det(R) < 0:
            R = U @ np.diag([1, 1, -1]) @ Vt
        return CameraModel(self.lens.image_size, self.lens.K, self.lens.dist, R, t)

    def table_mm_to_image(self, points_mm: np.ndarray) -> np.ndarray:
        """Table millimetres (N, 2) → raw (distorted) image pixels (N, 2)."""
        if self.table is None:
            raise ValueError("this calibration has no table plane: run `arbitre calibrate table`")
        px = apply_homography(np.linalg.inv(self.table.T_table_from_image), points_mm)
        if self.table.undistorted and self.lens is not None:
            px = self.lens.distort_px(px)
        return px


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------

_HEADER = """\
# Arbitre calibration file, format version {version}.
# Written {created} by Arbitre. Plain text: '#' starts a comment, the rest is JSON.
# Check it with `arbitre calibrate check FILE`; a session loads it with --calibration FILE.
#
# Conventions
#   image pixels:     origin at the centre of the top-left pixel, x right, y down.
#   lens model:       OpenCV pinhole; K = [[fx, 0, cx], [0, fy, cy], [0, 0, 1]];
#                     distortion (k1, k2, p1, p2, k3) as in cv2.projectPoints.
#   table millimetres: origin at the centre of corner marker 0, x towards marker 1,
#                     y towards marker 3 (the layout is recorded under "table.markers").
#   T_table_from_image: homography from UNDISTORTED image pixels (u, v, 1) to table mm
#                     (x, y, 1) up to scale. Undistort detections with the lens first
#                     (unless "undistorted" is false: then it applies to raw pixels).
#   stddev:           1-sigma uncertainty of each parameter, from the solver's covariance.
"""

_COMMENTS: dict[str, str] = {
    "format": "file type; do not edit",
    "version": "format version; do not edit",
    "created_utc": "when the file was written (UTC)",
    "inputs": "what the calibration was computed from",
    "lens": "intrinsics: how the lens maps rays to pixels",
    "lens.model": "OpenCV pinhole + 5 distortion coefficients",
    "lens.image_size": "width, height in pixels: the lens is valid only at this resolution",
    "lens.fx": "focal length along x, pixels",
    "lens.fy": "focal length along y, pixels",
    "lens.cx": "principal point x, pixels",
    "lens.cy": "principal point y, pixels",
    "lens.dist": "k1, k2, p1, p2, k3 (unitless)",
    "lens.stddev": "1-sigma uncertainty of each parameter (same units)",
    "lens.quality": "fit summary: RMS, cross-validation, coverage, verdict",
    "table": "the table plane: image pixels to table millimetres",
    "table.T_table_from_image": "3x3 homography, undistorted pixels -> table mm",
    "table.undistorted": "true: apply to undistorted pixels (see header)",
    "table.residual_rms_mm": "RMS of marker corners mapped back to the table, mm",
    "table.residual_max_mm": "worst marker corner, mm",
    "table.markers": "marker layout and where the corners were seen (to detect a moved camera)",
    "colours": "colour model for the hold detector (CIE L*a*b* after white balance)",
}


def _fmt_num(v: Any) -> str:
    if isinstance(v, bool) or v is None:
        return json.dumps(v)
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if not math.isfinite(f):
            raise ValueError(f"cannot write a non-finite number ({f}) to a calibration file")
        return repr(f)
    return json.dumps(v, ensure_ascii=False)


def _plain(v: Any) -> Any:
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, (np.floating,)):
        return float(v)
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def _is_flat(v: Any) -> bool:
    return isinstance(v, list) and all(not isinstance(x, (list, dict)) for x in v)


def _emit(v: Any, indent: int, path: str, lines: list[str], prefix: str, suffix: str) -> None:
    pad = "  " * indent
    comment = _COMMENTS.get(path, "")
    tail = f"{suffix}  # {comment}" if comment and not isinstance(v, dict) else suffix
    if isinstance(v, dict):
        if comment:
            lines.append(f"{pad}# {comment}")
        if not v:
            lines.append(f"{pad}{prefix}{{}}{suffix}")
            return
        lines.append(f"{pad}{prefix}{{")
        items = list(v.items())
        for i, (k, x) in enumerate(items):
            sub = f"{path}.{k}" if path else k
            comma = "," if i < len(items) - 1 else ""
            _emit(x, indent + 1, sub, lines, f"{json.dumps(k)}: ", comma)
        lines.append(f"{pad}}}{suffix}")
    elif _is_flat(v) and len(v) <= 12:
        lines.append(f"{pad}{prefix}[{', '.join(_fmt_num(x) for x in v)}]{tail}")
    elif isinstance(v, list):
        lines.append(f"{pad}{prefix}[" + (f"  # {comment}" if comment else ""))
        for i, x in enumerate(v):
            _emit(x, indent + 1, path + "[]", lines, "", "," if i < len(v) - 1 else "")
        lines.append(f"{pad}]{suffix}")
    else:
        lines.append(f"{pad}{prefix}{_fmt_num(v)}{tail}")


def _to_document(cal: Calibration) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "created_utc": cal.created_utc,
        "inputs": _plain(cal.inputs),
    }
    if cal.lens is not None:
        ln = cal.lens
        doc["lens"] = {
            "model": "opencv5",
            "image_size": list(ln.image_size),
            "fx": ln.fx, "fy": ln.fy, "cx": ln.cx, "cy": ln.cy,
            "dist": [float(x) for x in ln.dist],
            "stddev": _plain(ln.stddev),
            "quality": _plain(ln.quality),
        }
    if cal.table is not None:
        t = cal.table
        doc["table"] = {
            "T_table_from_image": _plain(t.T_table_from_image),
            "undistorted": bool(t.undistorted),
            "residual_rms_mm": float(t.residual_rms_mm),
            "residual_max_mm": float(t.residual_max_mm),
            "markers": _plain(t.markers),
        }
    if cal.colours is not None:
        doc["colours"] = _plain(cal.colours.to_dict())
    return doc


def dumps_calibration(cal: Calibration) -> str:
    """The text of a calibration file (see the module docstring for the format)."""
    lines = [_HEADER.format(version=FORMAT_VERSION, created=cal.created_utc).rstrip("\n")]
    _emit(_to_document(cal), 0, "", lines, "", "")
    return "\n".join(lines) + "\n"


def save_calibration(cal: Calibration, path: str | os.PathLike) -> Path:
    """Write ``cal`` to ``path`` atomically (a temporary file in the same folder, then rename)."""
    path = Path(path)
    text = dumps_calibration(cal)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


# --------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------


def _strip_comments(text: str) -> str:
    """Blank out ``#`` comments outside JSON strings, keeping line numbers."""
    out_lines = []
    for line in text.split("\n"):
        in_str = esc = False
        cut = len(line)
        for i, ch in enumerate(line):
            if in_str:
                if esc:
                    esc = False
                elif ch == "\\":
                    esc = True
                elif ch == '"':
                    in_str = False
            elif ch == '"':
                in_str = True
            elif ch == "#":
                cut = i
                break
        out_lines.append(line[:cut])
    return "\n".join(out_lines)


class _Reader:
    """Validation helpers that name the file, the line and the key of every problem."""

    def __init__(self, path: str | None, text: str) -> None:
        self.path = path
        self.lines = _strip_comments(text).split("\n")

    def line_of(self, key: str) -> int | None:
        parts = [p for p in key.replace("[", ".[").split(".") if p and not p.startswith("[")]
        start = 0
        found = None
        for part in parts:
            needle = f'"{part}"'
            for i in range(start, len(self.lines)):
                if needle in self.lines[i]:
                    found, start = i + 1, i
                    break
            else:
                return found
        return found

    def error(self, key: str, problem: str) -> CalibrationFileError:
        return CalibrationFileError(self.path, problem, line=self.line_of(key), key=key)

    def section(self, doc: dict, key: str, parent: str = "") -> dict | None:
        full = f"{parent}.{key}" if parent else key
        v = doc.get(key)
        if v is None:
            return None
        if not isinstance(v, dict):
            raise self.error(full, f"expected an object {{...}}, got {type(v).__name__}")
        return v

    def require(self, doc: dict, key: str, parent: str) -> Any:
        if key not in doc:
            raise CalibrationFileError(self.path, f"missing key {key!r} in section {parent!r}",
                                       line=self.line_of(parent), key=f"{parent}.{key}")
        return doc[key]

    def number(self, doc: dict, key: str, parent: str, *, positive: bool = False,
               non_negative: bool = False) -> float:
        v = self.require(doc, key, parent)
        full = f"{parent}.{key}"
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise self.error(full, f"expected a finite number, got {v!r}")
        if positive and v <= 0:
            raise self.error(full, f"expected a positive number, got {v!r}")
        if non_negative and v < 0:
            raise self.error(full, f"expected a number >= 0, got {v!r}")
        return float(v)

    def matrix(self, doc: dict, key: str, parent: str, shape: tuple[int, ...]) -> np.ndarray:
        v = self.require(doc, key, parent)
        full = f"{parent}.{key}"
        try:
            arr = np.asarray(v, dtype=np.float64)
        except (TypeError, ValueError):
            raise self.error(full, f"expected numbers of shape {shape}, got {v!r}") from None
        if arr.shape != shape:
            raise self.error(full, f"expected shape {shape}, got {arr.shape}")
        if not np.isfinite(arr).all():
            raise self.error(full, "contains a non-finite number")
        return arr


def _check_markers(rd: _Reader, markers: dict) -> None:
    """The marker record ``check_table`` relies on: per-id (4, 2) corners in mm and pixels."""
    base = "table.markers"
    if "corners_mm" not in markers and "image_corners_px" not in markers:
        return
    d = markers.get("dictionary")
    if not isinstance(d, str):
        raise rd.error(f"{base}.dictionary", f"expected a dictionary name such as '4x4_50', "
                                             f"got {d!r}")
    for key in ("corners_mm", "image_corners_px"):
        v = markers.get(key)
        if v is None:
            continue
        if not isinstance(v, dict):
            raise rd.error(f"{base}.{key}", f"expected {{marker id: 4 corners}}, got {v!r}")
        for mid, corners in v.items():
            if not mid.lstrip("-").isdigit():
                raise rd.error(f"{base}.{key}", f"marker id {mid!r} is not an integer")
            try:
                arr = np.asarray(corners, dtype=np.float64)
            except (TypeError, ValueError):
                arr = np.zeros(0)
            if arr.shape != (4, 2) or not np.isfinite(arr).all():
                raise rd.error(f"{base}.{key}", f"marker {mid}: expected 4 corners [x, y], got "
                                                f"{corners!r}")
    if set(markers.get("corners_mm", {})) != set(markers.get("image_corners_px", {})):
        raise rd.error(f"{base}.image_corners_px", "the marker ids of corners_mm and "
                                                   "image_corners_px differ")


def loads_calibration(text: str, path: str | os.PathLike | None = None) -> Calibration:
    """Parse and validate the text of a calibration file (see :func:`load_calibration`)."""
    p = None if path is None else str(path)
    rd = _Reader(p, text)
    try:
        doc = json.loads("\n".join(rd.lines))
    except json.JSONDecodeError as exc:
        raise CalibrationFileError(p, f"not valid calibration text: {exc.msg} (column {exc.colno})",
                                   line=exc.lineno) from None
    if not isinstance(doc, dict):
        raise CalibrationFileError(p, "expected a {...} object at the top level")
    if doc.get("format") != FORMAT_NAME:
        raise rd.error("format", f"not an Arbitre calibration file (format is "
                                 f"{doc.get('format')!r}, expected {FORMAT_NAME!r})")
    version = doc.get("version")
    if version != FORMAT_VERSION:
        raise rd.error("version", f"unsupported format version {version!r}; this Arbitre reads "
                                  f"version {FORMAT_VERSION}")
    created = doc.get("created_utc", "")
    if not isinstance(created, str):
        raise rd.error("created_utc", f"expected a date string, got {created!r}")
    inputs = rd.section(doc, "inputs") or {}

    lens = None
    ls = rd.section(doc, "lens")
    if ls is not None:
        model = rd.require(ls, "model", "lens")
        if model != "opencv5":
            raise rd.error("lens.model", f"unknown lens model {model!r}; expected 'opencv5'")
        size = rd.require(ls, "image_size", "lens")
        if (not isinstance(size, list) or len(size) != 2
                or not all(isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in size)):
            raise rd.error("lens.image_size",
                           f"expected [width, height] positive integers, got {size!r}")
        fx = rd.number(ls, "fx", "lens", positive=True)
        fy = rd.number(ls, "fy", "lens", positive=True)
        cx = rd.number(ls, "cx", "lens")
        cy = rd.number(ls, "cy", "lens")
        if not (-0.5 * size[0] <= cx <= 1.5 * size[0]):
            raise rd.error("lens.cx",
                           f"principal point x = {cx} is far outside the {size[0]} px wide image")
        if not (-0.5 * size[1] <= cy <= 1.5 * size[1]):
            raise rd.error("lens.cy",
                           f"principal point y = {cy} is far outside the {size[1]} px high image")
        dist = rd.matrix(ls, "dist", "lens", (5,))
        stddev = rd.section(ls, "stddev", "lens") or {}
        for k, v in stddev.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
                raise rd.error(f"lens.stddev.{k}", f"expected a number >= 0, got {v!r}")
        quality = rd.section(ls, "quality", "lens") or {}
        K = np.array([[fx, 0, cx], [0, fy, cy], [0, 0, 1]], dtype=np.float64)
        lens = Lens((size[0], size[1]), K, dist, {k: float(v) for k, v in stddev.items()}, quality)

    table = None
    ts = rd.section(doc, "table")
    if ts is not None:
        T = rd.matrix(ts, "T_table_from_image", "table", (3, 3))
        if abs(np.linalg.det(T)) < 1e-300:
            raise rd.error("table.T_table_from_image", "the homography is singular (determinant 0)")
        und = rd.require(ts, "undistorted", "table")
        if not isinstance(und, bool):
            raise rd.error("table.undistorted", f"expected true or false, got {und!r}")
        if und and lens is None:
            raise rd.error("table.undistorted",
                           "the table homography needs undistorted pixels but the file has no "
                           "'lens' section; add the lens or re-run `arbitre calibrate table`")
        rms = rd.number(ts, "residual_rms_mm", "table", non_negative=True)
        mx = rd.number(ts, "residual_max_mm", "table", non_negative=True)
        markers = rd.section(ts, "markers", "table") or {}
        _check_markers(rd, markers)
        table = TablePlane(T, und, rms, mx, markers)

    colours = None
    cs = rd.section(doc, "colours")
    if cs is not None:
        from calibration.colours import ColourModel

        try:
            colours = ColourModel.from_dict(cs)
        except ValueError as exc:
            key = getattr(exc, "key", "") or ""
            full = f"colours.{key}" if key else "colours"
            raise rd.error(full, str(exc)) from None

    known = {"format", "version", "created_utc", "inputs", "lens", "table", "colours"}
    unknown = sorted(set(doc) - known)
    if unknown:
        raise rd.error(unknown[0],
                       f"unknown section {unknown[0]!r}; expected one of {sorted(known)}")
    return Calibration(lens=lens, table=table, colours=colours, inputs=inputs, created_utc=created)


def load_calibration(path: str | os.PathLike) -> Calibration:
    """Read and validate a calibration file.

    Raises:
        CalibrationFileError: the file is missing, unreadable or wrong; the message names the
            file, the line and key, and what is wrong.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CalibrationFileError(path, "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CalibrationFileError(path, f"cannot read the file: {exc}") from None
    return loads_calibration(text, path)
