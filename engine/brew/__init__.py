"""Witch's Brew (Andreas Pelikan, alea 2008): the bidding game of roles."""

RULES_VERSION = "2"
"""The version of this game's rules and data a match is played under (matches.rules_version).
Any change to a rule, a card or a table that can change how a logged match replays bumps it;
an export or replay of another version is refused (``rules_version_unavailable``).
Version 2 (2026-12-04): an undo of a private step (a keep) is private (``undone_privately``):
the events of version 1 matches differ."""
