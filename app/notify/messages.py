"""What a push and a chat post say, in the recipient's language (en, vi, es).

A notification's payload (written by ``app.notify.turns``) holds facts, not text:
``kind`` ("turn" | "reminder" | "end"), ``title`` (the game's), ``names`` (every seat's name,
in seat order), ``seat`` (a push's recipient), ``seats`` (who owes the move, for a chat post),
``winners`` (seats, for "end"), ``due`` (epoch seconds, for a reminder) and ``url`` (the
table's path). The text is made when it is sent, so a reminder says the time left then.
"""

from __future__ import annotations

import math
from typing import Any

LANGS = ("en", "vi", "es")

_TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "and": "and",
        "your_turn": "Your turn — {title} with {others}",
        "your_turn_alone": "Your turn — {title}",
        "your_turn_body": "Open the table to play your move.",
        "reminder": "Little time left — {title}",
        "reminder_body": "Your move is due in {left}; then a bot plays for you.",
        "turn_of": "{who}'s turn — {title} with {names}",
        "turns_of": "{who} to play — {title} with {names}",
        "ended": "{who} won {title} ({names})",
        "ended_many": "{who} won {title} ({names})",
        "ended_nobody": "{title} is over ({names})",
        "hours": "{n} h",
        "minutes": "{n} min",
    },
    "vi": {
        "and": "và",
        "your_turn": "Đến lượt bạn — {title} với {others}",
        "your_turn_alone": "Đến lượt bạn — {title}",
        "your_turn_body": "Mở bàn chơi để đi nước của bạn.",
        "reminder": "Sắp hết giờ — {title}",
        "reminder_body": "Còn {left} để đi nước của bạn; sau đó máy sẽ chơi thay bạn.",
        "turn_of": "Đến lượt {who} — {title} với {names}",
        "turns_of": "{who} cần đi — {title} với {names}",
        "ended": "{who} thắng ván {title} ({names})",
        "ended_many": "{who} cùng thắng ván {title} ({names})",
        "ended_nobody": "Ván {title} đã kết thúc ({names})",
        "hours": "{n} giờ",
        "minutes": "{n} phút",
    },
    "es": {
        "and": "y",
        "your_turn": "Te toca — {title} con {others}",
        "your_turn_alone": "Te toca — {title}",
        "your_turn_body": "Abre la mesa para hacer tu jugada.",
        "reminder": "Queda poco tiempo — {title}",
        "reminder_body": "Tu jugada vence en {left}; después un bot juega por ti.",
        "turn_of": "Le toca a {who} — {title} con {names}",
        "turns_of": "Deben jugar {who} — {title} con {names}",
        "ended": "{who} ganó {title} ({names})",
        "ended_many": "{who} ganaron {title} ({names})",
        "ended_nobody": "{title} terminó ({names})",
        "hours": "{n} h",
        "minutes": "{n} min",
    },
}


def language(lang: str | None) -> str:
    """A supported language for ``lang`` ("es-AR" → "es"); English otherwise."""
    base = (lang or "en").lower().split("-")[0]
    return base if base in LANGS else "en"


def _t(lang: str, key: str) -> str:
    return _TEXTS[language(lang)][key]


def names_list(names: list[str], lang: str) -> str:
    """ "Ana", "Ana and Bob", "Ana, Bob and Cid" (in the language's own "and")."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {_t(lang, 'and')} {names[-1]}"


def time_left(seconds: float, lang: str) -> str:
    if seconds >= 3600:
        return _t(lang, "hours").format(n=max(1, round(seconds / 3600)))
    return _t(lang, "minutes").format(n=max(1, math.ceil(seconds / 60)))


def push_text(payload: dict[str, Any], lang: str, now: float) -> tuple[str, str]:
    """The title and body of a push to ``payload["seat"]``."""
    title = str(payload.get("title", ""))
    names = [str(n) for n in payload.get("names", [])]
    seat = payload.get("seat")
    others = [n for i, n in enumerate(names) if i != seat]
    if payload.get("kind") == "reminder":
        left = max(0.0, float(payload.get("due") or now) - now)
        return (
            _t(lang, "reminder").format(title=title),
            _t(lang, "reminder_body").format(left=time_left(left, lang)),
        )
    if payload.get("kind") == "end":
        return chat_text(payload, lang), ""
    heading = (
        _t(lang, "your_turn").format(title=title, others=names_list(others, lang))
        if others
        else _t(lang, "your_turn_alone").format(title=title)
    )
    return heading, _t(lang, "your_turn_body")


def chat_text(payload: dict[str, Any], lang: str) -> str:
    """One line for a group chat: whose turn it is, or who won."""
    title = str(payload.get("title", ""))
    names = [str(n) for n in payload.get("names", [])]
    everyone = names_list(names, lang)

    def named(seats: list[Any]) -> list[str]:
        return [names[s] for s in seats if isinstance(s, int) and 0 <= s < len(names)]

    if payload.get("kind") == "end":
        winners = named(list(payload.get("winners", [])))
        if not winners:
            return _t(lang, "ended_nobody").format(title=title, names=everyone)
        key = "ended" if len(winners) == 1 else "ended_many"
        return _t(lang, key).format(who=names_list(winners, lang), title=title, names=everyone)
    owing = named(list(payload.get("seats", [])))
    key = "turn_of" if len(owing) == 1 else "turns_of"
    return _t(lang, key).format(who=names_list(owing, lang), title=title, names=everyone)
