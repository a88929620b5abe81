"""The dashboard's Quoridor panel: its commands headless (manual moves, an illegal move refused,
an uncertain camera move corrected, hint, export, SQLite record, resume) and the panel in the
window (pytest-qt, offscreen): a short rendered game watched end to end through the worker, the
question and hint through the widgets, screenshots in out/screenshots/quoridor_*.png.

Budget: ~25 s on 2 cores (one 4-move game rendered at 960×540, two rendered stills).
"""

from __future__ import annotations

from pathlib import Path

import cv2  # noqa: F401  (imported before Qt on purpose)
import numpy as np
import pytest

from ui.app.qtenv import prepare_qt_environment

prepare_qt_environment()

from games.base import IllegalMove  # noqa: E402
from games.quoridor import QuoridorGame, parse_move  # noqa: E402
from games.store import GameStore  # noqa: E402
from ui.app import i18n  # noqa: E402
from ui.app import quoridor_commands as qc  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "out" / "screenshots"


@pytest.fixture(scope="module")
def illegal_jump_event():
    """A real uncertain MoveEvent: the watcher sees P1 go e1→e3 on rendered frames."""
    from vision.quoridor.watch import GameWatcher
    from vision.synth.quoridor_scene import random_scene

    scene = random_scene(211, size=(960, 540), tilt_deg=20.0)
    rng = np.random.default_rng(3)
    start, _ = scene.render(["e1", "e9"], [], rng=rng)
    jumped, _ = scene.render(["e3", "e9"], [], rng=rng)
    watcher = GameWatcher(2)
    events = []
    for i, f in enumerate([start] * 5 + [jumped] * 4):
        events += watcher.update(f, i)
    assert len(events) == 1 and events[0].uncertain
    return events[0]


@pytest.fixture(scope="module")
def rendered_game(tmp_path_factory):
    from vision.synth.quoridor_scene import render_game

    out = tmp_path_factory.mktemp("quoridor_game")
    return render_game(103, out, players=2, max_plies=4, tilt_deg=25.0, size=(960, 540))


@pytest.fixture(scope="module")
def rendered_illegal_game(tmp_path_factory):
    """P1 e1→e2, P2 e9→e8, then P1 e2→e4 (two squares, no pawn to jump: illegal), P2 e8→e7."""
    from vision.synth.quoridor_scene import render_game

    out = tmp_path_factory.mktemp("quoridor_illegal")
    return render_game(104, out, players=2, record=["e2", "e8", "e4", "e7"], tilt_deg=15.0,
                       size=(960, 540))


def _keeper(path: Path) -> qc.QuoridorKeeper:
    return qc.QuoridorKeeper(GameStore(path))


