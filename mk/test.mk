# The checks `make test` runs that are not a binding's or a host's (included by the
# Makefile): generated files, layering, the header, the C programs, the Swift suites,
# reinstalling under a running host, the installed library.

## test-generated: the generated files are what the schema says (run `make generate` if not),
## docs/wire.md's examples validate against the schema, and the relevance sets are what
## tools/relevance-sets.py generates (docs/relevance.md).
test-generated:
	python3 tools/wiregen.py --check
	python3 tools/test-wire-files.py
	python3 tools/relevance-sets.py --check
	$$(tools/ensure-venv.sh) tools/check-wire-doc.py

## test-adding-a-feature: follows docs/adding-a-feature.md in a scratch copy (a Watchlist
## feature: generate, a debug build, C/Python/Kotlin golden checks, the page's tests and its C
## and Python snippets; at most 4 files written by hand), then misspells each wire name in
## every file the page writes (declaration, golden lines, prose, Swift code) and in its
## snippets, and expects a named gate to fail each time (tools/try-adding-a-feature.py).
test-adding-a-feature:
	python3 tools/try-adding-a-feature.py

## golden-debug: the fast loop from a codec, reducer or wire file change to the golden checks:
## the generated files, a debug build of the library (only what changed is compiled), and the
## Python and C golden checks against it (docs/adding-a-feature.md, "A fast loop").
DEBUG_LIB := .build/debug/libcinematic.so
golden-debug:
	python3 tools/wiregen.py
	$(SWIFT) build --product cinematic
	PYTHONPATH=$(CURDIR)/bindings/python CINEMATIC_LIBRARY=$(CURDIR)/$(DEBUG_LIB) $$(tools/ensure-venv.sh) -m pytest -q -p no:cacheprovider bindings/python/tests/test_golden.py
	@mkdir -p $(BUILD)/tests
	$(CC) $(C_TEST_FLAGS) Tests/c/test_golden.c -L.build/debug -lcinematic $$(pkg-config --cflags --libs jansson) -Wl,-rpath,$(CURDIR)/.build/debug -o $(BUILD)/tests/test_golden_debug
	$(BUILD)/tests/test_golden_debug

## test-lib-rebuild: `make lib` from a terminal after one from a pipe, and the reverse, rebuilds
## nothing (tools/check-lib-rebuild.sh).
test-lib-rebuild: lib
	tools/check-lib-rebuild.sh

## test-data: every line of data/alternate-titles.tsv lands on the catalog film it names (id,
## title, year and length), well formed (tools/check-alternate-titles.py).
test-data:
	python3 tools/check-alternate-titles.py

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

## test-header: the public header is plain C99 (cinterop-friendly), compiles alone (and so
## does each module header, include/cinematic/*.h), and documents every feature of the catalog.
test-header:
	@for header in $(HEADERS); do echo "$(CC) -std=c99 -pedantic -Wall -Wextra -Werror -fsyntax-only -x c $$header"; \
	  $(CC) -std=c99 -pedantic -Wall -Wextra -Werror -fsyntax-only -x c $$header || exit 1; done
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

$(BUILD)/tests/test_%: Tests/c/test_%.c $(C_TEST_HEADERS) $(HEADERS) $(LIB)
	@mkdir -p $(BUILD)/tests
	$(CC) $(C_TEST_FLAGS) $< -L$(BUILD)/lib -lcinematic $(C_TEST_LIBS) -Wl,-rpath,$(CURDIR)/$(BUILD)/lib -o $@

