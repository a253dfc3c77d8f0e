"""The profile rows: profiles, the browser keys that hold them, their passkeys; deletion."""

from __future__ import annotations

import secrets

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.profiles.records import Holder, Passkey, Profile
from app.rooms.seating import table_name
from app.store.database import Database
from app.store.models import (
    AuthChallengeRow,
    ChatRow,
    MatchPlayerRow,
    PasskeyRow,
    ProfileKeyRow,
    ProfileRow,
    RatingRow,
    RoomRow,
    SeatRow,
)
from app.store.room_shards import RoomDatabases

# A key's last use is written at most this often: reading a profile on every request must
# not cost a write each time.
TOUCH_EVERY_SECONDS = 3600.0


def _profile(row: ProfileRow) -> Profile:
    return Profile(row.id, row.public_id, row.name, row.listed, row.created_at)


def new_public_id() -> str:
    return secrets.token_hex(16)  # 128 bits


class ProfileStore:
    def __init__(self, db: Database, rooms: RoomDatabases | None = None) -> None:
        self.db = db
        # Where seats, chat and rooms are when room databases are listed (profiles and
        # history stay in ``db``).
        self.rooms = rooms if rooms is not None and rooms.sharded else None

    # -- profiles and the keys that hold them ---------------------------------------------------

    async def create(self, name: str, secret_hash: str, via: str, now: float) -> Profile:
        """A new profile, held by the browser whose secret hashes to ``secret_hash``."""
        async with self.db.write() as session:
            row = ProfileRow(public_id=new_public_id(), name=name, listed=True, created_at=now)
            session.add(row)
            await session.flush()
            session.add(_key(row.id, secret_hash, via, now))
            return _profile(row)

    async def add_key(self, profile_id: int, secret_hash: str, via: str, now: float) -> None:
        async with self.db.write() as session:
            session.add(_key(profile_id, secret_hash, via, now))

    async def holder(self, secret_hash: str, now: float) -> Holder | None:
        """The profile the key ``secret_hash`` holds, or ``None`` (signed out, deleted)."""
        async with self.db.read() as session:
            found = (
                await session.execute(
                    select(ProfileRow, ProfileKeyRow.id, ProfileKeyRow.last_used_at)
                    .join(ProfileKeyRow, ProfileKeyRow.profile_id == ProfileRow.id)
                    .where(ProfileKeyRow.secret_hash == secret_hash)
                )
            ).first()
        if found is None:
            return None
        row, key_id, last_used = found
        if now - last_used > TOUCH_EVERY_SECONDS:
            async with self.db.write() as session:
                await session.execute(
                    update(ProfileKeyRow).where(ProfileKeyRow.id == key_id).values(last_used_at=now)
                )
        return Holder(_profile(row), key_id)

    async def remove_key(self, key_id: int) -> None:
        async with self.db.write() as session:
            await session.execute(delete(ProfileKeyRow).where(ProfileKeyRow.id == key_id))

    async def by_id(self, profile_id: int) -> Profile | None:
        async with self.db.read() as session:
            row = (
                await session.execute(select(ProfileRow).where(ProfileRow.id == profile_id))
            ).scalar()
        return _profile(row) if row is not None else None

    async def by_public_id(self, public_id: str) -> Profile | None:
        async with self.db.read() as session:
            row = (
                await session.execute(select(ProfileRow).where(ProfileRow.public_id == public_id))
            ).scalar()
        return _profile(row) if row is not None else None

    async def change(
        self, profile_id: int, *, name: str | None = None, listed: bool | None = None
    ) -> Profile:
        """Rename the profile and/or list or unlist it; the profile as it now is."""
        values: dict[str, object] = {}
        if name is not None:
            values["name"] = name
        if listed is not None:
            values["listed"] = listed
        async with self.db.write() as session:
            if values:
                await session.execute(
                    update(ProfileRow).where(ProfileRow.id == profile_id).values(**values)
                )
            row = (
                await session.execute(select(ProfileRow).where(ProfileRow.id == profile_id))
            ).scalar_one()
            return _profile(row)

    async def delete(self, profile_id: int, former_name: str) -> list[str]:
        """The profile goes, and nothing of the person stays: her seats and her rows in match
        history keep their places and scores (others' history stays whole) under
        ``former_name``, marked ``former``; her chat lines in those rooms lose her name too,
        and so do the tables she opened (named after her). The codes of the rooms whose seats
        she held."""
        codes: set[str] = set()
        if self.rooms is not None:
            # Each room database's seats, chat and tables first, then her profile: a deletion
            # cut short leaves her profile, and deleting again finishes it.
            for rooms in self.rooms.all:
                async with rooms.write() as session:
                    codes |= await _forget_seats(session, profile_id, former_name)
        async with self.db.write() as session:
            if self.rooms is None:
                codes |= await _forget_seats(session, profile_id, former_name)
            await session.execute(
                update(MatchPlayerRow)
                .where(MatchPlayerRow.profile_id == profile_id)
                .values(profile_id=None, former=True, name=former_name)
            )
            # (the foreign keys cascade too; said here so a database without them agrees)
            for table in (ProfileKeyRow, PasskeyRow, AuthChallengeRow, RatingRow):
                await session.execute(delete(table).where(table.profile_id == profile_id))
            await session.execute(delete(ProfileRow).where(ProfileRow.id == profile_id))
        return sorted(codes)

    # -- passkeys -------------------------------------------------------------------------------

    async def add_passkey(
        self, profile_id: int, credential_id: str, public_key: str, sign_count: int, now: float
    ) -> None:
        async with self.db.write() as session:
            session.add(
                PasskeyRow(
                    profile_id=profile_id,
                    credential_id=credential_id,
                    public_key=public_key,
                    sign_count=sign_count,
                    created_at=now,
                    last_used_at=None,
                )
            )

    async def passkey(self, credential_id: str) -> Passkey | None:
        async with self.db.read() as session:
            row = (
                await session.execute(
                    select(PasskeyRow).where(PasskeyRow.credential_id == credential_id)
                )
            ).scalar()
        if row is None:
            return None
        return Passkey(row.id, row.profile_id, row.credential_id, row.public_key, row.sign_count)

    async def passkey_used(
        self, passkey_id: int, seen_count: int, sign_count: int, now: float
    ) -> bool:
        """Record a sign-in with the passkey; ``False`` if another sign-in with it moved its
        counter first (a cloned authenticator, or the same assertion twice)."""
        async with self.db.write() as session:
            result = await session.execute(
                update(PasskeyRow)
                .where(PasskeyRow.id == passkey_id, PasskeyRow.sign_count == seen_count)
                .values(sign_count=sign_count, last_used_at=now)
            )
            return bool(getattr(result, "rowcount", 0) == 1)

    async def passkey_ids(self, profile_id: int) -> list[str]:
        async with self.db.read() as session:
            return list(
                (
                    await session.execute(
                        select(PasskeyRow.credential_id).where(PasskeyRow.profile_id == profile_id)
                    )
                )
                .scalars()
                .all()
            )

    async def passkey_count(self, profile_id: int) -> int:
        async with self.db.read() as session:
            count = (
                await session.execute(
                    select(func.count()).where(PasskeyRow.profile_id == profile_id)
                )
            ).scalar_one()
        return int(count)


