# Benchmarks (included by the Makefile): `make bench` and the C host it times.

## bench: search latency over the real catalog (medians and ratios, one run), the C API's cost
## per keystroke in instructions (Benchmarks/profile-abi.sh, callgrind: the ABI verdict, which
## load does not move; valgrind is installed when missing), what
## `import cinematic` costs over `import ctypes, json` (bindings/python/bench_import.py), then the desktop
## app's longest event-loop stall while "the lord of the rings" is typed at 20 ms per key
## (examples/desktop/bench_typing.py, offscreen).
bench: deps lib $(EXAMPLE) $(CATALOG_HOST) $(FTS5_HOST)
	$(SWIFT) run -c release cinematic-bench
	@command -v valgrind >/dev/null || $(call apt_install,valgrind,the ABI verdict needs valgrind,exit 1)
	TOP=12 Benchmarks/profile-abi.sh 2000
	PYTHONPATH=$(CURDIR)/bindings/python CINEMATIC_LIBRARY=$(CURDIR)/$(LIB) $$(tools/ensure-venv.sh) bindings/python/bench_patches.py
	PYTHONPATH=$(CURDIR)/bindings/python CINEMATIC_LIBRARY=$(CURDIR)/$(LIB) $$(tools/ensure-venv.sh) bindings/python/bench_import.py
	examples/desktop/bench-typing.sh
	$(MAKE) --no-print-directory bench-web

## catalog-host: the C host `make bench` times and weighs a catalog with; fts5-host: the same
## films in SQLite FTS5, its baseline (Benchmarks/c).
$(CATALOG_HOST): Benchmarks/c/catalog_host.c Benchmarks/c/memory.h Benchmarks/c/spawn_clock.h $(HEADERS) lib
	@mkdir -p $(BUILD)/bin
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 -Iinclude $< -L$(BUILD)/lib -lcinematic -Wl,-rpath,$(CURDIR)/$(BUILD)/lib -o $@
$(FTS5_HOST): Benchmarks/c/fts5_host.c Benchmarks/c/memory.h Benchmarks/c/spawn_clock.h
	@mkdir -p $(BUILD)/bin
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 $< $$(pkg-config --cflags --libs sqlite3 zlib) -o $@
