"""A small learned per-finger contact classifier: real-world cues in, P(finger pressing) out.

Each frame, for each finger of the climbing hand, :class:`ContactFeatures` computes cues that
exist in real footage as well as in the synthetic renders (no renderer artefact is used):

- geometry: the best target (hold, start or finish zone) under the finger's last segment, with
  the tip corrected back along the finger (MediaPipe places a pressing tip too far out), as a
  score and as along/across offsets in palm sizes and hold radii;
- foreshortening: the distal, middle and whole finger lengths (palm sizes), raw and relative to
  the same finger's relaxed length (a high percentile of its recent history), and relative to
  the other fingers in the same frame (a pressing finger points down, so it looks shorter);
- motion: the tip's image speed now and over the last ~0.3 s (a pressing tip is fixed on the
  table while the hand moves), and its motion relative to the hand (arrival then stillness);
- covering: the fraction of the hold's ring and hole that differs from the empty route;
- the camera (:func:`camera_cues`): how steeply it looks at the hand, and whether each finger
  points towards it or away (how long a finger looks depends on both when the camera is
  oblique), from the camera's place found from the route's homography. The same place moves
  the fingertips towards the camera before the target under them is chosen (see
  :attr:`vision.contact.ContactParams.camera_shift`);
- the pose (:func:`hand_pose`): the finger's joints in the hand's own frame, how it bends at
  its last two joints, and where the other fingertips lie from its tip (a finger reaching
  down into a hold stands out from the resting ones; ROC area 0.980 -> 0.988 on held-out
  climbs, see :mod:`vision.train_contact`).

Which target is under a finger is chosen geometrically (:func:`best_targets`: a window along
the finger's last segment, scored by where the hold lies from the contact point) or, when the
model has one, by a learned chooser (:class:`TargetChooser`, boosted trees over the cues of
each candidate in a wider window, :func:`target_candidates`), trained on the fingers truly
down on a hold or a zone. With it a hold of another colour than the finger's must be far
likelier than one of its own to be chosen (``ContactParams.other_colour_weight`` 0.01 on the
chooser's odds). On the fingers truly down of 288 held-out climbs (2026-12-05, session 30;
seeds 17600-17695 and 17800-17995) the chooser with that weight picks the hold or zone the
finger is on for 98.3 % of 16,302 top-down and 94.2 % of 10,737 oblique finger-frames; the
geometric choice (weight 0.3) for 95.6 % and 82.9 % (see :mod:`vision.train_contact` for
the verdicts). It costs 0.9 ms a processed frame (the features 1.6 ms instead of 0.7).

Measured and not used: where the finger's silhouette ends (the frame against the clip's
median frame, walked along the finger from MediaPipe's tip; 2026-12-05, 12 recorded
climbs): it lies further from a pressed finger's contact point than MediaPipe's tip (median
0.19 against 0.14 palm sizes from above, 0.34 against 0.25 obliquely): the tip of a finger
pressing steeply is under the finger, not at its end. MediaPipe's relative depth ``z``
(2026-12-03, 14 recorded ``synth-3`` climbs, 6164 finger-frames; tip minus knuckle, middle or
last joint, or wrist, over the palm size) separates a pressing finger from the others with
an AUC of 0.55-0.59, top or oblique, against 0.76-0.78 from above for the finger's apparent
length (0.57-0.61 obliquely).

:class:`ContactNet` is a one-hidden-layer perceptron or boosted decision trees
(:mod:`vision.boosted`; numpy only either way) over these features, whose weights are trained
from rendered ground truth by :mod:`vision.train_contact` and stored in
``vision/contact_model.json`` next to this module (with the feature list and normalisation).
"""

from __future__ import annotations

import math
from collections import deque
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.camera import apply_homography
from vision.landmarks import FINGER_JOINTS, FINGERS
from vision.observations import RouteObservation

__all__ = [
    "FEATURE_NAMES",
    "LOOKAHEAD_BASE",
    "MODEL_PATH",
    "STAY_FEATURE_NAMES",
    "TARGET_FEATURE_NAMES",
    "ContactFeatures",
    "ContactNet",
    "StayReference",
    "TargetChooser",
    "best_targets",
    "camera_cues",
    "camera_rays",
    "hand_pose",
    "lookahead_features",
    "lookahead_names",
    "palm_centre",
    "stay_names",
    "target_candidates",
]

MODEL_PATH = Path(__file__).with_name("contact_model.json")

FEATURE_NAMES: tuple[str, ...] = (
    "geo", "along", "across", "is_zone", "occ",
    "seg_d", "seg_m", "ext", "r_seg_d", "r_seg_m", "r_ext", "rel_d", "rel_ext",
    "speed", "speed_avg", "disp_03", "local_speed", "local_disp_03", "local_arrive_07",
    "hand_speed", "tip_to_palm", "dr_seg_d_02", "dr_ext_02", "dgeo_02", "min_r_seg_d_05",
    "cam_tan", "cam_along",
    "f_thumb", "f_index", "f_middle", "f_ring", "f_little",
    *(f"pose_{j}_{a}" for j in ("mcp", "pip", "dip", "tip") for a in "xy"),
    "bend_pip", "bend_dip", "mirror",
    *(f"to_{f}_{a}" for f in ("thumb", "index", "middle", "ring", "little") for a in "xy"),
)

#: the features looked at again a few processed frames later (offline judging may wait for
#: them): whether the finger settled (still, short, over the same target) tells a finger
#: arriving on a hold from one passing over it or still lowering onto it
LOOKAHEAD_BASE: tuple[str, ...] = (
    "geo", "occ", "r_seg_d", "r_ext", "rel_d", "rel_ext", "speed", "disp_03", "local_disp_03",
    "dr_seg_d_02",
)
_LA_COLS = np.array([FEATURE_NAMES.index(n) for n in LOOKAHEAD_BASE], np.intp)


