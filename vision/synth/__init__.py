"""Synthetic table scenes with exact ground truth: table, cards, camera and a procedural hand."""
