"""Quoridor rule cases and notation (the random cross-check is in test_quoridor_reference.py)."""

from __future__ import annotations

import random

import pytest

from games.base import TERMINAL, IllegalMove, NotationError
from games.quoridor import SPEC, PawnMove, QuoridorGame, QuoridorPosition, WallMove, parse_move

FILES = "abcdefghi"


def pos(text: str) -> QuoridorGame:
    return QuoridorGame.from_position(text)


def pawn_moves(g: QuoridorGame) -> set[str]:
    return {m.notation() for m in g.legal_moves() if isinstance(m, PawnMove)}


def rule(g: QuoridorGame, text: str, **kw: int) -> str:
    with pytest.raises(IllegalMove) as info:
        g.judge(parse_move(text), **kw)
    return info.value.code


# --- notation ---------------------------------------------------------------------------
def test_every_square_and_anchor_round_trips() -> None:
    for c in FILES:
        for r in range(1, 10):
            m = PawnMove.from_notation(f"{c}{r}")
            assert m == PawnMove(f"{c}{r}") and m.notation() == f"{c}{r}"
            assert eval(repr(m)) == m
            if c != "i" and r != 9:
                for o in "hv":
                    w = WallMove.from_notation(f"{c}{r}{o}")
                    assert w == WallMove(f"{c}{r}", o) and w.notation() == f"{c}{r}{o}"
                    assert eval(repr(w)) == w and hash(w) == hash(WallMove(f"{c}{r}", o))
    assert parse_move(" E3H ") == WallMove("e3", "h")


@pytest.mark.parametrize("text", ["", "e", "3e", "e3x", "ee3", "e3hv", "e0", "wall"])
def test_bad_notation(text: str) -> None:
    with pytest.raises(NotationError):
        parse_move(text)


def test_wrong_kind_of_move() -> None:
    with pytest.raises(NotationError):
        PawnMove.from_notation("e3h")
    with pytest.raises(NotationError):
        WallMove.from_notation("e3")


@pytest.mark.parametrize("text", ["j5", "e10", "i1h", "a9v", "h9h"])
def test_off_board(text: str) -> None:
    assert rule(QuoridorGame(), text) == "off_board"


# --- start, turns, the end --------------------------------------------------------------
def test_start_position() -> None:
    g = QuoridorGame()
    assert g.current_player() == 0 and g.num_players == 2
    assert pawn_moves(g) == {"d1", "e2", "f1"}
    assert len(g.legal_moves()) == 3 + 128
    assert g.shortest_path_lengths() == [8, 8]
    g4 = QuoridorGame(4)
    assert g4.pawn_squares() == ["e1", "a5", "e9", "i5"] and g4.walls_left() == [5] * 4


def test_three_players_rejected() -> None:
    with pytest.raises(ValueError):
        QuoridorGame(3)
    with pytest.raises(ValueError):
        SPEC.new(3)
    assert SPEC.name == "quoridor" and SPEC.new(4).num_players == 4


def test_wrong_turn() -> None:
    g = QuoridorGame()
    assert rule(g, "e8", player=1) == "not_your_turn"
    g.play(parse_move("e2"), player=0)
    assert g.current_player() == 1
    assert rule(g, "e3", player=0) == "not_your_turn"


def test_win_detection() -> None:
    g = pos("e8 a2//10 10/P1")
    g.play_notation("e9")
    assert g.is_terminal() and g.winner == 0 and g.current_player() == TERMINAL
    assert g.returns() == [1.0, 0.0] and g.legal_moves() == []
    assert rule(g, "a2") == "game_over"
    g4 = pos("e1 h5 e9 i5//5 5 5 5/P2")  # P2 (from a5) must reach column i
    g4.play_notation("i4")  # side step around P4, whose back is to the edge
    assert g4.winner == 1 and g4.returns() == [0.0, 1.0, 0.0, 0.0]


def test_no_walls_left_must_move() -> None:
    g = pos("e1 e9/a1h c1h e1h g1h a3h c3h e3h g3h b6h d6h/0 10/P1")
    assert rule(g, "a8h") == "no_walls_left"
    assert all(isinstance(m, PawnMove) for m in g.legal_moves())


