"""Seasons (Libellud, 2012), base game: the engine. See README.md."""

RULES_VERSION = "2"
"""The version of this game's rules and data a match is played under (matches.rules_version).
Any change to a rule, a card or a table that can change how a logged match replays bumps it;
an export or replay of another version is refused (``rules_version_unavailable``).
Version 2 (2026-12-04): library building is a private step (another seat's piles hidden
until she confirms, ``tick`` not moved by it) and an undo of a private step is private
(``undone_privately``): views and events of version 1 matches differ."""
