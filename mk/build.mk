# Building (included by the Makefile): the system packages, the library, the examples and
# tools linked against it, the generated files, and `make install`.

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

## replace_if_changed(file, then): a generated file written as file.new takes file's place only
## when its text changed (then `then` runs: a touch, so what includes it is compiled again);
## otherwise file.new is dropped and file keeps its time. Used by lib for the files it
## generates before compiling.
replace_if_changed = { cmp -s $(1).new $(1) && rm -f $(1).new || { mv -f $(1).new $(1) && $(2); }; }

deps: $(BUILD)/.deps
$(BUILD)/.deps:
	@if ! command -v pkg-config >/dev/null || ! pkg-config --exists $(PKG_MODULES); then \
	  $(call apt_install,$(APT_PACKAGES),missing system packages,exit 1); \
	fi
	@mkdir -p $(BUILD) && touch $@

build: deps
	$(SWIFT) build

## lib: build/lib/libcinematic.so.0, release, Swift runtime (and libstdc++) linked statically, with the
## embedded catalog's index compiled in (include/cinematic/catalog_index.h, CATALOG INDEX):
## the library is built, builds the index of its own embedded data
## (build/catalog-index/cinematic-index --embedded), and is relinked with it, only when the
## index's bytes changed. Also build/bin/cinematic-index, the index builder for users' own
## movie files.
lib: deps
	@mkdir -p $(BUILD)/lib $(BUILD)/bin $(INDEX_DIR) $(BUILD)/link
	@$(if $(STATIC_LIBSTDCXX),echo 'INPUT ( $(STATIC_LIBSTDCXX) )' > $(BUILD)/link/libstdc++.so.new && \
	  $(call replace_if_changed,$(BUILD)/link/libstdc++.so,:),:)
	@# The data hash of the movie file and its alternate titles (CatalogIndex.dataHash each, joined by "+": EmbeddedCatalog.dataHash), compiled in beside them: written only when it changed.
	@python3 -c 'import sys, zlib; h = lambda p: (lambda d: f"crc32-{zlib.crc32(d):x}-{len(d)}")(open(p, "rb").read()); print(f"#define CATALOG_DATA_HASH \"{h(sys.argv[1])}+{h(sys.argv[2])}\"")' \
	  data/ggplot2movies.tsv.gz data/alternate-titles.tsv > $(INDEX_DIR)/catalog_data_hash.h.new && \
	  $(call replace_if_changed,$(INDEX_DIR)/catalog_data_hash.h,touch Sources/CinematicCatalogData/catalog_data.c)
	@# The embedded index's stamp, compiled in beside it (tools/index-stamp.py): written only when it changed.
	@if [ -f $(EMBEDDED_INDEX) ]; then python3 tools/index-stamp.py $(EMBEDDED_INDEX) > $(INDEX_STAMP).new && \
	  $(call replace_if_changed,$(INDEX_STAMP),touch Sources/CinematicCatalogData/catalog_data.c); fi
	$(SWIFT) build -c release --product cinematic --scratch-path $(LIB_SCRATCH) $(LIB_FLAGS)
	cp $(LIB_SCRATCH)/release/$(LIB_NAME) $(INDEX_DIR)/$(LIB_SONAME).tmp && mv -f $(INDEX_DIR)/$(LIB_SONAME).tmp $(INDEX_DIR)/$(LIB_SONAME)
	ln -sfn $(LIB_SONAME) $(INDEX_DIR)/$(LIB_NAME)
	$(CC) $(INDEX_TOOL_FLAGS) tools/cinematic_index.c $$(pkg-config --cflags --libs jansson) -L$(INDEX_DIR) -lcinematic -Wl,-rpath,$(CURDIR)/$(INDEX_DIR) -o $(INDEX_DIR)/cinematic-index
	$(INDEX_DIR)/cinematic-index --embedded $(EMBEDDED_INDEX).new > /dev/null
	@if cmp -s $(EMBEDDED_INDEX).new $(EMBEDDED_INDEX); then rm -f $(EMBEDDED_INDEX).new; else \
	  echo "embedding the new catalog index ($$(du -h $(EMBEDDED_INDEX).new | cut -f1))"; \
	  mv -f $(EMBEDDED_INDEX).new $(EMBEDDED_INDEX) && touch Sources/CinematicCatalogData/catalog_data.c && \
	  python3 tools/index-stamp.py $(EMBEDDED_INDEX) > $(INDEX_STAMP).new && $(call replace_if_changed,$(INDEX_STAMP),:) && \
	  $(SWIFT) build -c release --product cinematic --scratch-path $(LIB_SCRATCH) $(LIB_FLAGS) || exit 1; fi
	@# Atomic replace: a host running on the old library keeps its mapping (never overwritten in place).
	@# swiftc's per-compile module hashes zeroed and the build id recomputed: same sources, same bytes.
	cp $(LIB_SCRATCH)/release/$(LIB_NAME) $(LIB).tmp.$$$$ && python3 tools/normalize-elf.py $(LIB).tmp.$$$$ >/dev/null && mv -f $(LIB).tmp.$$$$ $(LIB)
	ln -sfn $(LIB_SONAME) $(BUILD)/lib/$(LIB_NAME)
	$(CC) $(INDEX_TOOL_FLAGS) tools/cinematic_index.c $$(pkg-config --cflags --libs jansson) -L$(BUILD)/lib -lcinematic '-Wl,-rpath,$$ORIGIN/../lib' -o $(INDEX_TOOL).tmp && mv -f $(INDEX_TOOL).tmp $(INDEX_TOOL)

