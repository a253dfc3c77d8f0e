"""A committed move, sealed for the other workers: what they need to replay it on their copy
without reading it back from the database.

The bus carries nothing secret in the clear (docs/DESIGN.md): a move's action and its private
events are secrets, so the ``version`` message carries them sealed with AES-GCM under a key
the first worker makes and keeps in ``server_keys`` (every worker reads the same row). Redis,
and anyone reading its channels, sees ciphertext; PostgreSQL already holds the moves in the
clear. The room code is the associated data: a sealed move replayed into another room's
channel does not open. A message without a seal, or one that does not open, costs nothing
but the read it would have cost anyway (``Tables._catch_up`` falls back to the database).
"""

from __future__ import annotations

import asyncio
import base64
import os
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from app import wire
from app.store.moves import Done, Head
from app.store.repository import NewAction, Repository

KEY_NAME = "bus-seal"
NONCE_BYTES = 12


def new_key() -> str:
    return base64.b64encode(AESGCM.generate_key(bit_length=256)).decode("ascii")


def sealed_fields(
    match_id: int, version: int, new: NewAction, stage_since: float
) -> dict[str, Any]:
    """What another worker needs to replay the move committed as ``version`` (the match
    version it produced) and to know the match row as it now is."""
    return {
        "match": match_id,
        "version": version,
        "seat": new.seat,
        "action": new.action,
        "stage": new.stage_before,
        "events": new.events,
        "private_to": new.private_to,
        "stage_after": new.stage_after,
        "stage_since": stage_since,
        "finished": new.finished,
        "acted": new.acted,
        "owing_since": new.owing_since,
    }


def head_of(match_id: int, moves: list[dict[str, Any]]) -> Head | None:
    """The ``Head`` the database would give after the first move's version − 1, from
    consecutive opened moves of ``match_id`` (``None`` if they are not)."""
    if not moves or any(m.get("match") != match_id for m in moves):
        return None
    versions = [m["version"] for m in moves]
    if versions != list(range(versions[0], versions[0] + len(versions))):
        return None
    last = moves[-1]
    return Head(
        version=last["version"],
        stage=last["stage_after"],
        stage_since=last["stage_since"],
        finished=last["finished"],
        acted=list(last["acted"]),
        owing_since=list(last["owing_since"]),
        done=[
            Done(m["version"], m["seat"], m["action"], m["stage"], m["events"], m["private_to"])
            for m in moves
        ],
    )


class MoveSeal:
    """The workers' shared key, read (or made) once, and sealing and opening with it."""

    def __init__(self, repo: Repository) -> None:
        self._repo = repo
        self._aead: AESGCM | None = None
        self._loading = asyncio.Lock()

    @property
    def loaded(self) -> bool:
        """Whether the key is at hand already (``ready`` without a coroutine, per move)."""
        return self._aead is not None

    async def ready(self) -> bool:
        """Whether the key is at hand (read or made on the first call). A database that
        cannot be reached leaves it unloaded: messages then go unsealed, replays read back."""
        if self._aead is None:
            async with self._loading:
                if self._aead is None:
                    try:
                        key = await self._repo.server_key(KEY_NAME, new_key)
                    except Exception:
                        return False
                    self._aead = AESGCM(base64.b64decode(key))
        return True

    def seal(self, code: str, fields: dict[str, Any]) -> str | None:
        if self._aead is None:
            return None
        nonce = os.urandom(NONCE_BYTES)
        sealed = self._aead.encrypt(nonce, wire.dumps_bytes(fields), code.encode())
        return base64.b64encode(nonce + sealed).decode("ascii")

    def open(self, code: str, text: str) -> dict[str, Any] | None:
        if self._aead is None:
            return None
        try:
            raw = base64.b64decode(text, validate=True)
            plain = self._aead.decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:], code.encode())
            fields = wire.loads(plain)
        except (InvalidTag, ValueError):
            return None
        return fields if isinstance(fields, dict) else None
