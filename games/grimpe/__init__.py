"""Grimpe! (Le Scorpion Masqué): cards, routes, the climb judge and the game.

The rulebook is ``docs/grimpe-referee.md`` (shared): it decides every rule.
"""
