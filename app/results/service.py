"""History and ratings as use cases: each answer checks who may see what (``visibility``)
and reads through ``queries``; recording runs in ``reaction``. Handlers stay thin."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import CovenError
from app.results import messages
from app.results.finish import statistic_names
from app.results.ledger import Ledger
from app.results.queries import Queries
from app.results.reaction import Recorder
from app.results.records import ProfileCard
from app.results.visibility import Viewer
from app.store.database import Database
from app.store.room_shards import RoomDatabases
from engine import registry
from engine.protocol import IllegalAction


def _not_found() -> CovenError:
    # A private profile answers exactly as an unknown id: nobody learns it exists.
    return CovenError("profile_not_found", "no such profile", status=404)


def _names(game_id: str) -> list[str]:
    try:
        return list(statistic_names(registry.get(game_id)))
    except IllegalAction:  # a game no longer installed: its matches keep their rows
        return []


class Results:
    def __init__(
        self,
        db: Database,
        *,
        public_profiles: bool,
        sweep_seconds: float,
        rooms: RoomDatabases | None = None,
    ) -> None:
        """``rooms``: where rooms and matches are when room databases are listed (history,
        totals and ratings stay in ``db``)."""
        self.public_profiles = public_profiles
        self.ledger = Ledger(db, rooms)
        self.queries = Queries(db, registry.games, rooms)
        self.recorder = Recorder(self.ledger, registry.get, sweep_seconds)

    async def start(self) -> None:
        await self.recorder.start()

    async def close(self) -> None:
        await self.recorder.close()

    def viewer(self, profile_id: int | None) -> Viewer:
        return Viewer(profile_id, self.public_profiles)

    @staticmethod
    def _game(game_id: str) -> str:
        try:
            return registry.get(game_id).id
        except IllegalAction as exc:
            raise CovenError.from_illegal(exc) from None

    async def _visible(self, session: AsyncSession, public_id: str, viewer: Viewer) -> ProfileCard:
        card = await self.queries.profile(session, public_id)
        if card is None or not viewer.may_see(card.id, card.listed):
            raise _not_found()
        return card

    async def shows_profile(self, public_id: str, viewer: Viewer) -> bool:
        """Whether ``viewer`` may see this profile's page (its page answers 404 otherwise)."""
        async with self.queries.session() as session:
            card = await self.queries.profile(session, public_id)
        return card is not None and viewer.may_see(card.id, card.listed)

    def shows_leaderboard(self, game_id: str) -> bool:
        try:
            self._game(game_id)
        except CovenError:
            return False
        return self.public_profiles

    async def profile_page(self, public_id: str, viewer: Viewer) -> messages.ProfilePage:
        async with self.queries.session() as session:
            found = await self.queries.profile_and_ratings(session, public_id)
            if found is None or not viewer.may_see(found[0].id, found[0].listed):
                raise _not_found()
            card, ratings = found
            history = await self.queries.history(session, card.id, viewer)
            games = await self.queries.game_summaries(session, card.id)
        return messages.ProfilePage(
            profile=messages.ProfileHeader.of(card, viewer.profile_id),
            ratings=[messages.Rating.of(r) for r in ratings],
            games=[messages.GameRecord.of(g) for g in games],
            history=messages.History.of(history),
            public_profiles=self.public_profiles,
        )

    async def history(
        self, public_id: str, viewer: Viewer, before: tuple[float, int] | None, limit: int
    ) -> messages.History:
        async with self.queries.session() as session:
            card = await self._visible(session, public_id, viewer)
            page = await self.queries.history(session, card.id, viewer, before, limit)
        return messages.History.of(page)

    async def leaderboard(self, game_id: str) -> messages.Leaderboard:
        game = self._game(game_id)
        if not self.public_profiles:
            raise CovenError(
                "leaderboards_off", "this server does not show leaderboards", status=404
            )
        async with self.queries.session() as session:
            lines = await self.queries.leaderboard(session, game)
        return messages.Leaderboard(
            game=game, entries=[messages.LeaderboardEntry.of(line) for line in lines]
        )

    async def versus(self, one: str, other: str, viewer: Viewer) -> messages.Versus:
        async with self.queries.session() as session:
            first = await self._visible(session, one, viewer)
            second = await self._visible(session, other, viewer)
            if first.id == second.id:
                raise CovenError("same_profile", "a head-to-head needs two profiles", status=422)
            lines = await self.queries.versus(session, first.id, second.id)
        games = [messages.VersusGame.of(line) for line in lines]
        return messages.Versus(
            profile=messages.ProfileHeader.of(first, viewer.profile_id),
            other=messages.ProfileHeader.of(second, viewer.profile_id),
            games=games,
            total=messages.VersusGame(
                game="all",
                matches=sum(g.matches for g in games),
                wins=sum(g.wins for g in games),
                losses=sum(g.losses for g in games),
                draws=sum(g.draws for g in games),
            ),
        )

    async def room_results(self, code: str, viewer: Viewer) -> messages.RoomResults:
        """One room's recorded match for its end screen (anyone with the room's link, as
        its replay)."""
        async with self.queries.session() as session:
            found = await self.queries.room_results(session, code, viewer)
        if found is None:
            raise CovenError("room_not_found", f"no room {code!r}")
        status, game_id, line = found
        return messages.RoomResults(
            finished=status == "finished",
            recorded=line is not None,
            game=game_id,
            statistic_names=_names(game_id),
            match=messages.MatchResult.of(line) if line is not None else None,
        )