# --- pawn moves ---------------------------------------------------------------------------
def test_step_blocked_by_wall_and_occupied() -> None:
    g = pos("e4 e6/e4h/9 10/P1")
    assert pawn_moves(g) == {"d4", "f4", "e3"}
    assert rule(g, "e5") == "blocked_by_wall"
    assert rule(g, "e6") == "occupied"
    assert rule(g, "e2") == "not_adjacent"
    assert rule(g, "e4") == "not_adjacent"
    assert rule(g, "g4") == "not_adjacent"


def test_straight_jump() -> None:
    g = pos("e4 e5//10 10/P1")
    assert pawn_moves(g) == {"d4", "f4", "e3", "e6"}
    assert rule(g, "e5") == "occupied"
    assert rule(g, "d5") == "jump_available"  # nothing behind e5: no side steps


def test_jump_at_edge_becomes_side_steps() -> None:
    g = pos("e8 e9//10 10/P1")
    assert pawn_moves(g) == {"d8", "f8", "e7", "d9", "f9"}
    g.play_notation("f9")
    assert g.winner == 0


def test_wall_behind_gives_side_steps_unless_walled() -> None:
    g = pos("e4 e5/d5h/9 10/P1")  # d5h: wall behind e5 (and d5)
    assert pawn_moves(g) == {"d4", "f4", "e3", "d5", "f5"}
    assert rule(g, "e6") == "blocked_by_wall"
    g = pos("e4 e5/d5h e4v/8 10/P1")  # e4v: wall between e5 and f5 (and e4|f4)
    assert pawn_moves(g) == {"d4", "e3", "d5"}
    assert rule(g, "f5") == "blocked_by_wall"


def test_wall_between_pawns_no_jump() -> None:
    g = pos("e4 e5/e4h/9 10/P1")
    assert pawn_moves(g) == {"d4", "f4", "e3"}
    assert rule(g, "e6") == "blocked_by_wall"


def test_four_players_single_jump_only() -> None:
    g = pos("e4 e5 a9 i5//5 5 5 5/P1")
    assert "e6" in pawn_moves(g)
    # A pawn behind the faced pawn: neither the jump nor the side steps.
    g = pos("e4 e5 e6 i5//5 5 5 5/P1")
    assert pawn_moves(g) == {"d4", "f4", "e3"}
    assert rule(g, "e6") == "occupied"
    assert rule(g, "e7") == "double_jump"
    assert rule(g, "d5") == "pawn_behind"
    assert rule(g, "f5") == "pawn_behind"


def test_side_step_onto_pawn_forbidden() -> None:
    g = pos("e8 e9 d9 i5//5 5 5 5/P1")
    assert pawn_moves(g) == {"d8", "f8", "e7", "f9"}
    assert rule(g, "d9") == "occupied"


# --- walls --------------------------------------------------------------------------------
def test_overlap_and_cross() -> None:
    g = QuoridorGame.replay({"num_players": 2}, "e3h")
    for text, code in [
        ("e3h", "wall_overlap"),
        ("d3h", "wall_overlap"),
        ("f3h", "wall_overlap"),
        ("e3v", "wall_cross"),
    ]:
        assert rule(g, text) == code, text
    for ok in ["c3h", "g3h", "d3v", "f3v", "e2v", "e4v", "e4h", "e2h"]:
        g.judge(parse_move(ok))
    g = QuoridorGame.replay({"num_players": 2}, "e3v")
    assert [rule(g, t) for t in ("e2v", "e4v", "e3h")] == [
        "wall_overlap",
        "wall_overlap",
        "wall_cross",
    ]


def test_wall_cutting_off_a_player() -> None:
    g = pos("a1 e9/a1h/9 10/P1")  # a1h closes a1|a2 and b1|b2
    assert rule(g, "b1v") == "wall_blocks_path"  # would box P1 in a1–b1
    with pytest.raises(IllegalMove, match="P1 without a path to row 9"):
        g.judge(parse_move("b1v"))
    g = pos("e1 a9/a8h/9 10/P1")
    with pytest.raises(IllegalMove, match="P2 without a path to row 1"):
        g.judge(parse_move("b8v"))


