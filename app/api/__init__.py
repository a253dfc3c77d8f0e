"""Thin handlers: HTTP (``http``) and the room WebSocket (``ws``). They parse, call the
RoomService, and shape answers; no rule or storage code lives here."""
