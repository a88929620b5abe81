"""`arbitre grimpe judge-video VIDEO`: judge a Grimpe! climb from a video file.

``ui/cmd_grimpe.py`` adds the command to its group with :func:`add_parser`. The heavy modules
(cv2, mediapipe, numpy) are imported inside the handler only.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ui.errors import UserError, check_output_path

__all__ = ["add_parser", "judge_video"]


def add_parser(grimpe_subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``judge-video`` to the ``arbitre grimpe`` group; returns its parser."""
    p = grimpe_subparsers.add_parser(
        "judge-video",
        help="judge one climb from a video file",
        description="Find the route's holds, follow the climbing hand, detect which finger "
        "goes down in which hold and when, and judge the climb with the rules of "
        "'arbitre grimpe judge'. Prints the verdict with the frame and time of every event and "
        "of the fault. Progress on stderr.",
    )
    p.add_argument("video", metavar="VIDEO", help="the video of the climb (e.g. .mp4)")
    p.add_argument("--route", metavar="ROUTE.json",
                   help="the route (holds with positions): hold ids in the verdict follow it; "
                   "without it holds are named h1, h2... from the bottom of the image")
    p.add_argument("--calibration", metavar="CAL", help="calibration file (arbitre calibrate)")
    p.add_argument("--colour-map", metavar="FILE", help='JSON {"colour": "finger", ...}')
    p.add_argument("--json", action="store_true", help="print the verdict as JSON on stdout")
    p.add_argument("--events-out", metavar="EVENTS.jsonl",
                   help="write the detected events (judge format, with frame and confidence)")
    p.add_argument("--annotated-out", metavar="OUT.mp4", help="write an annotated video")
    p.add_argument("--lang", choices=["fr", "en"], default=None,
                   help="language of the text verdict and of the annotated video's words (default: French "
                        "when the system locale is)")
    p.add_argument("--stride", type=int, default=None,
                   help="run the hand tracker on one frame in N (default: ~15 per second)")
    p.set_defaults(func=judge_video)
    return p


def _load_route(path: str | None) -> dict[str, Any] | None:
    if path is None:
        return None
    p = Path(path)
    if not p.is_file():
        raise UserError(f"{p}: no such route file; give the ROUTE.json of the climbed route")
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(f"{p}: not a readable JSON route ({exc})") from None
    holds = data.get("holds") if isinstance(data, dict) else None
    if not isinstance(holds, list) or not holds:
        raise UserError(f"{p}: a route needs a 'holds' list (id, colour, x_mm, y_mm)")
    for i, h in enumerate(holds):
        if not isinstance(h, dict) or not {"id", "colour", "x_mm", "y_mm"} <= set(h):
            raise UserError(f"{p}: holds[{i}] needs id, colour, x_mm and y_mm to be found in a video")
    return data


