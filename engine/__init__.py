"""Coven's pure rules engine: no I/O, no clocks, no globals.

``protocol`` defines the ``Game`` contract, ``rng`` the serialisable random source, ``registry``
the games by id, ``bots`` the players that need no human, and one package per game.
"""
