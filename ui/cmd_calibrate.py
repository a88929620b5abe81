"""``arbitre calibrate``: lens, table plane and colours, and the printable targets.

Every command that takes ``--out CAL`` adds or replaces its own section of that calibration
file and keeps the others, so one file gathers the lens, the table plane and the colours.
Exit codes: 0 accepted / written, 1 computed but rejected by the verdict (or camera moved),
2 bad input (with a message, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ui.errors import UserError


def register(subparsers: argparse._SubParsersAction) -> None:
    group = subparsers.add_parser(
        "calibrate", help="calibrate the camera: lens, table plane, colours; print targets",
        description="Calibrate the camera once: the lens (intrinsics), the table plane "
                    "(pixels to millimetres) and the colours, into one commented text file.")
    group.set_defaults(func=None, parser=group)
    sub = group.add_subparsers(dest="calibrate_command", metavar="STEP")

    p = sub.add_parser("intrinsics", help="lens calibration from photos or a video of a board",
                       description="Calibrate the lens from photos or videos of a chessboard or "
                                   "ChArUco board and judge the result (verdict + advice).")
    p.add_argument("inputs", nargs="*", metavar="IMAGES_OR_VIDEO",
                   help="image files, folders of images, or videos (frames are sampled)")
    p.add_argument("--camera", type=int, metavar="INDEX",
                   help="live camera instead of files: move the board around; a view is kept "
                        "each time the board is found somewhere new (up to --max-frames)")
    p.add_argument("--timeout-s", type=float, default=180.0, help="live camera: stop after")
    _pattern_args(p, required=True)
    p.add_argument("--fix-k3", action="store_true",
                   help="keep k3 at 0 (fewer parameters; for mild lenses and few views)")
    p.add_argument("--sb", action="store_true",
                   help="chessboard: use findChessboardCornersSB (slower, more robust)")
    p.add_argument("--max-frames", type=int, default=40, help="frames sampled per video")
    p.add_argument("--out", metavar="CAL", help="write/update this calibration file")
    p.add_argument("--force", action="store_true", help="write --out even if rejected")
    p.add_argument("--coverage-png", metavar="PNG", help="write a corner coverage heat map")
    p.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    p.set_defaults(func=_cmd_intrinsics)

    p = sub.add_parser("print-board", help="a ChArUco board to print at exact size (PDF + PNG)")
    p.add_argument("--pattern", default="charuco:8x11", help="charuco:COLSxROWS squares")
    p.add_argument("--square-mm", type=float, default=22.0)
    p.add_argument("--marker-mm", type=float, default=16.0)
    p.add_argument("--dict", default="6x6_250", dest="dictionary")
    p.add_argument("--out", default="charuco_board.pdf", metavar="PDF")
    p.add_argument("--png", metavar="PNG", help="also a PNG (default: next to the PDF)")
    p.add_argument("--dpi", type=int, default=300)
    p.set_defaults(func=_cmd_print_board)

    p = sub.add_parser("print-markers",
                       help="four ArUco corner markers for the table, with their placement")
    p.add_argument("--marker-mm", type=float, default=50.0, help="printed marker side, mm")
    p.add_argument("--markers-mm", default="600x400", metavar="WxH",
                   help="distance between marker centres, x by y, mm (the route area)")
    p.add_argument("--dict", default="4x4_50", dest="dictionary")
    p.add_argument("--out", default="table_markers.pdf", metavar="PDF")
    p.add_argument("--png", metavar="PNG", help="also a PNG (default: next to the PDF)")
    p.add_argument("--dpi", type=int, default=300)
    p.set_defaults(func=_cmd_print_markers)

    p = sub.add_parser("table", help="the table plane (pixels to mm) from the 4 corner markers")
    p.add_argument("image", help="a photo/frame of the table with the four markers")
    _marker_args(p)
    p.add_argument("--calibration", metavar="CAL", help="calibration file with the lens")
    p.add_argument("--out", metavar="CAL", help="write/update this calibration file")
    p.add_argument("--preview", metavar="PNG", help="write a top-down view of the table")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_table)

    p = sub.add_parser("check-table", help="has the camera moved since the table calibration?")
    p.add_argument("image", help="a frame of the table now")
    p.add_argument("--calibration", metavar="CAL", required=True)
    p.add_argument("--threshold-px", type=float, default=1.0,
                   help="median marker-corner shift that counts as moved, pixels")
    p.add_argument("--threshold-mm", type=float, default=2.0,
                   help="median shift on the table that counts as moved, mm")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_check_table)

    p = sub.add_parser("colours", help="sample the ring colours into a colour model")
    p.add_argument("image", help="a photo under the session's light")
    p.add_argument("--card", action="store_true",
                   help="sample the printed colour card (see print-colour-card) in the image")
    p.add_argument("--region", action="append", default=[], metavar="NAME=X,Y,W,H",
                   help="a pixel box of one colour (white is required unless --card); repeat "
                        "per colour; overrides the card's patch of the same name")
    p.add_argument("--calibration", metavar="CAL", help="(checked when given)")
    p.add_argument("--out", metavar="CAL", help="write/update this calibration file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_colours)

    p = sub.add_parser("print-colour-card", help="a colour reference card to print (PDF + PNG)")
    p.add_argument("--out", default="colour_card.pdf", metavar="PDF")
    p.add_argument("--png", metavar="PNG", help="also a PNG (default: next to the PDF)")
    p.add_argument("--dpi", type=int, default=300)
    p.set_defaults(func=_cmd_print_colour_card)

    p = sub.add_parser("check", help="validate a calibration file and summarise it")
    p.add_argument("calibration", metavar="CAL")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_check)


# --------------------------------------------------------------------------------------------


def _pattern_args(p: argparse.ArgumentParser, required: bool) -> None:
    p.add_argument("--pattern", required=required, metavar="KIND:COLSxROWS",
                   help="chessboard:9x6 (inner corners) or charuco:5x7 (squares)")
    p.add_argument("--square-mm", type=float, required=required, help="square side, mm")
    p.add_argument("--marker-mm", type=float,
                   help="ChArUco marker side, mm (default 0.75 x square)")
    p.add_argument("--dict", default="6x6_250", dest="dictionary", help="ChArUco dictionary")
    p.add_argument("--legacy-charuco", action="store_true",
                   help="a ChArUco board made by OpenCV <= 4.5.5 (even number of rows)")


def _marker_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--markers-mm", metavar="WxH",
                   help="distance between marker centres (x by y, mm), as printed by "
                        "print-markers; or give --layout")
    p.add_argument("--layout", metavar="JSON", help="the JSON sidecar written by print-markers")
    p.add_argument("--marker-size-mm", type=float, default=50.0, help="printed marker side, mm")
    p.add_argument("--dict", default="4x4_50", dest="dictionary")


def _load_cal(path: str | None):
    from calibration.file import CalibrationFileError, load_calibration

    if path is None:
        return None
    try:
        return load_calibration(path)
    except CalibrationFileError as exc:
        raise UserError(str(exc)) from None


def _update_file(out: str, **sections: Any) -> None:
    """Add/replace sections of the calibration file ``out`` (created when missing)."""
    from calibration.file import Calibration, save_calibration

    if not Path(out).parent.is_dir():
        raise UserError(f"{out}: the folder {Path(out).parent} does not exist")
    cal = _load_cal(out) if Path(out).exists() else Calibration()
    for key, value in sections.items():
        if key == "inputs":
            cal.inputs.update(value)
        else:
            setattr(cal, key, value)
    from calibration.file import Calibration as _C

    cal.created_utc = _C().created_utc
    try:
        save_calibration(cal, out)
    except OSError as exc:
        raise UserError(f"{out}: cannot write the calibration file: {exc}") from None


def _progress(desc: str):
    from tqdm import tqdm

    return lambda it: tqdm(it, desc=desc, unit="img", file=sys.stderr, disable=None)


def _finite(obj: Any) -> Any:
    """NaN and infinities become null: strict JSON readers reject them."""
    import math

    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    if hasattr(obj, "tolist"):
        return _finite(obj.tolist())
    return obj


def _print_json(obj: Any) -> None:
    print(json.dumps(_finite(obj), indent=2, allow_nan=False))


def _cmd_intrinsics(args: argparse.Namespace) -> int:
    from calibration.intrinsics import calibrate_intrinsics, write_coverage_png
    from calibration.patterns import parse_pattern

    try:
        pattern = parse_pattern(args.pattern, args.square_mm, args.marker_mm, args.dictionary)
        if args.legacy_charuco:
            from dataclasses import replace

            pattern = replace(pattern, legacy=True)
    except ValueError as exc:
        raise UserError(f"--pattern: {exc}") from None
    frames_in = None
    if args.camera is not None:
        if args.inputs:
            raise UserError("give either image/video files or --camera, not both")
        from calibration.intrinsics import capture_views

        print(f"camera {args.camera}: move the board slowly over the whole picture, tilted "
              f"up to 45 degrees; {args.max_frames} views or {args.timeout_s:g} s",
              file=sys.stderr)
        frames_in = capture_views(args.camera, pattern, max_views=args.max_frames,
                                  timeout_s=args.timeout_s,
                                  log=lambda m: print(m, file=sys.stderr))
    elif not args.inputs:
        raise UserError("give image files, folders or videos of the board, or --camera INDEX")
    try:
        rep = calibrate_intrinsics(args.inputs, pattern, fix_k3=args.fix_k3, sb=args.sb,
                                   max_video_frames=args.max_frames,
                                   progress=None if frames_in is not None else
                                   _progress("detecting"), frames_in=frames_in)
    except ValueError as exc:
        raise UserError(f"{exc}") from None
    if args.coverage_png and rep.image_size is not None:
        try:
            write_coverage_png(rep, args.coverage_png)
        except ValueError as exc:
            raise UserError(str(exc)) from None
    wrote = None
    dropped_table = False
    if args.out and rep.lens is not None and (rep.accepted or args.force):
        old = _load_cal(args.out) if Path(args.out).exists() else None
        if old is not None and old.table is not None and old.table.undistorted:
            # the homography was fitted on pixels undistorted by the old lens
            dropped_table = True
            _update_file(args.out, table=None)
        _update_file(args.out, lens=rep.lens, inputs={
            "lens": {"inputs": [str(p) for p in args.inputs] or [f"camera {args.camera}"],
                     "pattern": pattern.spec,
                     "square_mm": pattern.square_mm, "marker_mm": pattern.marker_mm,
                     "views_used": [v.name for v in rep.views_used]}})
        wrote = args.out
    note = (f"the table plane in {args.out} was fitted with the previous lens and was removed: "
            f"re-run `arbitre calibrate table`") if dropped_table else None
    if args.json:
        out = rep.to_json()
        out["written"] = wrote
        out["note"] = note
        _print_json(out)
    else:
        _print_intrinsics(rep, wrote, args.out)
        if note:
            print(f"note: {note}")
    return 0 if rep.accepted else 1


def _print_intrinsics(rep, wrote: str | None, out: str | None) -> None:
    j = rep.to_json()
    print(f"pattern {j['pattern']}: {j['views_used']} views used, "
          f"{len(j['views_rejected'])} rejected")
    for v in j["views_rejected"]:
        print(f"  rejected {v['name']}: {v['reason']}")
    if rep.lens is not None:
        s = rep.stddev
        print(f"RMS {j['rms_px']:.3f} px")
        print(f"fx {j['fx']:.2f} ± {1.96 * s.get('fx', 0):.2f}  fy {j['fy']:.2f} ± "
              f"{1.96 * s.get('fy', 0):.2f}  cx {j['cx']:.2f} ± {1.96 * s.get('cx', 0):.2f}  "
              f"cy {j['cy']:.2f} ± {1.96 * s.get('cy', 0):.2f}  (95 %)")
        print("dist k1 k2 p1 p2 k3: " + " ".join(f"{d:.5f}" for d in j["dist"]))
        cv = j["cross_validation"]
        if cv:
            print(f"split-half cross-validation: {cv['mean_px']:.3f} px mean, "
                  f"{cv['p95_px']:.3f} px 95th percentile where the board was seen, "
                  f"{cv['p95_px_whole_image']:.3f} px over the whole image")
        c = j["coverage"]
        print(f"coverage score {c['score']:.2f}, {100 * c['cells_covered']:.0f} % of cells")
    status = j["verdict"]["status"].upper()
    print(f"VERDICT: {status}")
    for r in j["verdict"]["reasons"]:
        print(f"  - {r['message']}")
    for w in j["verdict"]["warnings"]:
        print(f"  warning: {w}")
    if j["advice"]:
        print("ADVICE:")
        for a in j["advice"]:
            print(f"  * {a}")
    if wrote:
        print(f"wrote {wrote}")
    elif out:
        print(f"not written to {out}: the calibration was rejected (use --force to write it)")


def _cmd_check(args: argparse.Namespace) -> int:
    cal = _load_cal(args.calibration)
    summary: dict[str, Any] = {"file": args.calibration, "created_utc": cal.created_utc,
                               "lens": None, "table": None, "colours": None}
    if cal.lens is not None:
        ln = cal.lens
        summary["lens"] = {"image_size": list(ln.image_size), "fx": ln.fx, "fy": ln.fy,
                           "cx": ln.cx, "cy": ln.cy, "dist": ln.dist.tolist(),
                           "quality": ln.quality}
    if cal.table is not None:
        summary["table"] = {"residual_rms_mm": cal.table.residual_rms_mm,
                            "undistorted": cal.table.undistorted}
    if cal.colours is not None:
        summary["colours"] = {"names": cal.colours.names, "warnings": cal.colours.warnings}
    if args.json:
        _print_json(summary)
    else:
        print(f"{args.calibration}: valid, made {cal.created_utc}")
        for k in ("lens", "table", "colours"):
            print(f"  {k}: {'yes' if summary[k] else 'no'}"
                  + (f" {summary[k]}" if summary[k] and k != "lens" else ""))
        if summary["lens"]:
            ln = summary["lens"]
            print(f"  lens {ln['image_size'][0]}x{ln['image_size'][1]} fx {ln['fx']:.2f} "
                  f"fy {ln['fy']:.2f} cx {ln['cx']:.2f} cy {ln['cy']:.2f}")
    return 0


def _png_path(args: argparse.Namespace) -> str:
    return args.png or str(Path(args.out).with_suffix(".png"))


def _cmd_print_board(args: argparse.Namespace) -> int:
    from calibration.patterns import parse_pattern
    from calibration.targets import charuco_page

    try:
        pattern = parse_pattern(args.pattern, args.square_mm, args.marker_mm, args.dictionary)
        page, _ = charuco_page(pattern)
    except ValueError as exc:
        raise UserError(f"print-board: {exc}") from None
    png = _png_path(args)
    try:
        page.save_pdf(args.out)
        page.save_png(png, args.dpi)
    except OSError as exc:
        raise UserError(f"cannot write the board: {exc}") from None
    print(f"wrote {args.out} and {png} (A4, {pattern.spec}, square {pattern.square_mm:g} mm, "
          f"marker {pattern.marker_mm:g} mm, {pattern.dictionary}); print at 100 % and check the "
          f"100 mm ruler")
    return 0


def _parse_wxh(text: str, what: str) -> tuple[float, float]:
    try:
        w, h = (float(v) for v in text.lower().split("x"))
    except ValueError:
        raise UserError(
            f"{what}: expected WIDTHxHEIGHT in mm, e.g. 600x400; got {text!r}") from None
    if w <= 0 or h <= 0:
        raise UserError(f"{what}: sizes must be positive, got {text!r}")
    return w, h


def _cmd_print_markers(args: argparse.Namespace) -> int:
    from calibration.patterns import aruco_dictionary
    from calibration.targets import marker_layout, markers_page, write_layout_json

    w, h = _parse_wxh(args.markers_mm, "--markers-mm")
    try:
        aruco_dictionary(args.dictionary)
        layout = marker_layout(w, h, args.marker_mm, args.dictionary)
        page = markers_page(layout)
    except ValueError as exc:
        raise UserError(f"print-markers: {exc}") from None
    png = _png_path(args)
    sidecar = str(Path(args.out).with_suffix(".json"))
    try:
        page.save_pdf(args.out)
        page.save_png(png, args.dpi)
        write_layout_json(layout, sidecar)
    except OSError as exc:
        raise UserError(f"cannot write the markers: {exc}") from None
    print(f"wrote {args.out}, {png} and the layout {sidecar}: markers {args.marker_mm:g} mm, "
          f"centres {w:g} x {h:g} mm apart")
    return 0


def _read_image(path: str):
    import cv2

    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        raise UserError(f"{path}: not a readable image")
    return img


def _layout(args: argparse.Namespace):
    from calibration.table import MarkerLayout

    try:
        if args.layout:
            return MarkerLayout.load(args.layout)
        if not args.markers_mm:
            raise UserError("give the marker layout: --markers-mm WIDTHxHEIGHT (distance between "
                            "marker centres, as printed by print-markers) or --layout JSON")
        w, h = _parse_wxh(args.markers_mm, "--markers-mm")
        return MarkerLayout.rectangle(w, h, args.marker_size_mm, args.dictionary)
    except ValueError as exc:
        raise UserError(str(exc)) from None


def _cmd_table(args: argparse.Namespace) -> int:
    import cv2

    from calibration.file import Calibration
    from calibration.table import fit_table, table_preview

    layout = _layout(args)
    base = _load_cal(args.calibration)
    if base is None and args.out and Path(args.out).exists():
        base = _load_cal(args.out)
    lens = base.lens if base is not None else None
    image = _read_image(args.image)
    try:
        fit = fit_table(image, layout, lens)
    except ValueError as exc:
        raise UserError(f"{args.image}: {exc}") from None
    if args.preview:
        prev = table_preview(image, Calibration(lens=lens, table=fit.table))
        try:
            ok = cv2.imwrite(args.preview, prev)
        except cv2.error:
            ok = False
        if not ok:
            raise UserError(f"{args.preview}: cannot write the image (check the folder and the "
                            f"extension)")
    if args.out:
        if base is not None and args.calibration and args.out != args.calibration and lens:
            _update_file(args.out, lens=lens)
        _update_file(args.out, table=fit.table, inputs={"table": {
            "image": args.image, "layout": layout.to_dict()}})
    out = fit.to_json()
    out["written"] = args.out
    if args.json:
        _print_json(out)
    else:
        print(f"table plane from markers {fit.table.markers['ids']}"
              + (" (lens distortion corrected)" if lens else " (NO lens: distortion ignored)"))
        print(f"residual {fit.table.residual_rms_mm:.2f} mm RMS, worst corner "
              f"{fit.table.residual_max_mm:.2f} mm")
        for w in fit.warnings:
            print(f"  warning: {w}")
        if args.preview:
            print(f"wrote the top-down preview {args.preview}")
        if args.out:
            print(f"wrote {args.out}")
    return 0


def _cmd_check_table(args: argparse.Namespace) -> int:
    from calibration.table import check_table

    cal = _load_cal(args.calibration)
    image = _read_image(args.image)
    try:
        chk = check_table(image, cal, args.threshold_px, args.threshold_mm)
    except ValueError as exc:
        raise UserError(f"{args.calibration}: {exc}") from None
    if args.json:
        _print_json(chk.to_json())
    else:
        print(chk.message)
    return 1 if chk.moved else 0


def _parse_region(text: str) -> tuple[str, tuple[int, int, int, int]]:
    try:
        name, box = text.split("=", 1)
        x, y, w, h = (int(round(float(v))) for v in box.split(","))
    except ValueError:
        raise UserError(f"--region {text!r}: expected NAME=X,Y,W,H in pixels, e.g. "
                        f"white=100,80,40,30") from None
    return name.strip().lower(), (x, y, w, h)


def _cmd_colours(args: argparse.Namespace) -> int:
    from calibration.colours import card_regions, fit_colour_model

    image = _read_image(args.image)
    regions: dict = {}
    if args.card:
        try:
            regions.update(card_regions(image))
        except ValueError as exc:
            raise UserError(f"{args.image}: {exc}") from None
    for text in args.region:
        name, box = _parse_region(text)
        regions[name] = box
    if not regions:
        raise UserError("give the colour card (--card) or regions (--region NAME=X,Y,W,H, with "
                        "white and the five ring colours black, blue, green, yellow, red)")
    try:
        model = fit_colour_model(image, regions)
    except ValueError as exc:
        raise UserError(f"{args.image}: {exc}") from None
    missing = [c for c in ("black", "blue", "green", "yellow", "red") if c not in model.classes]
    sep = model.separability()
    if args.out:
        _load_cal(args.calibration)  # validates it when given
        _update_file(args.out, colours=model, inputs={"colours": {
            "image": args.image, "card": bool(args.card), "regions": args.region}})
    out = {"colours": {n: {"mean_lab": c.mean_lab.round(2).tolist(), "n_pixels": c.n_pixels}
                       for n, c in model.classes.items()},
           "gains_bgr": model.gains_bgr.round(4).tolist(),
           "separability": [{**r, "mahalanobis": round(r["mahalanobis"], 2),
                             "delta_e": round(r["delta_e"], 2)} for r in sep],
           "warnings": model.warnings, "missing_ring_colours": missing, "written": args.out}
    if args.json:
        _print_json(out)
    else:
        for n, c in model.classes.items():
            L, a, b = c.mean_lab
            print(f"{n:>7}: L* {L:5.1f}  a* {a:6.1f}  b* {b:6.1f}  ({c.n_pixels} px)")
        print("closest pairs (pooled Mahalanobis distance, CIE76 ΔE):")
        for r in sep[:5]:
            flag = "  TOO CLOSE" if r["too_close"] else ""
            print(f"  {r['a']}/{r['b']}: {r['mahalanobis']:.1f}, ΔE {r['delta_e']:.1f}{flag}")
        for w in model.warnings:
            print(f"WARNING: {w}")
        if missing:
            print(f"WARNING: no sample of {', '.join(missing)}: the hold detector needs all five")
        if args.out:
            print(f"wrote {args.out}")
    return 0


def _cmd_print_colour_card(args: argparse.Namespace) -> int:
    from calibration.targets import colour_card_page

    page, _ = colour_card_page()
    png = _png_path(args)
    try:
        page.save_pdf(args.out)
        page.save_png(png, args.dpi)
    except OSError as exc:
        raise UserError(f"cannot write the colour card: {exc}") from None
    print(f"wrote {args.out} and {png}: print in colour at 100 %")
    return 0
