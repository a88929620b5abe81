"""The dashboard's main window: Game, Live, Review and History screens.

Screens show the :class:`ui.app.commands.GameKeeper` model and send it commands; the video
source runs in :class:`ui.app.workers.VideoController`'s thread.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from games.base import IllegalMove
from games.grimpe.climb import FAULT_CODES, EventError
from games.grimpe.overrides import OverrideError
from ui.app import commands as cmd
from ui.app.i18n import event_word, language, player_word, tr
from ui.app.review_data import FrameReader, Recording, open_recording
from ui.app.session import SessionError
from ui.app.video import VideoSpec, sample_video_path
from ui.app.widgets import RouteView, ScoreChart, Timeline, VideoView
from ui.app.workers import AttemptResult, JudgeController, LiveFrame, VideoController

__all__ = ["MainWindow"]

USER_ERRORS = (IllegalMove, SessionError, OverrideError, EventError, ValueError, KeyError, OSError)


def _verdict_line(v: dict[str, Any] | None) -> str:
    if not v:
        return "—"
    fault = v.get("fault") or {}
    moves = " + ".join(str(m.get("points")) for m in v.get("moves", []))
    text = f"{tr('result.' + str(v.get('result')))} · {v.get('score', 0)} pts"
    if moves:
        text += f" ({moves})"
    if fault:
        text += f" · {fault.get('code')} @ {float(fault.get('t', 0)):.2f} s"
    return text


def _override_text(o: dict[str, Any]) -> str:
    kind = o.get("kind")
    if kind == "cancel_fault":
        return f"{tr('review.cancel_fault')}: {o.get('code')} @ {float(o.get('t', 0)):.2f} s"
    if kind == "impose_fault":
        return f"{tr('review.impose_fault')}: {o.get('code')} @ {float(o.get('t', 0)):.2f} s"
    if kind == "set_fingers":
        return f"{tr('review.move')} {int(o.get('move', 0)) + 1} → {o.get('fingers')} {tr('review.fingers').lower()}"
    return json.dumps(o, ensure_ascii=False)


class GameScreen(QWidget):
    """Players, route building, attempts, the round table, the chart and the winner."""

    def __init__(self, win: MainWindow) -> None:
        super().__init__()
        self.win = win
        keeper = win.keeper
        # new game
        self.players_edit = QPlainTextEdit()
        self.players_edit.setPlaceholderText("Alice\nBob")
        self.players_edit.setMaximumHeight(90)
        self.rounds_spin = QSpinBox()
        self.rounds_spin.setRange(1, 10)
        self.rounds_spin.setValue(5)
        self.start_btn = start = QPushButton(tr("game.start"))
        start.clicked.connect(self.new_game)
        new_box = QGroupBox(tr("game.new"))
        f = QFormLayout(new_box)
        f.addRow(QLabel(tr("game.players")))
        f.addRow(self.players_edit)
        rounds_row = QHBoxLayout()
        rounds_row.addWidget(QLabel(tr("game.rounds")))
        rounds_row.addWidget(self.rounds_spin)
        rounds_row.addStretch(1)
        rounds_row.addWidget(start)
        f.addRow(rounds_row)
        # status
        self.phase_label = QLabel()
        self.phase_label.setWordWrap(True)
        self.phase_label.setStyleSheet("font-size: 15px; font-weight: bold;")
        self.holds_label = QLabel()
        # route and placement
        self.route_view = RouteView()
        self.route_view.on_slot_clicked = self._slot_clicked
        self.card_combo = QComboBox()
        self.rot_combo = QComboBox()
        for r in ("0", "90", "180", "270"):
            self.rot_combo.addItem(f"{r}°", float(r))
        self.slot_combo = QComboBox()
        self.place_btn = QPushButton(tr("game.place"))
        self.place_btn.clicked.connect(self.place_card)
        place_box = QGroupBox(tr("game.place"))
        pf = QFormLayout(place_box)
        pf.addRow(tr("game.card"), self.card_combo)
        pf.addRow(tr("game.rotation"), self.rot_combo)
        pf.addRow(tr("game.slot"), self.slot_combo)
        pf.addRow(self.place_btn)
        route_row = QHBoxLayout()
        save_route = QPushButton(tr("game.save_route"))
        save_route.clicked.connect(self.save_route_dialog)
        load_route = QPushButton(tr("game.load_route"))
        load_route.clicked.connect(self.load_route_dialog)
        route_row.addWidget(save_route)
        route_row.addWidget(load_route)
        self.place_box = place_box
        # manual / event-log attempt entry
        self.result_combo = QComboBox()
        for r in ("summit", "fault", "incomplete"):
            self.result_combo.addItem(tr(f"result.{r}"), r)
        self.fingers_edit = QLineEdit()
        self.fingers_edit.setPlaceholderText("3 2 2")
        self.fault_combo = QComboBox()
        self.fault_combo.addItems(list(FAULT_CODES) + ["referee"])
        self.record_btn = QPushButton(tr("game.record"))
        self.record_btn.clicked.connect(self.record_manual)
        self.events_btn = QPushButton("EVENTS.jsonl…")
        self.events_btn.clicked.connect(self.record_from_events_dialog)
        self.pending_label = QLabel()
        self.pending_label.setWordWrap(True)
        self.video_verdict_btn = QPushButton(tr("game.record_video_verdict"))
        self.video_verdict_btn.clicked.connect(self.record_video_verdict)
        att_box = QGroupBox(tr("game.record"))
        af = QFormLayout(att_box)
        af.addRow(tr("game.result"), self.result_combo)
        af.addRow(tr("review.fingers"), self.fingers_edit)
        af.addRow(tr("game.fault_code"), self.fault_combo)
        row = QHBoxLayout()
        row.addWidget(self.record_btn)
        row.addWidget(self.events_btn)
        af.addRow(row)
        af.addRow(self.pending_label)
        af.addRow(self.video_verdict_btn)
        self.attempt_box = att_box
        # table, chart, winner
        self.table = QTableWidget()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setMinimumHeight(120)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.verticalHeader().setVisible(False)
        self.chart = ScoreChart()
        self.winner_label = QLabel()
        self.winner_label.setStyleSheet("font-size: 16px; font-weight: bold; color: #8a5a00;")
        self.finish_btn = QPushButton(tr("game.finish"))
        self.finish_btn.clicked.connect(self.finish_game)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #a00000;")

        left = QVBoxLayout()
        left.addWidget(new_box)
        left.addWidget(self.phase_label)
        left.addWidget(self.holds_label)
        left.addWidget(place_box)
        left.addLayout(route_row)
        left.addWidget(att_box)
        left.addWidget(self.message)
        left.addStretch(1)
        middle = QVBoxLayout()
        middle.addWidget(QLabel(tr("game.route")))
        middle.addWidget(self.route_view, 1)
        right = QVBoxLayout()
        right.addWidget(QLabel(tr("game.round_table")))
        right.addWidget(self.table, 1)
        right.addWidget(self.chart, 1)
        right.addWidget(self.winner_label)
        right.addWidget(self.finish_btn)
        lay = QHBoxLayout(self)
        for sub, stretch in ((left, 0), (middle, 1), (right, 1)):
            w = QWidget()
            w.setLayout(sub)
            if sub is left:
                w.setMaximumWidth(340)
            lay.addWidget(w, stretch)
        keeper.subscribe(self.refresh)
        self.refresh()

    # --- commands -------------------------------------------------------------------------------
    def _run(self, command: cmd.Command) -> Any:
        return self.win.run_command(command, self.message)

    def new_game(self) -> None:
        names = [n for n in self.players_edit.toPlainText().splitlines() if n.strip()]
        self._run(cmd.NewGame(names, self.rounds_spin.value()))

    def place_card(self) -> None:
        key = self.slot_combo.currentData()
        number = self.card_combo.currentData()
        if key is None or number is None:
            return
        slot = [int(v) for v in str(key).split(",")]
        self._run(cmd.PlaceCardCommand(int(number), int(slot[0]), int(slot[1]),
                                       float(self.rot_combo.currentData())))

    def record_manual(self) -> None:
        try:
            fingers = [int(x) for x in re.split(r"[\s,;+]+", self.fingers_edit.text().strip()) if x]
        except ValueError:
            self.message.setText(tr("game.illegal", reason="fingers: 2–5, e.g. 3 2 2"))
            return
        try:
            verdict = cmd.manual_verdict(self.result_combo.currentData(), fingers,
                                         self.fault_combo.currentText())
        except SessionError as exc:
            self.message.setText(str(exc))
            return
        self.win.record_verdict(verdict)
        self.fingers_edit.clear()

    def record_video_verdict(self) -> int | None:
        """Record the pending recording with the video judge's verdict."""
        pend = self.win.pending_recording
        if pend is None or pend.verdict is None:
            return None
        return self.win.record_verdict(pend.verdict, result=pend)

    def record_from_events_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "EVENTS.jsonl", "", "JSONL (*.jsonl)")
        if path:
            self.record_from_events(path)

    def record_from_events(self, path: str) -> int | None:
        s = self.win.keeper.session
        if s is None:
            return None
        try:
            verdict = cmd.verdict_from_events(s.route_json(), path)
        except USER_ERRORS as exc:
            self.message.setText(str(exc))
            return None
        return self.win.record_verdict(verdict, events_path=path)

    def finish_game(self) -> None:
        self._run(cmd.FinishGame())

    def save_route_dialog(self) -> None:
        if self.win.keeper.session is None:
            return
        path, _ = QFileDialog.getSaveFileName(self, tr("game.save_route"), "route.json",
                                              "ROUTE.json (*.json)")
        if path and self._run(cmd.SaveRoute(path)):
            self.win.statusBar().showMessage(tr("game.saved_route", path=path), 8000)

    def load_route_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, tr("game.load_route"), "", "ROUTE.json (*.json)")
        if path:
            self._run(cmd.RebuildRoute(path))

    def _slot_clicked(self, slot: tuple[int, int]) -> None:
        i = self.slot_combo.findData(f"{slot[0]},{slot[1]}")
        if i >= 0:
            self.slot_combo.setCurrentIndex(i)

    # --- view -------------------------------------------------------------------------------------
    def refresh(self) -> None:
        s = self.win.keeper.session
        if s is None:
            self.phase_label.setText(tr("game.none"))
            self.holds_label.setText("")
            self.route_view.set_route(None, [])
            self.place_box.setEnabled(False)
            self.attempt_box.setEnabled(False)
            self.finish_btn.setEnabled(False)
            self.table.clear()
            self.table.setRowCount(0)
            self.chart.set_data([], [], 5)
            self.winner_label.setText("")
            return
        g = s.game
        name = s.current_player_name() or ""
        if s.phase == "build":
            text = f"{tr('game.phase.build')} — {tr('game.turn', player=name)}"
        elif s.phase == "climb":
            text = f"{tr('game.phase.climb', round=g.round_no, rounds=g.rounds)} — " \
                   f"{tr('game.turn', player=name)}"
        elif s.phase == "place":
            text = tr("game.phase.place", player=name)
        else:
            text = tr("game.phase.over")
        self.phase_label.setText(f"#{s.game_id} · {text}")
        self.holds_label.setText(tr("game.holds", holds=g.route.hold_count(), trigger=10))
        legal = s.legal_slots()
        self.slot_combo.clear()
        for sl in legal:
            self.slot_combo.addItem(f"({sl[0]},{sl[1]})", f"{sl[0]},{sl[1]}")
        self.card_combo.clear()
        for n in s.unused_cards():
            holds = g.route.catalog[n].holds
            self.card_combo.addItem(f"{n} · " + " ".join(tr("colour." + h.colour) for h in holds), n)
        self.route_view.set_route(s.route_json(), legal, legal[0] if legal else None)
        self.place_box.setEnabled(bool(legal))
        self.attempt_box.setEnabled(s.phase == "climb")
        pend = self.win.pending_recording
        self.pending_label.setText(
            tr("game.pending", name=Path(pend.paths.video).name if pend.paths.video else "?",
               verdict=_verdict_line(pend.verdict)) if pend else "")
        self.video_verdict_btn.setVisible(bool(pend and pend.verdict))
        self.finish_btn.setEnabled(self.win.keeper.store.game(s.game_id).status == "active")
        t = s.round_table()
        reviewed = {a.id for a in s.attempts() if a.overrides}
        self.table.setColumnCount(t.rounds + 2)
        self.table.setRowCount(len(t.players))
        self.table.setHorizontalHeaderLabels(
            [tr("game.players").split(" (")[0]] + [tr("game.round_n", n=i + 1) for i in range(t.rounds)]
            + [tr("game.total")])
        for seat, pname in enumerate(t.players):
            mark = "▶ " if seat == s.current_seat() and s.phase == "climb" else ""
            self.table.setItem(seat, 0, QTableWidgetItem(mark + pname))
            for r, sc in enumerate(t.scores[seat]):
                it = QTableWidgetItem("" if sc is None else str(sc))
                it.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                aid = t.attempt_ids[seat][r]
                if aid is not None and aid in reviewed:
                    it.setText(it.text() + " *")
                self.table.setItem(seat, r + 1, it)
            tot = QTableWidgetItem(str(t.totals[seat]))
            tot.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            if seat in t.winners:
                tot.setBackground(Qt.GlobalColor.yellow)
            self.table.setItem(seat, t.rounds + 1, tot)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.chart.set_data(t.players, [t.cumulative(i) for i in range(len(t.players))], t.rounds)
        if t.winners:
            names = ", ".join(t.players[i] for i in t.winners)
            key = "game.winners" if len(t.winners) > 1 else "game.winner"
            self.winner_label.setText(tr(key, names=names))
        else:
            self.winner_label.setText("")


