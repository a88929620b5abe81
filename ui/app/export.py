"""Exports: the score sheet (CSV and printable HTML) and an annotated clip of an attempt."""

from __future__ import annotations

import csv
import html
import io
import time
from pathlib import Path
from typing import Any

import numpy as np

from ui.app.i18n import event_word, player_word, tr
from ui.app.review_data import FrameReader, Recording
from ui.app.session import GrimpeSession

__all__ = ["annotated_clip", "draw_evidence", "score_sheet_csv", "score_sheet_html"]


def _rows(session: GrimpeSession) -> tuple[list[str], list[list[str]]]:
    t = session.round_table()
    head = [tr("game.players").split(" (")[0]] + [tr("game.round_n", n=r + 1)
                                                  for r in range(t.rounds)] + [tr("game.total")]
    rows = []
    for seat, name in enumerate(t.players):
        cells = ["" if s is None else str(s) for s in t.scores[seat]]
        rows.append([name, *cells, str(t.totals[seat])])
    return head, rows


def score_sheet_csv(session: GrimpeSession, path: str | Path | None = None) -> str:
    """The round table as CSV (player, each round, total); written to ``path`` when given."""
    head, rows = _rows(session)
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(head)
    w.writerows(rows)
    text = buf.getvalue()
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text


def score_sheet_html(session: GrimpeSession, path: str | Path | None = None) -> str:
    """A printable score sheet (A4, plain HTML + CSS): players, rounds, totals, winner(s), the
    route code and every attempt with its automatic and final verdict."""
    head, rows = _rows(session)
    t = session.round_table()
    e = html.escape
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>",
        f"<title>{e(tr('app.title'))} #{session.game_id}</title>",
        "<style>@page{size:A4;margin:15mm}body{font-family:sans-serif}"
        "table{border-collapse:collapse}td,th{border:1px solid #444;padding:4px 10px;"
        "text-align:center}th{background:#eee}.win{font-weight:bold;background:#ffe9a8}"
        "small{color:#555}</style></head><body>",
        f"<h1>{e(tr('app.title'))} — #{session.game_id}</h1>",
        f"<p><small>{e(time.strftime('%Y-%m-%d %H:%M'))} · {e(tr('game.route'))}: "
        f"{e(session.game.route.code())}</small></p>",
        "<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr>",
    ]
    for seat, r in enumerate(rows):
        cls = " class='win'" if seat in t.winners else ""
        parts.append(f"<tr{cls}>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>")
    parts.append("</table>")
    if t.winners:
        names = ", ".join(t.players[i] for i in t.winners)
        key = "game.winners" if len(t.winners) > 1 else "game.winner"
        parts.append(f"<h2>{e(tr(key, names=names))}</h2>")
    parts.append("<h3>" + e(tr("tab.history")) + "</h3><table><tr>"
                 + "".join(f"<th>{e(h)}</th>" for h in tr("history.attempt_cols").split("|")[:6])
                 + "</tr>")
    for a in session.attempts():
        parts.append("<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in (
            a.id, a.round, a.player, _verdict_text(a.auto_verdict),
            _verdict_text(a.final_verdict) + (" *" if a.overrides else ""), a.score)) + "</tr>")
    parts.append("</table><p><small>* " + e(tr("review.overrides")) + "</small></p></body></html>")
    text = "\n".join(parts)
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text


def _verdict_text(v: dict[str, Any] | None) -> str:
    if not v:
        return "-"
    res = tr(f"result.{v.get('result')}")
    fault = v.get("fault") or {}
    return f"{res} {v.get('score', 0)}" + (f" ({fault.get('code')})" if fault else "")


_LINKS = ((0, 1), (1, 2), (2, 3), (3, 4), (0, 5), (5, 6), (6, 7), (7, 8), (5, 9), (9, 10),
          (10, 11), (11, 12), (9, 13), (13, 14), (14, 15), (15, 16), (13, 17), (17, 18),
          (18, 19), (19, 20), (0, 17))


_BGR = {"black": (30, 30, 30), "blue": (220, 90, 30), "green": (60, 160, 30),
        "yellow": (20, 200, 235), "red": (40, 40, 210)}


