"""The profile use cases: keep one, hold it in a browser, rename, list or hide, claim seats,
play a seat of hers from this browser, export, delete, sign out; with passkeys and device links
beside them."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from app.errors import CovenError
from app.profiles.browser_keys import digest, new_secret, well_formed
from app.profiles.challenges import Challenges
from app.profiles.claims import Claims
from app.profiles.device_links import DeviceLinks
from app.profiles.export import ProfileExport
from app.profiles.passkeys import Passkeys
from app.profiles.records import Holder, Profile, SeatToken
from app.profiles.seat_here import ProfileSeats
from app.profiles.store import ProfileStore
from app.settings import Settings
from app.store.database import Database
from app.store.room_shards import RoomDatabases
from app.text import display_name

# What a deleted profile's seats and history rows are called from then on.
FORMER_NAME = "A former player"

# How a browser came to hold its key (profile_keys.via).
VIA_CREATED = "created"
VIA_DEVICE_LINK = "device_link"
VIA_PASSKEY = "passkey"


def profile_name(raw: str) -> str:
    """The same rules as a seat's name (``app/text.py``), refused as ``bad_name``."""
    try:
        return display_name(raw)
    except ValueError as exc:
        raise CovenError("bad_name", str(exc)) from exc


class ProfileService:
    def __init__(
        self,
        db: Database,
        settings: Settings,
        clock: Callable[[], float] = time.time,
        rooms: RoomDatabases | None = None,
    ) -> None:
        """``rooms``: where rooms' seats are when room databases are listed (profiles and
        history stay in ``db``)."""
        self.settings = settings
        self.clock = clock
        self.rooms = rooms
        self.store = ProfileStore(db, rooms)
        self.claims = Claims(db, rooms)
        self.exports = ProfileExport(db, rooms)
        self.seats = ProfileSeats(db, rooms)
        challenges = Challenges(db)
        self.passkeys = Passkeys(self.store, challenges, clock)
        self.device_links = DeviceLinks(self.store, challenges, clock)

    # -- the browser's hold ---------------------------------------------------------------------

    async def holder(self, secret: str | None) -> Holder | None:
        """The profile a browser's secret holds, or ``None``."""
        if not secret or not well_formed(secret):
            return None
        return await self.store.holder(digest(secret), self.clock())

    async def require(self, secret: str | None) -> Holder:
        holder = await self.holder(secret)
        if holder is None:
            raise CovenError("no_profile", "this browser holds no profile")
        return holder

    async def create(self, name: str, seats: Sequence[SeatToken]) -> tuple[Profile, str]:
        """A new profile for this browser, and the secret the browser will hold it by; the
        browser's guest seats (those whose tokens it sent) become the profile's."""
        clean = profile_name(name)
        secret = new_secret()
        profile = await self.store.create(clean, digest(secret), VIA_CREATED, self.clock())
        await self.claims.claim(profile.id, seats)
        return profile, secret

    async def sign_in(
        self, profile: Profile, via: str, seats: Sequence[SeatToken]
    ) -> tuple[Profile, str]:
        """A new key for this browser (a device link used, a passkey checked)."""
        secret = new_secret()
        await self.store.add_key(profile.id, digest(secret), via, self.clock())
        await self.claims.claim(profile.id, seats)
        return profile, secret

    async def sign_in_by_device_link(
        self, code: str, seats: Sequence[SeatToken]
    ) -> tuple[Profile, str]:
        return await self.sign_in(await self.device_links.use(code), VIA_DEVICE_LINK, seats)

    async def sign_in_by_passkey(
        self, profile_id: int, seats: Sequence[SeatToken]
    ) -> tuple[Profile, str]:
        profile = await self.store.by_id(profile_id)
        if profile is None:
            raise CovenError("passkey_unknown", "this passkey belongs to no profile here")
        return await self.sign_in(profile, VIA_PASSKEY, seats)

    async def sign_out(self, holder: Holder) -> None:
        """This browser lets go of the profile (other browsers and passkeys keep it)."""
        await self.store.remove_key(holder.key_id)

    # -- the profile itself ---------------------------------------------------------------------

    async def change(self, holder: Holder, *, name: str | None, listed: bool | None) -> Profile:
        clean = profile_name(name) if name is not None else None
        return await self.store.change(holder.profile.id, name=clean, listed=listed)

    async def claim(self, holder: Holder, seats: Sequence[SeatToken]) -> int:
        return await self.claims.claim(holder.profile.id, seats)

    async def export(self, holder: Holder) -> dict[str, Any]:
        return await self.exports.export(holder.profile.id, self.clock())

    async def delete(self, holder: Holder) -> list[str]:
        """The profile goes; the codes of the rooms whose seats it held (their live copies
        must drop her name)."""
        return await self.store.delete(holder.profile.id, FORMER_NAME)

    # -- her seats, from any of her browsers ----------------------------------------------------

    async def seats_in(self, holder: Holder, code: str) -> list[int]:
        return await self.seats.held(holder.profile.id, code)

    async def seat_here(self, holder: Holder, code: str, seat: int | None) -> tuple[int, str]:
        """This browser takes a seat the profile holds in room ``code``: a fresh token, the
        old one (another browser's) no longer holds it. The caller announces the change."""
        return await self.seats.take_here(holder.profile.id, code, seat)

    async def passkey_count(self, holder: Holder) -> int:
        return await self.store.passkey_count(holder.profile.id)
