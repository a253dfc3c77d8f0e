"""No cross-site request forgery with the profile cookie.

A request that changes something (POST, PUT, PATCH, DELETE) and carries the profile cookie
must come from one of this server's own pages: its ``Origin`` is the server's (the ``Host`` it
was reached by, COVEN_PUBLIC_URL, or one of COVEN_ALLOWED_ORIGINS), or, from a browser that
sends no ``Origin``, ``Sec-Fetch-Site: same-origin``. Anything else is refused 403
``bad_origin`` before any handler runs, so nothing changes. Requests without the cookie pass
untouched: a seat's bearer token is never sent by a browser on its own.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.requests import cookie_parser
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from app.api.profile_cookie import COOKIE
from app.settings import Settings

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


class SameOriginGuard:
    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        # "*" lets any page open a room socket (which needs a seat token anyway); it never
        # lets another site's page act with a profile cookie.
        allowed = {_origin(o) for o in settings.allowed_origins if o != "*"}
        if settings.public_url:
            allowed.add(_origin(settings.public_url))
        self.allowed = frozenset(allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("method") in UNSAFE_METHODS:
            headers = dict(scope.get("headers") or [])
            cookies = cookie_parser(headers.get(b"cookie", b"").decode("latin-1"))
            if cookies.get(COOKIE) and not self._same_origin(headers):
                await _error(
                    403, "bad_origin", "this request did not come from this server's own pages"
                )(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _same_origin(self, headers: dict[bytes, bytes]) -> bool:
        origin = headers.get(b"origin")
        if origin is None:
            return headers.get(b"sec-fetch-site") == b"same-origin"
        text = origin.decode("latin-1").strip().rstrip("/").lower()
        if text in self.allowed:
            return True
        host = headers.get(b"host", b"").decode("latin-1").strip().lower()
        return bool(host) and text != "null" and urlsplit(text).netloc == host
