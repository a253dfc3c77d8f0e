"""The seed proof ("coven-seed-1"), pure functions (docs/FAIRNESS.md).

- The server draws ``server_seed`` (32 random bytes) and ``salt`` (16 bytes) when a room is
  made and publishes ``commitment = SHA-256(server_seed ‖ salt)`` (the 48 raw bytes, hex
  digest).
- Every seat brings a ``contribution``: 16 bytes as 32 lowercase hex digits, drawn by the
  player's browser (or by the server, for a bot or a client that sends none: ``by: "server"``).
- At the start, ``match_seed`` = the first 52 bits of
  ``HMAC-SHA256(key=server_seed, msg=canonical JSON of the contributions)``, where the
  canonical JSON is ``[{"seat":0,"value":"…"},{"seat":1,"value":"…"}, …]``: sorted by seat,
  keys sorted, no spaces, ASCII (Python: ``json.dumps(…, sort_keys=True, separators=(",",
  ":"))``). 52 bits: the seed the engine always had (exact in JavaScript numbers).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

SCHEME = "coven-seed-1"
SEED_BYTES = 32
SALT_BYTES = 16
CONTRIBUTION_BYTES = 16
SEED_BITS = 52

_CONTRIBUTION = re.compile(r"[0-9a-f]{32}")
_HEX = re.compile(r"(?:[0-9a-f]{2})+")


@dataclass(frozen=True, slots=True)
class Secret:
    """A room's secret half of the proof, hex: never sent before its match is over."""

    server_seed: str
    salt: str

    @property
    def commitment(self) -> str:
        return commitment(self.server_seed, self.salt)


@dataclass(frozen=True, slots=True)
class Contribution:
    seat: int
    value: str
    by: str  # "player" | "server"

    def as_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "value": self.value, "by": self.by}


def draw_secret() -> Secret:
    return Secret(secrets.token_hex(SEED_BYTES), secrets.token_hex(SALT_BYTES))


def draw_contribution() -> str:
    return secrets.token_hex(CONTRIBUTION_BYTES)


def is_contribution(value: object) -> bool:
    """16 bytes as 32 lowercase hex digits."""
    return isinstance(value, str) and _CONTRIBUTION.fullmatch(value) is not None


def is_hex(value: object, size: int) -> bool:
    return isinstance(value, str) and len(value) == 2 * size and _HEX.fullmatch(value) is not None


def commitment(server_seed: str, salt: str) -> str:
    """SHA-256 of the seed's bytes followed by the salt's, as 64 hex digits."""
    return hashlib.sha256(bytes.fromhex(server_seed) + bytes.fromhex(salt)).hexdigest()


def canonical_contributions(contributions: Iterable[tuple[int, str]]) -> bytes:
    """The message the match seed is drawn from: ``(seat, value)`` pairs sorted by seat."""
    listed = [{"seat": seat, "value": value} for seat, value in sorted(contributions)]
    return json.dumps(listed, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def match_seed(server_seed: str, contributions: Iterable[tuple[int, str]]) -> int:
    """The engine's seed: the first 52 bits of HMAC-SHA256(server_seed, contributions)."""
    digest = hmac.new(
        bytes.fromhex(server_seed), canonical_contributions(contributions), hashlib.sha256
    ).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def public(
    commitment_hex: str, contributions: Iterable[Contribution], revealed: dict[str, Any] | None
) -> dict[str, Any]:
    """The ``fairness`` object of room info, presence, state, log and export."""
    return {
        "scheme": SCHEME,
        "commitment": commitment_hex,
        "contributions": [c.as_dict() for c in sorted(contributions, key=lambda c: c.seat)],
        "revealed": revealed,
    }


def revealed(secret: Secret, seed: int) -> dict[str, Any]:
    return {"server_seed": secret.server_seed, "salt": secret.salt, "match_seed": seed}
