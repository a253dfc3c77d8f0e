"""What a post to a group chat looks like in each chat's own webhook format.

One small function per format, chosen by name from ``FORMATS``; each gets the line to post
(already in the webhook's language: ``app.notify.messages.chat_text``) and the table's link, and
gives the request body with its headers. Player names are typed by players, so each format
escapes what its chat would otherwise read as markup, a mention or a link:

- **discord**: ``{"content", "allowed_mentions": {"parse": []}}`` — Markdown escaped, and no
  mention ever pings (no ``@everyone``, no role, no user);
- **slack**: ``{"text"}`` — ``&``, ``<`` and ``>`` escaped, so no ``<!channel>`` and no link;
- **matrix** (matrix-hookshot's generic webhooks): ``{"text", "html"}`` — hookshot posts
  ``text`` as the message's plain body and ``html`` as its formatted body (given ``html``, it
  does not read ``text`` as Markdown); no ``username`` (hookshot would prefix it to both);
- **ntfy**: the line as a plain-text body, with the headers ``Title`` (the game), ``Click`` (the
  table's link: a tap on the notification opens it) and ``Tags`` (an emoji by kind).
"""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

# Discord refuses a message over 2,000 characters.
DISCORD_MAX = 2000
USER_AGENT = "Coven-Webhook/1"


@dataclass(frozen=True, slots=True)
class ChatLine:
    """What to post: the line, the table's link, the game's title and what happened."""

    text: str
    link: str
    title: str
    kind: str  # "turn" | "end"


@dataclass(frozen=True, slots=True)
class Post:
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)


def _json(data: dict[str, object]) -> Post:
    return Post(
        json.dumps(data, ensure_ascii=False).encode(),
        {"Content-Type": "application/json", "User-Agent": USER_AGENT},
    )


_DISCORD_MARKUP = re.compile(r"([\\*_~`|>#\-+.!\[\]()<:@])")


def discord_escape(text: str) -> str:
    """Every character Discord's Markdown, links or mentions read, backslash-escaped."""
    return _DISCORD_MARKUP.sub(r"\\\1", text)


def discord(line: ChatLine) -> Post:
    content = f"{discord_escape(line.text)}\n{line.link}"
    if len(content) > DISCORD_MAX:
        content = content[: DISCORD_MAX - len(line.link) - 2] + "…\n" + line.link
    return _json({"content": content, "allowed_mentions": {"parse": []}})


def slack_escape(text: str) -> str:
    """Slack's three control characters (https://api.slack.com/reference/surfaces/formatting)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def slack(line: ChatLine) -> Post:
    return _json({"text": f"{slack_escape(line.text)}\n{line.link}"})


def matrix(line: ChatLine) -> Post:
    link = html.escape(line.link, quote=True)
    return _json(
        {
            "text": f"{line.text}\n{line.link}",
            "html": f'{html.escape(line.text, quote=False)}<br><a href="{link}">{link}</a>',
        }
    )


NTFY_TAGS = {"turn": "hourglass_flowing_sand", "end": "trophy"}


def header_text(text: str) -> str:
    """A header's value as ASCII: itself, or an RFC 2047 encoded word (which ntfy reads)."""
    text = " ".join(text.split())  # never a line break in a header
    if text.isascii():
        return text
    return f"=?utf-8?b?{base64.b64encode(text.encode()).decode()}?="


def ntfy(line: ChatLine) -> Post:
    headers = {
        "Content-Type": "text/plain; charset=utf-8",
        "User-Agent": USER_AGENT,
        "Title": header_text(f"Coven: {line.title}"),
        "Tags": NTFY_TAGS.get(line.kind, "game_die"),
    }
    if line.link.isascii():
        headers["Click"] = line.link
    return Post(line.text.encode(), headers)


FORMATS: dict[str, Callable[[ChatLine], Post]] = {
    "discord": discord,
    "slack": slack,
    "matrix": matrix,
    "ntfy": ntfy,
}
