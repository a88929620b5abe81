"""The Grimpe referee on video: frames in, judge events and the verdict out.

:class:`GrimpeReferee` chains the stages (each a small object with ``update``):

1. :class:`vision.route_detect.RouteDetector` finds the route on the first frames (the hand
   masked out, with the pixels of its colour near it: :func:`vision.hand_mask.skin_near_hand`),
   matched to the route file's hold ids when one is given; the frames it was found on are the
   empty-route reference the later stages compare with (checked for a hand MediaPipe missed
   there once a hand is seen: :meth:`GrimpeReferee._maybe_start_route`). With the cards hidden
   at first it keeps looking; holds the hand hid are looked for again as it uncovers them
   (:meth:`vision.route_detect.RouteDetector.refine`). A video file whose route was found late,
   or whose hidden holds were then seen far from where the route file had put them, is judged
   again from its start with that route and the hands already found
   (:func:`judge_video_file`);
2. :class:`vision.hands.HandTracker` (MediaPipe) finds the hands; the climbing hand is chosen
   (the one reaching the start zone, then followed by position) and its landmarks smoothed with
   a One-Euro filter (:mod:`vision.filters`); the other hand touching the route is watched
   (:class:`vision.other_hand.OtherHandWatcher`: by its landmarks, or by its skin when it comes
   in from the picture's edge and MediaPipe does not find it);
3. :class:`vision.contact.ContactDetector` turns fingers into ``down``/``up`` events (with
   :class:`vision.contact.OcclusionMeter` telling whether a hold is covered);
4. :class:`vision.card_motion.CardMotionDetector` reports ``card_moved``;
5. :class:`games.grimpe.climb.ClimbJudge` judges the events as they are confirmed.

Frames may be processed one in ``stride`` (MediaPipe costs ~30 ms a frame on 2 cores; at
30 frames/s every second frame keeps contact timing within 1/15 s and judging faster than real
time). Tracking every frame (MediaPipe and smoothing) and deciding contacts on every second one
did not judge better (2026-12-02, 96 climbs of seeds 15651-15698 and 15714-15761: events F1
0.933 against 0.935, verdicts 79 against 80) at twice the cost. Events are dated to the frame
that started them, so they are released to the judge in time order after a short delay
(:attr:`GrimpeReferee.delay_s`), through :class:`vision.arbiter.EventArbiter` (two events
closer than their timing uncertainty are fed in the order that makes no fault).
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from games.grimpe.climb import doubtful_events
from vision.arbiter import EventArbiter
from vision.camera import apply_homography, camera_centre_from_homography, camera_placement
from vision.card_motion import CardMotionDetector
from vision.contact import (
    ContactDetector,
    ContactParams,
    OcclusionMeter,
    hands_apart,
    palm_size_px,
)
from vision.filters import OneEuroFilter
from vision.hand_mask import hand_mask, skin_near_hand
from vision.observations import ContactObservation, FrameResult, RouteObservation
from vision.other_hand import OtherHandWatcher
from vision.route_detect import RouteDetector, RouteNotFound, hold_shift
from vision.table_view import TableView, needs_view

__all__ = ["GrimpeReferee", "RouteNotFound", "feed_video", "judge_video_file", "load_route_json", "run_video"]


def load_route_json(route: Any) -> dict[str, Any] | None:
    """A ROUTE.json object from a path, a JSON dict, or a :class:`games.grimpe.route.Route`."""
    if route is None:
        return None
    if isinstance(route, dict):
        return route
    if hasattr(route, "to_json"):
        return route.to_json()
    p = Path(route)
    return json.loads(p.read_text(encoding="utf-8"))


def _dedup(hands: Any) -> Any:
    """MediaPipe sometimes reports one hand twice (two palm detections of the same hand):
    keep the more confident of two hands whose landmarks lie within half a palm of each other
    (the larger of the two palms: the second detection of an obliquely seen hand is often a
    shrunken copy, at times of the other handedness, 35-38 px from the first where its own
    palm is 46-52 px and the first's 80; seed 17062 of ``vision.bench_judge``, whose copy was
    judged ``other_hand``)."""
    if len(hands.hands) < 2:
        return hands
    keep: list[Any] = []
    for h in sorted(hands.hands, key=lambda h: -h.score):
        if all(hands_apart(h.landmarks_px, k.landmarks_px) > 0.5 for k in keep):
            keep.append(h)
    if len(keep) == len(hands.hands):
        return hands
    return type(hands)(hands.frame_index, hands.t_s, hands.image_size, keep)


class GrimpeReferee:
    """Judge one Grimpe! attempt from video frames.

    Args:
        route: ROUTE.json (path, dict or :class:`games.grimpe.route.Route`); None to name the
            holds from detection (``h1``…) and guess the zones from the Départ/Arrivée cards.
        calibration: a :class:`calibration.file.Calibration` (or a path to one); when it has a
            table plane, hold centres are also reported in table mm (:attr:`holds_mm`).
        fps: the video's frame rate (used to choose ``stride``).
        stride: process one frame in ``stride`` with MediaPipe (default: 1 below 20 frames/s,
            else about 15 processed frames per second).
        tracker: a :class:`vision.hands.HandTracker`-like object (default: a new one).
        colour_map: a :class:`games.grimpe.cards.ColourMap` for the judge (default rulebook).
        params: contact tuning (:class:`vision.contact.ContactParams`).
        earlier: the referee of an earlier pass over the same video that found the route
            late (:attr:`route_came_late`) or saw it better later (:attr:`route_improved`):
            this pass starts with that route and empty-route reference and judges from the
            first frame, with the hands MediaPipe found in that pass (and its tracker and
            table view): no frame is tracked twice (:func:`judge_video_file`).

    ``update(frame_bgr, t_s, frame_index)`` → :class:`vision.observations.FrameResult`;
    ``annotate(frame_bgr, result)`` → a drawn copy; ``finish()`` → the verdict dict
    (``arbitre grimpe judge --json`` format, plus ``events`` and ``route`` evidence).
    """

    #: how long events are held before the judge sees them, beyond the contact classifier's
    #: look-ahead (:attr:`vision.contact.ContactDetector.lookahead`) and the time a lift is
    #: held back (:attr:`vision.contact.ContactDetector.held_s`), which are added per clip
    delay_s = 0.6
    #: Process every frame until the route is found (off: one frame in ``stride`` from the
    #: start, 7-13 % fewer MediaPipe calls on 3-5 s clips, and the hands tracked ahead from the
    #: first frame, see :func:`run_video`). The contact model is trained on clips
    #: judged the same way (train_contact follows this flag). 4-fold cross-validation by clip
    #: on 210 rendered climbs, each model (16 hidden units) trained for its setting: on, events
    #: F1 0.893, verdicts 163/210; off, F1 0.896, verdicts 162/210 (the model kept, 32 units,
    #: off: 0.901, 167/210). Off, judge-video's speed ratio to a bare MediaPipe loop went
    #: 0.83 -> 0.89 (640x480) and 0.79 -> 0.93 (1280x720), same clips, quiet machine.
    dense_start = False
    #: with no hand seen on the frames the empty-route reference was made from, how long (s)
    #: to wait for one before trusting the reference as it is (see :meth:`_maybe_start_route`)
    START_WAIT_S = 2.0
    #: MediaPipe looks at an oblique camera's table view rather than at the frame as filmed
    #: (the contact stage works in the view either way). Off since 2026-12-03 (session 21):
    #: rectified to the table plane, a hand seen obliquely is stretched away from the camera
    #: (everything above the table is), a hand MediaPipe never saw in training. On the 73
    #: oblique ``synth-3`` climbs of seeds 16102-16128, 16300-16347, 16500-16544 and
    #: 16700-16771, MediaPipe on the camera's image put the tip of a finger pressing a hold a
    #: median 18 mm from the true one (p75 38 mm, within 8 mm on 22 % of finger-frames),
    #: against 22 mm in the view (p75 43, 16 %). With 16800-16895 too (109 climbs), the whole
    #: referee with the seventh contact model: contact events F1 0.553 against 0.511, verdicts
    #: 40 against 41. It also saves the warp before MediaPipe (~4 ms at 1280x720).
    TRACK_IN_VIEW = False
    #: with :attr:`TRACK_IN_VIEW`, processed frames after the one that found the route before
    #: MediaPipe looks at the table view (:meth:`tracking_view`); :func:`run_video` hands at
    #: most this many less one frames ahead
    VIEW_LAG = 3
    #: how far from the first hand seen (palm sizes) the reference is checked for its colour
    #: (the hand may have moved a little since the frame the reference was made from)
    CHECK_REACH = 1.5

    def __init__(self, route: Any = None, calibration: Any = None, fps: float = 30.0, *,
                 stride: int | None = None, tracker: Any = None, colour_map: Any = None,
                 params: ContactParams | None = None, earlier: GrimpeReferee | None = None) -> None:
        from games.grimpe.climb import ClimbJudge

        self.route_json = load_route_json(route)
        self.calibration = self._load_calibration(calibration)
        self.fps = float(fps) if fps and fps > 0 else 30.0
        self.stride = int(stride) if stride else (1 if self.fps < 20 else max(1, round(self.fps / 15)))
        if earlier is not None and earlier.route is None:
            raise ValueError("the earlier pass found no route")
        if tracker is None and earlier is not None:
            tracker = earlier.tracker
        if tracker is None:
            from vision.hands import HandTracker

            tracker = HandTracker(max_num_hands=2)
        self.tracker = tracker
        #: judged again with the route an earlier pass found (late, or seen better later)
        self.again = earlier is not None
        #: a second pass over the frames may follow (:func:`judge_video_file` turns it on): keep
        #: the hands :meth:`track` finds, by frame, for it, and look for the holds hidden at
        #: the start as the hand uncovers them (off live, where the attempt may be long and
        #: there is no second pass)
        self.may_judge_again = False
        self._tracked: dict[int, Any] = {}
        self._reuse: dict[int, Any] = {} if earlier is None else earlier._tracked
        if earlier is not None:
            self.route_detector = earlier.route_detector
            self.route_detector.done = True
            self.route_detector.adopt_refined()
        else:
            self.route_detector = RouteDetector(self.route_json)
        self.contacts = ContactDetector(params, colour_map=colour_map)
        self.colour_map = colour_map
        self._ClimbJudge = ClimbJudge
        self.judge: Any = None
        self.occlusion: OcclusionMeter | None = None
        self.card_motion: CardMotionDetector | None = None
        self.filter = OneEuroFilter(min_cutoff_hz=2.0, beta=0.02)
        self.climbing_hand: str | None = None
        self._climb_wrist: np.ndarray | None = None
        self._lm: np.ndarray | None = None
        self._hands: Any = None
        self._last: FrameResult | None = None
        self.arbiter: EventArbiter | None = None
        # the judge's state after each event fed, by the event's time, and up to when every
        # event has been fed (for drawing each frame with the verdict of its own time)
        self._snapshots: list[tuple[float, dict[str, Any], int, int]] = []
        self._judged_until = -np.inf
        self.events: list[dict[str, Any]] = []
        self.other_hand: OtherHandWatcher | None = None
        self._frames_seen = 0
        self._frames_processed = 0
        self._hand_frames = 0
        self._route_frames: list[tuple[int, float]] = []
        self._t_last = 0.0
        self._frame_last = 0
        self.holds_mm: np.ndarray | None = None
        self.view: TableView | None = None  # set when the route shows an oblique camera
        self._view_decided = False
        self._view_from: int | None = None  # the first frame tracked in the view
        # the camera's centre in the route's mm, for the route it was found for
        self._eye: tuple[RouteObservation, np.ndarray | None] | None = None
        # the route the camera was last placed from, and where (see camera)
        self._placement: tuple[RouteObservation, dict[str, Any] | None] | None = None
        if earlier is not None:  # the frames are tracked as they were (their hands reused)
            self.view, self._view_decided, self._view_from = earlier.view, earlier._view_decided, earlier._view_from
        self._route_done_t: float | None = None

    # --- helpers ----------------------------------------------------------------------------
    @staticmethod
    def _load_calibration(cal: Any) -> Any:
        if cal is None or hasattr(cal, "image_to_table_mm"):
            return cal
        from calibration.file import load_calibration

        return load_calibration(cal)

    @property
    def route(self) -> RouteObservation | None:
        return self.route_detector.observation

    @property
    def route_came_late(self) -> bool:
        """The route was found only after its first tries (the hand hid the cards until then):
        the frames before were not judged. Offline, judge the video again with it
        (:func:`judge_video_file`); live, the verdict's route problems say so."""
        return not self.again and self.route_detector.found_late

    #: a hold seen after the route was found this far (hold radii) from where the route file
    #: put it makes :func:`judge_video_file` judge the video again. On 176 recorded rendered
    #: climbs (seeds 16102-16128, 16300-16347, 16500-16544, 16700-16771), 0.5 judged 12 twice
    #: (shifts 0.5-4.0 radii) and changed one verdict beside 16742, whose route came late (16508,
    #: right now: the map had put a card hidden under the hand 31-49 mm off); 1.0 judges 4 twice
    #: with the same verdicts. A second pass tracks no frame again: it took 20-50 % of the time
    #: of the first on 16508 and 16535
    REFINE_SHIFT = 1.0

    @property
    def route_improved(self) -> bool:
        """Holds hidden by the hand when the route was found, placed from the route file, were
        seen later more than :attr:`REFINE_SHIFT` radii from there (the route's map was fitted
        on part of the route): offline, judge the video again with them
        (:func:`judge_video_file`)."""
        return not self.again and self.route_detector.refined_shift() > self.REFINE_SHIFT

    def wants_frame(self, frame_index: int) -> bool:
        """True if :meth:`update` will look at this frame (others may be skipped undecoded):
        one in :attr:`stride`, and with :attr:`dense_start` every frame while the route is
        being found (the first ~12 frames of a climb that starts with the hand over the route)."""
        return frame_index % self.stride == 0 or (self.dense_start and not self.route_detector.done)

    def _judge_route(self) -> Any:
        if self.route_json is not None:
            return self.route_json
        obs = self.route
        assert obs is not None
        return {"holds": [{"id": i, "colour": c} for i, c in zip(obs.holds.ids, obs.holds.colours)]}

    def _choose_hand(self, hands: Any, route: RouteObservation | None) -> Any:
        if not hands.hands:
            return None
        if self._climb_wrist is not None:
            best = min(hands.hands, key=lambda h: float(np.linalg.norm(h.landmarks_px[0] - self._climb_wrist)))
            if np.linalg.norm(best.landmarks_px[0] - self._climb_wrist) < 1.5 * palm_size_px(best.landmarks_px):
                return best
            if len(hands.hands) == 1 and self.climbing_hand == best.handedness:
                return best
            return None
        if len(hands.hands) == 1 or route is None or route.start_zone_px is None:
            return max(hands.hands, key=lambda h: h.score)
        zc = route.start_zone_px.mean(0)
        return min(hands.hands, key=lambda h: float(np.min(np.linalg.norm(
            h.landmarks_px[[4, 8, 12, 16, 20]] - zc, axis=1))))

    # --- the stage chain ------------------------------------------------------------------
    @property
    def steady(self) -> bool:
        """True when the hands of the next wanted frames may be found ahead while earlier ones
        are judged (:func:`run_video`): the frames looked at are one in :attr:`stride` whatever
        the judging finds (without :attr:`dense_start`: from the first frame; with it, once the
        route detection is over), and each frame's tracking view is known when it is handed
        over (:meth:`tracking_view`)."""
        return not self.dense_start or (self._view_decided and self.route_detector.done)

    def tracking_view(self, frame_index: int) -> TableView | None:
        """The view MediaPipe looks at frame ``frame_index`` in: None (the camera's image)
        unless :attr:`TRACK_IN_VIEW`; with it, the table view of an oblique
        camera from the :attr:`VIEW_LAG`-th processed frame after the one that found the
        route, the camera's image before. The lag lets :func:`run_video` hand frames to
        MediaPipe while the route is being found on the first one (~45 ms at 640x480), and
        each frame is tracked in the same view whether its hands are found ahead or not: a
        frame handed over is at most ``VIEW_LAG - 1`` wanted frames ahead of the last one
        judged, so the route found on a frame still to be judged sets a view for later ones."""
        if (not self.TRACK_IN_VIEW or self.view is None or self._view_from is None
                or frame_index < self._view_from):
            return None
        return self.view

    def prepare(self, frame_bgr: np.ndarray, frame_index: int) -> Any:
        """The image :meth:`track` hands to MediaPipe for this frame (its
        :meth:`tracking_view`, in RGB), made ahead so that :meth:`track` does not wait for it;
        None when the tracker cannot take one (a stand-in tracker)."""
        prepare = getattr(self.tracker, "prepare", None)
        if prepare is None or frame_index in self._reuse:
            return None
        return prepare(frame_bgr, self.tracking_view(frame_index))

    def track(self, frame_bgr: np.ndarray, t_s: float, frame_index: int, prepared: Any = None) -> Any:
        """MediaPipe's hands in one frame (in its :meth:`tracking_view`), duplicates removed:
        the first stage of :meth:`update`, callable ahead of it from another thread (calls
        must not overlap: the tracker follows the hands from frame to frame). ``prepared``:
        :meth:`prepare`'s image of this frame. The landmarks are in image px either way."""
        if frame_index in self._reuse:  # found by an earlier pass, in the same view
            hands = self._reuse[frame_index]
        else:
            view = self.tracking_view(frame_index)
            extra = {} if prepared is None else {"prepared": prepared}
            if view is None:
                hands = _dedup(self.tracker.update(frame_bgr, t_s, **extra))
            else:
                # TRACK_IN_VIEW: MediaPipe looks at the table from above (landmarks in px)
                hands = _dedup(self.tracker.update(frame_bgr, t_s, view=view, **extra))
        if self.may_judge_again:
            self._tracked[frame_index] = hands
        return hands

    def update(self, frame_bgr: np.ndarray, t_s: float, frame_index: int, hands: Any = None
               ) -> FrameResult:
        """Process one frame (or repeat the last state if this frame is skipped). ``hands``:
        this frame's :meth:`track` result when it was computed ahead (None: track it now)."""
        frame = np.asarray(frame_bgr)
        if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
            raise ValueError(f"frame_bgr must be uint8 (H, W, 3), got {frame.dtype} {frame.shape}")
        self._frames_seen += 1
        self._t_last, self._frame_last = float(t_s), int(frame_index)
        if not self.wants_frame(frame_index) and self._last is not None:
            return self._repeat(t_s, frame_index)
        self._frames_processed += 1
        if hands is None:
            hands = self.track(frame, t_s, frame_index)
        self._hands = hands
        route = self.route
        climber = self._choose_hand(hands, route)
        if climber is not None:
            self._hand_frames += 1
        cache: dict[str, Any] = {}

        def any_mask() -> np.ndarray | None:
            # the hands' exact mask, made only on the frames route detection tries (card
            # motion masks the hands from their landmarks in its own card frames), with the
            # pixels of the hand's colour near it (fingertips beyond the landmarks)
            if "exact" not in cache:
                masks = [hand_mask(frame.shape[:2], h.landmarks_px)
                         | skin_near_hand(frame, frame, h.landmarks_px) for h in hands.hands]
                cache["exact"] = np.logical_or.reduce(masks) if masks else None
            return cache["exact"]

        if not self.route_detector.done:
            self.route_detector.update(frame, frame_index, any_mask)
            route = self.route
        if route is not None and not self._view_decided:
            self._view_decided = True
            if route.H_image_from_route is not None and needs_view(route):
                self.view = TableView.for_route(route, (frame.shape[1], frame.shape[0]))
                self._view_from = frame_index + self.VIEW_LAG * self.stride
        if route is not None and self.judge is None:
            self.judge = self._ClimbJudge(self._judge_route(), self.colour_map)
            c = self.contacts
            ahead_s = c.horizon * self.stride / self.fps + c.held_s
            self.arbiter = EventArbiter(self.judge, delay_s=self.delay_s + ahead_s)
            self.arbiter.on_feed = lambda ev: self._snapshots.append((float(ev["t"]), *self._judge_state()))
        if route is not None and self.route_detector.done and self.occlusion is None:
            self._maybe_start_route(route, frame, hands, t_s)
        if self.may_judge_again and self.occlusion is not None and hands.hands:
            # holds placed from the route file looked for again as the hand uncovers them (not
            # on a frame where no hand is found: one may be there unseen); the hands' drawn
            # mask, ~1 ms against ~30 ms for the exact one
            self.route_detector.refine(frame, frame_index, lambda: np.logical_or.reduce(
                [hand_mask(frame.shape[:2], h.landmarks_px, fast=True) for h in hands.hands]))
        new: list[dict[str, Any]] = []
        lm = None
        if climber is not None:
            if self.climbing_hand is None:
                self.climbing_hand = climber.handedness
            self._climb_wrist = climber.landmarks_px[0].copy()
            lm = self.filter.update(climber.landmarks_px, t_s).astype(np.float32)
        else:
            self.filter.reset()
        self._lm = lm
        contacts = ContactObservation.none()
        if route is not None:
            occ = self.occlusion.measure(frame) if self.occlusion is not None else None
            if self._eye is None or self._eye[0] is not route:
                H = route.H_image_from_route
                self._eye = (route, None if H is None else
                             camera_centre_from_homography(H, (frame.shape[1], frame.shape[0])))
            contacts, ev = self.contacts.update(lm, t_s, frame_index, route, occ, view=self.view,
                                                eye=self._eye[1])
            new += ev
            new += self._other_hand(route).update(frame, t_s, frame_index, hands.hands, climber)
            if self.card_motion is not None:
                new += self.card_motion.update(frame, t_s, frame_index, [h.landmarks_px for h in hands.hands])
        released = self._queue(new, t_s)
        verdict, fingers, points = self._judge_state()
        res = FrameResult(frame_index, float(t_s), True, hands, self.climbing_hand, lm, route, contacts,
                          released, verdict, fingers, points)
        self._last = res
        return res

    def _repeat(self, t_s: float, frame_index: int) -> FrameResult:
        last = self._last
        assert last is not None
        released = self._queue([], t_s)
        return FrameResult(frame_index, float(t_s), False, None, last.climbing_hand, last.landmarks_px,
                           last.route, last.contacts, released, self._verdict_dict(),
                           last.move_fingers, last.points)

    def _maybe_start_route(self, route: RouteObservation, frame: np.ndarray, hands: Any,
                           t_s: float) -> None:
        """Start the stages that compare frames with the empty-route reference (occlusion, card
        motion) once the reference can be trusted. If no hand was found on a frame it was made
        from, MediaPipe may have missed one there (it did on 4 of 208 rendered first frames):
        wait for the first hand seen, and forget the reference's pixels near it
        (:attr:`CHECK_REACH`) that have its colour (the hand was already there), even on a
        table of that colour (what is forgotten there is only table, learnt again by card
        motion when seen); with no hand for :attr:`START_WAIT_S`, start anyway."""
        rd = self.route_detector
        if rd.unchecked and hands.hands:
            assert rd.reference_bgr is not None
            rd.forget(np.logical_or.reduce([
                skin_near_hand(rd.reference_bgr, frame, h.landmarks_px, reach=self.CHECK_REACH,
                               unlike_table=False, forearm=True)
                for h in hands.hands]))
        elif rd.unchecked:
            if self._route_done_t is None:
                self._route_done_t = float(t_s)
            if float(t_s) - self._route_done_t < self.START_WAIT_S:
                return
        self._start_route(route)

    def _start_route(self, route: RouteObservation) -> None:
        ref = self.route_detector.reference_bgr
        assert ref is not None
        self.occlusion = OcclusionMeter(ref, route)
        self.card_motion = CardMotionDetector(ref, route, reference_valid=self.route_detector.reference_valid)
        self._other_hand(route).set_reference(ref)
        if self.calibration is not None and getattr(self.calibration, "table", None) is not None:
            self.holds_mm = np.asarray(self.calibration.image_to_table_mm(route.holds.centres_px))

    def _other_hand(self, route: RouteObservation) -> OtherHandWatcher:
        """The other hand's watcher, made on first use: it watches MediaPipe's hands from the
        route on, and their skin once :meth:`_start_route` gives it the empty-route reference."""
        if self.other_hand is None:
            self.other_hand = OtherHandWatcher(route, contact_params=self.contacts.p)
        return self.other_hand

    def _queue(self, new: list[dict[str, Any]], t_s: float, flush: bool = False) -> list[dict[str, Any]]:
        """Hold events for :attr:`delay_s` (a down is dated back to its first frame), then feed
        them to the judge in time order; two events closer than the timing uncertainty are
        fed in the order that does not make a fault (:class:`vision.arbiter.EventArbiter`)."""
        if self.arbiter is None:
            return []
        out = self.arbiter.push(new, t_s, flush=flush)
        self.events.extend(out)
        self._judged_until = np.inf if flush else float(t_s) - self.arbiter.delay_s
        return out

    def _judge_state(self) -> tuple[dict[str, Any], int, int]:
        """(verdict, fingers down in the move, points so far) of the judge now."""
        status = self.judge.status() if self.judge is not None else {}
        return (self._verdict_dict(), len(status.get("down", {})) if status else 0,
                int(status.get("points_so_far", 0)) if status else 0)

    def verdict_at(self, t_s: float) -> tuple[dict[str, Any], int, int] | None:
        """The judge's (verdict, fingers down in the move, points so far) as of time ``t_s``
        (every event dated up to it fed, none after), or None while events dated before it may
        still come (they are held for :attr:`delay_s` and the contact decoder's look-ahead).
        Offline drawing uses it to show each frame the verdict of its own time, a fault from
        its own frame on (:class:`vision.annotate.ContactSync`)."""
        if t_s > self._judged_until:
            return None
        state: tuple[dict[str, Any], int, int] = (self._no_verdict(), 0, 0)  # before any event
        for t, verdict, fingers, points in self._snapshots:
            if t > t_s + 1e-9:
                break
            state = (verdict, fingers, points)
        return state

    @staticmethod
    def _no_verdict() -> dict[str, Any]:
        """The verdict before the judge has anything to judge."""
        return {"result": "incomplete", "score": 0, "moves": [], "fault": None, "warnings": [],
                "t_summit": None}

    def _verdict_dict(self) -> dict[str, Any]:
        if self.judge is None:
            return self._no_verdict()
        return self.judge.verdict().to_json()

    # --- outputs --------------------------------------------------------------------------
    def annotate(self, frame_bgr: np.ndarray, result: FrameResult, words: dict[str, str] | None = None
                 ) -> np.ndarray:
        """A copy of the frame with holds, zones, the hand, contacts, move counter and any
        fault drawn (see :mod:`vision.annotate`; ``words``: its words in the reader's
        language, English by default). ``result`` is not changed."""
        from vision.annotate import annotate_frame

        return annotate_frame(frame_bgr, result, self.colour_map, words)

    def finish(self) -> dict[str, Any]:
        """Flush the pending events and return the verdict with its evidence: the judge's JSON
        (``result``, ``score``, ``moves``, ``fault``, ``warnings``) plus ``events`` (with frame
        and confidence), ``reordered`` (pairs of events fed in another order than seen, each
        with why: :class:`vision.arbiter.EventArbiter`), ``to_check`` (the events it rests on seen
        with a confidence below :data:`games.grimpe.climb.DOUBT_LEVEL`), ``view`` (when an
        oblique camera was judged in the table view), ``fault_frame``, ``route`` (holds seen,
        flagged, problems; whether it was found late, the holds seen later, whether the video
        was judged again), ``camera`` (where the camera is seen from the route, with a route
        file: :func:`vision.camera.camera_placement`; ``low`` when it should go higher) and
        ``frames`` (seen, processed, with a hand)."""
        # the last frames' contacts were waiting for frames ahead that will not come
        self._queue(self.contacts.finish(), self._t_last, flush=True)
        v = self._verdict_dict()
        route = self.route
        if v.get("fault") and isinstance(v["fault"].get("event"), dict):
            ev = v["fault"]["event"]
            v["fault"]["frame"] = ev.get("frame")
        v["events"] = list(self.events)
        # two events closer than their timing uncertainty fed in the order that makes no fault
        v["reordered"] = [] if self.arbiter is None else list(self.arbiter.reordered)
        # the events the verdict rests on that were seen with little confidence: for a person
        # to check in the replay
        v["to_check"] = doubtful_events(v["events"], v)
        if self.view is not None:
            v["view"] = {"px_per_mm": round(self.view.px_per_mm, 3), "size": list(self.view.size_wh)}
        v["frames"] = {"seen": self._frames_seen, "processed": self._frames_processed,
                       "with_hand": self._hand_frames, "stride": self.stride}
        if route is not None:
            v["route"] = {
                "holds": [
                    {"id": i, "colour": c, "x_px": round(float(p[0]), 2), "y_px": round(float(p[1]), 2),
                     "radius_px": round(float(r), 2), "confidence": round(float(cf), 3), "seen": bool(s)}
                    for i, c, p, r, cf, s in zip(route.holds.ids, route.holds.colours, route.holds.centres_px,
                                                 route.holds.radii_px, route.holds.confidence,
                                                 route.holds.detected)],
                "low_confidence": list(route.holds.low_confidence),
                "problems": list(route.problems) + self._late_note(),
                "frame": route.frame_index,
                # found only after its first tries (the cards hidden), the holds seen later
                # that a second pass took, and whether this is that second pass
                "found_late": self.route_detector.found_late,
                "seen_later": self._seen_later()[0],
                "judged_again": self.again,
            }
            if self.holds_mm is not None:
                for h, mm in zip(v["route"]["holds"], self.holds_mm):
                    h["x_mm"], h["y_mm"] = round(float(mm[0]), 2), round(float(mm[1]), 2)
            camera = self.camera
            if camera is not None:
                v["camera"] = camera
        return v

    @property
    def camera(self) -> dict[str, Any] | None:
        """Where the camera is seen from the route being judged
        (:func:`vision.camera.camera_placement`, from the middle of its holds); None before the
        route is found, without the route's mm frame (no route file) and while the route's map
        to the image is affine (fitted to fewer than 5 holds: no perspective tells where the
        camera is)."""
        route = self.route
        if (route is None or self._eye is None or self._eye[0] is not route or self._eye[1] is None
                or route.H_image_from_route is None or not len(route.holds)):
            return None
        H = route.H_image_from_route
        if np.abs(H[2, :2]).max() < 1e-9 * abs(H[2, 2]):
            return None
        if self._placement is None or self._placement[0] is not route:
            centre = np.nanmean(apply_homography(route.H_route_from_image, route.holds.centres_px), axis=0)
            self._placement = (route, camera_placement(self._eye[1], centre)
                               if np.isfinite(centre).all() else None)
        return self._placement[1]

    def _seen_later(self) -> tuple[list[str], float]:
        """The holds this pass took from an earlier one's refined route that the route found
        had not seen, and how far (hold radii) that moved a hold at most; ([], 0) if none."""
        rd = self.route_detector
        old, new = rd.adopted_from, rd.observation
        if not self.again or old is None or new is None:
            return [], 0.0
        ids = [i for i, a, b in zip(new.holds.ids, old.holds.detected, new.holds.detected) if b and not a]
        return ids, float(hold_shift(new, old).max())

    def _late_note(self) -> list[str]:
        rd = self.route_detector
        notes = []
        ids, shift = self._seen_later()
        if ids:
            notes.append(f"holds {', '.join(ids)} were seen after the start, up to {shift:.1f} "
                         "hold radii from where the route file put them: the video was judged again from "
                         "its start with them")
        if rd.found_late and rd.found_frame is not None:
            when = (f"the route was found only at {rd.found_frame / self.fps:.1f} s (frame {rd.found_frame}), "
                    "the cards hidden before")
            notes.append(f"{when}: the video was judged again from its start with it" if self.again
                         else f"{when}: what happened before was not judged")
        return notes

    def close(self) -> None:
        close = getattr(self.tracker, "close", None)
        if close is not None:
            close()


