"""The master of every room: ``service`` (RoomService, the one write path), ``hub`` (this
worker's sockets), ``bots`` (the bot runner and the turn clock)."""
