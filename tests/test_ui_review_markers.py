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
