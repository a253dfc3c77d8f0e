"""The server's VAPID key pair (RFC 8292): how push services know the pushes come from us.

Made once, by the first worker to start, and kept in ``server_keys`` (row ``"vapid"``, the
private key as PKCS#8 PEM). Every browser subscribes with the public key, so it must never
change: a worker that finds the row reads it; one that finds none writes a new key *ignoring a
conflict* and then reads the row back, so two workers starting at once end with the same key.
"""

from __future__ import annotations

import base64
import json
import time
from dataclasses import dataclass

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils
from sqlalchemy import select

from app.clock import Clock
from app.store.database import Database, insert_ignoring
from app.store.models import ServerKeyRow

KEY_NAME = "vapid"
# A signature lives this long (Apple refuses more than a day).
TOKEN_SECONDS = 12 * 3600


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """Bytes of unpadded (or padded) base64url; ``ValueError`` for anything else."""
    if not isinstance(text, str) or not text.isascii():
        raise ValueError("not base64url")
    stripped = text.rstrip("=")
    if any(not (c.isalnum() or c in "-_") for c in stripped):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(stripped + "=" * (-len(stripped) % 4))


@dataclass(frozen=True, slots=True)
class VapidKey:
    private: ec.EllipticCurvePrivateKey

    @property
    def public_point(self) -> bytes:
        """The uncompressed P-256 point (65 bytes, 0x04…)."""
        return self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )

    @property
    def public_key(self) -> str:
        """base64url of the point: the browser's ``applicationServerKey``."""
        return b64url(self.public_point)

    def pem(self) -> str:
        return self.private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ).decode("ascii")

    def authorization(self, audience: str, subject: str, now: float | None = None) -> str:
        """The ``Authorization`` header for a push to the service at ``audience`` (its origin):
        ``vapid t=<ES256 JWT>, k=<public key>``."""
        expires = int(now if now is not None else time.time()) + TOKEN_SECONDS
        header = b64url(b'{"typ":"JWT","alg":"ES256"}')
        claims = b64url(
            json.dumps(
                {"aud": audience, "exp": expires, "sub": subject},
                separators=(",", ":"),
                sort_keys=True,
            ).encode()
        )
        signing_input = f"{header}.{claims}".encode("ascii")
        r, s = utils.decode_dss_signature(
            self.private.sign(signing_input, ec.ECDSA(hashes.SHA256()))
        )
        signature = b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))
        return f"vapid t={header}.{claims}.{signature}, k={self.public_key}"


def make_key() -> VapidKey:
    return VapidKey(ec.generate_private_key(ec.SECP256R1()))


def key_from_pem(pem: str) -> VapidKey:
    private = serialization.load_pem_private_key(pem.encode("ascii"), password=None)
    if not isinstance(private, ec.EllipticCurvePrivateKey) or private.curve.name != "secp256r1":
        raise ValueError("the stored VAPID key is not a P-256 key")
    return VapidKey(private)


async def _stored(db: Database) -> str | None:
    async with db.readers() as session:
        value: str | None = (
            await session.execute(select(ServerKeyRow.value).where(ServerKeyRow.name == KEY_NAME))
        ).scalar_one_or_none()
    return value


async def load_or_make(db: Database, clock: Clock) -> VapidKey:
    """The server's key: the stored one, or a new one stored first (whoever writes first wins,
    and everyone reads the winner)."""
    stored = await _stored(db)
    if stored is None:
        async with db.write() as session:
            await session.execute(
                insert_ignoring(db.dialect, ServerKeyRow).values(
                    name=KEY_NAME, value=make_key().pem(), created_at=clock.now()
                )
            )
        stored = await _stored(db)
        if stored is None:  # pragma: no cover - the row was just written
            raise RuntimeError("the VAPID key could not be stored")
    return key_from_pem(stored)
