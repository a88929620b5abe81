"""The names of the climb scripts (:mod:`vision.synth.climb_script` says what each does), in a
module of their own so that the command line can list them without importing numpy."""

from __future__ import annotations

SCRIPTS: tuple[str, ...] = (
    "clean", "wrong_finger", "used_hold", "no_contact", "card_moved", "other_hand", "empty",
    "bad_start")
