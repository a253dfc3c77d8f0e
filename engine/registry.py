"""Every playable game, by id. The server and the CLI find games here and nowhere else."""

from __future__ import annotations

from engine.protocol import Game, IllegalAction


def _builtin_games() -> list[Game]:
    from engine.brew.game import WitchsBrew
    from engine.seasons.game import Seasons
    from engine.whirling.game import WhirlingWitchcraft

    return [WhirlingWitchcraft(), WitchsBrew(), Seasons()]


_GAMES: dict[str, Game] = {}


def register(game: Game) -> None:
    _GAMES[game.id] = game


def games() -> list[Game]:
    if not _GAMES:
        for game in _builtin_games():
            register(game)
    return list(_GAMES.values())


def get(game_id: str) -> Game:
    games()
    try:
        return _GAMES[game_id]
    except KeyError:
        raise IllegalAction("unknown_game", f"no game called {game_id!r}") from None


def rules_version(game: Game) -> str:
    """The version of ``game``'s rules and data (its ``rules_version``; "1" for a game that
    declares none). A match records it when it starts."""
    return str(getattr(game, "rules_version", "1"))


def rules_versions(game: Game) -> frozenset[str]:
    """The rules versions this installation can replay ``game`` under: its current one, plus
    any older ones the game still carries (``older_rules_versions``)."""
    older = getattr(game, "older_rules_versions", ())
    return frozenset({rules_version(game), *(str(v) for v in older)})
