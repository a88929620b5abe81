"""The dashboard's referee adapter: automatic start/stop of an attempt, and no verdict made up
when the video judge is off."""

from __future__ import annotations

import numpy as np
import pytest

from ui.app.referee import AutoAttempt, LiveReferee, RefereeFrame


class _Hands:
    def __init__(self, n: int) -> None:
        self.hands = [object()] * n


def rf(t: float, hands: int = 1, events=(), result: str | None = None) -> RefereeFrame:
    verdict = {"result": result, "score": 0, "moves": [], "fault": None} if result else None
    return RefereeFrame(int(t * 30), t, hands=_Hands(hands), new_events=list(events),
                        verdict=verdict)


def test_attempt_starts_on_the_start_zone_and_stops_after_the_end_or_when_the_hand_leaves():
    auto = AutoAttempt(idle_s=2.0, tail_s=1.0)
    assert auto.step(rf(0.0), recording=False) is None
    down = {"t": 0.5, "type": "down", "finger": "thumb", "target": "start"}
    assert auto.step(rf(0.5, events=[down]), recording=False) == "start"
    assert auto.step(rf(1.0, result="incomplete"), recording=True) is None
    assert auto.step(rf(3.0, result="summit"), recording=True) is None  # tail still running
    assert auto.step(rf(4.1, result="summit"), recording=True) == "stop"
    auto = AutoAttempt(idle_s=2.0)
    auto.step(rf(0.5, events=[down]), recording=False)
    assert auto.step(rf(1.0, hands=0), recording=True) is None
    assert auto.step(rf(2.6, hands=0), recording=True) == "stop"  # hand gone for 2 s


def test_hands_only_mode_never_makes_up_a_verdict():
    ref = LiveReferee(use_pipeline=False, model_complexity=0)
    try:
        assert not ref.judging and ref.note == "live.referee_off"
        frame = np.full((240, 320, 3), 120, np.uint8)
        out = ref.update(frame, 0.0, 0)
        assert out.verdict is None and out.new_events == [] and out.hand_count == 0
        assert ref.end_attempt() is None
        drawn = ref.annotate(frame, out)
        assert drawn.shape == frame.shape and drawn is not frame
        rec = out.sidecar_record()
        assert rec["hands"] == [] and rec["source_frame"] == 0 and "result" not in rec
    finally:
        ref.close()



@pytest.mark.parametrize("seed", [19304, 19306])
def test_the_live_referee_says_where_the_camera_is_once_the_route_is_found(seed: int):
    """The dashboard's referee passes on where the camera is seen from the route (the real
    pipeline on rendered oblique frames with their route file): nothing before the first
    frame, then the renderer's camera within a degree, ``low`` for the one below 55 degrees
    (seed 19306: 49.6 degrees; 19304: 63.6)."""
    from vision.camera import LOW_CAMERA_DEG
    from vision.synth.grimpe_scene import GrimpeScene, SceneConfig

    scene = GrimpeScene(SceneConfig(seed=seed, camera="oblique", script="empty", num_frames=3))
    gt = scene.ground_truth(frames=False)
    R = np.array(gt["camera"]["R_cam_from_world"])
    eye = -R.T @ np.array(gt["camera"]["t_cam_from_world_mm"])
    middle = np.mean([[h["x_mm"], h["y_mm"]] for h in gt["route"]["holds"]], axis=0)
    truth = float(np.degrees(np.arctan2(eye[2], np.linalg.norm(eye[:2] - middle))))
    ref = LiveReferee(route=gt["route"], fps=30.0, model_complexity=0)
    try:
        assert ref.judging
        seen = [ref.update(scene.render_frame(i), i / 30, i) for i in range(3)]
    finally:
        ref.close()
    cam = seen[-1].camera
    assert cam is not None, "the route is found on the first frames"
    assert abs(cam["elevation_deg"] - truth) < 1.0 and abs(cam["height_mm"] - eye[2]) < 0.05 * eye[2]
    assert cam["low"] == (truth < LOW_CAMERA_DEG)
    assert "camera" not in seen[-1].sidecar_record()["detections"]  # not written on every frame
