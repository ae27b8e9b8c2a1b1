"""The rules stay pure (docs/design.md): no asyncio, clock, database, Pillow, chat library, bot/ or render/."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.paths import ROOT

RULES_PACKAGES = ["engine/core", "engine/deal", "engine/board"]
FORBIDDEN = {
    "asyncio", "time", "datetime", "random", "threading", "sqlite3", "sqlalchemy", "sqlmodel", "aiosqlite",
    "asyncpg", "psycopg", "alembic", "PIL", "discord", "telegram", "httpx", "socket", "bot", "render",
}


def _rules_files() -> list[Path]:
    files: list[Path] = []
    for pkg in RULES_PACKAGES:
        files += sorted((ROOT / pkg).glob("**/*.py"))
    return files


def imported_roots(source: str) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            if node.args and isinstance(node.args[0], ast.Constant):
                roots.add(str(node.args[0].value).split(".")[0])
    return roots


def test_rules_files_exist():
    found = {p.relative_to(ROOT).as_posix() for p in _rules_files()}
    assert {"engine/deal/rules/__init__.py", "engine/board/rules/__init__.py"} <= found


@pytest.mark.parametrize("path", _rules_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_rules_import_nothing_impure(path):
    bad = imported_roots(path.read_text(encoding="utf-8")) & FORBIDDEN
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_the_check_itself_catches_an_impure_import():
    assert imported_roots("import asyncio\nfrom PIL import Image\nfrom bot.process.cli import main") & FORBIDDEN == {
        "asyncio", "PIL", "bot"}


LAYERS = {  # a package may import only from those below it (docs/design.md: imports only point down)
    "engine": {"bot", "render", "words"},
    "words": {"bot", "render"},
    "render": {"bot"},
}


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_imports_only_point_down(package):
    for path in sorted((ROOT / package).glob("**/*.py")):
        bad = imported_roots(path.read_text(encoding="utf-8")) & LAYERS[package]
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)} from a layer above it"


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, anywhere in it (also inside functions), type-checking aside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
               and getattr(node.test, "id", None) == "TYPE_CHECKING" for n in ast.walk(node)}
    out = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return out


def _module_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


@pytest.mark.parametrize("package", ["engine/service", "bot"])
def test_no_import_cycles_in_the_service_or_the_front_ends(package):
    """The parts of the service meet in GameService, tournaments register with it, and the Discord
    front end does not know its tournament part: no module imports one that imports it back."""
    files = {_module_of(p): p for p in sorted((ROOT / package).glob("**/*.py"))}
    graph = {m: {i for i in imported_modules(p) if i in files and i != m} for m, p in files.items()}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(n == goal or (n not in seen and not seen.add(n) and reaches(n, goal, seen))
                   for n in graph[start])

    cycles = [(a, b) for a in graph for b in graph[a] if reaches(b, a, set())]
    assert not cycles, f"import cycles: {sorted(cycles)[:5]}"