def judge_video(args: argparse.Namespace) -> int:
    route = _load_route(args.route)
    calibration = None
    if args.calibration:
        try:
            from calibration.file import load_calibration

            calibration = load_calibration(args.calibration)
        except (OSError, ValueError) as exc:
            raise UserError(f"{args.calibration}: cannot use this calibration ({exc})") from None
    colour_map = None
    if args.colour_map:
        from games.grimpe.cards import CatalogError, ColourMap

        try:
            colour_map = ColourMap.load(args.colour_map)
        except (OSError, ValueError, CatalogError) as exc:
            raise UserError(f"{args.colour_map}: bad colour map ({exc})") from None
    if args.stride is not None and args.stride < 1:
        raise UserError(f"--stride {args.stride}: give 1 or more")
    from ui.app.i18n import default_language, overlay_words

    lang = args.lang or default_language()
    # the outputs are checked before the video is judged (a long video: not judged in vain)
    if args.events_out:
        check_output_path(args.events_out, "the events")
    if args.annotated_out:
        check_output_path(args.annotated_out, "the annotated video")

    import cv2
    from tqdm import tqdm

    from vision.annotate import ContactSync
    from vision.pipeline import GrimpeReferee, judge_video_file
    from vision.route_detect import RouteNotFound
    from vision.video import VideoError, VideoReader

    try:
        with VideoReader(args.video) as reader:
            info = reader.info
    except VideoError as exc:
        raise UserError(str(exc)) from None
    state: dict[str, Any] = {"writer": None, "sync": None, "bar": None}

    def make(vr: Any, found: Any) -> Any:
        try:
            return GrimpeReferee(route, calibration, vr.fps, stride=args.stride, colour_map=colour_map,
                                 earlier=found)
        except RouteNotFound as exc:
            raise UserError(f"{args.route}: {exc}") from None

    def start_pass(referee: Any, vr: Any) -> Any:
        # a second pass (the route found late, or hidden holds seen later elsewhere: judged
        # again from the start) starts the annotated video and the progress bar over
        again = state["bar"] is not None
        close_outputs()
        if args.annotated_out:
            writer = cv2.VideoWriter(args.annotated_out, cv2.VideoWriter_fourcc(*"mp4v"), info.fps,
                                     (info.width, info.height))
            if not writer.isOpened():
                raise UserError(f"{args.annotated_out}: OpenCV cannot write a video of this type; "
                                "give a name ending in .mp4")
            state["writer"] = writer
            # each frame drawn with the contact state decided for it (decided a little later)
            state["sync"] = ContactSync(referee, writer.write, overlay_words(lang))
        desc = "judging again from the start (the route seen better)" if again else "judging"
        bar = tqdm(total=info.frame_count or None, desc=desc, unit="frame", disable=None, file=sys.stderr)
        state["bar"] = bar
        sync = state["sync"]

        def shown(i: int, frame: Any, result: Any) -> None:
            if sync is not None and frame is not None:
                sync.push(frame, result)
            bar.update(1)

        return shown

    def close_outputs() -> None:
        if state["bar"] is not None:
            state["bar"].close()
        if state["writer"] is not None:
            state["writer"].release()
            state["writer"] = state["sync"] = None

    referee = None
    try:
        try:
            referee, _ = judge_video_file(args.video, make, on_pass=start_pass,
                                          decode_all=bool(args.annotated_out))
        except VideoError as exc:
            raise UserError(str(exc)) from None
        state["bar"].close()
        verdict = referee.finish()
        if state["sync"] is not None:
            state["sync"].close()
        frames = verdict["frames"]
        if referee.route is None:
            raise UserError(
                f"{args.video}: no route found (no coloured hold rings were recognised in the "
                f"video{'' if route is None else ' that match ' + str(args.route)}); film "
                "the whole route from above, well lit, with the hand away at the start")
        if frames["with_hand"] == 0:
            raise UserError(f"{args.video}: no hand was found in {frames['processed']} frames "
                            "looked at; keep the climbing hand in view")
    finally:
        close_outputs()
        if referee is not None:
            referee.close()
    # the verdict is printed first: a file that cannot be written after all (a disk full)
    # loses only itself
    if args.json:
        print(json.dumps(verdict, indent=1))
    else:
        print(_text(verdict, lang))
    if args.events_out:
        try:
            with open(args.events_out, "w", encoding="utf-8") as f:
                for ev in verdict["events"]:
                    f.write(json.dumps(ev) + "\n")
        except OSError as exc:
            raise UserError(f"{args.events_out}: cannot write the events ({exc}); the verdict "
                            "above is complete") from None
    return 0


#: The text output's own words (the verdict's are :func:`games.grimpe.climb.format_verdict`'s).
_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "events": "Events seen:", "frame": "frame", "card_moved": "card {card} moved",
        "confidence": "confidence",
        "none": "none",
        "order": "  order: {moved} (seen at {t_seen:.2f} s) judged before {before} ({t:.2f} s): "
                 "closer than the timing uncertainty, and the other order would be {fault}",
        "order_points": "  order: {moved} (seen at {t_seen:.2f} s) judged before {before} ({t:.2f} s): "
                        "closer than the timing uncertainty, and the other order would count "
                        "{lost} points fewer (the doubt goes to the climber)",
        "route": "Route: {seen}/{n} holds seen; flagged: {flagged}", "note": "  note: {text}",
        "to_check": "To check in the replay (seen with a confidence below {level}):",
        "camera": "Camera: about {height:.0f} mm above the table, {elevation:.0f}° above it seen from the route",
        "camera_low": ("  advice: the camera is low. Below {low:.0f}° the referee misjudges more "
                       "often (on rendered climbs, 6 in 10 right below 55° against 9 in 10 above "
                       "60°): raise it, or move it over the table"),
    },
    "fr": {
        "events": "Événements vus :", "frame": "image", "card_moved": "carte {card} bougée",
        "confidence": "confiance",
        "none": "aucune",
        "order": "  ordre : {moved} (vu à {t_seen:.2f} s) jugé avant {before} ({t:.2f} s) : "
                 "plus proches que l'incertitude sur les temps, et l'autre ordre donnerait {fault}",
        "order_points": "  ordre : {moved} (vu à {t_seen:.2f} s) jugé avant {before} ({t:.2f} s) : "
                        "plus proches que l'incertitude sur les temps, et l'autre ordre compterait "
                        "{lost} points de moins (le doute profite au grimpeur)",
        "route": "Voie : {seen}/{n} prises vues ; signalées : {flagged}", "note": "  remarque : {text}",
        "to_check": "À vérifier sur le replay (vu avec une confiance sous {level}) :",
        "camera": "Caméra : à environ {height:.0f} mm au-dessus de la table, à {elevation:.0f}° au-dessus vue de la voie",
        "camera_low": ("  conseil : la caméra est basse. Sous {low:.0f}° l'arbitre se trompe plus "
                       "souvent (sur des escalades de synthèse, 6 sur 10 justes sous 55° contre 9 "
                       "sur 10 au-dessus de 60°) : montez-la, ou placez-la au-dessus de la table"),
    },
}
_EVENT_WORDS = {"fr": {"down": "pose", "up": "lâche", "card_moved": "carte bougée",
                       "other_hand": "autre main"}}


