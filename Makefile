# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install demo test bench-locomo bench-longmemeval bench-speed bench-scale bench-report clean

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[dev,peers,postgres]'
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

# the LoCoMo file is also the fixed input written into the store at every size (part 4)
bench-speed: $(STAMP)
	nice $(BIN)/ripplemem bench speed --sizes 1000,10000,100000 --locomo $(DATA)/locomo/locomo_dev.json --json docs/results/speed_fixed_input.json

# about an hour and a half on 2 cores; --stop-after time-boxes it (the sizes measured are kept)
bench-scale: $(STAMP)
	nice $(BIN)/ripplemem bench scale --sizes 10000,100000,200000,500000,1000000 --json docs/results/scale.json

# docs/benchmarks.md (tables, plots) from docs/results/*.json; prose outside the markers is kept
bench-report: $(STAMP)
	$(BIN)/ripplemem bench report --results docs/results --out docs/benchmarks.md

clean:
	rm -rf $(VENV) .pytest_cache .ripplemem
