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
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

run: $(VENV)/.installed
	$(BIN)/tycoon run

test: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

bench: $(VENV)/.installed
	$(BIN)/tycoon bench --json

simulate: $(VENV)/.installed
	$(BIN)/tycoon simulate deal --games 500 --players 4 --seed 1 --json

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
