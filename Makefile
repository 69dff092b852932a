# Cinematic Core. `make demo` runs the main job, `make test` runs every test.
# Both set up a fresh Debian machine that has only the Swift toolchain, gcc and Python.

SHELL := /bin/bash
SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
# The version comes from the schema, like every other copy of it (tools/wiregen.py).
VERSION := $(shell python3 tools/wiregen.py --version)
APT_PACKAGES := libjansson-dev libsqlite3-dev zlib1g-dev pkg-config
PKG_MODULES := jansson sqlite3 zlib

BUILD := build
LIB_SCRATCH := .build/lib
LIB_NAME := libcinematic.so
LIB_SONAME := $(LIB_NAME).0
LIB := $(BUILD)/lib/$(LIB_SONAME)
LIB_LINK := -Xswiftc -static-stdlib \
	-Xlinker --version-script=$(CURDIR)/Sources/Cinematic/cinematic.map \
	-Xlinker -soname=$(LIB_SONAME) -Xlinker -z -Xlinker nodelete

# The embedded catalog's index (built by the library itself, then compiled into it).
INDEX_DIR := $(BUILD)/catalog-index
EMBEDDED_INDEX := $(INDEX_DIR)/catalog.idx
# Reproducible bytes (make dist): no build directory inside the library, and no debug
# references to the Clang module cache (their ids change with every build).
REPRO_FLAGS := -Xswiftc -file-prefix-map -Xswiftc $(CURDIR)=. -Xcc -ffile-prefix-map=$(CURDIR)=. \
	-Xswiftc -Xfrontend -Xswiftc -no-clang-module-breadcrumbs
LIB_FLAGS := $(LIB_LINK) $(REPRO_FLAGS) -Xcc -DCINEMATIC_EMBED_INDEX
INDEX_TOOL := $(BUILD)/bin/cinematic-index
INDEX_TOOL_FLAGS := -std=c11 -Wall -Wextra -Werror -O2 -Iinclude

CC ?= gcc
C_TEST_SOURCES := $(wildcard Tests/c/test_*.c)
C_TESTS := $(patsubst Tests/c/%.c,$(BUILD)/tests/%,$(C_TEST_SOURCES))
STRESS_SOURCES := $(wildcard Tests/c/stress_*.c)
STRESS_TESTS := $(patsubst Tests/c/%.c,$(BUILD)/tests/%,$(STRESS_SOURCES))
# `make test` runs each stress program briefly; `make stress` runs each for STRESS_SECONDS.
STRESS_SECONDS ?= 30
C_TEST_FLAGS := -std=c11 -Wall -Wextra -Werror -g -O1 -Iinclude -pthread

EXAMPLE := $(BUILD)/bin/cinematic-search
PATCH_EXAMPLE := $(BUILD)/bin/cinematic-patches
RESUME_EXAMPLE := $(BUILD)/bin/cinematic-resume
APP_EXAMPLE := $(BUILD)/bin/cinematic-app
REPLAY_TOOL := $(BUILD)/bin/cinematic-replay
CATALOG_HOST := $(BUILD)/bin/catalog-host
INSTALL_CHECK := $(BUILD)/install-check

.PHONY: test-adding-a-feature all deps build lib index-tool example replay-tool catalog-server generate wheel test-wheel jar test-jar test test-generated test-layering test-no-hooks test-comparison-doc mutants test-fuzz fuzz-build fuzz-run test-swift test-header test-c test-stress test-install test-reinstall test-kotlin test-python test-desktop screenshots demo desktop bench stress sanitizers fuzz install clean web test-web bench-web

all: lib $(REPLAY_TOOL)

include tools/release.mk

## index-tool: build/bin/cinematic-index (built by `make lib`).
index-tool: lib

## deps: install the system packages the build needs (as root), or print the command.
## apt_install(packages, what is missing, then for a user who is not root): one way to install
## system packages: with apt-get as root, else the command is printed and $(3) runs
## (`exit 1`, or `true` where the caller goes on without them). Used by deps, abi-deps
## (tools/release.mk) and test-web.
apt_install = if [ "$$(id -u)" = 0 ]; then \
	    echo "installing $(1)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1) >/dev/null; \
	  else \
	    echo "$(2); run:  sudo apt-get install -y $(1)"; $(3); \
	  fi

