"""GrimpeGame: building turns, round starters, ties, the next card, 5 rounds, shared victory,
solitaire, move notation."""

import pytest

from games import registry
from games.base import TERMINAL, IllegalMove, NotationError
from games.grimpe import game as game_module
from games.grimpe.game import ClimbResult, GrimpeGame, PlaceCard, max_climb_score


def build(game: GrimpeGame) -> list[int]:
    """Build the route straight up from (0, 2); returns who placed each card."""
    placers = []
    number, row = 1, 2
    while game.phase == "build":
        placers.append(game.current_player())
        game.play(PlaceCard(number, 0, row))
        number += 1
        row += 1
    return placers


def climb_round(game: GrimpeGame, scores: dict[int, int]) -> list[int]:
    order = []
    for _ in range(game.num_players):
        p = game.current_player()
        order.append(p)
        game.play(ClimbResult(scores[p]))
    return order


def next_free_number(game: GrimpeGame) -> int:
    return game.route.unused_numbers()[0]


def test_registered_spec():
    spec = registry.get("grimpe")
    assert (spec.min_players, spec.max_players) == (1, 6)
    g = spec.new(3)
    assert isinstance(g, GrimpeGame) and g.rounds == 5
    with pytest.raises(ValueError):
        spec.new(7)


def test_building_turns_and_round_starter():
    g = GrimpeGame(3)
    assert g.current_player() == 0
    placers = build(g)
    assert placers == [i % 3 for i in range(len(placers))]  # youngest first, then sheet order
    assert g.route.building_done and g.phase == "climb"
    last = placers[-1]
    assert g.last_placer == last
    order = climb_round(g, {0: 3, 1: 3, 2: 1})
    assert order == [(last + i) % 3 for i in range(3)]  # last placer climbs first, sheet order


def test_best_score_places_next_card_ties_go_to_the_earlier_climber():
    g = GrimpeGame(4)
    build(g)
    order = climb_round(g, {0: 5, 1: 9, 2: 9, 3: 0})
    assert g.phase == "place"
    first_nine = next(p for p in order if p in (1, 2))
    assert g.current_player() == first_nine
    with pytest.raises(IllegalMove) as info:
        g.judge(ClimbResult(3))
    assert info.value.code == "wrong_phase"
    slot = g.route.legal_slots()[-1]
    arrivee_before = g.route.arrivee_slot()
    g.play(PlaceCard(next_free_number(g), *slot, 180))
    assert g.route.arrivee_slot() == (slot[0], slot[1] + 2) != arrivee_before  # Arrivée moves up
    assert g.round_no == 2 and g.current_player() == first_nine  # the placer starts the round
    assert climb_round(g, {0: 0, 1: 0, 2: 0, 3: 0})[0] == first_nine


def test_five_rounds_totals_and_shared_victory():
    g = GrimpeGame(2)
    build(g)
    scores = [{0: 5, 1: 3}, {0: 1, 1: 3}, {0: 0, 1: 0}, {0: 7, 1: 7}, {0: 3, 1: 3}]
    for i, s in enumerate(scores):
        assert g.round_no == i + 1
        climb_round(g, s)
        if i < 4:
            g.play(PlaceCard(next_free_number(g), *g.route.legal_slots()[-1]))
    assert g.is_terminal() and g.current_player() == TERMINAL and g.legal_moves() == []
    assert g.totals == [16, 16]
    assert g.returns() == [1.0, 1.0] and g.winners() == [0, 1]
    assert sum(isinstance(m, ClimbResult) for m in g.record()) == 10
    assert len(g.past_rounds) == 5
    with pytest.raises(IllegalMove) as info:
        g.judge(ClimbResult(0))
    assert info.value.code == "game_over"


def test_single_winner():
    g = GrimpeGame(3, rounds=1)
    build(g)
    climb_round(g, {0: 1, 1: 4, 2: 3})
    assert g.is_terminal() and g.winners() == [1] and g.returns() == [0.0, 1.0, 0.0]


