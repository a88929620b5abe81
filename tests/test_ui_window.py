"""The dashboard window (pytest-qt, offscreen): a whole 2-player game played through the GUI,
an attempt recorded from video on the Live screen and reviewed with overrides, the round table
and the database checked, and a screenshot of each screen saved to out/screenshots/."""

from __future__ import annotations

import json
from pathlib import Path

import cv2  # noqa: F401  (imported before Qt on purpose)
import pytest

from ui.app.qtenv import prepare_qt_environment

prepare_qt_environment()

from PySide6.QtCore import Qt  # noqa: E402

from games.store import GameStore  # noqa: E402
from tests.test_ui_video import make_video  # noqa: E402
from ui.app import i18n  # noqa: E402
from ui.app.app import make_window  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "sample_videos" / "example_climb"
SUMMIT, FAULT = EXAMPLE / "events.jsonl", EXAMPLE / "events_fault.jsonl"
SHOTS = ROOT / "out" / "screenshots"
BUILD = [(11, 0, 2), (20, 1, 2), (27, 1, 3), (7, 0, 3)]

pytestmark = pytest.mark.skipif(not SUMMIT.is_file(), reason="sample_videos/example_climb missing")


@pytest.fixture
def window(qtbot, tmp_path):
    def make(lang: str = "en"):
        i18n.set_language(lang)
        store = GameStore(tmp_path / f"{lang}.sqlite3")
        # deterministic and fast: hands only (the video judge is tested in test_ui_judge_video)
        win = make_window(store, tmp_path / "rec", model_complexity=0, use_pipeline=False)
        win.setProperty("no_dialogs", True)
        qtbot.addWidget(win)
        win.resize(1280, 800)
        win.show()
        return win

    yield make
    i18n.set_language("en")