## test_offline_cache_processes also holds the cache file locked with SQLite directly, from
## another process.
$(BUILD)/tests/test_offline_cache_processes: C_TEST_LIBS = $$(pkg-config --libs sqlite3)
## test_index_reader crafts damaged indexes with SQLite directly; it, test_index_section and
## test_catalog_index share Tests/c/index_files.h.
$(BUILD)/tests/test_index_reader: C_TEST_LIBS = $$(pkg-config --libs sqlite3) -lm
$(BUILD)/tests/test_index_reader $(BUILD)/tests/test_index_section $(BUILD)/tests/test_catalog_index: Tests/c/index_files.h
## test_index_input builds gzip files (a gzip bomb among them) with zlib.
$(BUILD)/tests/test_index_input: C_TEST_LIBS = $$(pkg-config --cflags --libs zlib)
## test_offline_cache_damage reads the cache file's pages and checks it with SQLite directly.
$(BUILD)/tests/test_offline_cache_damage: C_TEST_LIBS = $$(pkg-config --libs sqlite3)
## test_patches and test_app_patches apply the patches they receive with jansson
## (Tests/c/patcher.h); test_golden rewrites golden intents with it.
$(BUILD)/tests/test_patches $(BUILD)/tests/test_app_patches $(BUILD)/tests/test_golden $(BUILD)/tests/test_patch_corpus: C_TEST_LIBS = $$(pkg-config --cflags --libs jansson)
$(BUILD)/tests/test_patches $(BUILD)/tests/test_app_patches: examples/c/json_patch.h

## Stress programs (one per hostile scenario of the execution model) also read the favorites
## file with SQLite directly.
$(BUILD)/tests/stress_%: Tests/c/stress_%.c $(C_TEST_HEADERS) $(HEADERS) $(LIB)
	@mkdir -p $(BUILD)/tests
	$(CC) $(C_TEST_FLAGS) $< -L$(BUILD)/lib -lcinematic $$(pkg-config --libs sqlite3) -Wl,-rpath,$(CURDIR)/$(BUILD)/lib -o $@

## test-stress: every stress program for 1 s each, with its watchdog (part of `make test`).
test-stress: lib $(STRESS_TESTS)
	@failed=0; for t in $(STRESS_TESTS); do echo "== $$t"; STRESS_SECONDS=1 $$t || failed=1; done; exit $$failed

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

## test-install: install into a scratch DESTDIR (every header as it is in include/), build the
## example with pkg-config against it, and search the catalog from there with no
## configuration; then the README's two ways to run it (LD_LIBRARY_PATH, or an rpath from
## pkg-config's libdir; neither: the loader fails).
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
	@# Every header is installed as it is (the umbrella and its module headers), nothing else.
	diff -r include $(INSTALL_CHECK)/opt/cinematic/include
	@# The README's ways to run a program built against the prefix: without either, the loader
	@# cannot find libcinematic.so.0; with an rpath from pkg-config's libdir, it runs as is.
	@! env -u LD_LIBRARY_PATH $(INSTALL_CHECK)/cinematic-search dune > /dev/null 2> $(INSTALL_CHECK)/no-rpath || { echo "a program with no rpath ran without LD_LIBRARY_PATH"; exit 1; }
	@grep -q 'libcinematic.so.0: cannot open shared object file' $(INSTALL_CHECK)/no-rpath || { cat $(INSTALL_CHECK)/no-rpath; exit 1; }
	export PKG_CONFIG_PATH=$(CURDIR)/$(INSTALL_CHECK)/opt/cinematic/lib/pkgconfig; \
	  $(CC) -std=c11 -O2 examples/c/cinematic_search.c $$(pkg-config --define-prefix --cflags --libs cinematic jansson) -pthread \
	    -Wl,-rpath,$$(pkg-config --define-prefix --variable=libdir cinematic) -o $(INSTALL_CHECK)/cinematic-search-rpath
	env -u LD_LIBRARY_PATH $(INSTALL_CHECK)/cinematic-search-rpath godfather > $(INSTALL_CHECK)/out-rpath
	@grep -q '^The Godfather  *1972' $(INSTALL_CHECK)/out-rpath || { echo "the rpath build did not find The Godfather"; exit 1; }
	@echo "install check: 6 passed, 0 failed"
