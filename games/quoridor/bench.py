"""Quoridor benchmarks.

``python -m games.quoridor.bench perft [--depth N] [--players 2|4]``
    counts the leaf positions from the start to depth N, with positions/second, plus a
    random-playout figure (games/s, moves generated/s).
``python -m games.quoridor.bench match [--games 200] [--time 1.0] [--workers 2]``
    the hint engine against the greedy bot, each side half the games; prints the win rate and
    the mean/max time the search took per move. Games are capped at ``--max-plies`` (a draw
    counts as not won).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence

from games.quoridor.game import QuoridorGame

__all__ = ["main", "perft", "play_match_game", "random_playouts"]


def perft(game: QuoridorGame, depth: int) -> int:
    """Leaf positions ``depth`` plies ahead (a finished game counts as one leaf)."""
    if depth == 0 or game.is_terminal():
        return 1
    codes = game.legal_codes()
    if depth == 1:
        return len(codes)
    total = 0
    for c in codes:
        game.apply_code(c)
        total += perft(game, depth - 1)
        game.undo()
    return total


def random_playouts(
    num_games: int, num_players: int = 2, seed: int = 0, max_plies: int = 1000
) -> dict[str, float]:
    """Uniformly random games (a wall with the probability walls have among the legal moves)."""
    rng = random.Random(seed)
    t0 = time.perf_counter()
    generated = plies = finished = 0
    for _ in range(num_games):
        g = QuoridorGame(num_players)
        while not g.is_terminal() and len(g._codes) < max_plies:
            codes = g.legal_codes()
            generated += len(codes)
            g.apply_code(rng.choice(codes))
            plies += 1
        finished += g.is_terminal()
    dt = time.perf_counter() - t0
    return {
        "games": num_games,
        "finished": finished,
        "seconds": dt,
        "games_per_s": num_games / dt,
        "plies_per_game": plies / num_games,
        "moves_generated_per_s": generated / dt,
    }


def play_match_game(
    index: int, time_s: float, max_plies: int = 200, seed: int = 0
) -> dict[str, object]:
    """One search-vs-greedy game; the search plays P1 in even games, P2 in odd ones."""
    from games.quoridor.bots import Bot, GreedyBot, SearchBot

    side = index % 2
    bots: dict[int, Bot] = {
        side: SearchBot(time_s, seed=seed * 100_003 + index),
        1 - side: GreedyBot(seed=seed * 100_003 + index + 7),
    }
    g = QuoridorGame(2)
    times: list[float] = []
    while not g.is_terminal() and len(g._codes) < max_plies:
        p = g.current_player()
        t = time.perf_counter()
        move = bots[p].choose(g)
        if p == side:
            times.append(time.perf_counter() - t)
        g.play(move)
    return {
        "index": index,
        "search_side": side,
        "winner": g.winner,
        "won": g.winner == side,
        "plies": len(g._codes),
        "times": times,
        "record": g.record_text(),
    }


def _match_worker(args: tuple[int, float, int, int]) -> dict[str, object]:
    return play_match_game(*args)


def match(
    games: int,
    time_s: float,
    workers: int = 1,
    max_plies: int = 200,
    seed: int = 0,
    verbose: bool = True,
) -> dict[str, float]:
    jobs = [(i, time_s, max_plies, seed) for i in range(games)]
    t0 = time.perf_counter()
    results: list[dict[str, object]] = []
    if workers > 1:
        import multiprocessing as mp

        with mp.get_context("fork").Pool(workers) as pool:
            for r in pool.imap_unordered(_match_worker, jobs):
                results.append(r)
                if verbose:
                    _print_game(r, len(results), games)
    else:
        for job in jobs:
            results.append(_match_worker(job))
            if verbose:
                _print_game(results[-1], len(results), games)
    times = [t for r in results for t in r["times"]]  # type: ignore[attr-defined]
    won = sum(bool(r["won"]) for r in results)
    draws = sum(r["winner"] is None for r in results)
    return {
        "games": games,
        "won": won,
        "win_rate": won / games,
        "won_as_p1": sum(bool(r["won"]) for r in results if r["search_side"] == 0),
        "won_as_p2": sum(bool(r["won"]) for r in results if r["search_side"] == 1),
        "draws": draws,
        "mean_move_s": sum(times) / len(times) if times else 0.0,
        "max_move_s": max(times) if times else 0.0,
        "p95_move_s": sorted(times)[int(0.95 * (len(times) - 1))] if times else 0.0,
        "wall_s": time.perf_counter() - t0,
    }


def _print_game(r: dict[str, object], done: int, total: int) -> None:
    result = "won" if r["won"] else ("draw" if r["winner"] is None else "lost")
    print(
        f"[{done}/{total}] game {r['index']}: search as P{int(r['search_side']) + 1} {result} "  # type: ignore[call-overload]
        f"in {r['plies']} plies",
        file=sys.stderr,
        flush=True,
    )
    if not r["won"]:
        print(f"    record: {r['record']}", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.quoridor.bench", description=__doc__.split("\n\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("perft", help="count leaf positions; playout speed")
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--players", type=int, choices=(2, 4), default=2)
    p.add_argument("--playouts", type=int, default=200, help="random games for the playout figure")
    m = sub.add_parser("match", help="search vs greedy")
    m.add_argument("--games", type=int, default=200)
    m.add_argument("--time", type=float, default=1.0, help="seconds per search move")
    m.add_argument("--workers", type=int, default=1, help="games played in parallel processes")
    m.add_argument("--max-plies", type=int, default=200, help="draw after this many plies")
    m.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    if args.command == "perft":
        g = QuoridorGame(args.players)
        for depth in range(1, args.depth + 1):
            t0 = time.perf_counter()
            count = perft(g, depth)
            dt = time.perf_counter() - t0
            print(f"perft({depth}) = {count:>12,}   {dt:8.3f} s   {count / dt:>12,.0f} positions/s")
        r = random_playouts(args.playouts, args.players)
        print(
            f"random playouts ({args.players} players): {r['games']:.0f} games in {r['seconds']:.2f} s = "
            f"{r['games_per_s']:.1f} games/s, {r['plies_per_game']:.0f} plies/game, "
            f"{r['moves_generated_per_s']:,.0f} moves generated/s"
        )
        return 0

    r = match(args.games, args.time, args.workers, args.max_plies, args.seed)
    print(
        f"search ({args.time:g} s/move) vs greedy: won {r['won']:.0f}/{r['games']:.0f} = "
        f"{100 * r['win_rate']:.1f} % (as P1 {r['won_as_p1']:.0f}, as P2 {r['won_as_p2']:.0f}, "
        f"draws {r['draws']:.0f}); search time per move mean {r['mean_move_s']:.3f} s, "
        f"95th percentile {r['p95_move_s']:.3f} s, max {r['max_move_s']:.3f} s; "
        f"{r['wall_s']:.0f} s wall clock with {args.workers} worker(s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