def test_commands_play_refuse_question_hint_export_resume(tmp_path, illegal_jump_event):
    db = tmp_path / "q.sqlite3"
    k = _keeper(db)
    s = k.run(qc.NewQuoridorGame(["Alice", "Bob"], 2))
    gid = s.game_id
    # an uncertain camera move (an illegal jump seen), before anything else was played
    assert k.run(qc.CameraEvent(illegal_jump_event)) == "question"
    q = s.question
    assert q is not None and q.literal == "e3" and "not_adjacent" in q.reason
    assert "e3" not in q.candidates  # only legal moves are offered,
    assert q.candidates[0] == "e2"  # the nearest to what was seen first
    with pytest.raises(qc.SessionError):
        k.run(qc.PlayMove("e2"))  # the question comes first
    with pytest.raises(IllegalMove) as exc:
        k.run(qc.CorrectMove("e3"))  # the correction is judged by the engine too
    assert exc.value.code == "not_adjacent" and s.record == [] and s.question is not None
    played = k.run(qc.ConfirmMove("e2"))
    assert [m.notation for m in played] == ["e2"] and played[0].source == "confirmed"
    assert s.question is None
    # manual moves; an illegal one is refused with the rule's sentence and nothing is written
    k.run(qc.PlayMove("e8"))
    with pytest.raises(IllegalMove) as exc:
        k.run(qc.PlayMove("e4"))
    assert exc.value.code == "not_adjacent" and "P1 cannot move e2–e4" in exc.value.message
    k.run(qc.PlayMove("e3h"))
    with pytest.raises(IllegalMove) as exc:
        k.run(qc.PlayMove("e3h"))  # P2 on the same wall
    assert exc.value.code == "wall_overlap"
    assert s.record == ["e2", "e8", "e3h"]
    assert k.store.game(gid).moves == ("e2", "e8", "e3h")
    assert s.game.walls_left() == [9, 10]
    # a correction with two moves (the camera saw two changes at once): all or none
    ev = type(illegal_jump_event)(3, 99, 1, None, 0.0, True, "P2 e8→e7, wall a1h placed",
                                  ["e7", "a1h"], "more than one change between two clear views")
    assert k.run(qc.CameraEvent(ev)) == "question"
    with pytest.raises(IllegalMove):
        k.run(qc.CorrectMove("e7 e4"))  # the second one is illegal: nothing is played
    assert s.record == ["e2", "e8", "e3h"]
    k.run(qc.CorrectMove("e7 a1h"))
    assert s.record[-2:] == ["e7", "a1h"] and [m.source for m in s.moves[-2:]] == ["corrected"] * 2
    # hint: a legal move for the side to play, with distances
    h = qc.suggest(s.game, time_s=0.3)
    assert h.player == s.game.current_player() == 1
    s.game.judge(parse_move(h.move))  # raises if illegal
    assert h.distances == s.game.shortest_path_lengths()
    # undo
    assert k.run(qc.UndoMove()) == "a1h"
    assert k.store.game(gid).moves == ("e2", "e8", "e3h", "e7")
    # export the record
    out = k.run(qc.ExportRecord(str(tmp_path / "rec.txt")))
    text = Path(out).read_text(encoding="utf-8")
    assert "# P1: Alice" in text and "1. e2 e8" in text and "2. e3h e7" in text
    k.store.close()
    # reopen: the same game is resumed from the database
    k2 = _keeper(db)
    s2 = k2.resume_latest()
    assert s2 is not None and s2.game_id == gid and s2.record == ["e2", "e8", "e3h", "e7"]
    assert s2.game.position() == s.game.position()
    k2.store.close()


def test_a_won_game_is_finished_in_the_database(tmp_path):
    k = _keeper(tmp_path / "w.sqlite3")
    s = k.run(qc.NewQuoridorGame(["Ann", "Ben"], 2))
    # a pawn race played by typing: each side steps along its shortest path
    while s.game.winner is None:
        me = s.game.current_player()
        best = min((m for m in s.game.legal_moves() if m.notation()[-1] not in "hv"),
                   key=lambda m: (_after(s.game, m).distance(me), m.notation()))
        k.run(qc.PlayMove(best.notation()))
    stored = k.store.game(s.game_id)
    winner = s.players[s.game.winner]
    assert stored.status == "finished" and stored.result["winners"] == [winner]
    assert f"# Result: P{s.game.winner + 1} {winner} wins" in s.record_text()
    assert list(stored.moves) == s.record
    assert k.run(qc.CameraEvent(object())) == "ignored"
    k.run(qc.UndoMove())  # the winning move taken back: the game goes on
    assert k.store.game(s.game_id).status == "active" and s.game.winner is None
    k.store.close()


def _after(game: QuoridorGame, move) -> QuoridorGame:
    g = game.copy()
    g.apply(move)
    return g


# --- the panel in the window -----------------------------------------------------------------


@pytest.fixture
def window(qtbot, tmp_path):
    from ui.app.app import make_window

    made = []

    def make(lang: str = "en", db: str = "ui.sqlite3"):
        i18n.set_language(lang)
        store = GameStore(tmp_path / db)
        win = make_window(store, tmp_path / "rec", model_complexity=0, use_pipeline=False)
        win.setProperty("no_dialogs", True)
        qtbot.addWidget(win)
        win.resize(1400, 860)
        win.show()
        win.tabs.setCurrentWidget(win.quoridor_screen)
        made.append(win)
        return win

    yield make
    for w in made:
        w.quoridor_screen.shutdown()
    i18n.set_language("en")


