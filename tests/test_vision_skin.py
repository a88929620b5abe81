"""The hand's colour (vision.skin) and what the referee does with it: fingertips MediaPipe's
landmarks fall short of are still left out of the empty-route reference, and a hand MediaPipe
missed on the first frame is taken out of the reference once it is seen. On the rendered climb
sample_videos/clean_top (exact landmarks in its ground truth) with the real MediaPipe tracker."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.hand_mask import hand_mask, skin_near_hand
from vision.pipeline import GrimpeReferee
from vision.skin import MIN_SUM, SkinModel
from vision.video import VideoReader

CLIP = Path(__file__).resolve().parents[1] / "sample_videos" / "clean_top"
TIPS = [4, 8, 12, 16, 20]


def _hand_image(skin_bgr: tuple[int, int, int], table_bgr: tuple[int, int, int]
                ) -> tuple[np.ndarray, np.ndarray]:
    """A 200x200 table with a hand-coloured disc where a palm's landmarks say the palm is."""
    img = np.full((200, 200, 3), table_bgr, np.uint8)
    lm = np.zeros((21, 2), np.float32)
    lm[0] = (100, 150)
    lm[[5, 9, 13, 17]] = [(70, 90), (90, 85), (110, 85), (130, 90)]
    cv2.circle(img, (100, 110), 45, skin_bgr, -1)
    rng = np.random.default_rng(3)
    img = np.clip(img + rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8)
    return img, lm


def test_skin_model_tells_the_hand_from_the_table_whatever_the_light() -> None:
    img, lm = _hand_image((120, 150, 210), (200, 205, 205))
    model = SkinModel.from_palm(img, lm)
    assert model is not None and model.samples > 100
    skin = np.array([[120, 150, 210], [60, 75, 105], [160, 200, 255]], np.float32)  # lit, shaded
    table = np.array([[200, 205, 205], [100, 102, 102]], np.float32)
    assert (model.distance2(skin) < 9).all(), model.distance2(skin)
    assert (model.distance2(table) > 25).all(), model.distance2(table)
    # too dark to have a colour: never called "not the hand"
    assert model.distance2(np.array([[10, 30, 5]], np.float32))[0] == 0.0
    assert model.distance2(np.array([[10, 30, 5]], np.float32), dark=np.inf)[0] == np.inf
    assert 10 + 30 + 5 < MIN_SUM


def test_skin_model_needs_the_palm_in_the_image() -> None:
    img, lm = _hand_image((120, 150, 210), (200, 205, 205))
    assert SkinModel.from_palm(img, lm + 400) is None  # the palm outside the image
    dark = (img * 0.1).astype(np.uint8)  # no pixel bright enough to have a colour
    assert SkinModel.from_palm(dark, lm) is None


@pytest.fixture(scope="module")
def clip() -> tuple[np.ndarray, dict]:
    gt = json.loads((CLIP / "ground_truth.json").read_text())
    with VideoReader(CLIP / "video.mp4") as vr:
        _, _, frame = vr.read()  # type: ignore[misc]
    return frame, gt


@pytest.mark.parametrize("scale", [1, 2])  # 640x480, and 1280x960 (worked at half size)
def test_fingertips_beyond_short_landmarks_are_found_by_colour(clip: tuple[np.ndarray, dict],
                                                               scale: int) -> None:
    frame, gt = clip
    lm = np.asarray(gt["frames"][0]["hands"][0]["landmarks_px"], np.float32)
    if scale != 1:
        frame = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
        lm = (lm + 0.5) * scale - 0.5
    # the fingers as a first detection may give them: each finger's joints pulled 35 %
    # of the way back towards its knuckle (the tips 15-25 px short here)
    short = lm.copy()
    for root in (1, 5, 9, 13, 17):
        for j in range(root + 1, root + 4):
            short[j] = lm[root] + 0.65 * (lm[j] - lm[root])
    tips = np.round(lm[TIPS]).astype(int)
    assert (np.linalg.norm(lm[TIPS] - short[TIPS], axis=1) > 12 * scale).all()
    plain = hand_mask(frame.shape[:2], short)
    with_colour = plain | skin_near_hand(frame, frame, short)
    assert np.array_equal(skin_near_hand(frame, None, short), skin_near_hand(frame, frame, short))
    assert not plain[tips[:, 1], tips[:, 0]].all()  # the landmarks' mask misses some tips
    assert with_colour[tips[:, 1], tips[:, 0]].all()  # the hand's colour finds them
    # and takes little of the table: most of the mask's growth is still the hand's own
    assert (with_colour & ~plain).sum() < 0.5 * plain.sum()


class _MissesFirstFrames:
    """The real MediaPipe tracker, but the hands of the first ``n`` calls are not reported (as
    when MediaPipe's palm detector misses a hand on the first frames)."""

    def __init__(self, n: int) -> None:
        from vision.hands import HandTracker

        self.inner = HandTracker(max_num_hands=2)
        self.n = n

    def update(self, frame_bgr: np.ndarray, t_s: float, **kw: object) -> object:
        out = self.inner.update(frame_bgr, t_s, **kw)
        if self.n > 0:
            self.n -= 1
            out = dataclasses.replace(out, hands=[])
        return out

    def close(self) -> None:
        self.inner.close()


def test_a_hand_missed_on_the_first_frame_is_taken_out_of_the_reference(
        clip: tuple[np.ndarray, dict]) -> None:
    _, gt = clip
    route = json.loads((CLIP / "route.json").read_text())
    ref = GrimpeReferee(route, fps=gt["fps"], tracker=_MissesFirstFrames(1))
    try:
        with VideoReader(CLIP / "video.mp4") as vr:
            started = None
            for i in range(12):
                item = vr.read()
                assert item is not None
                ref.update(item[2], item[1], item[0])
                if started is None and ref.card_motion is not None:
                    started = i
        rd = ref.route_detector
        assert rd.reference_valid is not None
        # the route was found on frame 0 (no hand reported); the stages comparing frames with
        # the reference started only once the hand was seen, frame 2 (one in two processed)
        assert started == 2 and not rd.unchecked
        lm0 = np.asarray(gt["frames"][0]["hands"][0]["landmarks_px"], np.float32)
        # points on the hand in that frame: along every bone of every finger, and the palm
        bones = [(r + j, r + j + 1) for r in (1, 5, 9, 13, 17) for j in range(3)]
        bones += [(0, 1), (0, 5), (0, 17), (5, 9), (9, 13), (13, 17)]
        pts = np.array([lm0[a] + f * (lm0[b] - lm0[a]) for a, b in bones
                        for f in np.linspace(0, 1, 6)])
        pts = np.round(pts).astype(int)
        on_hand = rd.reference_valid[pts[:, 1], pts[:, 0]]
        # nearly all of them no longer count as table
        assert on_hand.mean() < 0.1, on_hand.mean()
        # and the table away from the hand still does
        far = ~hand_mask(rd.reference_valid.shape, lm0, 2.0)
        assert rd.reference_valid[far].mean() > 0.98
    finally:
        ref.close()
