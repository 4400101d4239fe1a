# bpywright: `make run` (main job) and `make test` (the test suite); both set everything up first.
PYTHON ?= python3.11
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# System packages: bubblewrap (the sandbox), Debian's blender (a second, real Blender executable
# for the executable backend and version matrices), chromium + chromedriver (the gallery's browser
# tests). Installed only where we are root.
SYSTEM_PACKAGES := bubblewrap:bwrap blender:blender chromium:chromium chromium-driver:chromedriver

.PHONY: setup system venv typings runtimes test-model llama-check llama-portable test test-fast run recipes lint typecheck clean bench docs docs-serve addon

setup: system venv typings runtimes test-model llama-check

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

# llama-cpp-python compiles (no wheels): only the libraries the Python bindings load, for this CPU; no tests, examples,
# tools, server binary or multimodal (mtmd) library. ~20+ min on 2 cores once; pip caches the wheel.
LLAMA_CMAKE_ARGS ?= -DLLAVA_BUILD=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF -DLLAMA_OPENSSL=OFF
# Where the CPU advertises AMX, the kernels are named one by one from /proc/cpuinfo instead of -march=native, AMX left
# out: on a VM that advertises AMX without granting its tile state (seen here, 2026-12-01), -march=native's AMX matmul
# faults at its first instruction (SIGSEGV in ggml_backend_amx_mul_mat: every completion, SmolLM2 and Qwen alike).
CPU_FLAGS := $(shell grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)
ggml_flag = -D$(2)=$(if $(filter $(1),$(CPU_FLAGS)),ON,OFF)
# Kernels named from /proc/cpuinfo instead of -march=native, AMX never: the x86-64-v3 extensions it lists (none elsewhere)
LLAMA_NAMED_ARGS := -DGGML_NATIVE=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF \
  $(call ggml_flag,sse4_2,GGML_SSE42) $(call ggml_flag,avx,GGML_AVX) $(call ggml_flag,avx2,GGML_AVX2) \
  $(call ggml_flag,bmi2,GGML_BMI2) $(call ggml_flag,fma,GGML_FMA) $(call ggml_flag,f16c,GGML_F16C)
ifneq ($(filter amx_tile,$(CPU_FLAGS)),)
LLAMA_CMAKE_ARGS += $(LLAMA_NAMED_ARGS) $(call ggml_flag,avx_vnni,GGML_AVX_VNNI) $(call ggml_flag,avx512f,GGML_AVX512) \
  $(call ggml_flag,avx512vbmi,GGML_AVX512_VBMI) $(call ggml_flag,avx512_vnni,GGML_AVX512_VNNI) \
  $(call ggml_flag,avx512_bf16,GGML_AVX512_BF16)
endif
# The fallback where the build above dies on this CPU (`bpywright model selftest` sees its child killed by a signal):
# the named x86-64-v3 kernels and nothing more (no AVX-512, no AVX-VNNI).
LLAMA_PORTABLE_ARGS := $(filter-out -DGGML_%,$(LLAMA_CMAKE_ARGS)) $(LLAMA_NAMED_ARGS) -DGGML_AVX512=OFF -DGGML_AVX512_VBMI=OFF \
  -DGGML_AVX512_VNNI=OFF -DGGML_AVX512_BF16=OFF -DGGML_AVX_VNNI=OFF
LLAMA_CHECKED := $(VENV)/.llama-checked

$(STAMP): pyproject.toml constraints.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" CMAKE_BUILD_PARALLEL_LEVEL=$$(nproc) $(PY) -m pip install -q -c constraints.txt -e '.[dev,cluster,llm]'
	@touch $(STAMP)

# One greedy completion with the compiled llama.cpp (SmolLM2); where it dies by a signal (status 3), the portable
# kernels are built and checked again. A build that compiles can still fault at its first matrix multiply.
llama-check: $(LLAMA_CHECKED)
$(LLAMA_CHECKED): $(STAMP) | test-model
	@$(PY) -m bpywright model selftest smollm2-135m; rc=$$?; \
	if [ $$rc -eq 3 ]; then \
	  echo "llama.cpp's build does not run on this CPU: building its portable kernels (a few minutes)"; \
	  $(MAKE) --no-print-directory llama-portable && $(PY) -m bpywright model selftest smollm2-135m || exit 1; \
	elif [ $$rc -ne 0 ]; then exit $$rc; fi
	@touch $@

