# Two entry points: `make run` and `make test`. Each sets itself up. `make lint`: ruff, and mypy strict on domain/.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# make run PORT=8080 serves on another port (as does CASINO_PORT=8080).
PORT   ?=

.PHONY: run test lint bench bench-service clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/casino serve $(if $(PORT),--port $(PORT))

test: $(STAMP)
	$(PY) -m pytest -q $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

bench: $(STAMP)
	$(PY) bench/domain.py

bench-service: $(STAMP)
	$(PY) bench/service.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
