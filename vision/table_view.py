"""A top-down view of the table, made from an oblique camera image with the route's homography.

A fingertip in a hold lies on the table plane, so in a view rectified to that plane the hold is
a circle, the contact point is where it is on the table, and a finger pressing down looks as it
does from a camera straight above — whatever the camera's tilt. Contact detection on an
oblique camera therefore runs in this view (:class:`TableView`), and the results are mapped back
to the image for drawing. MediaPipe used to look at this view too; it now looks at the camera's
image, and its landmarks are mapped into the view (see
:attr:`vision.pipeline.GrimpeReferee.TRACK_IN_VIEW`: a hand seen obliquely is stretched in the
view, and MediaPipe finds its fingertips better as filmed). Parts of the hand above the table
are distorted by the rectification (a joint h mm up is moved away from the camera by h times
the tangent of the camera's angle from the vertical, 0.6-1 h in our oblique renders); the
fingertips that matter are on the plane.

Measured on rendered oblique climbs (offline replay, seeds 5001-5032, 6001-6016, 7001-7016; the
contact model unchanged): contact-event F1 0.764 -> 0.834, 0.752 -> 0.794, 0.729 -> 0.832.
On top-down cameras the view changes nothing (F1 0.895 -> 0.899), so it is used only when the
camera is oblique (:func:`needs_view`). Those renders drew the hand flat on the table (generator
``synth-1``), so in the view it looked exactly like a hand seen from above. With the camera's
parallax drawn (``synth-2``, 2026-12-03) the view no longer wins or loses: contact classifiers
trained and tested (4-fold by clip) on 44 climbs of seeds 16100-16143 recorded with and without
the view scored F1 0.714 and 0.720 (oblique climbs about 0.5 either way: for a finger pressing
a hold, MediaPipe's fingertip lies a median 1.2 hold radii to the side of it there, against 0.2
from above). With the hand ray-cast along the camera's rays (``synth-3``), on 11 oblique climbs
of seeds 16102-16128 judged by the sixth contact model: F1 0.483 with the view, 0.432 without
(2/11 verdicts either way). On 109 oblique ``synth-3`` climbs (2026-12-03), MediaPipe on the
camera's image with the contact stage in this view gave F1 0.553 against 0.511 with MediaPipe
in the view too (seventh contact model), so MediaPipe no longer looks at the view.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.camera import apply_homography
from vision.observations import HoldsObservation, RouteObservation

__all__ = ["TableView", "needs_view"]


def _local_jacobian(H: np.ndarray, at: np.ndarray) -> np.ndarray:
    """2x2 derivative of the homography ``H`` at point ``at`` (finite differences, 1 unit)."""
    c = apply_homography(H, at[None])[0]
    return np.column_stack([apply_homography(H, (at + [1.0, 0.0])[None])[0] - c,
                            apply_homography(H, (at + [0.0, 1.0])[None])[0] - c])


def needs_view(route: RouteObservation, *, max_anisotropy: float = 1.15,
               max_scale_change: float = 1.2) -> bool:
    """True when the camera looks at the route obliquely: a hold's circle is seen as an ellipse
    longer than ``max_anisotropy`` times its width, or the table's scale (px per mm) changes by
    more than ``max_scale_change`` across the route. False without a route homography."""
    H = route.H_image_from_route
    if H is None or len(route.holds) == 0:
        return False
    H = np.asarray(H, np.float64)
    mm = apply_homography(np.linalg.inv(H), route.holds.centres_px)
    scales, aniso = [], []
    for p in mm:
        sv = np.linalg.svd(_local_jacobian(H, p), compute_uv=False)
        scales.append(float(np.sqrt(sv[0] * sv[1])))
        aniso.append(float(sv[0] / max(sv[1], 1e-9)))
    return max(aniso) > max_anisotropy or max(scales) / max(min(scales), 1e-9) > max_scale_change


@dataclass(frozen=True, eq=False)
class TableView:
    """The table seen from straight above.

    Attributes:
        G_view_from_image: (3, 3) homography from image pixels to view pixels.
        size_wh: (width, height) of the view in pixels.
        px_per_mm: view pixels per table millimetre.
    """

    G_view_from_image: np.ndarray
    size_wh: tuple[int, int]
    px_per_mm: float
    _G_image_from_view: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        G = np.asarray(self.G_view_from_image, np.float64)
        object.__setattr__(self, "G_view_from_image", G)
        # mapping back runs on every frame (landmarks, contact points): invert once
        object.__setattr__(self, "_G_image_from_view", np.linalg.inv(G))

    @property
    def G_image_from_view(self) -> np.ndarray:
        """(3, 3) homography from view pixels back to image pixels."""
        return self._G_image_from_view

    @classmethod
    def for_route(cls, route: RouteObservation, image_wh: tuple[int, int], *, margin_mm: float = 150.0,
                  max_side_factor: float = 1.5, max_pixels_factor: float = 1.0) -> TableView:
        """The view of the route's area plus ``margin_mm`` around it (room for the hand), at the
        image's own resolution near its centre (at most ``max_side_factor`` times the image's
        longer side and ``max_pixels_factor`` times its pixels: MediaPipe's time grows with the
        pixels it is given), oriented like the image (never mirrored)."""
        if route.H_image_from_route is None:
            raise ValueError("a table view needs the route's homography (a route file)")
        H = np.asarray(route.H_image_from_route, np.float64)
        Hi = np.linalg.inv(H)
        pts = [route.holds.centres_px] + [z for z in (route.start_zone_px, route.finish_zone_px) if z is not None]
        mm = apply_homography(Hi, np.vstack(pts))
        x0, y0 = mm.min(0) - margin_mm
        x1, y1 = mm.max(0) + margin_mm
        centre_mm = apply_homography(Hi, np.array([[image_wh[0] / 2.0, image_wh[1] / 2.0]]))[0]
        s = float(np.sqrt(abs(np.linalg.det(_local_jacobian(H, centre_mm)))))
        cap = max_side_factor * max(image_wh)
        pixels = max_pixels_factor * image_wh[0] * image_wh[1]
        s = min(s, cap / max(x1 - x0, y1 - y0), float(np.sqrt(pixels / ((x1 - x0) * (y1 - y0)))))
        w, h = round((x1 - x0) * s), round((y1 - y0) * s)
        centre = np.array([image_wh[0] / 2.0, image_wh[1] / 2.0])
        for S in (np.array([[s, 0, -s * x0], [0, -s, s * y1], [0, 0, 1.0]]),
                  np.array([[s, 0, -s * x0], [0, s, -s * y0], [0, 0, 1.0]])):
            G = S @ Hi
            if np.linalg.det(_local_jacobian(G, centre)) > 0:  # same handedness as the image
                return cls(G, (w, h), s)
        raise ValueError("the route's homography mirrors the table: cannot make a view")

    def warp(self, frame_bgr: np.ndarray) -> np.ndarray:
        """The view of a camera frame (uint8 BGR, size :attr:`size_wh`)."""
        return cv2.warpPerspective(frame_bgr, self.G_view_from_image, self.size_wh, flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))

    def to_view(self, pts_px: np.ndarray) -> np.ndarray:
        """Image pixels (N, 2) → view pixels (N, 2) float32."""
        return apply_homography(self.G_view_from_image, pts_px).astype(np.float32)

    def to_image(self, pts_view: np.ndarray) -> np.ndarray:
        """View pixels (N, 2) → image pixels (N, 2) float32."""
        return apply_homography(self.G_image_from_view, pts_view).astype(np.float32)

    def route(self, route: RouteObservation) -> RouteObservation:
        """The route observation in view pixels (holds, zones, homography from route mm)."""
        h = route.holds
        centres = apply_homography(self.G_view_from_image, h.centres_px)
        radii = np.array([np.sqrt(abs(np.linalg.det(_local_jacobian(self.G_view_from_image, c)))) * r
                          for c, r in zip(np.asarray(h.centres_px, np.float64), h.radii_px)])
        holds = HoldsObservation(h.ids, h.colours, centres.astype(np.float32),
                                 np.maximum(radii, 1e-3).astype(np.float32), h.confidence, h.detected)

        def zone(z: np.ndarray | None) -> np.ndarray | None:
            return None if z is None else self.to_view(z)

        H = None if route.H_image_from_route is None else self.G_view_from_image @ np.asarray(
            route.H_image_from_route, np.float64)
        cards = {k: self.to_view(v) for k, v in route.cards.items()}
        return RouteObservation(holds, zone(route.start_zone_px), zone(route.finish_zone_px), H, cards,
                                dict(route.card_of_hold), route.frame_index, route.problems)
