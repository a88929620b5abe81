"""Following a Quoridor game over a video: stable readings and rules-aware move decoding.

:class:`GameWatcher` takes frames one by one (``update(frame, index) -> list[MoveEvent]``):

1. until the board is found and the start position learned, each frame is tried
   (:func:`vision.quoridor.locate.find_board`, :meth:`BoardReader.learn_start`);
2. each frame is read; a reading is *stable* once it has been clear (no hand, complete,
   consistent), identical and still (the sampled colours hardly move) for ``stable_frames``
   frames in a row;
3. a stable reading that differs from the game's position is decoded: every legal move of the
   side to play is compared with it, and the move that explains it exactly is accepted with a
   confidence. When no legal move explains it (two changes, a wall taken back, the wrong player,
   an illegal move), the event is *uncertain*: it carries what seems to have happened and the
   nearest legal candidates, the record gets ``"?"``, and watching goes on from the position
   seen (when it is a possible position). Nothing is ever silently accepted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from games.base import IllegalMove
from games.quoridor import PawnMove, QuoridorGame, QuoridorPosition, WallMove
from vision.quoridor.geometry import DEFAULT_BOARD, BoardSpec
from vision.quoridor.locate import BoardNotFound, BoardPose, find_board
from vision.quoridor.reader import BoardReader, BoardReading, ReaderError

__all__ = ["MoveEvent", "GameWatcher"]


@dataclass
class MoveEvent:
    """One decoded change of the board.

    Attributes:
        ply: index of the move in the record (0-based).
        frame: frame index where the new position became stable.
        player: 0-based player who was to move.
        move: the accepted move in notation, or None when uncertain.
        confidence: 0..1 for accepted moves (0 when uncertain).
        uncertain: True when no legal move explains what was seen.
        observed: what seems to have happened, in words.
        candidates: legal moves nearest to what was seen (best first); for an uncertain event
            the first entries may also include the literal reading (e.g. an illegal pawn move).
        reason: for uncertain events, why (the rule broken, or "two changes" etc.).
    """

    ply: int
    frame: int
    player: int
    move: str | None
    confidence: float
    uncertain: bool
    observed: str
    candidates: list[str] = field(default_factory=list)
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply, "frame": self.frame, "player": self.player + 1, "move": self.move,
            "confidence": round(self.confidence, 3), "uncertain": self.uncertain,
            "observed": self.observed, "candidates": self.candidates, "reason": self.reason,
        }


def _describe(before: QuoridorPosition, pawns: tuple[str | None, ...], walls: frozenset[str]
              ) -> tuple[list[tuple[int, str, str]], list[str], list[str]]:
    moved = [(k, a, b) for k, (a, b) in enumerate(zip(before.pawns, pawns)) if a != b and b is not None]
    added = sorted(walls - before.walls)
    removed = sorted(before.walls - walls)
    return moved, added, removed


class GameWatcher:
    """Follows one game from frames of a fixed camera."""

    def __init__(self, players: int = 2, board: BoardSpec = DEFAULT_BOARD, *,
                 K: np.ndarray | None = None, dist: np.ndarray | None = None,
                 stable_frames: int = 3, motion_threshold: float = 20.0) -> None:
        if players not in (2, 4):
            raise ValueError(f"players: expected 2 or 4, got {players}")
        self.players = players
        self.board = board
        self.K, self.dist = K, dist
        self.stable_frames = stable_frames
        self.motion_threshold = motion_threshold
        self.pose: BoardPose | None = None
        self.reader: BoardReader | None = None
        self.game = QuoridorGame(num_players=players)
        self.record: list[str] = []
        self.events: list[MoveEvent] = []
        self.last_problem = ""
        self.start_frame: int | None = None
        self._run = 0
        self._run_key: tuple | None = None
        self._prev_samples: np.ndarray | None = None
        self._last_reading: BoardReading | None = None
        self._unexplained: tuple | None = None

    @property
    def uncertain(self) -> list[MoveEvent]:
        return [e for e in self.events if e.uncertain]

    @property
    def ready(self) -> bool:
        return self.reader is not None

    # ---------------------------------------------------------------------------------
    def _try_start(self, frame: np.ndarray, index: int) -> None:
        try:
            pose = find_board(frame, self.board, K=self.K, dist=self.dist)
            reader = BoardReader(pose, self.players, self.board)
            reader.learn_start(frame)
        except (BoardNotFound, ReaderError) as exc:
            self.last_problem = str(exc)
            return
        self.pose, self.reader, self.start_frame = pose, reader, index

    def update(self, frame: np.ndarray, index: int) -> list[MoveEvent]:
        """Feed one frame (BGR); returns the moves decoded at this frame (usually none)."""
        if self.reader is None:
            self._try_start(frame, index)
            return []
        if self.game.is_terminal():
            return []
        reader = self.reader
        pos = self.game.position()
        reading = reader.read(frame, prior_walls=pos.walls)
        self._last_reading = reading
        cells, segs, rim = reader.sample(frame)
        samples = np.vstack([cells, segs, rim])
        # something moves when a few sampled places change colour from one frame to the next
        moving = (self._prev_samples is not None and int(np.sum(
            np.abs(samples - self._prev_samples).max(1) > self.motion_threshold)) >= 2)
        self._prev_samples = samples
        if not reading.clear or moving:
            self._run, self._run_key = 0, None
            return []
        key = reading.key()
        if key == self._run_key:
            self._run += 1
        else:
            self._run, self._run_key = 1, key
        if self._run != self.stable_frames:
            return []
        # a stable reading
        if reading.pawns == pos.pawns and reading.walls == pos.walls:
            reader.learn_state(frame, reading)
            return []
        if key == self._unexplained:
            return []  # the same unexplained view again (e.g. after a hand passed): asked already
        event = self._decode(reading, index)
        reader.learn_state(frame, reading)
        return [event]

    # ---------------------------------------------------------------------------------
    def _decode(self, reading: BoardReading, index: int) -> MoveEvent:
        """Decode a stable reading that differs from the game's position; record the event."""
        event = self._explain(reading, index)
        self.events.append(event)
        return event

    def _explain(self, reading: BoardReading, index: int) -> MoveEvent:
        game = self.game
        pos = game.position()
        me = game.current_player()
        ply = len(self.record)
        scored: list[tuple[int, str]] = []
        for m in game.legal_moves():
            g = game.copy()
            g.apply(m)
            p = g.position()
            mism = sum(a != b for a, b in zip(p.pawns, reading.pawns))
            mism += len(p.walls ^ reading.walls)
            scored.append((mism, m.notation()))
        scored.sort(key=lambda t: t[0])
        exact = [n for s, n in scored if s == 0]
        moved, added, removed = _describe(pos, reading.pawns, reading.walls)
        words = [f"P{k + 1} {a}→{b}" for k, a, b in moved] + [f"wall {w} placed" for w in added]
        words += [f"wall {w} taken away" for w in removed]
        observed = ", ".join(words) or "no change"
        if len(exact) == 1:
            move = exact[0]
            conf = self._confidence(reading, move, me)
            game.play(game.parse_move(move))
            self.record.append(move)
            return MoveEvent(ply, index, me, move, conf, False, observed, [move])
        # uncertain: say what it looked like and why it is not accepted
        reason = ""
        literal: list[str] = []
        if len(moved) + len(added) + len(removed) > 1:
            reason = "more than one change between two clear views"
        elif removed:
            reason = f"a wall ({removed[0]}) was taken away"
        elif moved:
            k, _, b = moved[0]
            try:
                game.judge(PawnMove(b), player=k)
            except IllegalMove as exc:
                reason = str(exc)
            literal.append(b)
        elif added:
            try:
                game.judge(WallMove(added[0][:-1], added[0][-1]))  # type: ignore[arg-type]
            except IllegalMove as exc:
                reason = str(exc)
            literal.append(added[0])
        if not reason:
            reason = "several legal moves fit what was seen" if len(exact) > 1 else "no legal move fits"
        near = [n for _, n in scored[:3]]
        cands = literal + [n for n in near if n not in literal]
        self.record.append("?")
        if not self._continue_from(reading, pos, me):
            self._unexplained = reading.key()
        return MoveEvent(ply, index, me, None, 0.0, True, observed, cands, reason)

    def _continue_from(self, reading: BoardReading, pos: QuoridorPosition, me: int) -> bool:
        """Carry on from the position seen, when it is a possible position; the walls left are
        made to add up (walls that appeared come off the mover first, walls that vanished go
        back to the mover first)."""
        if any(p is None for p in reading.pawns):
            return False
        total = (10 if self.players == 2 else 5)
        left = list(pos.walls_left)
        excess = sum(left) + len(reading.walls) - total * self.players
        order = [me] + [p for p in range(self.players) if p != me]
        for p in order:
            if excess > 0:
                take = min(excess, left[p])
                left[p] -= take
                excess -= take
            elif excess < 0:
                give = min(-excess, total - left[p])
                left[p] += give
                excess += give
        try:
            new = QuoridorPosition(pawns=tuple(p for p in reading.pawns if p is not None),
                                   walls=reading.walls, walls_left=tuple(left),
                                   to_move=(me + 1) % self.players)
            self.game = QuoridorGame.from_position(new)
        except ValueError:
            return False
        return True

    def _confidence(self, reading: BoardReading, move: str, me: int) -> float:
        """0..1 from how clearly the evidence for the move stood out."""
        if move[-1] in "hv":
            from vision.quoridor.geometry import wall_segments

            s = [reading.segment_score[i] for i in wall_segments(move)
                 if reading.segments[i] >= 0]
            if not s:
                return 0.5
            return float(np.clip(min(s) / 30.0, 0.05, 1.0))
        d = float(reading.pawn_distance[me])
        return float(np.clip(1.0 - d / BoardReader.PAWN_THRESHOLD, 0.05, 1.0))

    @property
    def last_reading(self) -> BoardReading | None:
        """The reading of the last frame given to :meth:`update` (None before the board is
        found); for drawing, never to be changed."""
        return self._last_reading

    def summary(self) -> dict[str, Any]:
        """``{"players", "moves", "uncertain": [{"ply", "frame", "candidates", ...}]}``."""
        return {
            "players": self.players,
            "moves": list(self.record),
            "uncertain": [
                {"ply": e.ply, "frame": e.frame, "candidates": e.candidates,
                 "observed": e.observed, "reason": e.reason}
                for e in self.uncertain
            ],
        }
