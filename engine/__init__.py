"""Coven's pure rules engine: no I/O, no clocks, no globals.

``protocol`` defines the ``Game`` contract, ``adapter`` the one shape every game takes behind it
(the protocol's calls delegated to the game's ``rules``, ``view`` and ``State``), ``rng`` the
serialisable random source, ``registry`` the games by id, ``bots`` the players that need no
human, and one package per game.
"""
