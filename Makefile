# Cinematic Core. `make demo` runs the main job, `make test` runs every test.
# Both set up a fresh Debian machine that has only the Swift toolchain, gcc and Python.

SHELL := /bin/bash
SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
VERSION := 0.1.0
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

.PHONY: all deps build lib test test-swift demo bench install clean

all: lib

## deps: install the system packages the build needs (as root), or print the command.
deps: $(BUILD)/.deps
$(BUILD)/.deps:
	@if ! command -v pkg-config >/dev/null || ! pkg-config --exists $(PKG_MODULES); then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing $(APT_PACKAGES)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(APT_PACKAGES) >/dev/null; \
	  else \
	    echo "missing system packages; run:  sudo apt-get install -y $(APT_PACKAGES)"; exit 1; \
	  fi; \
	fi
	@mkdir -p $(BUILD) && touch $@

build: deps
	$(SWIFT) build

## lib: build/lib/libcinematic.so.0, release, Swift runtime linked statically.
lib: deps
	$(SWIFT) build -c release --product cinematic --scratch-path $(LIB_SCRATCH) $(LIB_LINK)
	@mkdir -p $(BUILD)/lib
	cp $(LIB_SCRATCH)/release/$(LIB_NAME) $(LIB)
	ln -sf $(LIB_SONAME) $(BUILD)/lib/$(LIB_NAME)

test: test-swift

test-swift: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

demo: deps
	$(SWIFT) run cinematic-demo

## bench: search latency over the real catalog (medians and ratios, one run).
bench: deps
	$(SWIFT) run -c release cinematic-bench

clean:
	rm -rf .build $(BUILD)