class LiveScreen(QWidget):
    """The video with its evidence, the source choice, and start/stop of an attempt."""

    def __init__(self, win: MainWindow) -> None:
        super().__init__()
        self.win = win
        self.view = VideoView()
        self.view.set_message(tr("live.no_source"))
        self.source_combo = QComboBox()
        self.source_combo.addItem(tr("live.sample"), "sample")
        self.source_combo.addItem(tr("live.camera"), "camera")
        self.source_combo.addItem(tr("live.file"), "file")
        self.camera_spin = QSpinBox()
        self.camera_spin.setRange(0, 9)
        self.res_combo = QComboBox()
        for w, h in ((640, 480), (1280, 720), (1920, 1080)):
            self.res_combo.addItem(f"{w}×{h}", (w, h))
        open_btn = QPushButton(tr("live.open"))
        open_btn.clicked.connect(self.open_selected)
        close_btn = QPushButton(tr("live.close"))
        close_btn.clicked.connect(self.close_source)
        self.attempt_btn = QPushButton(tr("live.start_attempt"))
        self.attempt_btn.clicked.connect(self.toggle_attempt)
        self.attempt_btn.setMinimumHeight(36)
        self.rec_label = QLabel()
        self.rec_label.setStyleSheet("color: #c00; font-weight: bold;")
        self.evidence = QTextEdit()
        self.evidence.setReadOnly(True)
        self.evidence.setMinimumWidth(260)
        self.evidence.setMaximumWidth(360)
        self.stats_label = QLabel("—")
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #a05000; font-weight: bold;")
        bar = QHBoxLayout()
        bar.addWidget(QLabel(tr("live.source")))
        bar.addWidget(self.source_combo)
        bar.addWidget(QLabel(tr("live.camera")))
        bar.addWidget(self.camera_spin)
        bar.addWidget(QLabel(tr("live.resolution")))
        bar.addWidget(self.res_combo)
        bar.addWidget(open_btn)
        bar.addWidget(close_btn)
        bar.addStretch(1)
        bar.addWidget(self.stats_label)
        side = QVBoxLayout()
        side.addWidget(self.attempt_btn)
        side.addWidget(self.rec_label)
        side.addWidget(QLabel(tr("live.evidence")))
        side.addWidget(self.evidence, 1)
        main = QHBoxLayout()
        main.addWidget(self.view, 1)
        sw = QWidget()
        sw.setLayout(side)
        main.addWidget(sw)
        lay = QVBoxLayout(self)
        lay.addLayout(bar)
        lay.addWidget(self.message)
        lay.addLayout(main, 1)
        self.shortcut = QShortcut(QKeySequence(Qt.Key.Key_Space), self)
        self.shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.shortcut.activated.connect(self.toggle_attempt)

    def open_selected(self) -> None:
        kind = self.source_combo.currentData()
        if kind == "camera":
            w, h = self.res_combo.currentData()
            self.win.open_source(VideoSpec.for_camera(self.camera_spin.value(), w, h))
        elif kind == "file":
            path, _ = QFileDialog.getOpenFileName(self, tr("menu.open_video"), "",
                                                  "Video (*.mp4 *.mkv *.avi *.mov *.webm)")
            if path:
                self.win.open_source(VideoSpec.for_file(path))
        else:
            self.win.open_sample()

    def close_source(self) -> None:
        """Stop reading the source (an attempt being recorded is closed cleanly first)."""
        self.win.video.stop()
        self.view.set_frame(None)
        self.view.set_message(tr("live.no_source"))
        self.stats_label.setText("—")

    def toggle_attempt(self) -> None:
        c = self.win.video
        if not c.running:
            self.message.setText(tr("live.no_source"))
            return
        if c.recording or self.win.attempt_requested:
            self.win.attempt_requested = False
            c.stop_attempt()
        else:
            meta = self.win.attempt_meta()
            self.win.attempt_requested = True
            c.start_attempt(meta)
        self.update_attempt_button()

    def update_attempt_button(self) -> None:
        rec = self.win.attempt_requested
        self.attempt_btn.setText(tr("live.stop_attempt") if rec else tr("live.start_attempt"))
        s = self.win.keeper.session
        who = (s.current_player_name() if s else None) or "?"
        self.rec_label.setText(tr("live.recording", player=who) if rec else "")

    def show_frame(self, lf: LiveFrame) -> None:
        self.view.set_frame(lf.image_bgr)
        c = self.win.video
        self.stats_label.setText(tr("live.fps", fps=c.display_fps, latency_ms=c.latency_ms,
                                    dropped=lf.dropped))
        rf = lf.referee
        lines = [f"t = {lf.frame.t_s:.2f} s · #{lf.frame.index}", tr("live.hands", n=rf.hand_count)]
        seen = {"hands": [{"handedness": h.handedness, "score": h.score}
                          for h in (rf.hands.hands if rf.hands is not None else [])],
                "contacts": rf.contacts or {}}
        lines += [x if x.startswith("  ") else "  " + x for x in _evidence_lines(seen)]
        if rf.move_fingers >= 2:
            from games.grimpe.climb import POINTS

            lines.append(tr("live.move", fingers=rf.move_fingers,
                            points=POINTS.get(rf.move_fingers, 0)))
        elif rf.move_fingers:
            lines.append(tr("live.fingers_down", n=rf.move_fingers))
        if rf.verdict:
            lines.append(tr("live.verdict", result=tr("result." + str(rf.verdict.get("result"))),
                            score=rf.verdict.get("score", 0)))
        if rf.fault:
            from games.grimpe.climb import detail_text

            lines.append(tr("live.fault", code=rf.fault.get("code"),
                            detail=detail_text(str(rf.fault.get("detail", "")), language())))
        cam = rf.camera
        if cam:
            lines.append(tr("live.camera_place", elevation=cam["elevation_deg"], height=cam["height_mm"]))
            if cam.get("low"):
                from vision.camera import LOW_CAMERA_DEG

                lines.append(tr("live.camera_low", low=LOW_CAMERA_DEG))
        if not self.win.video_judging and self.win.referee_note:
            lines.append("")
            lines.append(tr(self.win.referee_note))
        self.evidence.setPlainText("\n".join(lines))


