"""Where Coven may send a request on a player's word (a webhook, a push endpoint): never into
the operator's own network unless the operator allows it (``COVEN_WEBHOOK_ALLOW_PRIVATE``).

A URL is checked when it is given (a clear error for the player) and again before each send:
the name is resolved, and every address it resolves to must be public — not private,
loopback, link-local, multicast, reserved or unspecified (IPv4, IPv6, and IPv4 mapped in
IPv6). A name that resolves to nothing is refused as well.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from urllib.parse import urlsplit

from app.errors import CovenError

MAX_URL = 2000


def _blocked(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return (
        address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_multicast
        or address.is_reserved
        or address.is_unspecified
        or not address.is_global
    )


def parse_url(url: str) -> tuple[str, int]:
    """The host and port of an http(s) URL, or ``bad_url``."""
    if not isinstance(url, str) or not url or len(url) > MAX_URL:
        raise CovenError("bad_url", f"a URL is a text of at most {MAX_URL} characters")
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise CovenError("bad_url", "the URL must start with https:// (or http://)")
    if parts.username or parts.password:
        raise CovenError("bad_url", "the URL must not hold a user name or password before the host")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise CovenError("bad_url", "the URL's port is not a number from 1 to 65535") from None
    return parts.hostname, port


async def check_destination(url: str, *, allow_private: bool) -> None:
    """Refuse ``url`` unless it is http(s) and (without ``allow_private``) every address its
    host resolves to is public."""
    host, port = parse_url(url)
    if allow_private:
        return
    try:
        literal = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        literal = None
    if literal is not None:
        addresses = [literal]
    else:
        try:
            infos = await asyncio.get_running_loop().getaddrinfo(
                host, port, type=socket.SOCK_STREAM
            )
        except (OSError, UnicodeError):
            raise CovenError("unreachable_url", f"the host {host!r} cannot be found") from None
        addresses = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]
        if not addresses:
            raise CovenError("unreachable_url", f"the host {host!r} cannot be found")
    if any(_blocked(a) for a in addresses):
        raise CovenError(
            "private_address",
            "this address is in a private, loopback or link-local network, which this server "
            "does not send to (its operator can allow it with COVEN_WEBHOOK_ALLOW_PRIVATE=1)",
        )
