"""Profile routes: keep a profile, hold it in this browser, manage it, and bring it to another
browser by passkey or device link. Thin handlers over ``app.profiles``.

The browser's secret travels only in the ``coven_profile`` cookie (``Set-Cookie`` on create
and sign-in); state-changing requests carrying it pass ``SameOriginGuard`` first.
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlsplit

from fastapi import APIRouter, Body, Request, Response

from app import wire
from app.api import profile_cookie
from app.api.deps import ServicesDep
from app.api.http import Code, room_info
from app.api.profile_deps import HolderDep, MaybeHolderDep, ProfilesDep, SignInLimit
from app.errors import CovenError
from app.messages import ErrorBody, RoomWithSeat
from app.pages import qr_svg
from app.profiles.device_links import device_url
from app.profiles.messages import (
    ChangeProfile,
    Claimed,
    ClaimSeats,
    CreateProfile,
    DeviceCode,
    DeviceLinkInfo,
    DeviceLinkProfile,
    HeldSeats,
    PasskeyAdded,
    PasskeyAnswer,
    ProfileInfo,
    SeatHere,
    UseDeviceLink,
)
from app.profiles.passkeys import RelyingParty
from app.profiles.records import Profile
from app.profiles.service import ProfileService
from app.rooms.keys import hash_token

ERRORS: dict[int | str, dict[str, object]] = {
    code: {"model": ErrorBody} for code in (400, 401, 403, 404, 409, 413, 422)
}

router = APIRouter(responses=ERRORS, tags=["profiles"])


def _page_base(request: Request, service: ProfileService) -> str:
    """Where this browser's pages are: COVEN_PUBLIC_URL, else the address it used."""
    return service.settings.public_url or f"{request.url.scheme}://{request.url.netloc}"


def _relying_party(request: Request, service: ProfileService) -> RelyingParty:
    parts = urlsplit(_page_base(request, service))
    return RelyingParty.of(f"{parts.scheme}://{parts.netloc}")


def _secure(request: Request, service: ProfileService) -> bool:
    return profile_cookie.is_secure(request, service.settings)


async def _info(service: ProfileService, profile: Profile) -> ProfileInfo:
    count = await service.store.passkey_count(profile.id)
    return ProfileInfo(
        public_id=profile.public_id,
        name=profile.name,
        listed=profile.listed,
        created_at=profile.created_at,
        passkeys=count,
        public_profiles=service.settings.public_profiles,
    )


@router.post(
    "/api/profile", response_model=ProfileInfo, status_code=201, dependencies=[SignInLimit]
)
async def create_profile(
    body: CreateProfile,
    request: Request,
    response: Response,
    service: ProfilesDep,
    maybe: MaybeHolderDep,
) -> ProfileInfo:
    """Keep a profile: one name; this browser's guest seats (sent in the body) become its."""
    if maybe is not None:
        raise CovenError("profile_held", "this browser holds a profile already")
    profile, secret = await service.create(body.name, [s.record() for s in body.seats])
    profile_cookie.give(response, secret, _secure(request, service))
    return await _info(service, profile)


@router.get("/api/profile", response_model=ProfileInfo)
async def my_profile(
    request: Request, response: Response, service: ProfilesDep
) -> ProfileInfo | Response:
    held = await service.holder(profile_cookie.secret_of(request))
    if held is None:
        error = CovenError("no_profile", "this browser holds no profile")
        answer = Response(wire.dumps(error.body()), status_code=401, media_type="application/json")
        if profile_cookie.secret_of(request):
            # A key signed out elsewhere or a deleted profile: the cookie is worthless now.
            profile_cookie.take_away(answer, _secure(request, service))
        return answer
    return await _info(service, held.profile)


@router.patch("/api/profile", response_model=ProfileInfo)
async def change_profile(body: ChangeProfile, held: HolderDep, service: ProfilesDep) -> ProfileInfo:
    """Rename, and/or make the profile private (``listed: false``) or listed again."""
    profile = await service.change(held, name=body.name, listed=body.listed)
    return await _info(service, profile)


@router.delete("/api/profile", status_code=204)
async def delete_profile(
    request: Request, held: HolderDep, service: ProfilesDep, coven: ServicesDep
) -> Response:
    """The profile goes for good; its seats and history rows become "a former player"."""
    rooms = await service.delete(held)
    for code in rooms:
        # Every worker's copy of those rooms drops her name; their pages redraw the seats.
        await coven.service.changes.announce(code)
    answer = Response(status_code=204)
    profile_cookie.take_away(answer, _secure(request, service))
    return answer


@router.post("/api/profile/signout", status_code=204)
async def sign_out(request: Request, held: HolderDep, service: ProfilesDep) -> Response:
    """This browser lets go of the profile; its other browsers and passkeys keep it."""
    await service.sign_out(held)
    answer = Response(status_code=204)
    profile_cookie.take_away(answer, _secure(request, service))
    return answer