## first-use-code: rewrites mk/first-use-code.order from the functions a C host runs to its
## first search result (tools/first-use-code.sh, under valgrind), then relinks the library.
first-use-code: lib $(CATALOG_HOST)
	@command -v valgrind >/dev/null || $(call apt_install,valgrind,first-use-code needs valgrind,exit 1)
	tools/first-use-code.sh
	touch Sources/CinematicCatalogData/catalog_data.c
	$(MAKE) --no-print-directory lib

## generate: rewrites every file generated from the wire files (schema/core/*.json and
## Sources/CinematicFeatures/*/*.wire.md: the schema, golden files, docs and README tables, host types,
## statuses, version: Python wire.py, Kotlin Wire.kt, Swift WireConstants.swift, the header's
## GENERATED block, pyproject's version).
generate:
	python3 tools/wiregen.py

## example: examples/c/cinematic-search (and cinematic-patches: a host keeping a jansson tree
## current from patched delivery; cinematic-resume: a runtime snapshot saved by one process
## and restored by the next; cinematic-app: the whole app, search to undo) against the
## in-tree library.
example: $(EXAMPLE) $(PATCH_EXAMPLE) $(RESUME_EXAMPLE) $(APP_EXAMPLE)
$(APP_EXAMPLE): examples/c/cinematic_app.c $(HEADERS) lib
	@mkdir -p $(BUILD)/bin
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 -Iinclude $< $$(pkg-config --cflags --libs jansson) -L$(BUILD)/lib -lcinematic -pthread -Wl,-rpath,$(CURDIR)/$(BUILD)/lib -o $@
$(RESUME_EXAMPLE): examples/c/cinematic_resume.c $(HEADERS) lib
	@mkdir -p $(BUILD)/bin
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 -Iinclude $< $$(pkg-config --cflags --libs jansson) -L$(BUILD)/lib -lcinematic -pthread -Wl,-rpath,$(CURDIR)/$(BUILD)/lib -o $@
$(PATCH_EXAMPLE): examples/c/cinematic_patches.c examples/c/json_patch.h $(HEADERS) lib
	@mkdir -p $(BUILD)/bin
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 -Iinclude examples/c/cinematic_patches.c -L$(BUILD)/lib -lcinematic $$(pkg-config --cflags --libs jansson) -pthread -Wl,-rpath,$(CURDIR)/$(BUILD)/lib -o $@
$(EXAMPLE): examples/c/cinematic_search.c $(HEADERS) lib
	@mkdir -p $(BUILD)/bin
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 -Iinclude $< $$(pkg-config --cflags --libs jansson) -L$(BUILD)/lib -lcinematic -pthread -Wl,-rpath,$(CURDIR)/$(BUILD)/lib -o $@

## replay-tool: build/bin/cinematic-replay, which replays a recorded session (tools/cinematic_replay.c).
replay-tool: $(REPLAY_TOOL)
$(REPLAY_TOOL): tools/cinematic_replay.c $(HEADERS) lib
	@mkdir -p $(BUILD)/bin
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 -Iinclude $< $$(pkg-config --cflags --libs jansson) -L$(BUILD)/lib -lcinematic -pthread -Wl,-rpath,$(CURDIR)/$(BUILD)/lib -o $@

## install: the header (include/cinematic.h and its module headers, include/cinematic/), library
## with SONAME symlinks (the embedded catalog's index is inside it), cinematic-index,
## pkg-config file (PREFIX, DESTDIR).
install: lib
	install -d $(DESTDIR)$(PREFIX)/include/cinematic $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(INDEX_TOOL) $(DESTDIR)$(PREFIX)/bin/.cinematic-index.tmp.$$$$ && \
	  mv -f $(DESTDIR)$(PREFIX)/bin/.cinematic-index.tmp.$$$$ $(DESTDIR)$(PREFIX)/bin/cinematic-index
	install -m 644 include/cinematic.h $(DESTDIR)$(PREFIX)/include/cinematic.h
	install -m 644 $(MODULE_HEADERS) $(DESTDIR)$(PREFIX)/include/cinematic/
	@# Atomic replace (temporary file + rename): running hosts keep their mapping.
	install -m 755 $(LIB) $(DESTDIR)$(PREFIX)/lib/.$(LIB_SONAME).tmp.$$$$ && \
	  mv -f $(DESTDIR)$(PREFIX)/lib/.$(LIB_SONAME).tmp.$$$$ $(DESTDIR)$(PREFIX)/lib/$(LIB_SONAME).$(VERSION:0.%=%)
	ln -sfn $(LIB_SONAME).$(VERSION:0.%=%) $(DESTDIR)$(PREFIX)/lib/$(LIB_SONAME)
	ln -sfn $(LIB_SONAME) $(DESTDIR)$(PREFIX)/lib/$(LIB_NAME)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' cinematic.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/cinematic.pc
