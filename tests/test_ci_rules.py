"""``tests/ci_rules.py``, run on a tiny suite of its own in a fresh pytest: in CI (``TYCOON_CI=1``) a
skipped test fails the run and is named with its reason, elsewhere a skip is a skip; a ``ci_only``
test runs in CI only, and is deselected (not skipped) elsewhere."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.paths import ROOT

SUITE = '''
import pytest

def test_runs():
    pass

def test_skips():
    pytest.skip("no such thing here")

@pytest.mark.ci_only
def test_in_ci_only():
    pass
'''


def _pytest(tmp_path, ci: bool) -> tuple[int, str]:
    (tmp_path / "test_tiny.py").write_text(SUITE)
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    ci_only: CI only\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "TYCOON_CI"))}
    env.update(PYTHONPATH=str(ROOT), PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", **({"TYCOON_CI": "1"} if ci else {}))
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "tests.ci_rules", "-p", "no:cacheprovider", "-rs",
                           "-v", "test_tiny.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout + done.stderr


@pytest.mark.parametrize("ci", [False, True], ids=["local", "ci"])
def test_a_skip_fails_the_run_in_ci_only_and_ci_only_tests_run_in_ci_only(tmp_path, ci):
    status, out = _pytest(tmp_path, ci)
    assert "test_runs PASSED" in out and "test_skips SKIPPED" in out, out
    if ci:
        assert status == pytest.ExitCode.TESTS_FAILED, out
        assert "SKIPPED IN CI test_tiny.py::test_skips: no such thing here" in out, out
        assert "test_in_ci_only PASSED" in out and "deselected" not in out, out
    else:
        assert status == pytest.ExitCode.OK, out
        assert "SKIPPED IN CI" not in out and "no such thing here" in out, out  # listed as a skip (-rs)
        assert "test_in_ci_only" not in out and "1 deselected" in out and "1 skipped" in out, out
