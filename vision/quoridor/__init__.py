"""Reading a Quoridor board from a camera: board pose, cells, grooves, pawns, hands, moves.

- :mod:`vision.quoridor.geometry` — the board's dimensions and segment indexing (board frame, mm).
- :mod:`vision.quoridor.locate` — finding the board (ArUco markers or the board outline) and
  fitting a camera model to it.
- :mod:`vision.quoridor.reader` — one frame → :class:`BoardReading` (pawn squares, walls, clear?).
- :mod:`vision.quoridor.watch` — stable readings and rules-aware move decoding over a video.
- :mod:`vision.quoridor.draw` — ``annotate(frame, pose, reading)`` for displays.
- :mod:`vision.quoridor.bench` — ``python -m vision.quoridor.bench --seeds 5000-5007``.

Typical use::

    watcher = GameWatcher(players=2)            # vision.quoridor.watch
    for i, frame in enumerate(frames):
        for event in watcher.update(frame, i):  # MoveEvent: move or question
            print(event.to_dict())
    watcher.summary()                           # {"players", "moves", "uncertain"}
"""