deps: $(BUILD)/.deps
$(BUILD)/.deps:
	@if ! command -v pkg-config >/dev/null || ! pkg-config --exists $(PKG_MODULES); then \
	  $(call apt_install,$(APT_PACKAGES),missing system packages,exit 1); \
	fi
	@mkdir -p $(BUILD) && touch $@

build: deps
	$(SWIFT) build

## lib: build/lib/libcinematic.so.0, release, Swift runtime linked statically, with the
## embedded catalog's index compiled in (include/cinematic.h, CATALOG INDEX): the library is
## built, builds the index of its own embedded data (build/catalog-index/cinematic-index
## --embedded), and is relinked with it, only when the index's bytes changed. Also
## build/bin/cinematic-index, the index builder for users' own movie files.
lib: deps
	$(SWIFT) build -c release --product cinematic --scratch-path $(LIB_SCRATCH) $(LIB_FLAGS)
	@mkdir -p $(BUILD)/lib $(BUILD)/bin $(INDEX_DIR)
	cp $(LIB_SCRATCH)/release/$(LIB_NAME) $(INDEX_DIR)/$(LIB_SONAME).tmp && mv -f $(INDEX_DIR)/$(LIB_SONAME).tmp $(INDEX_DIR)/$(LIB_SONAME)
	ln -sfn $(LIB_SONAME) $(INDEX_DIR)/$(LIB_NAME)
	$(CC) $(INDEX_TOOL_FLAGS) tools/cinematic_index.c $$(pkg-config --cflags --libs jansson) -L$(INDEX_DIR) -lcinematic -Wl,-rpath,$(CURDIR)/$(INDEX_DIR) -o $(INDEX_DIR)/cinematic-index
	$(INDEX_DIR)/cinematic-index --embedded $(EMBEDDED_INDEX).new > /dev/null
	@if cmp -s $(EMBEDDED_INDEX).new $(EMBEDDED_INDEX); then rm -f $(EMBEDDED_INDEX).new; else \
	  echo "embedding the new catalog index ($$(du -h $(EMBEDDED_INDEX).new | cut -f1))"; \
	  mv -f $(EMBEDDED_INDEX).new $(EMBEDDED_INDEX) && touch Sources/CinematicCatalogData/catalog_data.c && \
	  $(SWIFT) build -c release --product cinematic --scratch-path $(LIB_SCRATCH) $(LIB_FLAGS) || exit 1; fi
	@# Atomic replace: a host running on the old library keeps its mapping (never overwritten in place).
	@# swiftc's per-compile module hashes zeroed and the build id recomputed: same sources, same bytes.
	cp $(LIB_SCRATCH)/release/$(LIB_NAME) $(LIB).tmp.$$$$ && python3 tools/normalize-elf.py $(LIB).tmp.$$$$ >/dev/null && mv -f $(LIB).tmp.$$$$ $(LIB)
	ln -sfn $(LIB_SONAME) $(BUILD)/lib/$(LIB_NAME)
	$(CC) $(INDEX_TOOL_FLAGS) tools/cinematic_index.c $$(pkg-config --cflags --libs jansson) -L$(BUILD)/lib -lcinematic '-Wl,-rpath,$$ORIGIN/../lib' -o $(INDEX_TOOL).tmp && mv -f $(INDEX_TOOL).tmp $(INDEX_TOOL)

test: test-generated wire-check test-release-checks abi-check test-migration-doc test-adding-a-feature test-layering test-no-hooks test-comparison-doc test-swift test-header test-c test-stress test-install test-reinstall test-wheel test-kotlin test-jar test-python test-desktop test-web test-fuzz

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

## bench-web: 200 concurrent sessions typing and paging against a server on loopback: intent to
## patch p50/p99, bytes per keystroke, server memory per session.
bench-web: lib $(BUILD)/web-venv/.ready
	PYTHONPATH=bindings/python $(WEB_PY) examples/web/bench.py