def lookahead_names(offsets: tuple[int, ...]) -> tuple[str, ...]:
    """The feature names of a model that looks ``offsets`` processed frames ahead."""
    return FEATURE_NAMES + tuple(f"{n}+{d}" for d in offsets for n in (*LOOKAHEAD_BASE, "same"))


def lookahead_features(X: np.ndarray, targets: list[str | None],
                       future: list[tuple[list[str | None], np.ndarray] | None]) -> np.ndarray:
    """X (5, F) of a frame extended with, for each later frame in ``future`` ((targets, X) or
    None when the hand was lost there), the change of the :data:`LOOKAHEAD_BASE` features
    since this frame and whether the finger is over the same target (zeros when lost)."""
    if not future:
        return X
    n = X.shape[0]
    k = len(LOOKAHEAD_BASE) + 1
    out = np.zeros((n, X.shape[1] + k * len(future)), np.float32)
    out[:, :X.shape[1]] = X
    now = X[:, _LA_COLS]
    for i, fut in enumerate(future):
        if fut is None:
            continue
        tg, Xf = fut
        c = X.shape[1] + i * k
        out[:, c:c + k - 1] = Xf[:, _LA_COLS] - now
        out[:, c + k - 1] = [1.0 if t is not None and t == tf else 0.0 for t, tf in zip(targets, tg)]
    return out


_ALONG_EXPECTED = -0.2  # palm sizes: contact lies this far back from MediaPipe's tip
#: which holds count as under a finger (:func:`best_targets`): along the finger (palm sizes
#: from MediaPipe's tip) and across it (hold radii), a window and the widths of the score.
#: Widened for the eighth model (2026-12-03; it was -0.6..0.15 and 0.22 along, 1.6 and 0.6
#: across): on oblique cameras MediaPipe's tip of a finger pressing a hold lies a median 18 mm
#: from it (1.5-3 hold radii), and the pressed hold was then often outside the window. On the
#: recorded climbs (148 oblique: 39 ``synth-2`` and 109 ``synth-3``; 30 top-down ``synth-3``),
#: the pressed hold is the finger's target on 55 % of oblique finger-frames pressing a hold
#: against 44 % before (top-down 88 % against 84 %); a hold is now under 78 % of the oblique
#: fingers not pressing against 41 % (top-down 87 % against 45 %), which the classifier,
#: trained with this window, tells apart. The same window serves a top-down camera: the old
#: one there (the wide one kept for oblique cameras, the model retrained) lost verdicts from
#: above (2026-12-03, session 22; see :mod:`vision.train_contact`).
_ALONG_RANGE = (-1.0, 0.4)
_ALONG_SIGMA = 0.35
_ACROSS_MAX = 4.0  # hold radii: a hold further to the side of the finger is not under it
_ACROSS_SIGMA = 1.6
#: a hold scoring less than this loses to a zone under the contact point. 0.5 -> 0.7
#: (2026-12-05, session 29; a summit had been read on the hold beside the Arrivée card):
#: the seventeenth model (trained with 0.5) replayed with 0.6 / 0.7 / 0.8 / 0.9 on the
#: climbs of seeds 17600-17695 + 17800-17995, 18200-18298, 18400-18498: 201/78/81,
#: 201/77/81, 202/77/82, 201/76/82 verdicts against 199/74/81 with 0.5; the 24 bad starts
#: 22 each from 0.5 to 0.8. Retrained with 0.7 (the model shipped): 203/76/79, 21 bad
#: starts, events F1 as good or better on every set.
_ZONE_OVER_HOLD = 0.7
#: a contact point this far outside a zone (palm sizes) still counts as on it: on 210 rendered
#: climbs, MediaPipe's contact point for a finger truly down on a zone lies outside it on 14 %
#: of the start downs and 25 % of the finish downs (median over the contact), less than 0.1
#: palm out on 96 % and 99 %
_ZONE_MARGIN = 0.12


_TIP, _DIP, _PIP, _MCP = (np.array([getattr(FINGER_JOINTS[f], a) for f in FINGERS], np.intp)
                          for a in ("tip", "dip", "pip", "mcp"))


def _row_norms(d: np.ndarray) -> np.ndarray:
    """Euclidean length of each row of ``d`` (N, 2), as ``np.linalg.norm`` gives it for one
    row (the dot product in ``d``'s own precision) without a call per row."""
    return np.sqrt(np.einsum("ij,ij->i", d, d))


def palm_centre(lm: np.ndarray) -> np.ndarray:
    """The middle of the palm (mean of the wrist and the four knuckles), px."""
    return lm[[0, 5, 9, 13, 17]].mean(0)


def _palm(lm: np.ndarray) -> float:
    return max(float(np.linalg.norm(lm[0] - lm[9])), 1.0)


