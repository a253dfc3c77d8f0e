"""One-time challenges (WebAuthn) and device-link codes, kept by their sha256 in the database
so any worker can check them; each is taken once (deleted as it is used)."""

from __future__ import annotations

from sqlalchemy import delete, select

from app.profiles.browser_keys import digest
from app.profiles.records import Challenge
from app.store.database import Database
from app.store.models import AuthChallengeRow

PASSKEY_REGISTER = "passkey_register"
PASSKEY_LOGIN = "passkey_login"
DEVICE_LINK = "device_link"


class Challenges:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def put(
        self,
        value: str | bytes,
        purpose: str,
        profile_id: int | None,
        expires_at: float,
        now: float,
    ) -> None:
        async with self.db.write() as session:
            # Expired ones are worthless: each new one clears them out (an indexed range).
            await session.execute(delete(AuthChallengeRow).where(AuthChallengeRow.expires_at < now))
            session.add(
                AuthChallengeRow(
                    digest=digest(value),
                    purpose=purpose,
                    profile_id=profile_id,
                    expires_at=expires_at,
                )
            )

    async def peek(self, value: str | bytes, purpose: str) -> Challenge | None:
        """The challenge, left in place (the device page shows whose profile a link holds
        before it is used)."""
        async with self.db.read() as session:
            row = (
                await session.execute(
                    select(AuthChallengeRow).where(
                        AuthChallengeRow.digest == digest(value),
                        AuthChallengeRow.purpose == purpose,
                    )
                )
            ).scalar()
        return Challenge(row.purpose, row.profile_id, row.expires_at) if row is not None else None

    async def take(self, value: str | bytes, purpose: str) -> Challenge | None:
        """The challenge, deleted: of two requests taking the same one, one gets it and the
        other ``None`` (the DELETE's row count decides). Expired ones are taken too; the
        caller checks ``expires_at``."""
        async with self.db.write() as session:
            row = (
                await session.execute(
                    select(AuthChallengeRow).where(
                        AuthChallengeRow.digest == digest(value),
                        AuthChallengeRow.purpose == purpose,
                    )
                )
            ).scalar()
            if row is None:
                return None
            result = await session.execute(
                delete(AuthChallengeRow).where(AuthChallengeRow.id == row.id)
            )
            if getattr(result, "rowcount", 0) != 1:
                return None
            return Challenge(row.purpose, row.profile_id, row.expires_at)
