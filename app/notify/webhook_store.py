"""The ``webhooks`` rows: one per table (``room_id``) or per circle (``circle_id``) at most.

Setting a webhook again replaces the row (a new id, a new ``created_at``): posts still waiting
for the old one find it gone (``Gone``), and the new one speaks only of turns that start after
it was set. The URL is its setter's secret: only ``Webhook.url`` carries it, and nothing here
logs it.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import ColumnElement, Select, delete, select
from sqlalchemy.exc import IntegrityError

from app.clock import Clock
from app.errors import CovenError
from app.store.database import Database
from app.store.models import CircleRoomRow, CircleRow, RoomRow, WebhookRow

# Tries of a set that another set at the same moment got in before.
SET_TRIES = 3


@dataclass(frozen=True, slots=True)
class Webhook:
    id: int
    url: str
    format: str
    lang: str
    link_base: str
    created_at: float


def _hook(row: WebhookRow) -> Webhook:
    return Webhook(row.id, row.url, row.format, row.lang, row.link_base, row.created_at)


@dataclass(frozen=True, slots=True)
class Owner:
    """Whose webhook: a table's or a circle's (exactly one of the two)."""

    room_id: int | None = None
    circle_id: int | None = None

    def where(self) -> ColumnElement[bool]:
        if self.room_id is not None:
            return WebhookRow.room_id == self.room_id
        return WebhookRow.circle_id == self.circle_id

    def lock(self) -> Select[int]:
        """The owner's own row, locked until the transaction ends (PostgreSQL; SQLite has one
        writer anyway): two sets of one owner's webhook at once take turns."""
        if self.room_id is not None:
            return select(RoomRow.id).where(RoomRow.id == self.room_id).with_for_update()
        return select(CircleRow.id).where(CircleRow.id == self.circle_id).with_for_update()


class WebhookStore:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def by_id(self, hook_id: int) -> Webhook | None:
        async with self.db.readers() as session:
            row = await session.get(WebhookRow, hook_id)
            return _hook(row) if row is not None else None

    async def of(self, owner: Owner) -> Webhook | None:
        async with self.db.readers() as session:
            row = (await session.execute(select(WebhookRow).where(owner.where()))).scalar()
            return _hook(row) if row is not None else None

    async def set(
        self, owner: Owner, *, url: str, format: str, lang: str, link_base: str
    ) -> Webhook:
        """The owner's webhook, in place of the one it had."""
        for _ in range(SET_TRIES):
            try:
                async with self.db.write() as session:
                    await session.execute(owner.lock())
                    await session.execute(delete(WebhookRow).where(owner.where()))
                    row = WebhookRow(
                        room_id=owner.room_id,
                        circle_id=owner.circle_id,
                        url=url,
                        format=format,
                        lang=lang,
                        link_base=link_base,
                        created_at=self.clock.now(),
                    )
                    session.add(row)
                    await session.flush()
                    return _hook(row)
            except IntegrityError:
                # (The owner's row is locked first, so two sets of it do not race; should the
                # insert fail all the same, it is tried again.) Never passed on: the error's
                # text holds the statement's values, the URL among them, and would be logged.
                continue
        raise CovenError("busy", "the webhook is being set elsewhere right now; try again")

    async def remove(self, owner: Owner) -> bool:
        """Remove the owner's webhook; False if it had none."""
        async with self.db.write() as session:
            await session.execute(owner.lock())
            gone = await session.execute(
                delete(WebhookRow).where(owner.where()).returning(WebhookRow.id)
            )
            return gone.first() is not None

    async def circle_rooms(self, circle_id: int) -> list[int]:
        """The tables opened for a circle (whose posts its webhook makes)."""
        async with self.db.readers() as session:
            return list(
                (
                    await session.execute(
                        select(CircleRoomRow.room_id).where(CircleRoomRow.circle_id == circle_id)
                    )
                ).scalars()
            )