def test_solitaire():
    g = GrimpeGame(1, rounds=2)
    assert set(build(g)) == {0}
    g.play(ClimbResult(5))
    assert g.phase == "place" and g.current_player() == 0
    g.play(PlaceCard(next_free_number(g), *g.route.legal_slots()[0], 90))
    g.play(ClimbResult(0))
    assert g.is_terminal() and g.winners() == [0] and g.totals == [5]
    # the route is saved by card numbers and positions and rebuilt equal
    from games.grimpe.route import Route

    assert Route.from_json(g.route.to_json()) == g.route
    again = GrimpeGame.replay(g.options(), g.record_text())
    assert again == g and str(again) == str(g)


def test_legal_moves_and_judging():
    g = GrimpeGame(2, rounds=1)
    moves = g.legal_moves()
    assert len(moves) == 42 * 4 and {(m.col, m.row) for m in moves} == {(0, 2)}
    assert moves == g.legal_moves()  # deterministic
    with pytest.raises(IllegalMove) as info:
        g.judge(PlaceCard(1, 1, 2))
    assert info.value.code == "illegal_slot"
    with pytest.raises(IllegalMove) as info:
        g.judge(ClimbResult(1))
    assert info.value.code == "wrong_phase"
    build(g)
    climbs = g.legal_moves()
    top = max_climb_score(g.route.hold_count())
    assert climbs == [ClimbResult(s) for s in range(top + 1)]
    with pytest.raises(IllegalMove) as info:
        g.judge(ClimbResult(top + 1))
    assert info.value.code == "bad_score"
    with pytest.raises(IllegalMove) as info:
        g.judge(PlaceCard(40, 5, 5))
    assert info.value.code == "wrong_phase"


@pytest.mark.parametrize(
    "move,text",
    [
        (PlaceCard(12, 0, 2, 90), "12@0,2r90"),
        (PlaceCard(7, -3, 11, 0), "7@-3,11r0"),
        (PlaceCard(30, 1, 4, 22.5), "30@1,4r22.5"),
        (PlaceCard(30, 1, 4, -90), "30@1,4r270"),
        (ClimbResult(5), "climb:5"),
        (ClimbResult(0), "climb:0"),
    ],
)
def test_notation_round_trip(move, text):
    assert move.notation() == text
    assert type(move).from_notation(text) == move
    assert eval(repr(move), vars(game_module)) == move
    hash(move)


def test_bad_notation():
    g = GrimpeGame(1)
    for text in ("12@0", "x@0,2r0", "climb:-1", "climb:", "12@0,2r"):
        with pytest.raises(NotationError):
            g.parse_move(text)
    assert g.parse_move("12@0,2") == PlaceCard(12, 0, 2, 0)


def test_copy_is_independent():
    g = GrimpeGame(2)
    build(g)
    twin = g.copy()
    twin.play(ClimbResult(3))
    assert g.totals != twin.totals and len(g.record()) + 1 == len(twin.record())
    assert g.route.placements == twin.route.placements


def test_saved_playthrough():
    """The example route built by two players, two rounds; every rule of the flow shows."""
    record = "11@0,2r0 20@1,2r0 27@1,3r0 7@0,3r0 climb:5 climb:3 15@0,4r90 climb:0 climb:7"
    g = GrimpeGame.replay({"num_players": 2, "rounds": 2}, record)
    assert g.record_text() == record
    assert g.route.hold_count() == 13 and g.route.arrivee_slot() == (0, 6)
    # P1 placed the 4th (last building) card, so climbed first in round 1, won it, placed 15
    assert g.past_rounds == [[(1, 5), (0, 3)], [(1, 0), (0, 7)]]
    assert g.totals == [10, 5] and g.winners() == [0]
    with pytest.raises(IllegalMove) as info:  # building is over after 10 holds: P1 must climb
        GrimpeGame.replay({"num_players": 2, "rounds": 2}, record.split(" climb")[0] + " 15@0,4r0")
    assert info.value.code == "wrong_phase"
