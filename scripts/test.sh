#!/usr/bin/env bash
# The test suite, on a fresh clone or a warm one: what `make test` runs and what CI runs (.ci/run
# installs Chromium and starts PostgreSQL first, and sets TYCOON_CI=1: there a skipped test fails
# the run). Plain Python: a virtual environment, pip, nothing compiled; no system package is
# installed here.
#
#   scripts/test.sh                 set up what is missing, then ruff and the whole suite
#   scripts/test.sh --setup-only    set up, print the plan, stop before the tests
#   scripts/test.sh tests/words    extra arguments go to pytest
#
# PYTHON picks the interpreter (default python3, 3.11 or newer); TEST_DATABASE_URL a PostgreSQL for
# the tests that need one (else a local one is used when it answers, else those tests skip).
set -euo pipefail
cd "$(dirname "$0")/.."
# Python's default: compiled modules are kept in __pycache__ (ignored by git). Without it every pytest
# worker, and every bot process a test starts, compiles each module it imports again (seconds each).
unset PYTHONDONTWRITEBYTECODE

PYTHON=${PYTHON:-python3}
VENV=.venv
BIN=$VENV/bin
SETUP_ONLY=0
if [ "${1:-}" = "--setup-only" ]; then
  SETUP_ONLY=1
  shift
fi
LOCAL_PG=postgresql://postgres@127.0.0.1:5432/test

say() { printf '%s\n' "$*"; }
step() { printf '\n==> %s\n' "$*"; }

# -- the plan, first -------------------------------------------------------------------------------
say "Tycoon tests: the plan"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  say "  ! $PYTHON is missing or older than Python 3.11: set PYTHON=python3.11 (or newer) and run again"
  exit 2
fi
if [ -x "$BIN/python" ]; then
  say "  - Python: reuse $VENV ($("$BIN/python" --version))"
else
  say "  - Python: create $VENV with $("$PYTHON" --version) (venv)"
fi
if [ -f "$VENV/.installed" ] && [ "$VENV/.installed" -nt pyproject.toml ]; then
  say "  - packages: already installed for this pyproject.toml"
  NEED_INSTALL=0
else
  say "  - packages: pip installs the project and its test tools (wheels only: no compiler is needed)"
  NEED_INSTALL=1
fi

if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
  say "  - browser tests: Chromium found ($(command -v chromium || command -v chromium-browser))"
else  # this script installs no system package: .ci/run does, before it calls this script
  say "  - browser tests: skipped (no Chromium: apt-get install chromium)"
fi

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  say "  - PostgreSQL tests: against TEST_DATABASE_URL"
  PG_PLAN=given
else
  say "  - PostgreSQL tests: against $LOCAL_PG if it answers once the packages are in, else skipped"
  PG_PLAN=probe
fi
if [ "$SETUP_ONLY" = 1 ]; then
  say "  - tests: not run (--setup-only)"
else
  if [ -n "${TYCOON_CI:-}" ]; then
    say "  - tests: ruff, then pytest on every core; CI (TYCOON_CI): a skipped test fails the run"
  else
    say "  - tests: ruff, then pytest on every core; skipped tests are listed with their reason at the end"
  fi
fi

# -- set-up ----------------------------------------------------------------------------------------
if [ ! -x "$BIN/python" ]; then
  step "creating $VENV"
  "$PYTHON" -m venv "$VENV"
fi
if [ "$NEED_INSTALL" = 1 ]; then
  step "installing the project and its test tools (pip)"
  set +o pipefail
  "$BIN/python" -m pip install --disable-pip-version-check --progress-bar off --only-binary=:all: -e '.[dev]' 2>&1 \
    | grep --line-buffered -v -e '^Requirement already satisfied' -e 'is ignored: it is neither a file nor a directory'
  status=${PIPESTATUS[0]}
  set -o pipefail
  if [ "$status" != 0 ]; then
    say "pip could not install the packages (see above)"
    exit 1
  fi
  "$BIN/python" -c 'import bot.process.cli' # the install is whole: the command line imports
  touch "$VENV/.installed"
fi

if [ "$PG_PLAN" = probe ]; then
  if "$BIN/python" - "$LOCAL_PG" <<'EOF' 2>/dev/null; then
import asyncio, sys
import asyncpg
async def probe():
    conn = await asyncpg.connect(sys.argv[1].replace("postgresql://", "postgres://"), timeout=3)
    await conn.close()
asyncio.run(probe())
EOF
    export TEST_DATABASE_URL=$LOCAL_PG
    say "PostgreSQL answers at $LOCAL_PG: its tests run"
  else
    say "No PostgreSQL at $LOCAL_PG (set TEST_DATABASE_URL to use one): its tests are skipped"
  fi
fi

if [ "$SETUP_ONLY" = 1 ]; then
  step "set up; the tests would start here"
  exit 0
fi

# -- the tests -------------------------------------------------------------------------------------
step "ruff"
"$BIN/ruff" check .
step "pytest (the slowest whole-game tests start first; skipped tests are listed at the end)"
exec "$BIN/python" -m pytest -n auto --dist loadfile -rfEs --durations=12 "$@"
