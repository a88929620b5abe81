"""The 21 hand landmarks (MediaPipe's numbering) and our finger names.

Pure data, no MediaPipe import: the rest of the code base names landmarks through this module.
Finger names follow the Grimpe! rulebook: ``thumb, index, middle, ring, little``.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

__all__ = [
    "Landmark",
    "NUM_LANDMARKS",
    "LANDMARK_NAMES",
    "FINGERS",
    "FingerJoints",
    "FINGER_JOINTS",
    "FINGERTIPS",
    "PALM_LANDMARKS",
    "HAND_CONNECTIONS",
]


class Landmark(IntEnum):
    """Index of each hand landmark in a (21, ...) array, as MediaPipe numbers them."""

    WRIST = 0
    THUMB_CMC = 1
    THUMB_MCP = 2
    THUMB_IP = 3
    THUMB_TIP = 4
    INDEX_MCP = 5
    INDEX_PIP = 6
    INDEX_DIP = 7
    INDEX_TIP = 8
    MIDDLE_MCP = 9
    MIDDLE_PIP = 10
    MIDDLE_DIP = 11
    MIDDLE_TIP = 12
    RING_MCP = 13
    RING_PIP = 14
    RING_DIP = 15
    RING_TIP = 16
    PINKY_MCP = 17
    PINKY_PIP = 18
    PINKY_DIP = 19
    PINKY_TIP = 20


NUM_LANDMARKS = 21
LANDMARK_NAMES: tuple[str, ...] = tuple(lm.name for lm in Landmark)

#: Our finger names, thumb to little finger (the rulebook's names and order).
FINGERS: tuple[str, ...] = ("thumb", "index", "middle", "ring", "little")


class FingerJoints(NamedTuple):
    """Landmark indices of one finger, from the hand outwards.

    For the thumb MediaPipe's CMC/MCP/IP/TIP play the roles of MCP/PIP/DIP/TIP: ``mcp`` is the
    thumb's CMC (its root on the palm), ``pip`` its MCP, ``dip`` its IP joint.
    """

    mcp: int
    pip: int
    dip: int
    tip: int


FINGER_JOINTS: dict[str, FingerJoints] = {
    "thumb": FingerJoints(1, 2, 3, 4),
    "index": FingerJoints(5, 6, 7, 8),
    "middle": FingerJoints(9, 10, 11, 12),
    "ring": FingerJoints(13, 14, 15, 16),
    "little": FingerJoints(17, 18, 19, 20),
}

#: Fingertip landmark index per finger name.
FINGERTIPS: dict[str, int] = {name: j.tip for name, j in FINGER_JOINTS.items()}

#: Landmarks that span the palm (wrist and the finger roots): used to measure the palm's size.
PALM_LANDMARKS: tuple[int, ...] = (0, 1, 5, 9, 13, 17)

#: Bones of the hand skeleton as (from, to) index pairs, for drawing.
HAND_CONNECTIONS: tuple[tuple[int, int], ...] = (
    (0, 1), (1, 2), (2, 3), (3, 4),
    (0, 5), (5, 6), (6, 7), (7, 8),
    (5, 9), (9, 10), (10, 11), (11, 12),
    (9, 13), (13, 14), (14, 15), (15, 16),
    (13, 17), (0, 17), (17, 18), (18, 19), (19, 20),
)  # fmt: skip
