# Both targets bootstrap .venv from pyproject.toml on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Tools the tests drive that PyPI does not ship, as `command:Debian package` (Node.js comes from
# PyPI, in the dev extra). They are installed with apt-get when missing, if we are root. The
# browser tests drive Debian's chromium: Playwright never downloads a browser of its own. The
# alert tests run Debian's prometheus (the server, and promtool from the same package).
APT_TOOLS := promtool:prometheus prometheus:prometheus chromium:chromium bwrap:bubblewrap

.PHONY: test demo lint typecheck test-tools clean engine-compiled

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# setuptools warns on every editable install that local folders shadow the package: here
	# they are the package.
	PYTHONWARNINGS="ignore:Editable installation" $(BIN)/pip install --quiet -e '.[dev,research]'
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

test-tools:
	@missing=""; for pair in $(APT_TOOLS); do \
	    command -v "$${pair%%:*}" >/dev/null || missing="$$missing $${pair#*:}"; \
	done; \
	if [ -n "$$missing" ]; then \
	    if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	        echo "installing the test tools from Debian:$$missing"; \
	        apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	            apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	    else \
	        echo "make test needs Debian's$$missing: apt-get install$$missing (as root)" >&2; \
	        exit 1; \
	    fi; \
	fi

test: lint typecheck test-tools
	$(BIN)/pytest

demo: $(STAMP)
	$(BIN)/arena demo

# The optional compiled engine (mypyc, into build/engine); ARENA_COMPILED_ENGINE=1 uses it.
engine-compiled: $(STAMP)
	$(BIN)/python -m arena.compiled.build

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build/engine
