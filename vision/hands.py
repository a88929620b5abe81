"""Hands seen by the camera, and the one place that talks to MediaPipe.

:class:`Hand` and :class:`Hands` are the validated observations the rest of Arbitre uses;
:class:`HandTracker` wraps the legacy ``mediapipe.solutions.hands`` API (mediapipe 0.10.21
bundles its models, so it runs offline) and converts its output at the edge with
:meth:`Hands.from_mediapipe`. Nothing else in the code base imports mediapipe.

Handedness: MediaPipe labels hands as if the image were a mirrored selfie. Our camera looks
down at the table and is *not* mirrored, so MediaPipe's "Left" is the person's right hand:
``from_mediapipe(..., mirrored=False)`` (the default) swaps the label; pass ``mirrored=True``
only for an image that is flipped left-right (a selfie preview).

MediaPipe's native side prints start-up notices on the process's stderr (TensorFlow Lite's
XNNPACK delegate, absl warnings about feedback tensors and NORM_RECT) that mean nothing to a
player and break the progress bar; :func:`filtered_native_stderr` hides those while the graph
is built and runs its first frames, and passes on anything else it printed.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from vision.landmarks import HAND_CONNECTIONS, NUM_LANDMARKS, PALM_LANDMARKS

__all__ = [
    "Hand",
    "HandTracker",
    "Handedness",
    "Hands",
    "annotate",
    "filtered_native_stderr",
    "swap_handedness",
]

#: Lines MediaPipe 0.10.21 prints on every start (seen on these machines); nothing to act on.
_NATIVE_NOTICES = re.compile(
    r"Created TensorFlow Lite XNNPACK delegate|All log messages before absl::InitializeLog|"
    r"inference_feedback_manager\.cc|landmark_projection_calculator\.cc|"
    r"Feedback manager requires a model with a single signature")


@contextmanager
def filtered_native_stderr() -> Iterator[None]:
    """Send file descriptor 2 to a temporary file for the block (native code writes there,
    whatever ``sys.stderr`` is), then write back to it what it got, less MediaPipe's start-up
    notices (:data:`_NATIVE_NOTICES`). Does nothing when the process has no fd 2."""
    fd = 2
    try:
        os.fstat(fd)
    except OSError:
        yield
        return
    sys.stderr.flush()
    saved = os.dup(fd)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), fd)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, fd)
            os.close(saved)
            tmp.seek(0)
            text = tmp.read().decode("utf-8", errors="replace")
            kept = "".join(line for line in text.splitlines(keepends=True)
                           if not _NATIVE_NOTICES.search(line))
            if kept:
                os.write(fd, kept.encode("utf-8"))

Handedness = Literal["left", "right"]
_HANDEDNESS = ("left", "right")


def swap_handedness(label: str) -> Handedness:
    """Turn a MediaPipe label ("Left"/"Right", any case) into the other hand, lower case."""
    low = label.lower()
    if low not in _HANDEDNESS:
        raise ValueError(f"handedness label must be 'Left' or 'Right', got {label!r}")
    return "right" if low == "left" else "left"


@dataclass(frozen=True, eq=False)
class Hand:
    """One detected hand in one image.

    Attributes:
        landmarks_px: (21, 2) float32, landmark positions in image pixels (x right, y down),
            indexed by :class:`vision.landmarks.Landmark`.
        z: (21,) float32, MediaPipe's relative depth, in pixels (its normalised z times the
            image width); 0 at the wrist, negative towards the camera. Unreliable seen from
            above: use for ordering only.
        handedness: which hand of the PERSON this is, ``"left"`` or ``"right"``.
        score: confidence of the handedness classification, 0..1.
    """

    landmarks_px: np.ndarray
    z: np.ndarray
    handedness: Handedness
    score: float

    def __post_init__(self) -> None:
        lm = np.asarray(self.landmarks_px, dtype=np.float32)
        if lm.shape != (NUM_LANDMARKS, 2):
            raise ValueError(
                f"Hand.landmarks_px must have shape ({NUM_LANDMARKS}, 2), got {lm.shape}"
            )
        z = np.asarray(self.z, dtype=np.float32)
        if z.shape != (NUM_LANDMARKS,):
            raise ValueError(f"Hand.z must have shape ({NUM_LANDMARKS},), got {z.shape}")
        if not (np.all(np.isfinite(lm)) and np.all(np.isfinite(z))):
            raise ValueError("Hand.landmarks_px and Hand.z must be finite (got NaN or inf)")
        if self.handedness not in _HANDEDNESS:
            raise ValueError(f"Hand.handedness must be 'left' or 'right', got {self.handedness!r}")
        if not 0.0 <= float(self.score) <= 1.0:
            raise ValueError(f"Hand.score must be in [0, 1], got {self.score!r}")
        object.__setattr__(self, "landmarks_px", lm)
        object.__setattr__(self, "z", z)
        object.__setattr__(self, "score", float(self.score))

    @property
    def palm_size_px(self) -> float:
        """Size of the palm in pixels: the largest distance between two palm landmarks."""
        p = self.landmarks_px[list(PALM_LANDMARKS)]
        d = np.linalg.norm(p[:, None, :] - p[None, :, :], axis=-1)
        return float(d.max())


@dataclass(frozen=True, eq=False)
class Hands:
    """Every hand found in one frame.

    Attributes:
        frame_index: index of the frame in its video (0 for a single image).
        t_s: time of the frame in seconds, or None when unknown.
        image_size: (width, height) of the image in pixels.
        hands: the hands found, in MediaPipe's order (possibly empty).
    """

    frame_index: int
    t_s: float | None
    image_size: tuple[int, int]
    hands: list[Hand] = field(default_factory=list)

    def __post_init__(self) -> None:
        if int(self.frame_index) != self.frame_index or self.frame_index < 0:
            raise ValueError(f"Hands.frame_index must be an int >= 0, got {self.frame_index!r}")
        size = tuple(self.image_size)
        if len(size) != 2 or any(int(v) != v or v <= 0 for v in size):
            raise ValueError(
                f"Hands.image_size must be (width, height) positive ints, got {self.image_size!r}"
            )
        object.__setattr__(self, "image_size", (int(size[0]), int(size[1])))
        if self.t_s is not None and not np.isfinite(self.t_s):
            raise ValueError(f"Hands.t_s must be finite or None, got {self.t_s!r}")
        for i, h in enumerate(self.hands):
            if not isinstance(h, Hand):
                raise TypeError(f"Hands.hands[{i}] must be a Hand, got {type(h).__name__}")
        object.__setattr__(self, "hands", list(self.hands))

    def __len__(self) -> int:
        return len(self.hands)

    def mapped(self, to_image: Callable[[np.ndarray], np.ndarray], image_size: tuple[int, int]) -> Hands:
        """The same hands with their landmarks moved by ``to_image`` ((21, 2) → (21, 2) pixels),
        e.g. from a rectified view back to the camera image of size ``image_size``."""
        return Hands(self.frame_index, self.t_s, image_size,
                     [Hand(np.asarray(to_image(h.landmarks_px), np.float32), h.z, h.handedness, h.score)
                      for h in self.hands])

    def by_handedness(self, handedness: Handedness) -> Hand | None:
        """The most confident hand labelled ``handedness``, or None."""
        found = [h for h in self.hands if h.handedness == handedness]
        return max(found, key=lambda h: h.score) if found else None

    @classmethod
    def from_mediapipe(
        cls,
        results: Any,
        image_size: tuple[int, int],
        *,
        mirrored: bool = False,
        frame_index: int = 0,
        t_s: float | None = None,
    ) -> Hands:
        """Convert the output of ``mediapipe.solutions.hands.Hands.process``.

        Args:
            results: MediaPipe's result object (``multi_hand_landmarks``, ``multi_handedness``).
            image_size: (width, height) of the processed image in pixels.
            mirrored: True if the image was flipped left-right (selfie view). MediaPipe assumes
                a mirrored image, so for our un-mirrored table camera (False) its handedness
                label is swapped to give the person's hand.
        """
        w, h = int(image_size[0]), int(image_size[1])
        landmark_lists = getattr(results, "multi_hand_landmarks", None) or []
        handedness_lists = getattr(results, "multi_handedness", None) or []
        if len(handedness_lists) != len(landmark_lists):
            raise ValueError(
                f"MediaPipe results have {len(landmark_lists)} landmark sets but "
                f"{len(handedness_lists)} handedness entries"
            )
        hands: list[Hand] = []
        for lms, cls_list in zip(landmark_lists, handedness_lists):
            arr = np.array([(p.x, p.y, p.z) for p in lms.landmark], dtype=np.float64)
            best = cls_list.classification[0]
            label = best.label.lower()
            handedness = label if mirrored else swap_handedness(label)
            hands.append(
                Hand(
                    landmarks_px=(arr[:, :2] * (w, h)).astype(np.float32),
                    z=(arr[:, 2] * w).astype(np.float32),
                    handedness=handedness,  # type: ignore[arg-type]
                    score=float(np.clip(best.score, 0.0, 1.0)),
                )
            )
        return cls(frame_index=frame_index, t_s=t_s, image_size=(w, h), hands=hands)


class HandTracker:
    """MediaPipe's hand landmarker (legacy ``solutions.hands``) in video mode.

    ``update(frame_bgr)`` runs it on the next frame of a stream and returns :class:`Hands`.
    Video mode tracks landmarks from frame to frame, so feed frames in order; use
    ``static_image_mode=True`` for unrelated images. Close it (or use ``with``) to free the
    graph. About 26–28 frames/s at 640×360 on 2 cores with ``model_complexity=1``.

    ``grey_retry``: when MediaPipe finds no hand in a frame, it looks again at the frame in
    grey. Its palm detector can miss a pale hand on a strongly coloured pattern (a red-checked
    cloth: none of the 49 processed frames of a rendered top-down climb in colour, all 49 with
    the retry). In video mode, once a hand is found in grey the tracker follows it in colour
    from the next frame on (it needs no palm detection while it tracks), so the retry costs a
    second pass only on frames with no hand: on an empty table 36 ms a frame instead of 18
    (640x480, 2 cores; a frame with a hand tracked costs about 33 either way).
    :attr:`grey_retries` and :attr:`grey_found` count the retries and the frames whose hands
    came from one. On the 441 rendered climbs of seeds 18900-19398 (2026-12-06), recorded
    again with it: 7 climbs tracked differently, 2 verdicts won (19370, whose hand had been
    lost in 44 of 49 frames, and 18921), none lost; events F1 0.8814 -> 0.8820 on 342 of
    them and 0.8820 -> 0.8859 on the other 99.
    """

    def __init__(
        self,
        *,
        max_num_hands: int = 2,
        model_complexity: int = 1,
        min_detection_confidence: float = 0.5,
        min_tracking_confidence: float = 0.5,
        static_image_mode: bool = False,
        mirrored: bool = False,
        grey_retry: bool = True,
    ) -> None:
        import mediapipe as mp  # the only mediapipe import in Arbitre

        if model_complexity not in (0, 1):
            raise ValueError(f"model_complexity must be 0 or 1, got {model_complexity!r}")
        for name, v in (
            ("min_detection_confidence", min_detection_confidence),
            ("min_tracking_confidence", min_tracking_confidence),
        ):
            if not 0.0 <= v <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {v!r}")
        self.mirrored = mirrored
        self.grey_retry = grey_retry
        self.grey_retries = 0
        self.grey_found = 0
        with filtered_native_stderr():
            self._hands = mp.solutions.hands.Hands(
                static_image_mode=static_image_mode,
                max_num_hands=max_num_hands,
                model_complexity=model_complexity,
                min_detection_confidence=min_detection_confidence,
                min_tracking_confidence=min_tracking_confidence,
            )
            # one empty frame: the graph's threads load the models (and print their notices)
            # now, inside the filter, not while the caller's progress bar runs
            self._hands.process(np.zeros((64, 64, 3), np.uint8))
        self._frame_index = 0
        self._quiet_frames = 2  # filter native notices until a frame after the first hand
        self._closed = False

    @staticmethod
    def prepare(frame_bgr: np.ndarray, view: Any = None) -> np.ndarray:
        """The RGB image MediaPipe looks at for this frame (the table view when ``view`` is
        given): the first step of :meth:`update`, which a caller may do ahead (e.g. while
        MediaPipe works on the frame before) and pass as ``prepared``."""
        import cv2

        frame = np.asarray(frame_bgr)
        if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
            raise ValueError(
                f"frame_bgr must be uint8 of shape (H, W, 3), got {frame.dtype} {frame.shape}"
            )
        seen = frame if view is None else view.warp(frame)
        rgb = cv2.cvtColor(seen, cv2.COLOR_BGR2RGB)
        rgb.flags.writeable = False
        return rgb

    def update(self, frame_bgr: np.ndarray, t_s: float | None = None, *, view: Any = None,
               prepared: np.ndarray | None = None) -> Hands:
        """Find the hands in one BGR uint8 (H, W, 3) frame; frames are numbered from 0.

        ``view``: a :class:`vision.table_view.TableView`: MediaPipe looks at the table seen from
        above (the frame rectified) and the landmarks are mapped back to the frame's pixels.
        ``prepared``: :meth:`prepare`'s image of this frame with this view, made ahead."""
        if self._closed:
            raise RuntimeError("HandTracker.update called after close()")
        frame = np.asarray(frame_bgr)
        rgb = self.prepare(frame, view) if prepared is None else prepared
        # MediaPipe loads its landmark model on the first hand seen: filter until a frame after
        quiet = self._quiet_frames > 0
        with filtered_native_stderr() if quiet else nullcontext():
            results = self._hands.process(rgb)
            if self.grey_retry and not results.multi_hand_landmarks:
                results = self._process_grey(rgb)
        if quiet and (results.multi_hand_landmarks or self._quiet_frames < 2):
            self._quiet_frames -= 1
        h, w = rgb.shape[:2]
        out = Hands.from_mediapipe(
            results, (w, h), mirrored=self.mirrored, frame_index=self._frame_index, t_s=t_s
        )
        if view is not None:
            out = out.mapped(view.to_image, (frame.shape[1], frame.shape[0]))
        self._frame_index += 1
        return out

    def _process_grey(self, rgb: np.ndarray) -> Any:
        """MediaPipe's results on ``rgb`` in grey (see ``grey_retry``)."""
        import cv2

        grey = cv2.cvtColor(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), cv2.COLOR_GRAY2RGB)
        grey.flags.writeable = False
        results = self._hands.process(grey)
        self.grey_retries += 1
        self.grey_found += bool(results.multi_hand_landmarks)
        return results

    def close(self) -> None:
        """Release MediaPipe's graph; safe to call twice."""
        if not self._closed:
            self._hands.close()
            self._closed = True

    def __enter__(self) -> HandTracker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def annotate(frame_bgr: np.ndarray, hands: Hands, *, color_bgr: tuple[int, int, int] | None = None
             ) -> np.ndarray:
    """A copy of ``frame_bgr`` with each hand's skeleton and handedness drawn on it."""
    import cv2

    out = np.array(frame_bgr, copy=True)
    for hand in hands.hands:
        col = color_bgr or ((0, 200, 255) if hand.handedness == "right" else (255, 160, 0))
        pts = np.round(hand.landmarks_px).astype(int)
        for a, b in HAND_CONNECTIONS:
            cv2.line(out, tuple(pts[a]), tuple(pts[b]), col, 1, cv2.LINE_AA)
        for p in pts:
            cv2.circle(out, tuple(p), 2, (0, 0, 255), -1, cv2.LINE_AA)
        x, y = pts[0]
        cv2.putText(out, f"{hand.handedness} {hand.score:.2f}", (int(x) + 4, int(y) + 14),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.4, col, 1, cv2.LINE_AA)
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m vision.hands VIDEO [--model-complexity 0|1]``: frames/s and detection rate."""
    import argparse
    import time

    import cv2

    ap = argparse.ArgumentParser(prog="python -m vision.hands",
                                 description="Run HandTracker over a video; print frames/s and "
                                             "how many frames had a hand.")
    ap.add_argument("video", help="video file")
    ap.add_argument("--model-complexity", type=int, default=1, choices=(0, 1))
    args = ap.parse_args(argv)
    cap = cv2.VideoCapture(args.video)
    if not cap.isOpened():
        print(f"cannot open video {args.video!r}", file=sys.stderr)
        return 2
    fps = cap.get(cv2.CAP_PROP_FPS) or 25.0
    n = found = 0
    t_track = 0.0
    t0, c0 = time.perf_counter(), time.process_time()
    with HandTracker(model_complexity=args.model_complexity) as tracker:
        while True:
            ok, frame = cap.read()
            if not ok:
                break
            t1 = time.perf_counter()
            found += len(tracker.update(frame, t_s=n / fps)) > 0
            t_track += time.perf_counter() - t1
            n += 1
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    if n == 0:
        print(f"no frames read from {args.video!r}", file=sys.stderr)
        return 2
    print(f"{args.video}: {n} frames, hand in {found} ({found / n:.1%}); "
          f"{n / wall:.1f} frames/s including decoding, {n / t_track:.1f} frames/s tracking "
          f"only, {cpu / n * 1000:.1f} ms CPU/frame (all threads); "
          f"model_complexity={args.model_complexity}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