## screenshots: each screen of the desktop app rendered offscreen to docs/screenshots/ (search,
## discover, favorites, detail .png) in real states, with a scratch favorites file.
screenshots: lib
	examples/desktop/screenshots.sh docs/screenshots

## test-kotlin: the Kotlin/JVM binding (JNA, coroutines) and its tests; installs kotlin, libjna-java
## and Debian's kotlinx-coroutines (+ atomicfu).
test-kotlin: lib
	bindings/kotlin/jvm/build-and-test.sh

## generate: rewrites every file generated from schema/cinematic.schema.json (host types,
## statuses, version: Python wire.py, Kotlin Wire.kt, Swift WireConstants.swift, the header's
## GENERATED block, pyproject's version).
generate:
	python3 tools/wiregen.py

## test-generated: the generated files are what the schema says (run `make generate` if not),
## docs/wire.md's examples validate against the schema, and the relevance sets are what
## tools/relevance-sets.py generates (docs/relevance.md).
test-generated:
	python3 tools/wiregen.py --check
	python3 tools/relevance-sets.py --check
	$$(tools/ensure-venv.sh) tools/check-wire-doc.py

## test-adding-a-feature: follows docs/adding-a-feature.md in a scratch copy (a Watchlist
## feature: generate, build, C/Python/Kotlin golden checks; at most 7 files written by hand).
test-adding-a-feature: lib
	python3 tools/try-adding-a-feature.py

## test-layering: each target imports only what its row in tools/check-layering.sh allows (explicit edges), and Package.swift declares exactly that.
test-layering:
	tools/check-layering.sh

## test-no-hooks: `nm` of the shipped library shows no test hook (FaultInjection, FaultVFS,
## SyntheticCatalog, CinematicBenchmarks, the CinematicTestHooks module): tools/check-no-hooks.sh.
test-no-hooks: lib
	tools/check-no-hooks.sh $(LIB)

## test-comparison-doc: docs/comparison.md's code-line counts are what tools/count-lines.py
## prints, and its mutation table lists every mutation of tools/mutants.py, each caught.
test-comparison-doc:
	python3 tools/count-lines.py --check docs/comparison.md
	python3 tools/mutants.py --check-doc docs/comparison.md
	@echo "comparison doc check: 2 passed, 0 failed"

## mutants: breaks, one at a time, each line the comparison's tests guard (tools/mutants.py)
## and prints which tests went red; fails when a mutation goes uncaught. Slow: one
## incremental build per mutation.
mutants: deps
	python3 tools/mutants.py

## test-header: the public header is plain C99 (cinterop-friendly), compiles alone, and
## documents every feature of the catalog.
test-header:
	$(CC) -std=c99 -pedantic -Wall -Wextra -Werror -fsyntax-only -x c include/cinematic.h
	@for feature in $$(python3 -c 'import json; print(" ".join(f["name"] for f in json.load(open("schema/cinematic.schema.json"))["x-cinematic"]["features"]))'); do \
	  grep -q "\"$$feature\"" include/cinematic.h || { echo "include/cinematic.h does not mention the feature \"$$feature\""; exit 1; }; \
	done
	@echo "header check: 2 passed, 0 failed"

## test-c: C programs against the built library, covering every function of the C API;
## every state, error envelope and provider request they receive is then validated against
## the schema (tools/wirecheck.py, in the test venv).
WIRE_LOG := $(BUILD)/wire
test-c: lib $(C_TESTS) $(PATCH_EXAMPLE) $(RESUME_EXAMPLE) $(APP_EXAMPLE)
	@mkdir -p $(WIRE_LOG) && rm -f $(WIRE_LOG)/c.jsonl
	@failed=0; for t in $(C_TESTS); do echo "== $$t"; CINEMATIC_WIRE_LOG=$(CURDIR)/$(WIRE_LOG)/c.jsonl $$t || failed=1; done; \
	  echo "== $(PATCH_EXAMPLE) (a C host keeping its state current from patches)"; $(PATCH_EXAMPLE) 5 || failed=1; \
	  echo "== $(RESUME_EXAMPLE) (save in one process, restore in another)"; tools/check-resume-example.sh $(RESUME_EXAMPLE) || failed=1; \
	  echo "== $(APP_EXAMPLE) (the whole app through the C API)"; $(APP_EXAMPLE) || failed=1; \
	  echo "== schema validation of what the C programs received"; \
	  $$(tools/ensure-venv.sh) tools/wirecheck.py $(WIRE_LOG)/c.jsonl || failed=1; exit $$failed

