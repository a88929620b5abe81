"""Game keeping through the dashboard's command objects (no window): a whole 2-player game,
the database after each step, overrides that move the scores, resuming after reopening."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.base import IllegalMove
from games.store import GameStore
from ui.app import commands as cmd
from ui.app.session import GrimpeSession, SessionError

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "sample_videos" / "example_climb"
SUMMIT = EXAMPLE / "events.jsonl"  # the rulebook's worked example: summit, 5 points
FAULT = EXAMPLE / "events_fault.jsonl"  # wrong_finger at 3.1 s
BUILD = [(11, 0, 2), (20, 1, 2), (27, 1, 3), (7, 0, 3)]  # the example route: 10 holds

pytestmark = pytest.mark.skipif(not SUMMIT.is_file(), reason="sample_videos/example_climb missing")


def start(tmp_path: Path, players=("Alice", "Bob"), rounds=5) -> cmd.GameKeeper:
    keeper = cmd.GameKeeper(GameStore(tmp_path / "g.sqlite3"))
    keeper.run(cmd.NewGame(list(players), rounds))
    for n, c, r in BUILD:
        keeper.run(cmd.PlaceCardCommand(n, c, r))
    return keeper


def climb(keeper: cmd.GameKeeper, events: Path) -> int:
    s = keeper.require_session()
    verdict = cmd.verdict_from_events(s.route_json(), events)
    return keeper.run(cmd.RecordAttempt(verdict, events_path=str(events)))


def place_next(keeper: cmd.GameKeeper) -> str:
    s = keeper.require_session()
    col, row = s.legal_slots()[0]
    return keeper.run(cmd.PlaceCardCommand(s.unused_cards()[0], col, row, 90.0))


def test_building_alternates_players_and_highlights_legal_slots(tmp_path):
    keeper = cmd.GameKeeper(GameStore(tmp_path / "g.sqlite3"))
    s = keeper.run(cmd.NewGame(["Alice", "Bob"]))
    assert s.phase == "build" and s.current_player_name() == "Alice"
    assert s.legal_slots() == [(0, 2)]  # two rows above Départ
    keeper.run(cmd.PlaceCardCommand(11, 0, 2))
    assert s.current_player_name() == "Bob"
    assert s.legal_slots() == [(-1, 2), (1, 2), (0, 3)]
    with pytest.raises(IllegalMove) as e:
        keeper.run(cmd.PlaceCardCommand(20, 5, 5))
    assert e.value.code == "illegal_slot"
    assert keeper.store.game(s.game_id).moves == ("11@0,2r0",)  # the refused card was not written


def test_whole_two_player_game_round_table_and_database(tmp_path):
    keeper = start(tmp_path)
    s = keeper.require_session()
    assert s.phase == "climb" and s.game.round_no == 1
    assert s.current_player_name() == "Bob"  # placed the last card: climbs first
    expected = {0: [], 1: []}
    for rnd in range(1, 6):
        assert s.game.round_no == rnd
        first = s.current_seat()
        # the first climber reaches the summit (5), the second faults (0)
        climb(keeper, SUMMIT)
        expected[first].append(5)
        second = s.current_seat()
        climb(keeper, FAULT)
        expected[second].append(0)
        if rnd < 5:
            assert s.phase == "place" and s.current_seat() == first  # best score places
            place_next(keeper)
    assert s.phase == "over"
    table = s.round_table()
    assert [list(row) for row in table.scores] == [expected[0], expected[1]]
    assert table.totals == (sum(expected[0]), sum(expected[1]))
    stored = keeper.store.game(s.game_id)
    assert stored.status == "finished"
    assert len(stored.attempts) == 10
    assert stored.result["totals"] == {"Alice": sum(expected[0]), "Bob": sum(expected[1])}
    assert sorted(a.score for a in stored.attempts) == [0] * 5 + [5] * 5
    assert all(a.route and len(a.route["holds"]) >= 10 for a in stored.attempts)
    faults = [a for a in stored.attempts if a.score == 0]
    assert {a.auto_verdict["fault"]["code"] for a in faults} == {"wrong_finger"}
    # the record replays to the same game
    again = GrimpeSession.open(GameStore(tmp_path / "g.sqlite3"), s.game_id)
    assert again.round_table() == table and again.phase == "over"


def test_override_makes_score_and_round_winner_follow(tmp_path):
    keeper = start(tmp_path)
    s = keeper.require_session()
    a_bob = climb(keeper, FAULT)  # Bob climbs first: fault, 0
    a_alice = climb(keeper, SUMMIT)  # Alice: 5
    assert s.phase == "place" and s.current_player_name() == "Alice"
    # a person imposes a fault on Alice's summit: 0 for both, the tie goes to Bob (first)
    final = keeper.run(cmd.OverrideAttempt(a_alice, [
        {"kind": "impose_fault", "code": "other_hand", "t": 4.0, "detail": "left hand"}]))
    assert final["result"] == "fault" and final["score"] == 0
    s = keeper.require_session()
    assert s.round_table().totals == (0, 0)
    assert s.current_player_name() == "Bob"
    # replace it by a finger-count change: move 1 counted 4 fingers → 5 + 3 - 1... re-judged
    final = keeper.run(cmd.OverrideAttempt(a_alice, [{"kind": "set_fingers", "move": 0,
                                                      "fingers": 4}]))
    assert final["result"] == "summit" and final["score"] == 5 - 3 + 5
    s = keeper.require_session()
    assert s.round_table().totals == (7, 0) and s.current_player_name() == "Alice"
    stored = keeper.store.attempt(a_alice)
    assert stored.auto_verdict["score"] == 5 and stored.final_verdict["score"] == 7  # both kept
    assert stored.overrides[0]["kind"] == "set_fingers"
    assert keeper.store.game(s.game_id).moves[-2:] == ("climb:0", "climb:7")
    # Bob's wrong_finger cancelled: re-judged from the log, the climb just stops (incomplete)
    final = keeper.run(cmd.OverrideAttempt(a_bob, [{"kind": "cancel_fault",
                                                    "code": "wrong_finger", "t": 3.1}]))
    assert final["result"] == "incomplete" and final["fault"] is None


def test_override_after_next_card_changes_totals_not_history(tmp_path):
    keeper = start(tmp_path)
    a1 = climb(keeper, SUMMIT)
    climb(keeper, FAULT)
    place_next(keeper)
    s = keeper.require_session()
    before = s.game.record()
    keeper.run(cmd.OverrideAttempt(a1, [{"kind": "impose_fault", "code": "card_moved", "t": 1.0}]))
    s = keeper.require_session()
    assert s.round_table().totals == (0, 0)
    assert s.game.record() == before  # the card already placed stays where it is


def test_reopening_resumes_and_repairs_a_half_written_attempt(tmp_path):
    keeper = start(tmp_path)
    gid = keeper.require_session().game_id
    climb(keeper, SUMMIT)
    keeper.store.close()
    # a crash between the attempt's write and its move's write: simulate the first only
    store = GameStore(tmp_path / "g.sqlite3")
    s = GrimpeSession.open(store, gid)
    verdict = cmd.verdict_from_events(s.route_json(), SUMMIT)
    store.save_attempt(auto_verdict=verdict, game_id=gid, round=1, seat=s.current_seat(),
                       player=s.current_player_name())
    store.close()
    keeper2 = cmd.GameKeeper(GameStore(tmp_path / "g.sqlite3"))
    s2 = keeper2.resume_latest()
    assert s2 is not None and s2.game_id == gid
    assert s2.phase == "place"  # the repaired move closed the round
    assert s2.round_table().totals == (5, 5)
    assert keeper2.store.game(gid).moves[-2:] == ("climb:5", "climb:5")


def test_solitaire_and_player_count_limits(tmp_path):
    keeper = cmd.GameKeeper(GameStore(tmp_path / "g.sqlite3"))
    with pytest.raises(SessionError):
        keeper.run(cmd.NewGame([f"P{i}" for i in range(7)]))
    with pytest.raises(SessionError):
        keeper.run(cmd.NewGame([]))
    s = keeper.run(cmd.NewGame(["Solo"], rounds=1))
    assert keeper.store.game(s.game_id).title == "solitaire"
    for n, c, r in BUILD:
        keeper.run(cmd.PlaceCardCommand(n, c, r))
    keeper.run(cmd.RecordAttempt(cmd.manual_verdict("summit", [3, 2, 2])))
    assert s.phase == "over" and s.round_table().winners == (0,)
    assert keeper.store.game(s.game_id).status == "finished"


def test_manual_verdict_and_refusals():
    v = cmd.manual_verdict("summit", [3, 2, 2])
    assert v["score"] == 5 and [m["points"] for m in v["moves"]] == [3, 1, 1]
    f = cmd.manual_verdict("fault", [5], "other_hand")
    assert f["score"] == 0 and f["fault"]["code"] == "other_hand" and f["fault"]["by"] == "person"
    with pytest.raises(SessionError):
        cmd.manual_verdict("summit", [6])


def test_no_attempt_outside_a_round(tmp_path):
    keeper = cmd.GameKeeper(GameStore(tmp_path / "g.sqlite3"))
    keeper.run(cmd.NewGame(["A", "B"]))
    with pytest.raises(SessionError):
        keeper.run(cmd.RecordAttempt(cmd.manual_verdict("summit", [2])))
    assert keeper.store.attempts() == []


def test_exports_follow_the_round_table(tmp_path):
    from ui.app.export import score_sheet_csv, score_sheet_html

    keeper = start(tmp_path, rounds=1)
    climb(keeper, SUMMIT)
    climb(keeper, FAULT)
    s = keeper.require_session()
    text = score_sheet_csv(s, tmp_path / "sheet.csv")
    rows = [line.split(",") for line in text.strip().splitlines()]
    assert rows[1][0] == "Alice" and rows[1][-1] == "0"
    assert rows[2][0] == "Bob" and rows[2][-1] == "5"
    html = score_sheet_html(s, tmp_path / "sheet.html")
    assert "Bob" in html and "<table>" in html and "wrong_finger" in html
    assert json.loads(json.dumps(s.round_table().totals)) == [0, 5]


def test_solitaire_route_saved_and_rebuilt(tmp_path):
    keeper = cmd.GameKeeper(GameStore(tmp_path / "g.sqlite3"))
    keeper.run(cmd.NewGame(["Solo"], rounds=1))
    for n, c, r in BUILD[:3]:
        keeper.run(cmd.PlaceCardCommand(n, c, r, 90.0 if n == 20 else 0.0))
    keeper.run(cmd.PlaceCardCommand(7, 0, 3))
    saved = keeper.run(cmd.SaveRoute(str(tmp_path / "route.json")))
    code = keeper.require_session().game.route.code()
    keeper.run(cmd.NewGame(["Solo"], rounds=1))
    assert keeper.run(cmd.RebuildRoute(saved)) == 4
    s = keeper.require_session()
    assert s.game.route.code() == code and s.phase == "climb"
    assert keeper.store.game(s.game_id).moves == tuple(code.split())
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(SessionError):
        keeper.run(cmd.RebuildRoute(str(tmp_path / "bad.json")))


def test_override_of_a_past_game_leaves_the_current_game_alone(tmp_path):
    keeper = start(tmp_path, rounds=1)
    old_id = keeper.require_session().game_id
    a = climb(keeper, SUMMIT)
    climb(keeper, FAULT)
    keeper.run(cmd.NewGame(["Chloé", "Dan"]))
    current = keeper.require_session().game_id
    final = keeper.run(cmd.OverrideAttempt(a, [{"kind": "set_fingers", "move": 0, "fingers": 5}]))
    assert final["score"] == 7 + 1 + 1
    assert keeper.require_session().game_id == current != old_id
    old = GrimpeSession.open(keeper.store, old_id)
    assert sorted(old.round_table().totals) == [0, 9]
    assert keeper.store.game(old_id).result["totals"]["Bob"] == 9  # finished game's result follows