def feed_video(referee: GrimpeReferee, reader: Any, *, overlap: bool = True) -> int:
    """Feed a :class:`vision.video.VideoReader`'s frames to ``referee`` to the end: the frames it
    wants decoded and judged, the others skipped undecoded (as ``judge-video`` does). Returns
    the number of frames gone through. ``overlap``: see :func:`run_video`."""
    return run_video(referee, reader, overlap=overlap)


def judge_video_file(path: str | Path, make_referee: Callable[[Any, GrimpeReferee | None], GrimpeReferee], *,
                     on_pass: Callable[[GrimpeReferee, Any], Any] | None = None,
                     decode_all: bool = False, overlap: bool = True) -> tuple[GrimpeReferee, int]:
    """Judge the video file ``path`` to its end with ``make_referee(reader, None)``; when that
    referee found the route only late (:attr:`GrimpeReferee.route_came_late`: a climb filmed
    with the hand already over the cards), or saw holds it had placed from the route file far
    from there once the hand uncovered them (:attr:`GrimpeReferee.route_improved`), judge the
    file again from its first frame with ``make_referee(reader, earlier)`` (that referee, see
    :class:`GrimpeReferee`'s ``earlier``): the route and empty-route reference found (with the
    holds seen later) and the hands already found, so that the start of the climb is judged
    too, or every hold is where it was seen; the second pass tracks no frame again. Returns
    the referee of the last pass (call its ``finish`` then ``close``) and the frames it went
    through. ``on_pass(referee, reader)`` is called before each pass and returns that pass's
    ``on_frame`` for :func:`run_video` (or None). Raises :class:`vision.video.VideoError` for
    a file that cannot be read."""
    from vision.video import VideoReader

    earlier: GrimpeReferee | None = None
    while True:
        with VideoReader(path) as reader:
            try:
                referee = make_referee(reader, earlier)
            except BaseException:
                if earlier is not None:
                    earlier.close()
                raise
            referee.may_judge_again = earlier is None
            try:
                on_frame = None if on_pass is None else on_pass(referee, reader)
                n = run_video(referee, reader, on_frame, decode_all=decode_all, overlap=overlap)
            except BaseException:
                referee.close()
                raise
        if earlier is not None or not (referee.route_came_late or referee.route_improved):
            return referee, n
        earlier = referee  # its tracker and hands go on to the next pass


