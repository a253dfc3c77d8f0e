"""The browser pages: the lobby, the room by its link, and the static files.

Pages are thin Jinja2 shells; everything live (seats, presence, the table) is drawn by the ES
modules in ``static/js`` from the HTTP API and the room WebSocket.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import segno
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.types import Scope

from app.api import results as results_api
from app.api.profile_cookie import COOKIE as PROFILE_COOKIE
from app.errors import CovenError
from app.settings import Settings
from app.static_assets import STATIC_DIR as STATIC_DIR  # (rules_pages.py reads it here)
from app.static_assets import VERSIONED_PREFIX, static_assets
from app.store.repository import RoomRecord
from app.text import valid_room_code

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = Jinja2Templates(directory=str(ROOT / "templates"))
# Every page links its static files by their versioned URL: {{ static_url("css/coven.css") }}.
TEMPLATES.env.globals["static_url"] = lambda path: static_assets().url(path)

router = APIRouter(tags=["pages"])
_CIRCLE_ID = re.compile(r"[0-9a-f]{32}")

# The languages of static/i18n/, and the cookie static/js/i18n.js writes beside its localStorage
# key once a reader chose one (the picker, or a ``?lang=`` link): the page's ``<html lang>``
# then says the language its scripts will draw it in before they run.
LANGUAGES = ("en", "vi", "es")
LANGUAGE_COOKIE = "coven-lang"


def page_language(request: Request) -> str:
    """The language a page opens in, as static/js/i18n.js picks it: ``?lang=``, else the
    reader's choice (its cookie), else the first of the browser's languages Coven speaks
    (``Accept-Language``, by weight), else English."""
    for chosen in (request.query_params.get("lang"), request.cookies.get(LANGUAGE_COOKIE)):
        if chosen in LANGUAGES:
            return chosen
    weighted: list[tuple[float, int, str]] = []
    for order, part in enumerate(request.headers.get("accept-language", "").split(",")):
        tag, _, params = part.strip().partition(";")
        base = tag.strip().lower().split("-")[0]
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        if base in LANGUAGES and weight > 0:
            weighted.append((-weight, order, base))
    return min(weighted)[2] if weighted else "en"


def _settings(request: Request) -> Settings:
    coven = getattr(request.app.state, "coven", None)
    return coven.settings if coven is not None else Settings.from_env()


def _page(
    request: Request,
    template: str,
    status: int = 200,
    modules: Iterable[str] = (),
    **context: Any,
) -> HTMLResponse:
    """``template`` rendered; ``modules``: the page's entry modules (``js/room.js``), whose
    import trees it preloads at once, and whose stylesheets it links."""
    assets = static_assets()
    # The page builds invite and rejoin links on COVEN_PUBLIC_URL when set (behind a proxy),
    # else on the address the browser used.
    base = {
        # (the templates not yet on static_url() still link ``?v={{ asset_version }}``)
        "asset_version": assets.version,
        "import_map": assets.import_map,
        "preload_modules": [assets.url(module) for module in assets.module_tree(modules)],
        "stylesheets": assets.stylesheets_of(modules),
        "public_url": _settings(request).public_url,
        # (profile.js asks for the profile only when the browser sent its cookie)
        "holds_profile": _holds_profile(request),
        "page_lang": page_language(request),
    }
    return TEMPLATES.TemplateResponse(request, template, {**base, **context}, status_code=status)


def _holds_profile(request: Request) -> bool:
    """Whether the browser sent a profile cookie (checked by the API, not here): a page then
    asks for the profile, and a new visitor's page asks for nothing."""
    return bool(request.cookies.get(PROFILE_COOKIE))


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
async def lobby(request: Request) -> HTMLResponse:
    return _page(request, "lobby.html", holds_profile=_holds_profile(request))


@router.get("/profile", response_class=HTMLResponse, include_in_schema=False)
async def profile_settings(request: Request) -> HTMLResponse:
    """Keep a profile or sign in; rename, private, device links, passkeys, export, delete
    (``static/js/profile_page.js``)."""
    return _page(request, "profile.html")


@router.get("/tables", response_class=HTMLResponse, include_in_schema=False)
async def my_tables(request: Request) -> HTMLResponse:
    """My tables: every table this browser and its profile sit at, not finished, yours to play
    first (``static/js/my_tables.js``, from ``POST /api/me/tables``)."""
    return _page(request, "my_tables.html", modules=("js/my_tables.js",))


@router.get("/device", response_class=HTMLResponse, include_in_schema=False)
async def device_link(request: Request) -> HTMLResponse:
    """A device link, ``/device#<code>``: the code stays in the fragment (never sent here)."""
    return _page(request, "device.html")


@router.get("/circles/{public_id}", response_class=HTMLResponse, include_in_schema=False)
async def circle(request: Request, public_id: str) -> HTMLResponse:
    """A circle's page, drawn by ``static/js/circle.js`` for its members (anyone else is told
    there is no such circle, as for an unknown id)."""
    if _CIRCLE_ID.fullmatch(public_id) is None:
        return _page(request, "circle.html", status=404, circle="")
    return _page(request, "circle.html", circle=public_id)


@router.get("/c", response_class=HTMLResponse, include_in_schema=False)
async def circle_invite(request: Request) -> HTMLResponse:
    """A circle's invite link, ``/c#<code>``: the code stays in the fragment (never sent here)."""
    return _page(request, "circle_invite.html", holds_profile=_holds_profile(request))


