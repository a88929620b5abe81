"""Tests every registered game must pass (OpenSpiel-style): random playouts never crash, copies
equal originals and are independent, records round-trip through notation, moves round-trip."""

import json
import random

import pytest

from games import registry
from games.base import TERMINAL, IllegalMove

NAMES = registry.names()
MAX_PLIES = 400


def _players(spec):
    counts = sorted({spec.min_players, spec.max_players})
    return [n for n in counts if _accepts(spec, n)]


def _accepts(spec, n):
    try:
        spec.new(n, **spec.test_options)
        return True
    except ValueError:
        return False


CASES = [(name, n) for name in NAMES for n in _players(registry.get(name))]


def test_our_games_are_registered():
    assert {"grimpe", "quoridor"} <= set(NAMES)


def _playout(spec, n, seed):
    rng = random.Random(seed)
    game = spec.new(n, **spec.test_options)
    for _ in range(MAX_PLIES):
        if game.is_terminal():
            break
        moves = game.legal_moves()
        assert moves, f"{spec.name}: no legal move but not terminal:\n{game}"
        move = rng.choice(moves)
        game.judge(move)  # a generated move is legal
        game.apply(move)
    return game


@pytest.mark.parametrize("name,n", CASES)
def test_random_playouts_never_crash_and_keep_invariants(name, n):
    spec = registry.get(name)
    for seed in range(4):
        game = _playout(spec, n, seed)
        assert isinstance(str(game), str) and str(game)
        if game.is_terminal():
            assert game.current_player() == TERMINAL
            assert game.legal_moves() == []
            assert game.winners(), "a finished game has at least one winner"
            assert all(0 <= p < n for p in game.winners())
        else:
            assert 0 <= game.current_player() < n


@pytest.mark.parametrize("name,n", CASES)
def test_copies_equal_originals_and_are_independent(name, n):
    spec = registry.get(name)
    game = _playout(spec, n, 11)
    if game.is_terminal():  # take a position in the middle instead
        game = type(game).replay(game.options(), game.record()[: len(game.record()) // 2])
    twin = game.copy()
    assert twin == game and str(twin) == str(game)
    if not twin.is_terminal():
        twin.apply(twin.legal_moves()[0])
        assert twin != game
        assert len(game.record()) == len(twin.record()) - 1


@pytest.mark.parametrize("name,n", CASES)
def test_records_round_trip_through_notation_and_json(name, n):
    spec = registry.get(name)
    game = _playout(spec, n, 5)
    text = game.record_text()
    options = json.loads(json.dumps(game.options()))
    again = type(game).replay(options, text)
    assert again == game
    assert again.record_text() == text
    for move in game.record():
        assert type(move).from_notation(move.notation()) == move
        assert eval(repr(move), vars(__import__(type(move).__module__, fromlist=["x"]))) == move
        hash(move)


@pytest.mark.parametrize("name,n", CASES)
def test_judging_explains_an_illegal_move(name, n):
    spec = registry.get(name)
    finished = (g for g in (_playout(spec, n, seed) for seed in range(20)) if g.is_terminal())
    game = next(finished, None)
    assert game is not None, f"no random {name} playout finished within {MAX_PLIES} plies"
    move = game.record()[-1]
    with pytest.raises(IllegalMove) as info:
        game.judge(move)
    assert info.value.code and str(info.value)
