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
# Test workers (pytest-xdist); one per core of the 2-core machine the suite is timed on.
JOBS   ?= 2
XDIST  := -n $(JOBS) --dist loadgroup


.PHONY: run test test-fast lint browser kotlin-tools spec-linter citus kotlin-client bench bench-service lock clean

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

test: $(TESTING) browser kotlin-tools spec-linter citus
	$(PY) -m pytest -q $(XDIST) $(PYTEST_ARGS)

# Tests that exercise PostgreSQL itself are marked `postgres` (tests/conftest.py), those that run pip or
# a client generator or the OpenAPI linter `toolchain`; nothing here starts a server. The rest run on the memory wiring, as
# they do in make test (where the API tests marked postgres or both_wirings run on a Citus cluster as well, or plain
# PostgreSQL: tests/api/conftest.py); the property and differential tests run shorter here (tests/scale.py).
test-fast: $(TESTING)
	CASINO_QUICK_TESTS=1 $(PY) -m pytest -q $(XDIST) -m "not postgres and not toolchain" $(PYTEST_ARGS)

lint: $(TESTING)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

# Debian packages some tests need, installed when we are root and they are missing; if that cannot
# be done, those tests say so and skip. $(call apt_install,PACKAGES,TESTS) installs PACKAGES (after an
# apt-get update if the first try fails) and names TESTS if it cannot.
define apt_install
@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
  echo "installing $(1) for $(2) (apt-get)"; \
  (DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1) >/dev/null 2>&1 || \
   (apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1) >/dev/null 2>&1)) || \
  echo "could not install $(1): $(2) will be skipped"; \
fi
endef

# The web client's browser tests drive Debian's Chromium.
browser:
	$(if $(wildcard /usr/bin/chromium),,$(call apt_install,chromium,the browser tests))

# The generated Kotlin client is made by openapi-generator (a Java program), and its test compiles
# the models against Debian's Jackson and runs them on Java.
kotlin-tools:
	$(if $(and $(wildcard /usr/share/java/jackson-databind.jar),$(shell command -v java)),,\
	  $(call apt_install,default-jre-headless libjackson2-databind-java,the Kotlin client's test))

# The OpenAPI linter the suite runs on openapi.yaml (redocly's CLI, pinned in tests/service/npm_tools.py),
# from npm into the tools' cache outside the venv (~/.cache/casino-tests, or CASINO_TOOL_CACHE).
spec-linter: $(TESTING)
	$(PY) -m tests.service.npm_tools

# Citus, built once per machine into ~/.cache/casino-citus (never into the venv) from shared/citus beside the
# checkout (tests/citus/build.py; about 2 minutes the first time, nothing after): make test runs tests/citus and the
# API tier's PostgreSQL tests on a cluster of it (tests/api/conftest.py). Without its source or a compiler, it says so.
citus: $(TESTING)
	$(PY) -m tests.citus.build

# A Kotlin client for the API (docs/clients.md): KOTLIN_CLIENT=DIR makes it elsewhere.
KOTLIN_CLIENT ?= build/kotlin-client
kotlin-client: $(TESTING)
	$(PY) docs/kotlin_client.py $(KOTLIN_CLIENT)

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