def _key(profile_id: int, secret_hash: str, via: str, now: float) -> ProfileKeyRow:
    return ProfileKeyRow(
        profile_id=profile_id, secret_hash=secret_hash, via=via, created_at=now, last_used_at=now
    )


async def _forget_seats(session: AsyncSession, profile_id: int, former_name: str) -> set[str]:
    """Her seats keep their places under ``former_name``, marked ``former``; her chat lines in
    those rooms and the tables named after her lose her name; the codes of those rooms."""
    seats = (
        await session.execute(
            select(SeatRow.room_id, SeatRow.seat, SeatRow.name, RoomRow.code, RoomRow.name)
            .join(RoomRow, RoomRow.id == SeatRow.room_id)
            .where(SeatRow.profile_id == profile_id)
        )
    ).all()
    for room_id, seat, seat_name, _, room_name in seats:
        await session.execute(
            update(ChatRow)
            .where(ChatRow.room_id == room_id, ChatRow.seat == seat)
            .values(name=former_name)
        )
        # (a rematch keeps the first table's name, whichever seat she has there)
        if room_name == table_name(seat_name):
            await session.execute(
                update(RoomRow).where(RoomRow.id == room_id).values(name=table_name(former_name))
            )
    await session.execute(
        update(SeatRow)
        .where(SeatRow.profile_id == profile_id)
        .values(profile_id=None, former=True, name=former_name)
    )
    return {code for _, _, _, code, _ in seats}
