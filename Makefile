# bpywright: `make run` (main job) and `make test` (the test suite); both set everything up first.
PYTHON ?= python3.11
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# System packages: bubblewrap (the sandbox), Debian's blender (a second, real Blender executable
# for the executable backend and version matrices), chromium + chromedriver (the gallery's browser
# tests). Installed only where we are root.
SYSTEM_PACKAGES := bubblewrap:bwrap blender:blender chromium:chromium chromium-driver:chromedriver

.PHONY: setup system venv typings test run lint clean bench

setup: system venv typings

system:
	@missing=""; for pair in $(SYSTEM_PACKAGES); do \
	  pkg=$${pair%%:*}; cmd=$${pair##*:}; command -v $$cmd >/dev/null 2>&1 || missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing system packages:$$missing"; \
	    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	  else \
	    echo "not root: install these yourself for the full sandbox/backends:$$missing"; \
	  fi; \
	fi

venv: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c constraints.txt -e '.[dev]'
	@touch $(STAMP)

# version-matched bpy stubs with our overlays (a no-op when nothing changed)
typings: venv
	$(PY) -m bpywright typings build

test: setup
	$(PY) -m pytest

run: setup
	$(PY) -m bpywright recipes

lint: venv
	$(VENV)/bin/ruff check bpywright tests bench

bench: setup
	$(PY) bench/harness.py
	$(PY) bench/lint.py
	$(PY) bench/lint_accuracy.py

clean:
	rm -rf $(VENV) artifacts/recipes