def _evidence_lines(ev: dict[str, Any]) -> list[str]:
    """The evidence panel's lines for one frame's record (:meth:`Recording.evidence_at`): the
    hands, the fingers down, each finger's contact certainty and the events at this frame, in
    the window's language (fingers, zones and event kinds in French; hold ids as they are)."""
    from games.grimpe.cards import FINGERS

    word, kind = player_word, event_word
    lines = []
    for h in ev.get("hands", []):
        side = h.get("handedness")
        lines.append(tr("review.hand", side=tr(f"review.hand_{side}") if side in ("left", "right") else side,
                        score=float(h.get("score", 0))))
    for f, t in (ev.get("contacts") or {}).items():
        lines.append(f"  {word(f)} → {word(t)}")
    det = ev.get("detections") or {}
    if det.get("contact_confidence"):
        lines.append(tr("review.confidence") + " " + " · ".join(
            f"{word(f)} {c:.2f}" for f, c in zip(FINGERS, det["contact_confidence"])))
    for e in ev.get("events_here", []):
        target = e.get("target", e.get("card", ""))
        lines.append(f"{float(e['t']):.2f} s · {kind(e.get('type'))} {word(e.get('finger', ''))}".rstrip()
                     + (f" → {word(target)}" if target not in ("", None) else ""))
        if "confidence" in e:
            lines.append(tr("review.event_confidence", c=float(e["confidence"])))
    return lines


