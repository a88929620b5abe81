"""The hint engine: legal answers within the time limit, obvious wins, and beating greedy."""

from __future__ import annotations

import time

from games.quoridor import PawnMove, QuoridorGame
from games.quoridor.bench import perft, play_match_game, random_playouts
from games.quoridor.bots import GreedyBot, RandomBot, SearchBot
from games.quoridor.search import search


def test_hint_is_legal_and_quick() -> None:
    for record in ["", "e2 e8 e3h", "e2 e8 e3 e7 e4 e6 e5"]:
        g = QuoridorGame.replay({"num_players": 2}, record)
        t0 = time.perf_counter()
        r = search(g, time_s=0.05, seed=1)
        assert time.perf_counter() - t0 < 1.0
        assert r.move in g.legal_moves() and r.depth >= 1
        assert r.distances == g.shortest_path_lengths()
        assert r.pv and r.pv[0] == r.move


def test_hint_four_players_legal() -> None:
    g = QuoridorGame.replay({"num_players": 4}, "e2 b5 e8 h5")
    r = search(g, time_s=0.05, seed=2)
    assert r.move in g.legal_moves()


def test_takes_the_win() -> None:
    g = QuoridorGame.from_position("c8 e2/a4h/9 10/P1")
    r = search(g, time_s=0.2, seed=0)
    assert r.move == PawnMove("c9") and "win in 1" in r.describe()


def test_stops_a_pawn_about_to_win() -> None:
    # P2 on e2 wins next move unless P1 walls it off; P1 is far behind.
    g = QuoridorGame.from_position("a1 e2//10 10/P1")
    r = search(g, time_s=0.3, seed=0)
    g.play(r.move)
    assert not g.is_terminal()
    assert g.shortest_path_lengths()[1] > 1


def test_bots_play_legal_moves() -> None:
    for bot in (GreedyBot(seed=1), RandomBot(seed=1)):
        g = QuoridorGame(4)
        for _ in range(30):
            if g.is_terminal():
                break
            g.play(bot.choose(g))


def test_search_beats_greedy_both_sides() -> None:
    """Depth-limited (so the result does not depend on the machine's speed)."""
    for index in (0, 1):
        bots_seed = 11
        result = _fixed_depth_game(index, bots_seed)
        assert result["won"], result


def _fixed_depth_game(index: int, seed: int) -> dict[str, object]:
    side = index % 2
    bots = {side: SearchBot(time_s=60.0, seed=seed, max_depth=2), 1 - side: GreedyBot(seed=seed)}
    g = QuoridorGame(2)
    while not g.is_terminal() and len(g.record()) < 200:
        g.play(bots[g.current_player()].choose(g))
    return {"won": g.winner == side, "record": g.record_text()}


def test_bench_helpers() -> None:
    assert perft(QuoridorGame(2), 2) == 16_677
    assert perft(QuoridorGame(4), 1) == 3 + 128
    r = random_playouts(3, num_players=4, seed=1)
    assert r["games"] == 3 and r["moves_generated_per_s"] > 0
    m = play_match_game(0, time_s=0.02, max_plies=6)
    assert m["plies"] == 6 and len(m["times"]) == 3  # type: ignore[arg-type]