def run_video(referee: GrimpeReferee, reader: Any,
              on_frame: Callable[[int, np.ndarray | None, FrameResult | None], None] | None = None,
              *, decode_all: bool = False, overlap: bool = True, ahead: int = 2) -> int:
    """Drive ``referee`` over a :class:`vision.video.VideoReader` to the end; returns the number
    of frames gone through.

    ``on_frame(index, frame, result)`` is called for every frame, in order: ``frame`` and
    ``result`` are None for a frame skipped undecoded (one the referee does not want, unless
    ``decode_all``, e.g. to draw every frame of an annotated video).

    ``overlap``: once the referee is :attr:`~GrimpeReferee.steady`, MediaPipe looks for the
    hands of the next wanted frames in a worker thread while the earlier ones are judged
    (MediaPipe's graph keeps about one core busy and lets go of the GIL, so our own stages run
    on the other core). Up to ``ahead`` frames are handed to the worker before the oldest is
    judged, so that it goes from one frame to the next without waiting for this thread. The
    referee sees the same frames with the same hands in the same order: the verdict is the one
    of the sequential loop (``overlap=False``)."""
    from concurrent.futures import Future, ThreadPoolExecutor

    lag = getattr(referee, "VIEW_LAG", ahead + 1)
    if not 1 <= ahead < lag:
        raise ValueError(f"ahead must be 1 to {lag - 1} (the referee's VIEW_LAG less one), got {ahead}")
    pool = ThreadPoolExecutor(1, thread_name_prefix="mediapipe") if overlap else None
    # the wanted frames whose hands are being found, oldest first: (index, time, frame, the
    # hands to come, the frames after it that are not wanted: judged or reported once it is)
    pending: deque[tuple[int, float, np.ndarray, Future[Any], list[Any]]] = deque()
    n = 0

    def emit(i: int, t: float, frame: np.ndarray | None, hands: Any = None) -> None:
        if frame is None:
            if on_frame is not None:
                on_frame(i, None, None)
            return
        res = referee.update(frame, t, i, hands)
        if on_frame is not None:
            on_frame(i, frame, res)

    def later(i: int, t: float, frame: np.ndarray | None) -> None:
        # a frame not wanted: judged (or reported) in its turn, after the pending ones
        if pending:
            pending[-1][4].append((i, t, frame))
        else:
            emit(i, t, frame)

    def judge_oldest() -> None:
        i, t, frame, fut, after = pending.popleft()
        emit(i, t, frame, fut.result())  # the tracker's calls never overlap: one worker, in order
        for item in after:
            emit(*item)

    try:
        while True:
            idx = reader.next_index
            wanted = referee.wants_frame(idx)
            if not wanted and not decode_all:
                if not reader.skip():
                    break
                n += 1
                later(idx, 0.0, None)
                continue
            item = reader.read()
            if item is None:
                break
            n += 1
            i, t, frame = item
            if not wanted:
                later(i, t, frame)
                continue
            if pool is None or not referee.steady:
                while pending:
                    judge_oldest()
                emit(i, t, frame)
                continue
            # the image MediaPipe will look at (the table view: ~4 ms at 1280x720), made while
            # it still works on the frames before
            prepared = referee.prepare(frame, i)
            pending.append((i, t, frame, pool.submit(referee.track, frame, t, i, prepared), []))
            if len(pending) > ahead:
                judge_oldest()  # ...while MediaPipe works on the frames after it
        while pending:
            judge_oldest()
    finally:
        if pool is not None:  # on an error, the frames handed ahead are not tracked for nothing
            pool.shutdown(wait=True, cancel_futures=True)
    return n
