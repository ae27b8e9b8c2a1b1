"""The engine's compiled modules (``tycoon compile``), loaded in place of their sources only while
each source is exactly the one that was compiled.

Why: the rules and the AI are plain Python, and a game spends nearly all its time there. Cython
compiles the very same files, unchanged, to C extension modules: the same code, the same games
(``tests/test_compiled.py`` plays them both ways and compares), at about 1.7 times the board's and
2 times the Deal's speed. ``tycoon compile`` writes them with a manifest of the sha256 of each
source it compiled into ``$TYCOON_COMPILED_DIR`` (default: ``tycoon-compiled`` in the Python
environment). A module whose source has changed since, whose compiled file is missing or does not
load, is imported from its source: an edit never runs stale code, and a broken build costs speed,
never a game. ``TYCOON_PURE=1`` imports every source. Without a C compiler nothing is built and
everything runs as plain Python.

Only ``importlib`` and ``hashlib`` here: the rules packages stay pure (``tests/test_purity.py``).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import logging
import os
import sys
from pathlib import Path

MANIFEST = "manifest.json"
log = logging.getLogger("tycoon.compiled")


def compiled_dir() -> Path:
    """Where ``tycoon compile`` puts the modules: one place per Python environment."""
    return Path(os.environ.get("TYCOON_COMPILED_DIR") or Path(sys.prefix) / "tycoon-compiled")


def build_tag() -> str:
    """The interpreter a compiled module was built for (its extension suffix says the ABI)."""
    return f"{sys.implementation.cache_tag}{importlib.machinery.EXTENSION_SUFFIXES[0]}"


def source_sha256(path: str | Path) -> str:
    """The digest a compiled module is checked against: its source and, where there is one, the
    augmenting ``.pxd`` beside it (C types for some of its functions), which the build also read."""
    path = Path(path)
    digest = hashlib.sha256(path.read_bytes())
    pxd = path.with_suffix(".pxd")
    if pxd.is_file():
        digest.update(b"\0pxd\0" + pxd.read_bytes())
    return digest.hexdigest()


def read_manifest(root: Path, directives: dict | None = None) -> dict | None:
    """The manifest's modules ``{name: {"sha256", "file"}}``, or None when there is none, it is
    damaged, it was built for another interpreter or (when ``directives`` are given) with other
    Cython directives."""
    try:
        data = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
        modules = data["modules"]
        if data.get("tag") != build_tag() or not isinstance(modules, dict):
            return None
        if directives is not None and data.get("directives") != directives:
            return None
        return {str(k): {"sha256": str(v["sha256"]), "file": str(v["file"])} for k, v in modules.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


class _EitherLoader(importlib.abc.Loader):
    """Loads the compiled module; if that fails (a damaged file), the source instead."""

    def __init__(self, compiled_spec, source_loader, finder: _CompiledFinder) -> None:
        self.compiled_spec = compiled_spec
        self.source_loader = source_loader
        self.finder = finder
        self.use_source = False

    def create_module(self, spec):
        try:
            return self.compiled_spec.loader.create_module(self.compiled_spec)
        except (ImportError, OSError) as e:
            self.use_source = True
            self.finder.failed.add(spec.name)
            log.warning("%s runs as plain Python: its compiled file does not load (%s); run tycoon compile",
                        spec.name, e)
            return self.source_loader.create_module(spec)

    def exec_module(self, module) -> None:
        if self.use_source:
            self.source_loader.exec_module(module)
            return
        self.compiled_spec.loader.exec_module(module)
        self.finder.loaded.add(module.__name__)


class _CompiledFinder(importlib.abc.MetaPathFinder):
    def __init__(self, root: Path, modules: dict) -> None:
        self.root = root
        self.modules = modules
        self.loaded: set[str] = set()
        self.stale: set[str] = set()
        self.failed: set[str] = set()

    def find_spec(self, name, path=None, target=None):
        entry = self.modules.get(name)
        if entry is None:
            return None
        source = importlib.machinery.PathFinder.find_spec(name, path)
        if source is None or not (source.origin or "").endswith(".py") or source.loader is None:
            return None
        try:
            fresh = source_sha256(source.origin) == entry["sha256"]
        except OSError:
            fresh = False
        binary = self.root / entry["file"]
        if not fresh or not binary.is_file():
            self.stale.add(name)
            log.info("%s runs as plain Python: its source changed since tycoon compile", name)
            return None
        loader = importlib.machinery.ExtensionFileLoader(name, str(binary))
        # a package (``engine.board.rules``) keeps its source folder as ``__path__``, where its
        # modules' sources are (and, through this finder, their compiled files)
        compiled = importlib.util.spec_from_file_location(
            name, binary, loader=loader, submodule_search_locations=source.submodule_search_locations)
        # the source's spec, with a loader that runs the compiled code and falls back to the source
        source.loader = _EitherLoader(compiled, source.loader, self)
        return source


_finder: _CompiledFinder | None = None


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once), unless ``TYCOON_PURE`` is set or there
    is no usable manifest. Called by ``engine/__init__.py`` before any engine module loads."""
    global _finder
    if _finder is not None or os.environ.get("TYCOON_PURE", "").strip() not in ("", "0"):
        return
    root = compiled_dir()
    modules = read_manifest(root)
    if not modules:
        return
    _finder = _CompiledFinder(root, modules)
    sys.meta_path.insert(0, _finder)


def status() -> dict:
    """Which engine modules run compiled, which were refused (source changed, file missing) and
    which failed to load, among those imported so far; ``built``: how many the manifest holds."""
    f = _finder
    if f is None:
        return {"built": 0, "compiled": [], "stale": [], "failed": [], "dir": str(compiled_dir())}
    return {"built": len(f.modules), "compiled": sorted(f.loaded), "stale": sorted(f.stale),
            "failed": sorted(f.failed), "dir": str(f.root)}


def summary() -> str:
    """One line for the start-up log: does the engine run compiled, and if not all of it, why."""
    s = status()
    if not s["built"]:
        if os.environ.get("TYCOON_PURE", "").strip() not in ("", "0"):
            return "the engine runs as plain Python (TYCOON_PURE is set)"
        return f"the engine runs as plain Python: nothing compiled in {s['dir']} (tycoon compile)"
    line = f"the engine runs compiled ({len(s['compiled'])} of {s['built']} modules loaded so far)"
    if s["stale"]:
        line += f"; as plain Python, changed since tycoon compile: {', '.join(s['stale'])}"
    if s["failed"]:
        line += f"; as plain Python, compiled file does not load: {', '.join(s['failed'])}"
    return line
