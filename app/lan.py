"""The addresses friends use to reach ``coven serve``, found without sending any traffic.

A UDP socket that ``connect``s sends nothing: the kernel only picks the route, and with it the
source address this machine would use towards that network. Asking for routes into each
private range (RFC 1918) and the documentation range finds the LAN address even on a network
without internet; the host name's own addresses fill in the rest.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket

# One address inside each private range, and TEST-NET-1 (RFC 5737) for the default route.
# Nothing is ever sent to them.
_PROBES = ("10.255.255.255", "172.31.255.255", "192.168.255.255", "192.0.2.1")
_ANY = ("0.0.0.0", "::", "")


def _route_source(target: str) -> str | None:
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect((target, 9))
        address: str = probe.getsockname()[0]
        return address
    return None


def _usable(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses others on its networks can reach, private ones first."""
    found: list[str] = []
    for target in _PROBES:
        address = _route_source(target)
        if address is not None:
            found.append(address)
    with contextlib.suppress(OSError):
        for *_, sockaddr in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(sockaddr[0]))
    unique = [a for i, a in enumerate(found) if a not in found[:i] and _usable(a)]
    return sorted(unique, key=lambda a: not ipaddress.ip_address(a).is_private)


def _url(host: str, port: int) -> str:
    return f"http://{host}:{port}" if port != 80 else f"http://{host}"


def banner(host: str, port: int, public_url: str | None) -> list[str]:
    """What ``coven serve`` prints: where the host opens Coven and where friends do."""
    lines: list[str] = []
    if public_url:
        lines.append(f"Coven: invite links point to {public_url} (COVEN_PUBLIC_URL)")
    if host in _ANY:
        addresses = lan_addresses()
        lines.append(f"Coven on this computer: {_url('127.0.0.1', port)}")
        if addresses:
            lines.append("Friends on your network open (and so should you, so invites work):")
            lines.extend(f"  {_url(a, port)}" for a in addresses)
        else:
            lines.append("No network address found: is this computer on a network?")
        return lines
    loopback = ipaddress.ip_address(host).is_loopback if _is_ip(host) else host == "localhost"
    if loopback:
        lines.append(
            f"Coven on {_url(host, port)} (this computer only: `make lan` or "
            "`coven serve --host 0.0.0.0` lets friends on your network join)"
        )
        return lines
    lines.append(f"Coven on {_url(host, port)}")
    return lines


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True
