import json
import sqlite3
import subprocess
import sys

import pytest

from games.store import GameStore, StoreError
from ui.cli import main


def test_game_moves_and_attempts_survive_reopening(tmp_path):
    db = tmp_path / "h.sqlite3"
    with GameStore(db) as s:
        gid = s.start_game("quoridor", ["Alice", "Bob"], {"num_players": 2})
        assert [s.add_move(gid, m) for m in ["e2", "e8", "e3h"]] == [0, 1, 2]
        aid = s.save_attempt(game_id=gid, round=1, seat=0, player="alice",
                             auto_verdict={"result": "fault", "score": 0,
                                           "fault": {"code": "wrong_finger"}})
        s.review_attempt(aid, [{"kind": "cancel_fault"}], {"result": "summit", "score": 7})
    with GameStore(db) as s:
        g = s.game(gid)
        assert g.players == ("Alice", "Bob")  # names are case-insensitive, first spelling kept
        assert g.record_text == "e2 e8 e3h"
        (a,) = g.attempts
        assert a.auto_verdict["fault"]["code"] == "wrong_finger"
        assert a.final_verdict["result"] == "summit" and a.score == 7
        assert a.overrides == [{"kind": "cancel_fault"}]
        assert s.undo_move(gid) == "e3h"
        assert s.game(gid).moves == ("e2", "e8")
        s.finish_game(gid, {"winners": ["Alice"]})
        assert s.game(gid).status == "finished" and s.game(gid).finished_at
        s.reopen_game(gid)
        g = s.game(gid)
        assert (g.status, g.result, g.finished_at) == ("active", None, None)


def test_a_failed_write_leaves_earlier_data_intact(tmp_path):
    with GameStore(tmp_path / "h.sqlite3") as s:
        gid = s.start_game("grimpe", ["Zoé"])
        s.add_move(gid, "x")
        with pytest.raises(KeyError):
            s.add_move(9999, "y")
        with pytest.raises(KeyError):
            s.review_attempt(12345, [], {"score": 1})
        assert s.game(gid).moves == ("x",)


def test_committed_writes_are_on_disk_even_if_the_process_dies(tmp_path):
    db = tmp_path / "h.sqlite3"
    code = (
        "import os; from games.store import GameStore\n"
        f"s = GameStore({str(db)!r}); g = s.start_game('quoridor', ['A', 'B'])\n"
        "s.add_move(g, 'e2'); s.add_move(g, 'e8'); os._exit(9)\n"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 9
    with GameStore(db) as s:
        (g,) = s.games()
        assert g.moves == ("e2", "e8") and g.status == "active"


def test_a_file_that_is_not_a_database_gives_a_clear_error(tmp_path):
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreError, match="not a usable Arbitre database"):
        GameStore(bad)
    assert main(["history", "--db", str(bad)]) == 2


def test_history_cli_lists_and_shows(tmp_path, capsys):
    db = tmp_path / "h.sqlite3"
    assert main(["history", "--db", str(db)]) == 0
    assert "No games yet" in capsys.readouterr().out
    with GameStore(db) as s:
        gid = s.start_game("quoridor", ["Ana", "Ben"])
        s.add_move(gid, "e2")
        s.finish_game(gid, {"winners": ["Ana"]})
    assert main(["history", "--db", str(db), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed[0]["players"] == ["Ana", "Ben"] and listed[0]["status"] == "finished"
    assert main(["history", "show", str(gid), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Record: e2" in out and "Ana" in out
    assert main(["history", "show", "77", "--db", str(db)]) == 2


def test_schema_from_a_newer_version_is_refused(tmp_path):
    db = tmp_path / "h.sqlite3"
    GameStore(db).close()
    con = sqlite3.connect(db)
    con.execute("UPDATE meta SET value='99' WHERE key='schema'")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="newer Arbitre"):
        GameStore(db)
