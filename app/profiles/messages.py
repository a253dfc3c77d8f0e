"""The profile routes' bodies, as Pydantic models (the OpenAPI schema comes from here).

No answer carries the browser's secret: it travels only in the ``Set-Cookie`` header."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from app.profiles.records import SeatToken
from app.text import check_json, check_machine_text

# Raw names may be longer than 40: invisible characters go before the rule is applied
# (``bad_name`` when what is left breaks it).
RawName = Annotated[str, Field(min_length=1, max_length=200)]


def _machine(value: str) -> str:
    check_machine_text(value, "text")
    return value


def _credential(value: dict[str, Any]) -> dict[str, Any]:
    check_json(value, "credential")
    return value


MachineText = Annotated[str, Field(min_length=1, max_length=200), AfterValidator(_machine)]


class SeatClaim(BaseModel):
    model_config = ConfigDict(extra="forbid")

    room: MachineText = Field(description="the room's code")
    token: MachineText = Field(description="the seat token this browser holds for it")

    def record(self) -> SeatToken:
        return SeatToken(self.room, self.token)


Seats = Annotated[list[SeatClaim], Field(max_length=500)]


class CreateProfile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: RawName = Field(description="the display name (the seat name rules; ≤ 40)")
    seats: Seats = Field(default_factory=list, description="this browser's guest seats to claim")


class ChangeProfile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: RawName | None = None
    listed: bool | None = Field(default=None, description="false: a private profile")


class ClaimSeats(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seats: Seats


class Claimed(BaseModel):
    claimed: int = Field(description="how many of the seats sent became the profile's")


class ProfileInfo(BaseModel):
    public_id: str = Field(description="the profile's page is /p/{public_id}")
    name: str
    listed: bool
    created_at: float
    passkeys: int = Field(description="passkeys registered to the profile")
    public_profiles: bool = Field(description="whether this server shows profiles to others")


class DeviceLinkInfo(BaseModel):
    url: str = Field(description="/device#{code}: the code is in the fragment, never sent")
    svg: str = Field(description="the link as a QR code (SVG)")
    expires_at: float


class DeviceCode(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: MachineText


class UseDeviceLink(DeviceCode):
    seats: Seats = Field(default_factory=list)


class DeviceLinkProfile(BaseModel):
    name: str = Field(description="the name of the profile the link gives")


class PasskeyAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    credential: Annotated[dict[str, Any], AfterValidator(_credential)] = Field(
        description="the browser's PublicKeyCredential as JSON"
    )
    seats: Seats = Field(default_factory=list)


class PasskeyAdded(BaseModel):
    passkeys: int


class SeatHere(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int | None = Field(
        default=None, ge=0, le=63, description="which of her seats (none: her first one here)"
    )


class HeldSeats(BaseModel):
    seats: list[int] = Field(description="the seats the profile holds at this table")
