# `make run` and `make test` set up everything they need on a fresh machine.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: setup run test test-fast lint eval bench bench-chat load clean

setup: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: requirements.txt requirements-local.txt requirements-dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# llama-cpp-python compiles from source the first time (about 5 minutes on 2 cores).
	$(PY) -m pip install --quiet -r requirements-dev.txt
	# The app itself, editable: `import app` works from any folder and from every script.
	$(PY) -m pip install --quiet --no-deps -e .
	touch $@

node_modules/.installed: package.json package-lock.json
	# --ignore-scripts: the SWA CLI's optional keytar build (login storage) is not needed.
	npm ci --ignore-scripts --no-audit --no-fund
	touch $@

run: setup
	bash scripts/run_local.sh

test: setup lint
	$(PY) -m pytest

# The tests without chromium, the SWA CLI, the shipped model or a long wait (markers in pyproject.toml):
# under a minute.
test-fast: $(VENV)/.installed
	$(PY) -m pytest -m "not browser and not swa and not model and not slow"

# Retrieval and grounding quality on eval/queries.jsonl (a few minutes: the local LLM rewrites).
eval: $(VENV)/.installed
	$(PY) -m eval.run_eval
	$(PY) -m eval.followups

# What the back end costs around the model, against LangChain (bench/run.py; about 5 minutes,
# ARGS=--quick for 1). Writes bench/results.md and bench/latency_vs_turns.png.
bench: $(VENV)/.installed $(VENV)/.bench-installed
	$(PY) -m bench.run $(ARGS)

# The design's chat example on the embedded defaults, end to end, against the commit before
# the one answer pipeline (bench/embedded_chat.py; about 5 minutes). Writes bench/embedded_chat.md.
bench-chat: $(VENV)/.installed
	$(PY) -m bench.embedded_chat --before 2484710 $(ARGS)

# 3,000 requests from 50 clients at once against the local host (bench/load.py); about a minute.
load: $(VENV)/.installed
	$(PY) -m bench.load --markdown bench/load.md $(ARGS)

$(VENV)/.bench-installed: bench/requirements-bench.txt
	$(PY) -m pip install --quiet -r bench/requirements-bench.txt
	touch $@

lint: $(VENV)/.installed
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy

clean:
	rm -rf $(VENV) node_modules .local
