# Two entry points: `make run` and `make test`. Each sets itself up. `make lint`: ruff, and mypy strict on domain/.
# `make test-fast`: the tests that need no PostgreSQL (domain, store contract on the memory store, service layer).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# make run PORT=8080 serves on another port (as does CASINO_PORT=8080).
PORT   ?=

.PHONY: run test test-fast lint bench bench-service clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/casino serve $(if $(PORT),--port $(PORT))

test: $(STAMP)
	$(PY) -m pytest -q $(PYTEST_ARGS)

# The PostgreSQL half of the contract tests is marked `postgres`; nothing here starts a server.
FAST_TESTS := domain tests/domain tests/contract tests/service_layer

test-fast: $(STAMP)
	$(PY) -m pytest -q -m "not postgres" $(PYTEST_ARGS) $(FAST_TESTS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

bench: $(STAMP)
	$(PY) bench/domain.py

bench-service: $(STAMP)
	$(PY) bench/service.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
