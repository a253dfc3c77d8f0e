"""A seat's Web Push subscriptions (one per device): checked as they come, kept, removed.

A subscription is what the browser's ``PushSubscription.toJSON()`` gives: an ``endpoint`` (the
push service's URL for this device) and two keys the payload is encrypted to, ``p256dh`` (a
P-256 public point) and ``auth`` (a 16-byte secret). One is stored per (seat, endpoint): the
same device opting in again replaces its keys and language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import delete, select, update

from app.errors import CovenError
from app.notify.addresses import MAX_URL, parse_url
from app.notify.messages import language
from app.notify.vapid import b64url_decode
from app.store.database import Database, insert_ignoring
from app.store.models import PushSubscriptionRow, SeatRow
from app.store.room_shards import RoomDatabases

# The columns' sizes (app/store/models.py): an endpoint longer than this is refused.
MAX_ENDPOINT = min(MAX_URL, 1000)
MAX_KEY_TEXT = 200
AUTH_BYTES = 16
POINT_BYTES = 65
# Subscriptions one seat may hold (its devices): a new one past this replaces the oldest.
MAX_PER_SEAT = 10


@dataclass(frozen=True, slots=True)
class Subscription:
    endpoint: str
    p256dh: str
    auth: str

    def info(self) -> dict[str, Any]:
        """As pywebpush and the browser write it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


@dataclass(frozen=True, slots=True)
class StoredSubscription:
    id: int
    seat_id: int
    subscription: Subscription
    lang: str


def _bad(message: str) -> CovenError:
    return CovenError("bad_subscription", message, status=422)


def check_endpoint(endpoint: Any, *, allow_http: bool) -> str:
    """An https URL (http too when the operator allows private addresses: the tests' push
    service on 127.0.0.1) of at most ``MAX_ENDPOINT`` characters."""
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > MAX_ENDPOINT:
        raise _bad(f"the endpoint must be a URL of at most {MAX_ENDPOINT} characters")
    scheme = urlsplit(endpoint).scheme.lower()
    if scheme != "https" and not (allow_http and scheme == "http"):
        raise _bad("the endpoint must be an https:// URL")
    try:
        parse_url(endpoint)
    except CovenError as error:
        raise _bad(f"the endpoint is not a usable URL ({error.message})") from None
    return endpoint


def parse_subscription(raw: Any, *, allow_http: bool) -> Subscription:
    """The subscription in ``raw`` (``PushSubscription.toJSON()``), or ``bad_subscription``."""
    if not isinstance(raw, dict):
        raise _bad("subscription must be the object PushSubscription.toJSON() gives")
    endpoint = check_endpoint(raw.get("endpoint"), allow_http=allow_http)
    keys = raw.get("keys")
    if not isinstance(keys, dict):
        raise _bad("subscription.keys must hold p256dh and auth")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not isinstance(p256dh, str) or len(p256dh) > MAX_KEY_TEXT:
        raise _bad("keys.p256dh must be base64url text")
    if not isinstance(auth, str) or len(auth) > MAX_KEY_TEXT:
        raise _bad("keys.auth must be base64url text")
    try:
        point = b64url_decode(p256dh)
    except ValueError:
        raise _bad("keys.p256dh is not base64url") from None
    if len(point) != POINT_BYTES or point[0] != 0x04:
        raise _bad("keys.p256dh must be an uncompressed P-256 point (65 bytes, 0x04 first)")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise _bad("keys.p256dh is not a point on the P-256 curve") from None
    try:
        secret = b64url_decode(auth)
    except ValueError:
        raise _bad("keys.auth is not base64url") from None
    if len(secret) != AUTH_BYTES:
        raise _bad(f"keys.auth must be {AUTH_BYTES} bytes")
    return Subscription(endpoint, p256dh.rstrip("="), auth.rstrip("="))


class PushStore:
    def __init__(self, db: Database, rooms: RoomDatabases | None = None) -> None:
        self.db = db
        # Where seats are when room databases are listed (subscriptions stay in ``db``).
        self.rooms = rooms if rooms is not None and rooms.sharded else None

    async def seat_id(self, room_id: int, seat: int) -> int:
        seats = self.db if self.rooms is None else self.rooms.of(room_id)
        async with seats.readers() as session:
            found: int | None = (
                await session.execute(
                    select(SeatRow.id).where(SeatRow.room_id == room_id, SeatRow.seat == seat)
                )
            ).scalar_one_or_none()
        if found is None:
            raise CovenError("no_such_seat", "this seat is gone")
        return found

    async def keep(
        self, seat_id: int, subscription: Subscription, lang: str | None, now: float
    ) -> None:
        """Add the subscription to the seat, or refresh its keys and language (same endpoint)."""
        values = {
            "p256dh": subscription.p256dh,
            "auth": subscription.auth,
            "lang": language(lang),
        }
        async with self.db.write() as session:
            await session.execute(
                insert_ignoring(self.db.dialect, PushSubscriptionRow).values(
                    seat_id=seat_id, endpoint=subscription.endpoint, created_at=now, **values
                )
            )
            await session.execute(
                update(PushSubscriptionRow)
                .where(
                    PushSubscriptionRow.seat_id == seat_id,
                    PushSubscriptionRow.endpoint == subscription.endpoint,
                )
                .values(**values)
            )
            ids = list(
                (
                    await session.execute(
                        select(PushSubscriptionRow.id)
                        .where(PushSubscriptionRow.seat_id == seat_id)
                        .order_by(
                            PushSubscriptionRow.created_at.desc(), PushSubscriptionRow.id.desc()
                        )
                    )
                ).scalars()
            )
            if len(ids) > MAX_PER_SEAT:
                await session.execute(
                    delete(PushSubscriptionRow).where(
                        PushSubscriptionRow.id.in_(ids[MAX_PER_SEAT:])
                    )
                )

    async def remove(self, seat_id: int, endpoint: str) -> bool:
        async with self.db.write() as session:
            result = await session.execute(
                delete(PushSubscriptionRow).where(
                    PushSubscriptionRow.seat_id == seat_id,
                    PushSubscriptionRow.endpoint == endpoint,
                )
            )
        return bool(getattr(result, "rowcount", 0))

    async def get(self, subscription_id: int) -> StoredSubscription | None:
        async with self.db.readers() as session:
            row = (
                await session.execute(
                    select(PushSubscriptionRow).where(PushSubscriptionRow.id == subscription_id)
                )
            ).scalar_one_or_none()
        if row is None:
            return None
        return StoredSubscription(
            row.id, row.seat_id, Subscription(row.endpoint, row.p256dh, row.auth), row.lang
        )

    async def drop(self, subscription_id: int) -> None:
        """The push service said this subscription is gone (404/410)."""
        async with self.db.write() as session:
            await session.execute(
                delete(PushSubscriptionRow).where(PushSubscriptionRow.id == subscription_id)
            )
