"""Seasons (Libellud, 2012), base game: the engine. See README.md."""
