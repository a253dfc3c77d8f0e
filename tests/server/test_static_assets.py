"""What a page preloads and links, read from the static files' import lines (static_assets.py)."""

from __future__ import annotations

from pathlib import Path

from app.static_assets import read_static


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_an_entry_lists_its_whole_import_tree_once_and_its_stylesheets(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "js/page.js": (
                "// import { nothing } from './commented.js';\n"
                'import { a } from "./a.js";\n'
                "import {\n  b,\n  c,\n} from './b.js';\n"
                'import "./side.js";\n'
                'const later = () => import("./lazy.js");\n'
            ),
            "js/a.js": 'import { b } from "./b.js";\nexport const a = 1;\n',
            "js/b.js": (
                'import { h } from "./dom.js";\n'
                '/** Links one: `useStylesheet("example.css")`. */\n'
                'export function useStylesheet(name) {}\nuseStylesheet("table.css");\n'
            ),
            "js/side.js": 'import { h } from "./dom.js";\n',
            "js/dom.js": "export const h = 1;\n",
            "js/lazy.js": 'import("./b.js").then((b) => b.useStylesheet("history.css"));\n',
            "js/games/brew.js": (
                'import { h } from "../dom.js";\nimport { useStylesheet } from "../b.js";\n'
                'useStylesheet("brew.css");\n'
            ),
            "css/table.css": "",
        },
    )
    assets = read_static(root)

    tree = assets.module_tree(["js/page.js"])
    assert tree[0] == "js/page.js"
    assert sorted(tree) == ["js/a.js", "js/b.js", "js/dom.js", "js/page.js", "js/side.js"]
    # (a dynamic import loads on demand; a comment imports nothing)
    assert assets.stylesheets_of(["js/page.js"]) == ["table.css"]
    assert assets.module_tree(["js/games/brew.js"]) == ["js/games/brew.js", "js/dom.js", "js/b.js"]
    assert assets.stylesheets_of(["js/page.js", "js/games/brew.js"]) == ["table.css", "brew.css"]
    assert assets.module_tree(["js/none.js"]) == []


def test_the_version_changes_with_any_file_and_only_then(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"js/a.js": "export const a = 1;\n", "i18n/en.json": "{}"})
    first = read_static(root)
    assert read_static(root).version == first.version
    assert first.url("js/a.js") == f"/static/v/{first.version}/js/a.js"
    (root / "i18n" / "en.json").write_text('{"a": "b"}', encoding="utf-8")
    changed = read_static(root)
    assert changed.version != first.version
    # The import map sends /static/js/ to this version, and the CSP names it by its hash.
    assert f'"/static/js/": "/static/v/{changed.version}/js/"' in changed.import_map
    assert changed.import_map_hash != first.import_map_hash
    assert changed.import_map_hash.startswith("'sha256-")
