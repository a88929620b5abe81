"""The review timeline's markers speak the players' language: events, moves and the fault's
detail in French (fault codes and hold ids stay as they are), English as the judge wrote them."""

from __future__ import annotations

import pytest

from ui.app import i18n
from ui.app.review_data import Recording


@pytest.fixture
def recording() -> Recording:
    events = [{"t": 0.5, "type": "down", "finger": "ring", "target": "start", "frame": 15},
              {"t": 1.2, "type": "down", "finger": "middle", "target": "3a", "frame": 36},
              {"t": 1.4, "type": "up", "finger": "ring", "frame": 42},
              {"t": 2.0, "type": "card_moved", "card": "2", "frame": 60}]
    verdict = {"result": "fault", "score": 0,
               "moves": [{"t_end": 1.4, "fingers": 2, "points": 1}],
               "fault": {"code": "wrong_finger", "t": 1.2,
                         "detail": "middle put into yellow hold 3a (yellow is for the ring finger)"}}
    return Recording(None, None, events, verdict, times_s=[i / 30 for i in range(90)])


def _labels(recording: Recording, lang: str) -> list[str]:
    before = i18n.language()
    i18n.set_language(lang)
    try:
        return [m.label for m in recording.markers()]
    finally:
        i18n.set_language(before)


def test_markers_in_french(recording: Recording) -> None:
    labels = _labels(recording, "fr")
    assert "pose annulaire → départ" in labels and "pose majeur → 3a" in labels
    assert "carte 2 bougée" in labels and "mouvement 1 : 2 doigts, 1 pts" in labels
    assert "wrong_finger: majeur posé dans la prise jaune 3a (le jaune est pour l'annulaire)" in labels, labels
    assert not any("ring" in lb or "middle" in lb or "fingers" in lb for lb in labels), labels


def test_markers_in_english(recording: Recording) -> None:
    labels = _labels(recording, "en")
    assert "down ring start" in labels and "card_moved 2" in labels
    assert "move 1: 2 fingers, 1 pts" in labels
    assert "wrong_finger: middle put into yellow hold 3a (yellow is for the ring finger)" in labels


@pytest.mark.parametrize(("lang", "fault_text", "points_text"), [
    ("fr", "ordre : pose majeur jugé avant lâche annulaire (trop proches pour les ordonner ; "
           "l'autre ordre donnerait no_contact)",
     "ordre : pose index jugé avant lâche pouce (trop proches pour les ordonner ; l'autre ordre "
     "compterait 2 pts de moins, le doute profite au grimpeur)"),
    ("en", "order: down middle judged before up ring (too close to tell; the other order would "
           "be no_contact)",
     "order: down index judged before up thumb (too close to tell; the other order would count "
     "2 pts fewer, the doubt goes to the climber)"),
])
def test_orders_chosen_by_the_judge_are_on_the_timeline(recording: Recording, lang: str,
                                                        fault_text: str, points_text: str) -> None:
    """The automatic judge fed two events closer than their timing uncertainty in another order
    than seen (vision.arbiter): the reviewer sees where and why, from the recording's verdict,
    whatever the final verdict after overrides."""
    recording.verdict = dict(recording.verdict, reordered=[
        {"moved": {"t": 1.3, "t_seen": 1.45, "type": "down", "finger": "middle", "target": "3a"},
         "before": {"t": 1.3, "type": "up", "finger": "ring"}, "fault_avoided": "no_contact"},
        {"moved": {"t": 2.5, "t_seen": 2.6, "type": "down", "finger": "index", "target": "4b"},
         "before": {"t": 2.5, "type": "up", "finger": "thumb"}, "fault_avoided": None,
         "points": [1, 3]}])
    before = i18n.language()
    i18n.set_language(lang)
    try:
        orders = [m for m in recording.markers({"result": "summit", "score": 4, "moves": []})
                  if m.kind == "order"]
    finally:
        i18n.set_language(before)
    assert [m.label for m in orders] == [fault_text, points_text]
    assert [m.frame for m in orders] == [recording.frame_at(1.3), recording.frame_at(2.5)]
    assert recording.next_marker_frame(recording.frame_at(2.0)) == recording.frame_at(2.5)


