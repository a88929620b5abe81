"""Calibration benchmark on synthetic renders whose answer is known: prints the figures.

    python -m calibration.bench            # 1280x720 webcam-like camera (about a minute)
    python -m calibration.bench --quick    # 640x480, fewer views

Targets (issue 5): fx, fy within 0.5 %; principal point within 2 px; the lens reproducing the
true projection within 0.3 px over the image; table homography <= 0.5 mm RMS over the route
area (600 x 400 mm); deliberately bad inputs rejected with the right reason.
"""

from __future__ import annotations

import argparse
import time

import cv2
import numpy as np

from calibration.colours import card_regions, fit_colour_model
from calibration.file import Calibration, Lens
from calibration.intrinsics import (
    calibrate_views, compare_lenses_px, detect_views, seen_grid_points,
)
from calibration.patterns import parse_pattern
from calibration.synthetic import (
    SyntheticCamera, colour_card_scene, default_camera, render_board_views, table_scene,
)
from calibration.table import MarkerLayout, fit_table
from calibration.targets import marker_layout


def _lens_figures(name: str, rep, truth: Lens, t_s: float) -> Lens | None:
    ln = rep.lens
    if ln is None:
        print(f"{name}: no lens ({rep.reason_codes})")
        return None
    full_raw = compare_lenses_px(truth, ln, compensate_rotation=False)
    full_rot = compare_lenses_px(truth, ln)
    seen = seen_grid_points(rep.views_used, truth.image_size)
    seen_rot = compare_lenses_px(truth, ln, points_px=seen)
    print(f"{name}: {len(rep.views_used)} views, RMS {rep.rms_px:.3f} px, {t_s:.1f} s")
    f95 = 100 * 1.96 * rep.stddev["fx"] / ln.fx
    print(f"   fx {100 * (ln.fx / truth.fx - 1):+.3f} %  fy {100 * (ln.fy / truth.fy - 1):+.3f} %"
          f"  (1.96 sigma {f95:.3f} %)   cx {ln.cx - truth.cx:+.2f} px"
          f"  cy {ln.cy - truth.cy:+.2f} px")
    print(f"   projection vs truth, whole image: max {full_rot.max():.3f} px, 95 % "
          f"{np.percentile(full_rot, 95):.3f} px (rotation-compensated); raw max "
          f"{full_raw.max():.3f} px, 95 % {np.percentile(full_raw, 95):.3f} px")
    print(f"   projection vs truth, where the board was seen ({len(seen)} of "
          f"{len(full_rot)} grid points): max {seen_rot.max():.3f} px")
    cv = rep.cross_validation or {}
    print(f"   split-half cross-validation 95 %: {cv.get('p95_px', float('nan')):.3f} px; "
          f"coverage score {rep.coverage['score']:.2f}, cells {rep.coverage['cells_covered']:.0%}"
          f"; verdict {'ACCEPT' if rep.accepted else 'REJECT ' + str(rep.reason_codes)}")
    return ln


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="640x480 and fewer views")
    ap.add_argument("--views", type=int, default=None)
    args = ap.parse_args(argv)
    size = (640, 480) if args.quick else (1280, 720)
    n = args.views or (24 if args.quick else 40)
    cam = default_camera(size)
    truth = Lens(cam.image_size, cam.K, cam.dist)
    print(f"camera {size[0]}x{size[1]}: fx {cam.fx:.2f} fy {cam.fy:.2f} cx {cam.cx:.2f} "
          f"cy {cam.cy:.2f} dist {np.round(cam.dist, 4).tolist()}")
    t0 = time.time()
    synth = SyntheticCamera(cam)
    print(f"(renderer set-up {time.time() - t0:.1f} s)\n\n== Lens ==")

    estimated: Lens | None = None
    sets = [("chessboard:9x6", 25.0, None), ("charuco:8x11", 22.0, 16.0)]
    for spec, sq, mk in sets:
        pat = parse_pattern(spec, sq, mk)
        t = time.time()
        imgs, _ = render_board_views(pat, cam, n, seed=2, synth=synth, fill=(0.3, 0.6))
        t_render = time.time() - t
        t = time.time()
        views = detect_views([(f"v{i:02d}", g) for i, g in enumerate(imgs)], pat)
        rep = calibrate_views(views, pat)
        ln = _lens_figures(f"{spec} (render {t_render:.0f} s)", rep, truth, time.time() - t)
        if spec.startswith("charuco"):
            estimated = ln
        if spec.startswith("chessboard"):
            obj, img = [], []
            for v in views:
                if v.detection is not None:
                    obj.append(v.detection.object_mm)
                    img.append(v.detection.image_px)
            rms, K, dist, _, _ = cv2.calibrateCamera(obj, img, size, None, None)
            d = compare_lenses_px(Lens(size, K, dist.ravel()[:5]), rep.lens,
                                  compensate_rotation=False,
                                  points_px=seen_grid_points(rep.views_used, size))
            print(f"   plain cv2.calibrateCamera on the same corners: fx {K[0, 0]:.3f} vs "
                  f"{rep.lens.fx:.3f}, RMS {rms:.3f}; projections differ by max {d.max():.4f} px")

    print("\n== Bad inputs (verdicts) ==")
    pat = parse_pattern("chessboard:9x6", 25)
    bad_sets = {
        "3 views": dict(n=3),
        "all views in one corner": dict(n=16, region=(0.0, 0.0, 0.4, 0.4), fill=(0.2, 0.3)),
        "blurred (sigma 4 px)": dict(n=14, blur_sigma_px=4.0 * size[0] / 640),
        "never tilted (< 8 deg)": dict(n=20, max_tilt_deg=8.0),
    }
    for name, kw in bad_sets.items():
        k = kw.pop("n")
        imgs, _ = render_board_views(pat, cam, k, seed=3, synth=synth, **kw)
        rep = calibrate_views(detect_views([(f"v{i}", g) for i, g in enumerate(imgs)], pat), pat)
        fx = f"fx {100 * (rep.lens.fx / truth.fx - 1):+.2f} %, RMS {rep.rms_px:.2f} px" \
            if rep.lens else "no fit"
        print(f"{name:>26}: {'ACCEPT' if rep.accepted else 'REJECT'} {rep.reason_codes} ({fx})")
    imgs, _ = render_board_views(pat, cam, 3, seed=3, synth=synth)
    wrong = parse_pattern("chessboard:8x6", 25)
    rep = calibrate_views(detect_views([(f"v{i}", g) for i, g in enumerate(imgs)], wrong), wrong)
    print(f"{'wrong size (8x6 for 9x6)':>26}: {'ACCEPT' if rep.accepted else 'REJECT'} "
          f"{rep.reason_codes}")

    print("\n== Table plane (markers 50 mm, centres 600 x 400 mm; error over the route area) ==")
    layout = marker_layout(600, 400, 50)
    gx, gy = np.meshgrid(np.linspace(0, 600, 31), np.linspace(0, 400, 21))
    pts = np.column_stack([gx.ravel(), gy.ravel()])
    for eye in [(300, -250, 750), (100, -400, 600), (300, 200, 900)]:
        img, pcam = table_scene(cam, layout, eye_mm=eye, target_mm=(300, 200, 0), synth=synth)
        row = []
        for label, ln in [("true lens", truth), ("estimated lens", estimated), ("no lens", None)]:
            fit = fit_table(img, MarkerLayout.from_dict(layout), ln)
            err = np.linalg.norm(Calibration(lens=ln, table=fit.table).image_to_table_mm(
                pcam.project(pts)) - pts, axis=1)
            row.append(f"{label}: {np.sqrt(np.mean(err ** 2)):.3f} mm RMS (max {err.max():.2f}, "
                       f"marker residual {fit.table.residual_rms_mm:.2f})")
        print(f"camera at {eye} mm:\n   " + "\n   ".join(row))

    print("\n== Colours (printed card) ==")
    for name, light, noise in [("neutral light", (1, 1, 1), 2), ("warm light", (0.55, 0.8, 1.0), 2),
                               ("dim warm light", (0.04, 0.1, 0.2), 3)]:
        img = colour_card_scene(cam, light_bgr=light, noise_sigma=noise, synth=synth)
        regions = card_regions(img)
        model = fit_colour_model(img, regions)
        acc = np.mean([np.mean(model.classify(model.lab(img[m]))[0] == c)
                       for c, m in regions.items()])
        close = model.separability()[0]
        print(f"{name:>15}: patch pixels classified right {100 * acc:.1f} %; closest pair "
              f"{close['a']}/{close['b']} Mahalanobis {close['mahalanobis']:.1f}; "
              f"{len(model.warnings)} warning(s)")
        for w in model.warnings:
            print(f"{'':>17}- {w}")
    print(f"\ntotal {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
