"""The ceiling benchmark (:mod:`vision.bench_ceiling`): the video judge's decoder told the truth.

Recordings are made from the sample climb's exact landmarks (as
``test_detector_decides_on_the_features_it_was_trained_on`` does), so the route and the decoder
are real and MediaPipe is not needed."""

from __future__ import annotations

import numpy as np
import pytest

from tests.test_vision_contact import CLIP, exact_recording
from vision.bench_ceiling import TruthToldDetector, ceiling, main, tip_errors
from vision.bench_judge import _colour_map
from vision.train_contact import _labels, judge_recording


@pytest.fixture(scope="module")
def recording() -> dict:
    return exact_recording()


def test_told_everything_the_decoder_gives_the_true_events_and_verdict(recording: dict) -> None:
    """With the contact evidence, the lifts and the holds told, the decoder's events are the
    truth's (within the 0.2 s tolerance) and the verdict is the expected one; each row reports
    the same clip's events and counts finger-frames down on a hold."""
    rows = ceiling([recording])
    assert [r["name"] for r in rows] == ["as judged", "true contact", "+ true lifts", "+ true holds"]
    told = rows[-1]
    assert told["truth"] > 0 and told["tp"] == told["truth"] == told["pred"], told
    assert told["right"] == 1 and told["misses"] == []
    assert told["pressing"] > 0 and 0 <= told["out_of_reach"] < told["pressing"]
    assert all(r["truth"] == told["truth"] for r in rows)


def test_the_decoder_follows_what_it_is_told(recording: dict) -> None:
    """Told that no finger is ever down, the decoder sees no contact at all (its evidence is the
    truth it is given, not the shipped classifier's), and the verdict is wrong; told nothing,
    it judges with its own classifiers and finds contacts."""
    gt = recording["gt"]
    nobody = [[None] * 5 for _ in _labels(gt)]
    det = TruthToldDetector(nobody, contact=True, lifts=True, holds=True, colour_map=_colour_map(gt))
    m, n_pred, n_truth, ok, _ = judge_recording(det, recording, 2)
    assert n_pred == 0 and m == 0 and n_truth > 0 and not ok
    det = TruthToldDetector(nobody, contact=False, lifts=False, holds=False, colour_map=_colour_map(gt))
    assert judge_recording(det, recording, 2)[1] > 0


def test_a_folder_that_is_not_a_rendered_climb_is_refused(tmp_path, capsys) -> None:
    (tmp_path / "video.mp4").write_bytes(b"")
    assert main([str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "not a rendered climb" in err and "route.json" in err and "ground_truth.json" in err


def test_a_corrupt_video_is_a_clear_error(tmp_path, capsys) -> None:
    """A climb folder whose video cannot be read: exit 2, the folder named, what to do."""
    for name in ("route.json", "ground_truth.json"):
        (tmp_path / name).write_text((CLIP / name).read_text())
    (tmp_path / "video.mp4").write_bytes(b"not a video at all" * 100)
    assert main([str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "could not record" in err and str(tmp_path) in err and "render it again" in err


def test_tip_errors_measure_the_fingertips_against_the_truth(recording: dict) -> None:
    """Given the truth's own fingertips (MediaPipe's convention) the error is nil; moved 10 px
    across the image it is 10 px in table mm (the scale of the clip's true camera at a hold),
    and the frames in view without a hand are counted."""
    gt = recording["gt"]
    exact = []
    for lm, t, f, occ in recording["rec"]:
        hands = [h for h in gt["frames"][f]["hands"] if h["role"] == "climbing"]
        exact.append((None if lm is None else np.asarray(hands[0]["landmarks_mediapipe_px"], np.float32),
                      t, f, occ))
    clip = dict(recording, rec=exact)
    r = tip_errors(clip)
    assert r["camera"] == "top" and len(r["err_mm"]) > 20
    assert np.abs(r["err_mm"]).max() < 1e-3 and np.abs(r["along_mm"]).max() < 1e-3
    assert r["in_view"] > 0 and r["lost"] == 0
    cam = gt["camera"]
    K, R = np.asarray(cam["K"]), np.asarray(cam["R_cam_from_world"])
    t_cam = np.asarray(cam["t_cam_from_world_mm"])
    hold = gt["route"]["holds"][0]

    def project(x_mm: float, y_mm: float) -> np.ndarray:
        p = K @ (R @ np.array([x_mm, y_mm, 0.0]) + t_cam)
        return p[:2] / p[2]

    step_px = np.linalg.norm(project(hold["x_mm"] + 10, hold["y_mm"]) - project(hold["x_mm"], hold["y_mm"]))
    mm_per_px = 10.0 / float(step_px)
    moved = [(None if lm is None else lm + np.float32([10.0, 0.0]), t, f, o) for lm, t, f, o in exact]
    r = tip_errors(dict(recording, rec=moved))
    assert np.median(r["err_mm"]) == pytest.approx(10 * mm_per_px, rel=0.1)
    assert np.all(np.abs(r["along_mm"]) <= r["err_mm"] + 1e-6)
    lost = [(None if 40 <= f < 50 else lm, t, f, o) for lm, t, f, o in exact]
    r = tip_errors(dict(recording, rec=lost))
    in_view_40_50 = sum(1 for _, _, f, _ in exact if 40 <= f < 50 and f % 2 == 0)
    assert 0 < r["lost"] <= in_view_40_50
