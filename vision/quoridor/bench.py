"""Benchmark: read rendered Quoridor games whose answer is known and print the figures.

    python -m vision.quoridor.bench --seeds 5000-5005 [--max-plies 40] [--keep DIR]

For each seed a game is rendered (1280×720, hands passing between moves, random board, camera,
markers or not, 2 or 4 players) and then:

- per-frame reading: every frame without a hand is read with the watcher's reader (its prior
  walls being the position before the latest move, as the watcher has it); cells (81) and groove
  segments (144) are compared with the ground truth. Frames the reader flags as not clear are
  counted apart ("clear frames recognised").
- hands: the share of frames with a hand over the board that the reader does NOT trust.
- whole game: the watcher's record against the true record — moves right, wrong (a wrong
  accepted move: must be 0), uncertain (a question) and missed.
- time: milliseconds per :meth:`BoardReader.read` on a clear frame (median, 95th percentile).

Measured (2 cores, seeds 7000-7007 never used in development, whole games of 23–72 moves,
8 videos, 6 314 frames): cells+segments of clear frames 473 175/473 175 right (100 %), clear
frames read as clear 2 103/2 103, frames with a hand over the board not trusted 92.3 %
(4 trusted frames read wrong, none of them stable), moves 355/355 recovered in order, 0
uncertain, 0 wrong; read 0.50 ms median, 1.6 ms p95 (a whole ``GameWatcher.update`` 0.7 ms
median; finding the board and learning the start position once ~0.45 s).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.quoridor.geometry import segments_from_walls, square_coords
from vision.quoridor.watch import GameWatcher
from vision.synth.quoridor_scene import render_game
from vision.synth.seeds import parse_seeds

__all__ = ["main", "parse_seeds"]


def _cells(pawns: Sequence[str | None]) -> np.ndarray:
    out = np.full(81, -1)
    for k, sq in enumerate(pawns):
        if sq is not None:
            c, r = square_coords(sq)
            out[r * 9 + c] = k
    return out


def run_seed(seed: int, out_dir: Path, max_plies: int) -> dict:
    t0 = time.perf_counter()
    r = render_game(seed, out_dir, max_plies=max_plies)
    render_s = time.perf_counter() - t0
    truth = r.truth
    frames = truth["frames"]
    watcher = GameWatcher(truth["players"])
    cap = cv2.VideoCapture(str(r.video_path))
    stats = dict(items=0, wrong=0, clear_frames=0, read_clear=0, hand_frames=0, hand_untrusted=0,
                 hand_trusted_wrong=0)
    times: list[float] = []
    i = 0
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        gt = frames[i]
        if watcher.ready:
            reader = watcher.reader
            assert reader is not None
            ply = gt["ply"]
            prior = _walls_before(frames, ply)
            t = time.perf_counter()
            reading = reader.read(frame, prior)
            dt = time.perf_counter() - t
            if gt["occluded"]:
                stats["hand_frames"] += 1
                if not reading.clear:
                    stats["hand_untrusted"] += 1
                elif (reading.pawns != tuple(gt["pawns"]) or reading.walls != frozenset(gt["walls"])):
                    stats["hand_trusted_wrong"] += 1
            elif not gt["hand"]:
                stats["clear_frames"] += 1
                times.append(dt)
                if reading.clear:
                    stats["read_clear"] += 1
                    wrong = int(np.sum(_cells(reading.pawns) != _cells(gt["pawns"])))
                    wrong += int(np.sum(segments_from_walls(reading.walls)
                                        != segments_from_walls(gt["walls"])))
                    stats["items"] += 225
                    stats["wrong"] += wrong
        watcher.update(frame, i)
        i += 1
    cap.release()
    moves = truth["moves"]
    rec = watcher.record
    right = sum(1 for a, b in zip(rec, moves) if a == b)
    unc = sum(1 for a in rec if a == "?")
    wrong_moves = sum(1 for a, b in zip(rec, moves) if a != b and a != "?")
    stats.update(seed=seed, players=truth["players"], markers=truth["style"]["markers"],
                 moves=len(moves), right=right, uncertain=unc, wrong_moves=wrong_moves,
                 missed=max(0, len(moves) - len(rec)), extra=max(0, len(rec) - len(moves)),
                 exact=rec == moves, render_s=render_s, times=times, frames=len(frames),
                 found=watcher.ready)
    return stats


def _walls_before(frames: list[dict], ply: int) -> frozenset[str]:
    """The walls the watcher knows while move ``ply`` is under way: those after move ``ply - 1``."""
    walls: frozenset[str] = frozenset()
    for f in frames:
        if f["ply"] == ply - 1 and not f["hand"]:
            walls = frozenset(f["walls"])
    return walls


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Quoridor reading benchmark on rendered games")
    ap.add_argument("--seeds", nargs="+", required=True, help="seeds, e.g. 5000-5005 7 9")
    ap.add_argument("--max-plies", type=int, default=120, help="cap on game length (default 120)")
    ap.add_argument("--keep", metavar="DIR", help="keep the rendered videos here")
    a = ap.parse_args(argv)
    seeds = parse_seeds(a.seeds)
    base = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="quoridor_bench_"))
    results = []
    for seed in seeds:
        s = run_seed(seed, base / f"seed{seed}", a.max_plies)
        results.append(s)
        t = np.array(s["times"]) * 1000
        print(f"seed {seed}: {s['players']}p markers={s['markers']} frames={s['frames']} "
              f"moves {s['right']}/{s['moves']} right, {s['uncertain']} uncertain, "
              f"{s['wrong_moves']} wrong, {s['missed']} missed | cells+segments "
              f"{s['items'] - s['wrong']}/{s['items']} | clear frames read clear "
              f"{s['read_clear']}/{s['clear_frames']} | hand frames untrusted "
              f"{s['hand_untrusted']}/{s['hand_frames']} | read "
              f"{np.median(t) if len(t) else float('nan'):.2f} ms | render {s['render_s']:.0f} s",
              flush=True)
    items = sum(s["items"] for s in results)
    wrong = sum(s["wrong"] for s in results)
    clear = sum(s["clear_frames"] for s in results)
    read_clear = sum(s["read_clear"] for s in results)
    hands = sum(s["hand_frames"] for s in results)
    hand_untrusted = sum(s["hand_untrusted"] for s in results)
    hand_wrong = sum(s["hand_trusted_wrong"] for s in results)
    moves = sum(s["moves"] for s in results)
    right = sum(s["right"] for s in results)
    unc = sum(s["uncertain"] for s in results)
    wrong_moves = sum(s["wrong_moves"] for s in results)
    exact = sum(bool(s["exact"]) for s in results)
    times = np.concatenate([np.array(s["times"]) for s in results]) * 1000 if results else np.zeros(0)
    print()
    print(f"seeds: {' '.join(map(str, seeds))}")
    print(f"per-frame reading (clear frames read as clear): {items - wrong}/{items} cells+segments "
          f"right = {100 * (items - wrong) / max(items, 1):.3f} %")
    print(f"clear frames recognised as clear: {read_clear}/{clear} = "
          f"{100 * read_clear / max(clear, 1):.2f} %")
    print(f"frames with a hand over the board not trusted: {hand_untrusted}/{hands} = "
          f"{100 * hand_untrusted / max(hands, 1):.2f} % (trusted and wrong: {hand_wrong})")
    print(f"whole games: {right}/{moves} moves recovered in order = {100 * right / max(moves, 1):.2f} %; "
          f"{unc} uncertain (asked), {wrong_moves} wrong accepted; {exact}/{len(results)} games exact")
    if len(times):
        print(f"read time per clear 1280x720 frame: median {np.median(times):.2f} ms, "
              f"p95 {np.percentile(times, 95):.2f} ms (sampling + decision; decoding the video "
              f"frame not included)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
