"""What the profile store hands out: plain records, never ORM rows."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Profile:
    id: int
    # 128 random bits in hex: what URLs and other players see, never the row id.
    public_id: str
    name: str
    listed: bool
    created_at: float


@dataclass(frozen=True, slots=True)
class Holder:
    """A browser holding a profile: the profile, and which of its keys this browser has (so
    signing out forgets this browser only)."""

    profile: Profile
    key_id: int


@dataclass(frozen=True, slots=True)
class SeatToken:
    """A seat this browser holds, as its localStorage keeps it: the room code and the seat's
    bearer token (sent in a request body to claim the seat, never in a URL)."""

    room: str
    token: str


@dataclass(frozen=True, slots=True)
class Challenge:
    """A one-time WebAuthn challenge or device-link code, as stored (by its digest)."""

    purpose: str
    profile_id: int | None
    expires_at: float


@dataclass(frozen=True, slots=True)
class Passkey:
    id: int
    profile_id: int
    credential_id: str  # base64url
    public_key: str  # base64url of the COSE key
    sign_count: int
