"""The cookie a browser holds its profile by: ``coven_profile``, HttpOnly (no script reads it),
SameSite=Lax, Path=/, Secure when the page is https (the request's scheme, or
COVEN_PUBLIC_URL's behind a proxy), kept 400 days (the longest browsers keep one)."""

from __future__ import annotations

from fastapi import Request, Response

from app.settings import Settings

COOKIE = "coven_profile"
MAX_AGE = 400 * 24 * 3600


def secret_of(request: Request) -> str | None:
    return request.cookies.get(COOKIE) or None


def is_secure(request: Request, settings: Settings) -> bool:
    return request.url.scheme == "https" or (settings.public_url or "").startswith("https://")


def give(response: Response, secret: str, secure: bool) -> None:
    response.set_cookie(
        COOKIE, secret, max_age=MAX_AGE, path="/", secure=secure, httponly=True, samesite="lax"
    )


def take_away(response: Response, secure: bool) -> None:
    response.delete_cookie(COOKIE, path="/", secure=secure, httponly=True, samesite="lax")
