"""What the server accepts as text and JSON from outside, on every input path.

Display text (names, chat) is cleaned, so a seat list cannot be spoofed: no control or format
characters (bidi overrides, zero-width spaces), no piles of combining marks, whitespace
collapsed, never blank. Machine text (client_id, everything inside an action or the room
options) is refused when it holds a control character or a lone surrogate: PostgreSQL cannot
store U+0000 and no UTF-8 encoder can write a surrogate, so such input used to end as a 500.
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Any

from app.errors import CovenError

# Deeper than any action, option or message of the games (they nest 3 or 4 levels).
MAX_JSON_DEPTH = 32

# Joiners that scripts and emoji need; every other format character (bidi embeddings and
# overrides U+202A–E, isolates U+2066–9, marks U+200E/F, U+061C, zero-width space U+200B,
# word joiner, BOM, soft hyphen, tag characters…) goes.
_KEEP_FORMAT = {"\u200c", "\u200d"}
_DROP_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn"}
_SPACE_CATEGORIES = {"Zs", "Zl", "Zp"}
_MAX_COMBINING = 2  # marks on one base letter (Vietnamese needs 2; "zalgo" text uses dozens)
_CODE = re.compile(r"[A-Za-z0-9_-]{1,64}")
# What machine text may not hold: Unicode's categories Cc (the C0 and C1 controls and DEL,
# fixed since Unicode 1.1) and Cs (the surrogates), as one character class: searched in C, not
# one ``unicodedata.category`` call per character (every string of every action is checked).
_MACHINE_BAD = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def clean_display(text: str) -> str:
    """``text`` as it may be shown to others: NFC, no invisible or control characters, runs of
    whitespace as one space, at most two combining marks per letter, trimmed."""
    out: list[str] = []
    marks = 0
    for char in unicodedata.normalize("NFC", text):
        category = unicodedata.category(char)
        if char in "\t\n\r" or category in _SPACE_CATEGORIES:
            if out and out[-1] != " ":
                out.append(" ")
            marks = 0
            continue
        if category in _DROP_CATEGORIES and char not in _KEEP_FORMAT:
            continue
        if category.startswith("M"):
            marks += 1
            if marks > _MAX_COMBINING:
                continue
        else:
            marks = 0
        out.append(char)
    return "".join(out).strip()


def display_name(text: str, max_chars: int = 40) -> str:
    """A seat or host name: cleaned; refused (``ValueError``, a 422) when nothing visible is
    left or it is longer than ``max_chars``."""
    name = clean_display(text)
    if not any(unicodedata.category(c)[0] in "LNPS" for c in name):
        raise ValueError("a name needs at least one visible character")
    if len(name) > max_chars:
        raise ValueError(f"a name is at most {max_chars} characters")
    return name


def bad_char(text: str) -> str | None:
    """The first character machine text may not hold (a control character or a surrogate)."""
    found = _MACHINE_BAD.search(text)
    return None if found is None else found.group()


def check_machine_text(text: str, where: str) -> None:
    char = bad_char(text)
    if char is not None:
        raise CovenError(
            "bad_text", f"{where}: U+{ord(char):04X} (a control character) is not allowed"
        )


def json_depth(value: Any) -> int:
    """How deeply ``value`` nests (a scalar is 0), without recursion."""
    if not isinstance(value, dict | list):
        return 0
    # Only containers go on the stack (a scalar adds no depth): a message's strings and
    # numbers cost one isinstance each.
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > deepest:
            deepest = depth
        for child in item.values() if isinstance(item, dict) else item:
            if isinstance(child, dict | list):
                stack.append((child, depth + 1))
    return deepest


def check_json(value: Any, where: str, max_depth: int = MAX_JSON_DEPTH) -> None:
    """Refuse JSON nested deeper than ``max_depth`` (``too_deep``), holding a control
    character or a surrogate in any string or key (``bad_text``), or a number no JSON encoder
    writes back: beyond 64 bits, NaN, infinite (``bad_number``)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            check_machine_text(item, where)
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int):
            if not -(2**63) <= item < 2**64:
                raise CovenError("bad_number", f"{where}: integers are limited to 64 bits")
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise CovenError("bad_number", f"{where}: numbers must be finite")
        elif isinstance(item, dict | list):
            if depth >= max_depth:
                raise CovenError("too_deep", f"{where}: JSON is nested deeper than {max_depth}")
            if isinstance(item, dict):
                for key, child in item.items():
                    if isinstance(key, str):
                        check_machine_text(key, where)
                    stack.append((child, depth + 1))
            else:
                stack.extend((child, depth + 1) for child in item)


def valid_room_code(code: str) -> bool:
    """Room codes are URL-safe base64 (``secrets.token_urlsafe``); anything else is no room,
    and is never sent to the database (PostgreSQL refuses U+0000 with an error)."""
    return _CODE.fullmatch(code) is not None
