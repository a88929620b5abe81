"""Reading a Quoridor board from a camera: board pose, cells, grooves, pawns, hands, moves.

- :mod:`vision.quoridor.geometry` — the board's dimensions and segment indexing (board frame, mm).
- :mod:`vision.quoridor.locate` — finding the board (ArUco markers or the board outline) and
  fitting a camera model to it.
- :mod:`vision.quoridor.reader` — one frame → :class:`BoardReading` (pawn squares, walls, clear?).
- :mod:`vision.quoridor.watch` — stable readings and rules-aware move decoding over a video.
"""
