"""Every game has player-facing rules in English, Vietnamese and Spanish, with one structure.

The rules live in ``static/rules/{game}.{lang}.md`` (rendered by the server, shown by
``static/js/rules.js``): the three languages must have the same headings (levels and section
ids, in order) and the same card-list directives at the same places, so a player switching
language finds the same page.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.rules_pages import LANGUAGES, RULES_DIR, games_with_rules
from engine.registry import games

HEADING = re.compile(r"^(#{1,4})\s+(.*?)(?:\s+\{#([\w-]+)\})?$")
DIRECTIVE = re.compile(r"^::([\w-]+)$")
# The directives rules.js knows (its DIRECTIVES table).
KNOWN_DIRECTIVES = {"ww-personalities", "wb-roles", "wb-spells", "se-cards"}
SECTIONS = ["goal", "components", "setup", "round", "end", "tiebreak", "cards", "table"]


def structure(path: Path) -> list[str]:
    shape = []
    for line in path.read_text(encoding="utf-8").splitlines():
        heading = HEADING.match(line)
        if heading:
            shape.append(f"h{len(heading.group(1))}#{heading.group(3) or ''}")
        directive = DIRECTIVE.match(line.strip())
        if directive:
            shape.append(f"::{directive.group(1)}")
    return shape


def test_every_registered_game_has_rules() -> None:
    assert sorted(g.id for g in games()) == games_with_rules()


@pytest.mark.parametrize("game", games_with_rules())
def test_rules_in_three_languages_with_one_structure(game: str) -> None:
    english = structure(RULES_DIR / f"{game}.en.md")
    ids = [part.split("#", 1)[1] for part in english if part.startswith("h2#")]
    assert ids == SECTIONS
    assert english[0] == "h1#"
    for part in english:
        if part.startswith("::"):
            assert part[2:] in KNOWN_DIRECTIVES
    for lang in LANGUAGES:
        path = RULES_DIR / f"{game}.{lang}.md"
        assert path.exists(), f"{game} has no rules in {lang}"
        assert structure(path) == english, f"{path.name} differs from the English structure"


@pytest.mark.parametrize("game", games_with_rules())
def test_rules_have_no_markup_the_renderer_would_show_raw(game: str) -> None:
    for lang in LANGUAGES:
        text = (RULES_DIR / f"{game}.{lang}.md").read_text(encoding="utf-8")
        assert "<" not in text, f"{game}.{lang}: HTML is shown as text, not rendered"
        assert text.count("**") % 2 == 0, f"{game}.{lang}: unbalanced bold"


def test_rules_route_serves_a_shell_page_under_the_csp() -> None:
    from fastapi.testclient import TestClient

    from app.main import create_app

    client = TestClient(create_app())  # no lifespan: the page needs no database
    for game in games_with_rules():
        response = client.get(f"/rules/{game}", params={"lang": "vi"})
        assert response.status_code == 200
        assert f'data-game="{game}"' in response.text
        assert '<script type="module" src="/static/js/rules.js' in response.text
        csp = response.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-eval" not in csp
        assert "<script>" not in response.text and " style=" not in response.text
    assert client.get("/rules/chess").status_code == 404
    assert client.get("/static/rules/seasons.es.md").status_code == 200


def test_rules_files_are_served_as_html_without_raw_markup() -> None:
    from fastapi.testclient import TestClient

    from app.main import create_app

    client = TestClient(create_app())
    for game in games_with_rules():
        for lang in LANGUAGES:
            response = client.get(f"/rules/{game}.{lang}.html")
            assert response.status_code == 200
            html = response.text
            assert html.startswith(f'<h2 data-i18n="game.{game}.title">')
            for section in SECTIONS:
                assert f'<h3 id="rules-{section}">' in html
            assert "{#" not in html and "::" not in html and "**" not in html
    assert client.get("/rules/chess.en.html").status_code == 404
    assert client.get("/rules/seasons.fr.html").status_code == 404


def test_rules_markdown_lets_no_markup_or_script_link_through(tmp_path: Path) -> None:
    from app.rules_markdown import rules_html

    path = tmp_path / "trap.md"
    path.write_text(
        "# Trap\n\n<script>alert(1)</script>\n\n"
        "[a](javascript:alert(1)) <img src=x onerror=alert(1)> [b](/rules/seasons)\n"
        "::se-cards\n\n## Goal {#goal}\n",
        encoding="utf-8",
    )
    html = rules_html(path, "seasons")
    # Raw HTML is shown as text; a javascript: link stays text, not a link.
    assert "<script" not in html and "<img" not in html and "&lt;script&gt;" in html
    assert 'href="javascript' not in html
    assert '<a href="/rules/seasons">b</a>' in html
    assert '<div class="rules-cards" data-testid="rules-se-cards" data-cards="se-cards">' in html
    assert '<h3 id="rules-goal">Goal</h3>' in html
