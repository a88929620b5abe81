"""Frames/s and latency of the live screen's pipeline, as the window sees them.

    python -m ui.app.bench_live [VIDEO] [--seconds 8] [--mode hands|pipeline|both]

Reads VIDEO (default: the bundled sample) in real time through :class:`VideoController`
(worker thread, newest frame wins) with an offscreen QApplication, and prints the frames shown
per second, the latency from reading a frame to the GUI taking it (median and 90th percentile),
and the frames dropped because the GUI had not taken the previous one.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path


def measure(video: Path, mode: str, seconds: float) -> dict:
    import numpy as np
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from ui.app.video import VideoSpec, sample_route
    from ui.app.workers import VideoController

    app = QApplication.instance() or QApplication([])
    c = VideoController()
    lat: list[float] = []
    shown: list[float] = []
    last = {"dropped": 0}

    def on_frame(lf) -> None:
        lat.append(c.latency_ms)
        shown.append(time.monotonic())
        last["dropped"] = lf.dropped

    c.on_frame = on_frame
    c.start(VideoSpec.for_file(video, loop=True), tempfile.mkdtemp(), route=sample_route(video),
            use_pipeline=(mode == "pipeline"))
    QTimer.singleShot(int(seconds * 1000), app.quit)
    app.exec()
    c.stop()
    warm = [t for t in shown if t - shown[0] > 1.0] if shown else []
    fps = (len(warm) - 1) / (warm[-1] - warm[0]) if len(warm) > 2 else 0.0
    arr = np.array(lat[len(lat) // 5:] or [0.0])
    return {"mode": mode, "video": video.name, "frames_shown": len(shown),
            "fps_shown": round(fps, 1), "latency_ms_median": round(float(np.median(arr)), 1),
            "latency_ms_p90": round(float(np.percentile(arr, 90)), 1),
            "dropped": last["dropped"]}


def main(argv: list[str] | None = None) -> int:
    import cv2  # noqa: F401

    from ui.app.qtenv import prepare_qt_environment
    from ui.app.video import sample_video_path

    prepare_qt_environment()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("video", nargs="?", type=Path, default=None)
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--mode", choices=["hands", "pipeline", "both"], default="both")
    a = ap.parse_args(argv)
    video = a.video or sample_video_path()
    if video is None:
        print("no video: give one", file=sys.stderr)
        return 2
    modes = ["hands", "pipeline"] if a.mode == "both" else [a.mode]
    for m in modes:
        print(json.dumps(measure(video, m, a.seconds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