class ReviewScreen(QWidget):
    """Timeline with markers, play/pause/step, slow motion, next event, evidence, overrides."""

    def __init__(self, win: MainWindow) -> None:
        super().__init__()
        self.win = win
        self.rec: Recording | None = None
        self.reader: FrameReader | None = None
        self.frame = 0
        self.attempt_id: int | None = None
        self.overrides: list[dict[str, Any]] = []
        self.final: dict[str, Any] | None = None
        self.view = VideoView()
        self.view.set_message(tr("review.nothing"))
        self.timeline = Timeline()
        self.timeline.on_seek = self.seek
        self.play_btn = QPushButton(tr("review.play"))
        self.play_btn.clicked.connect(self.toggle_play)
        back = QPushButton(tr("review.step_back"))
        back.clicked.connect(lambda: self.seek(self.frame - 1))
        self.step_btn = step = QPushButton(tr("review.step"))
        step.clicked.connect(lambda: self.seek(self.frame + 1))
        nxt = QPushButton(tr("review.next_event"))
        nxt.clicked.connect(self.next_event)
        self.speed_combo = QComboBox()
        for s in (1.0, 0.5, 0.25, 0.1):
            self.speed_combo.addItem(f"{s:g}×", s)
        self.speed_combo.currentIndexChanged.connect(self._speed_changed)
        open_btn = QPushButton(tr("review.open"))
        open_btn.clicked.connect(self.open_dialog)
        self.frame_label = QLabel("—")
        self.title = QLabel()
        self.title.setStyleSheet("font-weight: bold;")
        self.evidence = QTextEdit()
        self.evidence.setReadOnly(True)
        self.auto_label = QLabel("—")
        self.final_label = QLabel("—")
        for lab in (self.auto_label, self.final_label):
            lab.setWordWrap(True)
        self.cancel_btn = QPushButton(tr("review.cancel_fault"))
        self.cancel_btn.clicked.connect(self.cancel_fault)
        self.impose_combo = QComboBox()
        self.impose_combo.addItems(list(FAULT_CODES) + ["referee"])
        impose_btn = QPushButton(tr("review.impose_fault"))
        impose_btn.clicked.connect(self.impose_fault)
        self.move_spin = QSpinBox()
        self.move_spin.setRange(1, 1)
        self.fingers_spin = QSpinBox()
        self.fingers_spin.setRange(2, 5)
        set_btn = QPushButton(tr("review.set_fingers"))
        set_btn.clicked.connect(self.set_fingers)
        clear_btn = QPushButton(tr("review.clear"))
        clear_btn.clicked.connect(self.clear_overrides)
        self.ov_list = QListWidget()
        self.ov_list.setMaximumHeight(80)
        clip_btn = QPushButton(tr("review.export_clip"))
        clip_btn.clicked.connect(self.export_clip_dialog)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #a00000;")
        self.play_timer = QTimer(self)
        self.play_timer.timeout.connect(self._tick)
        self.judge = JudgeController(self)

        controls = QHBoxLayout()
        for w in (open_btn, back, self.play_btn, step, nxt, QLabel(tr("review.speed")),
                  self.speed_combo):
            controls.addWidget(w)
        controls.addStretch(1)
        ov = QGroupBox(tr("review.overrides"))
        of = QFormLayout(ov)
        of.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapAllRows)
        of.addRow(tr("review.auto"), self.auto_label)
        of.addRow(tr("review.final"), self.final_label)
        of.addRow(self.cancel_btn)
        r1 = QHBoxLayout()
        r1.addWidget(self.impose_combo)
        r1.addWidget(impose_btn)
        of.addRow(r1)
        r2 = QHBoxLayout()
        r2.addWidget(QLabel(tr("review.move")))
        r2.addWidget(self.move_spin)
        r2.addWidget(QLabel(tr("review.fingers")))
        r2.addWidget(self.fingers_spin)
        of.addRow(r2)
        of.addRow(set_btn)
        of.addRow(self.ov_list)
        of.addRow(clear_btn)
        side = QVBoxLayout()
        side.addWidget(self.title)
        side.addWidget(QLabel(tr("live.evidence")))
        side.addWidget(self.evidence, 1)
        side.addWidget(ov)
        side.addWidget(clip_btn)
        side.addWidget(self.message)
        sw = QWidget()
        sw.setLayout(side)
        sw.setMinimumWidth(330)
        sw.setMaximumWidth(400)
        left = QVBoxLayout()
        left.addWidget(self.view, 1)
        left.addWidget(self.frame_label)
        left.addWidget(self.timeline)
        left.addLayout(controls)
        lw = QWidget()
        lw.setLayout(left)
        lay = QHBoxLayout(self)
        lay.addWidget(lw, 1)
        lay.addWidget(sw)

    # --- opening ----------------------------------------------------------------------------
    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, tr("review.open"), str(self.win.recordings_dir),
            "Recordings (*.mkv *.mp4 *.avi *.frames.jsonl)")
        if path:
            self.open_path(path)

    def open_path(self, path: str | Path, *, judge: bool = True) -> None:
        """Open a recording (video with sidecar), or judge a plain video first."""
        p = Path(path)
        side = p if p.name.endswith(".frames.jsonl") else p.with_name(p.stem + ".frames.jsonl")
        if side.is_file() or not judge:
            try:
                rec = open_recording(p)
            except USER_ERRORS as exc:
                self.message.setText(str(exc))
                return
            self.load(rec)
            return
        # a plain video: judged in a worker thread, opened when done
        self.message.setText(tr("review.judging", name=p.name, frame=0))
        self.judge.on_progress = lambda i: self.message.setText(
            tr("review.judging", name=p.name, frame=i))
        self.judge.on_failed = self.message.setText
        self.judge.on_done = lambda rec: (self.load(rec), self.message.setText(""))
        from ui.app.video import sample_route

        self.judge.start(p, self.win.recordings_dir / "judged",
                         route=self.win.current_route() or sample_route(p),
                         model_complexity=self.win.model_complexity,
                         use_pipeline=self.win.use_pipeline)

    def open_attempt(self, attempt_id: int) -> None:
        a = self.win.keeper.store.attempt(attempt_id)
        try:
            if a.sidecar_path and Path(a.sidecar_path).is_file():
                rec = open_recording(a.sidecar_path, verdict=a.auto_verdict, route=a.route,
                                     events_path=a.events_path, attempt_id=a.id)
            elif a.video_path and Path(a.video_path).is_file():
                rec = open_recording(a.video_path, verdict=a.auto_verdict, route=a.route,
                                     events_path=a.events_path, attempt_id=a.id)
            else:
                rec = Recording(None, None, [], a.auto_verdict, a.route, None, a.id, [], [
                    f"attempt #{a.id} has no recording"])
                if a.events_path and Path(a.events_path).is_file():
                    rec.events = [json.loads(x) for x in Path(a.events_path).read_text().splitlines() if x.strip()]
                    rec.events_path = Path(a.events_path)
        except USER_ERRORS as exc:
            self.message.setText(str(exc))
            return
        rec.attempt_id = a.id
        self.load(rec, overrides=list(a.overrides), final=a.final_verdict)
        self.title.setText(tr("review.attempt", id=a.id, player=a.player or "?", round=a.round))

    def load(self, rec: Recording, overrides: list[dict[str, Any]] | None = None,
             final: dict[str, Any] | None = None) -> None:
        self.stop()
        if self.reader is not None:
            self.reader.close()
        self.rec = rec
        self.reader = FrameReader(rec.video_path) if rec.video_path else None
        self.attempt_id = rec.attempt_id
        self.overrides = list(overrides or [])
        self.final = final if final is not None else rec.verdict
        self.title.setText(Path(rec.video_path).name if rec.video_path else "")
        self.message.setText("\n".join(rec.problems[:3]))
        self.view.set_message("" if self.reader else tr("review.nothing"))
        self._refresh_verdicts()
        self.seek(0)

    # --- playback -------------------------------------------------------------------------------
    def seek(self, frame: int) -> None:
        rec = self.rec
        if rec is None:
            return
        n = rec.frame_count
        frame = max(0, min(frame, n - 1)) if n else 0
        self.frame = frame
        if self.reader is not None and n:
            img = self.reader.read(frame)
            if img is not None:
                from ui.app.export import draw_evidence

                record = rec.record_at(frame)
                self.view.set_frame(draw_evidence(img, record, self.final, rec.time_of(frame),
                                                  rec.route))
        self.timeline.set_current(frame)
        self.frame_label.setText(tr("review.frame", i=frame + 1, n=n, t=rec.time_of(frame)))
        self._show_evidence()

    def _interval_ms(self) -> int:
        fps = self.reader.fps if self.reader else 30.0
        return max(1, int(1000 / (fps * float(self.speed_combo.currentData()))))

    def _speed_changed(self) -> None:
        if self.play_timer.isActive():
            self.play_timer.setInterval(self._interval_ms())

    def toggle_play(self) -> None:
        if self.play_timer.isActive():
            self.stop()
        elif self.rec is not None and self.rec.frame_count:
            self.play_timer.start(self._interval_ms())
            self.play_btn.setText(tr("review.pause"))

    def stop(self) -> None:
        self.play_timer.stop()
        self.play_btn.setText(tr("review.play"))

    def _tick(self) -> None:
        if self.rec is None or self.frame + 1 >= self.rec.frame_count:
            self.stop()
            return
        self.seek(self.frame + 1)

    def next_event(self) -> None:
        if self.rec is None:
            return
        nxt = self.rec.next_marker_frame(self.frame, self.final)
        if nxt is not None:
            self.seek(nxt)

    def _show_evidence(self) -> None:
        rec = self.rec
        if rec is None:
            return
        ev = rec.evidence_at(self.frame)
        lines = _evidence_lines(ev)
        if not lines:
            lines.append(tr("review.evidence_none"))
        lines.append("")
        for m in rec.markers(self.final):
            if m.kind != "event":
                lines.append(f"{m.t_s:6.2f} s  {m.label}")
        if self.final:
            from games.grimpe.climb import Verdict, format_verdict

            try:
                lines += ["", f"— {tr('review.final')} —",
                          format_verdict(Verdict.from_json(self.final), language())]
            except (KeyError, ValueError, TypeError):
                pass
        self.evidence.setPlainText("\n".join(lines))

    # --- overrides --------------------------------------------------------------------------------
    def _refresh_verdicts(self) -> None:
        rec = self.rec
        self.auto_label.setText(_verdict_line(rec.verdict if rec else None))
        self.final_label.setText(_verdict_line(self.final))
        self.ov_list.clear()
        for o in self.overrides:
            self.ov_list.addItem(_override_text(o))
        nmoves = len((self.final or {}).get("moves", [])) or len((rec.verdict or {}).get("moves", []) if rec else [])
        self.move_spin.setRange(1, max(1, nmoves))
        self.cancel_btn.setEnabled(bool((self.final or {}).get("fault")))
        if rec is not None:
            self.timeline.set_data(rec.frame_count, rec.markers(self.final))

    def _apply(self, overrides: list[dict[str, Any]]) -> bool:
        rec = self.rec
        if rec is None or rec.verdict is None:
            self.message.setText(tr("review.nothing"))
            return False
        try:
            if self.attempt_id is not None:
                final = self.win.run_command(cmd.OverrideAttempt(self.attempt_id, overrides),
                                             self.message, raise_errors=True)
            else:
                final = cmd.reviewed_final(rec.verdict, rec.route,
                                           str(rec.events_path) if rec.events_path else None,
                                           overrides)
        except USER_ERRORS as exc:
            self.message.setText(str(exc))
            return False
        self.overrides, self.final = list(overrides), final
        self.message.setText("")
        self._refresh_verdicts()
        self.seek(self.frame)
        return True

    def cancel_fault(self) -> bool:
        f = (self.final or {}).get("fault")
        if not f:
            return False
        return self._apply(self.overrides + [{"kind": "cancel_fault", "code": f["code"],
                                              "t": float(f["t"]), "reason": "review"}])

    def impose_fault(self, code: str | None = None) -> bool:
        t = self.rec.time_of(self.frame) if self.rec else 0.0
        return self._apply(self.overrides + [{"kind": "impose_fault",
                                              "code": code or self.impose_combo.currentText(),
                                              "t": t, "detail": "review"}])

    def set_fingers(self, move: int | None = None, fingers: int | None = None) -> bool:
        m = (move if move is not None else self.move_spin.value() - 1)
        n = fingers if fingers is not None else self.fingers_spin.value()
        kept = [o for o in self.overrides if not (o.get("kind") == "set_fingers" and o.get("move") == m)]
        return self._apply(kept + [{"kind": "set_fingers", "move": m, "fingers": n,
                                    "reason": "review"}])

    def clear_overrides(self) -> bool:
        return self._apply([])

    def export_clip_dialog(self) -> None:
        if self.rec is None:
            return
        path, _ = QFileDialog.getSaveFileName(self, tr("review.export_clip"),
                                              str(self.win.recordings_dir / "clip.mp4"), "MP4 (*.mp4)")
        if path:
            self.export_clip(path)

    def export_clip(self, path: str | Path) -> int:
        from ui.app.export import annotated_clip

        assert self.rec is not None
        n = annotated_clip(self.rec, path, self.final)
        self.message.setText(tr("review.clip_saved", path=path))
        return n


