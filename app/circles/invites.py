"""A circle's invite code: 128 random bits, shared in a link's fragment (``/c#<code>``, so it
never reaches a server log), stored only as its sha256."""

from __future__ import annotations

import hashlib
import re
import secrets

_CODE = re.compile(r"[A-Za-z0-9_-]{16,64}")


def new_invite_code() -> str:
    return secrets.token_urlsafe(16)


def invite_hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def plausible_code(code: str) -> bool:
    """URL-safe base64 of a sane length; anything else is no invite, without a look-up."""
    return _CODE.fullmatch(code) is not None


def new_circle_id() -> str:
    return secrets.token_hex(16)  # 128 bits, like a profile's public id


def invite_url(base: str, code: str) -> str:
    """The link to share: the code in the fragment, which browsers never send to a server."""
    return f"{base}/c#{code}"
