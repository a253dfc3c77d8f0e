"""Web Push: the sender of the outbox's ``push`` rows, and the server's key it signs with.

``start`` loads (or makes, once for the whole deployment) the VAPID key (``app.notify.vapid``).
``send`` delivers one notification to one device's subscription (``app.notify.push_store``):

- not while a tab of that seat is in view on any worker (``Skip``): the page tells it itself;
- the endpoint is checked again (``app.notify.addresses``): no private address unless allowed;
- the text is made now, in the device's language (``app.notify.messages.push_text``), and the
  JSON ``{title, body, url, tag}`` is encrypted to the device (aes128gcm, RFC 8291, by
  pywebpush) and signed with our key (VAPID, RFC 8292);
- it is POSTed with a total time-out, never following a redirect, reading at most a little of
  the answer. 2xx → ``Sent``; 404/410 → the subscription is deleted, ``Gone``; 408/425/429/5xx,
  a network error or a time-out → ``Retry`` (after ``Retry-After`` when given); any other
  answer → ``Refused``.

The request is sent with httpx rather than pywebpush's own ``webpush()``: that one posts with
``requests`` in a thread, follows redirects (a push service could send us on to a private
address after the check) and reads the whole answer, and a thread cannot be stopped at a
time-out.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import re
import time
from typing import Any
from urllib.parse import urlsplit

import httpx
from pywebpush import WebPusher  # type: ignore[import-untyped]

from app.bus import Bus
from app.clock import Clock
from app.errors import CovenError
from app.notify.addresses import check_destination
from app.notify.messages import push_text
from app.notify.push_store import PushStore, StoredSubscription
from app.notify.records import Gone, Notification, Outcome, Refused, Retry, Sent, Skip
from app.notify.vapid import VapidKey, load_or_make
from app.settings import Settings
from app.store.database import Database
from app.store.room_shards import RoomDatabases

log = logging.getLogger(__name__)

# One delivery, from connecting to the last byte read: well inside the outbox's claim.
SEND_SECONDS = 15.0
CONNECT_SECONDS = 5.0
# How long a push service keeps a push for a device that is offline.
TTL_SECONDS = 24 * 3600
MIN_TTL_SECONDS = 60
# Of a refusal's body, only this much is read (it goes into the row's last_error).
ANSWER_BYTES = 300
# RFC 8030 "Topic": a newer push for the same table replaces one still waiting for the device.
_TOPIC = re.compile(r"[A-Za-z0-9_-]{1,32}")
_RETRY_STATUSES = frozenset({408, 425, 429})
# Contact for the push services without COVEN_PUSH_CONTACT and an https COVEN_PUBLIC_URL.
FALLBACK_SUBJECT = "mailto:coven@localhost"


def push_body(payload: dict[str, Any], lang: str, now: float) -> dict[str, str]:
    """What the service worker receives: the text, where a click leads, and the tag that keeps
    one notification per table on the device."""
    title, body = push_text(payload, lang, now)
    code = str(payload.get("code", ""))
    url = str(payload.get("url") or f"/r/{code}")
    return {"title": title, "body": body, "url": url, "tag": f"coven-{code}"}


def time_to_live(payload: dict[str, Any], now: float) -> int:
    """A reminder is worth delivering until its clock runs out; a turn for a day."""
    due = payload.get("due")
    if isinstance(due, int | float) and payload.get("kind") == "reminder":
        return max(MIN_TTL_SECONDS, min(TTL_SECONDS, int(due - now)))
    return TTL_SECONDS


def retry_after(value: str | None, now: float) -> float | None:
    """Seconds from a ``Retry-After`` header (a number of seconds, or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - now)


def vapid_subject(settings: Settings) -> str:
    if settings.push_contact:
        return settings.push_contact
    public = settings.public_url
    return public if public and public.startswith("https://") else FALLBACK_SUBJECT


