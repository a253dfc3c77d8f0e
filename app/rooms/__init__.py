"""The master of every room: ``service`` (RoomService, what the handlers call) over ``tables``
(this worker's copies), ``seating`` (rooms, seats, start), ``moves`` (the one write path),
``notices`` (reactions after a commit); ``hub`` (this worker's sockets), ``bots`` (the bot
runner and the turn clock). See app/README.md."""
