# Table Companion — the two set-up commands are `make demo` and `make test` (see README.md).
# Both are safe to run twice: each step is skipped when its result is already there.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
# On a Raspberry Pi the venv sees the system's site packages, for apt's python3-picamera2.
IS_PI  := $(shell grep -qs "Raspberry Pi" /proc/device-tree/model && echo 1)
VENV_FLAGS := $(if $(IS_PI),--system-site-packages,)
comma  := ,
EXTRAS := $(if $(IS_PI),test$(comma)pi,test)

# fonts: the Cyrillic letter templates of the note reader (companion/vision/letters.py)
# espeak-ng, alsa-utils (aplay): the table's voice (companion/voice.py)
SYSTEM_RUNTIME := tesseract-ocr tesseract-ocr-rus tesseract-ocr-eng python3-venv fonts-dejavu-core fonts-liberation espeak-ng alsa-utils
# mosquitto: the real MQTT broker the club-mode tests start (tests/club/, bench/club.py)
SYSTEM_TEST    := chromium mosquitto fonts-freefont-ttf fonts-urw-base35 fonts-paratype fonts-ocr-b

.PHONY: catalogue demo test lint system-deps system-deps-test venv bench install-pi clean help

help:
	@echo "make demo   - a whole game on the simulated table (real hardware on a Pi); dashboard URL printed"
	@echo "make test   - install everything needed, run the checks (make lint), then the test suite"
	@echo "make lint   - ruff over the whole tree, mypy over the packages kept typed (pyproject.toml)"
	@echo "make bench  - print the benchmark figures (bench/*.py)"
	@echo "make install-pi - (on a Raspberry Pi, as root) install the boot-time service, see docs/setup-pi.md"

system-deps:
	@scripts/ensure-system-deps.sh $(SYSTEM_RUNTIME)

system-deps-test: system-deps
	@scripts/ensure-system-deps.sh $(SYSTEM_TEST)

$(VENV)/.stamp-base: pyproject.toml setup.py | system-deps
	test -x $(PY) || $(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e .
	$(PY) -m pip install -q --only-binary=:all: "tesserocr>=2.7" || \
	  echo "note: no tesserocr wheel for this machine; Tesseract will run as a process (slower)"
	touch $@

$(VENV)/.stamp-test: $(VENV)/.stamp-base pyproject.toml setup.py
	$(PY) -m pip install -q -e ".[$(EXTRAS)]"
	touch $@

venv: $(VENV)/.stamp-base

# The unfinished game of the data folder, whatever game it is (one started from the console too),
# else a new skull game (the settings' default game): on a Raspberry Pi the real table (camera,
# button box, GPIO), elsewhere the simulated table (companion run picks the backends). The dashboard
# URL, its QR code and the operator PIN are printed, nothing is opened, and it keeps serving until
# Ctrl-C. Headless variant:
#   make demo DEMO_ARGS="--sim --game skull --until-end --json"
DEMO_ARGS ?=

demo: system-deps $(VENV)/.stamp-base
	$(BIN)/companion run $(DEMO_ARGS)

# Install the referee as a boot-time service on Raspberry Pi OS (docs/setup-pi.md).
install-pi:
	deploy/install-pi.sh

# MicroPython (WebAssembly build, from the npm registry) runs the firmware logic in one test;
# installed only where npm exists, else that test skips and says why.
MPWASM := .cache/mpwasm
$(MPWASM)/.stamp:
	@if command -v npm >/dev/null 2>&1; then \
	  npm install --silent --no-audit --no-fund --prefix $(MPWASM) @micropython/micropython-webassembly-pyscript@1.27.0 && touch $@; \
	else echo "npm not found: the MicroPython firmware test will skip"; fi

# The checks run first and fail the target: ruff (unused imports, undefined names, syntax) over
# the tree, mypy over the [tool.mypy] files of pyproject.toml (docs/architecture.md, "Checks").
lint: $(VENV)/.stamp-test
	$(BIN)/ruff check
	$(BIN)/mypy

test: system-deps-test $(VENV)/.stamp-test $(MPWASM)/.stamp lint
	MICROPYTHON_WASM_DIR=$(CURDIR)/$(MPWASM) $(PY) -m pytest $(PYTEST_ARGS)

bench: system-deps $(VENV)/.stamp-test
	@for b in bench/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

# The words' catalogue (docs/architecture.md, "Words and languages"): new message ids into
# web/translations/messages.pot and the Russian .po (new entries empty, to translate by hand), then
# the .mo the program reads. tests/i18n fails on an id without its Russian or a stale entry.
KEYWORDS := -k M -k MP:1c,2 -k MN:1,2 -k MPN:1c,2,3 -k N_ -k NC_:1c,2 -k _l
catalogue: $(VENV)/.stamp-base
	$(BIN)/pybabel -q extract -F web/babel.cfg $(KEYWORDS) --no-location --sort-output \
	  -o web/translations/messages.pot .
	$(BIN)/pybabel -q update --no-fuzzy-matching --ignore-obsolete -i web/translations/messages.pot \
	  -d web/translations -l ru
	$(BIN)/pybabel -q compile -d web/translations

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
