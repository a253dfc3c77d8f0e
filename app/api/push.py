"""Web Push routes (issue 20): the server's key, a seat opting in (or out) on one device, and
the service worker that shows the pushes (``/sw.js``, scope ``/``).

The seat token is the bearer token, as everywhere in a room; a spectator has no seat to be told
about. The work is in ``app.notify.push_store`` (what a subscription must look like, keeping
it) and ``app.notify.push`` (sending)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from app.api.deps import ClientDep, ServicesDep, TokenDep
from app.api.http import ERRORS, Code
from app.errors import CovenError
from app.limits import Window
from app.notify.addresses import check_destination
from app.notify.push_store import MAX_ENDPOINT, parse_subscription
from app.notify.service import Notify
from app.static_assets import STATIC_DIR

router = APIRouter(responses=ERRORS, tags=["push"])

SERVICE_WORKER = STATIC_DIR / "sw.js"
# Opt-ins and opt-outs per client address: a burst, then the window's pace.
PUSH_BURST = 30
PUSH_WINDOW_SECONDS = 60.0


class PushKey(BaseModel):
    public_key: str = Field(
        description="the server's VAPID public key: base64url of the uncompressed P-256 point "
        "(the browser's applicationServerKey)"
    )


class PushOptIn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    # Any: a malformed one is refused by parse_subscription, with ``bad_subscription``.
    subscription: Any = Field(
        default=None, description="PushSubscription.toJSON(): {endpoint, keys: {p256dh, auth}}"
    )
    lang: str | None = Field(default=None, max_length=35, description="the page's language")


class PushOptOut(BaseModel):
    model_config = ConfigDict(extra="ignore")

    endpoint: str = Field(max_length=MAX_ENDPOINT)


class PushSeat(BaseModel):
    seat: int
    subscribed: bool = Field(description="this device is told when it is this seat's turn")


def notify(request: Request) -> Notify:
    found: Notify = request.app.state.notify
    return found


NotifyDep = Annotated[Notify, Depends(notify)]


def _window(request: Request, coven: ServicesDep) -> Window:
    window: Window | None = getattr(request.app.state, "push_window", None)
    if window is None:
        window = Window(
            coven.limits.counts, "push", PUSH_BURST, PUSH_WINDOW_SECONDS, "push opt-ins"
        )
        request.app.state.push_window = window
    return window


WindowDep = Annotated[Window, Depends(_window)]


async def _seat(coven: ServicesDep, code: str, token: str | None) -> tuple[int, int]:
    """The room's id and the caller's seat (a spectator is refused)."""
    if token is None:
        await coven.service.room(code, cached=True)  # an unknown room is a 404 first
        raise CovenError(
            "spectator", "spectators have no turn to be told about; send your seat's token"
        )
    room, seat = await coven.service.seat_for(code, token)
    if seat is None:  # pragma: no cover - a token either holds a seat or is refused
        raise CovenError("spectator", "spectators have no turn to be told about")
    return room.id, seat


@router.get("/api/push/key", response_model=PushKey)
async def push_key(notify: NotifyDep) -> PushKey:
    """The key a browser subscribes with (made at the server's first start, then kept)."""
    return PushKey(public_key=notify.push.public_key)


@router.post("/api/rooms/{code}/push", response_model=PushSeat)
async def opt_in(
    code: Code,
    body: PushOptIn,
    coven: ServicesDep,
    token: TokenDep,
    client: ClientDep,
    notify: NotifyDep,
    window: WindowDep,
) -> PushSeat:
    """This device is told when it becomes this seat's turn (and reminded when little time is
    left on a correspondence table), while no tab of the seat is in view. Sending the same
    endpoint again refreshes its keys and language."""
    room_id, seat = await _seat(coven, code, token)
    allow_private = coven.settings.webhook_allow_private
    subscription = parse_subscription(body.subscription, allow_http=allow_private)
    await window.take(client)
    await check_destination(subscription.endpoint, allow_private=allow_private)
    store = notify.push.store
    await store.keep(
        await store.seat_id(room_id, seat), subscription, body.lang, notify.push.clock.now()
    )
    notify.turns.targets_changed(room_id)
    return PushSeat(seat=seat, subscribed=True)


@router.delete("/api/rooms/{code}/push", response_model=PushSeat)
async def opt_out(
    code: Code,
    body: PushOptOut,
    coven: ServicesDep,
    token: TokenDep,
    client: ClientDep,
    notify: NotifyDep,
    window: WindowDep,
) -> PushSeat:
    """This device is no longer told about this seat's turns (nothing to remove is fine)."""
    room_id, seat = await _seat(coven, code, token)
    await window.take(client)
    store = notify.push.store
    await store.remove(await store.seat_id(room_id, seat), body.endpoint)
    notify.turns.targets_changed(room_id)
    return PushSeat(seat=seat, subscribed=False)


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> FileResponse:
    """The service worker, at the root so that its scope is the whole site; never kept long
    in a cache, so a new version reaches every browser on its next visit."""
    return FileResponse(
        SERVICE_WORKER,
        media_type="text/javascript",
        headers={"Service-Worker-Allowed": "/", "Cache-Control": "no-cache"},
    )
