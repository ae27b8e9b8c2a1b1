# Two commands for a fresh clone: `make run` (the main job) and `make test` (the suite).
# Each creates .venv when missing and installs the project into it.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run test lint bench simulate clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,fast]'
	touch $@

# the rules and AI compiled with Cython (engine/compiled.py): only what changed; without a C
# compiler it says so and the engine runs as plain Python, so a failure never stops the set-up
ENGINE_SOURCES := $(wildcard engine/core/*.py engine/board/*.py engine/board/rules/*.py engine/deal/*.py) engine/simulation.py
$(VENV)/.compiled: $(VENV)/.installed $(ENGINE_SOURCES)
	-$(BIN)/tycoon compile
	touch $@

run: $(VENV)/.compiled
	$(BIN)/tycoon run

# the suite on every core (pytest-xdist; each worker has its own PostgreSQL database), a file's
# tests on one worker (a module fixture such as tests/test_two_processes.py's plays once; xdist's
# loadgroup does not group under pytest 9.2, pytest-xdist issue 1386), the files of the slowest
# tests first (tests/conftest.py), and those named at the end
test: $(VENV)/.compiled
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n auto --dist loadfile --durations=12

bench: $(VENV)/.compiled
	$(BIN)/tycoon bench --json

simulate: $(VENV)/.compiled
	$(BIN)/tycoon simulate deal --games 500 --players 4 --seed 1 --json

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
