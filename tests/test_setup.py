"""A fresh clone sets up with plain Python: ``scripts/test.sh`` (what ``make test`` and CI run) says
its plan first, creates the virtual environment, installs wheels only and compiles nothing; the
engine has no compiled path and importing it does nothing but import it.

The set-up itself runs in CI only (``ci_only``: a minute of pip on a small machine, and CI is where
a fresh clone is set up); it writes under its ``tmp_path`` only (the clone, pip's cache, temporary
files) and installs no system package (``scripts/test.sh`` never does: ``.ci/run`` installs Chromium)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMPILERS = ("gcc", "cc", "c++", "g++", "clang", "x86_64-linux-gnu-gcc", "aarch64-linux-gnu-gcc")


def _clone(into: Path) -> None:
    """The working tree as a fresh clone has it: tracked files, and new ones git does not ignore."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT,
                            check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            target = into / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


@pytest.mark.slow
@pytest.mark.ci_only
def test_the_test_script_sets_up_a_fresh_clone_without_compiling_and_says_its_plan_first(tmp_path):
    clone, spies, seen = tmp_path / "clone", tmp_path / "bin", tmp_path / "compiler-called"
    _clone(clone)
    spies.mkdir()
    for name in COMPILERS:  # any compiler the set-up would call leaves a mark (and fails)
        spy = spies / name
        spy.write_text(f"#!/bin/sh\necho {name} >> {seen}\nexit 1\n")
        spy.chmod(0o755)
    base = getattr(sys, "_base_executable", sys.executable)  # not this venv's: a new one, as on a fresh machine
    (tmp_path / "tmp").mkdir()
    env = {**os.environ, "PATH": f"{spies}:{os.environ['PATH']}", "PYTHON": base, "TMPDIR": str(tmp_path / "tmp"),
           "PIP_CACHE_DIR": str(tmp_path / "pip-cache"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("VIRTUAL_ENV", None)
    done = subprocess.run([str(clone / "scripts" / "test.sh"), "--setup-only"], cwd=clone, env=env,
                          capture_output=True, text=True, timeout=900)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-3000:]
    lines = out.splitlines()
    assert lines[0] == "Tycoon tests: the plan", lines[:3]
    plan = "\n".join(lines[:8])
    for said in ("Python: create .venv", "packages: pip installs", "browser tests:", "PostgreSQL tests:",
                 "tests: not run (--setup-only)"):
        assert said in plan, (said, plan)
    assert "the tests would start here" in out and "passed" not in out
    assert not seen.exists(), f"a compiler was called: {seen.read_text() if seen.exists() else ''}"
    venv = clone / ".venv" / "bin"
    assert subprocess.run([str(venv / "python"), "-c", "import Cython"], capture_output=True).returncode != 0
    assert subprocess.run([str(venv / "tycoon"), "--help"], capture_output=True).returncode == 0
    built = [p for p in clone.rglob("*") if p.suffix in (".so", ".c", ".pyd") and ".venv" not in p.parts]
    assert built == [], built


def test_importing_the_engine_does_nothing_but_import_it():
    probe = ("import sys; finders = list(sys.meta_path); before = set(sys.modules); import engine; "
             "new = set(sys.modules) - before; assert sys.meta_path == finders, 'an import hook'; "
             "assert new == {'engine'}, sorted(new)")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_no_compiled_path_remains_in_the_code():
    found = subprocess.run(["git", "grep", "-n", "-e", r"compiled\.install", "-e", "meta_path", "--", "bot",
                            "engine", "render", "words", "data"], cwd=ROOT, capture_output=True, text=True)
    assert found.stdout == "", found.stdout
