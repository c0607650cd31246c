# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install demo test bench-locomo bench-longmemeval clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev,peers]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/ripplemem demo

test: $(STAMP)
	@$(BIN)/python -m pytest -q; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing on purpose"; exit 1; fi; exit $$rc

DATA ?= ../shared/data
bench-locomo: $(STAMP)
	$(BIN)/ripplemem bench locomo $(DATA)/locomo/locomo_dev.json --json results/locomo_dev.json

bench-longmemeval: $(STAMP)
	$(BIN)/ripplemem bench longmemeval $(DATA)/longmemeval/longmemeval_s_dev.json.xz --json results/longmemeval_s_dev.json

clean:
	rm -rf $(VENV) .pytest_cache .ripplemem