def draw_evidence(frame_bgr: np.ndarray, record: dict[str, Any], verdict: dict[str, Any] | None,
                  t_s: float, route: dict[str, Any] | None = None) -> np.ndarray:
    """A copy of a recorded frame with its sidecar evidence drawn: the holds the judge saw (in
    their ring colour from ``route``, with their id and confidence), hand skeletons, the fingers
    down and their targets, the events of this frame, and the verdict's fault once reached; the
    words in the window's language (without accents: OpenCV draws ASCII only)."""
    import cv2

    from vision.annotate import ascii_text, draw_other_hand

    def word(x: Any) -> str:
        return ascii_text(player_word(x))

    def kind(x: Any) -> str:
        return ascii_text(event_word(x))

    out = np.array(frame_bgr, copy=True)
    colours = {str(h.get("id")): h.get("colour") for h in (route or {}).get("holds", [])}
    holds = (record.get("detections") or {}).get("holds") or {}
    confs = holds.get("confidence") or []
    for k, (hid, c) in enumerate(zip(holds.get("ids", []), holds.get("centres_px", []))):
        col = _BGR.get(str(colours.get(str(hid))), (200, 200, 200))
        p = (int(round(c[0])), int(round(c[1])))
        cv2.circle(out, p, 14, col, 2, cv2.LINE_AA)
        conf = f" {confs[k]:.2f}" if k < len(confs) else ""
        cv2.putText(out, f"{hid}{conf}", (p[0] + 16, p[1] + 5), cv2.FONT_HERSHEY_SIMPLEX, 0.4,
                    (255, 255, 255), 1, cv2.LINE_AA)
    for hand in record.get("hands", []):
        pts = np.round(np.asarray(hand.get("landmarks_px", []), float)).astype(int)
        if pts.shape != (21, 2):
            continue
        for a, b in _LINKS:
            cv2.line(out, tuple(pts[a]), tuple(pts[b]), (0, 200, 255), 1, cv2.LINE_AA)
        for p in pts[[4, 8, 12, 16, 20]]:
            cv2.circle(out, tuple(p), 4, (0, 0, 255), -1, cv2.LINE_AA)
    y = 22
    for finger, target in sorted((record.get("contacts") or {}).items()):
        cv2.putText(out, f"{word(finger)} -> {word(target)}", (10, y), cv2.FONT_HERSHEY_SIMPLEX, 0.55,
                    (255, 255, 255), 2, cv2.LINE_AA)
        y += 20
    for ev in record.get("events", []):
        txt = f"{kind(ev.get('type'))} {word(ev.get('finger', ''))} {word(ev.get('target', ''))}".strip()
        cv2.putText(out, txt, (10, y), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 255, 255), 2, cv2.LINE_AA)
        y += 20
    h, w = out.shape[:2]
    cv2.putText(out, f"{t_s:7.2f} s", (w - 110, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.55,
                (255, 255, 255), 2, cv2.LINE_AA)
    fault = (verdict or {}).get("fault")
    if fault and t_s + 1e-6 >= float(fault.get("t", 0.0)):
        cv2.rectangle(out, (0, h - 36), (w, h), (0, 0, 200), -1)
        banner = ascii_text(tr("export.fault_banner", code=fault.get("code"), t=float(fault.get("t", 0))))
        cv2.putText(out, banner,
                    (10, h - 11), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 2, cv2.LINE_AA)
        draw_other_hand(out, fault)  # where the other hand touched, when the event says
    return out


def annotated_clip(rec: Recording, out_path: str | Path, verdict: dict[str, Any] | None = None
                   ) -> int:
    """Write the attempt's video with its evidence drawn (mp4v ``.mp4``); returns the number of
    frames written."""
    import cv2

    if rec.video_path is None:
        raise ValueError("this recording has no video to annotate")
    v = verdict if verdict is not None else rec.verdict
    reader = FrameReader(rec.video_path)
    writer = None
    n = 0
    try:
        for i in range(rec.frame_count):
            img = reader.read(i)
            if img is None:
                break
            if writer is None:
                writer = cv2.VideoWriter(str(out_path), cv2.VideoWriter_fourcc(*"mp4v"),
                                         reader.fps, (img.shape[1], img.shape[0]))
            record = rec.record_at(i)
            writer.write(draw_evidence(img, record, v, rec.time_of(i), rec.route))
            n += 1
    finally:
        reader.close()
        if writer is not None:
            writer.release()
    return n
