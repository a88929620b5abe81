"""The dashboard's Quoridor screen.

The live video with the recognised grid, pawns and walls drawn on it (watched off the GUI thread
by :class:`ui.app.quoridor_worker.QuoridorVideoWorker`), a board diagram mirroring the kept
position, the move list, walls left and shortest paths, the camera's questions with confirm /
correct / dismiss, manual entry, undo, the hint (in a worker, with a time limit) and the export of
the notation record. The widget only shows :class:`ui.app.quoridor_commands.QuoridorKeeper` and
sends it commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)
from PySide6.QtCore import Qt

from games.base import IllegalMove, NotationError
from games.store import StoreError
from ui.app import quoridor_commands as qc
from ui.app.i18n import tr
from ui.app.quoridor_board import PLAYER_QCOLOURS, BoardDiagram
from ui.app.quoridor_worker import (
    HintController,
    QuoridorController,
    QuoridorFrame,
    SampleRenderer,
)
from ui.app.video import SAMPLE_DIR, VideoSpec
from ui.app.widgets import VideoView

__all__ = ["QuoridorScreen", "quoridor_sample_path"]

USER_ERRORS = (IllegalMove, NotationError, qc.SessionError, StoreError, ValueError, KeyError,
               OSError)


def quoridor_sample_path() -> Path | None:
    """A Quoridor clip under ``sample_videos/`` (a folder whose name starts with ``quoridor``),
    or None when there is none."""
    if not SAMPLE_DIR.is_dir():
        return None
    vids = sorted(p for p in SAMPLE_DIR.glob("quoridor*/*") if p.suffix.lower() in
                  (".mp4", ".mkv", ".avi") and p.is_file() and p.stat().st_size > 0)
    return vids[0] if vids else None


def _who(s: qc.QuoridorSession, seat: int) -> str:
    """``"P1 Alice"``, or ``"P1"`` when the player has no other name."""
    name = s.players[seat]
    return f"P{seat + 1}" if name == f"P{seat + 1}" else f"P{seat + 1} {name}"


class QuoridorScreen(QWidget):
    """See the module doc. ``win`` is the main window (its store, status bar, recordings dir)."""

    def __init__(self, win: Any, keeper: qc.QuoridorKeeper | None = None) -> None:
        super().__init__()
        self.win = win
        self.keeper = keeper or qc.QuoridorKeeper(win.keeper.store)
        self.video = QuoridorController(self)
        self.video.on_frame = self.show_frame
        self.video.on_events = self.camera_events
        self.video.on_message = self._video_message
        self.hints = HintController(self)
        self.hints.on_done = self._hint_done
        self.hints.on_failed = lambda text: self.message.setText(tr("qr.hint_failed", error=text))
        self.samples = SampleRenderer(self)
        self.samples.on_done = lambda path: self.open_source(VideoSpec.for_file(path))
        self.samples.on_failed = lambda text: self.message.setText(
            tr("live.worker_error", error=text))
        self.hint: qc.HintResult | None = None
        self.hint_time_s = 1.0
        self._synced: list[str] | None = None
        # True while the camera's own moves are handed to the model (no sync back to it)
        self._from_camera = False

        # source bar
        self.source_combo = QComboBox()
        self.source_combo.addItem(tr("live.file"), "file")
        self.source_combo.addItem(tr("live.camera"), "camera")
        self.source_combo.addItem(tr("live.sample"), "sample")
        self.camera_spin = QSpinBox()
        self.camera_spin.setRange(0, 9)
        open_btn = QPushButton(tr("live.open"))
        open_btn.clicked.connect(self.open_selected)
        close_btn = QPushButton(tr("live.close"))
        close_btn.clicked.connect(self.close_source)
        self.stats_label = QLabel("—")
        bar = QHBoxLayout()
        for w in (QLabel(tr("live.source")), self.source_combo, QLabel(tr("live.camera")),
                  self.camera_spin, open_btn, close_btn):
            bar.addWidget(w)
        bar.addStretch(1)
        bar.addWidget(self.stats_label)

        # video and board
        self.view = VideoView()
        self.view.set_message(tr("qr.no_source"))
        self.video_state = QLabel(tr("qr.no_source_short"))
        self.video_state.setWordWrap(True)
        self.board = BoardDiagram()
        self.turn_label = QLabel()
        self.turn_label.setStyleSheet("font-size: 15px; font-weight: bold;")
        self.turn_label.setWordWrap(True)

        # new game / resume
        self.names_edit = QLineEdit()
        self.names_edit.setPlaceholderText("Alice, Bob")
        self.players_combo = QComboBox()
        self.players_combo.addItem("2", 2)
        self.players_combo.addItem("4", 4)
        self.start_btn = QPushButton(tr("game.start"))
        self.start_btn.clicked.connect(self.new_game)
        self.games_combo = QComboBox()
        resume_btn = QPushButton(tr("history.resume"))
        resume_btn.clicked.connect(self.resume_selected)
        new_box = QGroupBox(tr("qr.new"))
        nf = QFormLayout(new_box)
        nf.addRow(tr("qr.names"), self.names_edit)
        row = QHBoxLayout()
        row.addWidget(QLabel(tr("qr.players")))
        row.addWidget(self.players_combo)
        row.addStretch(1)
        row.addWidget(self.start_btn)
        nf.addRow(row)
        row2 = QHBoxLayout()
        row2.addWidget(self.games_combo, 1)
        row2.addWidget(resume_btn)
        nf.addRow(row2)

        # players table
        self.table = QTableWidget()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)

        # the camera's question
        self.alert_box = QGroupBox(tr("qr.question"))
        self.alert_box.setStyleSheet("QGroupBox { color: #a05000; font-weight: bold; }")
        # a read-only text box, not a QLabel: a wrapped label in a splitter is given one line
        self.alert_label = QTextEdit()
        self.alert_label.setReadOnly(True)
        self.alert_label.setFixedHeight(100)
        self.alert_label.setStyleSheet("color: #803000; font-weight: normal; "
                                       "background: #fff6e8;")
        self.cand_combo = QComboBox()
        self.confirm_btn = QPushButton(tr("qr.confirm"))
        self.confirm_btn.clicked.connect(self.confirm_selected)
        self.correct_edit = QLineEdit()
        self.correct_edit.setPlaceholderText("e3 / e3h / e2 e8")
        self.correct_btn = QPushButton(tr("qr.correct"))
        self.correct_btn.clicked.connect(self.correct_typed)
        self.correct_edit.returnPressed.connect(self.correct_typed)
        dismiss_btn = QPushButton(tr("qr.dismiss"))
        dismiss_btn.clicked.connect(self.dismiss)
        af = QVBoxLayout(self.alert_box)
        af.addWidget(self.alert_label)
        r1 = QHBoxLayout()
        r1.addWidget(self.cand_combo, 1)
        r1.addWidget(self.confirm_btn)
        af.addLayout(r1)
        r2 = QHBoxLayout()
        r2.addWidget(self.correct_edit, 1)
        r2.addWidget(self.correct_btn)
        af.addLayout(r2)
        af.addWidget(dismiss_btn)

        # entry, undo, hint, export
        self.move_edit = QLineEdit()
        self.move_edit.setPlaceholderText("e2 / e3h")
        self.move_edit.returnPressed.connect(self.play_typed)
        self.play_btn = QPushButton(tr("qr.play"))
        self.play_btn.clicked.connect(self.play_typed)
        self.undo_btn = QPushButton(tr("qr.undo"))
        self.undo_btn.clicked.connect(self.undo)
        self.hint_btn = QPushButton(tr("qr.hint"))
        self.hint_btn.clicked.connect(self.request_hint)
        self.hint_label = QLabel()
        self.hint_label.setWordWrap(True)
        self.hint_label.setStyleSheet("color: #106030;")
        export_btn = QPushButton(tr("qr.export"))
        export_btn.clicked.connect(self.export_dialog)
        entry = QHBoxLayout()
        entry.addWidget(self.move_edit, 1)
        entry.addWidget(self.play_btn)
        tools = QHBoxLayout()
        for b in (self.undo_btn, self.hint_btn, export_btn):
            tools.addWidget(b)
        self.moves_list = QListWidget()
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #a00000;")

        left = QVBoxLayout()
        left.addWidget(self.view, 1)
        left.addWidget(self.video_state)
        middle = QVBoxLayout()
        middle.addWidget(self.turn_label)
        middle.addWidget(self.board, 1)
        middle.addWidget(self.table)
        right = QVBoxLayout()
        right.addWidget(new_box)
        right.addWidget(self.alert_box)
        right.addWidget(QLabel(tr("qr.enter")))
        right.addLayout(entry)
        right.addLayout(tools)
        right.addWidget(self.hint_label)
        right.addWidget(self.message)
        right.addWidget(QLabel(tr("qr.moves")))
        right.addWidget(self.moves_list, 1)
        split = QSplitter(Qt.Orientation.Horizontal)
        for lay, stretch in ((left, 5), (middle, 4), (right, 3)):
            w = QWidget()
            w.setLayout(lay)
            split.addWidget(w)
            split.setStretchFactor(split.count() - 1, stretch)
        split.setSizes([600, 440, 380])
        outer = QVBoxLayout(self)
        outer.addLayout(bar)
        outer.addWidget(split, 1)
        self.keeper.subscribe(self.refresh)
        if keeper is None:
            self.keeper.resume_latest()  # the latest unfinished Quoridor game, like Grimpe's
        else:
            self.refresh()

    # --- commands -------------------------------------------------------------------------
    def run(self, command: qc.QuoridorCommand) -> Any:
        """Run ``command``; a refused one shows its sentence (``Move refused: ...``) and
        returns None."""
        try:
            result = self.keeper.run(command)
        except USER_ERRORS as exc:
            text = tr("game.illegal", reason=str(exc))
            self.message.setText(text)
            if hasattr(self.win, "statusBar"):
                self.win.statusBar().showMessage(text, 8000)
            return None
        self.message.setText("")
        return result

    def new_game(self) -> qc.QuoridorSession | None:
        names = [n.strip() for n in self.names_edit.text().replace(";", ",").split(",")
                 if n.strip()]
        return self.run(qc.NewQuoridorGame(names, int(self.players_combo.currentData())))

    def resume_selected(self) -> None:
        gid = self.games_combo.currentData()
        if gid is not None:
            self.run(qc.OpenQuoridorGame(int(gid)))

    def play_typed(self) -> qc.PlayedMove | None:
        text = self.move_edit.text().strip()
        if not text:
            return None
        pm = self.run(qc.PlayMove(text))
        if pm is not None:
            self.move_edit.clear()
        return pm

    def undo(self) -> str | None:
        return self.run(qc.UndoMove())

    def confirm_selected(self) -> Any:
        text = self.cand_combo.currentData()
        return self.run(qc.ConfirmMove(str(text))) if text else None

    def correct_typed(self) -> Any:
        text = self.correct_edit.text().strip()
        if not text:
            return None
        played = self.run(qc.CorrectMove(text))
        if played is not None:
            self.correct_edit.clear()
        return played

    def dismiss(self) -> None:
        self.run(qc.DismissQuestion())

    def camera_events(self, events: list[Any]) -> list[str]:
        """Hand the camera's decoded moves to the model (GUI thread)."""
        out: list[str] = []
        for ev in events:
            if self.keeper.session is None:
                break
            # the model's listeners refresh while the move is run: the watcher has the move
            # already and may have seen more since (in its thread), so it is not synced back
            self._from_camera = True
            try:
                outcome = self.run(qc.CameraEvent(ev))
            finally:
                self._from_camera = False
            out.append(str(outcome))
            if outcome == "accepted" and self.keeper.session is not None:
                self._synced = self.keeper.session.record  # the watcher has it already
        return out

    def request_hint(self) -> bool:
        """Start the hint search in a worker; False when there is nothing to search."""
        s = self.keeper.session
        if s is None or s.game.is_terminal() or self.hints.busy:
            return False
        self.hint = None
        self.hint_label.setText(tr("qr.thinking", s=self.hint_time_s))
        self.hints.start(s.game, self.hint_time_s, len(s.moves))
        return True

    def _hint_done(self, result: qc.HintResult, ply: int | None) -> None:
        s = self.keeper.session
        if s is None or ply != len(s.moves):
            self.hint_label.setText("")
            return  # the position changed while the engine thought
        self.hint = result
        who = _who(s, result.player)
        paths = ", ".join(f"P{k + 1} {d}" for k, d in enumerate(result.distances))
        self.hint_label.setText(tr("qr.hint_text", player=who, move=result.move,
                                   evaluation=result.evaluation, paths=paths))
        self.refresh_board()

    def export_dialog(self) -> None:
        s = self.keeper.session
        if s is None:
            return
        path, _ = QFileDialog.getSaveFileName(self, tr("qr.export"), f"quoridor-{s.game_id}.txt",
                                              "Text (*.txt)")
        if path:
            self.export(path)

    def export(self, path: str | Path) -> str | None:
        p = self.run(qc.ExportRecord(str(path)))
        if p and hasattr(self.win, "statusBar"):
            self.win.statusBar().showMessage(tr("export.saved", path=p), 8000)
        return p

    # --- video ----------------------------------------------------------------------------
    def open_source(self, spec: VideoSpec) -> None:
        """Watch ``spec``; the watcher follows the kept game (started if there is none)."""
        if self.keeper.session is None:
            self.new_game()
        s = self.keeper.session
        if s is None:
            return
        rec_dir = getattr(self.win, "recordings_dir", Path("."))
        self.video.start(spec, rec_dir, players=s.num_players, record=s.record)
        self._synced = s.record
        self.view.set_message("")
        self.video_state.setText(tr("qr.searching", problem="…"))
        if s.moves:
            self.message.setText(tr("qr.mid_game"))

    def open_selected(self) -> None:
        kind = self.source_combo.currentData()
        if kind == "camera":
            self.open_source(VideoSpec.for_camera(self.camera_spin.value()))
        elif kind == "sample":
            self.open_sample()
        else:
            path, _ = QFileDialog.getOpenFileName(self, tr("menu.open_video"), "",
                                                  "Video (*.mp4 *.mkv *.avi *.mov *.webm)")
            if path:
                self.open_source(VideoSpec.for_file(path))

    def open_sample(self) -> bool:
        """Watch the Quoridor sample clip: ``sample_videos/quoridor*/``, else a game rendered
        once (in a thread, ~15 s) into the recordings folder. True when it opened at once."""
        p = quoridor_sample_path()
        rec_dir = Path(getattr(self.win, "recordings_dir", "."))
        if p is None and SampleRenderer.path_in(rec_dir).is_file():
            p = SampleRenderer.path_in(rec_dir)
        if p is not None:
            self.open_source(VideoSpec.for_file(p))
            return True
        self.view.set_message(tr("qr.rendering_sample"))
        self.video_state.setText(tr("qr.rendering_sample"))
        self.samples.start(rec_dir)
        return False

    def close_source(self) -> None:
        self.video.stop()
        self.view.set_frame(None)
        self.view.set_message(tr("qr.no_source"))
        self.video_state.setText(tr("qr.no_source_short"))
        self.stats_label.setText("—")

    def show_frame(self, qf: QuoridorFrame) -> None:
        self.view.set_frame(qf.image_bgr)
        self.stats_label.setText(tr("live.fps", fps=self.video.display_fps,
                                    latency_ms=self.video.latency_ms, dropped=qf.dropped))
        if qf.state == "searching":
            self.video_state.setText(tr("qr.searching", problem=qf.problem or "…"))
        else:
            self.video_state.setText(tr(f"qr.state.{qf.state}", frame=qf.frame.index))

    def _video_message(self, kind: str, text: str) -> None:
        if kind == "found":
            msg = tr("qr.found", frame=text)
        elif kind == "lost":
            msg = tr("live.camera_lost", source="", reason=text, s=1.0)
        elif kind == "back":
            msg = tr("live.camera_back", source=text)
        elif kind == "ended":
            msg = tr("live.end_of_file", source=text)
        else:
            msg = tr("live.worker_error", error=text)
            self.message.setText(msg)
        self.video_state.setText(msg)
        if hasattr(self.win, "statusBar"):
            self.win.statusBar().showMessage(msg, 8000)

    def _sync_watcher(self) -> None:
        """Put the watcher on the kept record after a person changed it (not while a question
        waits: the watcher then follows what it saw; not for the camera's own moves: the
        watcher, in its thread, may have followed the board further, e.g. past an illegal
        move it saw, and would be put back)."""
        s = self.keeper.session
        if s is None or s.question is not None or self._from_camera or not self.video.running:
            return
        worker = self.video.worker
        if worker is not None and worker.watcher.players != s.num_players:
            self.close_source()  # a watcher learns 2 or 4 pawns: open the source again
            self.message.setText(tr("qr.reopen_source"))
            return
        if s.record != self._synced:
            self.video.sync(s.record)
            self._synced = s.record

    def shutdown(self) -> None:
        """Stop the watching thread and wait for a hint search (window closing)."""
        self.video.stop()
        self.hints.wait()
        self.samples.wait()

    # --- view -------------------------------------------------------------------------------
    def refresh(self) -> None:
        self._sync_watcher()
        s = self.keeper.session
        self._refresh_games()
        if self.hint is not None and (s is None or self.hints.ply != len(s.moves)):
            self.hint = None
            self.hint_label.setText("")
        for w in (self.play_btn, self.undo_btn, self.hint_btn, self.move_edit):
            w.setEnabled(s is not None)
        if s is None:
            self.turn_label.setText(tr("qr.none"))
            self.board.set_position([], [])
            self.table.setRowCount(0)
            self.moves_list.clear()
            self.alert_box.setVisible(False)
            return
        g = s.game
        if g.winner is not None:
            text = tr("qr.winner", player=_who(s, g.winner),
                      n=len(s.moves))
        else:
            me = g.current_player()
            text = tr("qr.to_play", player=_who(s, me), n=len(s.moves) + 1)
        self.turn_label.setText(f"#{s.game_id} · {text}")
        self.refresh_board()
        dist = g.shortest_path_lengths()
        left = g.walls_left()
        squares = g.pawn_squares()
        cols = tr("qr.table_cols").split("|")
        self.table.setColumnCount(len(cols))
        self.table.setHorizontalHeaderLabels(cols)
        self.table.setRowCount(s.num_players)
        for k in range(s.num_players):
            mark = "▶ " if k == s.to_move else ""
            vals = [f"{mark}{_who(s, k)}", squares[k], str(left[k]), str(dist[k])]
            for j, v in enumerate(vals):
                it = QTableWidgetItem(v)
                if j == 0:
                    it.setForeground(PLAYER_QCOLOURS[k].darker(130))
                else:
                    it.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(k, j, it)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.setFixedHeight(hh.sizeHint().height() + 4 + sum(
            self.table.rowHeight(k) for k in range(s.num_players)))
        self.moves_list.clear()
        for m in s.moves:
            how = tr(f"qr.source.{m.source}")
            if m.confidence is not None:
                how += f" {m.confidence:.2f}"
            self.moves_list.addItem(f"{m.ply + 1:3d}. P{m.player + 1}  {m.notation:<4s}  {how}")
        if s.moves:
            self.moves_list.scrollToBottom()
        q = s.question
        self.alert_box.setVisible(q is not None)
        self.play_btn.setEnabled(q is None and g.winner is None)
        self.hint_btn.setEnabled(q is None and g.winner is None)
        if q is not None:
            frame = "—" if q.frame is None else str(q.frame)
            held = tr("qr.held", n=len(s.held)) if s.held else ""
            self.alert_label.setPlainText(tr("qr.question_text", ply=q.ply + 1,
                                             player=f"P{q.player + 1}", frame=frame,
                                             observed=q.observed or "?",
                                             reason=q.reason or "?") + held)
            self.cand_combo.clear()
            for c in q.candidates:
                self.cand_combo.addItem(c, c)
            self.confirm_btn.setEnabled(bool(q.candidates))
            if q.literal and q.literal not in q.candidates and not self.correct_edit.text():
                self.correct_edit.setPlaceholderText(q.literal)

    def refresh_board(self) -> None:
        s = self.keeper.session
        if s is None:
            return
        g = s.game
        self.board.set_position(g.pawn_squares(), [w.notation() for w in g.walls()],
                                names=s.players, to_move=s.to_move,
                                last=s.moves[-1].notation if s.moves else None,
                                hint=self.hint.move if self.hint else None,
                                seen=s.question.literal if s.question else None)

    def _refresh_games(self) -> None:
        cur = self.games_combo.currentData()
        self.games_combo.clear()
        for g in self.keeper.store.games(kind="quoridor", limit=50):
            label = (f"#{g.id} · {', '.join(g.players)} · {tr('status.' + g.status)} · "
                     f"{len(g.moves)}")
            self.games_combo.addItem(label, g.id)
        i = self.games_combo.findData(cur)
        if i >= 0:
            self.games_combo.setCurrentIndex(i)