def test_review_shows_each_frame_the_contacts_decided_for_it() -> None:
    """Live, the contact detector decides a frame ~0.4 s later; each sidecar record names the
    frame its contacts describe (``contacts_of_frame``). The review draws a frame with the
    state decided for it, not the stale one recorded beside it; an old sidecar is unchanged."""
    from ui.app.recording import Sidecar

    lag = 12
    frames = []
    for i in range(40):
        of = i - lag
        # the ring is down on 3a from frame 10 to frame 25 (as decided)
        contacts = {"ring": "3a"} if 10 <= of <= 25 else {}
        frames.append({"frame": i, "source_frame": i, "hands": [], "contacts": contacts,
                       "detections": {"contacts_of_frame": of if of >= 0 else -1}})
    rec = Recording(None, Sidecar({"fps": 30.0}, frames, None), [], None,
                    times_s=[i / 30 for i in range(40)])
    assert rec.record_at(9)["contacts"] == {}
    assert rec.record_at(10)["contacts"] == {"ring": "3a"}
    assert rec.record_at(25)["contacts"] == {"ring": "3a"}
    assert rec.record_at(26)["contacts"] == {}
    assert rec.evidence_at(12)["contacts"] == {"ring": "3a"}
    # the last frames were decided after the recording stopped: the last state known holds
    assert rec.record_at(39)["contacts"] == {}
    assert rec.record_at(99) == {}
    old = Recording(None, Sidecar({"fps": 30.0}, [{"frame": 0, "contacts": {"index": "start"}}], None),
                    [], None, times_s=[0.0])
    assert old.record_at(0)["contacts"] == {"index": "start"}


@pytest.mark.parametrize(("lang", "expected", "absent"), [
    ("fr", ["main gauche (0.99)", "  pouce → départ", "  annulaire → 22b",
            "Certitude du contact : pouce 0.87 · index 0.00 · majeur 0.00 · annulaire 0.56 · auriculaire 0.00",
            "2.07 s · pose majeur → 22a", "    certitude 0.72", "2.07 s · lâche pouce",
            "3.10 s · carte bougée → 2"],
     ("thumb", "ring", "middle", "confidence", "left", "down", " up")),
    ("en", ["left hand (0.99)", "  thumb → start", "Contact confidence: thumb 0.87 · index 0.00 · "
            "middle 0.00 · ring 0.56 · little 0.00", "2.07 s · down middle → 22a",
            "    confidence 0.72", "2.07 s · up thumb", "3.10 s · card moved → 2"], ("pouce", "pose")),
])
def test_the_evidence_panel_speaks_the_window_language(lang: str, expected: list[str], absent: tuple) -> None:
    from ui.app.main_window import _evidence_lines

    ev = {"hands": [{"handedness": "left", "score": 0.99}],
          "contacts": {"thumb": "start", "ring": "22b"},
          "detections": {"contact_confidence": [0.87, 0.0, 0.0, 0.56, 0.0]},
          "events_here": [{"t": 2.0667, "type": "down", "finger": "middle", "target": "22a", "confidence": 0.717},
                          {"t": 2.0667, "type": "up", "finger": "thumb", "confidence": 0.979},
                          {"t": 3.1, "type": "card_moved", "card": "2"}]}
    before = i18n.language()
    i18n.set_language(lang)
    try:
        lines = _evidence_lines(ev)
    finally:
        i18n.set_language(before)
    for x in expected:
        assert x in lines, (x, lines)
    assert not any(a in line for line in lines for a in absent), lines


