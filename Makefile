# The two commands of the README:  `make run`  and  `make test`.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Two installs, each with its own stamp: serving needs only the project's dependencies (`make run`),
# the tests add the `dev` extra (pytest, Playwright, ruff, mypy…). The dev install holds everything
# serving needs, so it stamps both.
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
PIP := $(BIN)/pip install --quiet --disable-pip-version-check

.PHONY: run lan test install install-dev lint typecheck pytest simulate bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(PIP) --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(PIP) -e .
	touch $(RUN_STAMP)

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(PIP) -e '.[dev]'
	touch $(DEV_STAMP) $(RUN_STAMP)

install: $(RUN_STAMP)

install-dev: $(DEV_STAMP)

## Install and start Coven on http://127.0.0.1:8000 (SQLite file ./coven.db, in-process bus).
run: install
	$(BIN)/coven serve

## Like run, but on every network interface: friends on your LAN join at the address it prints.
lan: install
	$(BIN)/coven serve --host 0.0.0.0

## Install and run every test: lint, types, engine, server, browser.
test: install-dev
	bash scripts/ensure-chromium
	$(BIN)/ruff check engine app tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest -q -n 2 --dist loadfile --ignore=tests/e2e
	@echo "The browser tests, on their own (their last line is their time):"
	$(BIN)/pytest -q -n 2 --dist loadfile tests/e2e -m "not solo"
	@echo "The timed browser tests, alone on the machine:"
	$(BIN)/pytest -q tests/e2e -m solo

lint: install-dev
	$(BIN)/ruff check engine app tests benchmarks

typecheck: install-dev
	$(BIN)/mypy

pytest: install-dev
	$(BIN)/pytest -q -n 2 --dist loadfile --ignore=tests/e2e
	$(BIN)/pytest -q -n 2 --dist loadfile tests/e2e -m "not solo"
	$(BIN)/pytest -q tests/e2e -m solo

simulate: install
	for p in 2 3 4 5; do $(BIN)/coven simulate whirling-witchcraft --players $$p --games 200 --seed 1 --bot random; done
	for p in 3 4 5; do $(BIN)/coven simulate witchs-brew --players $$p --games 200 --seed 1 --bot random; done
	for p in 3 4; do $(BIN)/coven simulate witchs-brew --players $$p --games 200 --seed 1 --bot random --options '{"variant_blocked_roles": true}'; done
	for l in apprentice master; do for p in 2 3 4; do $(BIN)/coven simulate seasons --players $$p --games 100 --seed 1 --bot random --options "{\"level\": \"$$l\"}"; done; done

bench: install
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