def shot(win, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    assert win.grab().save(str(path)), f"could not save {path}"
    return path


def click(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def place(qtbot, gs, number: int, col: int, row: int) -> None:
    gs.card_combo.setCurrentIndex(gs.card_combo.findData(number))
    i = gs.slot_combo.findData(f"{col},{row}")
    assert i >= 0, f"slot ({col},{row}) not offered: legal slots are highlighted wrongly"
    gs.slot_combo.setCurrentIndex(i)
    click(qtbot, gs.place_btn)


def table_text(gs) -> list[list[str]]:
    t = gs.table
    return [[(t.item(r, c).text() if t.item(r, c) else "") for c in range(t.columnCount())]
            for r in range(t.rowCount())]


def test_whole_game_through_the_window(qtbot, window, tmp_path):
    win = window("en")
    gs, ls, rs = win.game_screen, win.live_screen, win.review_screen
    shot(win, "game_empty_en")
    gs.players_edit.setPlainText("Alice\nBob")
    gs.rounds_spin.setValue(5)
    click(qtbot, gs.start_btn)
    s = win.keeper.session
    assert s is not None and s.players == ["Alice", "Bob"]
    for n, c, r in BUILD:
        place(qtbot, gs, n, c, r)
    assert s.phase == "climb" and "Bob" in gs.phase_label.text()
    assert "10 / 10" in gs.holds_label.text()

    # Round 1, Bob: recorded on video from the Live screen (space starts and stops)
    clip = make_video(tmp_path / "table.mp4", frames=80, fps=20.0)
    win.tabs.setCurrentWidget(ls)
    from ui.app.video import VideoSpec

    win.open_source(VideoSpec.for_file(clip))
    qtbot.waitUntil(lambda: ls.view.has_frame(), timeout=20000)
    assert ls.view.hasFocus()
    qtbot.keyClick(ls.view, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: win.video.recording, timeout=5000)
    qtbot.wait(700)
    shot(win, "live_en")
    qtbot.keyClick(ls.view, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: win.pending_recording is not None, timeout=10000)
    assert win.pending_recording.verdict is None  # no video judge here: nothing made up
    assert "Video referee off" in win.referee_label.text()
    # the verdict from the attempt's event log, as the video referee writes it: its little
    # finger's placement seen with little confidence (the review marks it to check)
    bob_events = tmp_path / "bob_events.jsonl"
    lines = [json.loads(x) for x in FAULT.read_text().splitlines()]
    for e in lines:
        e["confidence"] = 0.35 if e.get("finger") == "little" and e["type"] == "down" else 0.9
    bob_events.write_text("".join(json.dumps(e) + "\n" for e in lines))
    a_bob = gs.record_from_events(str(bob_events))
    assert a_bob is not None
    stored = win.keeper.store.attempt(a_bob)
    assert stored.video_path and Path(stored.video_path).is_file() and stored.sidecar_path
    win.video.stop()
    # Alice, then the rest of the game
    gs.record_from_events(str(SUMMIT))
    assert s.phase == "place" and "Alice" in gs.phase_label.text()
    for rnd in range(2, 6):
        legal = s.legal_slots()
        place(qtbot, gs, s.unused_cards()[0], *legal[-1])
        assert s.game.round_no == rnd
        gs.record_from_events(str(SUMMIT))
        gs.fingers_edit.setText("3 2")
        gs.result_combo.setCurrentIndex(gs.result_combo.findData("summit"))
        click(qtbot, gs.record_btn)  # typed by hand: 3 + 1 = 4
    assert s.phase == "over"
    rows = table_text(gs)
    assert rows[0][0].endswith("Alice") and rows[1][0].endswith("Bob")
    assert rows[1][1] == "0" and rows[0][1] == "5"
    assert int(rows[0][-1]) + int(rows[1][-1]) == 5 + 4 * (5 + 4)
    assert "Winner" in gs.winner_label.text()
    win.tabs.setCurrentWidget(gs)
    shot(win, "game_over_en")

    # Review Bob's recorded attempt; impose/cancel: the round table follows
    win.tabs.setCurrentWidget(rs)
    rs.open_attempt(a_bob)
    assert rs.rec is not None and rs.rec.frame_count >= 5 and rs.view.has_frame()
    assert any(m.kind == "fault" for m in rs.rec.markers(rs.final))
    assert [m.t_s for m in rs.rec.markers(rs.final) if m.kind == "check"] == [1.6]
    assert "to check: down little 11a (confidence 0.35)" in rs.evidence.toPlainText()
    rs.seek(2)
    click(qtbot, rs.step_btn)
    assert rs.frame == 3
    assert rs.cancel_fault()  # re-judged from the log: incomplete, still 0
    assert win.keeper.store.attempt(a_bob).final_verdict["result"] == "incomplete"
    assert rs.clear_overrides()
    assert rs.set_fingers(0, 4) is True  # a fault stays a fault: 0 points
    assert win.keeper.store.attempt(a_bob).score == 0
    shot(win, "review_en")
    # Alice's round-1 summit with move 1 counted 4 fingers: 7, and the total follows
    alice_r1 = next(a for a in win.keeper.store.attempts(s.game_id)
                    if a.round == 1 and a.player == "Alice")
    before = int(table_text(gs)[0][-1])
    rs.open_attempt(alice_r1.id)
    assert rs.set_fingers(0, 4)
    after = table_text(gs)
    assert after[0][1] == "7 *" and int(after[0][-1]) == before + 2
    assert win.keeper.store.attempt(alice_r1.id).auto_verdict["score"] == 5  # both kept
    clip_path = tmp_path / "clip.mp4"
    rs.open_attempt(a_bob)
    assert rs.export_clip(clip_path) == rs.rec.frame_count and clip_path.stat().st_size > 0

    win.tabs.setCurrentWidget(win.history_screen)
    win.history_screen.refresh()
    assert win.history_screen.games.rowCount() == 1
    assert win.history_screen.attempts.rowCount() == 10
    shot(win, "history_en")
    win.export("csv", tmp_path / "sheet.csv")
    assert (tmp_path / "sheet.csv").read_text().splitlines()[1].startswith("Alice")


def test_reopening_the_window_resumes_the_game(qtbot, window, tmp_path):
    win = window("en")
    win.game_screen.players_edit.setPlainText("Alice\nBob")
    win.game_screen.new_game()
    for n, c, r in BUILD:
        place(qtbot, win.game_screen, n, c, r)
    win.game_screen.record_from_events(str(SUMMIT))
    gid = win.keeper.session.game_id
    win.close()
    win.keeper.store.close()
    again = window("en")  # same database file
    s = again.keeper.session
    assert s is not None and s.game_id == gid and s.current_player_name() == "Alice"
    assert table_text(again.game_screen)[1][1] == "5"


def test_french_screens(qtbot, window, tmp_path):
    win = window("fr")
    assert win.tabs.tabText(0) == "Partie" and win.tabs.tabText(2) == "Revoir"
    win.game_screen.players_edit.setPlainText("Alice\nBob\nChloé")
    win.game_screen.new_game()
    for n, c, r in BUILD[:3]:
        place(qtbot, win.game_screen, n, c, r)
    assert "Construction de la voie" in win.game_screen.phase_label.text()
    shot(win, "game_building_fr")
    win.tabs.setCurrentWidget(win.live_screen)
    assert "Aucune source" in win.live_screen.view._message
    shot(win, "live_nosource_fr")
    win.tabs.setCurrentWidget(win.review_screen)
    shot(win, "review_empty_fr")
    win.tabs.setCurrentWidget(win.history_screen)
    shot(win, "history_fr")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_live_panel_says_where_the_camera_is_and_advises_a_low_one(window, lang):
    """The live evidence panel shows the camera's elevation from the route once the referee
    knows it, and tells a camera below 55 degrees to go higher, in the window's language."""
    import numpy as np

    from ui.app.referee import RefereeFrame
    from ui.app.video import Frame
    from ui.app.workers import LiveFrame

    win = window(lang)
    ls = win.live_screen
    assert ls.source_combo.findText({"en": "Camera", "fr": "Caméra"}[lang]) >= 0  # the source's label
    image = np.zeros((48, 64, 3), np.uint8)

    def shown(camera):
        rf = RefereeFrame(3, 0.1, camera=camera)
        ls.show_frame(LiveFrame(image, Frame(image, 3, 0.1, 0.0), rf, False, 30.0, 0, 0.0))
        return ls.evidence.toPlainText()

    words = {"en": ("Camera: 49° above the route", "Camera low"),
             "fr": ("Caméra : 49° au-dessus de la voie", "Caméra basse")}[lang]
    assert words[0] not in shown(None)
    low = shown({"height_mm": 358.2, "distance_mm": 304.2, "elevation_deg": 49.4, "low": True})
    assert words[0] in low and words[1] in low and "55°" in low
    high = shown({"height_mm": 423.6, "distance_mm": 212.3, "elevation_deg": 63.4, "low": False})
    assert words[0].replace("49", "63") in high and words[1] not in high


def test_every_message_has_both_languages():
    for key, (fr, en) in i18n.MESSAGES.items():
        assert fr and en, key
        assert set(__import__("re").findall(r"{(\w+)", fr)) == set(
            __import__("re").findall(r"{(\w+)", en)), f"{key}: placeholders differ"
    assert i18n.default_language({"LANG": "fr_FR.UTF-8"}) == "fr"
    assert i18n.default_language({"LANG": "en_GB.UTF-8"}) == "en"
    assert i18n.default_language({"LC_ALL": "fr_CA.UTF-8", "LANG": "en_US"}) == "fr"
    # a key written twice in the table keeps only its last text (Python says nothing): the
    # source combo's "Camera" once became a camera-placement sentence that way
    import ast

    table = next(node.value for node in ast.walk(ast.parse(Path(i18n.__file__).read_text()))
                 if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "MESSAGES")
    keys = [k.value for k in table.keys]
    assert len(keys) == len(set(keys)), sorted(k for k in set(keys) if keys.count(k) > 1)


def test_review_opens_any_video_judged_in_a_worker(qtbot, window, tmp_path):
    win = window("en")
    clip = make_video(tmp_path / "any.mp4", frames=30)
    rs = win.review_screen
    win.tabs.setCurrentWidget(rs)
    rs.open_path(clip)
    assert rs.judge.busy  # judged off the GUI thread
    qtbot.waitUntil(lambda: rs.rec is not None, timeout=30000)
    assert rs.rec.frame_count == 30 and rs.rec.sidecar is not None
    assert rs.rec.verdict is None  # hands only: no made-up verdict
    rs.seek(29)
    assert rs.frame == 29 and "30 / 30" in rs.frame_label.text()
    rs.next_event()  # no event: stays
    assert rs.frame == 29


def test_history_lists_quoridor_games_and_resumes_them_on_their_screen(window, tmp_path):
    win = window("en")
    store = win.keeper.store
    qid = store.start_game("quoridor", ["Ana", "Ben"], {"num_players": 2})
    for m in ("e2", "e8", "e3h"):
        store.add_move(qid, m)
    gid = store.start_game("grimpe", ["Zoé"], {"rounds": 5})
    hs = win.history_screen
    hs.refresh()
    assert set(hs._game_ids) >= {qid, gid}
    row = hs._game_ids.index(qid)
    assert hs.games.item(row, 2).text() == "quoridor"
    hs.games.selectRow(row)
    assert hs.attempts.rowCount() == 3
    assert [hs.attempts.item(i, 2).text() for i in range(3)] == ["e2", "e8", "e3h"]
    assert hs.attempts.item(1, 1).text() == "P2 Ben"
    hs.review_selected()  # a Quoridor move is not an attempt: nothing happens
    hs.resume_selected()
    assert win.tabs.currentWidget() is win.quoridor_screen
    session = win.quoridor_screen.keeper.session
    assert session is not None and session.game_id == qid
    assert session.game.record_text() == "e2 e8 e3h"
    shot(win.history_screen, "history_with_quoridor_en")