class PushSender:
    channel = "push"

    def __init__(
        self,
        db: Database,
        bus: Bus,
        settings: Settings,
        clock: Clock,
        rooms: RoomDatabases | None = None,
    ) -> None:
        self.db = db
        self.bus = bus
        self.settings = settings
        self.clock = clock
        self.store = PushStore(db, rooms)
        self._key: VapidKey | None = None
        self._http: httpx.AsyncClient | None = None

    # -- the key -------------------------------------------------------------------------------

    async def start(self) -> None:
        self._key = await load_or_make(self.db, self.clock)
        self._http = httpx.AsyncClient(
            follow_redirects=False,
            timeout=httpx.Timeout(SEND_SECONDS, connect=CONNECT_SECONDS),
            limits=httpx.Limits(max_connections=32, max_keepalive_connections=8),
        )

    @property
    def key(self) -> VapidKey:
        if self._key is None:
            raise CovenError("unavailable", "push is starting; retry", status=503)
        return self._key

    @property
    def public_key(self) -> str:
        """The browser's ``applicationServerKey``."""
        return self.key.public_key

    async def close(self) -> None:
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    # -- sending -------------------------------------------------------------------------------

    async def send(self, note: Notification) -> Outcome:
        stored = await self.store.get(note.target)
        if stored is None:
            return Gone("the subscription was removed")
        payload = note.payload
        if await self._seat_in_view(str(payload.get("code", "")), payload.get("seat")):
            return Skip("a tab is in view")
        endpoint = stored.subscription.endpoint
        try:
            await check_destination(endpoint, allow_private=self.settings.webhook_allow_private)
        except CovenError as error:
            if error.code == "unreachable_url":
                return Retry(error.message)
            return Refused(f"{error.code}: {error.message}")
        now = self.clock.now()
        data = json.dumps(push_body(payload, stored.lang, now), ensure_ascii=False)
        return await self._deliver(stored, data.encode(), payload, now)

    async def _seat_in_view(self, code: str, seat: Any) -> bool:
        if not code or not isinstance(seat, int):
            return False
        for entry in await self.bus.presence(code):
            visible = entry.get("visible") or {}
            if int(visible.get(str(seat), 0) or 0) > 0:
                return True
        return False

    def _request(
        self, stored: StoredSubscription, data: bytes, payload: dict[str, Any], now: float
    ) -> tuple[bytes, dict[str, str]]:
        endpoint = stored.subscription.endpoint
        parts = urlsplit(endpoint)
        audience = f"{parts.scheme}://{parts.netloc}"
        encrypted = WebPusher(stored.subscription.info()).encode(data, "aes128gcm")
        headers = {
            "Authorization": self.key.authorization(audience, vapid_subject(self.settings)),
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "TTL": str(time_to_live(payload, now)),
            "Urgency": "high" if payload.get("kind") == "reminder" else "normal",
        }
        topic = f"coven-{payload.get('code', '')}"
        if _TOPIC.fullmatch(topic):
            headers["Topic"] = topic
        return bytes(encrypted["body"]), headers

    async def _deliver(
        self, stored: StoredSubscription, data: bytes, payload: dict[str, Any], now: float
    ) -> Outcome:
        if self._http is None:
            return Retry("push is not started")
        body, headers = self._request(stored, data, payload, now)
        started = time.monotonic()
        try:
            async with asyncio.timeout(SEND_SECONDS):
                async with self._http.stream(
                    "POST", stored.subscription.endpoint, content=body, headers=headers
                ) as response:
                    status = response.status_code
                    wait = retry_after(response.headers.get("retry-after"), time.time())
                    answer = await _head(response) if status >= 300 else ""
        except TimeoutError:
            return Retry(f"the push service did not answer within {SEND_SECONDS:g} s")
        except httpx.HTTPError as error:
            return Retry(f"the push service could not be reached ({type(error).__name__})")
        took = time.monotonic() - started
        log.debug("push %s → %s in %.3f s", stored.id, status, took)
        if 200 <= status < 300:
            return Sent()
        said = f"{status} {answer}".strip()
        if status in (404, 410):
            await self.store.drop(stored.id)
            return Gone(f"the push service says the subscription is gone ({said})")
        if status in _RETRY_STATUSES or status >= 500:
            return Retry(f"the push service answered {said}", wait)
        if 300 <= status < 400:
            return Refused(f"the push service redirected ({status}); redirects are not followed")
        return Refused(f"the push service refused the push ({said})")


async def _head(response: httpx.Response) -> str:
    """The start of an answer's body (never more than ``ANSWER_BYTES``)."""
    read = bytearray()
    async for chunk in response.aiter_raw():
        read += chunk
        if len(read) >= ANSWER_BYTES:
            break
    return bytes(read[:ANSWER_BYTES]).decode("utf-8", "replace").strip()