#: French for the route detector's notes (:mod:`vision.route_detect` writes them in English),
#: as :func:`games.grimpe.climb.translated` reads them; a note not listed stays as written.
_NOTES_FR: tuple[tuple[str, str], ...] = (
    (r"hold (\S+) \((\w+)\) not seen: placed from the route file",
     "prise {0} ({c1}) non vue : placée d'après le fichier de voie"),
    (r"(\d+) ring\(s\) seen that the route file does not have",
     "{0} anneau(x) vu(s) que le fichier de voie n'a pas"),
    (r"hold (\S+) seen by its colour where the route puts it \(its ring edge was not found\)",
     "prise {0} vue par sa couleur là où la voie la place (le bord de son anneau n'a pas été trouvé)"),
    (r"no route file: hold ids are named from detection \(h1 = lowest in the image\)",
     ("pas de fichier de voie : les prises sont nommées d'après la détection (h1 = la plus "
      "basse de l'image)")),
    (r"Départ/Arrivée cards not found: zones unknown",
     "cartes Départ/Arrivée non trouvées : zones inconnues"),
    (r"zones guessed from the Départ/Arrivée cards \(no route file\)",
     "zones déduites des cartes Départ/Arrivée (pas de fichier de voie)"),
    ((r"the route was found only at ([\d.]+) s \(frame (\d+)\), the cards hidden before: "
      r"the video was judged again from its start with it"),
     ("voie trouvée seulement à {0} s (image {1}), les cartes cachées avant : la vidéo a été "
      "jugée de nouveau depuis le début avec elle")),
    ((r"holds (.+) were seen after the start, up to ([\d.]+) hold radii from where the route file "
      r"put them: the video was judged again from its start with them"),
     ("prises {0} vues après le départ, jusqu'à {1} rayons de prise de là où le fichier de voie "
      "les plaçait : la vidéo a été jugée de nouveau depuis le début avec elles")),
    ((r"the route was found only at ([\d.]+) s \(frame (\d+)\), the cards hidden before: "
      r"what happened before was not judged"),
     "voie trouvée seulement à {0} s (image {1}), les cartes cachées avant : ce qui a précédé n'a pas été jugé"),
)


def _note(text: str, lang: str) -> str:
    """A route note in ``lang`` (French from :data:`_NOTES_FR`; English as written)."""
    from games.grimpe.climb import translated

    return translated(text, lang, _NOTES_FR)


def _text(verdict: dict[str, Any], lang: str = "en") -> str:
    from games.grimpe.climb import DOUBT_LEVEL, PLAYER_WORDS, Verdict, format_verdict

    w = _WORDS.get(lang, _WORDS["en"])
    ew = {**_EVENT_WORDS.get(lang, {}), **PLAYER_WORDS.get(lang, {})}

    def word(x: Any) -> str:
        return ew.get(str(x), str(x))

    def name(ev: dict[str, Any]) -> str:
        return " ".join(word(ev[k]) for k in ("type", "finger") if ev.get(k))

    def line(ev: dict[str, Any]) -> str:
        if ev.get("type") == "card_moved":
            what = w["card_moved"].format(card=ev.get("card", "?"))
        else:
            what = name(ev) + (f" → {word(ev['target'])}" if "target" in ev else "")
        return (f"  {ev['t']:6.2f} s  {w['frame']} {ev.get('frame', '?'):>5}  {what}"
                f"  ({w['confidence']} {ev.get('confidence', 1.0):.2f})")

    core = {k: verdict[k] for k in ("result", "score", "moves", "fault", "warnings", "t_summit")}
    lines = [format_verdict(Verdict.from_json(core), lang), "", w["events"]]
    lines += [line(ev) for ev in verdict["events"]]
    for sw in verdict.get("reordered", []):
        mv, before = sw["moved"], sw["before"]
        if sw.get("fault_avoided"):
            lines.append(w["order"].format(moved=name(mv), t_seen=mv["t_seen"], before=name(before),
                                           t=before["t"], fault=sw["fault_avoided"]))
        else:
            seen, swapped = sw.get("points") or (0, 0)
            lines.append(w["order_points"].format(moved=name(mv), t_seen=mv["t_seen"],
                                                  before=name(before), t=before["t"],
                                                  lost=swapped - seen))
    if verdict.get("to_check"):
        lines.append(w["to_check"].format(level=DOUBT_LEVEL))
        lines += [line(ev) for ev in verdict["to_check"]]
    r = verdict.get("route")
    if r:
        seen = sum(h["seen"] for h in r["holds"])
        lines.append(w["route"].format(seen=seen, n=len(r["holds"]),
                                       flagged=", ".join(r["low_confidence"]) or w["none"]))
        for pr in r["problems"]:
            lines.append(w["note"].format(text=_note(pr, lang)))
    cam = verdict.get("camera")
    if cam:
        from vision.camera import LOW_CAMERA_DEG

        lines.append(w["camera"].format(height=cam["height_mm"], elevation=cam["elevation_deg"]))
        if cam.get("low"):
            lines.append(w["camera_low"].format(low=LOW_CAMERA_DEG))
    return "\n".join(lines)
