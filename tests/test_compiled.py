"""The compiled engine (``tycoon compile``, ``engine/compiled.py``): the same games as plain Python,
and never stale or broken code.

The tests that need a build skip without one, unless ``TYCOON_REQUIRE_COMPILED`` is set (``.ci/run``
sets it: there the set-up must have compiled the engine). They copy the build into a scratch
folder before damaging it, and run the engine in child processes, which import it afresh.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot import compile as build
from engine import compiled

ROOT = Path(__file__).resolve().parent.parent

# a short seeded run of both games, digested: any different choice changes the digest
DIGEST = """
import hashlib, json
from engine.games import PLUGS
from engine.simulation import game_seeds, play_one
from engine import compiled
h = hashlib.sha256()
for game, count in (("board", 12), ("deal", 40)):
    for s in game_seeds(7, count):
        state, log = play_one(PLUGS[game], 4, None, s, None if game == "board" else 200, check_every_action=False)
        h.update(repr(log).encode()); h.update(repr(state).encode())
import engine.board.ai as ai
print(json.dumps({"digest": h.hexdigest(), "status": compiled.status(), "ai_file": ai.__file__}))
"""


def _built() -> bool:
    return compiled.read_manifest(compiled.compiled_dir()) is not None


needs_build = pytest.mark.skipif(not _built() and not os.environ.get("TYCOON_REQUIRE_COMPILED"),
                                 reason="the engine is not compiled here (tycoon compile)")


def _run(env_extra: dict[str, str]) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("TYCOON_PURE", "TYCOON_COMPILED_DIR")}
    env.update(env_extra)
    out = subprocess.run([sys.executable, "-c", DIGEST], capture_output=True, text=True, cwd=ROOT, env=env,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return {**json.loads(out.stdout.strip().splitlines()[-1]), "stderr": out.stderr}


@pytest.fixture
def scratch_build(tmp_path) -> Path:
    """A copy of this environment's build, to damage."""
    dest = tmp_path / "tycoon-compiled"
    shutil.copytree(compiled.compiled_dir(), dest)
    return dest


def _edit_manifest(dest: Path, change) -> None:
    path = dest / compiled.MANIFEST
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


@needs_build
def test_the_compiled_engine_plays_exactly_the_games_of_plain_python():
    fast = _run({})
    pure = _run({"TYCOON_PURE": "1"})
    assert {"engine.board.ai", "engine.deal.rules", "engine.board.rules"} <= set(fast["status"]["compiled"])
    assert fast["status"]["stale"] == [] and fast["status"]["failed"] == []
    assert not fast["ai_file"].endswith(".py")
    assert pure["status"]["compiled"] == [] and pure["ai_file"].endswith(".py")
    assert fast["digest"] == pure["digest"]


@needs_build
def test_an_edited_source_runs_from_the_source_not_from_its_stale_compiled_file(scratch_build):
    _edit_manifest(scratch_build, lambda d: d["modules"]["engine.board.ai"].update(sha256="0" * 64))
    reference = _run({"TYCOON_PURE": "1"})
    got = _run({"TYCOON_COMPILED_DIR": str(scratch_build)})
    assert got["status"]["stale"] == ["engine.board.ai"]
    assert got["ai_file"].endswith("engine/board/ai.py")
    assert "engine.board.rules.choices" in got["status"]["compiled"]  # the rest still compiled
    assert got["digest"] == reference["digest"]


@needs_build
def test_a_damaged_compiled_file_is_reported_and_its_source_loads_instead(scratch_build):
    entry = json.loads((scratch_build / compiled.MANIFEST).read_text())["modules"]["engine.board.ai"]
    (scratch_build / entry["file"]).write_bytes(b"\x7fELF garbled by a disk")
    reference = _run({"TYCOON_PURE": "1"})
    got = _run({"TYCOON_COMPILED_DIR": str(scratch_build)})
    assert got["status"]["failed"] == ["engine.board.ai"]
    assert "engine.board.ai runs as plain Python: its compiled file does not load" in got["stderr"]
    assert "engine.board.ai" not in got["status"]["compiled"]
    assert got["digest"] == reference["digest"]


