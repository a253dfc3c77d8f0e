"""Coven's multiplayer server: lobby API, room WebSocket, RoomService, storage and bus.

Nothing here knows a game's rules: games come from ``engine.registry`` only.
"""
