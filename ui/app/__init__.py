"""The PySide6 dashboard (``arbitre dashboard``): live view, Grimpe game keeping, recording and
review.

Layers, as in style.md's GUI section: ``session``/``commands`` hold the game and talk to the
database without Qt; ``recording``/``review_data``/``export``/``referee`` are plain Python
around OpenCV; ``workers`` runs the video source in a QThread; ``widgets``/``main_window`` only
show models and send commands.
"""
