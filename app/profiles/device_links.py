"""One-time device links: a browser that holds a profile asks for a code, valid ten minutes and
good once, that gives another browser (any, plain-http LAN included) a key of its own.

The link is ``/device#<code>``: in the fragment, which browsers never send, so the code reaches
no server log; the page posts it in a request body.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from app.errors import CovenError
from app.profiles.challenges import DEVICE_LINK, Challenges
from app.profiles.records import Challenge, Profile
from app.profiles.store import ProfileStore

LINK_SECONDS = 600.0


def device_url(base: str, code: str) -> str:
    return f"{base}/device#{code}"


class DeviceLinks:
    def __init__(
        self, store: ProfileStore, challenges: Challenges, clock: Callable[[], float]
    ) -> None:
        self.store = store
        self.challenges = challenges
        self.clock = clock

    async def create(self, profile_id: int) -> tuple[str, float]:
        """A new code for ``profile_id`` and when it stops working."""
        code = secrets.token_urlsafe(16)  # 128 bits
        now = self.clock()
        expires_at = now + LINK_SECONDS
        await self.challenges.put(code, DEVICE_LINK, profile_id, expires_at, now)
        return code, expires_at

    async def peek(self, code: str) -> Profile:
        """Whose profile the link gives, without using it."""
        return await self._profile(self._check(await self.challenges.peek(code, DEVICE_LINK)))

    async def use(self, code: str) -> Profile:
        """The profile the link gives; the link is spent (a second use finds nothing)."""
        return await self._profile(self._check(await self.challenges.take(code, DEVICE_LINK)))

    def _check(self, link: Challenge | None) -> int:
        # Used links are deleted, so "used" and "never existed" look alike here (and an
        # attacker learns nothing from telling them apart).
        if link is None or link.profile_id is None:
            raise CovenError(
                "device_link_invalid", "this device link was used already or never existed"
            )
        if link.expires_at < self.clock():
            raise CovenError(
                "device_link_expired", "this device link has expired; ask for a new one"
            )
        return link.profile_id

    async def _profile(self, profile_id: int) -> Profile:
        profile = await self.store.by_id(profile_id)
        if profile is None:  # deleted since (its links cascade away; a race at most)
            raise CovenError(
                "device_link_invalid", "this device link was used already or never existed"
            )
        return profile
