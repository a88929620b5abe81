"""The judge benchmark's own parts: event matching, the sorting of its errors, the verdict
figures split by camera and script, parallel renders, the speed figures."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.bench_judge import (
    event_errors,
    match_events,
    render,
    render_all,
    score_right,
    speed_figures,
    verdict_breakdown,
)


def _down(t: float, finger: str, target: str) -> dict:
    return {"t": t, "type": "down", "finger": finger, "target": target}


def _up(t: float, finger: str) -> dict:
    return {"t": t, "type": "up", "finger": finger}


def test_event_errors_sorts_each_unmatched_event_by_why() -> None:
    truth = [_down(0.6, "thumb", "start"), _down(1.5, "ring", "11b"), _up(1.8, "thumb"),
             _down(2.7, "index", "32a"), _up(3.0, "ring"), _down(4.0, "little", "5c")]
    pred = [
        _down(0.6, "thumb", "start"),    # right
        _down(1.1, "ring", "11b"),       # 0.4 s early
        _up(1.8, "thumb"),               # right
        _down(2.7, "middle", "32a"),     # the wrong finger at the right time
        _up(3.05, "ring"),               # right
        _down(5.0, "index", "40b"),      # nothing like it in the truth
    ]                                    # and the little finger's down is not found
    assert match_events(pred, truth) == 3
    err = event_errors(pred, truth)
    assert err == {"down": {"missed (late or early)": 1, "extra (late or early)": 1,
                            "missed (other finger or target)": 1, "extra (other finger or target)": 1,
                            "missed": 1, "extra": 1}}
    # every unmatched event is counted once on its side
    assert sum(n for k, n in err["down"].items() if k.startswith("missed")) == len(truth) - 3
    assert sum(n for k, n in err["down"].items() if k.startswith("extra")) == len(pred) - 3


def test_event_errors_of_a_perfect_log_is_empty_and_late_ups_are_timing() -> None:
    truth = [_down(0.6, "index", "start"), _up(2.0, "index")]
    assert event_errors(list(truth), truth) == {}
    late = [_down(0.6, "index", "start"), _up(2.5, "index")]
    assert event_errors(late, truth) == {"up": {"missed (late or early)": 1, "extra (late or early)": 1}}
    # beyond near_s it is a miss and an extra, not a timing error
    assert event_errors(late, truth, near_s=0.3) == {"up": {"missed": 1, "extra": 1}}


def test_verdict_figures_are_split_by_camera_and_script_and_the_score_counted_apart() -> None:
    """A fault called for the wrong reason is a wrong verdict, but the player's score is right:
    the benchmark counts both, and splits the verdicts by camera (top first) and script."""
    summit = {"result": "summit", "score": 6, "fault": None}
    fault = {"result": "fault", "score": 0, "fault": {"code": "wrong_finger"}}
    other_code = {"result": "fault", "score": 0, "fault": {"code": "no_contact"}}
    assert score_right(other_code, fault) and not score_right(summit, fault)
    assert score_right(summit, dict(summit)) and not score_right({**summit, "score": 5}, summit)
    rows = [("clean", "oblique", True, True), ("clean", "top", False, False),
            ("wrong_finger", "top", False, True), ("wrong_finger", "top", True, True)]
    assert verdict_breakdown(rows) == [
        "by camera: top 1/3, oblique 1/1",
        "by script: clean oblique 1/1, clean top 0/1, wrong_finger top 1/2",
        "result and score right, the fault's code aside: 3/4",
    ]


def test_render_all_renders_missing_scenes_in_worker_processes(tmp_path) -> None:
    out = tmp_path / "empty_3_top"
    jobs = [(3, "top", "empty", out, (320, 240), 2)]
    render_all(jobs, 2)
    gt = json.loads((out / "ground_truth.json").read_text())
    assert gt["seed"] == 3 and gt["num_frames"] == 2 and (out / "video.mp4").stat().st_size > 0
    before = (out / "video.mp4").stat().st_mtime_ns
    render_all(jobs, 2)  # already there: not rendered again
    assert (out / "video.mp4").stat().st_mtime_ns == before


def test_folded_placements_are_the_tips_under_the_palm() -> None:
    """A ring finger put down with its tip 2 mm ahead of its knuckle (folded back under the
    palm, as the renderer does to reach a hold the hand has passed) is one; the same finger
    40 mm ahead, or a thumb, is not; the bundled clips have none."""
    from pathlib import Path

    from vision.bench_judge import folded_placements

    def gt_with(tip_ahead_mm: float, finger: str = "ring") -> dict:
        lm = [[0.0, 0.0, 0.0]] * 21
        lm[0], lm[9] = [0.0, 0.0, 0.0], [0.0, 90.0, 50.0]  # wrist, middle knuckle: fingers +y
        lm[13], lm[16] = [20.0, 85.0, 50.0], [20.0, 85.0 + tip_ahead_mm, 0.0]  # ring knuckle, tip
        frame = {"hands": [{"role": "climbing", "landmarks_mm": lm}]}
        return {"events": [_down(1.0, finger, "11b") | {"frame": 30}], "frames": [frame] * 40}

    assert len(folded_placements(gt_with(2.0))) == 1
    assert folded_placements(gt_with(40.0)) == []
    assert folded_placements(gt_with(2.0, "thumb")) == []
    root = Path(__file__).resolve().parents[1] / "sample_videos"
    for clip in ("clean_top", "wrong_finger_top", "clean_oblique", "other_hand_edge_top"):
        assert folded_placements(json.loads((root / clip / "ground_truth.json").read_text())) == []


def test_speed_figures_are_medians_of_runs_taken_in_turn(tmp_path) -> None:
    """The referee and the bare MediaPipe loops really run over the clip (every frame counted)
    ``runs`` times each; the figures printed are the medians of those runs and their ratios."""
    clip = render(5, "top", "clean", tmp_path / "clip", size=(320, 240), num_frames=16, progress=False)
    assert clip is not None
    sp = speed_figures(clip, 2)
    assert sp["frames"] == 16 and sp["runs"] == 2
    for key in ("judge", "bare_same", "bare_all"):
        runs = sp[f"{key}_runs"]
        assert len(runs) == 2 and all(x > 0 for x in runs)
        assert sp["fps"][key] == pytest.approx(float(np.median(runs)))
    assert sp["ratio_same"] == pytest.approx(sp["fps"]["judge"] / sp["fps"]["bare_same"])
    assert sp["ratio_all"] == pytest.approx(sp["fps"]["judge"] / sp["fps"]["bare_all"])
    one = speed_figures(clip, 1, warm=False)  # the caller's own run already warmed the caches
    assert one["frames"] == 16 and len(one["judge_runs"]) == 1
    with pytest.raises(ValueError, match="runs"):
        speed_figures(clip, 0)
