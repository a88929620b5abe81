"""Contact detection: when is a finger of the climbing hand *in* a hold or on a zone?

MediaPipe's fingertip is not the contact point: a finger pressed steeply down is seen from
above as its middle phalanx, and MediaPipe puts the tip too far out along the finger (tech
notes: 8–19 px at a 100 px palm; on the synthetic climbs the contact lies 0.15–0.3 palm
behind the tip, on the finger's line). So a finger touches a target when the target lies on
the finger's last segment (from the tip back towards the PIP joint, within a fraction of the
target's radius across it), the finger is shorter than when relaxed (pressing bends it), it is
still, and the hold is covered (its ring and hole differ from the empty-route reference). The
evidence is then debounced in time with hysteresis (``on`` frames to go down, ``off`` frames to
go up) and each change becomes a judge event (``down``/``up``) dated to the first frame of the
run that confirmed it, with a confidence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.landmarks import FINGER_JOINTS, FINGERS
from vision.observations import ContactObservation, RouteObservation

__all__ = ["ContactDetector", "ContactParams", "OcclusionMeter", "finger_targets"]


@dataclass(frozen=True)
class ContactParams:
    """Tuning of the contact detector (lengths in palm sizes, times in seconds).

    Attributes:
        along_expected: where the contact lies along the finger from the tip (negative: back
            towards the hand), in palm sizes.
        along_sigma: spread of that position.
        along_range: (min, max) of the contact's position along the finger.
        across_frac: how far off the finger's line a hold centre may be, as a fraction of the
            hold's outer radius (plus ``across_min`` palm).
        still_speed: tip speed (palm sizes per second) below which the finger counts as still.
        on_s, off_s: time the evidence must hold to put a finger down / lift it.
        prestart_s: before any finger has been down on the start zone, a contact elsewhere must
            last this long (a climber starts with one finger on the start zone; other fingers
            resting on holds meanwhile are not a start), and a start contact cancels it.
        on_level, off_level: evidence thresholds of the hysteresis.
        occlusion_weight: weight of the covered-hold cue in the evidence (0 ignores it).
        release_press: a finger down stays down while its pressing score is above this.
        press_lo, press_hi: pressing score mapped to 0..1 evidence between these
            (``thumb_press_*`` for the thumb, whose foreshortening is weak seen from above).
        zone_press_floor: before the climb starts, on the start zone (a large empty slot where
            one finger only is taken) the pressing cue counts less: the evidence is at least this
            fraction (a thumb pressing is barely foreshortened seen from above).
        seg_drop, ext_drop: how much shorter than relaxed (fraction) the distal phalanx and the
            whole finger look when pressed (foreshortening: a pressing finger points down).
        arrive_motion, arrive_window_s: a finger goes down by moving: its tip must have moved
            at least ``arrive_motion`` palm sizes relative to the hand within the
            ``arrive_window_s`` before the contact began (a resting finger that the hand carries
            over a hold does not count).
        baseline_pct, history: the relaxed lengths are this percentile of the last ``history``
            frames (the hand's own scale and pose, learnt on the fly).
    """

    along_expected: float = -0.2
    along_sigma: float = 0.2
    along_range: tuple[float, float] = (-0.6, 0.12)
    across_frac: float = 0.9
    across_min: float = 0.04
    still_speed: float = 1.2
    on_s: float = 0.1
    off_s: float = 0.3
    prestart_s: float = 1.0
    on_level: float = 0.5
    off_level: float = 0.3
    occlusion_weight: float = 0.3
    seg_drop: float = 0.4
    press_lo: float = 0.5
    thumb_press_lo: float = 0.1
    thumb_press_hi: float = 0.9
    zone_press_floor: float = 0.0
    release_press: float = 1.01
    press_hi: float = 0.9
    ext_drop: float = 0.2
    baseline_pct: float = 80.0
    history: int = 300
    arrive_motion: float = 0.12
    arrive_window_s: float = 0.7


def _finger_axes(lm: np.ndarray, finger: str) -> tuple[np.ndarray, np.ndarray, float]:
    j = FINGER_JOINTS[finger]
    tip = lm[j.tip]
    base = lm[j.pip] if finger != "thumb" else lm[j.mcp]
    u = tip - base
    n = float(np.linalg.norm(u))
    if n < 1e-6:
        u = tip - lm[0]
        n = max(float(np.linalg.norm(u)), 1e-6)
    return tip, u / n, n


def palm_size_px(lm: np.ndarray) -> float:
    """Wrist to middle-finger knuckle distance (px): the hand's scale."""
    return max(float(np.linalg.norm(lm[0] - lm[9])), 1.0)


def finger_targets(lm: np.ndarray, route: RouteObservation, p: ContactParams
                   ) -> tuple[list[str | None], np.ndarray, np.ndarray]:
    """For each finger, the best target under its last segment, its geometric score (0..1)
    and the estimated contact point (px). Holds first (a hold in a zone does not exist)."""
    palm = palm_size_px(lm)
    H = route.holds
    targets: list[str | None] = []
    scores = np.zeros(len(FINGERS), np.float32)
    points = np.zeros((len(FINGERS), 2), np.float32)
    for k, f in enumerate(FINGERS):
        tip, u, _ = _finger_axes(lm, f)
        v = np.array([-u[1], u[0]])
        contact = tip + p.along_expected * palm * u
        points[k] = contact
        best, best_s = None, 0.0
        if len(H):
            d = H.centres_px - tip
            along = d @ u / palm
            across = np.abs(d @ v)
            ok = (along >= p.along_range[0]) & (along <= p.along_range[1]) & (
                across <= p.across_frac * H.radii_px + p.across_min * palm)
            if ok.any():
                s = np.exp(-0.5 * ((along - p.along_expected) / p.along_sigma) ** 2) * np.exp(
                    -0.5 * (across / np.maximum(0.5 * H.radii_px, 1.0)) ** 2)
                s = np.where(ok, s, 0.0)
                i = int(np.argmax(s))
                best, best_s = H.ids[i], float(s[i])
                points[k] = H.centres_px[i]
        if best is None:
            for name in ("start", "finish"):
                poly = route.zone_px(name)
                if poly is not None and cv2.pointPolygonTest(
                        poly.astype(np.float32), (float(contact[0]), float(contact[1])), False) >= 0:
                    best, best_s = name, 1.0
                    break
        targets.append(best)
        scores[k] = best_s
    return targets, scores, points


class OcclusionMeter:
    """How much of each hold is covered, compared with the empty-route reference.

    For each hold a small patch of the reference frame (the ring and hole) is kept; ``measure``
    returns per hold the fraction of patch pixels whose colour moved away from the reference
    by more than the frame's usual change (robust to the light drifting).
    """

    def __init__(self, reference_bgr: np.ndarray, route: RouteObservation) -> None:
        self.route = route
        h, w = reference_bgr.shape[:2]
        self.boxes: list[tuple[int, int, int, int]] = []
        self.masks: list[np.ndarray] = []
        self.refs: list[np.ndarray] = []
        for c, r in zip(route.holds.centres_px, route.holds.radii_px):
            rr = max(3, int(round(float(r) * 0.9)))
            x0, y0 = max(0, int(c[0]) - rr), max(0, int(c[1]) - rr)
            x1, y1 = min(w, int(c[0]) + rr + 1), min(h, int(c[1]) + rr + 1)
            yy, xx = np.mgrid[y0:y1, x0:x1]
            m = (xx - c[0]) ** 2 + (yy - c[1]) ** 2 <= (0.9 * float(r)) ** 2
            self.boxes.append((x0, y0, x1, y1))
            self.masks.append(m)
            self.refs.append(reference_bgr[y0:y1, x0:x1].astype(np.float32))

    def measure(self, frame_bgr: np.ndarray) -> np.ndarray:
        out = np.zeros(len(self.boxes), np.float32)
        for i, ((x0, y0, x1, y1), m, ref) in enumerate(zip(self.boxes, self.masks, self.refs)):
            if not m.any():
                continue
            cur = frame_bgr[y0:y1, x0:x1].astype(np.float32)
            gain = (cur[m].mean(0) + 1) / (ref[m].mean(0) + 1)
            diff = np.abs(cur - ref * np.clip(gain, 0.8, 1.25)).max(axis=2)
            out[i] = float((diff[m] > 40).mean())
        return out


class ContactDetector:
    """Pipeline stage: smoothed landmarks of the climbing hand in, contact state and judge
    events out. ``update(lm, t_s, frame_index, route, occlusion)`` → (observation, events)."""

    def __init__(self, params: ContactParams | None = None) -> None:
        self.p = params or ContactParams()
        self.state: list[str | None] = [None] * len(FINGERS)
        self.confidence = np.zeros(len(FINGERS), np.float32)
        self._run_target: list[str | None] = [None] * len(FINGERS)
        self._run_start: list[tuple[float, int] | None] = [None] * len(FINGERS)
        self._run_ev: list[list[float]] = [[] for _ in FINGERS]
        self._off_start: list[tuple[float, int] | None] = [None] * len(FINGERS)
        self._last_tips: np.ndarray | None = None
        self._last_t: float | None = None
        self.started = False
        self._lengths: list[np.ndarray] = []
        self._local: list[tuple[float, np.ndarray]] = []

    def _remember_local(self, lm: np.ndarray, t_s: float) -> None:
        palm = palm_size_px(lm)
        ax = lm[9] - lm[0]
        ax = ax / max(float(np.linalg.norm(ax)), 1e-6)
        R = np.array([ax, [-ax[1], ax[0]]])
        tips = np.array([lm[FINGER_JOINTS[f].tip] for f in FINGERS]) - lm[0]
        self._local.append((t_s, (tips @ R.T) / palm))
        while self._local and self._local[0][0] < t_s - 3.0:
            self._local.pop(0)

    def _arrived(self, k: int, t_start: float) -> bool:
        """Did finger k move relative to the hand shortly before ``t_start``?"""
        pts = [loc[k] for t, loc in self._local if t_start - self.p.arrive_window_s <= t <= t_start + 1e-9]
        if len(pts) < 2:
            return True
        pts_a = np.array(pts)
        return float(np.linalg.norm(pts_a - pts_a[-1], axis=1).max()) >= self.p.arrive_motion

    def pressing(self, lm: np.ndarray) -> np.ndarray:
        """(5,) 0..1: how much each finger looks pressed down (shorter than relaxed)."""
        palm = palm_size_px(lm)
        L = np.zeros((len(FINGERS), 2), np.float32)
        for k, f in enumerate(FINGERS):
            j = FINGER_JOINTS[f]
            L[k, 0] = np.linalg.norm(lm[j.tip] - lm[j.mcp]) / palm
            L[k, 1] = np.linalg.norm(lm[j.tip] - lm[j.dip]) / palm
        self._lengths.append(L)
        if len(self._lengths) > self.p.history:
            self._lengths.pop(0)
        base = np.percentile(np.array(self._lengths), self.p.baseline_pct, axis=0)
        r = L / np.maximum(base, 1e-6)
        d_ext = np.clip((1 - r[:, 0]) / self.p.ext_drop, 0, 1)
        d_seg = np.clip((1 - r[:, 1]) / self.p.seg_drop, 0, 1)
        return (0.5 * d_ext + 0.5 * d_seg).astype(np.float32)

    def update(self, lm: np.ndarray | None, t_s: float, frame_index: int, route: RouteObservation,
               occlusion: np.ndarray | None = None) -> tuple[ContactObservation, list[dict[str, Any]]]:
        p = self.p
        n = len(FINGERS)
        events: list[dict[str, Any]] = []
        if lm is None:
            evidence = np.zeros(n, np.float32)
            cands: list[str | None] = [None] * n
            points = np.zeros((n, 2), np.float32)
            self._last_tips = None
        else:
            cands, geo, points = finger_targets(lm, route, p)
            palm = palm_size_px(lm)
            tips = np.array([lm[FINGER_JOINTS[f].tip] for f in FINGERS])
            if self._last_tips is not None and self._last_t is not None and t_s > self._last_t:
                speed = np.linalg.norm(tips - self._last_tips, axis=1) / palm / (t_s - self._last_t)
            else:
                speed = np.zeros(n)
            self._last_tips, self._last_t = tips, t_s
            still = np.clip(1.5 - speed / p.still_speed, 0.0, 1.0)
            self._remember_local(lm, t_s)
            press = self.pressing(lm)
            self.last_press = press
            lo = np.array([p.thumb_press_lo] + [p.press_lo] * (n - 1))
            hi = np.array([p.thumb_press_hi] + [p.press_hi] * (n - 1))
            pressed = np.clip((press - lo) / np.maximum(hi - lo, 1e-6), 0, 1)
            in_zone = np.array([c == "start" and not self.started for c in cands])
            pressed = np.where(in_zone, p.zone_press_floor + (1 - p.zone_press_floor) * pressed, pressed)
            evidence = (np.sqrt(geo) * pressed * (0.4 + 0.6 * still)).astype(np.float32)
            if occlusion is not None and p.occlusion_weight > 0:
                for k, c in enumerate(cands):
                    if c is not None and c in route.holds.ids:
                        occ = float(occlusion[route.holds.index(c)])
                        evidence[k] *= (1 - p.occlusion_weight) + p.occlusion_weight * min(1.0, occ / 0.5)
        press_k = getattr(self, "last_press", np.zeros(n)) if lm is not None else np.zeros(n)
        for k, f in enumerate(FINGERS):
            e = float(evidence[k])
            c = cands[k] if e >= p.on_level else None
            cur = self.state[k]
            if cur is None and c == "start" and "start" in self.state:
                c = None  # one finger holds the start zone; others there are resting
            if cur is None:
                if c is None:
                    self._run_target[k], self._run_start[k], self._run_ev[k] = None, None, []
                    continue
                if c != self._run_target[k]:
                    if not self._arrived(k, t_s):
                        self._run_target[k], self._run_start[k], self._run_ev[k] = None, None, []
                        continue
                    self._run_target[k], self._run_start[k], self._run_ev[k] = c, (t_s, frame_index), []
                self._run_ev[k].append(e)
                t0, f0 = self._run_start[k]  # type: ignore[misc]
                need = p.on_s if (self.started or c == "start") else p.prestart_s
                if t_s - t0 >= need - 1e-9:
                    if c == "start":
                        self.started = True
                        for j in range(len(FINGERS)):  # resting fingers are not a start
                            if j != k and self._run_target[j] not in (None, "start"):
                                self._run_target[j], self._run_start[j], self._run_ev[j] = None, None, []
                    conf = float(np.clip(np.mean(self._run_ev[k]), 0, 1))
                    self.state[k] = c
                    self.confidence[k] = conf
                    self._off_start[k] = None
                    events.append({"t": round(t0, 4), "type": "down", "finger": f, "target": c,
                                   "frame": f0, "confidence": round(conf, 3)})
                    self._run_target[k], self._run_start[k], self._run_ev[k] = None, None, []
            else:
                # once down, a finger stays down while its last segment stays on the target and it
                # still looks pressed (a lifted finger curls and its tip leaves the target)
                still_on = cands[k] == cur and (e >= p.off_level or press_k[k] >= p.release_press)
                if still_on:
                    self._off_start[k] = None
                    continue
                if self._off_start[k] is None:
                    self._off_start[k] = (t_s, frame_index)
                t0, f0 = self._off_start[k]  # type: ignore[misc]
                if t_s - t0 >= p.off_s - 1e-9:
                    events.append({"t": round(t0, 4), "type": "up", "finger": f, "frame": f0,
                                   "confidence": round(float(1 - e), 3)})
                    self.state[k] = None
                    self.confidence[k] = 0.0
                    self._off_start[k] = None
        obs = ContactObservation(tuple(self.state), tuple(cands), np.clip(evidence, 0, 1),
                                 np.clip(self.confidence, 0, 1), points)
        return obs, events

    def finish(self, t_s: float, frame_index: int) -> list[dict[str, Any]]:
        """Nothing is emitted at the end: fingers still down stay down (the judge decides)."""
        return []
