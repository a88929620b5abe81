"""The dashboard's referee adapter: automatic start/stop of an attempt, and no verdict made up
when the video judge is off."""

from __future__ import annotations

import numpy as np

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