def test_wall_leaving_one_long_corridor_is_legal() -> None:
    g = pos("a1 e9/a1h c1h e1h g1h/6 10/P1")  # row 1 closed from a to h: only i1|i2 is open
    assert g.shortest_path_lengths()[0] == 16  # a1 → i1 → i9
    assert rule(g, "h1v") == "wall_blocks_path"  # closes h1|i1: the corridor's only way out
    g.judge(parse_move("h2v"))


def test_pawns_do_not_block_the_path_check() -> None:
    # Row 9 closed from b to i except a9|a8, and P1 stands on a8, P2's only way out of row 9.
    g = pos("a8 i9/b8h d8h f8h/7 10/P1")
    g.play_notation("h8h")
    assert g.shortest_path_lengths() == [1, 16]


# --- generic properties -------------------------------------------------------------------
def test_copy_replay_undo_position_round_trip() -> None:
    rng = random.Random(3)
    for n in (2, 4):
        g = QuoridorGame(n)
        for _ in range(40):
            if g.is_terminal():
                break
            g.play(rng.choice(g.legal_moves()))
        c = g.copy()
        assert c == g and c.record() == g.record() and str(c) == str(g)
        assert QuoridorGame.replay(g.options(), g.record_text()) == g
        back = QuoridorGame.from_position(g.position())
        assert back.position() == g.position() and back.legal_moves() == g.legal_moves()
        assert QuoridorPosition.from_text(g.position().text()) == g.position()
        before = g.position()
        if not g.is_terminal():
            g.apply(g.legal_moves()[-1])
            g.undo()
            assert g.position() == before and g == c


def test_copies_are_independent_after_undo() -> None:
    g = QuoridorGame.replay({"num_players": 2}, "e2 e8 e3h")
    c = g.copy()
    g.undo()
    c.undo()
    g.play_notation("e3")
    assert c.pawn_squares() == ["e2", "e8"] and g.pawn_squares() == ["e3", "e8"]
    assert c.record_text() == "e2 e8" and c.walls() == []


def test_replay_from_a_start_position() -> None:
    g = QuoridorGame.from_position("e4 e6/e4h/9 10/P2")
    g.play_notation("e5")
    g.play_notation("d4")
    assert g.options() == {"num_players": 2, "start": "e4 e6/e4h/9 10/P2"}
    assert QuoridorGame.replay(g.options(), g.record_text()) == g
    assert g.position().text() == "d4 e5/e4h/9 10/P2"


def test_position_problems() -> None:
    p = QuoridorPosition(("e1", "e1"), frozenset({"e3h", "e3v", "d3h"}), (9, 9), 0)
    problems = p.problems()
    assert any("another pawn" in x for x in problems)
    assert any("crosses" in x for x in problems) and any("overlaps" in x for x in problems)
    assert QuoridorPosition(("e9", "e1"), frozenset(), (10, 10), 0).problems()
    assert QuoridorPosition(("e1", "e9", "a5"), frozenset(), (10, 10, 10), 0).problems()
    with pytest.raises(ValueError):
        QuoridorGame.from_position(p)
    boxed = QuoridorPosition(("a1", "e9"), frozenset({"a1h", "b1v"}), (8, 10), 0)
    assert any("no path" in x for x in boxed.problems())


def test_diagram_shows_walls_and_pawns() -> None:
    g = QuoridorGame.replay({"num_players": 2}, "e3h e8 d7v")
    text = str(g)
    assert "+=======+" in text and "P1 e1 walls 8" in text and "P2 to play" in text
    assert text.count("|") > 20 and " 2 " in text and " 1 " in text


def test_package_docstring_example_runs() -> None:
    import doctest

    import games.quoridor

    assert doctest.testmod(games.quoridor).failed == 0
