"""The Quoridor rules engine: :class:`QuoridorGame` and the camera-facing :class:`QuoridorPosition`.

Rules as decided in the referee's rulebook (``shared/docs/quoridor-referee.md``): 2 or 4 players,
straight jumps over one pawn only, diagonal side steps only when a wall or the board edge is
behind the faced pawn (a pawn there gives neither), walls may not overlap, cross, or cut any
player off (pawns ignored), first to the goal side wins at once, no walls left ⇒ must move.

Rule codes raised by :meth:`QuoridorGame.judge` (``IllegalMove.code``):

===================  =====================================================================
``game_over``        the game has ended
``not_your_turn``    the move was made for (``player=``) a player who is not to play
``off_board``        a square outside a1–i9, or a wall anchor outside a1–h8
``occupied``         the destination square holds a pawn
``not_adjacent``     the destination is not one step, one jump or one side step away
``blocked_by_wall``  a wall stands in the way of the step, the jump or the side step
``pawn_behind``      a pawn stands behind the faced pawn: no jump and no side step
``jump_available``   a side step while the straight jump is open (nothing behind the faced pawn)
``double_jump``      a jump over two pawns: never more than one pawn is jumped
``no_walls_left``    a wall from a player whose walls are all placed
``wall_overlap``     a wall on (part of) an existing wall
``wall_cross``       a wall crossing an existing wall (same anchor, other orientation)
``wall_blocks_path`` a wall that would leave some player without a path to its goal side
===================  =====================================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Self

from games.base import TERMINAL, Game, IllegalMove, NotationError
from games.quoridor import board as B
from games.quoridor.moves import PawnMove, QuoridorMove, WallMove, parse_move

__all__ = ["GOALS", "MOVES", "START_SQUARES", "QuoridorGame", "QuoridorPosition", "code_of"]

#: Interned move objects by internal code (see :mod:`games.quoridor.board`).
MOVES: tuple[QuoridorMove, ...] = tuple(
    [PawnMove(B.square_name(sq)) for sq in range(B.NUM_SQUARES)]
    + [WallMove(B.anchor_name(w // 2), "v" if w % 2 else "h") for w in range(B.NUM_WALLS)]
)
_CODE: dict[QuoridorMove, int] = {m: c for c, m in enumerate(MOVES)}

#: Starting squares and goal sides, by number of players, in playing order.
START_SQUARES = {2: (4, 76), 4: (4, 36, 76, 44)}  # e1 e9 / e1 a5 e9 i5
GOALS = {
    2: (B.ROW[8], B.ROW[0]),
    4: (B.ROW[8], B.COL[8], B.ROW[0], B.COL[0]),
}
GOAL_NAMES = {B.ROW[8]: "row 9", B.ROW[0]: "row 1", B.COL[8]: "column i", B.COL[0]: "column a"}
WALLS_EACH = {2: 10, 4: 5}


def code_of(move: QuoridorMove) -> int | None:
    """The internal code of a move, or ``None`` when its square/anchor is off the board."""
    return _CODE.get(move)


def _player(p: int) -> str:
    return f"P{p + 1}"


@dataclass(frozen=True)
class QuoridorPosition:
    """What can be seen on the table: pawn squares (P1 first), walls, walls left, side to move.

    ``to_move`` is 0-based (``0`` is P1). :meth:`problems` lists what makes a position impossible
    (e.g. one read from a camera) instead of raising.
    """

    pawns: tuple[str, ...]
    walls: frozenset[str]
    walls_left: tuple[int, ...]
    to_move: int

    def text(self) -> str:
        """Compact form, e.g. ``"e1 e9/e3h f5v/10 9/P1"`` (pawns/walls/walls left/side to move)."""
        return "/".join(
            (
                " ".join(self.pawns),
                " ".join(sorted(self.walls, key=_wall_sort_key)),
                " ".join(str(n) for n in self.walls_left),
                _player(self.to_move),
            )
        )

    @classmethod
    def from_text(cls, text: str) -> Self:
        parts = text.split("/")
        if len(parts) != 4:
            raise NotationError(
                f"{text!r} is not a position: expected 'pawns/walls/walls left/side to move', "
                "e.g. 'e1 e9/e3h/10 9/P1'"
            )
        pawns, walls, left, side = (p.split() for p in parts)
        try:
            walls_left = tuple(int(n) for n in left)
            if len(side) != 1 or not side[0].upper().startswith("P"):
                raise ValueError
            to_move = int(side[0][1:]) - 1
        except ValueError:
            raise NotationError(
                f"{text!r}: walls left must be numbers and the side 'P1'…'P4'"
            ) from None
        for w in walls:
            WallMove.from_notation(w)
        for sq in pawns:
            PawnMove.from_notation(sq)
        return cls(tuple(pawns), frozenset(walls), walls_left, to_move)

    def problems(self) -> list[str]:
        """Everything that makes this position impossible under the rules; empty when valid."""
        out: list[str] = []
        n = len(self.pawns)
        if n not in (2, 4):
            return [f"{n} pawns: Quoridor is played by 2 or 4 players"]
        if len(self.walls_left) != n:
            out.append(f"{len(self.walls_left)} walls-left counts for {n} players")
        if not 0 <= self.to_move < n:
            out.append(f"side to move P{self.to_move + 1} does not exist with {n} players")
        squares: list[int] = []
        for p, name in enumerate(self.pawns):
            code = _CODE.get(PawnMove(name)) if _valid_square_text(name) else None
            if code is None:
                out.append(f"{_player(p)} on {name!r}: not a square a1–i9")
                continue
            if code in squares:
                out.append(f"{_player(p)} on {name}: another pawn is there")
            if GOALS[n][p] >> code & 1:
                out.append(f"{_player(p)} on {name}: already on its goal side (the game is over)")
            squares.append(code)
        walls: list[int] = []
        for name in sorted(self.walls, key=_wall_sort_key):
            code = _CODE.get(parse_move(name)) if _valid_wall_text(name) else None
            if code is None:
                out.append(f"wall {name!r}: not a wall a1h–h8v")
                continue
            w = code - B.WALL_BASE
            for other in walls:
                if B.WALL_FORBIDS[other] >> w & 1:
                    kind = "crosses" if other // 2 == w // 2 else "overlaps"
                    out.append(f"wall {name} {kind} wall {MOVES[B.WALL_BASE + other].notation()}")
            walls.append(w)
        if len(walls_left := self.walls_left) == n:
            if any(k < 0 or k > WALLS_EACH[n] for k in walls_left):
                out.append(f"walls left {list(walls_left)}: each must be 0–{WALLS_EACH[n]}")
            elif sum(walls_left) + len(self.walls) != WALLS_EACH[n] * n:
                out.append(
                    f"{len(self.walls)} walls on the board and {sum(walls_left)} left: "
                    f"expected {WALLS_EACH[n] * n} in all"
                )
        if not out:
            may = list(B.EMPTY_MAY)
            for w in walls:
                for i, c in enumerate(B.WALL_CLEAR[w]):
                    may[i] &= ~c
            for p, sq in enumerate(squares):
                if not B.reaches(1 << sq, GOALS[n][p], *may):
                    out.append(f"{_player(p)} on {B.square_name(sq)} has no path to its goal side")
        return out


def _valid_square_text(name: str) -> bool:
    try:
        return _CODE.get(PawnMove(name)) is not None
    except NotationError:
        return False


def _valid_wall_text(name: str) -> bool:
    try:
        m = parse_move(name)
    except NotationError:
        return False
    return isinstance(m, WallMove) and m in _CODE


def _wall_sort_key(name: str) -> tuple[int, int, str]:
    try:
        c, r = B.parse_coords(name[:-1])
        return (r, c, name)
    except (ValueError, IndexError):
        return (99, 99, name)


class QuoridorGame(Game):
    """A Quoridor game for 2 or 4 players.

    ``QuoridorGame(num_players=2)`` is the standard start; ``start=`` takes a
    :meth:`QuoridorPosition.text` to begin elsewhere (the record then counts from there).

    Internals are bitboards (see :mod:`games.quoridor.board`): four may-step masks updated when a
    wall is placed, so path checks and distances are a few shifts per step.
    """

    name: ClassVar[str] = "quoridor"

    __slots__ = (
        "_codes",
        "_forbidden",
        "_goals",
        "_may",
        "_n",
        "_pawns",
        "_points",
        "_stack",
        "_start",
        "_to_move",
        "_walls",
        "_walls_left",
        "_winner",
    )

    def __init__(self, num_players: int = 2, start: str | None = None) -> None:
        if num_players not in (2, 4):
            raise ValueError(f"Quoridor is played by 2 or 4 players, not {num_players}")
        self._n = num_players
        self._start = start
        self._goals = GOALS[num_players]
        self._pawns = list(START_SQUARES[num_players])
        self._may = list(B.EMPTY_MAY)
        self._walls = 0  # set of placed walls (bit w)
        self._forbidden = 0  # walls that can no longer be placed
        self._points = B.BORDER_POINTS  # lattice points touched by walls or the edge
        self._walls_left = [WALLS_EACH[num_players]] * num_players
        self._to_move = 0
        self._winner = -1
        self._codes: list[int] = []
        self._stack: list[tuple[Any, ...]] = []  # snapshots for undo()
        if start is not None:
            self._set_position(QuoridorPosition.from_text(start))

    def _set_position(self, pos: QuoridorPosition) -> None:
        problems = pos.problems()
        if len(pos.pawns) != self._n:
            problems.insert(0, f"{len(pos.pawns)} pawns for a {self._n}-player game")
        if problems:
            raise ValueError("impossible Quoridor position: " + "; ".join(problems))
        self._pawns = [_CODE[PawnMove(sq)] for sq in pos.pawns]
        for name in pos.walls:
            self._place_wall(_CODE[parse_move(name)] - B.WALL_BASE)
        self._walls_left = list(pos.walls_left)
        self._to_move = pos.to_move

    # --- the interface -------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self._n

    def current_player(self) -> int:
        return TERMINAL if self._winner >= 0 else self._to_move

    def is_terminal(self) -> bool:
        return self._winner >= 0

    def returns(self) -> list[float]:
        return [1.0 if p == self._winner else 0.0 for p in range(self._n)]

    @property
    def winner(self) -> int | None:
        return self._winner if self._winner >= 0 else None

    def record(self) -> list[QuoridorMove]:
        return [MOVES[c] for c in self._codes]

    def options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {"num_players": self._n}
        if self._start is not None:
            opts["start"] = self._start
        return opts

    def parse_move(self, text: str) -> QuoridorMove:
        return parse_move(text)

    def legal_moves(self) -> list[QuoridorMove]:
        """Pawn moves (by square, a1 first), then walls (by anchor, ``h`` before ``v``)."""
        return [MOVES[c] for c in self.legal_codes()]

    def apply(self, move: QuoridorMove) -> None:
        self.apply_code(_CODE[move])

    def play(self, move: QuoridorMove, player: int | None = None) -> None:  # type: ignore[override]
        self.judge(move, player=player)
        self.apply(move)

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new._n, new._start, new._goals = self._n, self._start, self._goals
        new._pawns, new._may = list(self._pawns), list(self._may)
        new._walls, new._forbidden, new._points = self._walls, self._forbidden, self._points
        new._walls_left = list(self._walls_left)
        new._to_move, new._winner = self._to_move, self._winner
        new._codes, new._stack = list(self._codes), list(self._stack)
        return new

    # --- camera-facing accessors ---------------------------------------------------
    def position(self) -> QuoridorPosition:
        return QuoridorPosition(
            pawns=tuple(B.square_name(s) for s in self._pawns),
            walls=frozenset(MOVES[B.WALL_BASE + w].notation() for w in B.bits(self._walls)),
            walls_left=tuple(self._walls_left),
            to_move=self._to_move,
        )

    @classmethod
    def from_position(cls, position: QuoridorPosition | str) -> Self:
        """A game starting at ``position`` (raises ``ValueError`` listing its problems)."""
        text = position.text() if isinstance(position, QuoridorPosition) else position
        return cls(num_players=len(QuoridorPosition.from_text(text).pawns), start=text)

    def pawn_squares(self) -> list[str]:
        return [B.square_name(s) for s in self._pawns]

    def walls(self) -> list[WallMove]:
        return [MOVES[B.WALL_BASE + w] for w in B.bits(self._walls)]  # type: ignore[misc]

    def walls_left(self) -> list[int]:
        return list(self._walls_left)

    def shortest_path_lengths(self) -> list[int]:
        """Steps each pawn needs to reach its goal side, ignoring other pawns."""
        return [self.distance(p) for p in range(self._n)]

    def distance(self, player: int) -> int:
        return B.distance(1 << self._pawns[player], self._goals[player], *self._may)

    # --- fast internals (used by search) -------------------------------------------
    def legal_codes(self) -> list[int]:
        if self._winner >= 0:
            return []
        codes = self.pawn_targets(self._to_move)
        if self._walls_left[self._to_move] > 0:
            codes.extend(self.legal_wall_codes())
        return codes

    def pawn_targets(self, player: int) -> list[int]:
        """Squares the pawn of ``player`` may move to, sorted."""
        may = self._may
        pawns = self._pawns
        s = pawns[player]
        occ = 0
        for q in pawns:
            occ |= 1 << q
        out: set[int] = set()
        for d in range(4):
            if not may[d] >> s & 1:
                continue
            t = s + B.DELTA[d]
            if not occ >> t & 1:
                out.add(t)
            elif may[d] >> t & 1:  # faced pawn, nothing but maybe a pawn behind
                t2 = t + B.DELTA[d]
                if not occ >> t2 & 1:
                    out.add(t2)
            else:  # a wall or the edge behind the faced pawn: side steps
                for d2 in B.PERPENDICULAR[d]:
                    if may[d2] >> t & 1 and not occ >> (t + B.DELTA[d2]) & 1:
                        out.add(t + B.DELTA[d2])
        return sorted(out)

    def path_cut_walls(self, player: int) -> int:
        """The walls (bitset) that cut one fixed shortest path of ``player``'s pawn."""
        n, s, e, w = self._may
        lay = B.layers(1 << self._pawns[player], self._goals[player], n, s, e, w)
        last = lay[-1] & self._goals[player]
        if not last:
            return 0
        cur = (last & -last).bit_length() - 1
        cut = 0
        for k in range(len(lay) - 2, -1, -1):
            layer = lay[k]
            if cur >= 9 and layer >> (cur - 9) & 1 and n >> (cur - 9) & 1:
                cur -= 9
                cut |= B.CUT_NORTH[cur]
            elif cur < 72 and layer >> (cur + 9) & 1 and s >> (cur + 9) & 1:
                cut |= B.CUT_NORTH[cur]
                cur += 9
            elif cur % 9 and layer >> (cur - 1) & 1 and e >> (cur - 1) & 1:
                cur -= 1
                cut |= B.CUT_EAST[cur]
            else:
                cut |= B.CUT_EAST[cur]
                cur += 1
        return cut

    def legal_wall_codes(self, candidates: int = B.ALL_WALLS) -> list[int]:
        """Codes of the legal walls among ``candidates`` (a wall bitset), in wall order.

        A wall needs a path search only when it cuts some player's current shortest path *and*
        touches the edge or other walls at two or more points (else it cannot close a region).
        """
        free = candidates & ~self._forbidden
        if not free:
            return []
        cut = 0
        for p in range(self._n):
            cut |= self.path_cut_walls(p)
        points = self._points
        out = []
        for w in B.bits(free):
            if (
                cut >> w & 1
                and (points & B.WALL_POINTS[w]).bit_count() >= 2
                and self._cuts_off(w) >= 0
            ):
                continue
            out.append(B.WALL_BASE + w)
        return out

    def _cuts_off(self, w: int) -> int:
        """The first player that wall ``w`` would leave without a path, or -1."""
        cn, cs, ce, cw = B.WALL_CLEAR[w]
        n, s, e, ww = self._may
        n, s, e, ww = n & ~cn, s & ~cs, e & ~ce, ww & ~cw
        for p in range(self._n):
            if not B.reaches(1 << self._pawns[p], self._goals[p], n, s, e, ww):
                return p
        return -1

    def _place_wall(self, w: int) -> None:
        cn, cs, ce, cw = B.WALL_CLEAR[w]
        may = self._may
        may[0] &= ~cn
        may[1] &= ~cs
        may[2] &= ~ce
        may[3] &= ~cw
        self._walls |= 1 << w
        self._forbidden |= B.WALL_FORBIDS[w]
        self._points |= B.WALL_POINTS[w]

    def apply_code(self, code: int) -> None:
        """Play the move with internal ``code``, trusting it is legal; :meth:`undo` takes it back."""
        p = self._to_move
        # Immutable snapshot: copies of a game share their undo stacks.
        self._stack.append(
            (
                tuple(self._pawns),
                tuple(self._may),
                self._walls,
                self._forbidden,
                self._points,
                tuple(self._walls_left),
                p,
                self._winner,
            )
        )
        if code < B.WALL_BASE:
            self._pawns[p] = code
            if self._goals[p] >> code & 1:
                self._winner = p
        else:
            self._place_wall(code - B.WALL_BASE)
            self._walls_left[p] -= 1
        self._to_move = (p + 1) % self._n
        self._codes.append(code)

    def undo(self) -> QuoridorMove:
        """Take back the last move (like python-chess's ``pop``) and return it."""
        if not self._stack:
            raise IndexError("no move to undo")
        (
            pawns,
            may,
            self._walls,
            self._forbidden,
            self._points,
            walls_left,
            self._to_move,
            self._winner,
        ) = self._stack.pop()
        self._pawns, self._may, self._walls_left = list(pawns), list(may), list(walls_left)
        return MOVES[self._codes.pop()]

    # --- judging ---------------------------------------------------------------------
    def judge(self, move: QuoridorMove, player: int | None = None) -> None:  # type: ignore[override]
        """Raise :class:`IllegalMove` if ``move`` is illegal here (see the module's rule codes).

        ``player`` (0-based), when given, is who made the move, e.g. the pawn a camera saw move.
        """
        if not isinstance(move, (PawnMove, WallMove)):
            raise IllegalMove("not_a_move", f"{move!r} is not a Quoridor move", move=move)
        if self._winner >= 0:
            raise IllegalMove(
                "game_over", f"the game is over: {_player(self._winner)} has won", move=move
            )
        me = self._to_move
        if player is not None and player != me:
            raise IllegalMove(
                "not_your_turn", f"it is {_player(me)}'s turn, not {_player(player)}'s", move=move
            )
        code = _CODE.get(move)
        if isinstance(move, WallMove):
            self._judge_wall(move, code)
        else:
            self._judge_pawn(move, code)

    def _judge_wall(self, move: WallMove, code: int | None) -> None:
        me, text = self._to_move, move.notation()
        if code is None:
            raise IllegalMove("off_board", f"{text}: wall anchors run a1–h8", move=move)
        if self._walls_left[me] == 0:
            raise IllegalMove(
                "no_walls_left",
                f"{_player(me)} has no walls left and must move its pawn",
                move=move,
            )
        w = code - B.WALL_BASE
        if self._forbidden >> w & 1:
            for other in B.bits(self._walls & B.WALL_FORBIDS[w]):
                name = MOVES[B.WALL_BASE + other].notation()
                if other // 2 == w // 2 and other != w:
                    raise IllegalMove(
                        "wall_cross", f"{text} would cross the wall {name}", move=move
                    )
                raise IllegalMove(
                    "wall_overlap", f"{text} would overlap the wall {name}", move=move
                )
        p = self._cuts_off(w)
        if p >= 0:
            raise IllegalMove(
                "wall_blocks_path",
                f"{text} would leave {_player(p)} without a path to {GOAL_NAMES[self._goals[p]]}",
                move=move,
            )

    def _judge_pawn(self, move: PawnMove, code: int | None) -> None:
        me, text = self._to_move, move.notation()
        if code is None:
            raise IllegalMove("off_board", f"{text} is off the board (a1–i9)", move=move)
        s = self._pawns[me]
        if code in self.pawn_targets(me):
            return
        here = B.square_name(s)
        who = _player(me)

        def illegal(rule: str, why: str) -> IllegalMove:
            return IllegalMove(rule, f"{who} cannot move {here}–{text}: {why}", move=move)

        if code == s:
            raise illegal("not_adjacent", "a pawn move must leave the square")
        occupied = {q: p for p, q in enumerate(self._pawns)}
        if code in occupied:
            raise illegal("occupied", f"{_player(occupied[code])} stands on {text}")
        may = self._may
        dc, dr = code % 9 - s % 9, code // 9 - s // 9

        def direction(dc: int, dr: int) -> int:
            return {(0, 1): B.NORTH, (0, -1): B.SOUTH, (1, 0): B.EAST, (-1, 0): B.WEST}[(dc, dr)]

        if abs(dc) + abs(dr) == 1:
            raise illegal("blocked_by_wall", "a wall is in the way")
        if (dc == 0 and abs(dr) in (2, 3)) or (dr == 0 and abs(dc) in (2, 3)):
            dist = abs(dc) + abs(dr)
            d = direction(dc // dist, dr // dist)
            middle = s + B.DELTA[d]
            if middle not in occupied:
                raise illegal(
                    "not_adjacent", "a pawn moves one square, or jumps over a facing pawn"
                )
            if not may[d] >> s & 1:
                raise illegal(
                    "blocked_by_wall", f"a wall stands between {here} and {B.square_name(middle)}"
                )
            if dist == 3:
                if middle + B.DELTA[d] in occupied:
                    raise illegal("double_jump", "never more than one pawn is jumped")
                raise illegal("not_adjacent", "a jump lands right behind the faced pawn")
            raise illegal(
                "blocked_by_wall", f"a wall behind {B.square_name(middle)} stops the jump"
            )
        if abs(dc) == 1 and abs(dr) == 1:
            reasons: list[tuple[str, str]] = []
            for d, side in (
                (direction(dc, 0), direction(0, dr)),
                (direction(0, dr), direction(dc, 0)),
            ):
                middle = s + B.DELTA[d]
                if middle not in occupied:
                    continue
                m = B.square_name(middle)
                if not may[d] >> s & 1:
                    reasons.append(("blocked_by_wall", f"a wall stands between {here} and {m}"))
                elif may[d] >> middle & 1:
                    behind = middle + B.DELTA[d]
                    if behind in occupied:
                        reasons.append(
                            ("pawn_behind", f"a pawn behind {m} gives neither jump nor side step")
                        )
                    else:
                        reasons.append(
                            (
                                "jump_available",
                                f"nothing behind {m}: side steps need a wall or the edge there",
                            )
                        )
                elif not may[side] >> middle & 1:
                    reasons.append(("blocked_by_wall", f"a wall blocks the side step from {m}"))
            if reasons:
                raise illegal(*reasons[0])
            raise illegal(
                "not_adjacent",
                "a diagonal step needs a facing pawn with a wall or the edge behind it",
            )
        raise illegal(
            "not_adjacent", "too far: a pawn moves one square, or jumps over a facing pawn"
        )

    # --- display -----------------------------------------------------------------------
    def __str__(self) -> str:
        n, _, e, _ = self._may
        on = {q: str(p + 1) for p, q in enumerate(self._pawns)}
        hw = {wall // 2 for wall in B.bits(self._walls) if wall % 2 == 0}
        vw = {wall // 2 for wall in B.bits(self._walls) if wall % 2 == 1}
        files = ("    " + "".join(f"  {f} " for f in B.FILES)).rstrip()
        lines = [files, "    +" + "---+" * 9]
        for r in range(8, -1, -1):
            row = f" {r + 1}  |"
            for c in range(9):
                sq = B.square(c, r)
                row += f" {on.get(sq, '.')} "
                row += "|" if c == 8 or not e >> sq & 1 else " "
            lines.append(row + f"  {r + 1}")
            if r == 0:
                break
            sep = "    +"
            for c in range(9):
                sq = B.square(c, r - 1)
                sep += "===" if not n >> sq & 1 else "   "
                if c == 8:
                    sep += "+"
                elif (r - 1) * 8 + c in hw:
                    sep += "="
                elif (r - 1) * 8 + c in vw:
                    sep += "|"
                else:
                    sep += "+"
            lines.append(sep)
        lines += ["    +" + "---+" * 9, files]
        status = "   ".join(
            f"P{p + 1} {B.square_name(q)} walls {self._walls_left[p]}"
            for p, q in enumerate(self._pawns)
        )
        turn = (
            f"{_player(self._winner)} has won"
            if self._winner >= 0
            else f"{_player(self._to_move)} to play"
        )
        lines.append(f"{status}   {turn}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options().items())
        return f"<QuoridorGame({opts}) after {len(self._codes)} moves: {self.record_text() or 'start'}>"
