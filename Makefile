# Two commands for a fresh clone: `make run` (the main job) and `make test` (the suite, as CI runs
# it). Plain Python: each creates .venv when it is missing and installs the project with pip.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run test bench simulate clean

$(VENV)/.installed: pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --disable-pip-version-check --progress-bar off --only-binary=:all: -e '.[dev]'
	@touch $@

# with TELEGRAM_TOKEN and/or DISCORD_TOKEN the bots; without, the web table on http://127.0.0.1:8080
run: $(VENV)/.installed
	$(BIN)/tycoon run

# the same script CI runs (.ci/run): it prints its plan, sets up what is missing, runs ruff and pytest
test:
	PYTHON=$(PYTHON) scripts/test.sh

bench: $(VENV)/.installed
	$(BIN)/tycoon bench --json

simulate: $(VENV)/.installed
	$(BIN)/tycoon simulate deal --games 500 --players 4 --seed 1 --json

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