$(BUILD)/tests/test_%: Tests/c/test_%.c Tests/c/harness.h include/cinematic.h $(LIB)
	@mkdir -p $(BUILD)/tests
	$(CC) $(C_TEST_FLAGS) $< -L$(BUILD)/lib -lcinematic $(C_TEST_LIBS) -Wl,-rpath,$(CURDIR)/$(BUILD)/lib -o $@

## test_offline_cache also holds the cache file locked with SQLite directly, from another process.
$(BUILD)/tests/test_offline_cache: C_TEST_LIBS = $$(pkg-config --libs sqlite3)
## test_index_reader crafts damaged indexes with SQLite directly; it and test_index_section
## share Tests/c/index_files.h.
$(BUILD)/tests/test_index_reader: C_TEST_LIBS = $$(pkg-config --libs sqlite3) -lm
$(BUILD)/tests/test_index_reader $(BUILD)/tests/test_index_section: Tests/c/index_files.h
## test_index_input builds gzip files (a gzip bomb among them) with zlib.
$(BUILD)/tests/test_index_input: C_TEST_LIBS = $$(pkg-config --cflags --libs zlib)
## test_offline_cache_damage reads the cache file's pages and checks it with SQLite directly.
$(BUILD)/tests/test_offline_cache_damage: C_TEST_LIBS = $$(pkg-config --libs sqlite3)
## test_patches applies the patches it receives with jansson (Tests/c/json_patch.h).
$(BUILD)/tests/test_patches: C_TEST_LIBS = $$(pkg-config --cflags --libs jansson)
$(BUILD)/tests/test_patches: examples/c/json_patch.h

## Stress programs (one per hostile scenario of the execution model) also read the favorites
## file with SQLite directly.
$(BUILD)/tests/stress_%: Tests/c/stress_%.c Tests/c/stress.h Tests/c/harness.h include/cinematic.h $(LIB)
	@mkdir -p $(BUILD)/tests
	$(CC) $(C_TEST_FLAGS) $< -L$(BUILD)/lib -lcinematic $$(pkg-config --libs sqlite3) -Wl,-rpath,$(CURDIR)/$(BUILD)/lib -o $@

## test-stress: every stress program for 1 s each, with its watchdog (part of `make test`).
test-stress: lib $(STRESS_TESTS)
	@failed=0; for t in $(STRESS_TESTS); do echo "== $$t"; STRESS_SECONDS=1 $$t || failed=1; done; exit $$failed

## stress: every stress program for STRESS_SECONDS (default 30) each; a watchdog fails any
## thread that stops making progress for 5 s (deadlock, blocked host thread).
stress: lib $(STRESS_TESTS)
	@failed=0; for t in $(STRESS_TESTS); do echo "== $$t ($(STRESS_SECONDS) s)"; STRESS_SECONDS=$(STRESS_SECONDS) $$t || failed=1; done; exit $$failed
	@$(MAKE) --no-print-directory fuzz-run FUZZ_SECONDS=$(STRESS_SECONDS)
	@echo "== HTTP provider against a hostile server ($(STRESS_SECONDS) s)"; STRESS_SECONDS=$(STRESS_SECONDS) bindings/python/run-tests.sh bindings/python/tests/test_http_provider_hostile.py -k hostile_stress

