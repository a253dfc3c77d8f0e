"""The rules pages: ``GET /rules/{game}`` (``?lang=`` picks the language, of the page's
``<html lang>`` too, app/pages.py ``page_language``; the browser draws the rules in it), and
each rules file as HTML, ``GET /rules/{game}.{lang}.html``.

The page is a thin shell; ``static/js/rules.js`` puts in the game's rules, rendered here once
from ``static/rules/{game}.{lang}.md`` (app/rules_markdown.py), and fills their card lists from
the game's catalog, exactly as in the room's side panel.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.pages import LANGUAGES as LANGUAGES  # (tests read it here)
from app.pages import STATIC_DIR, _page
from app.rules_markdown import rules_html

RULES_DIR = STATIC_DIR / "rules"

router = APIRouter(tags=["pages"])


def games_with_rules() -> list[str]:
    """Every game with a rules file in English (the other languages are checked by tests)."""
    return sorted(p.name.removesuffix(".en.md") for p in RULES_DIR.glob("*.en.md"))


def _title(game: str) -> str:
    # The English title from the file's first heading; rules.js translates it in the browser.
    first = (RULES_DIR / f"{game}.en.md").read_text(encoding="utf-8").splitlines()[0]
    return first.lstrip("# ").strip()


# Declared before /rules/{game}, which would take "seasons.en.html" for a game's name.
@router.get("/rules/{game}.{lang}.html", response_class=HTMLResponse, include_in_schema=False)
async def rules_text(request: Request, game: str, lang: str) -> HTMLResponse:
    """The rules as an HTML fragment for rules.js (the card lists are empty ``div``s)."""
    if game not in games_with_rules() or lang not in LANGUAGES:
        return _page(request, "no_room.html", status=404)
    return HTMLResponse(
        rules_html(RULES_DIR / f"{game}.{lang}.md", game),
        headers={"Cache-Control": "public, max-age=300"},
    )


@router.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
async def rules(request: Request, game: str) -> HTMLResponse:
    if game not in games_with_rules():
        return _page(request, "no_room.html", status=404)
    return _page(request, "rules/page.html", game=game, title=_title(game))
