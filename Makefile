# Cinematic Core. `make demo` runs the main job, `make test` runs every test.
# Both set up a fresh Debian machine that has only the Swift toolchain, gcc and Python.

SHELL := /bin/bash
SWIFT ?= swift
# GNU make exports MAKE_TERMOUT and MAKE_TERMERR when it writes to a terminal; SwiftPM keys its
# build on the environment, so a `make lib` from a terminal after one from a pipe (or the
# reverse) rebuilt every module (about 40 s here). Nothing we run reads them.
unexport MAKE_TERMOUT MAKE_TERMERR
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
# Its stamp, compiled in beside it (tools/index-stamp.py).
INDEX_STAMP := $(INDEX_DIR)/catalog_index_stamp.h
# Reproducible bytes (make dist): no build directory inside the library, and no debug
# references to the Clang module cache (their ids change with every build).
REPRO_FLAGS := -Xswiftc -file-prefix-map -Xswiftc $(CURDIR)=. -Xcc -ffile-prefix-map=$(CURDIR)=. \
	-Xswiftc -Xfrontend -Xswiftc -no-clang-module-breadcrumbs
# Each function in a section of its own, and the code a host runs to its first search result
# first and together (mk/first-use-code.order, written by `make first-use-code`): a C host
# maps a few contiguous pages of it rather than pages all over the library. And a generic
# type's metadata comes from its accessor, with its conformances, not from its mangled name:
# the runtime checks a mangled name's requirements by scanning every conformance record in
# the library, some 50,000 instructions for each new type and protocol at first use.
FIRST_USE_CODE := -Xswiftc -Xfrontend -Xswiftc -function-sections \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
	-Xlinker --section-ordering-file=$(CURDIR)/mk/first-use-code.order
# libstdc++ linked in (the Swift runtime's few C++ needs: new, delete, strings), when the
# compiler has its archive: a host then loads no libstdc++.so (about 0.9 MiB of its pages
# mapped and relocated at load). The toolchain links `-lstdc++`; build/link/libstdc++.so, a
# linker script naming the archive (written by `make lib`), makes that the archive.
STATIC_LIBSTDCXX := $(filter /%,$(shell $(CC) -print-file-name=libstdc++.a 2>/dev/null))
STATIC_LIBSTDCXX_LINK := $(if $(STATIC_LIBSTDCXX),-Xlinker -L$(CURDIR)/$(BUILD)/link)
LIB_FLAGS := $(LIB_LINK) $(REPRO_FLAGS) $(FIRST_USE_CODE) $(STATIC_LIBSTDCXX_LINK) -Xcc -DCINEMATIC_EMBED_INDEX
INDEX_TOOL := $(BUILD)/bin/cinematic-index
INDEX_TOOL_FLAGS := -std=c11 -Wall -Wextra -Werror -O2 -Iinclude

CC ?= gcc
# The public header: include/cinematic.h (what hosts include) and the module headers it
# includes, include/cinematic/*.h; installed as they are, under PREFIX/include.
MODULE_HEADERS := $(wildcard include/cinematic/*.h)
HEADERS := include/cinematic.h $(MODULE_HEADERS)
C_TEST_SOURCES := $(wildcard Tests/c/test_*.c)
C_TESTS := $(patsubst Tests/c/%.c,$(BUILD)/tests/%,$(C_TEST_SOURCES))
STRESS_SOURCES := $(wildcard Tests/c/stress_*.c)
STRESS_TESTS := $(patsubst Tests/c/%.c,$(BUILD)/tests/%,$(STRESS_SOURCES))
# `make test` runs each stress program briefly; `make stress` runs each for STRESS_SECONDS.
STRESS_SECONDS ?= 30
# The C tests' shared headers: harness.h and the parts it includes, stress.h, test_store.h...
C_TEST_HEADERS := $(wildcard Tests/c/*.h)
C_TEST_FLAGS := -std=c11 -Wall -Wextra -Werror -g -O1 -Iinclude -pthread

EXAMPLE := $(BUILD)/bin/cinematic-search
PATCH_EXAMPLE := $(BUILD)/bin/cinematic-patches
RESUME_EXAMPLE := $(BUILD)/bin/cinematic-resume
APP_EXAMPLE := $(BUILD)/bin/cinematic-app
REPLAY_TOOL := $(BUILD)/bin/cinematic-replay
CATALOG_HOST := $(BUILD)/bin/catalog-host
FTS5_HOST := $(BUILD)/bin/fts5-host
INSTALL_CHECK := $(BUILD)/install-check

.PHONY: test-data golden-debug test-lib-rebuild test-adding-a-feature all deps build lib first-use-code index-tool example replay-tool catalog-server generate wheel test-wheel jar test-jar test test-generated test-layering test-no-hooks test-comparison-doc mutants test-fuzz fuzz-build fuzz-run test-swift test-header test-c test-stress test-install test-reinstall test-kotlin test-python test-desktop screenshots demo desktop bench stress sanitizers fuzz install clean web test-web bench-web test-under-load test-conformance test-hosts

all: lib $(REPLAY_TOOL)

## test: every check (each target's own comment says what it checks).
test: test-generated test-data wire-check test-releases test-release-checks test-lib-rebuild abi-check test-migration-doc test-adding-a-feature test-layering test-no-hooks test-comparison-doc test-hosts test-swift test-header test-c test-stress test-install test-reinstall test-wheel test-kotlin test-jar test-python test-desktop test-web test-conformance test-fuzz

## demo: the terminal movie app (examples/python) on a terminal; elsewhere (no TTY) the
## C example typing "star wars" into the Search store letter by letter.
demo: $(EXAMPLE)
	@if [ -t 0 ] && [ -t 1 ]; then examples/python/run.sh; else $(EXAMPLE) --type star wars; fi

clean:
	rm -rf .build $(BUILD)

## The targets by concept: mk/build.mk (deps, lib, examples, generate, install), mk/test.mk
## (the checks make test runs that are not a host's), mk/hosts.mk (the bindings and the apps
## built on them), mk/bench.mk, mk/hostile.mk (stress, sanitizers, fuzz), tools/release.mk.
include tools/release.mk
include mk/build.mk
include mk/test.mk
include mk/hosts.mk
include mk/bench.mk
include mk/hostile.mk