def test_the_drawn_evidence_speaks_the_window_language() -> None:
    """The review's frame overlay and the exported clip name fingers, zones and the fault in the
    window's language, without accents (OpenCV draws ASCII letters only)."""
    import numpy as np

    from ui.app.export import draw_evidence
    from vision.annotate import ascii_text

    assert ascii_text("levée départ à auriculaire") == "levee depart a auriculaire"
    record = {"contacts": {"thumb": "start", "ring": "22b"},
              "events": [{"t": 2.0, "type": "up", "finger": "thumb"}]}
    verdict = {"fault": {"code": "early_place", "t": 1.0}}
    frame = np.full((240, 320, 3), 60, np.uint8)
    drawn = {}
    before = i18n.language()
    try:
        for lang in ("fr", "en"):
            i18n.set_language(lang)
            drawn[lang] = draw_evidence(frame, record, verdict, 2.0)
    finally:
        i18n.set_language(before)
    for img in drawn.values():
        assert img.shape == frame.shape and (img != frame).any()
    # the same evidence, in other words: the text lines and the banner differ, the rest not
    rows = np.flatnonzero((drawn["fr"] != drawn["en"]).any(axis=(1, 2)))
    assert rows.size and (rows < 80).any() and (rows > 200).any()


def test_the_judged_videos_words_follow_the_language() -> None:
    """The words drawn on the judged video (live view, judge-video's annotated video) in French
    and English: every key the drawing uses, the same placeholders as the English, and the
    language asked for without changing the window's."""
    import re

    from vision.annotate import OVERLAY_WORDS

    before = i18n.language()
    fr, en = i18n.overlay_words("fr"), i18n.overlay_words("en")
    assert i18n.language() == before
    assert set(fr) == set(en) == set(OVERLAY_WORDS)
    assert en == OVERLAY_WORDS  # the drawing's own English
    for key in OVERLAY_WORDS:
        assert re.findall(r"{(\w+)", fr[key]) == re.findall(r"{(\w+)", en[key]), key
    assert fr["little"] == "auriculaire" and fr["start"] == "départ" and fr["summit"].startswith("SOMMET")
    with pytest.raises(ValueError):
        i18n.overlay_words("de")


@pytest.mark.parametrize(("lang", "text", "up"), [
    ("fr", "à vérifier : pose majeur → 3a (certitude 0.35)", "à vérifier : lâche annulaire (certitude 0.40)"),
    ("en", "to check: down middle 3a (confidence 0.35)", "to check: up ring (confidence 0.40)")])
def test_events_seen_with_little_confidence_are_marked_to_check(lang: str, text: str, up: str) -> None:
    """A placement the verdict rests on that the referee saw with little confidence gets its
    own marker (the timeline's purple), up to the fault; none after it, none when sure."""
    events = [{"t": 0.5, "type": "down", "finger": "ring", "target": "start", "confidence": 0.9},
              {"t": 1.2, "type": "down", "finger": "middle", "target": "3a", "confidence": 0.35},
              {"t": 1.2, "type": "up", "finger": "ring", "confidence": 0.4},
              {"t": 2.0, "type": "down", "finger": "index", "target": "4a", "confidence": 0.2}]
    verdict = {"result": "fault", "score": 0, "moves": [],
               "fault": {"code": "wrong_finger", "t": 1.2, "detail": ""}}
    rec = Recording(None, None, events, verdict, times_s=[i / 30 for i in range(90)])
    before = i18n.language()
    i18n.set_language(lang)
    try:
        checks = [m for m in rec.markers() if m.kind == "check"]
    finally:
        i18n.set_language(before)
    assert sorted((m.label, m.frame) for m in checks) == sorted([(text, 36), (up, 36)])
    # an up is not an event marker of its own (only a mark to check)
    assert [m.t_s for m in rec.markers() if m.kind == "event"] == [0.5, 1.2, 2.0]
    from ui.app.widgets import Timeline

    assert "check" in Timeline.COLOURS