@pytest.mark.parametrize("damage", ["garbled", "other_python", "missing"])
def test_a_damaged_or_foreign_manifest_means_plain_python(tmp_path, damage):
    dest = tmp_path / "tycoon-compiled"
    dest.mkdir()
    if damage == "garbled":
        (dest / compiled.MANIFEST).write_text('{"tag": "cpython-311", "modu', encoding="utf-8")
    elif damage == "other_python":
        (dest / compiled.MANIFEST).write_text(json.dumps({"tag": "cpython-39.so", "modules": {
            "engine.board.ai": {"sha256": "0" * 64, "file": "engine/board/ai.so"}}}), encoding="utf-8")
    got = _run({"TYCOON_COMPILED_DIR": str(dest)})
    assert got["status"]["built"] == 0 and got["status"]["compiled"] == []
    assert got["ai_file"].endswith(".py")


@needs_build
def test_compile_plans_only_the_modules_whose_source_changed_or_whose_file_is_gone(scratch_build):
    todo, keep = build.plan(scratch_build)
    assert todo == {} and set(keep) == set(build.engine_sources())
    _edit_manifest(scratch_build, lambda d: d["modules"]["engine.deal.ai"].update(sha256="1" * 64))
    entry = json.loads((scratch_build / compiled.MANIFEST).read_text())["modules"]["engine.core.rng"]
    (scratch_build / entry["file"]).unlink()
    todo, keep = build.plan(scratch_build)
    assert sorted(todo) == ["engine.core.rng", "engine.deal.ai"]
    assert "engine.board.ai" in keep


def test_a_module_is_checked_against_its_pxd_too(tmp_path):
    """A module with C types in an augmenting ``.pxd`` (``engine/core/rng.pxd``) was built from
    both files: an edit of either makes the compiled file stale. A module without one is checked
    against its source alone, as builds before the ``.pxd`` files were."""
    import hashlib

    src = tmp_path / "mod.py"
    src.write_text("def f(x):\n    return x\n", encoding="utf-8")
    alone = compiled.source_sha256(src)
    assert alone == hashlib.sha256(src.read_bytes()).hexdigest()
    (tmp_path / "mod.pxd").write_text("cpdef long f(long x)\n", encoding="utf-8")
    typed = compiled.source_sha256(src)
    assert typed != alone
    (tmp_path / "mod.pxd").write_text("cpdef int f(int x)\n", encoding="utf-8")
    assert compiled.source_sha256(src) not in (alone, typed)
    assert (ROOT / "engine" / "core" / "rng.pxd").is_file()


def test_compile_lists_the_rules_ai_and_simulation_modules_only():
    names = set(build.engine_sources())
    assert {"engine.board.ai", "engine.board.rules.choices", "engine.deal.rules", "engine.simulation",
            "engine.games", "engine.board.rules"} <= names  # the last: the package that holds ``apply``
    assert not any(n.startswith("engine.service") or n.endswith("__init__") for n in names)
    assert "engine.compiled" not in names  # the loader itself always runs from its source


def test_compile_without_cython_says_so_and_the_engine_stays_plain_python(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "Cython", None)  # what ``import Cython`` sees when it is not installed
    said: list[str] = []
    assert build.compile_engine(tmp_path / "out", log=said.append) == 0
    assert "plain Python" in said[0] and "pip install '.[fast]'" in said[0]
    assert not (tmp_path / "out").exists()