# llama.cpp again without CPU-specific kernels (pip's cache holds the wheel built for this CPU: not reused)
llama-portable: venv
	CMAKE_ARGS="$(LLAMA_PORTABLE_ARGS)" CMAKE_BUILD_PARALLEL_LEVEL=$$(nproc) $(PY) -m pip install -q --no-cache-dir \
	  --force-reinstall --no-deps -c constraints.txt llama-cpp-python

# The real model the tests serve (SmolLM2-135M, 98 MB), verified against its pinned SHA-256 (a no-op when installed)
test-model: venv
	$(PY) -m bpywright model install smollm2-135m

# The model `make run` serves on CPU when no BPYWRIGHT_LLM_BASE_URL is set (README: "A local model")
RUN_MODEL ?= qwen2.5-coder-1.5b

# version-matched bpy stubs with our overlays (a no-op when nothing changed)
typings: venv
	$(PY) -m bpywright typings build

# Blender 5.2 LTS beside the bundled 4.5: the bpy 5.2 wheel in its own venv under the data dir, with its stubs.
# Its wheel needs CPython 3.13; where none is found (pyenv, PATH) this says so and goes on.
runtimes: venv
	@if $(PY) -c "import sys; from bpywright.runtimes.pythons import find_pythons; sys.exit('3.13' not in find_pythons())"; then \
	  $(PY) -m bpywright blender list | grep -q '^5\.2 ' || $(PY) -m bpywright blender add 5.2; \
	  $(PY) -m bpywright typings build --blender-version 5.2; \
	else \
	  echo "no CPython 3.13 found: the Blender 5.2 runtime is not created (pyenv install 3.13; then bpywright blender add 5.2)"; \
	fi

# The whole suite on TEST_JOBS pytest-xdist workers. Tests sharing one server (the test model, a Ray cluster, the
# service, the browser), one costly session fixture (the MiniLM model) or a module fixture run on one worker
# (--dist loadgroup; the groups are set in tests/conftest.py). CONTRIBUTING.md has the tiers and how long each takes.
TEST_JOBS ?= 2
test: setup typecheck
	$(PY) -m pytest -n $(TEST_JOBS) --dist loadgroup

# The tier that starts nothing heavy: no Blender, no real model, no Ray, no browser, no other Blender (pyproject.toml's
# markers; tests/conftest.py fails a test that starts one unmarked). Lint, rules, graph logic on the FAKE server, service
# and CLI plumbing, the docs build.
FAST := not blender and not model and not ray and not browser and not runtimes
test-fast: venv
	$(PY) -m pytest -n $(TEST_JOBS) --dist loadgroup -m "$(FAST)"

# The documentation site (mkdocs.yml, docs/): strict, so a broken link, anchor or missing page fails; the reference pages
# (commands, HTTP API, configuration) are generated from the code by docs/hooks.py. tests/test_docs.py builds it too.
docs: venv
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict

docs-serve: venv
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs serve

HOST ?= 127.0.0.1
PORT ?= 8000

# The main job: symbol index (cached: a no-op when Blender and the code are unchanged), exemplar store seeded with
# the validated recipes (cached: re-adding is a no-op), then the API + gallery at http://$(HOST):$(PORT)/
run: setup
	$(PY) -m bpywright model install $(RUN_MODEL)
	$(PY) -m bpywright ingest
	$(PY) -m bpywright exemplars seed
	$(PY) -m bpywright serve --host $(HOST) --port $(PORT)

# validate and render the bundled recipes only (the harness on its own)
recipes: setup
	$(PY) -m bpywright recipes

# the Blender extension zip (4.2+): dist/bpywright-VERSION.zip
addon: venv
	$(PY) -m bpywright addon build

lint: venv typecheck
	$(VENV)/bin/ruff check bpywright tests bench
	$(VENV)/bin/ruff format --check bpywright tests bench

# mypy over bpywright's own code ([tool.mypy] in pyproject.toml); `make test` runs it before the suite
typecheck: venv
	$(VENV)/bin/mypy

bench: setup
	$(PY) bench/harness.py
	$(PY) bench/lint.py
	$(PY) bench/lint_accuracy.py
	$(PY) bench/heal.py
	$(PY) -m bpywright ingest
	$(PY) bench/retrieval.py
	$(PY) bench/mcp_latency.py

clean:
	rm -rf $(VENV) artifacts/recipes site
