"""Cross-check of the bitboard engine against a slow, obviously-correct move generator written
straight from the rulebook, on random 2- and 4-player games. Reference coordinates are
(col, row), 0-based."""

from __future__ import annotations

import random
from collections import deque

import pytest

from games.base import IllegalMove
from games.quoridor import PawnMove, QuoridorGame
from games.quoridor.game import MOVES

START = {2: [(4, 0), (4, 8)], 4: [(4, 0), (0, 4), (4, 8), (8, 4)]}


def goal_reached(n: int, player: int, sq: tuple[int, int]) -> bool:
    c, r = sq
    if n == 2:
        return r == 8 if player == 0 else r == 0
    return [r == 8, c == 8, r == 0, c == 0][player]


def blocked(walls: set[tuple[int, int, str]], a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Is the step between adjacent squares a and b cut by a wall?"""
    (c1, r1), (c2, _) = sorted([a, b], key=lambda s: (s[1], s[0]))
    if c1 == c2:  # vertical step between rows r1 and r1+1
        return (c1, r1, "h") in walls or (c1 - 1, r1, "h") in walls
    return (c1, r1, "v") in walls or (c1, r1 - 1, "v") in walls


def on_board(sq: tuple[int, int]) -> bool:
    return 0 <= sq[0] < 9 and 0 <= sq[1] < 9


def can_step(walls, a, b) -> bool:
    return on_board(b) and not blocked(walls, a, b)


def pawn_targets(walls, pawns, player) -> set[tuple[int, int]]:
    me = pawns[player]
    others = set(pawns) - {me}
    out = set()
    for d in [(0, 1), (0, -1), (1, 0), (-1, 0)]:
        t = (me[0] + d[0], me[1] + d[1])
        if not can_step(walls, me, t):
            continue
        if t not in others:
            out.add(t)
            continue
        behind = (t[0] + d[0], t[1] + d[1])
        if can_step(walls, t, behind):
            if behind not in others:
                out.add(behind)
            continue  # a pawn behind: neither jump nor side steps
        for side in [(d[1], d[0]), (-d[1], -d[0])]:
            s = (t[0] + side[0], t[1] + side[1])
            if can_step(walls, t, s) and s not in others:
                out.add(s)
    return out


def has_path(walls, start, n, player) -> bool:
    seen = {start}
    todo = deque([start])
    while todo:
        a = todo.popleft()
        if goal_reached(n, player, a):
            return True
        c, r = a
        for b in [(c, r + 1), (c, r - 1), (c + 1, r), (c - 1, r)]:
            if b not in seen and can_step(walls, a, b):
                seen.add(b)
                todo.append(b)
    return False


def wall_legal(walls, pawns, n, wall) -> bool:
    c, r, o = wall
    if wall in walls or (c, r, "v" if o == "h" else "h") in walls:
        return False
    if o == "h" and ((c - 1, r, "h") in walls or (c + 1, r, "h") in walls):
        return False
    if o == "v" and ((c, r - 1, "v") in walls or (c, r + 1, "v") in walls):
        return False
    new = walls | {wall}
    return all(has_path(new, pawns[p], n, p) for p in range(n))


def legal_moves(n, walls, pawns, walls_left, player) -> set[str]:
    names = "abcdefghi"
    out = {names[c] + str(r + 1) for c, r in pawn_targets(walls, pawns, player)}
    if walls_left[player] > 0:
        for r in range(8):
            for c in range(8):
                for o in "hv":
                    if wall_legal(walls, pawns, n, (c, r, o)):
                        out.add(names[c] + str(r + 1) + o)
    return out


# --- the cross-check ----------------------------------------------------------------------
def _ref_state(g: QuoridorGame):  # type: ignore[no-untyped-def]
    p = g.position()
    pawns = [(ord(s[0]) - 97, int(s[1:]) - 1) for s in p.pawns]
    walls = {(ord(w[0]) - 97, int(w[1:-1]) - 1, w[-1]) for w in p.walls}
    return pawns, walls, list(p.walls_left), p.to_move


@pytest.mark.parametrize("n,seed", [(2, 0), (4, 2)])
def test_matches_reference_on_random_games(n: int, seed: int) -> None:
    """The fast generator, the judge and a rulebook-literal reference agree move for move."""
    rng = random.Random(seed)
    g = QuoridorGame(n)
    for ply in range(70):
        if g.is_terminal():
            break
        pawns, walls, left, p = _ref_state(g)
        mine = [m.notation() for m in g.legal_moves()]
        assert len(mine) == len(set(mine))
        assert set(mine) == legal_moves(n, walls, pawns, left, p), g.record_text()
        if ply % 10 == 0:
            legal = set(g.legal_moves())
            for m in MOVES:
                try:
                    g.judge(m)
                    assert m in legal
                except IllegalMove:
                    assert m not in legal
        moves = g.legal_moves()
        pawn_only = [m for m in moves if isinstance(m, PawnMove)]
        g.play(rng.choice(moves if rng.random() < 0.5 else pawn_only))
