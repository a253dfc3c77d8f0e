"""The ``webhooks`` rows: one per table (``room_id``) or per circle (``circle_id``) at most.

Setting a webhook again replaces the row (a new id, a new ``created_at``): posts still waiting
for the old one find it gone (``Gone``), and the new one speaks only of turns that start after
it was set. The URL is its setter's secret: only ``Webhook.url`` carries it, and nothing here
logs it.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import ColumnElement, delete, select

from app.clock import Clock
from app.store.database import Database
from app.store.models import CircleRoomRow, WebhookRow


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
        async with self.db.write() as session:
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

    async def remove(self, owner: Owner) -> bool:
        """Remove the owner's webhook; False if it had none."""
        async with self.db.write() as session:
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
