"""The circle use cases and who may do what.

- Any profile creates a circle (it becomes its keeper and first member) and joins one by its
  invite link; any member sees the circle's page, opens tables for it and leaves it.
- The keeper (the creator; once she left or deleted her profile, the member who joined
  first) renames it, removes members and renews the invite link, which revokes the old one.
- To anyone else a circle does not exist: ``circle_not_found``, the same answer as an unknown
  id, so a circle's id reveals nothing.
- A private profile (``listed`` false) is a member like any other, named in the member list
  (the circle is the group it chose to join), but left out of the circle's leaderboard as
  others see it; its owner still sees her own line.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError

from app.circles.invites import invite_hash, new_circle_id, new_invite_code, plausible_code
from app.circles.records import Circle, Member, OpenTable, PlayedMatch, Standing
from app.circles.store import CircleFull, CircleStore
from app.errors import CovenError
from app.profiles.records import Profile
from app.text import display_name

MAX_MEMBERS = 100
# Circles one profile may belong to (created or joined).
MAX_CIRCLES = 50
RECENT_MATCHES = 20
TABLES_PER_CIRCLE = 10
# A table waiting for players is shown this long after it was opened; one being played, always.
WAITING_SECONDS = 3 * 24 * 3600.0

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Invitation:
    """What an invite link shows before joining."""

    circle: Circle
    members: int
    member: bool  # the asking profile is a member already


@dataclass(frozen=True, slots=True)
class CirclePage:
    circle: Circle
    members: list[Member]
    standings: list[Standing]
    matches: list[PlayedMatch]
    tables: list[OpenTable]


@dataclass(frozen=True, slots=True)
class MyCircle:
    circle: Circle
    members: int
    tables: list[OpenTable]


def circle_name(raw: str) -> str:
    try:
        return display_name(raw)
    except ValueError as exc:
        raise CovenError("bad_circle_name", f"circle name: {exc}") from None


class Circles:
    def __init__(self, store: CircleStore, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    async def create(self, profile: Profile, name: str) -> tuple[Circle, str]:
        """A new circle kept by ``profile``, and its invite code (given once: only its hash
        is stored)."""
        name = circle_name(name)
        await self._room_for_one_more(profile)
        code = new_invite_code()
        circle = await self.store.create(
            public_id=new_circle_id(),
            name=name,
            profile_id=profile.id,
            code_hash=invite_hash(code),
            now=self.clock(),
        )
        return circle, code

    async def member_circle(self, profile: Profile, public_id: str) -> Circle:
        """The circle, if ``profile`` is one of its members; otherwise it does not exist."""
        circle = await self.store.by_public_id(public_id) if len(public_id) <= 64 else None
        if circle is None or not await self.store.is_member(circle.id, profile.id):
            raise CovenError(
                "circle_not_found", "no such circle, or you are not one of its members"
            )
        return circle

    async def page(self, profile: Profile, public_id: str) -> CirclePage:
        circle = await self.member_circle(profile, public_id)
        members = await self.store.members(circle.id)
        ids = [m.profile_id for m in members]
        standings = [
            s for s in await self.store.standings(ids) if s.listed or s.profile_id == profile.id
        ]
        matches = await self.store.recent_matches(circle.id, ids, RECENT_MATCHES)
        tables = await self.store.open_tables(
            [circle.id],
            waiting_since=self.clock() - WAITING_SECONDS,
            per_circle=TABLES_PER_CIRCLE,
        )
        return CirclePage(circle, members, standings, matches, tables.get(circle.id, []))

    async def mine(self, profile: Profile) -> list[MyCircle]:
        """Every circle of ``profile`` with its tables not finished."""
        circles = await self.store.circles_of(profile.id)
        tables = await self.store.open_tables(
            [c.id for c, _ in circles],
            waiting_since=self.clock() - WAITING_SECONDS,
            per_circle=TABLES_PER_CIRCLE,
        )
        return [MyCircle(c, count, tables.get(c.id, [])) for c, count in circles]

    async def rename(self, profile: Profile, public_id: str, name: str) -> Circle:
        circle = await self._kept(profile, public_id)
        await self.store.rename(circle.id, circle_name(name))
        return await self.member_circle(profile, public_id)

    async def renew_invite(self, profile: Profile, public_id: str) -> tuple[Circle, str]:
        """A new invite link; the old one stops working at once (``circle_invite_revoked``)."""
        circle = await self._kept(profile, public_id)
        code = new_invite_code()
        await self.store.renew_invite(circle.id, invite_hash(code), self.clock())
        return await self.member_circle(profile, public_id), code

    async def held_invite(self, profile: Profile, public_id: str, code: str) -> Circle:
        """The circle, if ``code`` is its current invite link (a member's browser keeps the
        code it was given and asks to show it again)."""
        circle = await self.member_circle(profile, public_id)
        if (await self._invited(code)).id != circle.id:
            raise CovenError("circle_invite_invalid", "this circle invite link is not valid")
        return circle

    async def invitation(self, code: str, profile: Profile | None) -> Invitation:
        circle = await self._invited(code)
        members = await self.store.member_count(circle.id)
        member = profile is not None and await self.store.is_member(circle.id, profile.id)
        return Invitation(circle, members, member)

    async def join(self, profile: Profile, code: str) -> Circle:
        """``profile`` joins the circle the code opens (already a member: nothing changes)."""
        circle = await self._invited(code)
        if await self.store.is_member(circle.id, profile.id):
            return circle
        await self._room_for_one_more(profile)
        try:
            await self.store.add_member(circle.id, profile.id, self.clock(), MAX_MEMBERS)
        except CircleFull:
            raise CovenError(
                "circle_full", f"this circle has its {MAX_MEMBERS} members already"
            ) from None
        return await self.member_circle(profile, circle.public_id)

    async def leave(self, profile: Profile, public_id: str) -> None:
        circle = await self.member_circle(profile, public_id)
        await self.store.remove_member(circle.id, profile.id)

    async def remove(self, profile: Profile, public_id: str, member_public_id: str) -> None:
        """The keeper takes a member out of the circle (herself: she leaves it)."""
        circle = await self._kept(profile, public_id)
        members = await self.store.members(circle.id)
        member = next((m for m in members if m.public_id == member_public_id), None)
        if member is None:
            raise CovenError("circle_member_not_found", "no such member in this circle")
        await self.store.remove_member(circle.id, member.profile_id)

    async def open_table_for(self, profile: Profile | None, public_id: str) -> Circle:
        """The circle a new table may be opened for: its opener must be a member."""
        if profile is None:
            raise CovenError("no_profile", "open a table for a circle with your profile")
        return await self.member_circle(profile, public_id)

    async def attach(self, room_id: int, circle: Circle) -> None:
        """Mark a new room as the circle's. The room and its seat token reach the player
        whatever happens here: a circle that vanished meanwhile (its last member left) leaves
        an ordinary table."""
        try:
            await self.store.attach_room(room_id, circle.id)
        except IntegrityError:
            log.info("circle %s went before its new table was attached", circle.public_id)

    # -- rules --------------------------------------------------------------------------------

    async def _kept(self, profile: Profile, public_id: str) -> Circle:
        circle = await self.member_circle(profile, public_id)
        if circle.keeper_id != profile.id:
            raise CovenError("not_circle_keeper", "only the circle's keeper may do this")
        return circle

    async def _invited(self, code: str) -> Circle:
        found = await self.store.invite(invite_hash(code)) if plausible_code(code) else None
        if found is None:
            raise CovenError("circle_invite_invalid", "this circle invite link is not valid")
        circle, revoked = found
        if revoked:
            raise CovenError(
                "circle_invite_revoked",
                "this circle invite link was revoked; ask a member for the new one",
            )
        if circle.keeper_id is None:
            # Every member left (or deleted her profile): the circle is gone.
            raise CovenError("circle_invite_invalid", "this circle invite link is not valid")
        return circle

    async def _room_for_one_more(self, profile: Profile) -> None:
        if await self.store.count_circles_of(profile.id) >= MAX_CIRCLES:
            raise CovenError(
                "too_many_circles", f"a profile belongs to at most {MAX_CIRCLES} circles"
            )