## test-reinstall: a host keeps searching while the library is rebuilt (`make lib`) and
## reinstalled (`make install`) under it; it must survive (installs are atomic renames).
REINSTALL_CHECK := $(BUILD)/reinstall-check
test-reinstall: lib
	rm -rf $(REINSTALL_CHECK)
	$(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/$(REINSTALL_CHECK) PREFIX=/opt/cinematic > /dev/null
	$(CC) -std=c11 -Wall -Wextra -Werror -O1 -Iinclude Tests/c/reinstall_host.c \
	  -L$(REINSTALL_CHECK)/opt/cinematic/lib -lcinematic -Wl,-rpath,$(CURDIR)/$(REINSTALL_CHECK)/opt/cinematic/lib -o $(REINSTALL_CHECK)/host-installed
	$(CC) -std=c11 -Wall -Wextra -Werror -O1 -Iinclude Tests/c/reinstall_host.c \
	  -L$(BUILD)/lib -lcinematic -Wl,-rpath,$(CURDIR)/$(BUILD)/lib -o $(REINSTALL_CHECK)/host-build
	@$(REINSTALL_CHECK)/host-installed 4 & installed=$$!; $(REINSTALL_CHECK)/host-build 4 & built=$$!; \
	  sleep 1; for i in 1 2 3; do \
	    $(MAKE) --no-print-directory lib > /dev/null && \
	    $(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/$(REINSTALL_CHECK) PREFIX=/opt/cinematic > /dev/null || exit 1; \
	  done; \
	  wait $$installed || { echo "the host of the installed library died (status $$?) during make install"; exit 1; }; \
	  wait $$built || { echo "the host of build/lib died (status $$?) during make lib"; exit 1; }
	@echo "reinstall check: 2 passed, 0 failed"

test-swift: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## example: examples/c/cinematic-search (and cinematic-patches: a host keeping a jansson tree
## current from patched delivery; cinematic-resume: a runtime snapshot saved by one process
## and restored by the next; cinematic-app: the whole app, search to undo) against the
## in-tree library.
example: $(EXAMPLE) $(PATCH_EXAMPLE) $(RESUME_EXAMPLE) $(APP_EXAMPLE)
$(APP_EXAMPLE): examples/c/cinematic_app.c include/cinematic.h lib
	@mkdir -p $(BUILD)/bin
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 -Iinclude $< $$(pkg-config --cflags --libs jansson) -L$(BUILD)/lib -lcinematic -pthread -Wl,-rpath,$(CURDIR)/$(BUILD)/lib -o $@
$(RESUME_EXAMPLE): examples/c/cinematic_resume.c include/cinematic.h lib
	@mkdir -p $(BUILD)/bin
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 -Iinclude $< $$(pkg-config --cflags --libs jansson) -L$(BUILD)/lib -lcinematic -pthread -Wl,-rpath,$(CURDIR)/$(BUILD)/lib -o $@
$(PATCH_EXAMPLE): examples/c/cinematic_patches.c examples/c/json_patch.h include/cinematic.h lib
	@mkdir -p $(BUILD)/bin
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 -Iinclude examples/c/cinematic_patches.c -L$(BUILD)/lib -lcinematic $$(pkg-config --cflags --libs jansson) -pthread -Wl,-rpath,$(CURDIR)/$(BUILD)/lib -o $@
$(EXAMPLE): examples/c/cinematic_search.c include/cinematic.h lib
	@mkdir -p $(BUILD)/bin
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 -Iinclude $< $$(pkg-config --cflags --libs jansson) -L$(BUILD)/lib -lcinematic -pthread -Wl,-rpath,$(CURDIR)/$(BUILD)/lib -o $@

## replay-tool: build/bin/cinematic-replay, which replays a recorded session (tools/cinematic_replay.c).
replay-tool: $(REPLAY_TOOL)
$(REPLAY_TOOL): tools/cinematic_replay.c include/cinematic.h lib
	@mkdir -p $(BUILD)/bin
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 -Iinclude $< $$(pkg-config --cflags --libs jansson) -L$(BUILD)/lib -lcinematic -pthread -Wl,-rpath,$(CURDIR)/$(BUILD)/lib -o $@

## demo: the terminal movie app (examples/python) on a terminal; elsewhere (no TTY) the
## C example typing "star wars" into the Search store letter by letter.
demo: $(EXAMPLE)
	@if [ -t 0 ] && [ -t 1 ]; then examples/python/run.sh; else $(EXAMPLE) --type star wars; fi

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

## install: header, library with SONAME symlinks (the embedded catalog's index is inside it),
## cinematic-index, pkg-config file (PREFIX, DESTDIR).
install: lib
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(INDEX_TOOL) $(DESTDIR)$(PREFIX)/bin/.cinematic-index.tmp.$$$$ && \
	  mv -f $(DESTDIR)$(PREFIX)/bin/.cinematic-index.tmp.$$$$ $(DESTDIR)$(PREFIX)/bin/cinematic-index
	install -m 644 include/cinematic.h $(DESTDIR)$(PREFIX)/include/cinematic.h
	@# Atomic replace (temporary file + rename): running hosts keep their mapping.
	install -m 755 $(LIB) $(DESTDIR)$(PREFIX)/lib/.$(LIB_SONAME).tmp.$$$$ && \
	  mv -f $(DESTDIR)$(PREFIX)/lib/.$(LIB_SONAME).tmp.$$$$ $(DESTDIR)$(PREFIX)/lib/$(LIB_SONAME).$(VERSION:0.%=%)
	ln -sfn $(LIB_SONAME).$(VERSION:0.%=%) $(DESTDIR)$(PREFIX)/lib/$(LIB_SONAME)
	ln -sfn $(LIB_SONAME) $(DESTDIR)$(PREFIX)/lib/$(LIB_NAME)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' cinematic.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/cinematic.pc

## test-install: install into a scratch DESTDIR, build the example with pkg-config against
## it, and search the catalog from there with no configuration; then the README's two ways
## to run it (LD_LIBRARY_PATH, or an rpath from pkg-config's libdir; neither: the loader fails).
test-install:
	rm -rf $(INSTALL_CHECK)
	$(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/$(INSTALL_CHECK) PREFIX=/opt/cinematic
	PKG_CONFIG_PATH=$(INSTALL_CHECK)/opt/cinematic/lib/pkgconfig pkg-config --define-prefix --cflags --libs cinematic jansson > $(INSTALL_CHECK)/flags
	$(CC) -std=c11 -O2 examples/c/cinematic_search.c $$(cat $(INSTALL_CHECK)/flags) -pthread -o $(INSTALL_CHECK)/cinematic-search
	@readelf -d $(INSTALL_CHECK)/opt/cinematic/lib/$(LIB_SONAME) | grep -q 'SONAME.*$(LIB_SONAME)' || { echo "SONAME is not $(LIB_SONAME)"; exit 1; }
	@! ldd $(INSTALL_CHECK)/opt/cinematic/lib/$(LIB_SONAME) | grep -i swift || { echo "the library needs Swift libraries"; exit 1; }
	@test -z "$$(nm -D --defined-only $(INSTALL_CHECK)/opt/cinematic/lib/$(LIB_SONAME) | awk '$$2 ~ /[A-Z]/ && $$3 !~ /^cinematic_/ && !($$2 == "A" && $$3 ~ /^CINEMATIC_[0-9]+\.[0-9]+$$/)')" || { echo "symbols other than cinematic_* (and their version nodes) are exported"; exit 1; }
	@test -z "$$(nm -D --defined-only $(INSTALL_CHECK)/opt/cinematic/lib/$(LIB_SONAME) | awk '$$3 ~ /^cinematic_/ && $$3 !~ /@@CINEMATIC_[0-9]+\.[0-9]+$$/')" || { echo "a cinematic_* function has no symbol version"; exit 1; }
	LD_LIBRARY_PATH=$(INSTALL_CHECK)/opt/cinematic/lib $(INSTALL_CHECK)/cinematic-search godfather | tee $(INSTALL_CHECK)/out
	@grep -q '^The Godfather  *1972' $(INSTALL_CHECK)/out || { echo "installed library did not find The Godfather"; exit 1; }
	HOME=$(CURDIR)/$(INSTALL_CHECK)/home XDG_CACHE_HOME=$(CURDIR)/$(INSTALL_CHECK)/xdg LD_LIBRARY_PATH=$(INSTALL_CHECK)/opt/cinematic/lib $(INSTALL_CHECK)/cinematic-search dune > $(INSTALL_CHECK)/out-fallback
	@grep -q '^Dune  *1984' $(INSTALL_CHECK)/out-fallback || { echo "the installed library did not find Dune"; exit 1; }
	@! test -e $(INSTALL_CHECK)/xdg -o -e $(INSTALL_CHECK)/home || { echo "opening the embedded catalog wrote under HOME or XDG_CACHE_HOME"; exit 1; }
	$(INSTALL_CHECK)/opt/cinematic/bin/cinematic-index data/ggplot2movies.tsv.gz $(INSTALL_CHECK)/own.idx
	@# The README's ways to run a program built against the prefix: without either, the loader
	@# cannot find libcinematic.so.0; with an rpath from pkg-config's libdir, it runs as is.
	@! env -u LD_LIBRARY_PATH $(INSTALL_CHECK)/cinematic-search dune > /dev/null 2> $(INSTALL_CHECK)/no-rpath || { echo "a program with no rpath ran without LD_LIBRARY_PATH"; exit 1; }
	@grep -q 'libcinematic.so.0: cannot open shared object file' $(INSTALL_CHECK)/no-rpath || { cat $(INSTALL_CHECK)/no-rpath; exit 1; }
	export PKG_CONFIG_PATH=$(CURDIR)/$(INSTALL_CHECK)/opt/cinematic/lib/pkgconfig; \
	  $(CC) -std=c11 -O2 examples/c/cinematic_search.c $$(pkg-config --define-prefix --cflags --libs cinematic jansson) -pthread \
	    -Wl,-rpath,$$(pkg-config --define-prefix --variable=libdir cinematic) -o $(INSTALL_CHECK)/cinematic-search-rpath
	env -u LD_LIBRARY_PATH $(INSTALL_CHECK)/cinematic-search-rpath godfather > $(INSTALL_CHECK)/out-rpath
	@grep -q '^The Godfather  *1972' $(INSTALL_CHECK)/out-rpath || { echo "the rpath build did not find The Godfather"; exit 1; }
	@echo "install check: 5 passed, 0 failed"

## bench: search latency over the real catalog (medians and ratios, one run), what
## `import cinematic` costs over `import ctypes, json` (bindings/python/bench_import.py), then the desktop
## app's longest event-loop stall while "the lord of the rings" is typed at 20 ms per key
## (examples/desktop/bench_typing.py, offscreen).
bench: deps lib $(EXAMPLE) $(CATALOG_HOST)
	$(SWIFT) run -c release cinematic-bench
	PYTHONPATH=$(CURDIR)/bindings/python CINEMATIC_LIBRARY=$(CURDIR)/$(LIB) $$(tools/ensure-venv.sh) bindings/python/bench_patches.py
	PYTHONPATH=$(CURDIR)/bindings/python CINEMATIC_LIBRARY=$(CURDIR)/$(LIB) $$(tools/ensure-venv.sh) bindings/python/bench_import.py
	examples/desktop/bench-typing.sh
	$(MAKE) --no-print-directory bench-web

## catalog-host: the C host `make bench` times and weighs a catalog with (Benchmarks/c).
$(CATALOG_HOST): Benchmarks/c/catalog_host.c include/cinematic.h lib
	@mkdir -p $(BUILD)/bin
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 -Iinclude $< -L$(BUILD)/lib -lcinematic -Wl,-rpath,$(CURDIR)/$(BUILD)/lib -o $@

## sanitizers: the Swift suites under AddressSanitizer (and LeakSanitizer). ThreadSanitizer
## is not run: on this Linux toolchain it cannot see Synchronization.Mutex and reports every
## access made under one as a race.
## The C programs (and the stress programs, 1 s each) also run under ASan/UBSan against the
## release library (the host side of every pointer that crosses the API).
## Every C program is linked with what any of them uses directly (SQLite, zlib, jansson, libm).
sanitizers: sanitizers-swift sanitizers-c
sanitizers-swift: deps lib
	LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan.supp $(SWIFT) test --sanitize=address --scratch-path .build/asan
sanitizers-c: deps lib
	@mkdir -p $(BUILD)/tests-asan
	@failed=0; for source in $(C_TEST_SOURCES) $(STRESS_SOURCES); do \
	  t=$(BUILD)/tests-asan/$$(basename $$source .c); \
	  $(CC) $(C_TEST_FLAGS) -fsanitize=address,undefined -fno-omit-frame-pointer $$source \
	    -L$(BUILD)/lib -lcinematic $$(pkg-config --cflags --libs sqlite3 zlib jansson) -lm -Wl,-rpath,$(CURDIR)/$(BUILD)/lib -o $$t || exit 1; \
	  echo "== $$t"; STRESS_SECONDS=1 ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan.supp \
	    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 $$t || failed=1; \
	done; exit $$failed

## fuzz: libFuzzer + AddressSanitizer over everything the library reads (FUZZ_SECONDS each,
## default 60): the C API's JSON entry points (json), the catalog index reader (index) and
## the recording reader (recording), each from its corpus of real inputs (Fuzz/corpus/<target>);
## then the schema-driven property tests' long pass (3,000 random sequences). `make test`
## runs each target briefly (test-fuzz), `make stress` for STRESS_SECONDS each.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := json index recording
FUZZ_BIN := .build/fuzz/release/cinematic-fuzz
fuzz: fuzz-run
	@echo "== schema-driven property tests, long pass (HYPOTHESIS_PROFILE=long)"
	$(MAKE) --no-print-directory lib
	HYPOTHESIS_PROFILE=long bindings/python/run-tests.sh -k test_wire_properties

## fuzz-build: the fuzzer (.build/fuzz), the library built with -sanitize=fuzzer,address.
fuzz-build: deps
	$(SWIFT) build -c release --product cinematic-fuzz --scratch-path .build/fuzz \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DFUZZING

## fuzz-run: every target for FUZZ_SECONDS from its corpus (new finds kept in
## build/fuzz-corpus/<target>); a crash or a hang (-timeout) fails, leaving build/<target>-*.
## The fuzzer works in a scratch directory of its own, so its paths here are absolute.
## Leaks are not checked (-detect_leaks=0, ASAN_OPTIONS=detect_leaks=0): a runtime's threads
## end after its close returns, so libFuzzer's per-input check reports their last objects, and
## the check at exit reports the last inputs' effects still finishing (18 allocations after 300
## runs as after 1,500: nothing grows). `make sanitizers` checks leaks over whole runs instead.
fuzz-run: fuzz-build
	@failed=0; for target in $(FUZZ_TARGETS); do \
	  mkdir -p $(BUILD)/fuzz-corpus/$$target && cp -n Fuzz/corpus/$$target/* $(BUILD)/fuzz-corpus/$$target/; \
	  echo "== fuzz $$target ($(FUZZ_SECONDS) s)"; \
	  CINEMATIC_FUZZ_TARGET=$$target ASAN_OPTIONS=detect_leaks=0 $(FUZZ_BIN) $(CURDIR)/$(BUILD)/fuzz-corpus/$$target \
	    -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=30 -rss_limit_mb=4096 -detect_leaks=0 -print_final_stats=1 \
	    -artifact_prefix=$(CURDIR)/$(BUILD)/$$target- 2>&1 | grep -E '^(#[0-9]+.*(DONE|INITED)|stat::number_of_executed_units|==[0-9]+==|SUMMARY|ERROR|.*Fatal error|.*failed)' ; \
	  test $${PIPESTATUS[0]} -eq 0 || { echo "fuzz $$target: FAILED (see $(BUILD)/$$target-*)"; failed=1; }; \
	done; exit $$failed

## test-fuzz: each fuzz target for 10 s (part of `make test`).
test-fuzz:
	@$(MAKE) --no-print-directory fuzz-run FUZZ_SECONDS=10
	@echo "fuzz check: $(words $(FUZZ_TARGETS)) passed, 0 failed"

clean:
	rm -rf .build $(BUILD)
