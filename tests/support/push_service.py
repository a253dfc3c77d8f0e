"""A stand-in for the push service a browser would reach on the internet (FCM, Mozilla's, Apple's),
on 127.0.0.1, with the browser's side of each subscription.

``PushService.device()`` makes what a browser makes when it subscribes: a P-256 key pair and a
16-byte auth secret, and an endpoint on this service. A push POSTed to an endpoint is checked as
a real service checks it — the VAPID header (``vapid t=<JWT>, k=<key>``: ES256 signature by
``k``, ``k`` the server's public key when the test gave it, ``aud`` this service's origin,
``exp`` in the future and at most a day away, ``sub`` a mailto: or https: contact) — and then
decrypted as the browser would (aes128gcm, RFC 8188/8291) with the device's private key and
auth secret. Every request is kept (``deliveries``), with what was wrong with it, if anything.

A device answers 201 unless the test sets ``device.status`` (410: gone, 500: failing…).
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid.jwt import decode as verify_jwt


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """One browser's subscription: what it sends the server, and what it keeps to itself."""

    id: str
    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    status: int = 201
    # Sent as the answer's Location (a redirect, with a 3xx status).
    location: str | None = None

    @property
    def p256dh(self) -> str:
        return b64url(
            self.private_key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    def subscription(self) -> dict[str, Any]:
        """As ``PushSubscription.toJSON()`` gives it."""
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)},
        }


@dataclass
class Delivery:
    device: str
    status: int
    headers: dict[str, str]
    claims: dict[str, Any] | None = None
    payload: dict[str, Any] | None = None
    problems: list[str] = field(default_factory=list)
    at: float = field(default_factory=time.time)


class PushService:
    def __init__(self, server_key: str | None = None) -> None:
        # The server's VAPID public key (base64url): every push must be signed by it.
        self.server_key = server_key
        self.devices: dict[str, Device] = {}
        self.deliveries: list[Delivery] = []
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                service._receive(self)

            def log_message(self, *args: Any) -> None:
                return None

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self._http.server_address[1]}"
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)

    def __enter__(self) -> PushService:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._http.shutdown()
        self._http.server_close()

    def device(self, status: int = 201) -> Device:
        name = b64url(os.urandom(12))
        made = Device(
            name,
            f"{self.origin}/push/{name}",
            ec.generate_private_key(ec.SECP256R1()),
            os.urandom(16),
            status,
        )
        self.devices[name] = made
        return made

    def to(self, device: Device) -> list[Delivery]:
        with self._lock:
            return [d for d in self.deliveries if d.device == device.id]

    def wait_for(self, device: Device, count: int = 1, timeout: float = 10.0) -> list[Delivery]:
        """The first ``count`` deliveries to ``device`` (AssertionError after ``timeout``)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                got = [d for d in self.deliveries if d.device == device.id]
                if len(got) >= count:
                    return got
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(got)} pushes reached the device, not {count}")
                self._changed.wait(left)

    # -- the service's side ---------------------------------------------------------------------

    def _receive(self, request: BaseHTTPRequestHandler) -> None:
        name = request.path.rsplit("/", 1)[-1]
        length = int(request.headers.get("content-length") or 0)
        body = request.rfile.read(length)
        headers = {k.lower(): v for k, v in request.headers.items()}
        device = self.devices.get(name)
        delivery = Delivery(name, device.status if device else 404, headers)
        if device is not None:
            delivery.claims = self._check_vapid(headers, delivery.problems)
            delivery.payload = self._decrypt(device, headers, body, delivery.problems)
        if delivery.problems and delivery.status < 300:
            delivery.status = 400  # a real service refuses a push it cannot check
        with self._changed:
            self.deliveries.append(delivery)
            self._changed.notify_all()
        request.send_response(delivery.status)
        if device is not None and device.location:
            request.send_header("location", device.location)
        request.send_header("content-length", "0")
        request.end_headers()

    def _check_vapid(self, headers: dict[str, str], problems: list[str]) -> dict[str, Any] | None:
        auth = headers.get("authorization", "")
        scheme, _, params = auth.partition(" ")
        if scheme.lower() != "vapid":
            problems.append(f"authorization is not vapid: {auth[:40]!r}")
            return None
        parts = dict(p.strip().split("=", 1) for p in params.split(",") if "=" in p)
        token, key = parts.get("t", ""), parts.get("k", "")
        if self.server_key is not None and key != self.server_key:
            problems.append("k is not the server's public key")
        try:
            claims: dict[str, Any] = verify_jwt(token, key)
        except Exception as error:  # InvalidSignature and malformed tokens alike
            problems.append(f"the JWT does not verify with k: {error!r}")
            return None
        header = json.loads(b64url_decode(token.split(".")[0]))
        if header.get("alg") != "ES256":
            problems.append(f"alg is {header.get('alg')!r}")
        if claims.get("aud") != self.origin:
            problems.append(f"aud {claims.get('aud')!r} is not {self.origin}")
        exp = claims.get("exp")
        if not isinstance(exp, int) or not time.time() < exp <= time.time() + 24 * 3600:
            problems.append(f"exp {exp!r} is not within the next day")
        sub = str(claims.get("sub", ""))
        if not sub.startswith(("mailto:", "https://")):
            problems.append(f"sub {sub!r} is no contact")
        return claims

    def _decrypt(
        self, device: Device, headers: dict[str, str], body: bytes, problems: list[str]
    ) -> dict[str, Any] | None:
        if headers.get("content-encoding") != "aes128gcm":
            problems.append(f"content-encoding is {headers.get('content-encoding')!r}")
            return None
        if "ttl" not in headers:
            problems.append("no TTL header")
        try:
            plain = http_ece.decrypt(
                body, private_key=device.private_key, auth_secret=device.auth, version="aes128gcm"
            )
            payload: dict[str, Any] = json.loads(plain)
        except Exception as error:
            problems.append(f"the payload does not decrypt: {error!r}")
            return None
        return payload
