"""The rules pages: ``GET /rules/{game}`` (``?lang=`` picks the language in the browser).

The page is a thin shell; ``static/js/rules.js`` draws the game's rules from
``static/rules/{game}.{lang}.md`` and its card catalog, exactly as in the room's side panel.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.pages import STATIC_DIR, _page

RULES_DIR = STATIC_DIR / "rules"
LANGUAGES = ("en", "vi", "es")

router = APIRouter(tags=["pages"])


def games_with_rules() -> list[str]:
    """Every game with a rules file in English (the other languages are checked by tests)."""
    return sorted(p.name.removesuffix(".en.md") for p in RULES_DIR.glob("*.en.md"))


def _title(game: str) -> str:
    # The English title from the file's first heading; rules.js translates it in the browser.
    first = (RULES_DIR / f"{game}.en.md").read_text(encoding="utf-8").splitlines()[0]
    return first.lstrip("# ").strip()


@router.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
async def rules(request: Request, game: str) -> HTMLResponse:
    if game not in games_with_rules():
        return _page(request, "no_room.html", status=404)
    return _page(request, "rules/page.html", game=game, title=_title(game))
