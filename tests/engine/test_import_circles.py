"""No import circle among our own modules (engine/ and app/).

The files are read with ``ast``, never imported, and every import counts: also one inside a
function or under ``if TYPE_CHECKING``, and ``importlib.import_module("a.literal.name")``,
because a lazy import that only dodges a circle at run time leaves the circle in the design.
A circle is reported as one concrete path through it, ``a -> b -> ... -> a``, with the other
modules tied into the same knot.
"""

from __future__ import annotations

import ast
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "app")

Graph = dict[str, set[str]]


def module_files(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` below the given top-level packages."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _known_prefix(name: str, known: dict[str, Path]) -> str | None:
    """The longest dotted prefix of ``name`` that is one of our modules."""
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The module a ``from ... import`` names, with a relative import made absolute."""
    if not node.level:
        return node.module or ""
    here = module.split(".") if is_package else module.split(".")[:-1]
    base = here[: len(here) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def _import_module_call(node: ast.AST) -> str | None:
    """The name in ``importlib.import_module("name")`` / ``import_module("name")``, if literal."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    first = node.args[0]
    if called == "import_module" and isinstance(first, ast.Constant):
        return first.value if isinstance(first.value, str) else None
    return None


def imports_of(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Our modules that ``module`` imports anywhere in its file.

    ``from pkg import name`` depends on ``pkg.name`` when that is a module of its own, else on
    ``pkg`` (the name lives in it). Python loads a module's parent packages before it, so the
    bare step into one's own package is not an edge; importing a *name* from it is.
    """
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, is_package, node)
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                targets.append(submodule if submodule in known else source)
        elif (name := _import_module_call(node)) is not None:
            targets = [name]
        for target in targets:
            found = _known_prefix(target, known)
            if found is None or found == module:
                continue
            if module.startswith(found + ".") and target != found:
                continue  # `from engine.seasons import rules` inside engine.seasons.*
            out.add(found)
    return out


def import_graph(root: Path, packages: tuple[str, ...]) -> Graph:
    known = module_files(root, packages)
    return {name: imports_of(name, path, known) for name, path in known.items()}


def knots(graph: Graph) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part: list[str] = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def shortest_circle(graph: Graph, knot: list[str]) -> list[str]:
    """A shortest path from the knot's first module back to itself, inside the knot."""
    start, members = knot[0], set(knot)
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in sorted(graph[node] & members):
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if nxt not in came_from:
                came_from[nxt] = node
                queue.append(nxt)
    raise AssertionError(f"{knot} is not a circle")


def describe(graph: Graph) -> list[str]:
    lines = []
    for knot in knots(graph):
        others = sorted(set(knot) - set(shortest_circle(graph, knot)))
        line = " -> ".join(shortest_circle(graph, knot))
        lines.append(line + (f"  (also tied in: {', '.join(others)})" if others else ""))
    return lines


def test_engine_and_app_import_no_circle() -> None:
    graph = import_graph(ROOT, PACKAGES)
    assert len(graph) > 50, "the walk found too few modules: is ROOT right?"
    circles = describe(graph)
    assert not circles, "import circles:\n" + "\n".join(circles)


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_lazy_or_relative_import_still_closes_a_circle(tmp_path: Path) -> None:
    _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg import b\n",
        "pkg/b.py": "def later():\n    from .c import thing\n    return thing\n",
        "pkg/c.py": "import pkg.a\nthing = 1\n",
        "pkg/d.py": "import importlib\nimportlib.import_module('pkg.e')\n",
        "pkg/e.py": "def later():\n    from pkg import d\n",
        "pkg/leaf.py": "from pkg.a import b\n",
    })
    graph = import_graph(tmp_path, ("pkg",))
    assert knots(graph) == [["pkg.a", "pkg.b", "pkg.c"], ["pkg.d", "pkg.e"]]
    assert describe(graph) == ["pkg.a -> pkg.b -> pkg.c -> pkg.a", "pkg.d -> pkg.e -> pkg.d"]


def test_a_package_importing_its_own_modules_is_no_circle(tmp_path: Path) -> None:
    _write(tmp_path, {
        "pkg/__init__.py": "from pkg import a\n",
        "pkg/a.py": "from pkg import b\n",
        "pkg/b.py": "X = 1\n",
    })
    assert knots(import_graph(tmp_path, ("pkg",))) == []
    # ...but taking a name that the package's __init__ defines is one
    _write(tmp_path, {"pkg/__init__.py": "from pkg import a\nNAME = 1\n",
                      "pkg/b.py": "from pkg import NAME\n"})
    assert describe(import_graph(tmp_path, ("pkg",))) == ["pkg -> pkg.a -> pkg.b -> pkg"]
