"""The secret a browser holds its profile by, and the digest the server keeps of it."""

from __future__ import annotations

import hashlib
import re
import secrets

# What ``new_secret`` makes (43 URL-safe characters), with room to spare; a cookie holding
# anything else holds no profile and is never looked up.
_SECRET = re.compile(r"[A-Za-z0-9_-]{32,64}")


def new_secret() -> str:
    return secrets.token_urlsafe(32)  # 256 bits


def digest(value: str | bytes) -> str:
    """sha256 hex: how secrets, challenges and device-link codes are stored."""
    return hashlib.sha256(value.encode() if isinstance(value, str) else value).hexdigest()


def well_formed(secret: str) -> bool:
    return _SECRET.fullmatch(secret) is not None
