# The bindings and the apps built on them (included by the Makefile): the Python wheel, the
# Kotlin jar, the desktop, web and terminal apps, the example catalog server, and their tests.

## wheel: build/dist/cinematic-<version>-py3-none-manylinux_*_x86_64.whl, the Python package
## with libcinematic.so.0 inside, repaired by auditwheel (jansson and SQLite travel in it).
wheel: lib
	tools/build-wheel.sh

## test-wheel: the wheel installed into a scratch venv outside the repository and used from
## /tmp with no CINEMATIC_LIBRARY: it loads its own library, ldd resolves everything, and the
## `cinematic` console script answers and fails with the documented exit statuses.
test-wheel: wheel
	python3 tools/test-wheel.py

## jar: build/dist/cinematic-<version>.jar, the Kotlin/JVM binding with libcinematic.so inside
## (linux-x86-64/, where JNA looks) and the command line cinematic.cli.MainKt.
jar: lib
	bindings/kotlin/jvm/build-jar.sh

## test-jar: the jar's command line run from a scratch directory with no -Djna.library.path.
test-jar: jar
	bindings/kotlin/jvm/test-jar.sh

## test-python: the `cinematic` Python package (installed into build/venv) and its pytest suite,
## including the terminal app driven in a pseudo-terminal.
test-python: lib $(REPLAY_TOOL)
	bindings/python/run-tests.sh

## test-desktop: the desktop app (examples/desktop, PySide6) with real widgets and key presses
## on Qt's offscreen platform (pytest-qt, installed into build/venv), mypy --strict, and the real
## app started on Xvfb and closed (Xvfb and Qt's X libraries installed with apt-get as root by
## examples/desktop/ensure-xvfb.sh, otherwise the command is printed).
test-desktop: lib
	examples/desktop/run-tests.sh

## web: the movie app in a browser (examples/web): an aiohttp server on 127.0.0.1, one app store
## per browser session, patches over a WebSocket; prints the URL. Its venv (build/web-venv) gets
## examples/web/requirements.txt from PyPI.
WEB_PY := $(BUILD)/web-venv/bin/python
$(BUILD)/web-venv/.ready: examples/web/requirements.txt
	@[ -x $(WEB_PY) ] || python3 -m venv $(BUILD)/web-venv
	$(WEB_PY) -m pip install -q --disable-pip-version-check -r examples/web/requirements.txt
	@touch $@

web: lib $(BUILD)/web-venv/.ready
	PYTHONPATH=bindings/python $(WEB_PY) examples/web/server.py --data $(BUILD)/web

## test-web: the web host's protocol and hostile-client suites (real WebSocket clients against a
## real server process), and the browser test (Debian's chromium and chromium-driver, installed
## with apt-get as root, like `make deps`; a user who is not root is told the command and the
## browser test is skipped with that reason). Part of `make test`.
test-web: lib $(BUILD)/web-venv/.ready
	@if ! command -v chromedriver >/dev/null; then \
	  $(call apt_install,chromium chromium-driver,the browser test needs Debian's chromium,true); \
	fi
	PYTHONPATH=bindings/python $(WEB_PY) -m pytest -q examples/web/tests

## test-hosts: the UIs only draw (tools/check-hosts.py): no host holds the minimum query length,
## a paging computation, a sort or a sentence the app state's view carries.
test-hosts:
	python3 tools/check-hosts.py

## test-conformance: one behaviour in every UI (examples/conformance): the terminal app (tmux),
## the desktop app (Xvfb and xdotool) and the browser app (chromium) driven through the same
## script of keymap actions, each with its platform's keys, reach the same app states after
## every step. Installs tmux, xdotool and chromium with apt-get as root (else prints the command).
test-conformance: lib $(BUILD)/web-venv/.ready
	@missing=""; for tool in tmux xdotool chromedriver; do command -v $$tool >/dev/null || missing="$$missing $$tool"; done; \
	  if [ -n "$$missing" ]; then $(call apt_install,tmux xdotool chromium chromium-driver,the conformance test needs$$missing,exit 1); fi
	@vpy="$$(examples/desktop/ensure-qt.sh)" && examples/desktop/ensure-xvfb.sh "$$vpy" >/dev/null
	cd examples/conformance && PYTHONPATH=$(CURDIR)/bindings/python $(CURDIR)/$(WEB_PY) -m pytest -q -p no:cacheprovider test_conformance.py

## bench-web: 200 concurrent sessions typing and paging against a server on loopback: intent to
## patch p50/p99, bytes per keystroke, server memory per session. SOAK_MINUTES=30 then keeps
## them busy that long (at most 60) and prints the server's RSS every minute (not in `make test`).
SOAK_MINUTES ?= 0
bench-web: lib $(BUILD)/web-venv/.ready
	PYTHONPATH=bindings/python $(WEB_PY) examples/web/bench.py
	@if [ "$(SOAK_MINUTES)" != 0 ]; then PYTHONPATH=bindings/python $(WEB_PY) examples/web/bench.py --soak-minutes $(SOAK_MINUTES); fi

## screenshots: each screen of the desktop app rendered offscreen to docs/screenshots/ (search,
## discover, favorites, detail .png) in real states, with a scratch favorites file.
screenshots: lib
	examples/desktop/screenshots.sh docs/screenshots

## test-kotlin: the Kotlin/JVM binding (JNA, coroutines) and its tests; installs kotlin, libjna-java
## and Debian's kotlinx-coroutines (+ atomicfu).
test-kotlin: lib
	bindings/kotlin/jvm/build-and-test.sh

## desktop: the desktop movie app (examples/desktop, PySide6, installed into build/venv);
## DESKTOP_ARGS passes options (--live URL, --record FILE, --favorites PATH). Without a
## display it says so in one line and fails.
desktop:
	@if [ -z "$$DISPLAY" ] && [ -z "$$WAYLAND_DISPLAY" ] && [[ "$$QT_QPA_PLATFORM" != offscreen* ]]; then \
	  echo "make desktop: no display (set DISPLAY or WAYLAND_DISPLAY, or QT_QPA_PLATFORM=offscreen)" >&2; exit 1; fi
	@$(MAKE) --no-print-directory lib
	examples/desktop/run.sh $(DESKTOP_ARGS)

## catalog-server: the example movie API over the shipped catalog (examples/catalog-server),
## on CATALOG_PORT (default 8631); run the terminal app against it with
## `examples/python/run.sh --live http://127.0.0.1:8631`.
CATALOG_PORT ?= 8631
catalog-server:
	python3 examples/catalog-server/server.py --port $(CATALOG_PORT)
