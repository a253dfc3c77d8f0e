"""The static files as the pages link them: versioned, cached for good, their modules preloaded.

Files under ``static/`` do not change under a running server (a new version is a restart), so
one version is taken when the server starts, a hash of every file: the pages link each file
under ``/static/v/{version}/…``, which a browser may keep without asking again
(``Cache-Control: immutable``). An ES module's relative imports resolve under the same prefix,
so the whole import tree carries the version without a bundler; an import map sends an
absolute ``/static/js/…`` import there too, so a module is never loaded twice under two URLs.

A page lists its entry modules' import trees (read from the ``import … from "./x.js"`` lines
at start) as ``<link rel="modulepreload">``: the browser fetches them all at once instead of
one level of imports after another. It links the stylesheets those modules ask for
(``useStylesheet("brew.css")``, static/js/table.js) by their versioned URL too, marked as
``useStylesheet`` marks its own, so that it finds them there and asks for nothing.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
# The public prefix of the static files (app/pages.py mounts them there).
STATIC_PREFIX = "/static"
VERSIONED_PREFIX = "/static/v"

# A static `import … from "./x.js"` (or `export … from`, or a bare `import "./x.js"`) at the
# start of a line, its braces possibly over several lines. Dynamic `import()`s are left out:
# they load on demand (a page that knows it needs one lists it itself).
_STATIC_IMPORT = re.compile(
    r"""^(?:import|export)\s+(?:[^;"'`]*?\s+from\s+)?["'](\.{1,2}/[^"']+\.js)["']""",
    re.MULTILINE,
)
# A module's own call of table.js's `useStylesheet("x.css")` (not `table.useStylesheet(…)` after
# a dynamic import: that one comes on demand).
_STYLESHEET = re.compile(r"""(?<![\w.])useStylesheet\(\s*["']([\w-]+\.css)["']\s*\)""")
# Comments (a doc comment may show a call as an example): `/* … */`, and `// …` after a space or
# at a line's start (not the `//` of "https://" in a string).
_COMMENT = re.compile(r"/\*.*?\*/|(?:^|(?<=\s))//[^\n]*", re.DOTALL | re.MULTILINE)


@dataclass(frozen=True)
class StaticAssets:
    """The version of the static tree and the import graph of its modules (paths relative to
    ``static/``, e.g. ``js/room.js``)."""

    version: str
    imports: Mapping[str, tuple[str, ...]]
    # module -> the stylesheets (names under css/) it links with useStylesheet
    stylesheets: Mapping[str, tuple[str, ...]]

    @property
    def prefix(self) -> str:
        return f"{VERSIONED_PREFIX}/{self.version}"

    def url(self, path: str) -> str:
        """The versioned URL of ``static/{path}``."""
        return f"{self.prefix}/{path.lstrip('/')}"

    def has_module(self, path: str) -> bool:
        return path in self.imports

    def module_tree(self, entries: Iterable[str]) -> list[str]:
        """The entries and every module they import, directly or not, each once, nearest
        first (the order a browser would discover them)."""
        seen: list[str] = []
        queue = [entry for entry in entries if entry in self.imports]
        while queue:
            module = queue.pop(0)
            if module in seen:
                continue
            seen.append(module)
            queue.extend(self.imports[module])
        return seen

    def stylesheets_of(self, entries: Iterable[str]) -> list[str]:
        """The stylesheets the entries' modules link, each once, in the order the modules run
        (an import before the module importing it)."""
        found: list[str] = []
        done: set[str] = set()

        def run(module: str) -> None:
            if module in done or module not in self.imports:
                return
            done.add(module)
            for imported in self.imports[module]:
                run(imported)
            found.extend(sheet for sheet in self.stylesheets[module] if sheet not in found)

        for entry in entries:
            run(entry)
        return found

    @property
    def import_map(self) -> str:
        """The page's import map (its exact text: the CSP allows it by its hash)."""
        return json.dumps({"imports": {f"{STATIC_PREFIX}/js/": f"{self.prefix}/js/"}})

    @property
    def import_map_hash(self) -> str:
        """The CSP source that lets the page's inline import map run."""
        digest = hashlib.sha256(self.import_map.encode()).digest()
        return f"'sha256-{base64.b64encode(digest).decode()}'"


def _version(files: list[Path], root: Path) -> str:
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def _imports(text: str, module: Path, root: Path) -> tuple[str, ...]:
    here = PurePosixPath(module.relative_to(root).as_posix()).parent
    found = []
    for specifier in _STATIC_IMPORT.findall(text):
        # (the paths stay inside static/: "../dom.js" from js/games/ is js/dom.js)
        parts: list[str] = []
        for part in (here / specifier).parts:
            if part == "..":
                parts.pop()
            elif part != ".":
                parts.append(part)
        found.append("/".join(parts))
    return tuple(dict.fromkeys(found))


def read_static(root: Path) -> StaticAssets:
    """The version and import graph of the static tree at ``root``."""
    files = sorted(p for p in root.rglob("*") if p.is_file())
    sources = {
        p.relative_to(root).as_posix(): (p, _COMMENT.sub("", p.read_text(encoding="utf-8")))
        for p in files
        if p.suffix == ".js"
    }
    return StaticAssets(
        version=_version(files, root),
        imports={name: _imports(text, path, root) for name, (path, text) in sources.items()},
        stylesheets={
            name: tuple(dict.fromkeys(_STYLESHEET.findall(text)))
            for name, (_, text) in sources.items()
        },
    )


@functools.cache
def static_assets() -> StaticAssets:
    """This server's static files, read once (the first page, or the CSP at import)."""
    return read_static(STATIC_DIR)