@needs_build
def test_a_failed_compile_keeps_the_last_good_build_whole(scratch_build, monkeypatch):
    _edit_manifest(scratch_build, lambda d: d["modules"]["engine.deal.ai"].update(sha256="1" * 64))
    before = (scratch_build / compiled.MANIFEST).read_bytes()

    def broken_compiler(*args, **kwargs):
        return subprocess.CompletedProcess(args, 1, "", "gcc: fatal error: killed signal terminated program cc1")

    monkeypatch.setattr(build.subprocess, "run", broken_compiler)
    said: list[str] = []
    assert build.compile_engine(scratch_build, log=said.append) == 1
    assert "failed" in said[0] and "killed signal" in said[0]
    assert (scratch_build / compiled.MANIFEST).read_bytes() == before
    # no half-built folder left (the lock file stays)
    assert sorted(p.name for p in scratch_build.parent.iterdir()) == [scratch_build.name, scratch_build.name + ".lock"]


def _fake_compiler(seconds: float):
    """``subprocess.run`` as a compile that writes a file for each module (in place of gcc)."""
    def run(args, **kwargs):
        job = json.loads(args[-1])
        for name in job["todo"]:
            target = Path(job["out"]) / (name.replace(".", "/") + importlib.machinery.EXTENSION_SUFFIXES[0])
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(b"built")
        time.sleep(seconds)
        return subprocess.CompletedProcess(args, 0, "", "")
    return run


@needs_build
def test_two_compiles_at_once_take_turns_and_leave_one_whole_build(scratch_build, monkeypatch):
    for name in ("engine.deal.ai", "engine.board.trades"):
        _edit_manifest(scratch_build, lambda d, n=name: d["modules"][n].update(sha256="2" * 64))
    monkeypatch.setattr(build.subprocess, "run", _fake_compiler(0.3))
    said: list[str] = []
    results: list[int] = []
    threads = [threading.Thread(target=lambda: results.append(build.compile_engine(scratch_build, log=said.append)))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [0, 0]
    assert sorted(line.split(" (")[0] for line in said) == [
        "tycoon: compiled 2 engine modules", "tycoon: the engine is compiled and up to date"]
    assert build.plan(scratch_build)[0] == {}  # the manifest names every source as it is now
    assert sorted(p.name for p in scratch_build.parent.iterdir()) == [scratch_build.name, scratch_build.name + ".lock"]


@needs_build
def test_what_a_killed_compile_left_is_removed_by_the_next_one(scratch_build):
    (scratch_build.parent / (scratch_build.name + ".new-4242-x1y2")).mkdir()
    (scratch_build.parent / (scratch_build.name + ".new-4242-x1y2") / "half.so").write_bytes(b"")
    (scratch_build.parent / (scratch_build.name + ".old-4242")).mkdir()
    said: list[str] = []
    assert build.compile_engine(scratch_build, log=said.append) == 0
    assert "up to date" in said[0]
    assert sorted(p.name for p in scratch_build.parent.iterdir()) == [scratch_build.name, scratch_build.name + ".lock"]


def test_the_start_up_line_says_whether_the_engine_runs_compiled(monkeypatch):
    monkeypatch.setattr(compiled, "_finder", None)
    monkeypatch.delenv("TYCOON_PURE", raising=False)
    assert "plain Python: nothing compiled in" in compiled.summary()
    monkeypatch.setenv("TYCOON_PURE", "1")
    assert compiled.summary() == "the engine runs as plain Python (TYCOON_PURE is set)"
    finder = compiled._CompiledFinder(Path("/nowhere"), {"engine.board.ai": {}, "engine.deal.ai": {}})
    finder.loaded.add("engine.deal.ai")
    finder.stale.add("engine.board.ai")
    monkeypatch.setattr(compiled, "_finder", finder)
    assert compiled.summary() == ("the engine runs compiled (1 of 2 modules loaded so far); as plain Python, "
                                  "changed since tycoon compile: engine.board.ai")


def test_the_bots_and_the_web_table_log_that_line_at_start_up(caplog):
    from bot.run import log_engine_build

    with caplog.at_level("INFO", logger="tycoon"):
        log_engine_build()
    assert [r.getMessage() for r in caplog.records if r.name == "tycoon"] == [compiled.summary()]
    assert "the engine runs" in compiled.summary()