def _geo_score(along: np.ndarray, across: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The geometric score of holds ``along`` (palm sizes from the tip) and ``across`` (hold
    radii) a finger, and whether each lies in the window of :func:`best_targets`."""
    geo = np.exp(-0.5 * ((along - _ALONG_EXPECTED) / _ALONG_SIGMA) ** 2) * np.exp(
        -0.5 * (across / _ACROSS_SIGMA) ** 2)
    win = (along >= _ALONG_RANGE[0]) & (along <= _ALONG_RANGE[1]) & (across <= _ACROSS_MAX)
    return geo, win


def best_targets(lm: np.ndarray, route: RouteObservation, prior: np.ndarray | None = None,
                 shift: np.ndarray | None = None
                 ) -> tuple[list[str | None], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per finger: the best target under its last segment (hold id, ``start``, ``finish`` or
    None), its geometric score (0..1), along offset (palm sizes, negative = back towards the
    hand), across offset (in hold radii; for a zone, how far the contact point lies outside it,
    in palm sizes, up to :data:`_ZONE_MARGIN`) and the contact point (px), each (5,) or (5, 2).

    ``prior`` (5, n_holds) weighs the holds' scores when choosing among several under the same
    finger (a hold of the finger's own colour is where a climber aims; see
    :meth:`vision.contact.ContactDetector`); the reported score stays the geometric one. A hold
    wins over a zone (holds are never inside zones) unless the contact point is inside the zone
    and the hold lies under the finger's middle joint rather than its tip (score below
    :data:`_ZONE_OVER_HOLD`). ``shift`` (5, 2) px moves each fingertip before the finger's
    line is laid (see :attr:`vision.contact.ContactParams.camera_shift`)."""
    palm = _palm(lm)
    H = route.holds
    n = len(FINGERS)
    targets: list[str | None] = [None] * n
    geo = np.zeros(n, np.float32)
    along_o = np.zeros(n, np.float32)
    across_o = np.zeros(n, np.float32)
    points = np.zeros((n, 2), np.float32)
    zones = [(name, poly.astype(np.float32)) for name in ("start", "finish")
             if (poly := route.zone_px(name)) is not None]
    radii = np.maximum(H.radii_px, 1.0)
    for k, f in enumerate(FINGERS):
        j = FINGER_JOINTS[f]
        tip = lm[j.tip] if shift is None else lm[j.tip] + shift[k]
        base = lm[j.dip]
        u = tip - lm[j.pip]
        nu = float(np.linalg.norm(u))
        if nu < 1e-6:
            u = tip - base
            nu = max(float(np.linalg.norm(u)), 1e-6)
        u = u / nu
        v = np.array([-u[1], u[0]])
        contact = tip + _ALONG_EXPECTED * palm * u
        points[k] = contact
        zone = None
        zone_out = 0.0
        for name, poly in zones:
            d = cv2.pointPolygonTest(poly, (float(contact[0]), float(contact[1])), True)
            if d >= -_ZONE_MARGIN * palm:
                zone, zone_out = name, max(-d, 0.0) / palm
                break
        if len(H):
            d = H.centres_px - tip
            along = d @ u / palm
            across = np.abs(d @ v) / radii
            s, ok = _geo_score(along, across)
            if ok.any():
                s = np.where(ok, s, 0.0)
                i = int(np.argmax(s if prior is None else s * prior[k]))
                if s[i] > 0.02 and (zone is None or s[i] >= _ZONE_OVER_HOLD):
                    targets[k] = H.ids[i]
                    geo[k] = float(s[i])
                    along_o[k] = float(along[i])
                    across_o[k] = float(across[i])
                    points[k] = H.centres_px[i]
                    continue
        if zone is not None:
            targets[k] = zone
            geo[k] = 1.0
            along_o[k] = _ALONG_EXPECTED
            across_o[k] = zone_out
    return targets, geo, along_o, across_o, points


#: the cues of one (finger, target) pair the learned target chooser (:class:`TargetChooser`)
#: scores. For a hold: where it lies from the finger's tip (moved towards the camera as for
#: :func:`best_targets`) and from MediaPipe's own tip (along in palm sizes, across in hold
#: radii and palm sizes), the geometric score and its rank among the finger's holds, its
#: distance from the contact point and from the finger's last two joints, how covered it is,
#: its radius, how near the other fingertips are to it. For a zone: how far outside it the
#: contact point, the last joint, MediaPipe's tip and the nearest other fingertip lie (palm
#: sizes, negative inside). For both: how oblique the camera is, which finger, its last
#: segment's length, how many holds are candidates.
TARGET_FEATURE_NAMES: tuple[str, ...] = (
    "is_zone", "zone_kind", "along", "across", "across_palm", "along_raw", "across_raw", "geo",
    "geo_window", "geo_rank", "geo_rel", "contact_d", "dip_d", "pip_d", "tip_d", "occ", "radius",
    "others_d", "cam_tan", "finger", "seg_d", "n_holds",
)
#: the wider window of the learned chooser's candidates: holds along the finger (palm sizes
#: from the tip) and across it (hold radii), zones whose edge is this near the contact point
_CAND_ALONG = (-1.3, 0.7)
_CAND_ACROSS = 6.0
_CAND_ZONE = 0.5


def target_candidates(lm: np.ndarray, route: RouteObservation, shift: np.ndarray | None = None,
                      occlusion: np.ndarray | None = None, cam_tan: float = 0.0
                      ) -> list[tuple[list[str], np.ndarray, np.ndarray]]:
    """Per finger, the targets that may be under it (holds in a window wider than
    :func:`best_targets`', zones near its contact point) and their cues: (names, X (m,
    :data:`TARGET_FEATURE_NAMES`) float32, out (m, 5): the geometric score, along, across,
    and the point reported for the target, as :func:`best_targets` gives them)."""
    palm = _palm(lm)
    H = route.holds
    n = len(FINGERS)
    F = len(TARGET_FEATURE_NAMES)
    tips = lm[_TIP].astype(np.float64)
    tip = tips if shift is None else tips + shift
    pip = lm[_PIP].astype(np.float64)
    dip = lm[_DIP].astype(np.float64)
    u = tip - pip
    nu = _row_norms(u)
    short = nu < 1e-6
    if short.any():
        u[short] = (tip - dip)[short]
        nu[short] = np.maximum(_row_norms(u[short]), 1e-6)
    u = u / nu[:, None]
    v = np.stack([-u[:, 1], u[:, 0]], 1)
    contact = tip + _ALONG_EXPECTED * palm * u
    seg = _row_norms(tips - dip) / palm
    per: list[tuple[list[str], list[np.ndarray], list[np.ndarray]]] = [([], [], []) for _ in range(n)]
    if len(H):
        C = H.centres_px.astype(np.float64)
        radii = np.maximum(H.radii_px, 1.0).astype(np.float64)
        d = C[None] - tip[:, None]  # (5, holds, 2)
        along = np.einsum("khc,kc->kh", d, u) / palm
        across_px = np.abs(np.einsum("khc,kc->kh", d, v))
        across = across_px / radii
        d0 = C[None] - tips[:, None]
        along0 = np.einsum("khc,kc->kh", d0, u) / palm
        across0 = np.abs(np.einsum("khc,kc->kh", d0, v)) / radii
        geo, win = _geo_score(along, across)
        g = np.where(win, geo, 0.0)
        rank = np.empty_like(g)
        np.put_along_axis(rank, np.argsort(-g, axis=1, kind="stable"),
                          np.broadcast_to(np.arange(g.shape[1], dtype=np.float64), g.shape), axis=1)
        best = np.maximum(g.max(axis=1), 1e-6)
        # each hold's distance from the fingertips; for finger k the nearest of the others
        D = np.linalg.norm(C[None] - tips[:, None], axis=2)  # (5, holds)
        order = np.argsort(D, axis=0, kind="stable")
        first, second = D[order[0], np.arange(D.shape[1])], D[order[1], np.arange(D.shape[1])]
        ks, hs = np.nonzero((along >= _CAND_ALONG[0]) & (along <= _CAND_ALONG[1])
                            & (across <= _CAND_ACROSS))
        X = np.zeros((len(ks), F))
        X[:, 2], X[:, 3], X[:, 4] = along[ks, hs], across[ks, hs], across_px[ks, hs] / palm
        X[:, 5], X[:, 6], X[:, 7] = along0[ks, hs], across0[ks, hs], geo[ks, hs]
        X[:, 8], X[:, 9], X[:, 10] = g[ks, hs], rank[ks, hs], g[ks, hs] / best[ks]
        X[:, 11] = _row_norms(C[hs] - contact[ks]) / palm
        X[:, 12] = _row_norms(C[hs] - dip[ks]) / palm
        X[:, 13] = _row_norms(C[hs] - pip[ks]) / palm
        X[:, 14] = D[ks, hs] / palm
        X[:, 15] = -1.0 if occlusion is None else np.asarray(occlusion, np.float64)[hs]
        X[:, 16] = radii[hs] / palm
        X[:, 17] = np.where(order[0, hs] == ks, second[hs], first[hs]) / palm
        res = np.column_stack([geo[ks, hs], along[ks, hs], across[ks, hs], C[hs]])
        for i, (k, h) in enumerate(zip(ks.tolist(), hs.tolist())):
            per[k][0].append(H.ids[h])
            per[k][1].append(X[i])
            per[k][2].append(res[i])
    for name in ("start", "finish"):
        poly = route.zone_px(name)
        if poly is None:
            continue
        poly = poly.astype(np.float32)

        def outside(pt: np.ndarray, poly: np.ndarray = poly) -> float:
            return -cv2.pointPolygonTest(poly, (float(pt[0]), float(pt[1])), True) / palm
        tip_out = [outside(t) for t in tips]
        for k in range(n):
            dz = outside(contact[k])
            if dz > _CAND_ZONE:
                continue
            x = np.zeros(F)
            x[0], x[1] = 1.0, 1.0 if name == "start" else 2.0
            x[9] = -1.0
            x[11], x[12], x[14] = dz, outside(dip[k]), tip_out[k]
            x[15] = -1.0
            x[17] = min(tip_out[j] for j in range(n) if j != k)
            per[k][0].append(name)
            per[k][1].append(x)
            per[k][2].append(np.array([1.0, _ALONG_EXPECTED, max(dz, 0.0), contact[k][0], contact[k][1]]))
    out = []
    for k, (names, rows, res_k) in enumerate(per):
        Xk = np.array(rows, np.float32).reshape(-1, F)
        Xk[:, 18] = cam_tan
        Xk[:, 19] = k
        Xk[:, 20] = seg[k]
        Xk[:, 21] = float(np.sum(Xk[:, 0] == 0))
        out.append((names, Xk, np.array(res_k, np.float64).reshape(-1, 5)))
    return out


class TargetChooser:
    """The learned choice of the target under each finger (boosted trees over
    :data:`TARGET_FEATURE_NAMES`, trained by :mod:`vision.train_contact` on the fingers truly
    pressing a hold or a zone: which of its candidates is it?). Its log odds plus the log of
    the colour and stickiness weights of :func:`best_targets`' ``prior`` choose; the
    classifier then says whether the finger presses it."""

    def __init__(self, weights: dict[str, Any]) -> None:
        from vision.boosted import BoostedTrees

        if list(weights.get("features", ())) != list(TARGET_FEATURE_NAMES):
            raise ValueError("target chooser features differ from TARGET_FEATURE_NAMES: retrain "
                             "with python -m vision.train_contact")
        self.trees = BoostedTrees(weights)

    def choose(self, lm: np.ndarray, route: RouteObservation, prior: np.ndarray | None = None,
               shift: np.ndarray | None = None, occlusion: np.ndarray | None = None,
               cam_tan: float = 0.0, start_weight: float = 1.0
               ) -> tuple[list[str | None], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """As :func:`best_targets` (targets, geometric score, along, across, points), the
        target of each finger being its best-scoring candidate (None: no candidate).
        ``start_weight``: the start zone's weight, as ``prior``'s for a hold (the decoder gives
        it the colour weight once the climb has started)."""
        n = len(FINGERS)
        cands = target_candidates(lm, route, shift, occlusion, cam_tan)
        targets: list[str | None] = [None] * n
        geo = np.zeros(n, np.float32)
        along = np.zeros(n, np.float32)
        across = np.zeros(n, np.float32)
        points = np.zeros((n, 2), np.float32)
        sizes = [len(c[0]) for c in cands]
        if not sum(sizes):
            return targets, geo, along, across, points
        raw = self.trees.raw(np.concatenate([c[1] for c in cands]))
        at = 0
        for k, (names, _, res) in enumerate(cands):
            m = sizes[k]
            if not m:
                continue
            s = raw[at:at + m].astype(np.float64)
            at += m
            if prior is not None:
                for i, name in enumerate(names):
                    if name not in ("start", "finish"):
                        s[i] += math.log(max(float(prior[k, route.holds.index(name)]), 1e-9))
            if start_weight != 1.0:
                for i, name in enumerate(names):
                    if name == "start":
                        s[i] += math.log(max(start_weight, 1e-9))
            i = int(np.argmax(s))
            targets[k] = names[i]
            geo[k], along[k], across[k] = res[i, 0], res[i, 1], res[i, 2]
            points[k] = res[i, 3:5]
        return targets, geo, along, across, points


def hand_pose(lm: np.ndarray) -> np.ndarray:
    """The pose features of each finger (5, 21), in the hand's own frame: origin the wrist, x
    towards the middle finger's knuckle, y across (mirrored so that a left and a right hand,
    palm down, read alike), in palm sizes. Per finger: its four joints (knuckle to tip), how
    much it bends (as seen) at its middle and last joint (radians, signed), the mirror sign,
    and where the five fingertips lie from its own tip. A finger pressing a hold is bent and
    reaches down while the others rest: seen from above, its joints and its tip's place among
    the others tell it from a finger held up (:mod:`vision.train_contact`)."""
    o = lm[0].astype(np.float64)
    d = lm.astype(np.float64) - o
    palm = max(float(np.linalg.norm(d[9])), 1.0)
    e1 = d[9] / palm
    a, b = d[5], d[17]
    s = 1.0 if a[0] * b[1] - a[1] * b[0] > 0 else -1.0
    H = np.stack([d @ e1, s * (d @ np.array([-e1[1], e1[0]]))], 1) / palm
    J = np.stack([H[_MCP], H[_PIP], H[_DIP], H[_TIP]], 1)  # (5, 4, 2)
    seg = np.diff(J, axis=1)
    cross = seg[:, :-1, 0] * seg[:, 1:, 1] - seg[:, :-1, 1] * seg[:, 1:, 0]
    bend = np.arctan2(cross, np.sum(seg[:, :-1] * seg[:, 1:], axis=2))
    tips = H[_TIP][None, :, :] - H[_TIP][:, None, :]
    n = len(FINGERS)
    return np.concatenate([J.reshape(n, 8), bend, np.full((n, 1), s), tips.reshape(n, 2 * n)], 1)


def camera_rays(lm: np.ndarray, route: RouteObservation, eye: np.ndarray | None
                ) -> tuple[float, np.ndarray, np.ndarray] | None:
    """How the camera sees the hand (``lm`` and ``route`` in the same pixels: the image, or the
    table view): the tangent of the camera ray's angle from the vertical at the palm's centre,
    the same at each fingertip (5,), and the direction away from the camera at each fingertip
    as seen ((5, 2) unit vectors). A point h mm above the table is seen h times the tangent
    further from the camera than the table point below it. None when ``eye`` (the camera's
    centre in the route's mm, :func:`vision.camera.camera_centre_from_homography`) or the
    route's homography is unknown."""
    H = route.H_image_from_route
    if eye is None or H is None or not eye[2] > 0:
        return None
    pts = np.vstack([palm_centre(lm)[None], lm[_TIP]]).astype(np.float64)
    mm = apply_homography(route.H_route_from_image, pts)
    d = mm - np.asarray(eye[:2], np.float64)
    dist = np.maximum(np.linalg.norm(d, axis=1), 1e-6)
    tan = dist / float(eye[2])
    away = apply_homography(H, mm[1:] + d[1:] / dist[1:, None]) - pts[1:]  # 1 mm further, seen
    away /= np.maximum(np.linalg.norm(away, axis=1), 1e-9)[:, None]
    if not (np.isfinite(tan).all() and np.isfinite(away).all()):
        return None
    return float(tan[0]), tan[1:], away


def camera_cues(lm: np.ndarray, rays: tuple[float, np.ndarray, np.ndarray] | None
                ) -> tuple[np.ndarray, np.ndarray]:
    """The contact model's camera features per finger (from :func:`camera_rays`): ``cam_tan``,
    the tangent of the camera ray's angle from the vertical at the palm, and ``cam_along``, that
    tangent at the fingertip times the cosine between the finger (knuckle to tip) and the
    direction away from the camera: how long a finger looks depends on both (a finger pointing
    down into a hold looks longer when it points towards the camera). Zeros without ``rays``
    (as for a camera straight above the hand)."""
    n = len(FINGERS)
    if rays is None:
        return np.zeros(n, np.float32), np.zeros(n, np.float32)
    tan_palm, tan, away = rays
    u = (lm[_TIP] - lm[_MCP]).astype(np.float64)
    u /= np.maximum(np.linalg.norm(u, axis=1), 1e-9)[:, None]
    return np.full(n, tan_palm, np.float32), (tan * np.sum(u * away, axis=1)).astype(np.float32)


class ContactFeatures:
    """Causal per-frame feature extractor (see module doc). ``update`` → (targets, X (5, F),
    contact points (5, 2)); X rows follow :data:`FEATURE_NAMES`. ``sticky``: the hold each
    finger was over in the previous frame weighs this much more in the choice of its target
    (see :attr:`vision.contact.ContactParams.sticky_target`); ``camera_shift``,
    ``shift_min_tan``: the fingertips are moved towards the camera before that choice (see
    :attr:`vision.contact.ContactParams.camera_shift`; 0: not moved)."""

    def __init__(self, history: int = 240, baseline_pct: float = 85.0, sticky: float = 1.0,
                 camera_shift: float = 0.0, shift_min_tan: float = 0.0) -> None:
        self.sticky = sticky
        #: the learned target chooser (:class:`TargetChooser`) when the model has one, else
        #: the geometric :func:`best_targets`
        self.chooser: TargetChooser | None = None
        #: with ``collect``, :meth:`update` keeps the candidates of the last frame here (for
        #: training the chooser: :func:`vision.train_contact.target_samples`)
        self.collect = False
        self.candidates: list[tuple[list[str], np.ndarray, np.ndarray]] | None = None
        self.camera_shift = camera_shift
        self.shift_min_tan = shift_min_tan
        self._last_targets: list[str | None] = [None] * len(FINGERS)
        self.history = history
        self.baseline_pct = baseline_pct
        self._lengths: deque[np.ndarray] = deque(maxlen=history)
        self._tips: deque[tuple[float, np.ndarray, np.ndarray, np.ndarray]] = deque()
        self._past: deque[tuple[float, np.ndarray, np.ndarray, list[str | None]]] = deque()

    def reset_motion(self) -> None:
        """Forget the motion history (the hand was lost)."""
        self._tips.clear()
        self._past.clear()
        self._last_targets = [None] * len(FINGERS)

    def update(self, lm: np.ndarray, t_s: float, route: RouteObservation,
               occlusion: np.ndarray | None, prior: np.ndarray | None = None,
               eye: np.ndarray | None = None, start_weight: float = 1.0
               ) -> tuple[list[str | None], np.ndarray, np.ndarray]:
        """``start_weight``: the start zone's weight among a finger's candidates
        (:meth:`TargetChooser.choose`; the decoder gives it the colour weight once the climb
        has started). ``eye``: the camera's centre (3,) in the route's millimetres (z its height), as
        :func:`vision.camera.camera_centre_from_homography` finds it; None: unknown (the
        camera features are 0, as for a camera straight above the hand)."""
        n = len(FINGERS)
        palm = _palm(lm)
        if self.sticky != 1.0 and len(route.holds):
            prior = np.ones((n, len(route.holds))) if prior is None else np.array(prior, np.float64)
            for k, c in enumerate(self._last_targets):
                if c is not None and c not in ("start", "finish"):
                    prior[k, route.holds.index(c)] *= self.sticky
        rays = camera_rays(lm, route, eye)
        shift = None
        if rays is not None and self.camera_shift and rays[0] >= self.shift_min_tan:
            # MediaPipe's fingertip is seen above the table: the contact lies towards the camera
            shift = (-self.camera_shift * palm) * rays[1][:, None] * rays[2]
        cam_tan = 0.0 if rays is None else float(rays[0])
        if self.chooser is not None:
            targets, geo, along, across, points = self.chooser.choose(lm, route, prior, shift,
                                                                      occlusion, cam_tan, start_weight)
        else:
            targets, geo, along, across, points = best_targets(lm, route, prior, shift)
        if self.collect:
            self.candidates = target_candidates(lm, route, shift, occlusion, cam_tan)
        self._last_targets = list(targets)
        L = np.zeros((n, 3), np.float32)
        L[:, 0] = _row_norms(lm[_TIP] - lm[_DIP]) / palm
        L[:, 1] = _row_norms(lm[_DIP] - lm[_PIP]) / palm
        L[:, 2] = _row_norms(lm[_TIP] - lm[_MCP]) / palm
        self._lengths.append(L)
        base = np.percentile(np.asarray(self._lengths), self.baseline_pct, axis=0)
        R = L / np.maximum(base, 1e-6)
        rel_d = R[:, 0] - np.median(R[:, 0])
        rel_ext = R[:, 2] - np.median(R[:, 2])
        tips = lm[_TIP].astype(np.float64)
        ax = lm[9] - lm[0]
        ax = ax / max(float(np.linalg.norm(ax)), 1e-6)
        Rm = np.array([ax, [-ax[1], ax[0]]])
        local = ((tips - lm[0]) @ Rm.T) / palm
        centre = palm_centre(lm)
        self._tips.append((t_s, tips / palm, local, centre / palm))
        while self._tips and self._tips[0][0] < t_s - 0.75:
            self._tips.popleft()
        hist = list(self._tips)
        speed = np.zeros(n)
        local_speed = np.zeros(n)
        hand_speed = 0.0
        if len(hist) >= 2 and hist[-1][0] > hist[-2][0]:
            dt = hist[-1][0] - hist[-2][0]
            speed = np.linalg.norm(hist[-1][1] - hist[-2][1], axis=1) / dt
            local_speed = np.linalg.norm(hist[-1][2] - hist[-2][2], axis=1) / dt
            hand_speed = float(np.linalg.norm(hist[-1][3] - hist[-2][3]) / dt)
        rec = [h for h in hist if h[0] >= t_s - 0.3]
        # largest distance of each tip (image, and in the hand's frame) from where it is now,
        # over the last 0.3 s, and in the hand's frame over the whole history
        disp = np.linalg.norm(np.stack([h[1] for h in rec]) - rec[-1][1], axis=2).max(axis=0)
        ldisp = np.linalg.norm(np.stack([h[2] for h in rec]) - rec[-1][2], axis=2).max(axis=0)
        arrive = np.linalg.norm(np.stack([h[2] for h in hist]) - hist[-1][2], axis=2).max(axis=0)
        if len(rec) >= 2:
            speed_avg = disp / max(rec[-1][0] - rec[0][0], 1e-3)
        else:
            speed_avg = np.zeros(n)
        occ = np.zeros(n, np.float32)
        is_zone = np.zeros(n, np.float32)
        for k, c in enumerate(targets):
            if c in ("start", "finish"):
                is_zone[k] = 1.0
            elif c is not None and occlusion is not None:
                occ[k] = float(occlusion[route.holds.index(c)])
        tip_to_palm = np.linalg.norm(tips - centre, axis=1) / palm
        self._past.append((t_s, R[:, 0].copy(), R[:, 2].copy(), list(targets)))
        while self._past and self._past[0][0] < t_s - 0.55:
            self._past.popleft()
        old = next((q for q in self._past if q[0] >= t_s - 0.2 - 1e-6), self._past[0])
        dr_seg = R[:, 0] - old[1]
        dr_ext = R[:, 2] - old[2]
        dgeo = np.array([1.0 if old[3][k] == targets[k] and targets[k] is not None else 0.0
                         for k in range(n)], np.float32)
        min_seg = np.min([q[1] for q in self._past], axis=0)
        cam_tan, cam_along = camera_cues(lm, rays)
        X = np.zeros((n, len(FEATURE_NAMES)), np.float32)
        cols = [geo, along, across, is_zone, occ, L[:, 0], L[:, 1], L[:, 2], R[:, 0], R[:, 1],
                R[:, 2], rel_d, rel_ext, np.minimum(speed, 20), np.minimum(speed_avg, 20), disp,
                np.minimum(local_speed, 20), ldisp, arrive, np.full(n, min(hand_speed, 20)),
                tip_to_palm, dr_seg, dr_ext, dgeo, min_seg, cam_tan, cam_along]
        for i, c in enumerate(cols):
            X[:, i] = c
        X[np.arange(n), len(cols) + np.arange(n)] = 1.0
        X[:, len(cols) + n:] = hand_pose(lm)
        return targets, X, points


class ContactNet:
    """A classifier of the contact model: X (N, F) → P(yes) (N,). Weights in a JSON file: one
    one-hidden-layer perceptron's (``mean``, ``std``, ``W1``, ``b1``, ``W2``, ``b2``), or
    ``members``, a list of such nets trained alike from different starting weights, whose P are
    averaged, or boosted trees (``"kind": "trees"``, :class:`vision.boosted.BoostedTrees`)."""

    _WEIGHTS = ("mean", "std", "W1", "b1", "W2", "b2")

    def __init__(self, weights: dict[str, Any], features: tuple[str, ...] = FEATURE_NAMES) -> None:
        if list(weights["features"]) != list(features):
            raise ValueError(f"contact model features {weights['features']} != {features}: "
                             "retrain with python -m vision.train_contact")
        self._trees = None
        self._nets: list[tuple[np.ndarray, ...]] = []
        if weights.get("kind") == "trees":
            from vision.boosted import BoostedTrees

            self._trees = BoostedTrees(weights)
            if self._trees.n_features > len(features):
                raise ValueError(f"contact model trees use {self._trees.n_features} features, "
                                 f"the list names {len(features)}")
            skip: tuple[str, ...] = ("kind", "bias", "trees")
        else:
            members = weights.get("members") or [weights]
            self._nets = [tuple(np.asarray(m[k], np.float32) for k in self._WEIGHTS) for m in members]
            skip = (*self._WEIGHTS, "members")
        self.meta = {k: v for k, v in weights.items() if k not in skip}

    @property
    def size(self) -> int:
        """The number of nets averaged (of trees summed, for boosted trees)."""
        return self._trees.size if self._trees is not None else len(self._nets)

    @property
    def kind(self) -> str:
        """``"trees"`` or ``"perceptron"``."""
        return "trees" if self._trees is not None else "perceptron"

    def predict(self, X: np.ndarray) -> np.ndarray:
        if self._trees is not None:
            return self._trees.predict(X)
        X = np.asarray(X, np.float32)
        out = np.zeros(len(X), np.float32)
        for mean, std, W1, b1, W2, b2 in self._nets:
            H = np.tanh(((X - mean) / std) @ W1 + b1)
            out += 1.0 / (1.0 + np.exp(-(H @ W2 + b2)))
        return out / np.float32(len(self._nets))


STAY_FEATURE_NAMES: tuple[str, ...] = (
    "p_on", "dist_seg", "dist_contact", "d_ext", "d_seg_d", "tip_disp", "local_disp", "hand_disp",
    "speed", "local_speed", "since_s", "occ", "is_zone",
    "f_thumb", "f_index", "f_middle", "f_ring", "f_little",
)


#: the "still down?" cues looked at again in later frames (their change since this frame)
_STAY_AHEAD = slice(1, 10)  # dist_seg .. local_speed


def stay_names(offsets: tuple[int, ...]) -> tuple[str, ...]:
    """The feature names of a "still down?" model that looks ``offsets`` frames ahead."""
    base = STAY_FEATURE_NAMES[_STAY_AHEAD]
    return STAY_FEATURE_NAMES + tuple(f"{n}+{d}" for d in offsets for n in (*base, "same"))


def _seg_dist_xy(px: float, py: float, a: list[float], b: list[float]) -> float:
    """Distance from (px, py) to the segment a-b (plain floats)."""
    abx, aby = b[0] - a[0], b[1] - a[1]
    t = ((px - a[0]) * abx + (py - a[1]) * aby) / max(abx * abx + aby * aby, 1e-9)
    t = min(max(t, 0.0), 1.0)
    return math.hypot(px - (a[0] + t * abx), py - (a[1] + t * aby))


class StayReference:
    """What a finger looked like when it went down on its target: the reference of the
    "still down?" cues (a pressing finger does not leave its hold without lifting; MediaPipe
    may distort a pinned finger while the hand moves on, so the cues are relative to this)."""

    def __init__(self, lm: np.ndarray, k: int, t_s: float, target_px: np.ndarray, radius_px: float,
                 is_zone: bool) -> None:
        f = FINGERS[k]
        j = FINGER_JOINTS[f]
        palm = _palm(lm)
        self.k, self.t_s, self.is_zone = k, t_s, is_zone
        self.radius_px = max(float(radius_px), 1.0)
        self.ext = float(np.linalg.norm(lm[j.tip] - lm[j.mcp])) / palm
        self.seg_d = float(np.linalg.norm(lm[j.tip] - lm[j.dip])) / palm
        self._joints = j
        # the reference points as plain floats (x, y), for :meth:`features`
        self._cxy = (float(target_px[0]), float(target_px[1]))
        self._tip_xy = (float(lm[j.tip][0]), float(lm[j.tip][1]))
        local = _local_tip(lm, j.tip)
        self._local_xy = (float(local[0]), float(local[1]))
        centre = palm_centre(lm)
        self._centre_xy = (float(centre[0]), float(centre[1]))

    def features(self, lm: np.ndarray, t_s: float, p_on: float, speed: float, local_speed: float,
                 occ: float) -> np.ndarray:
        """(len(STAY_FEATURE_NAMES),) cues of the finger still being down on its target.
        (Plain float arithmetic on the few landmarks used: this runs several times per
        frame, and numpy's per-call cost on 2-vectors was most of it.)"""
        j = self._joints
        P = lm.tolist()
        w, m9 = P[0], P[9]
        palm = max(math.hypot(w[0] - m9[0], w[1] - m9[1]), 1.0)
        tip, dip, pip, mcp = P[j.tip], P[j.dip], P[j.pip], P[j.mcp]
        cx, cy = self._cxy
        r = self.radius_px
        d_seg = min(_seg_dist_xy(cx, cy, tip, dip), _seg_dist_xy(cx, cy, dip, pip)) / r
        ux, uy = tip[0] - pip[0], tip[1] - pip[1]
        nu = max(math.hypot(ux, uy), 1e-6)
        k_al = _ALONG_EXPECTED * palm / nu
        d_con = math.hypot(tip[0] + k_al * ux - cx, tip[1] + k_al * uy - cy) / r
        ext = math.hypot(tip[0] - mcp[0], tip[1] - mcp[1]) / palm
        seg_d = math.hypot(tip[0] - dip[0], tip[1] - dip[1]) / palm
        ax, ay = m9[0] - w[0], m9[1] - w[1]
        na = max(math.hypot(ax, ay), 1e-6)
        ax, ay = ax / na, ay / na
        dx, dy = tip[0] - w[0], tip[1] - w[1]
        lx, ly = (dx * ax + dy * ay) / palm, (dy * ax - dx * ay) / palm
        ctr = [P[i] for i in (0, 5, 9, 13, 17)]
        mx, my = sum(q[0] for q in ctr) / 5.0, sum(q[1] for q in ctr) / 5.0
        x = np.zeros(len(STAY_FEATURE_NAMES), np.float32)
        x[:13] = (p_on, min(d_seg, 8.0), min(d_con, 8.0), ext / max(self.ext, 1e-3) - 1,
                  seg_d / max(self.seg_d, 1e-3) - 1,
                  math.hypot(tip[0] - self._tip_xy[0], tip[1] - self._tip_xy[1]) / palm,
                  math.hypot(lx - self._local_xy[0], ly - self._local_xy[1]),
                  math.hypot(mx - self._centre_xy[0], my - self._centre_xy[1]) / palm,
                  min(speed, 20.0), min(local_speed, 20.0), min(t_s - self.t_s, 3.0), occ,
                  float(self.is_zone))
        x[13 + self.k] = 1.0
        return x

    def features_ahead(self, x: np.ndarray,
                       future: list[tuple[np.ndarray, float, bool, float, float] | None]) -> np.ndarray:
        """``x`` (this frame's :meth:`features`) extended with, for each later frame in
        ``future`` ((landmarks, time, same target under the finger, speed, local speed) or None
        when the hand was lost there), the change of the cues since this frame and whether
        the finger is still over its target (zeros when lost)."""
        if not future:
            return x
        base = x[_STAY_AHEAD]
        k = len(base) + 1
        out = np.zeros(len(x) + k * len(future), np.float32)
        out[:len(x)] = x
        for i, fut in enumerate(future):
            if fut is None:
                continue
            lm, t_s, same, speed, local_speed = fut
            c = len(x) + i * k
            out[c:c + k - 1] = self.features(lm, t_s, 0.0, speed, local_speed, 0.0)[_STAY_AHEAD] - base
            out[c + k - 1] = float(same)
        return out


def _local_tip(lm: np.ndarray, i: int) -> np.ndarray:
    """Landmark ``i`` in the hand's own frame (wrist origin, palm axis), palm sizes."""
    palm = _palm(lm)
    ax = lm[9] - lm[0]
    ax = ax / max(float(np.linalg.norm(ax)), 1e-6)
    R = np.array([ax, [-ax[1], ax[0]]])
    return ((lm[i] - lm[0]) @ R.T) / palm
