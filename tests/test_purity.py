"""The rules stay pure (DESIGN.md): no asyncio, clock, database, Pillow, chat library, bot/ or render/."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
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
    assert any(p.name == "rules.py" for p in _rules_files())


@pytest.mark.parametrize("path", _rules_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_rules_import_nothing_impure(path):
    bad = imported_roots(path.read_text(encoding="utf-8")) & FORBIDDEN
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_the_check_itself_catches_an_impure_import():
    assert imported_roots("import asyncio\nfrom PIL import Image\nfrom bot.cli import main") & FORBIDDEN == {
        "asyncio", "PIL", "bot"}


LAYERS = {  # a package may import only from those below it (DESIGN.md: imports only point down)
    "engine": {"bot", "render", "words"},
    "words": {"bot", "render"},
    "render": {"bot"},
}


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_imports_only_point_down(package):
    for path in sorted((ROOT / package).glob("**/*.py")):
        bad = imported_roots(path.read_text(encoding="utf-8")) & LAYERS[package]
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)} from a layer above it"