@router.get("/p/{public_id}", response_class=HTMLResponse, include_in_schema=False)
async def player(request: Request, public_id: str) -> HTMLResponse:
    """A profile's page: ratings, per-game figures, matches (``static/js/player.js``); 404 for
    an unknown or private one, as its API."""
    status = await results_api.page_status(request, profile=public_id)
    return _page(request, "player.html", status=status, public_id=public_id)


@router.get("/leaderboard/{game_id}", response_class=HTMLResponse, include_in_schema=False)
async def leaderboard(request: Request, game_id: str) -> HTMLResponse:
    """A game's leaderboard (``static/js/leaderboard.js``); 404 for an unknown game, or when
    the operator turned public profiles off."""
    status = await results_api.page_status(request, game=game_id)
    return _page(request, "leaderboard.html", status=status, game=game_id)


async def _find_room(request: Request, code: str) -> RoomRecord | None:
    if not valid_room_code(code):
        return None
    try:
        found: RoomRecord = await request.app.state.coven.service.room(code, cached=True)
    except CovenError as exc:
        if exc.code != "room_not_found":
            raise
        return None
    return found


async def _room_page(
    request: Request, code: str, template: str, entries: tuple[str, ...]
) -> HTMLResponse:
    # A mistyped or expired link gets a page that says so (and a 404), not an empty room.
    room = await _find_room(request, code)
    if room is None:
        return _page(request, "no_room.html", status=404)
    # The game's renderer too (renderers.js imports it by the game's id once the table is
    # drawn): fetched with the rest instead of after the first state.
    renderer = f"js/games/{room.game_id}.js"
    if static_assets().has_module(renderer):
        entries = (*entries, renderer)
    return _page(request, template, modules=entries, code=code)


def invite_link(request: Request, code: str) -> str:
    """The room's link as the room page shows it (static/js/api.js ``roomUrl``): on
    COVEN_PUBLIC_URL when set, else on the address the browser used (its ``Host``)."""
    base = _settings(request).public_url or f"{request.url.scheme}://{request.url.netloc}"
    return f"{base}/r/{code}"


def qr_svg(text: str) -> str:
    """``text`` as a QR code (level M, 4-module quiet zone), black on white, sized by the page."""
    out = io.BytesIO()
    segno.make_qr(text, error="m", boost_error=False).save(
        out, kind="svg", xmldecl=False, border=4, dark="#000", light="#fff", omitsize=True
    )
    # Modules stay sharp at any pixel size (a phone's camera reads blurred edges badly).
    return out.getvalue().decode().replace("<svg ", '<svg shape-rendering="crispEdges" ', 1)


@router.get("/r/{code}", response_class=HTMLResponse, include_in_schema=False)
async def room(request: Request, code: str) -> HTMLResponse:
    scripts = ("js/room.js", "js/rules.js", "js/push.js", "js/webhook_settings.js")
    return await _room_page(request, code, "room.html", scripts)


@router.get("/r/{code}/invite.svg", include_in_schema=False)
async def invite_qr(request: Request, code: str) -> Response:
    """The waiting room's QR code: the invite link, for a phone to scan."""
    if await _find_room(request, code) is None:
        return _page(request, "no_room.html", status=404)
    return Response(
        qr_svg(invite_link(request, code)),
        media_type="image/svg+xml",
        # Built on the Host the browser sent: a shared cache must not hand it to another.
        headers={"Cache-Control": "private, max-age=3600"},
    )


@router.get("/r/{code}/replay", response_class=HTMLResponse, include_in_schema=False)
async def replay(request: Request, code: str) -> HTMLResponse:
    """The finished match step by step (``static/js/replay.js``; see app/README.md)."""
    # (its template still links replay.js by ``?v=``: only the renderer's tree is preloaded)
    return await _room_page(request, code, "replay.html", ())


@router.get("/replay/open", response_class=HTMLResponse, include_in_schema=False)
async def open_export(request: Request) -> HTMLResponse:
    """The replay viewer without a room: it opens an exported match from a file and verifies
    it (``static/js/proof.js``, ``POST /api/replays``, ``POST /api/verify``)."""
    return _page(request, "replay.html", code="")


class _Static(StaticFiles):
    """Static files that revalidate, so an upgraded server never serves stale modules."""

    def file_response(self, *args: Any, **kwargs: Any) -> Any:
        response = super().file_response(*args, **kwargs)
        response.headers.setdefault("Cache-Control", "no-cache")
        return response


class _VersionedStatic(StaticFiles):
    """``/static/v/{version}/…``: the same files, kept for good by the browser when the
    version is this server's (a URL of that version never holds anything else). A page of an
    older server asking for its version gets today's file, revalidated like any other."""

    def file_response(
        self, full_path: Any, stat_result: Any, scope: Scope, status_code: int = 200
    ) -> Any:
        response = super().file_response(full_path, stat_result, scope, status_code)
        current = scope.get("path_params", {}).get("version") == static_assets().version
        response.headers["Cache-Control"] = (
            "public, max-age=31536000, immutable" if current else "no-cache"
        )
        return response


# (before /static, which would otherwise take "v/…" for a file's path)
router.mount(
    VERSIONED_PREFIX + "/{version}",
    _VersionedStatic(directory=str(STATIC_DIR)),
    name="static-versioned",
)
router.mount("/static", _Static(directory=str(STATIC_DIR)), name="static")
