# Every target is a thin call of the CLI (`python -m pipeline ...`); make only adds
# the set-up of .venv on first use.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
ERRDOC  := $(BIN)/python -m pipeline
STAMP   := $(VENV)/.installed
# The package's bytecode, compiled ahead as a regular `pip install` compiles site-packages:
# an environment with PYTHONDONTWRITEBYTECODE=1 (this project's machines) would otherwise
# compile every module at every run (0.3 s of each run's start). Stale files are only slower.
BYTECODE := $(VENV)/.compiled
SOURCES  := $(shell find pipeline bench -name '*.py' 2>/dev/null)

OUT      ?= output
ANALYZER ?= static
SITE     ?= site
FORMAT   ?= text
REPOS    ?= repos.toml

# Values reach the shell single-quoted (`q`), so the shell never re-reads them:
# REPO='o/n"; touch x', SOURCE='$$(...)' or a backquote stay one inert argument. ARGS,
# several words by design, is read from the environment (make exports command-line
# variables) and split by the shell with globbing off: no substitution, no expansion.
SHELL := /bin/sh
.SHELLFLAGS := -fec
q = '$(subst ','\'',$(1))'
v = $(call q,$($(1)))
opt = $(if $($(1)),$(2) $(call v,$(1)))
# What extract and regenerate share (pipeline/commands.py `run_options`).
run_opts = --out $(call v,OUT) --analyzer $(call v,ANALYZER) $(call opt,SOURCE,--source) \
	$(call opt,MODEL,--model) $(call opt,CACHE,--cache) $(call opt,INCLUDE,--include) \
	$(call opt,EXCLUDE,--exclude) $(call opt,CONCURRENCY,--concurrency)

.PHONY: help setup native extract regenerate regenerate-all diff render bench test check lint typecheck clean browser

help: ## list targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(BYTECODE): $(STAMP) $(SOURCES)
	$(BIN)/python -m compileall -q pipeline bench >/dev/null
	touch $(BYTECODE)

# The index's hot modules compiled to C with mypyc (`pipeline/core/native.py`): built once installed,
# and again when a module of the package changes (88 s here); errdoc uses a build only while
# the sources are the ones it was made from. A failed build (no C compiler) warns once and
# leaves them Python. NATIVE=0 skips it; ERRDOC_PURE=1 runs the Python at run time.
NATIVE         ?= 1
NATIVE_STAMP   := $(VENV)/.native
PIPELINE_PY    := $(shell find pipeline -name '*.py' -not -path 'pipeline/_native*' 2>/dev/null)
COMPILED       := $(if $(filter 0,$(NATIVE)),,$(NATIVE_STAMP))

$(NATIVE_STAMP): $(STAMP) $(PIPELINE_PY)
	$(BIN)/python -m pipeline.core.nativebuild || true
	touch $@

native: $(STAMP) ## compile the index's modules again (python -m pipeline.core.nativebuild)
	$(BIN)/python -m pipeline.core.nativebuild
	touch $(NATIVE_STAMP)

setup: $(BYTECODE) $(COMPILED) ## create .venv and install errdoc with its dev tools

extract: $(BYTECODE) $(COMPILED) ## make extract REPO=owner/name SHA=commit [SOURCE=] [OUT=] [ANALYZER=] [MODEL=] [CACHE=] [INCLUDE=] [EXCLUDE=] [CONCURRENCY=]
	@test -n $(call v,REPO) || { echo "error: REPO=owner/name is required (e.g. make extract REPO=risingwavelabs/risingwave SHA=main)" >&2; exit 2; }
	@test -n $(call v,SHA) || { echo "error: SHA=<commit, tag or branch> is required" >&2; exit 2; }
	$(ERRDOC) extract --repo $(call v,REPO) --sha $(call v,SHA) $(run_opts) $${ARGS-}

regenerate: $(BYTECODE) $(COMPILED) ## make regenerate REPO=owner/name [REF=branch, default the source's HEAD] [SOURCE=] (and extract's options)
	@test -n $(call v,REPO) || { echo "error: REPO=owner/name is required" >&2; exit 2; }
	$(ERRDOC) regenerate --repo $(call v,REPO) $(call opt,REF,--ref) $(run_opts) $${ARGS-}

regenerate-all: $(BYTECODE) $(COMPILED) ## the scheduled job over REPOS=repos.toml
	$(ERRDOC) regenerate-all --repos $(call v,REPOS) --out $(call v,OUT) $(call opt,CACHE,--cache) $${ARGS-}

diff: $(BYTECODE) ## make diff OLD=<version or dir> NEW=<version or dir> [FORMAT=text|json|markdown]
	@test -n $(call v,OLD) && test -n $(call v,NEW) || { echo "error: OLD= and NEW= are required" >&2; exit 2; }
	$(ERRDOC) diff $(call v,OLD) $(call v,NEW) --out $(call v,OUT) --format $(call v,FORMAT) $(call opt,REPO,--repo) $${ARGS-}

render: $(BYTECODE) ## make render [OUT=output] [SITE=site]
	$(ERRDOC) render --out $(call v,OUT) --site $(call v,SITE) $${ARGS-}

# `make bench explain` runs one stage: the goals after `bench` are its stages, not targets.
ifeq (bench,$(firstword $(MAKECMDGOALS)))
BENCH_STAGES := $(wordlist 2,$(words $(MAKECMDGOALS)),$(MAKECMDGOALS))
ifneq ($(BENCH_STAGES),)
$(eval $(BENCH_STAGES):;@:)
endif
endif

bench: $(BYTECODE) $(COMPILED) ## make bench [stage...] SOURCE=<local clone of risingwave> [ARGS=stage...] (never part of make test)
	$(BIN)/python -m bench $(call opt,SOURCE,--source) $(foreach s,$(BENCH_STAGES),$(call q,$(s))) $${ARGS-}

lint: $(STAMP)
	$(BIN)/ruff check pipeline tests bench
	$(BIN)/ruff format --check pipeline tests bench

typecheck: $(STAMP)
	$(BIN)/mypy pipeline bench

check: lint typecheck ## ruff + mypy --strict

test: $(STAMP) $(COMPILED) check browser ## lint, type-check and run the test suite
	@$(BIN)/python -m pipeline.core.nativebuild --check || true
	$(BIN)/pytest -q $(PYTEST_ARGS)

# Headless Chromium for the browser tests (`tests/devtools.chromium` looks for these names):
# installed from Debian's packages on first use where apt-get can, as a fresh machine of this
# kind has none (stop 75's `make test` failed 6 browser tests there until it was installed;
# `.ci/run` alone installed it before). Where it cannot, the tests that need it say how.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
	  || command -v google-chrome >/dev/null 2>&1 \
	  || { echo "installing Debian's chromium for the browser tests" >&2; \
	       (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	       || echo "warning: could not install chromium (apt-get install -y chromium); the browser tests will fail" >&2; }

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache pipeline/_native
