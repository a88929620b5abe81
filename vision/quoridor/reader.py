"""One frame → what stands on the board: pawn squares, walls, and whether the view is clear.

The reader samples the image where board points *at their height* project (the camera model of
:class:`vision.quoridor.locate.BoardPose`):

- ``cell``: 9 points around each cell's centre at half a pawn's height. A pawn there shows its
  body; an empty cell shows the board just behind the centre. Pawns are found by colour, the
  colours being learned from the known start position (:meth:`BoardReader.learn_start`).
- ``segment``: 10 points along each of the 144 groove segments at 0.6 of a wall's height. A wall
  shows its face or top there; an empty groove shows the groove or the cell beyond it. A segment
  is a wall when its colour left the learned empty look (and, once walls have been seen, is
  nearer the learned wall look than the empty one). Segments a pawn hides from the camera
  (ray-traced against a cylinder per pawn) are "unknown" and keep their prior state.
- ``rim``: 96 points on the board's rim. An arm reaching over the board crosses the rim, so
  rim points that left their learned look mean "hand": the frame is not trusted.

Reading a clear 1280×720 frame costs a few milliseconds (all sample pixels are precomputed).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.quoridor.geometry import (
    DEFAULT_BOARD,
    NUM_SEGMENTS,
    BoardSpec,
    occupied_runs,
    segments_from_walls,
    square_coords,
    square_name,
    walls_from_segments,
)
from vision.quoridor.locate import BoardPose

__all__ = ["BoardReading", "BoardReader", "START_SQUARES", "ReaderError"]

START_SQUARES = {2: ("e1", "e9"), 4: ("e1", "a5", "e9", "i5")}


class ReaderError(ValueError):
    """The frame cannot serve to learn the board (e.g. the start position is not visible)."""


@dataclass
class BoardReading:
    """What one frame shows.

    Attributes:
        pawns: per player (P1 first), the square of its pawn, or None when not seen.
        walls: the walls in notation (``"e3h"``).
        segments: (144,) int8: 1 wall, 0 empty, -1 hidden from the camera (a pawn in front).
        clear: True when nothing covers the board and the reading is complete and consistent.
        hand: True when something (a hand, an arm) seems to cover part of the board.
        problems: why the reading is not clear, in words.
        pawn_distance: (players,) colour distance of each pawn's best cell to its learned colour.
        segment_score: (144,) evidence for a wall (> 0) or an empty groove (< 0), grey levels.
    """

    pawns: tuple[str | None, ...]
    walls: frozenset[str]
    segments: np.ndarray
    clear: bool
    hand: bool
    problems: list[str] = field(default_factory=list)
    pawn_distance: np.ndarray = field(default_factory=lambda: np.zeros(0))
    segment_score: np.ndarray = field(default_factory=lambda: np.zeros(NUM_SEGMENTS))

    def __post_init__(self) -> None:
        self.segments = np.asarray(self.segments, np.int8)
        if self.segments.shape != (NUM_SEGMENTS,):
            raise ValueError(f"segments: expected shape ({NUM_SEGMENTS},), got {self.segments.shape}")

    def key(self) -> tuple:
        """What must stay equal for two readings to be "the same state"."""
        return (self.pawns, self.walls)

    def cells(self) -> np.ndarray:
        """(81,) int: the player (0-based) on each cell (``row * 9 + col``), -1 when empty."""
        out = np.full(81, -1, int)
        for k, sq in enumerate(self.pawns):
            if sq is not None:
                c, r = square_coords(sq)
                out[r * 9 + c] = k
        return out


def colour_features(bgr: np.ndarray) -> np.ndarray:
    """(…, 3) BGR → (…, 4) features where shading matters less than hue: chromaticity scaled to
    ~100 per channel, plus half the brightness. Pawn sides turn to and from the light as a pawn
    crosses the board; their chromaticity stays."""
    x = np.asarray(bgr, np.float32)
    s = x.sum(-1, keepdims=True) + 3.0
    return np.concatenate([x / s * 300.0, 0.5 * s / 3.0], axis=-1)


def _disc(n_ring: int, radius: float) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, n_ring, endpoint=False)
    return np.vstack([[0.0, 0.0], np.column_stack([radius * np.cos(a), radius * np.sin(a)])])


class BoardReader:
    """Reads frames of one board seen by one fixed camera (:class:`BoardPose`)."""

    #: A rim item is "covered" when its colour moved this far (BGR) from its learned look.
    RIM_THRESHOLD = 38.0
    #: Without a learned wall look, a segment is a wall when it moved this far from empty.
    WALL_THRESHOLD = 30.0
    #: A cell shows pawn k when its colour features are this near a learned look of pawn k.
    PAWN_THRESHOLD = 40.0
    #: How many looks of each pawn to remember.
    MAX_LOOKS = 12

    def __init__(self, pose: BoardPose, players: int, board: BoardSpec = DEFAULT_BOARD) -> None:
        if players not in START_SQUARES:
            raise ValueError(f"players: expected 2 or 4, got {players}")
        self.pose = pose
        self.players = players
        self.board = board
        cam = pose.camera
        w, h = cam.image_size
        b = board
        # --- sample points (board mm, with height) ---
        cols, rows = np.meshgrid(np.arange(9), np.arange(9))
        centres = b.cell_centre_mm(cols.ravel(), rows.ravel())  # (81, 2), index row*9+col
        disc = _disc(8, 2.5)
        cell_pts = (centres[:, None, :] + disc[None]).reshape(-1, 2)
        self._cell_z = 0.5 * b.pawn_height_mm
        cell3 = np.column_stack([cell_pts, np.full(len(cell_pts), self._cell_z)])
        seg_c = b.segment_centres_mm()
        vert = b.segment_is_vertical()
        along = np.array([-5.0, -2.5, 0.0, 2.5, 5.0])
        across = np.array([-0.8, 0.8])
        seg_pts = []
        for s in range(NUM_SEGMENTS):
            for a in along:
                for c in across:
                    d = np.array([c, a]) if vert[s] else np.array([a, c])
                    seg_pts.append(seg_c[s] + d)
        # just under a wall's top: a wall shows its top face (lit alike everywhere) there
        seg3 = np.column_stack([np.array(seg_pts), np.full(len(seg_pts), b.wall_height_mm - 0.6)])
        rim_mid = (b.grid_mm / 2 + b.side_mm / 2) / 2
        t = np.linspace(-b.side_mm / 2 + 8, b.side_mm / 2 - 8, 24)
        rim_items = []
        for side in range(4):
            for tt in t:
                base = {0: (tt, -rim_mid), 1: (rim_mid, tt), 2: (tt, rim_mid), 3: (-rim_mid, tt)}[side]
                nrm = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}[side]
                rim_items.append([np.add(base, np.multiply(nrm, o)) for o in (-3.0, 0.0, 3.0)])
        rim_pts = np.array(rim_items).reshape(-1, 2)
        rim3 = np.column_stack([rim_pts, np.zeros(len(rim_pts))])
        self._n_cell_pts, self._n_seg_pts, self._n_rim_pts = len(disc), 10, 3
        self.n_rim = len(rim_items)
        allp = np.vstack([cell3, seg3, rim3])
        px = np.round(cam.project(allp)).astype(np.int64)
        inside = (px[:, 0] >= 0) & (px[:, 0] < w) & (px[:, 1] >= 0) & (px[:, 1] < h)
        px[:, 0] = np.clip(px[:, 0], 0, w - 1)
        px[:, 1] = np.clip(px[:, 1], 0, h - 1)
        self._flat_idx = px[:, 1] * w + px[:, 0]
        n1, n2 = len(cell3), len(cell3) + len(seg3)
        self._slices = (slice(0, n1), slice(n1, n2), slice(n2, len(allp)))
        self._rim_inside = inside[n2:].reshape(self.n_rim, -1).all(1)
        # --- which pawn positions hide which sample items from the camera ---
        C = cam.centre_world_mm
        r_occ, h_occ = b.pawn_radius_mm + 1.5, b.pawn_height_mm + 2.0
        seg_block = self._blocked(seg3, centres, C, r_occ, h_occ).reshape(NUM_SEGMENTS, -1, 81).any(1)
        rim_block = self._blocked(rim3, centres, C, r_occ, h_occ).reshape(self.n_rim, -1, 81).any(1)
        self.segment_hidden_by = seg_block  # (144, 81)
        self.segment_hidden_by_wall = self._wall_blocks(seg3, C).reshape(NUM_SEGMENTS, -1, 128).any(1)
        self.rim_hidden_by = rim_block  # (96, 81)
        # --- learned looks ---
        self.pawn_bgr: np.ndarray | None = None  # (players, 3) at the start
        #: per player, looks of its pawn seen in trusted frames (features, (n, 4))
        self.pawn_looks: list[np.ndarray] = []
        self.cell_ref = np.full((81, 3), np.nan)
        self.cell_ref_segments: np.ndarray = np.zeros((81, 4), np.int8)
        self.seg_ref = np.full((NUM_SEGMENTS, 3), np.nan)
        self.wall_ref: dict[bool, np.ndarray] = {}
        self.rim_ref = np.full((self.n_rim, 3), np.nan)
        self._cell_adjacent_segments = self._adjacent_segments()

    @staticmethod
    def _blocked(points: np.ndarray, axes_xy: np.ndarray, C: np.ndarray, radius: float,
                 height: float) -> np.ndarray:
        """(N, 81) bool: a cylinder (``radius``, ``height``) standing on each axis meets the
        camera ray through each point anywhere between the camera ``C`` and the board (z = 0):
        in front of the point it hides it, behind it it shows through when nothing is there."""
        dz0 = C[2] - points[:, 2]
        k = points[:, 2] / np.maximum(dz0, 1e-9)
        ground = points - k[:, None] * (C[None] - points)
        points = ground
        p = points[:, None, :]
        dz = C[2] - p[..., 2]
        s_max = np.clip((height - p[..., 2]) / np.maximum(dz, 1e-9), 0.0, 1.0)
        d = (C[:2] - points[:, :2])[:, None, :]
        a = axes_xy[None] - p[..., :2]
        dd = np.maximum((d * d).sum(-1), 1e-9)
        s = np.clip((a * d).sum(-1) / dd, 0.0, s_max)
        closest = p[..., :2] + s[..., None] * d
        dist = np.linalg.norm(closest - axes_xy[None], axis=-1)
        own = np.linalg.norm(a, axis=-1) < 1e-6
        return (dist < radius) & ~own

    def _wall_blocks(self, points: np.ndarray, C: np.ndarray) -> np.ndarray:
        """(N, 128) bool: wall ``w`` (``anchor * 2 + (0 h, 1 v)``) meets the camera ray through
        each point between the point's height and the board — the empty look of a groove there
        would show that wall. Walls covering the point itself are left out."""
        b = self.board
        k = points[:, 2] / np.maximum(C[2] - points[:, 2], 1e-9)
        ground = points - k[:, None] * (C[None] - points)
        out = np.zeros((len(points), 128), bool)
        P0, d = points, ground - points  # segment P0 + t d, t in [0, 1]
        hl, ht = b.wall_length_mm / 2, b.wall_thickness_mm / 2
        for w in range(128):
            a, vert = w // 2, w % 2
            cx, cy = b.wall_centre_mm(a % 8, a // 8)
            dx, dy = (ht, hl) if vert else (hl, ht)
            lo = np.array([cx - dx, cy - dy, 0.0])
            hi = np.array([cx + dx, cy + dy, b.wall_height_mm])
            with np.errstate(divide="ignore", invalid="ignore"):
                t1 = (lo - P0) / d
                t2 = (hi - P0) / d
            tmin = np.where(np.isfinite(np.minimum(t1, t2)), np.minimum(t1, t2), -np.inf)
            tmax = np.where(np.isfinite(np.maximum(t1, t2)), np.maximum(t1, t2), np.inf)
            # axis-parallel components: inside the slab or never
            par = np.abs(d) < 1e-12
            inside = (P0 >= lo) & (P0 <= hi)
            tmin = np.where(par, np.where(inside, -np.inf, np.inf), tmin)
            tmax = np.where(par, np.where(inside, np.inf, -np.inf), tmax)
            t_in, t_out = tmin.max(1), tmax.min(1)
            hit = (t_in <= t_out) & (t_out >= 0) & (t_in <= 1)
            own = ((P0[:, 0] >= lo[0]) & (P0[:, 0] <= hi[0]) & (P0[:, 1] >= lo[1]) & (P0[:, 1] <= hi[1]))
            out[:, w] = hit & ~own
        return out

    def _adjacent_segments(self) -> np.ndarray:
        """(81, 4) flat segment index (or -1) on the N, S, E, W side of each cell."""
        out = np.full((81, 4), -1, int)
        for r in range(9):
            for c in range(9):
                i = r * 9 + c
                if r < 8:
                    out[i, 0] = r * 9 + c
                if r > 0:
                    out[i, 1] = (r - 1) * 9 + c
                if c < 8:
                    out[i, 2] = 72 + c * 9 + r
                if c > 0:
                    out[i, 3] = 72 + (c - 1) * 9 + r
        return out

    # ---------------------------------------------------------------------------------
    def sample(self, frame_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Mean colours: cells (81, 3), segments (144, 3), rim items (96, 3), float32 BGR."""
        w, h = self.pose.camera.image_size
        if frame_bgr.shape[:2] != (h, w):
            raise ValueError(f"frame: expected {w}×{h}, got {frame_bgr.shape[1]}×{frame_bgr.shape[0]}")
        vals = frame_bgr.reshape(-1, 3)[self._flat_idx].astype(np.float32)
        sc, ss, sr = self._slices
        cells = vals[sc].reshape(81, self._n_cell_pts, 3).mean(1)
        segs = vals[ss].reshape(NUM_SEGMENTS, self._n_seg_pts, 3).mean(1)
        rim = vals[sr].reshape(self.n_rim, self._n_rim_pts, 3).mean(1)
        return cells, segs, rim

    def learn_start(self, frame_bgr: np.ndarray) -> BoardReading:
        """Learn pawn colours and the empty board's look from a frame of the start position
        (pawns on their start squares, no walls, no hands). Raises :class:`ReaderError` when the
        frame does not look like that."""
        cells, segs, rim = self.sample(frame_bgr)
        starts = [square_coords(s) for s in START_SQUARES[self.players]]
        idx = [r * 9 + c for c, r in starts]
        pawn = cells[idx].copy()
        empty = np.ones(81, bool)
        empty[idx] = False
        med = np.median(cells[empty], axis=0)
        for k in range(self.players):
            if np.linalg.norm(pawn[k] - med) < 30:
                raise ReaderError(f"no pawn seen on {START_SQUARES[self.players][k]}: the frame must "
                                  "show the start position (pawns on their start squares)")
            for j in range(k):
                if np.linalg.norm(pawn[k] - pawn[j]) < 30:
                    raise ReaderError(f"the pawns of P{j + 1} and P{k + 1} look alike; use pawns "
                                      "of clearly different colours")
        self.pawn_bgr = pawn
        self.pawn_looks = [colour_features(pawn[k])[None] for k in range(self.players)]
        self.cell_ref[:] = np.nan
        self.cell_ref[empty] = cells[empty]
        self.cell_ref_segments[:] = 0
        occupied_cells = np.zeros(81, bool)
        occupied_cells[idx] = True
        seg_hidden = self.segment_hidden_by[:, occupied_cells].any(1)
        self.seg_ref[:] = np.nan
        self.seg_ref[~seg_hidden] = segs[~seg_hidden]
        rim_hidden = self.rim_hidden_by[:, occupied_cells].any(1)
        self.rim_ref[:] = np.nan
        self.rim_ref[~rim_hidden & self._rim_inside] = rim[~rim_hidden & self._rim_inside]
        self.wall_ref = {}
        reading = self.read(frame_bgr)
        if not reading.clear:
            raise ReaderError("the start position could not be read back: "
                              + "; ".join(reading.problems))
        return reading

    @staticmethod
    def _wall_index(wall: str) -> int:
        c, r = square_coords(wall[:-1])
        return (r * 8 + c) * 2 + (1 if wall[-1] == "v" else 0)

    @staticmethod
    def _resolve(occ: np.ndarray, unknown: np.ndarray, score: np.ndarray) -> np.ndarray:
        """Make runs of occupied segments even by flipping unknown segments next to odd runs
        (the one whose own look says "wall" more, when both ends could)."""
        occ = occ.copy().reshape(2, 8, 9)
        unk = unknown.reshape(2, 8, 9)
        sc = np.nan_to_num(score, nan=-1e3).reshape(2, 8, 9)
        for kind in (0, 1):
            for g in range(8):
                line, u = occ[kind, g], unk[kind, g]
                for _ in range(9):
                    changed = False
                    for start, k in occupied_runs(line):
                        if (k - start) % 2:
                            ends = [j for j in (k, start - 1) if 0 <= j < 9 and u[j] and not line[j]]
                            if ends:
                                line[max(ends, key=lambda j: sc[kind, g, j])] = True
                                changed = True
                                break
                    if not changed:
                        break
        return occ.reshape(-1)

    def read(self, frame_bgr: np.ndarray, prior_walls: frozenset[str] = frozenset()) -> BoardReading:
        """Read one frame. ``prior_walls`` (the last trusted walls) fill the segments a pawn hides."""
        if self.pawn_bgr is None:
            raise ReaderError("learn the start position first (learn_start)")
        cells, segs, rim = self.sample(frame_bgr)
        problems: list[str] = []
        # --- pawns ---
        ref = self.cell_ref.copy()
        known = np.isfinite(ref[:, 0])
        ref[~known] = np.median(ref[known], axis=0) if known.any() else 0
        d_ref = np.linalg.norm(cells - ref, axis=1)  # (81,)
        fc, fr = colour_features(cells), colour_features(ref)
        d_ref_f = np.linalg.norm(fc - fr, axis=1)
        D = np.stack([np.linalg.norm(fc[:, None, :] - looks[None], axis=2).min(1)
                      for looks in self.pawn_looks])  # (P, 81)
        pawns: list[str | None] = []
        pawn_dist = np.zeros(self.players)
        taken: set[int] = set()
        is_pawn = (D < self.PAWN_THRESHOLD) & (D < 0.6 * d_ref_f[None])
        for k in range(self.players):
            cand = np.flatnonzero(is_pawn[k])
            if len(cand) == 0:
                pawns.append(None)
                pawn_dist[k] = float(D[k].min())
                problems.append(f"P{k + 1}'s pawn not seen")
                continue
            order = cand[np.argsort(D[k, cand])]
            best = int(order[0])
            pawn_dist[k] = float(D[k, best])
            if len(order) > 1:
                second = int(order[1])
                problems.append(f"P{k + 1}'s colour seen on two cells "
                                f"({square_name(best % 9, best // 9)}, "
                                f"{square_name(second % 9, second // 9)})")
            if best in taken:
                problems.append(f"two pawns read on {square_name(best % 9, best // 9)}")
            taken.add(best)
            pawns.append(square_name(best % 9, best // 9))
        occupied = np.zeros(81, bool)
        occupied[list(taken)] = True
        # --- walls ---
        sref = self.seg_ref
        e = np.linalg.norm(segs - sref, axis=1)  # NaN where the empty look is not known yet
        vert = self.board.segment_is_vertical()
        score = e - self.WALL_THRESHOLD
        for v, wref in self.wall_ref.items():
            sel = vert == v
            wd = np.linalg.norm(segs[sel] - wref, axis=1)
            score[sel] = np.where(e[sel] > 12.0, e[sel] - wd, e[sel] - 24.0)
            # a segment whose empty look is unknown: a wall when it looks like the walls
            nan = sel & ~np.isfinite(e)
            score[nan] = np.where(wd[~np.isfinite(e[sel])] < 20.0, 1.0, np.nan)
        prior = segments_from_walls(prior_walls)
        by_pawn = self.segment_hidden_by[:, occupied].any(1) | ~np.isfinite(score)
        seen = np.nan_to_num(score, nan=-1.0) > 0
        shown = set(prior_walls)
        for _ in range(2):
            # a wall (known before, or seen now) in the line of sight spoils a segment's look
            hidden = by_pawn | self.segment_hidden_by_wall[:, [self._wall_index(w) for w in shown]].any(1)
            occ = self._resolve(np.where(hidden, prior, seen), hidden, score)
            walls, wall_problems = walls_from_segments(occ)
            if walls <= shown:
                break
            shown |= walls
        seg_state = np.where(seen, 1, 0).astype(np.int8)
        seg_state[hidden] = -1
        problems += wall_problems
        # --- hands: the rim and cells that look like nothing known ---
        rim_dev = np.linalg.norm(rim - self.rim_ref, axis=1)
        rim_hidden = self.rim_hidden_by[:, occupied].any(1)
        covered_rim = int(np.sum((rim_dev > self.RIM_THRESHOLD) & ~rim_hidden & np.isfinite(rim_dev)))
        adj = self._cell_adjacent_segments
        adj_now = np.where(adj >= 0, occ[np.maximum(adj, 0)].astype(np.int8), 0)
        same_walls = (adj_now == self.cell_ref_segments).all(1)
        strange = known & ~occupied & same_walls & (d_ref > 45.0) & (D.min(0) > self.PAWN_THRESHOLD)
        n_strange = int(strange.sum())
        hand = covered_rim >= 2 or n_strange >= 2
        if covered_rim >= 2:
            problems.append(f"something covers the board's rim ({covered_rim} places)")
        if n_strange >= 2:
            problems.append(f"{n_strange} cells look like neither board nor pawn")
        clear = not problems
        return BoardReading(tuple(pawns), walls, seg_state, clear, hand, problems, pawn_dist, score)

    def learn_state(self, frame_bgr: np.ndarray, reading: BoardReading) -> None:
        """Refresh the learned looks from a trusted (stable, accepted) frame and its reading."""
        if not reading.clear:
            return
        cells, segs, rim = self.sample(frame_bgr)
        where = reading.cells()
        occupied = where >= 0
        feats = colour_features(cells)
        for k in range(self.players):
            i = np.flatnonzero(where == k)
            if len(i) == 1:
                looks = self.pawn_looks[k]
                if np.linalg.norm(looks - feats[i[0]], axis=1).min() > 4.0:
                    self.pawn_looks[k] = np.vstack([looks, feats[i]])[-self.MAX_LOOKS:]
        occ = segments_from_walls(reading.walls)
        empty = ~occupied
        self.cell_ref[empty] = cells[empty]
        adj = self._cell_adjacent_segments
        self.cell_ref_segments[empty] = np.where(adj >= 0, occ[np.maximum(adj, 0)], 0)[empty]
        hidden = (self.segment_hidden_by[:, occupied].any(1)
                  | self.segment_hidden_by_wall[:, [self._wall_index(w) for w in reading.walls]].any(1))
        free = ~hidden & ~occ
        self.seg_ref[free] = segs[free]
        vert = self.board.segment_is_vertical()
        for v in (False, True):
            sel = ~hidden & occ & (vert == v)
            if sel.any():
                self.wall_ref[v] = np.median(segs[sel], axis=0)
        rim_hidden = self.rim_hidden_by[:, occupied].any(1)
        ok = ~rim_hidden & self._rim_inside
        self.rim_ref[ok] = rim[ok]
