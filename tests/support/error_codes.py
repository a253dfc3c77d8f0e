"""Every error ``code`` the server can send to a browser, read from the source itself.

The server refuses with ``CovenError(code, message)`` (app/errors.py), an engine with
``IllegalAction(code, message)`` (engine/protocol.py, passed on by ``CovenError.from_illegal``),
the socket with ``_error(code, …)`` (app/api/ws.py) and the HTTP layer with ``_error(status,
code, …)`` / ``_deny_websocket`` / ``{"code": …, "message": …}`` bodies (app/main.py); the
browser adds its own ``ApiError`` codes (static/js/api.js). The scan reads the code argument of
each such call (a string, a conditional of strings, or a local variable assigned strings), so a
new ``raise CovenError("new_code", …)`` is found without editing anything here.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("whirling", "brew", "seasons")
# The callables that carry a code, and where it sits when given by position (after ``self``).
CONSTRUCTORS = {"IllegalAction": 0, "CovenError": 0, "ErrorMessage": 0}
# Engine modules a browser never reaches: the command-line arena and simulator, the bots.
NOT_SERVED = ("engine/arena.py", "engine/simulate.py", "engine/bots")


def served_sources() -> list[Path]:
    files = sorted((ROOT / "app").rglob("*.py"))
    files += sorted((ROOT / "engine").glob("*.py"))
    for game in GAMES:
        files += sorted((ROOT / "engine" / game).rglob("*.py"))
    return [p for p in files if not str(p.relative_to(ROOT)).startswith(NOT_SERVED)]


def _strings(node: ast.AST | None) -> Iterator[str]:
    """The string constants an expression can evaluate to (``"a" if x else "b"``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.IfExp):
        yield from _strings(node.body)
        yield from _strings(node.orelse)


def _code_positions(tree: ast.Module) -> dict[str, int]:
    """Local helpers of this module with a ``code`` parameter that build an error message."""
    positions = dict(CONSTRUCTORS)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names = [a.arg for a in node.args.args]
            errorish = node.name in ("_error", "_refuse") or node.name.startswith("_deny")
            if errorish and "code" in names:
                positions[node.name] = names.index("code")
    return positions


def _callee(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _assigned(function: ast.AST, name: str) -> Iterator[str]:
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            yield from _strings(node.value)


def codes_in(tree: ast.Module) -> Iterator[str]:
    positions = _code_positions(tree)
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys = {
                k.value: v
                for k, v in zip(node.keys, node.values, strict=True)
                if isinstance(k, ast.Constant)
            }
            if "code" in keys and "message" in keys:
                yield from _strings(keys["code"])
        if not isinstance(node, ast.Call):
            continue
        name = _callee(node)
        if name not in positions:
            continue
        argument: ast.AST | None = next((k.value for k in node.keywords if k.arg == "code"), None)
        if argument is None and len(node.args) > positions[name]:
            argument = node.args[positions[name]]
        yield from _strings(argument)
        if isinstance(argument, ast.Name):
            for function in functions:
                if any(n is node for n in ast.walk(function)):
                    yield from _assigned(function, argument.id)


@cache
def server_codes() -> frozenset[str]:
    from app import main
    from app.errors import STATUS

    codes = set(STATUS) | set(main._HTTP_CODES.values()) | {"http_error"}
    for path in served_sources():
        codes |= set(codes_in(ast.parse(path.read_text(encoding="utf-8"))))
    return frozenset(codes)


def client_codes() -> set[str]:
    """Codes ``static/js/api.js`` makes up itself (no answer, or an answer without a code)."""
    text = (ROOT / "static" / "js" / "api.js").read_text(encoding="utf-8")
    return set(re.findall(r"new ApiError\([^,]+,\s*\"(\w+)\"", text)) | set(
        re.findall(r"\.code \|\| \"(\w+)\"", text)
    )


def readme_codes(game: str) -> set[str]:
    """The codes ``engine/{game}/README.md`` lists under its "Error codes"."""
    text = (ROOT / "engine" / game / "README.md").read_text(encoding="utf-8")
    start = text.index("Error codes")
    section = text[start : text.index("\n\n", text.index("`", start))]
    return set(re.findall(r"`(\w+)`", section))


def all_codes() -> frozenset[str]:
    return server_codes() | frozenset(client_codes())
