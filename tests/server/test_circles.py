"""Circles (issue 19, item 4): a group of friends with a standing invite link, its own
leaderboard and recent matches, and tables opened for it. Runs on SQLite and PostgreSQL (the
``server`` fixture)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import insert

from app.settings import Settings
from app.store.db import make_engine
from app.store.models import MatchPlayerRow, MatchResultRow, RatingRow
from tests.support.client import TIMEOUT
from tests.support.server import ThreadServer

GAME = "test-guess"


class Player:
    """A browser holding a profile: its cookie jar, and the Origin its pages send."""

    def __init__(self, url: str) -> None:
        self.http = httpx.AsyncClient(base_url=url, headers={"Origin": url}, timeout=TIMEOUT)
        self.profile: dict[str, Any] = {}

    async def keep_profile(self, name: str) -> Player:
        made = await self.http.post("/api/profile", json={"name": name})
        assert made.status_code == 201, made.text
        self.profile = made.json()
        return self

    async def ok(self, method: str, path: str, status: int = 200, **kwargs: Any) -> Any:
        answer = await self.http.request(method, path, **kwargs)
        assert answer.status_code == status, answer.text
        return answer.json() if answer.content else None

    async def refused(self, method: str, path: str, status: int, code: str, **kw: Any) -> None:
        answer = await self.http.request(method, path, **kw)
        assert answer.status_code == status, answer.text
        assert answer.json()["error"]["code"] == code, answer.text


@pytest.fixture
async def players(server: ThreadServer) -> AsyncIterator[list[Player]]:
    made = [await Player(server.url).keep_profile(name) for name in ("Ada", "Bea", "Cy", "Dee")]
    yield made
    for player in made:
        await player.http.aclose()


async def new_circle(keeper: Player, name: str = "Thursday witches") -> tuple[str, str]:
    made = await keeper.ok("POST", "/api/circles", 201, json={"name": name})
    invite = made["invite"]
    assert invite["url"].endswith("/c#" + invite["code"])
    assert invite["svg"].lstrip().startswith("<svg")
    return made["circle"]["public_id"], invite["code"]


async def member_names(player: Player, circle: str) -> list[str]:
    page = await player.ok("GET", f"/api/circles/{circle}")
    return [m["name"] for m in page["members"]]


async def test_create_invite_and_join(players: list[Player]) -> None:
    ada, bea, cy, _ = players
    circle, code = await new_circle(ada)
    assert len(circle) == 32  # 128 random bits
    # The invite link shows what it opens before anyone joins.
    seen = await bea.ok("POST", "/api/circle-invite", json={"code": code})
    assert seen == {"name": "Thursday witches", "members": 1, "member": False, "public_id": None}
    joined = await bea.ok("POST", "/api/circle-invite/join", json={"code": code})
    assert joined["public_id"] == circle and joined["members"] == 2 and not joined["keeper"]
    # Joining again changes nothing.
    again = await bea.ok("POST", "/api/circle-invite/join", json={"code": code})
    assert again["members"] == 2
    assert await member_names(ada, circle) == ["Ada", "Bea"]
    page = await bea.ok("GET", f"/api/circles/{circle}")
    keepers = [(m["name"], m["keeper"], m["you"]) for m in page["members"]]
    assert keepers == [("Ada", True, False), ("Bea", False, True)]
    mine = await bea.ok("GET", "/api/circles")
    assert [c["circle"]["name"] for c in mine] == ["Thursday witches"]
    # To anyone else the circle does not exist (the same answer as an unknown id).
    await cy.refused("GET", f"/api/circles/{circle}", 404, "circle_not_found")
    await cy.refused("GET", f"/api/circles/{'0' * 32}", 404, "circle_not_found")
    # Without a profile there is nothing to join with.
    async with httpx.AsyncClient(base_url=str(ada.http.base_url)) as guest:
        answer = await guest.post("/api/circle-invite/join", json={"code": code})
        assert answer.status_code == 401 and answer.json()["error"]["code"] == "no_profile"
        # ... but the link still says what it opens.
        look = await guest.post("/api/circle-invite", json={"code": code})
        assert look.status_code == 200 and look.json()["members"] == 2


async def test_a_revoked_link_is_refused_and_nothing_changes(players: list[Player]) -> None:
    ada, bea, cy, _ = players
    circle, old = await new_circle(ada)
    await bea.ok("POST", "/api/circle-invite/join", json={"code": old})
    # Only the keeper renews the link.
    await bea.refused("POST", f"/api/circles/{circle}/invite", 403, "not_circle_keeper")
    renewed = await ada.ok("POST", f"/api/circles/{circle}/invite", 201)
    new = renewed["code"]
    assert new != old
    before = await ada.ok("GET", f"/api/circles/{circle}")
    assert before["circle"]["invite_id"] == renewed["invite_id"]
    for path in ("/api/circle-invite", "/api/circle-invite/join"):
        await cy.refused("POST", path, 410, "circle_invite_revoked", json={"code": old})
    assert await cy.ok("GET", "/api/circles") == []
    assert await member_names(ada, circle) == ["Ada", "Bea"]
    # A code no circle ever had, or not a code at all.
    for bad in ("A" * 22, "../../etc", ""):
        await cy.refused(
            "POST", "/api/circle-invite/join", 404, "circle_invite_invalid", json={"code": bad}
        )
    # A member's browser kept the old code: it is not shown as the link any more.
    await bea.refused(
        "POST",
        f"/api/circles/{circle}/invite/show",
        410,
        "circle_invite_revoked",
        json={"code": old},
    )
    shown = await bea.ok("POST", f"/api/circles/{circle}/invite/show", json={"code": new})
    assert shown["url"].endswith("/c#" + new) and shown["invite_id"] == renewed["invite_id"]
    # The new link works.
    joined = await cy.ok("POST", "/api/circle-invite/join", json={"code": new})
    assert joined["members"] == 3


async def test_the_keeper_removes_a_member_and_renames(players: list[Player]) -> None:
    ada, bea, cy, _ = players
    circle, code = await new_circle(ada)
    for friend in (bea, cy):
        await friend.ok("POST", "/api/circle-invite/join", json={"code": code})
    bea_id = bea.profile["public_id"]
    ada_id = ada.profile["public_id"]
    # A member may not remove anyone, nor rename.
    await cy.refused("DELETE", f"/api/circles/{circle}/members/{bea_id}", 403, "not_circle_keeper")
    await cy.refused(
        "PATCH", f"/api/circles/{circle}", 403, "not_circle_keeper", json={"name": "Mine"}
    )
    await ada.ok("DELETE", f"/api/circles/{circle}/members/{bea_id}", 204)
    await bea.refused("GET", f"/api/circles/{circle}", 404, "circle_not_found")
    assert await bea.ok("GET", "/api/circles") == []
    assert await member_names(cy, circle) == ["Ada", "Cy"]
    await ada.refused(
        "DELETE", f"/api/circles/{circle}/members/{bea_id}", 404, "circle_member_not_found"
    )
    renamed = await ada.ok("PATCH", f"/api/circles/{circle}", json={"name": "  Full  moon "})
    assert renamed["name"] == "Full moon"
    await ada.refused(
        "PATCH", f"/api/circles/{circle}", 422, "bad_circle_name", json={"name": "\u200b "}
    )
    # The keeper leaves: the member who joined first keeps the circle.
    await ada.ok("POST", f"/api/circles/{circle}/leave", 204)
    page = await cy.ok("GET", f"/api/circles/{circle}")
    assert [(m["name"], m["keeper"]) for m in page["members"]] == [("Cy", True)]
    await cy.refused(
        "DELETE", f"/api/circles/{circle}/members/{ada_id}", 404, "circle_member_not_found"
    )
    # The last member leaves: the circle is gone, its link with it.
    await cy.ok("POST", f"/api/circles/{circle}/leave", 204)
    await cy.refused("GET", f"/api/circles/{circle}", 404, "circle_not_found")
    await bea.refused(
        "POST", "/api/circle-invite/join", 404, "circle_invite_invalid", json={"code": code}
    )


async def create_room(player: Player | httpx.AsyncClient, **extra: Any) -> httpx.Response:
    http = player.http if isinstance(player, Player) else player
    body = {"game": GAME, "name": "Host", "visibility": "private", **extra}
    return await http.post("/api/rooms", json=body)


async def test_members_open_tables_for_the_circle(players: list[Player]) -> None:
    ada, bea, cy, _ = players
    circle, code = await new_circle(ada)
    await bea.ok("POST", "/api/circle-invite/join", json={"code": code})
    # Not a member: refused before any room is made.
    refused = await create_room(cy, circle=circle)
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "circle_not_found"
    async with httpx.AsyncClient(base_url=str(ada.http.base_url)) as guest:
        anonymous = await create_room(guest, circle=circle)
        assert anonymous.status_code == 401 and anonymous.json()["error"]["code"] == "no_profile"
    assert (await cy.ok("POST", "/api/me/tables", json={}))["tables"] == []
    # A member opens one: every member finds it with the circle, on the home page's data.
    made = await create_room(bea, circle=circle)
    assert made.status_code == 201, made.text
    room = made.json()["room"]["code"]
    for member in (ada, bea):
        mine = await member.ok("GET", "/api/circles")
        assert [t["code"] for t in mine[0]["tables"]] == [room]
        page = await member.ok("GET", f"/api/circles/{circle}")
        assert [t["code"] for t in page["tables"]] == [room]
    assert await cy.ok("GET", "/api/circles") == []
    # Bea's own tables carry the circle's name.
    tables = (await bea.ok("POST", "/api/me/tables", json={}))["tables"]
    assert [(t["table"]["code"], t["circle"]["name"]) for t in tables] == [
        (room, "Thursday witches")
    ]


async def record_match(
    settings: Settings,
    room_code: str,
    players: list[tuple[int | None, str, int]],
    finished_at: float,
) -> None:
    """A finished match as the results reaction records it (``match_results`` and one
    ``match_players`` row per seat: profile row id, name, place)."""
    engine = make_engine(settings.database_url, settings.database_schema)
    try:
        async with engine.begin() as conn:
            room_id = (
                await conn.exec_driver_sql(f"SELECT id FROM rooms WHERE code = '{room_code}'")
            ).scalar_one()
            match_id = (
                await conn.exec_driver_sql(f"SELECT id FROM matches WHERE room_id = {room_id}")
            ).scalar_one()
            await conn.execute(
                insert(MatchResultRow).values(
                    match_id=match_id,
                    room_id=room_id,
                    game_id=GAME,
                    players=len(players),
                    finished_at=finished_at,
                    rated=True,
                )
            )
            for seat, (profile_id, name, place) in enumerate(players):
                await conn.execute(
                    insert(MatchPlayerRow).values(
                        match_id=match_id,
                        seat=seat,
                        profile_id=profile_id,
                        name=name,
                        bot_level=None,
                        former=False,
                        place=place,
                        score=float(10 - place),
                        stats={},
                        game_id=GAME,
                        finished_at=finished_at,
                    )
                )
    finally:
        await engine.dispose()


async def rate(settings: Settings, ratings: dict[int, float]) -> None:
    engine = make_engine(settings.database_url, settings.database_schema)
    try:
        async with engine.begin() as conn:
            for profile_id, ordinal in ratings.items():
                await conn.execute(
                    insert(RatingRow).values(
                        profile_id=profile_id,
                        game_id=GAME,
                        mu=ordinal + 3,
                        sigma=1.0,
                        ordinal=ordinal,
                        matches=1,
                        updated_at=time.time(),
                    )
                )
    finally:
        await engine.dispose()


async def profile_row_ids(settings: Settings, players: list[Player]) -> list[int]:
    engine = make_engine(settings.database_url, settings.database_schema)
    try:
        async with engine.connect() as conn:
            ids = []
            for player in players:
                public_id = player.profile["public_id"]
                ids.append(
                    (
                        await conn.exec_driver_sql(
                            f"SELECT id FROM profiles WHERE public_id = '{public_id}'"
                        )
                    ).scalar_one()
                )
            return ids
    finally:
        await engine.dispose()


async def finished_room(host: Player, names: list[str]) -> str:
    """A room whose match has started (so it has a match row) with these seats."""
    made = await create_room(host)
    code: str = made.json()["room"]["code"]
    token = made.json()["token"]
    for name in names[1:]:
        await host.ok("POST", f"/api/rooms/{code}/join", json={"name": name})
    started = await host.http.post(
        f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {token}"}
    )
    assert started.status_code == 200, started.text
    return code


async def test_leaderboard_and_recent_matches(players: list[Player], settings: Settings) -> None:
    """A circle's leaderboard holds its members' ratings, best first; a private profile is
    left out of it for the other members (its owner still sees her line). Its recent matches
    are those two members played together and those of its own tables."""
    ada, bea, cy, _ = players
    circle, code = await new_circle(ada)
    for friend in (bea, cy):
        await friend.ok("POST", "/api/circle-invite/join", json={"code": code})
    ada_id, bea_id, cy_id, dee_id = await profile_row_ids(settings, players)
    await rate(settings, {ada_id: 5.0, bea_id: 9.0, cy_id: 1.0, dee_id: 20.0})
    await bea.ok("PATCH", "/api/profile", json={"listed": False})

    def board(page: dict[str, Any]) -> list[tuple[int, str, bool]]:
        (only,) = page["leaderboards"]
        assert only["game"] == GAME
        return [(s["rank"], s["name"], s["you"]) for s in only["standings"]]

    # Dee is rated best but is no member; Bea is private.
    assert board(await ada.ok("GET", f"/api/circles/{circle}")) == [
        (1, "Ada", True),
        (2, "Cy", False),
    ]
    assert board(await bea.ok("GET", f"/api/circles/{circle}")) == [
        (1, "Bea", True),
        (2, "Ada", False),
        (3, "Cy", False),
    ]
    # Private or not, Bea stays a member the others see.
    assert await member_names(cy, circle) == ["Ada", "Bea", "Cy"]

    now = time.time()
    together = await finished_room(ada, ["Ada", "Cy", "Guest"])
    await record_match(
        settings, together, [(ada_id, "Ada", 2), (cy_id, "Cy", 1), (None, "Guest", 3)], now - 30
    )
    alone = await finished_room(ada, ["Ada", "Dee"])
    await record_match(settings, alone, [(ada_id, "Ada", 1), (dee_id, "Dee", 2)], now - 20)
    private = await finished_room(bea, ["Bea", "Ada"])
    await record_match(settings, private, [(bea_id, "Bea", 1), (ada_id, "Ada", 2)], now - 10)
    page = await cy.ok("GET", f"/api/circles/{circle}")
    assert [m["room"] for m in page["matches"]] == [private, together]
    latest = page["matches"][0]["seats"]
    assert [(s["name"], s["place"], s["member"]) for s in latest] == [
        ("Bea", 1, True),
        ("Ada", 2, True),
    ]
    # Bea's profile id is not handed to the others.
    assert [s["public_id"] for s in latest] == [None, ada.profile["public_id"]]
    first = page["matches"][1]["seats"]
    assert [(s["name"], s["member"]) for s in first] == [
        ("Cy", True),
        ("Ada", True),
        ("Guest", False),
    ]


async def test_two_joins_race_for_one_circle(players: list[Player]) -> None:
    ada, bea, cy, dee = players
    circle, code = await new_circle(ada)
    answers = await asyncio.gather(
        *(p.http.post("/api/circle-invite/join", json={"code": code}) for p in (bea, cy, dee))
    )
    assert [a.status_code for a in answers] == [200, 200, 200]
    assert sorted(await member_names(ada, circle)) == ["Ada", "Bea", "Cy", "Dee"]


async def test_another_site_cannot_act_with_the_cookie(players: list[Player]) -> None:
    ada, bea, _, _ = players
    circle, code = await new_circle(ada)
    forged = await bea.http.post(
        "/api/circle-invite/join", json={"code": code}, headers={"Origin": "https://evil.test"}
    )
    assert forged.status_code == 403 and forged.json()["error"]["code"] == "bad_origin"
    assert await member_names(ada, circle) == ["Ada"]


async def test_the_circle_pages(sqlite_server: ThreadServer) -> None:
    async with httpx.AsyncClient(base_url=sqlite_server.url, timeout=TIMEOUT) as http:
        invite = await http.get("/c")
        assert invite.status_code == 200 and "/static/js/circle_invite.js" in invite.text
        page = await http.get(f"/circles/{'ab' * 16}")
        assert page.status_code == 200 and f'data-circle="{"ab" * 16}"' in page.text
        odd = await http.get("/circles/not-a-circle")
        assert odd.status_code == 404 and 'data-circle=""' in odd.text
        # A new visitor's lobby asks for no profile: it holds no cookie.
        lobby = await http.get("/")
        assert 'data-profile="0"' in lobby.text
        http.cookies.set("coven_profile", "x" * 43)
        assert 'data-profile="1"' in (await http.get("/")).text
