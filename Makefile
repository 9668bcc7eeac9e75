# Two entry points: `make run` and `make test`. Each sets itself up. `make lint`: ruff, and mypy strict on domain/.
# `make test-fast`: every test that needs no PostgreSQL and no outside build tool (the domain, the adapters'
# contract and the HTTP API on the memory wiring, the service layer).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# make run PORT=8080 serves on another port (as does CASINO_PORT=8080).
PORT   ?=


.PHONY: run test test-fast lint browser bench bench-service clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/casino serve $(if $(PORT),--port $(PORT))

test: $(STAMP) browser
	$(PY) -m pytest -q $(PYTEST_ARGS)

# Tests that exercise PostgreSQL itself are marked `postgres` (tests/conftest.py), those that run pip or
# a client generator `toolchain`; nothing here starts a server. The rest run on the memory wiring, as
# they do in make test; the property and differential tests run shorter here (tests/scale.py).
test-fast: $(STAMP)
	CASINO_QUICK_TESTS=1 $(PY) -m pytest -q -m "not postgres and not toolchain" $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

# The web client's browser tests drive Debian's Chromium. Install it when we
# are root and it is missing; if that cannot be done, the tests say so and skip.
browser:
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing chromium for the browser tests (apt-get)"; \
	  (DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1 || \
	   (apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1)) || \
	  echo "could not install chromium: the browser tests will be skipped"; \
	fi

bench: $(STAMP)
	$(PY) bench/domain.py

bench-service: $(STAMP)
	$(PY) bench/service.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
