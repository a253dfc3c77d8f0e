"""Posts to group chats' webhooks: the sender the outbox hands each ``webhook`` notification to.

A post is one HTTP POST in the webhook's format (``chat_formats``), in its language, with a link
to the table. The receiver is someone else's server, so the sender trusts nothing about it:

- **no redirect is followed** (a 3xx is ``Refused``), and the answer's body is never read;
- **short time-outs**: 3 s to connect, 5 s for the whole post (look-up included);
- **the destination is checked again before each send**: the name is resolved, every address
  it resolves to must pass ``check_destination`` (no private, loopback or link-local address
  unless ``COVEN_WEBHOOK_ALLOW_PRIVATE``), and the post goes to an address of that same answer
  (the name still in ``Host`` and in TLS's SNI, where the certificate is checked against it).
  So a DNS answer that changes after the check (rebinding) cannot steer the post elsewhere.
  What remains: the check trusts the resolver this server uses; and an address that is public
  when checked is used for this one post only (no connection is kept between posts);
- answers: 2xx ``Sent``; 408, 425, 429, 5xx, a time-out or a connection failure ``Retry``
  (``Retry-After`` honoured); any other 4xx ``Refused``; the webhook removed meanwhile ``Gone``.
  ``send`` never raises;
- a receiver that let a post time out is left alone for ``QUIET_SECONDS`` (its other posts are
  put off at once, ``Retry``), so a dead chat server holds none of the outbox's sending slots
  that other webhooks and pushes need.

The URL is its setter's secret: it is never in ``last_error`` nor in a log line (errors are
told by the exception's class and the answer's status only).
"""

from __future__ import annotations

import asyncio
import email.utils
import ipaddress
import logging
import socket
import time
import traceback
from dataclasses import dataclass

import httpx

from app.clock import Clock
from app.errors import CovenError
from app.notify.addresses import check_destination, parse_url
from app.notify.chat_formats import FORMATS, ChatLine, Post
from app.notify.messages import chat_text
from app.notify.records import Gone, Notification, Outcome, Refused, Retry, Sent
from app.notify.webhook_store import Webhook, WebhookStore
from app.settings import Settings
from app.store.database import Database

log = logging.getLogger(__name__)

CONNECT_SECONDS = 3.0
TOTAL_SECONDS = 5.0
# Addresses of one name tried in turn when a connection fails (IPv6 first, then IPv4…).
MAX_ADDRESSES = 3
# Answers worth trying again later: the receiver is busy, down or asks us to wait.
RETRY_STATUSES = frozenset({408, 425, 429})
# The longest wait a receiver's Retry-After is taken at (the outbox caps it again).
MAX_RETRY_AFTER = 3600.0
# A webhook whose receiver let a post time out is left alone this long: its other posts wait
# (``Retry``) without holding one of the outbox's few sending slots for 5 s each, so a dead
# chat server cannot hold up everyone else's posts and pushes.
QUIET_SECONDS = 30.0


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds from a ``Retry-After`` header: a number of seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
    if seconds != seconds:  # NaN
        return None
    return min(max(seconds, 0.0), MAX_RETRY_AFTER)


def outcome_of(status: int, headers: httpx.Headers) -> Outcome:
    """What a receiver's answer means for the post."""
    if 200 <= status < 300:
        return Sent()
    if 300 <= status < 400:
        return Refused(f"answered {status}: a redirect, which is not followed")
    if status in RETRY_STATUSES or status >= 500:
        return Retry(f"answered {status}", retry_after(headers.get("retry-after")))
    return Refused(f"answered {status}")


@dataclass(frozen=True, slots=True)
class Destination:
    """Where one post goes: the URL's name, and the checked addresses it resolved to now."""

    url: httpx.URL
    name: str  # the host as sent in Host and SNI (IDNA: ASCII)
    addresses: tuple[str, ...]


async def destination(url: str, *, allow_private: bool) -> Destination:
    """Resolve ``url``'s host now and check every address it resolves to; ``CovenError``
    (``bad_url``, ``private_address``, ``unreachable_url``) when it may not be sent to."""
    host, port = parse_url(url)
    try:
        target = httpx.URL(url.strip())
        name = target.raw_host.decode("ascii")
    except (httpx.InvalidURL, UnicodeError):
        raise CovenError("bad_url", "this URL cannot be used") from None
    try:
        literal: str | None = str(ipaddress.ip_address(host.strip("[]")))
    except ValueError:
        literal = None
    if literal is not None:
        found = [literal]
    else:
        try:
            infos = await asyncio.get_running_loop().getaddrinfo(
                name, port, type=socket.SOCK_STREAM
            )
        except (OSError, UnicodeError):
            raise CovenError("unreachable_url", "the webhook's host cannot be found") from None
        found = list(dict.fromkeys(str(info[4][0]).split("%")[0] for info in infos))
        if not found:
            raise CovenError("unreachable_url", "the webhook's host cannot be found")
    for address in found:
        # The same rule as when the webhook was set, on the very addresses the post will use.
        shown = f"[{address}]" if ":" in address else address
        await check_destination(f"http://{shown}/", allow_private=allow_private)
    return Destination(target, name, tuple(found[:MAX_ADDRESSES]))


