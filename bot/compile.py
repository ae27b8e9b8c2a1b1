"""``tycoon compile``: the rules and AI modules compiled with Cython (``engine/compiled.py`` says
why and how they are loaded).

Only modules whose source changed since the last build are compiled again; the others' files are
kept. The new build is written beside the old one and swapped in with its manifest, so an
interrupted build leaves the last good one (or none) and never a half-written one. Without
Cython or a C compiler it says so and the engine runs as plain Python: the set-up goes on.
"""

from __future__ import annotations

import fcntl
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine import compiled

# the rules, the AI and the simulation loop: where a game spends its time (not the service,
# whose time is the database's and the network's)
PACKAGES = ("engine/core", "engine/board", "engine/board/rules", "engine/deal")
# and the board rules' package itself, which holds ``apply`` (the other packages' ``__init__`` only
# name things), and the registry of games, whose small functions the simulation loop calls at
# every move
SINGLE = ("engine/simulation.py", "engine/games.py", "engine/board/rules/__init__.py")
# Python's meaning kept where Cython's default differs: annotations stay hints (Cython would
# otherwise reject, say, a msgspec Struct class where ``type`` is annotated), and ``2 ** len(x)``
# stays an int (Cython 3 makes a power of C integers a float). A change here rebuilds everything.
DIRECTIVES = {"language_level": 3, "annotation_typing": False, "cpow": True}


def engine_sources() -> dict[str, Path]:
    """Module name -> source file of every module ``tycoon compile`` builds."""
    root = Path(compiled.__file__).resolve().parent.parent
    files = [p for pkg in PACKAGES for p in sorted((root / pkg).glob("*.py")) if p.name != "__init__.py"]
    files += [root / f for f in SINGLE]
    out = {}
    for p in files:
        parts = p.relative_to(root).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = p
    return out


def plan(dest: Path | None = None) -> tuple[dict[str, Path], dict[str, dict]]:
    """(modules to compile, unchanged modules whose files the last build already holds)."""
    dest = dest or compiled.compiled_dir()
    old = compiled.read_manifest(dest, DIRECTIVES) or {}
    todo: dict[str, Path] = {}
    keep: dict[str, dict] = {}
    for name, src in engine_sources().items():
        entry = old.get(name)
        if entry and entry["sha256"] == compiled.source_sha256(src) and (dest / entry["file"]).is_file():
            keep[name] = entry
        else:
            todo[name] = src
    return todo, keep


def _build(todo: dict[str, Path], out: Path, work: Path, jobs: int) -> None:
    """Cython to C to extension modules under ``out`` (run in a child process: the compiler's
    output goes to a log, not the terminal)."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    exts = [Extension(name, [str(src)]) for name, src in todo.items()]
    modules = cythonize(exts, build_dir=str(work / "c"), nthreads=jobs, quiet=True, compiler_directives=DIRECTIVES)
    dist = Distribution({"name": "tycoon-compiled", "ext_modules": modules})
    cmd = dist.get_command_obj("build_ext")
    cmd.build_lib = str(out)
    cmd.build_temp = str(work / "o")
    cmd.parallel = jobs
    cmd.ensure_finalized()
    cmd.run()


def compile_engine(dest: Path | None = None, jobs: int | None = None, log=print) -> int:
    """Build what changed; 0 when the engine is compiled (or cannot be here: plain Python then),
    1 when a build was attempted and failed. One compile at a time per folder (a lock beside it):
    a second one waits, then finds the build up to date. What a killed compile left is removed."""
    dest = dest or compiled.compiled_dir()
    dest.parent.mkdir(parents=True, exist_ok=True)
    with open(dest.with_name(dest.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            for left in [*dest.parent.glob(dest.name + ".new-*"), *dest.parent.glob(dest.name + ".old-*")]:
                shutil.rmtree(left, ignore_errors=True)
            return _compile(dest, jobs, log)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _compile(dest: Path, jobs: int | None, log) -> int:
    todo, keep = plan(dest)
    if not todo:
        log(f"tycoon: the engine is compiled and up to date ({len(keep)} modules in {dest})")
        return 0
    try:
        import Cython  # noqa: F401
        import setuptools  # noqa: F401
    except ImportError:
        log("tycoon: Cython is not installed, so the engine runs as plain Python (same games, about half "
            "the speed); pip install '.[fast]' and run tycoon compile to compile it")
        return 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tycoon-compile-") as tmp:
        work = Path(tmp)
        new = Path(tempfile.mkdtemp(prefix=dest.name + ".new-", dir=dest.parent))
        hashes = {name: compiled.source_sha256(src) for name, src in todo.items()}  # before compiling
        job = {"todo": {k: str(v) for k, v in todo.items()}, "out": str(new), "work": str(work),
               "jobs": jobs or min(4, os.cpu_count() or 1)}
        run = subprocess.run([sys.executable, "-m", "bot.compile", json.dumps(job)],
                             capture_output=True, text=True)
        if run.returncode != 0:
            shutil.rmtree(new, ignore_errors=True)
            tail = "\n".join((run.stdout + run.stderr).strip().splitlines()[-12:])
            log(f"tycoon: compiling the engine failed; it runs as plain Python (same games, slower):\n{tail}")
            return 1
        modules: dict[str, dict] = {}
        for name, entry in keep.items():
            (new / entry["file"]).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(dest / entry["file"], new / entry["file"])
            modules[name] = entry
        for name in todo:
            built = name.replace(".", "/") + importlib.machinery.EXTENSION_SUFFIXES[0]
            if not (new / built).is_file():
                shutil.rmtree(new, ignore_errors=True)
                log(f"tycoon: compiling the engine gave no file for {name}; it runs as plain Python")
                return 1
            modules[name] = {"sha256": hashes[name], "file": built}
        manifest = {"tag": compiled.build_tag(), "directives": DIRECTIVES, "modules": modules}
        (new / compiled.MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True), encoding="utf-8")
        old = dest.with_name(dest.name + f".old-{os.getpid()}")
        if dest.exists():
            dest.rename(old)
        new.rename(dest)
        shutil.rmtree(old, ignore_errors=True)
    seconds = time.perf_counter() - started
    modules_word = "module" if len(todo) == 1 else "modules"
    log(f"tycoon: compiled {len(todo)} engine {modules_word} ({len(keep)} unchanged) in {seconds:.0f} s into {dest}")
    return 0


if __name__ == "__main__":  # the child process of ``compile_engine``
    job = json.loads(sys.argv[1])
    _build({k: Path(v) for k, v in job["todo"].items()}, Path(job["out"]), Path(job["work"]), job["jobs"])
