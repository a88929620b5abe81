"""The hint engine: iterative-deepening alpha-beta over the shortest-path-difference heuristic.

With more than two players the search is *paranoid*: the player to advise maximises, every
other player minimises the same score. Wall candidates are pruned to the walls that cut some
shortest path of an opponent (plus, near the root, walls next to the opponents' pawns), which
keeps the branching factor around 10–40 instead of ~130.

Scores are from the advised player's view, in hundredths of a step: +100 means one step ahead.
A won position scores ``WIN - plies``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from games.quoridor import board as B
from games.quoridor.game import MOVES, QuoridorGame
from games.quoridor.moves import QuoridorMove

__all__ = ["SearchResult", "evaluate", "search", "wall_candidates"]

WIN = 1_000_000
STEP = 100  # one step of path difference
WALL_VALUE = 100  # a wall kept in hand is worth about one step (tuned against greedy)
TEMPO = 50  # being the side to move is worth half a step
WALL_CAP = 10  # walls in hand beyond this many add nothing


_EXACT, _LOWER, _UPPER = 0, 1, 2  # transposition-table bounds


class _Timeout(Exception):
    pass


@dataclass
class SearchResult:
    move: QuoridorMove
    score: int  # from the advised player's view, in 1/100 steps
    depth: int  # deepest completed iteration
    nodes: int
    time_s: float
    pv: list[QuoridorMove] = field(default_factory=list)
    distances: list[int] = field(default_factory=list)  # shortest path length per player

    def describe(self) -> str:
        if abs(self.score) >= WIN - 1000:
            plies = WIN - abs(self.score)
            verdict = (
                f"{'win' if self.score > 0 else 'loss'} in {plies} pl{'y' if plies == 1 else 'ies'}"
            )
        else:
            verdict = f"{self.score / STEP:+.2f} steps"
        return f"{verdict} (depth {self.depth}, {self.nodes} nodes, {self.time_s:.2f} s)"


def evaluate(g: QuoridorGame, root: int) -> int:
    """Static score of ``g`` for ``root``: opponents' shortest paths minus its own, walls in hand,
    side to move."""
    n, s, e, w = g._may
    pawns, goals, left = g._pawns, g._goals, g._walls_left
    mine = B.distance(1 << pawns[root], goals[root], n, s, e, w)
    best_opp = B.UNREACHABLE
    opp_walls = 0
    for q in range(g._n):
        if q != root:
            d = B.distance(1 << pawns[q], goals[q], n, s, e, w)
            best_opp = min(best_opp, d)
            opp_walls = max(opp_walls, left[q])
    score = STEP * (best_opp - mine) + WALL_VALUE * (
        min(left[root], WALL_CAP) - min(opp_walls, WALL_CAP)
    )
    return score + (TEMPO if g._to_move == root else -TEMPO)


def wall_candidates(g: QuoridorGame, player: int) -> int:
    """Walls (bitset) that cut at least one shortest path of ``player``'s pawn to its goal."""
    n, s, e, w = g._may
    goal = g._goals[player]
    fwd = B.layers(1 << g._pawns[player], goal, n, s, e, w)
    depth = len(fwd) - 1
    if not fwd[-1] & goal:
        return 0
    back = [goal]
    reach = frontier = goal
    for _ in range(depth):
        frontier = (
            ((frontier & n) << 9)
            | ((frontier & s) >> 9)
            | ((frontier & e) << 1)
            | ((frontier & w) >> 1)
        ) & ~reach
        reach |= frontier
        back.append(frontier)
    on_path = [fwd[k] & back[depth - k] for k in range(depth + 1)]
    north = east = 0
    for k in range(depth):
        a, b = on_path[k], on_path[k + 1]
        north |= (a & (b >> 9) & n) | (b & (a >> 9) & n)
        east |= (a & (b >> 1) & e) | (b & (a >> 1) & e)
    cut = 0
    for sq in B.bits(north):
        cut |= B.CUT_NORTH[sq]
    for sq in B.bits(east):
        cut |= B.CUT_EAST[sq]
    return cut


def _near_pawn_walls(sq: int) -> int:
    """Walls with an anchor touching the 2×2 blocks around square ``sq``."""
    c, r = sq % 9, sq // 9
    out = 0
    for ac in range(c - 2, c + 2):
        for ar in range(r - 2, r + 2):
            if 0 <= ac < 8 and 0 <= ar < 8:
                out |= 0b11 << ((ar * 8 + ac) * 2)
    return out


_NEAR = [_near_pawn_walls(sq) for sq in range(B.NUM_SQUARES)]


