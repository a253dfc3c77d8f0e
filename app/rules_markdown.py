"""The rules files (``static/rules/{game}.{lang}.md``) as HTML, by markdown-it-py.

CommonMark with raw HTML off (a ``<`` in a file shows as text) and links checked by
markdown-it (no ``javascript:``), plus what the rules files add to it:

- a heading may end with ``{#id}``: its anchor, ``id="rules-{id}"``;
- headings sit one level down (the page's or panel's own title is above them), and the file's
  ``#`` title carries ``data-i18n`` so static/js/rules.js shows the game's translated name;
- a line ``::name`` (``::se-cards``…) is an empty ``div`` where rules.js lists the game's
  cards from its catalog, in the reader's language.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

CARDS = re.compile(r"::([\w-]+)")
ANCHOR = re.compile(r"\s+\{#([\w-]+)\}$")
DEEPEST_HEADING = 5


def _cards_line(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    if state.sCount[start] - state.blkIndent >= 4:  # an indented code line, not ours
        return False
    line = state.src[state.bMarks[start] + state.tShift[start] : state.eMarks[start]]
    found = CARDS.fullmatch(line.strip())
    if found is None:
        return False
    if not silent:
        token = state.push("rules_cards", "div", 0)
        token.info = found.group(1)
        token.map = [start, start + 1]
    state.line = start + 1
    return True


def _render_cards(
    renderer: RendererHTML, tokens: list[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    name = tokens[idx].info  # word characters and dashes only (CARDS)
    return f'<div class="rules-cards" data-testid="rules-{name}" data-cards="{name}"></div>\n'


def _headings(state: StateCore) -> None:
    tokens = state.tokens
    for at, token in enumerate(tokens):
        if token.type not in ("heading_open", "heading_close"):
            continue
        level = int(token.tag[1:])
        token.tag = f"h{min(level + 1, DEEPEST_HEADING)}"
        if token.type == "heading_close":
            continue
        text = tokens[at + 1]
        anchor = ANCHOR.search(text.content)
        if anchor is not None:
            text.content = text.content[: anchor.start()]
            token.attrSet("id", f"rules-{anchor.group(1)}")
        if level == 1:
            token.attrSet("data-i18n", f"game.{state.env['game']}.title")


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.block.ruler.before("paragraph", "rules_cards", _cards_line, {"alt": ["paragraph"]})
    md.core.ruler.before("inline", "rules_headings", _headings)
    md.add_render_rule("rules_cards", _render_cards)
    return md


_MD = _markdown()


@cache
def rules_html(path: Path, game: str) -> str:
    """The file at ``path`` as HTML, rendered once per file (they change with a deploy)."""
    html: str = _MD.render(path.read_text(encoding="utf-8"), {"game": game})
    return html
