"""No import cycle among the project's modules (``engine``, ``words``, ``render``, ``bot``): each
module's imports at load time, those under ``TYPE_CHECKING`` counted too (a type a module needs is
a dependency all the same), form a graph without a cycle, so that every module can be read, and
imported, after the ones it depends on. Only imports inside a function are left out.
And the layers keep to their order: ``engine`` imports nothing of ``words``, ``render`` or ``bot``;
``words`` and ``render`` nothing of ``bot``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "words", "render", "bot")


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _load_time_imports(tree: ast.Module):
    """Import statements at module level, also inside ``try`` and ``if`` blocks (``if TYPE_CHECKING:``
    included), never in a function or class body."""
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            stack += node.body + node.orelse
        elif isinstance(node, ast.Try):
            stack += node.body + node.orelse + node.finalbody + [n for h in node.handlers for n in h.body]


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges = set()
        for node in _load_time_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                           for alias in node.names]
            edges |= {t for t in targets if t in modules and t != name}
        graph[name] = edges
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on, stack, out = set(), [], []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_module_imports_itself_round_about():
    graph = _graph()
    assert len(graph) > 120  # every package read
    assert _cycles(graph) == []


def test_an_import_under_type_checking_counts():
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from engine.games import GAMES\n")
    assert sorted(n.module for n in _load_time_imports(tree)) == ["engine.games", "typing"]


def test_a_cycle_is_found_when_there_is_one():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _every_import(tree: ast.Module):
    """Every module an import statement names, wherever it stands (in a function too)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module


def test_no_product_module_imports_the_tooling_or_the_tests():
    """``tools/`` (benchmarks, the Chromium driver, golden pictures) and ``tests/`` are not
    installed: a product module that imported them would fail in the image."""
    wrong = [(name, target) for name, path in _modules().items()
             for target in _every_import(ast.parse(path.read_text(encoding="utf-8")))
             if target.split(".")[0] in ("tools", "tests")]
    assert wrong == []
    assert (ROOT / "tools" / "bench" / "__main__.py").is_file()  # what ``tycoon bench`` runs


def test_the_layers_import_downwards_only():
    below = {"engine": ("words", "render", "bot"), "words": ("bot",), "render": ("bot",)}
    wrong = [(m, t) for m, edges in _graph().items() for t in edges
             if t.split(".")[0] in below.get(m.split(".")[0], ())]
    assert wrong == []