class _Searcher:
    def __init__(self, game: QuoridorGame, deadline: float, rng: random.Random) -> None:
        self.g = game
        self.root = game._to_move
        self.deadline = deadline
        self.rng = rng
        self.nodes = 0
        self.tt: dict[tuple[int, ...], tuple[int, int, int, int]] = {}
        self.history = [0] * B.NUM_CODES
        self.killers: dict[int, list[int]] = {}

    def key(self) -> tuple[int, ...]:
        g = self.g
        return (g._walls, g._to_move, *g._pawns, *g._walls_left)

    def ordered_moves(self, ply: int, tt_move: int, root: bool = False) -> list[int]:
        g = self.g
        p = g._to_move
        n, s, e, w = g._may
        pawns, goals = g._pawns, g._goals
        # Pawn moves, best first by distance to goal afterwards.
        targets = g.pawn_targets(p)
        scored = sorted(
            (B.distance(1 << t, goals[p], n, s, e, w), -self.history[t], t) for t in targets
        )
        moves = [t for _, _, t in scored]
        if g._walls_left[p] > 0:
            cand = 0
            for q in range(g._n):
                if q != p:
                    cand |= wall_candidates(g, q)
                    if root:
                        cand |= _NEAR[pawns[q]]
            walls = g.legal_wall_codes(cand)
            if root:
                # Near the root, order walls by their one-ply effect on the heuristic.
                walls = self._order_by_static(walls)
            else:
                hist = self.history
                walls.sort(key=lambda c: -hist[c])
            # Interleave: the best pawn move first, then walls, then other pawn moves.
            moves = moves[:1] + walls + moves[1:]
        first = [c for c in (tt_move, *self.killers.get(ply, ())) if c in moves]
        if first:
            first = list(dict.fromkeys(first))
            moves = first + [c for c in moves if c not in first]
        return moves

    def _order_by_static(self, walls: list[int]) -> list[int]:
        g = self.g
        p = g._to_move
        rng = self.rng
        scored = []
        for c in walls:
            g.apply_code(c)
            scored.append((-evaluate(g, p), rng.random(), c))
            g.undo()
        scored.sort()
        return [c for _, _, c in scored]

    def alphabeta(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        g = self.g
        self.nodes += 1
        if self.nodes & 63 == 0 and time.perf_counter() > self.deadline:
            raise _Timeout
        if g._winner >= 0:
            return WIN - ply if g._winner == self.root else -(WIN - ply)
        if depth <= 0:
            return evaluate(g, self.root)
        key = self.key()
        entry = self.tt.get(key)
        tt_move = -1
        if entry is not None:
            e_depth, e_flag, e_score, tt_move = entry
            if e_depth >= depth:
                if e_flag == _EXACT:
                    return e_score
                if e_flag == _LOWER and e_score >= beta:
                    return e_score
                if e_flag == _UPPER and e_score <= alpha:
                    return e_score
        maximizing = g._to_move == self.root
        alpha0, beta0 = alpha, beta
        best_move = -1
        best = -WIN - 1 if maximizing else WIN + 1
        for code in self.ordered_moves(ply, tt_move):
            g.apply_code(code)
            v = self.alphabeta(depth - 1, alpha, beta, ply + 1)
            g.undo()
            if maximizing:
                if v > best:
                    best, best_move = v, code
                    alpha = max(alpha, v)
            else:
                if v < best:
                    best, best_move = v, code
                    beta = min(beta, v)
            if alpha >= beta:
                self.history[code] += depth * depth
                ks = self.killers.setdefault(ply, [])
                if code not in ks:
                    ks.insert(0, code)
                    del ks[2:]
                break
        flag = _UPPER if best <= alpha0 else _LOWER if best >= beta0 else _EXACT
        self.tt[key] = (depth, flag, best, best_move)
        return best

    def root_search(self, depth: int, moves: list[int]) -> tuple[int, int, list[int]]:
        """Search every root move to ``depth``; returns (best score, best move, moves reordered)."""
        g = self.g
        alpha, beta = -WIN - 1, WIN + 1
        scored: list[tuple[int, int]] = []
        best, best_move = -WIN - 1, moves[0]
        for code in moves:
            g.apply_code(code)
            try:
                v = self.alphabeta(depth - 1, alpha, beta, 1)
            finally:
                g.undo()
            scored.append((v, code))
            if v > best:
                best, best_move = v, code
                alpha = max(alpha, v)
        order = [c for _, c in sorted(scored, key=lambda t: -t[0])]
        return best, best_move, order

    def pv(self, first: int, limit: int = 8) -> list[int]:
        g = self.g
        line = [first]
        g.apply_code(first)
        seen = {self.key()}
        while len(line) < limit and g._winner < 0:
            entry = self.tt.get(self.key())
            if entry is None or entry[3] < 0 or entry[3] not in g.legal_codes():
                break
            line.append(entry[3])
            g.apply_code(entry[3])
            if self.key() in seen:
                break
            seen.add(self.key())
        for _ in line:
            g.undo()
        return line


def search(
    game: QuoridorGame,
    time_s: float = 1.0,
    max_depth: int = 20,
    seed: int | None = None,
) -> SearchResult:
    """Suggest a move for the side to play within about ``time_s`` seconds (wall clock)."""
    if game.is_terminal():
        raise ValueError("the game is over: there is no move to suggest")
    t0 = time.perf_counter()
    g = game.copy()
    g._stack = []  # undo history not needed in the search copy
    rng = random.Random(seed)
    s = _Searcher(g, t0 + time_s, rng)
    root_moves = s.ordered_moves(0, -1, root=True)
    best_move, best_score, depth_done = root_moves[0], evaluate(g, s.root), 0
    pv: list[int] = [best_move]
    if len(root_moves) > 1:
        for depth in range(1, max_depth + 1):
            try:
                score, move, root_moves = s.root_search(depth, root_moves)
            except _Timeout:
                break
            best_score, best_move, depth_done = score, move, depth
            if abs(score) >= WIN - 1000:
                break
            elapsed = time.perf_counter() - t0
            if elapsed > time_s * 0.35:
                break  # the next iteration would not finish
        pv = s.pv(best_move)
    return SearchResult(
        move=MOVES[best_move],
        score=best_score,
        depth=depth_done,
        nodes=s.nodes,
        time_s=time.perf_counter() - t0,
        pv=[MOVES[c] for c in pv],
        distances=game.shortest_path_lengths(),
    )
