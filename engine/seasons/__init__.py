"""Seasons (Libellud, 2012), base game: the engine. See README.md."""

RULES_VERSION = "1"
"""The version of this game's rules and data a match is played under (matches.rules_version).
Any change to a rule, a card or a table that can change how a logged match replays bumps it;
an export or replay of another version is refused (``rules_version_unavailable``)."""
