"""The browser pages: the lobby, the room by its link, and the static files.

Pages are thin Jinja2 shells; everything live (seats, presence, the table) is drawn by the ES
modules in ``static/js`` from the HTTP API and the room WebSocket.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = Jinja2Templates(directory=str(ROOT / "templates"))
STATIC_DIR = ROOT / "static"

router = APIRouter(tags=["pages"])


def _asset_version() -> str:
    """Changes whenever a static file changes, so browsers never run stale modules."""
    newest = max((p.stat().st_mtime_ns for p in STATIC_DIR.rglob("*") if p.is_file()), default=0)
    return format(newest, "x")[-8:]


def _page(request: Request, template: str, **context: Any) -> HTMLResponse:
    return TEMPLATES.TemplateResponse(
        request, template, {"asset_version": _asset_version(), **context}
    )


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
async def lobby(request: Request) -> HTMLResponse:
    return _page(request, "lobby.html")


@router.get("/r/{code}", response_class=HTMLResponse, include_in_schema=False)
async def room(request: Request, code: str) -> HTMLResponse:
    return _page(request, "room.html", code=code)


class _Static(StaticFiles):
    """Static files that revalidate, so an upgraded server never serves stale modules."""

    def file_response(self, *args: Any, **kwargs: Any) -> Any:
        response = super().file_response(*args, **kwargs)
        response.headers.setdefault("Cache-Control", "no-cache")
        return response


router.mount("/static", _Static(directory=str(STATIC_DIR)), name="static")
