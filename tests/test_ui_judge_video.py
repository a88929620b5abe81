"""A sample clip judged on the fly by the real video referee (vision.pipeline), then opened for
review: sidecar per frame, judge-format events, timeline markers and an annotated clip."""

from __future__ import annotations

import json
from pathlib import Path

import cv2  # noqa: F401  (before Qt, on purpose)
import pytest

from ui.app.qtenv import prepare_qt_environment

prepare_qt_environment()

from games.store import GameStore  # noqa: E402
from ui.app.app import make_window  # noqa: E402
from ui.app.export import annotated_clip  # noqa: E402
from ui.app.referee import pipeline_available  # noqa: E402
from ui.app.recording import read_sidecar  # noqa: E402
from ui.app.review_data import FrameReader, judge_video  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CLIP = ROOT / "sample_videos" / "wrong_finger_top"


@pytest.mark.skipif(not (CLIP / "video.mp4").is_file(), reason="sample clip wrong_finger_top missing")
@pytest.mark.skipif(not pipeline_available(), reason="vision.pipeline (the video judge) missing")
def test_judge_a_sample_clip_and_review_it(qtbot, tmp_path):
    route = json.loads((CLIP / "route.json").read_text())
    rec = judge_video(CLIP / "video.mp4", tmp_path, route=route, model_complexity=1)
    n = FrameReader(CLIP / "video.mp4").count()
    assert rec.frame_count == n and rec.sidecar is not None and rec.sidecar.complete
    assert rec.verdict is not None and rec.verdict["result"] in ("summit", "fault", "incomplete")
    # the synthetic hand is seen by MediaPipe in most frames
    with_hand = sum(1 for f in rec.sidecar.frames if f["hands"])
    assert with_hand >= 0.5 * n, f"hands in {with_hand}/{n} frames"
    # every event the referee emitted is in the events file and on the timeline
    assert len(rec.events) == len(rec.sidecar.events())
    downs = [e for e in rec.events if e["type"] == "down"]
    markers = rec.markers()
    assert sum(m.kind == "event" for m in markers) == len(downs) + sum(
        e["type"] in ("card_moved", "other_hand") for e in rec.events)
    assert all(0 <= m.frame < n for m in markers)
    truth = json.loads((CLIP / "ground_truth.json").read_text())["expected_verdict"]
    print(f"judged {rec.verdict['result']} {rec.verdict['score']} "
          f"(fault {(rec.verdict.get('fault') or {}).get('code')}); truth {truth['result']} "
          f"{(truth.get('fault') or {}).get('code')}; {len(rec.events)} events")
    out = tmp_path / "clip.mp4"
    assert annotated_clip(rec, out) == n and FrameReader(out).count() == n
    # the review screen on it, at the first marker (screenshot for a person to look at)
    win = make_window(GameStore(tmp_path / "r.sqlite3"), tmp_path, resume=False)
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    rs = win.review_screen
    win.tabs.setCurrentWidget(rs)
    rs.load(rec)
    rs.next_event()
    assert rs.view.has_frame() and (not markers or rs.frame == markers[0].frame or rs.frame > 0)
    shots = ROOT / "out" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    assert win.grab().save(str(shots / "review_sample_judged_en.png"))
    win.close()


@pytest.mark.skipif(not (CLIP / "video.mp4").is_file(), reason="sample clip wrong_finger_top missing")
@pytest.mark.skipif(not pipeline_available(), reason="vision.pipeline (the video judge) missing")
def test_live_attempt_on_a_sample_clip_is_judged_and_recorded_into_the_game(qtbot, tmp_path):
    """A 2-player game on the clip's route: Bob's attempt is started on the Live screen, the video
    judge's verdict is recorded into the game by itself when the attempt ends."""
    from ui.app import commands as cmd
    from ui.app.video import VideoSpec

    win = make_window(GameStore(tmp_path / "g.sqlite3"), tmp_path / "rec", resume=False)
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    k = win.keeper
    k.run(cmd.NewGame(["Alice", "Bob"], rounds=1))
    assert k.run(cmd.RebuildRoute(str(CLIP / "route.json"))) >= 2
    s = k.session
    assert s.phase == "climb"
    climber = s.current_player_name()
    win.video_route_changed()
    win.open_source(VideoSpec.for_file(CLIP / "video.mp4", realtime=False))
    qtbot.waitUntil(lambda: win.live_screen.view.has_frame(), timeout=60000)
    assert win.referee_label.text() == "Video referee active"
    win.live_screen.toggle_attempt()
    qtbot.waitUntil(lambda: len(s.attempts()) == 1, timeout=120000)  # the end or the auto stop
    a = s.attempts()[0]
    assert a.player == climber and a.round == 1
    assert a.auto_verdict["result"] in ("summit", "fault", "incomplete")
    assert "frames" in a.auto_verdict  # the video judge's own verdict, with its evidence
    assert a.video_path and Path(a.video_path).is_file() and a.sidecar_path
    assert s.round_table().scores[s.players.index(climber)][0] == a.auto_verdict["score"]
    side = read_sidecar(a.sidecar_path)
    assert side.complete and sum(1 for f in side.frames if f["hands"]) >= len(side.frames) // 2
    win.tabs.setCurrentWidget(win.live_screen)
    assert win.grab().save(str(ROOT / "out" / "screenshots" / "live_sample_judged_en.png"))
    win.close()
