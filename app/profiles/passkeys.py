"""Passkeys (WebAuthn, the ``webauthn`` library): register one from a browser that holds a
profile; sign in with one anywhere, as a discoverable credential (no name typed first).

Each ceremony's challenge is stored by its digest (``auth_challenges``) for five minutes and
taken once, so any worker can finish a ceremony another began. The relying party is the host
name the page is on, and only an https page or ``localhost`` can use passkeys (the browser's
rule); an IP address cannot be a relying party id at all.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy.exc import IntegrityError
from webauthn import (
    base64url_to_bytes,
    generate_authentication_options,
    generate_registration_options,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url, options_to_json_dict, parse_client_data_json
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from app.errors import CovenError
from app.profiles.challenges import PASSKEY_LOGIN, PASSKEY_REGISTER, Challenges
from app.profiles.records import Profile
from app.profiles.store import ProfileStore

CHALLENGE_SECONDS = 300.0
RP_NAME = "Coven"


@dataclass(frozen=True, slots=True)
class RelyingParty:
    """Who the passkeys are for: the page's host name, and the origin the browser reports."""

    id: str
    origin: str

    @classmethod
    def of(cls, page_origin: str) -> RelyingParty:
        parts = urlsplit(page_origin)
        host = (parts.hostname or "").lower()
        if not host or _is_ip(host):
            raise CovenError(
                "passkeys_unavailable",
                "passkeys need a page on a host name (https, or localhost), not an IP address",
            )
        return cls(host, f"{parts.scheme}://{parts.netloc}")


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def _failed(why: str) -> CovenError:
    return CovenError("passkey_failed", f"the passkey could not be checked: {why}")


def _challenge_of(credential: dict[str, Any]) -> bytes:
    """The challenge the browser signed, read from the credential's client data (verified
    against the stored one afterwards, by the library)."""
    response = credential.get("response")
    client_data = response.get("clientDataJSON") if isinstance(response, dict) else None
    if not isinstance(client_data, str):
        raise _failed("the answer holds no client data")
    try:
        return parse_client_data_json(base64url_to_bytes(client_data)).challenge
    except (WebAuthnException, ValueError) as exc:
        raise _failed("its client data is not readable") from exc


class Passkeys:
    def __init__(
        self, store: ProfileStore, challenges: Challenges, clock: Callable[[], float]
    ) -> None:
        self.store = store
        self.challenges = challenges
        self.clock = clock

    async def registration_options(self, profile: Profile, rp: RelyingParty) -> dict[str, Any]:
        """What ``navigator.credentials.create`` needs (as JSON), for a resident credential
        (so that signing in later needs no name) on this profile."""
        known = await self.store.passkey_ids(profile.id)
        options = generate_registration_options(
            rp_id=rp.id,
            rp_name=RP_NAME,
            user_name=profile.name,
            user_display_name=profile.name,
            # The user handle: the public id (random, names nobody), never the row id.
            user_id=profile.public_id.encode(),
            timeout=int(CHALLENGE_SECONDS * 1000),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in known
            ],
        )
        now = self.clock()
        await self.challenges.put(
            options.challenge, PASSKEY_REGISTER, profile.id, now + CHALLENGE_SECONDS, now
        )
        return options_to_json_dict(options)

    async def register(
        self, profile: Profile, credential: dict[str, Any], rp: RelyingParty
    ) -> None:
        challenge = _challenge_of(credential)
        taken = await self.challenges.take(challenge, PASSKEY_REGISTER)
        now = self.clock()
        if taken is None or taken.profile_id != profile.id or taken.expires_at < now:
            raise _failed("it answers no registration this profile began (or it took too long)")
        try:
            verified = verify_registration_response(
                credential=credential,
                expected_challenge=challenge,
                expected_rp_id=rp.id,
                expected_origin=rp.origin,
            )
        except WebAuthnException as exc:
            raise _failed(str(exc)) from exc
        try:
            await self.store.add_passkey(
                profile.id,
                bytes_to_base64url(verified.credential_id),
                bytes_to_base64url(verified.credential_public_key),
                verified.sign_count,
                now,
            )
        except IntegrityError as exc:
            raise _failed("this passkey is registered already") from exc

    async def login_options(self, rp: RelyingParty) -> dict[str, Any]:
        """What ``navigator.credentials.get`` needs: no credential list, so the browser offers
        the passkeys it holds for this site."""
        options = generate_authentication_options(
            rp_id=rp.id,
            timeout=int(CHALLENGE_SECONDS * 1000),
            user_verification=UserVerificationRequirement.PREFERRED,
        )
        now = self.clock()
        await self.challenges.put(
            options.challenge, PASSKEY_LOGIN, None, now + CHALLENGE_SECONDS, now
        )
        return options_to_json_dict(options)

    async def login(self, credential: dict[str, Any], rp: RelyingParty) -> int:
        """The profile the passkey belongs to, once its signature over a challenge this server
        issued checks out and its counter moved on."""
        challenge = _challenge_of(credential)
        taken = await self.challenges.take(challenge, PASSKEY_LOGIN)
        now = self.clock()
        if taken is None or taken.expires_at < now:
            raise _failed("it answers no sign-in this server began (or it took too long)")
        credential_id = credential.get("id")
        passkey = (
            await self.store.passkey(credential_id) if isinstance(credential_id, str) else None
        )
        if passkey is None:
            raise CovenError("passkey_unknown", "this passkey belongs to no profile here")
        try:
            verified = verify_authentication_response(
                credential=credential,
                expected_challenge=challenge,
                expected_rp_id=rp.id,
                expected_origin=rp.origin,
                credential_public_key=base64url_to_bytes(passkey.public_key),
                credential_current_sign_count=passkey.sign_count,
            )
        except WebAuthnException as exc:
            raise _failed(str(exc)) from exc
        if not await self.store.passkey_used(
            passkey.id, passkey.sign_count, verified.new_sign_count, now
        ):
            raise _failed("another sign-in used it at the same moment")
        return passkey.profile_id
