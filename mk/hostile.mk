# Hostile runs (included by the Makefile): the stress programs at length, the sanitizers,
# and the fuzzers (`make test` runs each briefly: test-stress, test-fuzz).

## stress: every stress program for STRESS_SECONDS (default 30) each; a watchdog fails any
## thread that stops making progress for 5 s (deadlock, blocked host thread).
stress: lib $(STRESS_TESTS)
	@failed=0; for t in $(STRESS_TESTS); do echo "== $$t ($(STRESS_SECONDS) s)"; STRESS_SECONDS=$(STRESS_SECONDS) $$t || failed=1; done; exit $$failed
	@$(MAKE) --no-print-directory fuzz-run FUZZ_SECONDS=$(STRESS_SECONDS)
	@echo "== HTTP provider against a hostile server ($(STRESS_SECONDS) s)"; STRESS_SECONDS=$(STRESS_SECONDS) bindings/python/run-tests.sh bindings/python/tests/test_http_provider_hostile.py -k hostile_stress

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

## test-under-load: the host and stress parts of the suite (test-c, test-stress, test-python,
## test-desktop, test-web) on a busy machine: beside `stress-ng --cpu 2` (Debian's stress-ng,
## installed with apt-get as root, like `make deps`), started here and always stopped at the
## end (trap: on success, failure, timeout or Ctrl+C), the whole run bounded by
## UNDER_LOAD_TIMEOUT seconds (default 3600; stress-ng bounds itself too). Every part runs
## (make -k); prints the elapsed time. Not part of `make test`. The parts run in a sub-make
## told `-o lib` (make passes no -o down): this target's own prerequisite built the library.
UNDER_LOAD_TARGETS := test-c test-stress test-python test-desktop test-web
UNDER_LOAD_TIMEOUT ?= 3600
test-under-load: lib
	@command -v stress-ng >/dev/null || $(call apt_install,stress-ng,test-under-load needs stress-ng,exit 1)
	@start=$$(date +%s); \
	  stress-ng --cpu 2 --timeout $$(( $(UNDER_LOAD_TIMEOUT) + 60 )) > /dev/null 2>&1 & hog=$$!; \
	  trap 'kill $$hog 2>/dev/null; wait $$hog 2>/dev/null; \
	    echo "test-under-load: $$(( $$(date +%s) - start )) s elapsed beside stress-ng --cpu 2 (load average now $$(cut -d" " -f1 /proc/loadavg))"' EXIT; \
	  echo "== $(UNDER_LOAD_TARGETS) beside stress-ng --cpu 2 (pid $$hog), at most $(UNDER_LOAD_TIMEOUT) s"; \
	  timeout -k 30 $(UNDER_LOAD_TIMEOUT) $(MAKE) --no-print-directory -k -o lib $(UNDER_LOAD_TARGETS) & run=$$!; \
	  trap 'kill -TERM $$run 2>/dev/null' INT TERM HUP; \
	  wait $$run; status=$$?; \
	  while kill -0 $$run 2>/dev/null; do wait $$run; status=$$?; done; \
	  if [ $$status -eq 124 ]; then echo "test-under-load: timed out after $(UNDER_LOAD_TIMEOUT) s"; fi; \
	  exit $$status
