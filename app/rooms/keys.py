"""The names a room goes by: its code, its seats' tokens (stored only as hashes), the seat a
token holds and the room's channel on the bus."""

from __future__ import annotations

import hashlib
import secrets

from app.errors import CovenError
from app.store.repository import RoomRecord


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_room_code() -> str:
    # 12 bytes = 96 bits: a private room is reachable by its link alone.
    return secrets.token_urlsafe(12)


def room_channel(code: str) -> str:
    return f"room:{code}"


def seat_of(room: RoomRecord, token: str | None) -> int | None:
    """The seat a token holds; ``None`` for no token (a spectator). A wrong token is an
    error, never a silent downgrade to spectator."""
    if not token:
        return None
    seat = room.seat_for_token_hash(hash_token(token))
    if seat is None:
        raise CovenError("bad_token", "this token holds no seat in this room")
    return seat.seat