def _failure(exc: BaseException) -> str:
    """An exception as ``last_error`` may hold it: its kind, never its text (which may carry
    the URL)."""
    if isinstance(exc, httpx.TimeoutException | TimeoutError):
        return f"timed out ({type(exc).__name__})"
    if isinstance(exc, httpx.TransportError):
        return f"could not reach the receiver ({type(exc).__name__})"
    return f"failed ({type(exc).__name__})"


class WebhookSender:
    channel = "webhook"

    def __init__(self, db: Database, settings: Settings, clock: Clock) -> None:
        self.db = db
        self.settings = settings
        self.clock = clock
        self.store = WebhookStore(db, clock)
        self._transport: httpx.AsyncHTTPTransport | None = None
        # webhook id -> until when (monotonic) its receiver is left alone after a time-out
        self._quiet: dict[int, float] = {}

    async def start(self) -> None:
        # The transport alone, not a client: it never follows a redirect, and it does not log
        # each request's URL (httpx's client does, at INFO).
        self._transport = httpx.AsyncHTTPTransport(
            # Proxies from the environment would reach addresses the check never saw.
            trust_env=False,
            # A connection per post: one kept open would carry the next post to an address
            # checked for another name (and posts are rare: one per turn).
            limits=httpx.Limits(max_connections=64, max_keepalive_connections=0),
        )

    async def close(self) -> None:
        if self._transport is not None:
            await self._transport.aclose()
            self._transport = None

    async def send(self, note: Notification) -> Outcome:
        try:
            hook = await self.store.by_id(note.target)
            if hook is None:
                return Gone("the webhook was removed")
            build = FORMATS.get(hook.format)
            if build is None:
                return Refused(f"unknown format {hook.format!r}")
            quiet = self._quiet.get(hook.id, 0.0) - time.monotonic()
            if quiet > 0:
                return Retry("the receiver did not answer lately", quiet)
            try:
                async with asyncio.timeout(TOTAL_SECONDS):
                    return await self._post(hook, build(self.line(hook, note)))
            except (TimeoutError, httpx.TimeoutException):
                self._leave_alone(hook.id)
                raise
        except CovenError as refusal:
            if refusal.code == "unreachable_url":
                return Retry("the host cannot be found now")
            return Refused(f"{refusal.code}: this webhook's address may not be sent to")
        except Exception as exc:  # never raise: the outbox records the outcome
            if not isinstance(exc, httpx.HTTPError | TimeoutError):
                log.error(
                    "webhook %s: the post failed (%s)\n%s",
                    note.target,
                    type(exc).__name__,
                    "".join(traceback.format_tb(exc.__traceback__)),
                )
            return Retry(_failure(exc))

    def _leave_alone(self, hook_id: int) -> None:
        now = time.monotonic()
        if len(self._quiet) > 10_000:
            self._quiet = {k: v for k, v in self._quiet.items() if v > now}
        self._quiet[hook_id] = now + QUIET_SECONDS

    @staticmethod
    def line(hook: Webhook, note: Notification) -> ChatLine:
        payload = note.payload
        return ChatLine(
            text=chat_text(payload, hook.lang),
            link=hook.link_base + str(payload.get("url", "")),
            title=str(payload.get("title", "")),
            kind=str(payload.get("kind", "turn")),
        )

    async def _post(self, hook: Webhook, post: Post) -> Outcome:
        if self._transport is None:
            return Retry("the sender is not started")
        where = await destination(hook.url, allow_private=self.settings.webhook_allow_private)
        headers = {**post.headers, "Host": where.url.netloc.decode("ascii")}
        extensions: dict[str, object] = {
            "timeout": {
                "connect": CONNECT_SECONDS,
                "read": TOTAL_SECONDS,
                "write": TOTAL_SECONDS,
                "pool": TOTAL_SECONDS,
            }
        }
        if where.url.scheme == "https":
            extensions["sni_hostname"] = where.name
        failure: BaseException | None = None
        for address in where.addresses:
            request = httpx.Request(
                "POST",
                where.url.copy_with(host=address),
                content=post.body,
                headers=headers,
                extensions=extensions,
            )
            try:
                response = await self._transport.handle_async_request(request)
            except httpx.ConnectError as exc:
                failure = exc  # the next address of the name, if it has one
                continue
            # Closed unread: a receiver's answer is its status (and Retry-After) alone.
            await response.aclose()
            return outcome_of(response.status_code, response.headers)
        assert failure is not None
        return Retry(_failure(failure))
