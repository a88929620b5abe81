"""Observation dataclasses validate their shapes; drawing never changes an observation."""

from __future__ import annotations

import numpy as np
import pytest

from vision.annotate import OVERLAY_WORDS, annotate_frame, ascii_text
from vision.observations import ContactObservation, FrameResult, HoldsObservation, RouteObservation


def _holds(n: int = 3) -> HoldsObservation:
    return HoldsObservation(
        tuple(f"{i}a" for i in range(n)), ("blue", "red", "black")[:n],
        np.arange(2 * n, dtype=float).reshape(n, 2) * 20 + 50, np.full(n, 9.0),
        np.array([0.9, 0.4, 1.0])[:n], np.array([True, True, False])[:n])


def test_holds_shapes_and_values_are_checked():
    h = _holds()
    assert h.low_confidence == ("1a",) and len(h) == 3 and h.centres_px.dtype == np.float32
    with pytest.raises(ValueError, match=r"centres_px must have shape \(3, 2\), got \(3, 3\)"):
        HoldsObservation(h.ids, h.colours, np.zeros((3, 3)), h.radii_px, h.confidence, h.detected)
    with pytest.raises(ValueError, match="colours must be in"):
        HoldsObservation(h.ids, ("blue", "pink", "red"), h.centres_px, h.radii_px, h.confidence, h.detected)
    with pytest.raises(ValueError, match="unique"):
        HoldsObservation(("a", "a", "b"), h.colours, h.centres_px, h.radii_px, h.confidence, h.detected)
    with pytest.raises(ValueError, match=r"confidence must be in \[0, 1\]"):
        HoldsObservation(h.ids, h.colours, h.centres_px, h.radii_px, np.array([0.5, 2.0, 1.0]), h.detected)
    with pytest.raises(ValueError, match="finite"):
        HoldsObservation(h.ids, h.colours, np.full((3, 2), np.nan), h.radii_px, h.confidence, h.detected)


def test_route_contact_and_frame_result_are_checked():
    with pytest.raises(ValueError, match=r"start_zone_px must have shape \(4, 2\)"):
        RouteObservation(_holds(), start_zone_px=np.zeros((3, 2)))
    with pytest.raises(ValueError, match="targets must have 5 entries"):
        ContactObservation((None,) * 4, (None,) * 5, np.zeros(5), np.zeros(5), np.zeros((5, 2)))
    with pytest.raises(ValueError, match="landmarks_px must have shape"):
        FrameResult(0, 0.0, True, None, None, np.zeros((20, 2)), None, ContactObservation.none(), [], {})
    with pytest.raises(ValueError, match="new_events"):
        FrameResult(0, 0.0, True, None, None, None, None, ContactObservation.none(), [{"t": 1}], {})


def test_annotate_leaves_the_observation_unchanged():
    route = RouteObservation(_holds(), start_zone_px=np.array([[10, 10], [60, 10], [60, 60], [10, 60]]))
    lm = (np.random.default_rng(1).uniform(50, 150, (21, 2))).astype(np.float32)
    contacts = ContactObservation(("1a", None, None, "start", None), ("1a",) + (None,) * 4,
                                  np.full(5, 0.5), np.full(5, 0.7), np.full((5, 2), 80.0))
    verdict = {"result": "fault", "score": 0, "moves": [], "fault": {"code": "wrong_finger", "t": 1.0}}
    res = FrameResult(7, 0.25, True, None, "right", lm, route, contacts,
                      [{"t": 0.2, "type": "down"}], verdict, 2, 3)
    before = (lm.copy(), route.holds.centres_px.copy(), contacts.evidence.copy(), dict(verdict))
    frame = np.full((240, 320, 3), 90, np.uint8)
    out = annotate_frame(frame, res)
    assert out.shape == frame.shape and not np.shares_memory(out, frame)
    assert (frame == 90).all(), "the input frame was drawn on"
    assert (out != 90).any(), "nothing was drawn"
    assert np.array_equal(res.landmarks_px, before[0])
    assert np.array_equal(res.route.holds.centres_px, before[1])
    assert np.array_equal(res.contacts.evidence, before[2]) and res.verdict == before[3]


def test_annotate_draws_the_words_it_is_given():
    # the overlay in another language: the status line, the fingers down and the fault banner
    # change, the rest of the drawing not; English when no words are given; accents dropped
    # (OpenCV draws ASCII letters only: "départ" would be drawn "d??part")
    route = RouteObservation(_holds(), start_zone_px=np.array([[200, 150], [300, 150], [300, 230], [200, 230]]))
    lm = (np.random.default_rng(1).uniform(50, 150, (21, 2))).astype(np.float32)
    contacts = ContactObservation((None, "1a", None, None, None), (None, "1a") + (None,) * 3,
                                  np.full(5, 0.5), np.full(5, 0.7), np.full((5, 2), 80.0))
    verdict = {"result": "fault", "score": 0, "moves": [], "fault": {"code": "wrong_finger", "t": 1.0}}
    res = FrameResult(7, 0.25, True, None, "right", lm, route, contacts, [], verdict, 2, 3)
    frame = np.full((240, 320, 3), 90, np.uint8)
    en = annotate_frame(frame, res)
    assert np.array_equal(en, annotate_frame(frame, res, words=dict(OVERLAY_WORDS)))
    fr_words = {"status": "t {t:5.2f}s  image {frame}  mouvements {moves}  doigts {fingers}  points {points}",
                "fault": "FAUTE {code} ({t:.2f}s)", "index": "index", "start": "départ"}
    fr = annotate_frame(frame, res, words=fr_words)
    rows = np.flatnonzero((fr != en).any(axis=(1, 2)))
    assert (rows < 25).any() and (rows > 215).any()  # the status line and the fault banner
    assert not ((rows > 60) & (rows < 140)).any()  # the hand and the holds drawn alike
    zone = (slice(150, 175), slice(200, 300))  # the zone's label: "depart" instead of "start"
    assert not np.array_equal(fr[zone], en[zone])
    assert np.array_equal(fr[zone], annotate_frame(frame, res, words={**fr_words, "start": "depart"})[zone])
    assert ascii_text("arrivée à l'œil") == "arrivee a l'il" and ascii_text("start") == "start"