def shot(win, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    assert win.grab().save(str(path)), f"could not save {path}"
    return path


def test_panel_watches_a_rendered_game_through_the_worker(qtbot, window, rendered_game):
    from ui.app.video import VideoSpec

    win = window("en")
    qs = win.quoridor_screen
    qs.names_edit.setText("Alice, Bob")
    s = qs.new_game()
    assert s is not None and s.players == ["Alice", "Bob"]
    qs.open_source(VideoSpec.for_file(rendered_game.video_path, realtime=False))
    assert qs.video.running  # watched off the GUI thread
    qtbot.waitUntil(lambda: qs.video.ended, timeout=60000)
    truth = rendered_game.truth["moves"]
    assert s.record == truth
    assert all(m.source == "camera" and 0 < m.confidence <= 1 for m in s.moves)
    assert win.keeper.store.game(s.game_id).moves == tuple(truth)
    assert qs.view.has_frame() and qs.video.frames_shown > 0
    assert qs.moves_list.count() == len(truth)
    g = QuoridorGame()
    for t in truth:
        g.play_notation(t)
    assert qs.board.pawns == g.pawn_squares()
    assert qs.table.item(0, 2).text() == str(g.walls_left()[0])
    assert qs.table.item(1, 3).text() == str(g.shortest_path_lengths()[1])
    shot(win, "quoridor_watch_en")


def test_panel_manual_moves_question_hint_export_and_reopen(qtbot, window, tmp_path,
                                                            illegal_jump_event):
    from PySide6.QtCore import Qt

    win = window("en", "panel.sqlite3")
    qs = win.quoridor_screen
    shot(win, "quoridor_empty_en")
    qs.names_edit.setText("Alice, Bob")
    qtbot.mouseClick(qs.start_btn, Qt.MouseButton.LeftButton)
    s = qs.keeper.session
    assert s is not None
    # the camera's question first: the alert shows the legal candidates
    qs.camera_events([illegal_jump_event])
    assert not qs.alert_box.isHidden() and "e1→e3" in qs.alert_label.toPlainText()
    cands = [qs.cand_combo.itemText(i) for i in range(qs.cand_combo.count())]
    assert "e2" in cands and "e3" not in cands
    assert qs.board.seen == "e3"  # what the camera saw is drawn, not played
    assert not qs.play_btn.isEnabled()
    shot(win, "quoridor_question_en")
    qs.correct_edit.setText("e3")
    qtbot.mouseClick(qs.correct_btn, Qt.MouseButton.LeftButton)
    assert "Move refused" in qs.message.text() and "not_adjacent" in qs.message.text()
    qs.cand_combo.setCurrentIndex(cands.index("e2"))
    qtbot.mouseClick(qs.confirm_btn, Qt.MouseButton.LeftButton)
    assert s.record == ["e2"] and qs.alert_box.isHidden()
    # typed moves, one refused with the rule's sentence
    for text in ("e8", "e4"):
        qs.move_edit.setText(text)
        qtbot.mouseClick(qs.play_btn, Qt.MouseButton.LeftButton)
    assert s.record == ["e2", "e8"]
    assert "P1 cannot move e2–e4" in qs.message.text() and qs.move_edit.text() == "e4"
    for text in ("e3", "d7h", "c3v"):
        qs.move_edit.setText(text)
        qtbot.keyClick(qs.move_edit, Qt.Key.Key_Return)
    assert s.record == ["e2", "e8", "e3", "d7h", "c3v"] and qs.message.text() == ""
    assert qs.table.item(1, 2).text() == "9" and qs.table.item(0, 2).text() == "9"
    # the hint, in a worker with a time limit
    qs.hint_time_s = 0.4
    qtbot.mouseClick(qs.hint_btn, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: qs.hint is not None, timeout=15000)
    s.game.judge(parse_move(qs.hint.move))
    assert qs.hint.move in qs.hint_label.text() and qs.board.hint == qs.hint.move
    shot(win, "quoridor_hint_en")
    qtbot.mouseClick(qs.undo_btn, Qt.MouseButton.LeftButton)
    assert s.record == ["e2", "e8", "e3", "d7h"] and qs.hint is None
    assert qs.export(tmp_path / "game.txt")
    assert "2. e3 d7h" in (tmp_path / "game.txt").read_text(encoding="utf-8")
    gid = s.game_id
    win.close()
    win.keeper.store.close()
    again = window("fr", "panel.sqlite3")  # same database: the game is resumed
    s2 = again.quoridor_screen.keeper.session
    assert s2 is not None and s2.game_id == gid and s2.record == ["e2", "e8", "e3", "d7h"]
    assert again.tabs.tabText(again.tabs.indexOf(again.quoridor_screen)) == "Quoridor"
    assert "Coup 5 : à P1 Alice de jouer" in again.quoridor_screen.turn_label.text()
    shot(again, "quoridor_resumed_fr")


def test_dashboard_command_opens_the_quoridor_screen_on_a_video(tmp_path, rendered_game):
    import os
    import subprocess
    import sys

    SHOTS.mkdir(parents=True, exist_ok=True)
    png = SHOTS / "quoridor_cli_fr.png"
    db = tmp_path / "cli.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    code = "import sys; from ui.cli import main; sys.exit(main(sys.argv[1:]))"
    r = subprocess.run([sys.executable, "-c", code, "dashboard", "--db", str(db), "--lang", "fr",
                        "--tab", "quoridor", "--players", "2", "--video",
                        str(rendered_game.video_path), "--screenshot", str(png),
                        "--quit-after", "4"], env=env, capture_output=True, text=True,
                       timeout=90, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    assert png.is_file() and png.stat().st_size > 5000
    with GameStore(db) as store:
        games = store.games(kind="quoridor")
        assert len(games) == 1 and games[0].players == ("P1", "P2")
        moves = list(games[0].moves)  # read in real time for 4 s: the start of the truth
        assert moves == rendered_game.truth["moves"][:len(moves)]


def test_panel_question_from_the_video_then_the_held_move(qtbot, window, rendered_illegal_game):
    from ui.app.video import VideoSpec

    win = window("en", "illegal.sqlite3")
    qs = win.quoridor_screen
    qs.names_edit.setText("Alice, Bob")
    s = qs.new_game()
    qs.open_source(VideoSpec.for_file(rendered_illegal_game.video_path, realtime=False))
    qtbot.waitUntil(lambda: qs.video.ended, timeout=60000)
    # the illegal jump is a question, never a move; P2's next move waits behind it
    assert s.record == ["e2", "e8"]
    q = s.question
    assert q is not None and q.ply == 2 and q.literal == "e4" and "not_adjacent" in q.reason
    assert not qs.alert_box.isHidden() and qs.board.seen == "e4"
    assert q.candidates[0] == "e3"  # the legal move nearest to what was seen
    assert [e.move for e in s.held] == ["e7"]
    shot(win, "quoridor_video_question_en")
    # a person says it was e3: judged, played, then the held camera move is judged and played
    qs.correct_edit.setText("e3")
    qs.correct_typed()
    assert s.record == ["e2", "e8", "e3", "e7"] and s.question is None and s.held == []
    assert [m.source for m in s.moves] == ["camera", "camera", "corrected", "camera"]
    assert win.keeper.store.game(s.game_id).moves == ("e2", "e8", "e3", "e7")
    # the watcher (in its thread) is put on the kept record after the correction
    assert qs._synced == s.record


def test_the_cameras_own_moves_are_not_synced_back_to_its_watcher(window, monkeypatch):
    """The watcher (in its thread) is put on the kept record only when a person changed it. The
    camera's own moves it has already, and it may have followed the board further since (past an
    illegal move it saw: it carries on from the position seen), so syncing it back to the record
    while the model's listeners refresh put it behind the board (a race: the next move then read
    as two changes). Here the source is made to look running and the syncs are counted."""
    from ui.app.quoridor_worker import QuoridorController
    from vision.quoridor.watch import MoveEvent

    win = window("en", "sync.sqlite3")
    qs = win.quoridor_screen
    monkeypatch.setattr(QuoridorController, "running", property(lambda self: True))
    synced: list[list[str]] = []
    monkeypatch.setattr(qs.video, "sync", lambda record: synced.append(list(record)))
    qs.names_edit.setText("Alice, Bob")
    s = qs.new_game()
    synced.clear()
    seen = MoveEvent(0, 12, 0, "e2", 0.9, False, "P1 e1→e2", ["e2"])
    assert qs.camera_events([seen]) == ["accepted"]
    assert s.record == ["e2"] and synced == [] and qs._synced == ["e2"]
    # a person's move is synced to the watcher
    qs.move_edit.setText("e8")
    qs.play_typed()
    assert s.record == ["e2", "e8"] and synced == [["e2", "e8"]]


def test_four_player_board(qtbot, window):
    win = window("en", "four.sqlite3")
    qs = win.quoridor_screen
    qs.names_edit.setText("Ann, Ben, Cat, Dan")
    qs.players_combo.setCurrentIndex(qs.players_combo.findData(4))
    s = qs.new_game()
    assert s is not None and s.num_players == 4
    for text in ("e2", "b5", "e8", "h5", "d5v"):
        qs.move_edit.setText(text)
        qs.play_typed()
    assert s.record == ["e2", "b5", "e8", "h5", "d5v"]
    assert qs.table.rowCount() == 4 and qs.table.item(0, 2).text() == "4"
    assert qs.board.pawns == ["e2", "b5", "e8", "h5"] and qs.board.walls == ["d5v"]
    shot(win, "quoridor_4p_en")


def test_sample_source_uses_the_rendered_sample_once_made(qtbot, window, tmp_path, rendered_game):
    import shutil

    from ui.app.quoridor_worker import SampleRenderer

    win = window("en", "sample.sqlite3")
    qs = win.quoridor_screen
    cached = SampleRenderer.path_in(win.recordings_dir)
    cached.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(rendered_game.video_path, cached)  # as if rendered by an earlier run
    assert qs.open_sample() is True  # opened at once, nothing rendered again
    assert qs.video.running and not qs.samples.busy
    assert qs.keeper.session is not None  # a game is started for the camera to fill
    qtbot.waitUntil(lambda: qs.view.has_frame(), timeout=20000)
    qs.close_source()
    assert not qs.video.running and not qs.view.has_frame()


def test_worker_follows_the_kept_record_when_told(qtbot, tmp_path, rendered_game):
    from ui.app.quoridor_worker import QuoridorVideoWorker
    from ui.app.video import FrameSource, VideoSpec

    spec = VideoSpec.for_file(rendered_game.video_path, realtime=False)
    worker = QuoridorVideoWorker(spec, tmp_path, players=2, record=["e2", "e8"])
    assert worker.watcher.game.pawn_squares() == ["e2", "e8"]
    errors: list[str] = []
    worker.failed.connect(errors.append)
    worker.post("sync", ["e2", "e8", "e3h"])
    worker._drain_commands(FrameSource(spec))  # what the loop does before each frame
    assert worker.watcher.record == ["e2", "e8", "e3h"]
    assert worker.watcher.game.walls_left() == [9, 10]
    worker.post("sync", ["e2", "e2"])  # not a legal record: reported, the game stays
    worker._drain_commands(FrameSource(spec))
    assert errors and "e2 e2" in errors[0]
    assert worker.watcher.record == ["e2", "e8", "e3h"]
