"""Routes of chat webhooks (issue 20): a table's, set by its host (seat 0's bearer token), and
a circle's, set by its keeper (the profile cookie).

``PUT`` sets one (in place of the one before), ``GET`` tells whether one is set, ``DELETE``
removes it. The URL is its setter's secret: only the host (or the keeper) gets it back; anyone
else learns only ``{"set": …}``. A URL is refused unless ``check_destination`` allows it
(``private_address`` for a private, loopback or link-local address without
``COVEN_WEBHOOK_ALLOW_PRIVATE``), and nothing is stored on a refusal.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from app.api.circles import CirclesDep
from app.api.deps import ServicesDep, TokenDep
from app.api.http import Code
from app.api.profile_deps import HolderDep
from app.circles.records import Circle
from app.errors import CovenError
from app.messages import ErrorBody
from app.notify.addresses import MAX_URL, check_destination
from app.notify.chat_formats import FORMATS
from app.notify.messages import language
from app.notify.service import Notify
from app.notify.webhook_store import Owner, Webhook, WebhookStore
from app.rooms.seating import check_host
from app.store.repository import RoomRecord

ERRORS: dict[int | str, dict[str, object]] = {
    code: {"model": ErrorBody} for code in (400, 401, 403, 404, 409, 413, 422)
}

router = APIRouter(responses=ERRORS, tags=["webhooks"])


class WebhookSetting(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str = Field(max_length=2 * MAX_URL, description="the chat's webhook URL (http or https)")
    format: str = Field(max_length=40, description=" | ".join(FORMATS))
    lang: str | None = Field(
        default=None,
        max_length=35,
        description="the posts' language: en | vi | es (default: the browser's)",
    )


class WebhookInfo(BaseModel):
    """Whether a webhook is set, and whether the caller may set it (the host, the keeper); its
    format, language and URL to her only."""

    set: bool
    editable: bool = False
    format: str | None = None
    lang: str | None = None
    url: str | None = None


def _notify(request: Request) -> Notify:
    notify: Notify = request.app.state.notify
    return notify


NotifyDep = Annotated[Notify, Depends(_notify)]


def _store(notify: Notify) -> WebhookStore:
    return notify.webhooks.store


def _shown(hook: Webhook | None) -> WebhookInfo:
    """The webhook as its setter sees it."""
    if hook is None:
        return WebhookInfo(set=False, editable=True)
    return WebhookInfo(set=True, editable=True, format=hook.format, lang=hook.lang, url=hook.url)


async def _checked(body: WebhookSetting, request: Request, coven: ServicesDep) -> dict[str, str]:
    """The row's values, once the format and the URL are allowed (``CovenError`` otherwise)."""
    if body.format not in FORMATS:
        raise CovenError("bad_format", f"the format is one of: {', '.join(FORMATS)}")
    url = body.url.strip()
    await check_destination(url, allow_private=coven.settings.webhook_allow_private)
    # The browser's first language ("es-AR,es;q=0.9" → "es-AR") when the body names none.
    lang = body.lang or request.headers.get("accept-language", "").split(",")[0].split(";")[0]
    base = coven.settings.public_url or f"{request.url.scheme}://{request.url.netloc}"
    return {"url": url, "format": body.format, "lang": language(lang), "link_base": base}


# -- a table's ----------------------------------------------------------------------------------


async def _hosted(code: str, coven: ServicesDep, token: str | None) -> RoomRecord:
    room = await coven.service.room(code)
    check_host(coven.service.seat_of(room, token))
    return room


@router.put("/api/rooms/{code}/webhook", response_model=WebhookInfo)
async def set_room_webhook(
    code: Code,
    body: WebhookSetting,
    request: Request,
    coven: ServicesDep,
    notify: NotifyDep,
    token: TokenDep,
) -> WebhookInfo:
    """The host sets the table's webhook: its turns and its result are posted there."""
    room = await _hosted(code, coven, token)
    if room.status == "finished":
        raise CovenError("room_over", "this match is over: nothing more will be posted", 409)
    values = await _checked(body, request, coven)
    hook = await _store(notify).set(Owner(room_id=room.id), **values)
    notify.turns.targets_changed(room.id)
    return _shown(hook)


@router.get(
    "/api/rooms/{code}/webhook", response_model=WebhookInfo, response_model_exclude_none=True
)
async def get_room_webhook(
    code: Code, coven: ServicesDep, notify: NotifyDep, token: TokenDep
) -> WebhookInfo:
    """The host gets the webhook as she set it; anyone else only whether one is set."""
    room, seat = await coven.service.seat_for(code, token)
    shown = _shown(await _store(notify).of(Owner(room_id=room.id)))
    return shown if seat == 0 else WebhookInfo(set=shown.set)


@router.delete("/api/rooms/{code}/webhook", status_code=204)
async def remove_room_webhook(
    code: Code, coven: ServicesDep, notify: NotifyDep, token: TokenDep
) -> Response:
    room = await _hosted(code, coven, token)
    await _store(notify).remove(Owner(room_id=room.id))
    notify.turns.targets_changed(room.id)
    return Response(status_code=204)


# -- a circle's ---------------------------------------------------------------------------------


async def _kept(public_id: str, held: HolderDep, services: CirclesDep) -> Circle:
    circle = await services.circles.member_circle(held.profile, public_id)
    if circle.keeper_id != held.profile.id:
        raise CovenError("not_circle_keeper", "only the circle's keeper may do this")
    return circle


async def _circle_changed(notify: Notify, circle: Circle) -> None:
    """The circle's tables post to its new webhook (or no longer) at once in this worker."""
    for room_id in await _store(notify).circle_rooms(circle.id):
        notify.turns.targets_changed(room_id)


@router.put("/api/circles/{public_id}/webhook", response_model=WebhookInfo)
async def set_circle_webhook(
    public_id: str,
    body: WebhookSetting,
    request: Request,
    held: HolderDep,
    services: CirclesDep,
    coven: ServicesDep,
    notify: NotifyDep,
) -> WebhookInfo:
    """The keeper sets the circle's webhook: every table opened for the circle posts there."""
    circle = await _kept(public_id, held, services)
    values = await _checked(body, request, coven)
    hook = await _store(notify).set(Owner(circle_id=circle.id), **values)
    await _circle_changed(notify, circle)
    return _shown(hook)


@router.get(
    "/api/circles/{public_id}/webhook",
    response_model=WebhookInfo,
    response_model_exclude_none=True,
)
async def get_circle_webhook(
    public_id: str, held: HolderDep, services: CirclesDep, notify: NotifyDep
) -> WebhookInfo:
    """The keeper gets the webhook as she set it; another member only whether one is set."""
    circle = await services.circles.member_circle(held.profile, public_id)
    shown = _shown(await _store(notify).of(Owner(circle_id=circle.id)))
    return shown if circle.keeper_id == held.profile.id else WebhookInfo(set=shown.set)


@router.delete("/api/circles/{public_id}/webhook", status_code=204)
async def remove_circle_webhook(
    public_id: str, held: HolderDep, services: CirclesDep, notify: NotifyDep
) -> Response:
    circle = await _kept(public_id, held, services)
    await _store(notify).remove(Owner(circle_id=circle.id))
    await _circle_changed(notify, circle)
    return Response(status_code=204)
