"""What the suite does differently in CI (``.ci/run`` exports ``TYCOON_CI=1``): a pytest plugin that
``tests/conftest.py`` loads (``pytest_plugins``) and ``tests/test_ci_rules.py`` runs on its own.

- A test marked ``ci_only`` (the fresh-clone set-up of ``tests/test_setup.py``) runs only in CI:
  elsewhere it is deselected, so it is neither run nor counted as a skip.
- In CI a test that skips fails the run, and each one is listed with its reason: CI has PostgreSQL
  and Chromium, so a skip there is a test that silently proved nothing. Elsewhere skips stay skips
  (``-rs`` lists them at the end).
"""

from __future__ import annotations

import os

import pytest

CI_VARIABLE = "TYCOON_CI"
_skipped: list[tuple[str, str]] = []  # (test, reason) of this run's skips


def in_ci() -> bool:
    return os.environ.get(CI_VARIABLE, "") not in ("", "0")


def _decides(config) -> bool:
    """This process decides the run's outcome: not a pytest-xdist worker (its reports reach the controller)."""
    return not hasattr(config, "workerinput")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items) -> None:
    """Outside CI, the ``ci_only`` tests leave the run (deselected: not run, not a skip)."""
    if in_ci():
        return
    ci_only = [item for item in items if item.get_closest_marker("ci_only") is not None]
    if ci_only:
        config.hook.pytest_deselected(items=ci_only)
        items[:] = [item for item in items if item.get_closest_marker("ci_only") is None]


def _note(report) -> None:
    if report.skipped and not hasattr(report, "wasxfail"):
        # a skip's report is (file, line, "Skipped: reason")
        reason = str(report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr)
        _skipped.append((report.nodeid, reason.removeprefix("Skipped: ")))


def pytest_runtest_logreport(report) -> None:
    _note(report)


def pytest_collectreport(report) -> None:
    _note(report)


def pytest_sessionfinish(session, exitstatus) -> None:
    if in_ci() and _skipped and _decides(session.config) and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    if in_ci() and _skipped and _decides(config):
        terminalreporter.section(f"{CI_VARIABLE}: a skipped test fails the run in CI ({len(_skipped)} skipped)",
                                 red=True, bold=True)
        for nodeid, reason in _skipped:
            terminalreporter.line(f"SKIPPED IN CI {nodeid}: {reason}", red=True)
