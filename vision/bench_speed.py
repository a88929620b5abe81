"""Speed of the video referee against a bare MediaPipe loop over the same frames (issue #4).

    python -m vision.bench_speed /tmp/h11/bench/climb_6001_clean_top /tmp/h11/bench/hd_6017 \
        [--repeat 3] [--stages]

Each folder holds a rendered clip (``video.mp4``, ``route.json``, ``ground_truth.json``; see
:func:`vision.bench_judge.render`); without folders one 640x480 and one 1280x720 clip are
rendered into ``--workdir``. The definition is :mod:`vision.bench_judge`'s: frames/s of
:func:`vision.bench_judge.judge_clip` (decoding included, skipped frames grabbed only) and of
:func:`vision.bench_judge.bare_mediapipe` with the referee's stride (decoding + MediaPipe on
every stride-th frame). On a shared machine the two are run back to back, ``--repeat`` times,
and the median ratio is printed with the load average, and the ratio of the process CPU time
they used (all threads), which a busy machine disturbs less than wall time. ``--stages`` adds
one profiled run of the referee and prints the seconds spent per stage (profiling slows it a
little; ``--cpu``: main-thread CPU seconds).

Measured 2026-11-29 on 2 shared cores, 3 back-to-back runs each, medians,
``python -m vision.bench_speed /tmp/h11/bench/climb_6001_clean_top /tmp/h11/bench/hd_6017``
(seed 6001 clean/top 640x480, 159 frames; seed 6017 clean/top 1280x720, 90 frames; stride 2).
Before/after run alternately (load average 1.7-4.6), "before" being the same tree with the ring
search, route detector, hand masks and occlusion meter of commit af24ed0:

- 640x480: before 67 frames/s, ratio 0.45 (CPU-time ratio 0.46); after 74 frames/s, ratio
  0.67 (CPU 0.67);
- 1280x720: before 28 frames/s, ratio 0.34 (CPU 0.35); after 58 frames/s, ratio 0.60 (CPU 0.70).

Commit 0bf8d30 alone (load 5.5): 640x480 105 frames/s, ratio 0.73 (CPU 0.72); 1280x720
91 frames/s, ratio 0.69 (CPU 0.67).

Card-motion and route-detection work cut (2026-11-29, this tree against the same tree with
``vision/card_motion.py`` and ``vision/route_detect.py`` of commit 2b4b3be, run alternately
twice each on 2 cores shared with another engineer's rendering, load average 8.4-9.5, so
wall figures are pessimistic; ``--repeat 3 --stages --cpu``):

- 640x480 (6001): ratio 0.72 / 0.71 before (CPU-time ratio 0.71 / 0.70), 0.75 / 0.75 after
  (CPU 0.73 / 0.76); card motion 0.24 -> 0.12 s, route detection 0.12 -> 0.11-0.12 s;
- 1280x720 (hd_6017): ratio 0.71 / 0.69 before (CPU 0.68 / 0.68), 0.74 / 0.70 after (CPU
  0.72 / 0.70); card motion 0.10 -> 0.045 s, route detection 0.10 -> 0.09 s.

What remains (main-thread CPU under the profiler, whole 640x480 clip): contact 0.21 s, route
detection 0.11 s (one full ring search on the first frame, ~45 ms unprofiled, the route fit
~6 ms, and the exact hand mask it asks for on each of its 4 tries, 5 ms each), card motion
0.12 s, occlusion 0.02 s; and MediaPipe on the 6 odd frames processed before the route is
found (:attr:`vision.pipeline.GrimpeReferee.dense_start`, ~80 ms), which the bare loop skips.
The ratio 0.9 asks for all of our own work together to stay under ~0.12 s on this clip.

Overlap (2026-11-29, later): MediaPipe keeps only about one of the two cores busy (0.97 s of
CPU for 0.92 s of wall time over this clip's 80 frames), so :func:`vision.pipeline.run_video`
finds the next frame's hands in a worker thread while the referee judges the current one, and
``dense_start`` is off (the contact model retrained for it). Same command, background jobs
paused (a quiet machine), medians of 3 runs, two sessions of runs: 640x480 ratio 0.82-0.83
with the overlap alone, 0.89 with ``dense_start`` off too; 1280x720 0.79-0.81, then 0.93.
``python -m vision.bench_judge --seeds $(seq 12001 12016) --hd-seed 12017`` (640x480 clip
12001, 1280x720 clip 12017, quiet machine): ratios 0.92 and 0.91. After the card-motion fix
(``near_every`` 1) and cheaper contact features, medians of 3 on a quiet machine range over
0.87-0.94 (640x480: 6001 0.87, 12201 0.90 and 0.94) and 0.91-0.93 (1280x720): at the 0.9 goal,
not reliably above it. What still runs beside MediaPipe under the GIL (profiled, main thread,
12201): contact 0.14 s, card motion 0.13 s, decoding 0.17 s (mostly without the GIL), route
detection 0.08 s; MediaPipe's own Python wrapper then waits for the GIL.

Table view (2026-11-30). An oblique camera is judged in the table view, and MediaPipe was
given a bigger image than the bare loop: the view at the image's resolution near its centre
(983x1270 for the 1280x720 clip hd_14017, whose camera is slightly tilted; 1.5-1.8 times the
pixels of a 640x480 oblique clip), warped in MediaPipe's turn (4.3 ms at that size): 20 ms a
frame against 12 ms in the bare loop. Now the view has at most the image's pixels and is warped
in the main thread while MediaPipe works on the frame before. Medians of 3, same command, the
session's tree against the one before (c3cd558): hd_14017 0.68 -> 0.89, 640x480 oblique
climb_14103 0.77 -> 0.85; the clips without a view are unchanged (0.91 and 0.91 at 640x480,
clips 14101 and 13101; 0.92 and 0.95 at 1280x720, hd_14117 and hd_13117). What is left at
640x480: the first frame (route detection, ~40 ms before MediaPipe can start on the next frame)
and MediaPipe running ~3 % slower beside our stages (12.2 against 11.9 ms a frame).

Frames handed ahead (2026-11-30, later). Timing each MediaPipe call on climb_14103 showed its
worker idle ~1 ms between frames (62 gaps, 59 ms of a 0.99 s run): it waited for the main
thread to finish judging, read and warp the next frame and submit it. :func:`run_video` now
queues up to ``ahead`` (2) wanted frames for the worker, which goes from one to the next at
once; the gaps left are the first frame's route detection (45 ms). Medians of 3 on a quiet
machine, the previous commit run alternately from a worktree: climb_14103 (640x480 oblique)
0.82 -> 0.89, climb_14101 (640x480 top) 0.90 -> 0.95; this tree alone, hd_14017 (1280x720, in
the table view) 0.97 and hd_14117 (1280x720 top) 1.01 (the judge decodes beside MediaPipe,
the bare loop in turn). Verdicts and events are unchanged (8 clips compared).

From the first frame (2026-11-30, session 8). The worker now takes frames from the first one:
MediaPipe looks at frames 2 and 4 while the route is found on frame 0 (an oblique camera's
table view is used from the :attr:`~vision.pipeline.GrimpeReferee.VIEW_LAG`-th processed frame
after that, whether a frame is tracked ahead or not, so the verdict is still the sequential
loop's). Timed call by call on climb_14103 (wrappers around ``track`` and
``update``): frame 0's judging took 54 ms, during which frames 2 and 4 were tracked
(26 ms that used to wait). Medians of 5, alternately with the session's start tree (9a381a1):
0.91 and 0.91 against 0.91 and 0.89; single runs spread over 0.85-0.95, so the expected ~3 %
is within the noise. A top-view clip's hands are exactly those of before; on the 96 rendered
climbs of ``bench_judge`` seeds 14721-14770 and 14801-14850 the verdicts are the same
(38/48 and 38/48), events F1 within +-0.015 per set of 16.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

#: (label, file name ending, function name) of the stages reported by ``--stages``.
STAGES: tuple[tuple[str, str, str], ...] = (
    ("MediaPipe (HandTracker.update)", "vision/hands.py", "update"),
    ("decode (VideoReader.read)", "vision/video.py", "read"),
    ("grab skipped (VideoReader.skip)", "vision/video.py", "skip"),
    ("route detection", "vision/route_detect.py", "update"),
    ("hand masks", "vision/pipeline.py", "hand_mask"),
    ("occlusion", "vision/contact.py", "measure"),
    ("contact", "vision/contact.py", "update"),
    ("card motion", "vision/card_motion.py", "update"),
    ("judge + verdict", "vision/pipeline.py", "_verdict_dict"),
    ("event queue", "vision/pipeline.py", "_queue"),
    ("referee setup", "vision/pipeline.py", "__init__"),
)


def speed_ratio(folder: Path, repeat: int = 3) -> dict[str, Any]:
    """Run the referee and the bare loop back to back ``repeat`` times on one clip.
    Returns frames, stride, the per-run frames/s of both and their median ratio."""
    from vision.bench_judge import bare_mediapipe, judge_clip

    judge_clip(folder)  # warm caches (imports, model files), as bench_judge does
    fps_ref: list[float] = []
    fps_bare: list[float] = []
    ratios: list[float] = []
    cpu_ratios: list[float] = []
    r: dict[str, Any] = {}
    for _ in range(max(1, repeat)):
        c0 = time.process_time()
        r = judge_clip(folder)
        c1 = time.process_time()
        n, t = bare_mediapipe(folder, r["stride"])
        c2 = time.process_time()
        fps_ref.append(r["frames"] / r["seconds"])
        fps_bare.append(n / t)
        ratios.append(fps_ref[-1] / fps_bare[-1])
        cpu_ratios.append((c2 - c1) / max(c1 - c0, 1e-9))
    return {"size": tuple(r["gt"]["image_size"]), "frames": r["frames"], "stride": r["stride"],
            "fps_ref": fps_ref, "fps_bare": fps_bare, "ratios": ratios,
            "ratio": statistics.median(ratios), "cpu_ratio": statistics.median(cpu_ratios)}


def stage_seconds(folder: Path, cpu: bool = False) -> tuple[float, list[tuple[str, float]]]:
    """One profiled referee run: total seconds and the cumulative seconds of each stage
    (wall time; ``cpu``: the main thread's CPU time, steadier on a busy machine, but MediaPipe's
    own threads are then not counted)."""
    from vision.bench_judge import judge_clip

    pr = cProfile.Profile(time.thread_time) if cpu else cProfile.Profile()
    pr.enable()
    r = judge_clip(folder)
    pr.disable()
    stats = pstats.Stats(pr).stats  # type: ignore[attr-defined]
    out = []
    for label, file_end, name in STAGES:
        total = sum(v[3] for (fn, _, func), v in stats.items()
                    if func == name and fn.replace(os.sep, "/").endswith(file_end))
        out.append((label, float(total)))
    return float(r["seconds"]), out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.bench_speed", description=__doc__.split("\n")[0])
    ap.add_argument("folders", nargs="*", type=Path, help="rendered clip folders")
    ap.add_argument("--repeat", type=int, default=3, help="referee + bare runs per clip (median)")
    ap.add_argument("--stages", action="store_true", help="also print seconds per stage")
    ap.add_argument("--cpu", action="store_true", help="stages in main-thread CPU time, not wall time")
    ap.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "arbitre-bench-speed",
                    help="where clips are rendered when no folder is given")
    args = ap.parse_args(argv)
    folders = list(args.folders)
    if not folders:
        from vision.bench_judge import render

        args.workdir.mkdir(parents=True, exist_ok=True)
        for size in ((640, 480), (1280, 720)):
            f = render(6001, "top", "clean", args.workdir / f"clean_6001_{size[0]}x{size[1]}", size=size)
            if f is not None:
                folders.append(f)
    for f in folders:
        if not (f / "video.mp4").is_file():
            print(f"{f}: no video.mp4, skipped", file=sys.stderr)
            continue
        load0 = os.getloadavg()[0]
        s = speed_ratio(f, args.repeat)
        load1 = os.getloadavg()[0]
        runs = ", ".join(f"{a:.1f}/{b:.1f}" for a, b in zip(s["fps_ref"], s["fps_bare"]))
        print(f"{f.name} {s['size'][0]}x{s['size'][1]} ({s['frames']} frames, stride {s['stride']}): "
              f"judge-video {statistics.median(s['fps_ref']):.1f} frames/s, bare MediaPipe on the same "
              f"frames {statistics.median(s['fps_bare']):.1f} frames/s -> ratio {s['ratio']:.2f} "
              f"(median of {len(s['ratios'])}: {' '.join(f'{x:.2f}' for x in s['ratios'])}; "
              f"runs judge/bare {runs}); load average {load0:.1f} -> {load1:.1f} on {os.cpu_count()} cores; "
              f"CPU-time ratio {s['cpu_ratio']:.2f} (bare/judge, all threads: less sensitive to a busy machine)")
        if args.stages:
            total, rows = stage_seconds(f, args.cpu)
            print(f"  profiled referee run {total:.2f} s (stages in {'main-thread CPU' if args.cpu else 'wall'} seconds):")
            for label, sec in rows:
                print(f"    {label:34s} {sec:6.3f} s  {1000 * sec / max(s['frames'], 1):6.2f} ms/frame")
    return 0


if __name__ == "__main__":
    sys.exit(main())
