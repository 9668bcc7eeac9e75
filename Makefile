# Two entry points: `make run` and `make test`. Each sets itself up. `make lint`: ruff, and mypy strict on domain/.
# `make test-fast`: every test that needs no PostgreSQL and no outside build tool (the domain, the adapters'
# contract and the HTTP API on the memory wiring, the service layer).
# `make lock`: pin the dependencies again (requirements.lock, requirements-test.lock) after pyproject.toml changes.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
# make run installs what the service runs on, pinned by requirements.lock (as
# the Dockerfile does); make test adds the test toolchain, pinned by requirements-test.lock.
RUNTIME := $(VENV)/.runtime
TESTING := $(VENV)/.testing
# make run PORT=8080 serves on another port (as does CASINO_PORT=8080).
PORT   ?=


.PHONY: run test test-fast lint browser bench bench-service lock clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Every pinned file is checked against its hash; the project itself is installed editable, on top.
$(RUNTIME): requirements.lock pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --require-hashes -r requirements.lock
	$(PY) -m pip install --quiet --no-deps -e .
	touch $@

$(TESTING): requirements-test.lock $(RUNTIME)
	$(PY) -m pip install --quiet --require-hashes -r requirements-test.lock
	touch $@

run: $(RUNTIME)
	$(VENV)/bin/casino serve $(if $(PORT),--port $(PORT))

test: $(TESTING) browser
	$(PY) -m pytest -q $(PYTEST_ARGS)

# Tests that exercise PostgreSQL itself are marked `postgres` (tests/conftest.py), those that run pip or
# a client generator `toolchain`; nothing here starts a server. The rest run on the memory wiring, as
# they do in make test; the property and differential tests run shorter here (tests/scale.py).
test-fast: $(TESTING)
	CASINO_QUICK_TESTS=1 $(PY) -m pytest -q -m "not postgres and not toolchain" $(PYTEST_ARGS)

lint: $(TESTING)
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

bench: $(TESTING)
	$(PY) bench/domain.py

bench-service: $(TESTING)
	$(PY) bench/service.py

# The lock files, made by uv's resolver for Python 3.11 and up on every platform, every file's hash
# included. The test lock holds the runtime's pins as they are, so that the tests run what deploys.
LOCK := $(VENV)/bin/uv pip compile pyproject.toml --quiet --universal --python-version 3.11 --generate-hashes
lock: | $(PY)
	$(PY) -m pip install --quiet uv
	$(LOCK) -o requirements.lock
	$(LOCK) --extra test -c requirements.lock -o requirements-test.lock

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