class HistoryScreen(QWidget):
    """Past games and their attempts; resume a game, review an attempt."""

    def __init__(self, win: MainWindow) -> None:
        super().__init__()
        self.win = win
        self.games = QTableWidget()
        self.games.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.games.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.games.itemSelectionChanged.connect(self._game_selected)
        self.attempts = QTableWidget()
        self.attempts.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.attempts.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.games.verticalHeader().setVisible(False)
        self.attempts.verticalHeader().setVisible(False)
        refresh = QPushButton(tr("history.refresh"))
        refresh.clicked.connect(self.refresh)
        resume = QPushButton(tr("history.resume"))
        resume.clicked.connect(self.resume_selected)
        review = QPushButton(tr("history.review"))
        review.clicked.connect(self.review_selected)
        bar = QHBoxLayout()
        for b in (refresh, resume, review):
            bar.addWidget(b)
        bar.addStretch(1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.games)
        split.addWidget(self.attempts)
        lay = QVBoxLayout(self)
        lay.addLayout(bar)
        lay.addWidget(split, 1)
        self._game_ids: list[int] = []
        self._game_kinds: list[str] = []
        self._attempt_ids: list[int] = []
        win.keeper.subscribe(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        store = self.win.keeper.store
        games = store.games(limit=200)  # every kind: Grimpe and Quoridor
        cols = tr("history.cols").split("|")
        self.games.setColumnCount(len(cols))
        self.games.setHorizontalHeaderLabels(cols)
        self.games.setRowCount(len(games))
        self._game_ids = [g.id for g in games]
        self._game_kinds = [g.kind for g in games]
        for i, g in enumerate(games):
            res = ", ".join((g.result or {}).get("winners", []))
            vals = [g.id, time.strftime("%Y-%m-%d %H:%M", time.localtime(g.created_at)), g.kind,
                    tr(f"status.{g.status}"), ", ".join(g.players), res]
            for j, v in enumerate(vals):
                self.games.setItem(i, j, QTableWidgetItem(str(v)))
        self.games.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.games.horizontalHeader().setStretchLastSection(True)
        cur = self.win.keeper.session
        if cur is not None and cur.game_id in self._game_ids:
            self.games.selectRow(self._game_ids.index(cur.game_id))
        self._game_selected()

    def selected_game(self) -> int | None:
        rows = self.games.selectionModel().selectedRows()
        return self._game_ids[rows[0].row()] if rows else None

    def selected_kind(self) -> str | None:
        rows = self.games.selectionModel().selectedRows()
        return self._game_kinds[rows[0].row()] if rows else None

    def _game_selected(self) -> None:
        gid = self.selected_game()
        if gid is not None and self.selected_kind() == "quoridor":
            self._show_moves(gid)
            return
        atts = self.win.keeper.store.attempts(gid) if gid is not None else []
        cols = tr("history.attempt_cols").split("|")
        self.attempts.setColumnCount(len(cols))
        self.attempts.setHorizontalHeaderLabels(cols)
        self.attempts.setRowCount(len(atts))
        self._attempt_ids = [a.id for a in atts]
        for i, a in enumerate(atts):
            vals = [a.id, a.round, a.player, _verdict_line(a.auto_verdict),
                    _verdict_line(a.final_verdict) + (" *" if a.overrides else ""), a.score,
                    Path(a.video_path).name if a.video_path else "—"]
            for j, v in enumerate(vals):
                self.attempts.setItem(i, j, QTableWidgetItem(str(v)))
        self.attempts.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.attempts.horizontalHeader().setStretchLastSection(True)

    def _show_moves(self, game_id: int) -> None:
        """A Quoridor game's record, one move a row (it has no attempts)."""
        game = self.win.keeper.store.game(game_id)
        moves, players = game.moves, game.players or ("?",)
        cols = tr("history.move_cols").split("|")
        self.attempts.setColumnCount(len(cols))
        self.attempts.setHorizontalHeaderLabels(cols)
        self.attempts.setRowCount(len(moves))
        self._attempt_ids = []
        for i, m in enumerate(moves):
            seat = i % len(players)
            for j, v in enumerate((i + 1, f"P{seat + 1} {players[seat]}", m)):
                self.attempts.setItem(i, j, QTableWidgetItem(str(v)))

    def resume_selected(self) -> None:
        gid = self.selected_game()
        if gid is not None and self.selected_kind() == "quoridor":
            from ui.app.quoridor_commands import OpenQuoridorGame

            screen = self.win.quoridor_screen
            if screen.run(OpenQuoridorGame(gid)) is not None:
                self.win.tabs.setCurrentWidget(screen)
            return
        if gid is not None:
            self.win.run_command(cmd.OpenGame(gid), None)
            self.win.tabs.setCurrentWidget(self.win.game_screen)

    def review_selected(self) -> None:
        rows = self.attempts.selectionModel().selectedRows()
        if rows and self._attempt_ids:
            self.win.review_screen.open_attempt(self._attempt_ids[rows[0].row()])
            self.win.tabs.setCurrentWidget(self.win.review_screen)


class MainWindow(QMainWindow):
    """The dashboard. ``keeper`` holds the game; ``video`` runs the source thread."""

    def __init__(self, keeper: cmd.GameKeeper, recordings_dir: str | Path, *,
                 model_complexity: int = 1, use_pipeline: bool = True) -> None:
        super().__init__()
        self.use_pipeline = use_pipeline
        self.keeper = keeper
        self.recordings_dir = Path(recordings_dir)
        self.model_complexity = model_complexity
        self.pending_recording: AttemptResult | None = None
        self.attempt_requested = False
        self.video_judging = False
        self.referee_note = ""
        self.last_attempt_id: int | None = None
        self.setWindowTitle(tr("app.title"))
        self.video = VideoController(self)
        self.video.on_frame = self._on_frame
        self.video.on_message = self._on_video_message
        self.video.on_attempt_started = self._on_attempt_started
        self.video.on_attempt = self._on_attempt_finished
        self.tabs = QTabWidget()
        self.game_screen = GameScreen(self)
        self.live_screen = LiveScreen(self)
        self.review_screen = ReviewScreen(self)
        self.history_screen = HistoryScreen(self)
        from ui.app.quoridor_panel import QuoridorScreen

        self.quoridor_screen = QuoridorScreen(self)
        self.quoridor_screen.keeper.subscribe(self.history_screen.refresh)
        self.tabs.addTab(self.game_screen, tr("tab.game"))
        self.tabs.addTab(self.live_screen, tr("tab.live"))
        self.tabs.addTab(self.review_screen, tr("tab.review"))
        self.tabs.addTab(self.history_screen, tr("tab.history"))
        self.tabs.addTab(self.quoridor_screen, tr("tab.quoridor"))
        self.setCentralWidget(self.tabs)
        self.source_label = QLabel("—")
        self.referee_label = QLabel("")
        self.statusBar().addPermanentWidget(self.referee_label)
        self.statusBar().addPermanentWidget(self.source_label)
        self._menus()
        self.resize(1280, 800)

    def _menus(self) -> None:
        m = self.menuBar().addMenu(tr("menu.file"))
        for key, fn in (("menu.open_video", self.live_screen.open_selected),
                        ("menu.sample", self.open_sample),
                        ("review.open", self.review_screen.open_dialog),
                        ("menu.export_csv", lambda: self.export_dialog("csv")),
                        ("menu.export_html", lambda: self.export_dialog("html")),
                        ("menu.quit", self.close)):
            a = QAction(tr(key), self)
            a.triggered.connect(fn)
            m.addAction(a)

    # --- commands ---------------------------------------------------------------------------------
    def run_command(self, command: cmd.Command, message: QLabel | None,
                    raise_errors: bool = False) -> Any:
        try:
            result = self.keeper.run(command)
        except USER_ERRORS as exc:
            if raise_errors:
                raise
            text = tr("game.illegal", reason=str(exc))
            if message is not None:
                message.setText(text)
            self.statusBar().showMessage(text, 8000)
            return None
        if message is not None:
            message.setText("")
        self.video_route_changed()
        return result

    def record_verdict(self, verdict: dict[str, Any], *, events_path: str | None = None,
                       result: AttemptResult | None = None) -> int | None:
        """Record the current climber's attempt with ``verdict`` and the pending recording."""
        rec = result or self.pending_recording
        paths = rec.paths if rec else None
        aid = self.run_command(cmd.RecordAttempt(
            verdict,
            video_path=str(paths.video) if paths and paths.video else None,
            sidecar_path=str(paths.sidecar) if paths else None,
            events_path=events_path or (str(paths.events) if paths and rec and rec.verdict else None),
        ), self.game_screen.message)
        if aid is not None:
            self.pending_recording = None
            self.last_attempt_id = aid
            self.statusBar().showMessage(tr("live.attempt_saved", id=aid,
                                            result=tr("result." + str(verdict.get("result"))),
                                            score=verdict.get("score", 0)), 8000)
            self.game_screen.refresh()
        return aid

    def current_route(self) -> dict[str, Any] | None:
        s = self.keeper.session
        return s.route_json() if s is not None else None

    def attempt_meta(self) -> dict[str, Any]:
        s = self.keeper.session
        stamp = time.strftime("%Y%m%dT%H%M%S")
        if s is None or s.phase != "climb":
            return {"stem": f"free-{stamp}", "route": self.current_route()}
        seat = s.current_seat()
        name = re.sub(r"[^\w-]+", "_", s.current_player_name() or "player")
        return {"stem": f"g{s.game_id}-r{s.game.round_no}-s{seat}-{name}-{stamp}",
                "game_id": s.game_id, "round": s.game.round_no, "seat": seat,
                "player": s.current_player_name(), "route": s.route_json()}

    def video_route_changed(self) -> None:
        if self.video.worker is not None:
            self.video.worker.post("set_route", self.current_route())
            self.video.worker.set_next_attempt(self.attempt_meta())

    # --- video --------------------------------------------------------------------------------------
    def open_source(self, spec: VideoSpec, route: dict[str, Any] | None = None) -> None:
        """Start reading ``spec``; the referee uses the game's route, else ``route``."""
        self.video.start(spec, self.recordings_dir, route=self.current_route() or route,
                         model_complexity=self.model_complexity, use_pipeline=self.use_pipeline)
        self.video.worker.set_next_attempt(self.attempt_meta())  # type: ignore[union-attr]
        self.source_label.setText(spec.label())
        self.live_screen.view.set_message("")
        self.live_screen.message.setText("")
        self.live_screen.view.setFocus()  # space starts/stops an attempt from here

    def open_sample(self) -> None:
        p = sample_video_path()
        if p is None:
            self.live_screen.message.setText(tr("live.cannot_open", source="sample_videos/",
                                                reason="no video"))
            return
        from ui.app.video import sample_route

        self.open_source(VideoSpec.for_file(p, loop=True), route=sample_route(p))

    def _on_frame(self, lf: LiveFrame) -> None:
        self.live_screen.show_frame(lf)

    def _on_video_message(self, kind: str, text: str) -> None:
        ls = self.live_screen
        if kind == "note":
            self.video_judging = text == "live.referee_on"
            self.referee_note = text
            self.referee_label.setText(tr(text))
            return
        if kind == "lost":
            msg = tr("live.camera_lost", source=self.source_label.text(), reason=text,
                     s=self.video.worker.retry_s if self.video.worker else 1.0)
        elif kind == "back":
            msg = tr("live.camera_back", source=text)
        elif kind == "ended":
            msg = tr("live.end_of_file", source=text)
        else:
            msg = tr("live.worker_error", error=text)
            QMessageBox.warning(self, tr("error.title"), msg) if self.isVisible() and \
                not self.property("no_dialogs") else None
        ls.message.setText(msg)
        if kind == "lost":
            ls.view.set_message(msg)
        elif kind == "back":
            ls.view.set_message("")
        self.statusBar().showMessage(msg, 10000)

    def _on_attempt_started(self, meta: dict) -> None:
        self.attempt_requested = True
        self.live_screen.update_attempt_button()

    def _on_attempt_finished(self, result: AttemptResult) -> None:
        self.attempt_requested = False
        self.live_screen.update_attempt_button()
        meta = result.meta or {}
        s = self.keeper.session
        same_turn = (s is not None and s.phase == "climb" and meta.get("game_id") == s.game_id
                     and meta.get("round") == s.game.round_no and meta.get("seat") == s.current_seat())
        if result.verdict is not None and same_turn:
            self.record_verdict(result.verdict, result=result)
        else:
            self.pending_recording = result
            self.game_screen.refresh()

    # --- export -------------------------------------------------------------------------------------
    def export_dialog(self, kind: str) -> None:
        s = self.keeper.session
        if s is None:
            return
        path, _ = QFileDialog.getSaveFileName(self, tr(f"menu.export_{kind}"),
                                              f"grimpe-{s.game_id}.{kind}")
        if path:
            self.export(kind, path)

    def export(self, kind: str, path: str | Path) -> None:
        from ui.app.export import score_sheet_csv, score_sheet_html

        s = self.keeper.require_session()
        (score_sheet_csv if kind == "csv" else score_sheet_html)(s, path)
        self.statusBar().showMessage(tr("export.saved", path=path), 8000)

    def closeEvent(self, event: Any) -> None:  # noqa: N802
        self.video.stop()
        self.quoridor_screen.shutdown()
        self.review_screen.judge.wait()
        super().closeEvent(event)
