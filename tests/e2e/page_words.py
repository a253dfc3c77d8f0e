"""Every word a page shows a player: its visible text and the words of its tooltips, screen
reader labels and placeholders (``title``, ``aria-label``, ``placeholder``)."""

from __future__ import annotations

from typing import Any

LABELS_JS = """
() => [...document.querySelectorAll('[title], [aria-label], [placeholder]')]
  .map((e) => [e.title, e.getAttribute('aria-label'), e.placeholder].filter(Boolean).join('\\n'))
  .join('\\n')
"""


def page_words(page: Any) -> str:
    text: str = page.inner_text("body")
    labels: str = page.evaluate(LABELS_JS)
    return f"{text}\n{labels}"