@router.get("/api/profile/export")
async def export_profile(held: HolderDep, service: ProfilesDep) -> Response:
    """Everything held about the profile, as a JSON file to download."""
    return Response(
        wire.dumps(await service.export(held)),
        media_type="application/json",
        headers={"Content-Disposition": 'attachment; filename="coven-profile.json"'},
    )


@router.post("/api/profile/claim", response_model=Claimed)
async def claim_seats(body: ClaimSeats, held: HolderDep, service: ProfilesDep) -> Claimed:
    """This browser's guest seats (and their finished matches) become the profile's."""
    return Claimed(claimed=await service.claim(held, [s.record() for s in body.seats]))


@router.get("/api/rooms/{code}/profile-seats", response_model=HeldSeats)
async def profile_seats(code: Code, held: HolderDep, service: ProfilesDep) -> HeldSeats:
    """The seats this browser's profile holds at the table (the room page offers "play here"
    when it holds no working token for one)."""
    return HeldSeats(seats=await service.seats_in(held, code))


@router.post("/api/rooms/{code}/seat-here", response_model=RoomWithSeat)
async def seat_here(
    code: Code,
    held: HolderDep,
    service: ProfilesDep,
    coven: ServicesDep,
    body: Annotated[SeatHere | None, Body()] = None,
) -> RoomWithSeat:
    """This browser plays the profile's seat from now on: a fresh seat token (in this answer
    only); the token another browser held for it stops working, its socket is closed."""
    await coven.service.room(code)  # an unknown room is room_not_found
    seat, token = await service.seat_here(held, code, body.seat if body else None)
    await coven.service.changes.announce(code)
    room = await coven.service.room(code)
    # (the start closes gaps in the seat order: the number the token holds now)
    now = room.seat_for_token_hash(hash_token(token))
    return RoomWithSeat(
        room=await room_info(coven.service, coven.hub, room),
        seat=now.seat if now is not None else seat,
        token=token,
    )


@router.post("/api/profile/device-links", response_model=DeviceLinkInfo, status_code=201)
async def new_device_link(
    request: Request, held: HolderDep, service: ProfilesDep
) -> DeviceLinkInfo:
    """A one-time link (ten minutes) that gives another browser this profile."""
    code, expires_at = await service.device_links.create(held.profile.id)
    url = device_url(_page_base(request, service), code)
    return DeviceLinkInfo(url=url, svg=qr_svg(url), expires_at=expires_at)


@router.post("/api/device-links/peek", response_model=DeviceLinkProfile, dependencies=[SignInLimit])
async def peek_device_link(body: DeviceCode, service: ProfilesDep) -> DeviceLinkProfile:
    """Whose profile a link gives, before it is used (the code in a body, never a URL)."""
    profile = await service.device_links.peek(body.code)
    return DeviceLinkProfile(name=profile.name)


@router.post("/api/device-links/use", response_model=ProfileInfo, dependencies=[SignInLimit])
async def use_device_link(
    body: UseDeviceLink, request: Request, response: Response, service: ProfilesDep
) -> ProfileInfo:
    profile, secret = await service.sign_in_by_device_link(
        body.code, [s.record() for s in body.seats]
    )
    profile_cookie.give(response, secret, _secure(request, service))
    return await _info(service, profile)


@router.post("/api/profile/passkeys/options")
async def passkey_registration_options(
    request: Request, held: HolderDep, service: ProfilesDep
) -> Response:
    """Options for ``navigator.credentials.create`` (WebAuthn JSON)."""
    options = await service.passkeys.registration_options(
        held.profile, _relying_party(request, service)
    )
    return Response(wire.dumps(options), media_type="application/json")


@router.post("/api/profile/passkeys", response_model=PasskeyAdded, status_code=201)
async def add_passkey(
    body: PasskeyAnswer, request: Request, held: HolderDep, service: ProfilesDep
) -> PasskeyAdded:
    await service.passkeys.register(held.profile, body.credential, _relying_party(request, service))
    return PasskeyAdded(passkeys=await service.passkey_count(held))


@router.post("/api/passkeys/login/options", dependencies=[SignInLimit])
async def passkey_login_options(request: Request, service: ProfilesDep) -> Response:
    """Options for ``navigator.credentials.get``: any passkey of this site."""
    options = await service.passkeys.login_options(_relying_party(request, service))
    return Response(wire.dumps(options), media_type="application/json")


@router.post("/api/passkeys/login", response_model=ProfileInfo, dependencies=[SignInLimit])
async def passkey_login(
    body: PasskeyAnswer, request: Request, response: Response, service: ProfilesDep
) -> ProfileInfo:
    profile_id = await service.passkeys.login(body.credential, _relying_party(request, service))
    profile, secret = await service.sign_in_by_passkey(profile_id, [s.record() for s in body.seats])
    profile_cookie.give(response, secret, _secure(request, service))
    return await _info(service, profile)
