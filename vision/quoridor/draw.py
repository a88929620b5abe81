"""Drawing what the reader saw over a frame: ``annotate(frame, pose, reading) -> frame``.

Never changes the reading; returns a new image. The grid is drawn on the board top (z = 0),
pawns as rings at half their height and walls as thick lines along their tops, so the drawing
sits on the objects in oblique views too.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.quoridor.geometry import DEFAULT_BOARD, BoardSpec, square_coords
from vision.quoridor.locate import BoardPose
from vision.quoridor.reader import BoardReading

__all__ = ["annotate", "PLAYER_BGR"]

#: Drawing colours of P1..P4 (BGR).
PLAYER_BGR = ((60, 60, 230), (230, 140, 40), (60, 200, 60), (40, 200, 230))


def annotate(frame_bgr: np.ndarray, pose: BoardPose, reading: BoardReading | None = None,
             board: BoardSpec = DEFAULT_BOARD) -> np.ndarray:
    """A copy of ``frame_bgr`` with the grid, the pawns and walls read, and the frame's state."""
    out = frame_bgr.copy()
    cam = pose.camera
    half = board.grid_mm / 2
    p = board.pitch_mm
    lines = []
    for k in range(8):
        g = (k - 3.5) * p
        lines.append(((-half, g), (half, g)))
        lines.append(((g, -half), (g, half)))
    lines += [((-half, -half), (half, -half)), ((half, -half), (half, half)),
              ((half, half), (-half, half)), ((-half, half), (-half, -half))]
    for a, b in lines:
        pts = np.column_stack([np.linspace(a[0], b[0], 12), np.linspace(a[1], b[1], 12), np.zeros(12)])
        px = np.round(cam.project(pts) * 16).astype(np.int32)
        cv2.polylines(out, [px], False, (200, 200, 200), 1, cv2.LINE_AA, shift=4)
    if reading is None:
        return out
    for wall in reading.walls:
        c, r = square_coords(wall[:-1])
        cx, cy = board.wall_centre_mm(c, r)
        hl = board.wall_length_mm / 2
        a, b = ((cx - hl, cy), (cx + hl, cy)) if wall[-1] == "h" else ((cx, cy - hl), (cx, cy + hl))
        px = cam.project(np.array([[*a, board.wall_height_mm], [*b, board.wall_height_mm]]))
        cv2.line(out, tuple(int(v) for v in px[0]), tuple(int(v) for v in px[1]), (0, 220, 255), 4,
                 cv2.LINE_AA)
    for k, sq in enumerate(reading.pawns):
        if sq is None:
            continue
        c = board.cell_centre_mm(*square_coords(sq))
        ring = np.column_stack([c[0] + board.pawn_radius_mm * np.cos(np.linspace(0, 6.3, 24)),
                                c[1] + board.pawn_radius_mm * np.sin(np.linspace(0, 6.3, 24)),
                                np.full(24, board.pawn_height_mm / 2)])
        px = np.round(cam.project(ring) * 16).astype(np.int32)
        colour = PLAYER_BGR[k % len(PLAYER_BGR)]
        cv2.polylines(out, [px], True, colour, 2, cv2.LINE_AA, shift=4)
        top = cam.project(np.array([[c[0], c[1], board.pawn_height_mm + 4]]))[0]
        cv2.putText(out, f"P{k + 1}", (int(top[0]) - 10, int(top[1]) - 4), cv2.FONT_HERSHEY_SIMPLEX,
                    0.5, colour, 2, cv2.LINE_AA)
    state = "clear" if reading.clear else ("hand" if reading.hand else "unsure")
    cv2.putText(out, state, (12, 28), cv2.FONT_HERSHEY_SIMPLEX, 0.8,
                (60, 200, 60) if reading.clear else (40, 40, 230), 2, cv2.LINE_AA)
    return out
