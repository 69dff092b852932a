# Release targets (docs/releasing.md), included by the Makefile: the ABI and wire checks
# against the last release (release/<version>/), the migration guide's examples, recording a
# release, and reproducible artifacts.

.PHONY: abi-deps abi-check wire-check test-releases test-release-checks test-migration-doc release-record dist dist-check

## abi-deps: libabigail's abidw and abidiff (Debian abigail-tools), installed with apt-get as
## root like the build's packages, otherwise the command is printed.
ABI_APT_PACKAGES := abigail-tools
abi-deps: $(BUILD)/.abi-deps
$(BUILD)/.abi-deps:
	@if ! command -v abidiff >/dev/null || ! command -v abidw >/dev/null; then \
	  $(call apt_install,$(ABI_APT_PACKAGES),missing abidiff,exit 1); \
	fi
	@mkdir -p $(BUILD) && touch $@

## abi-check: libabigail's abidiff between the built library (and the header's probe, which
## carries the C types) and the last release's stored descriptions (release/<version>/, the
## newest older than VERSION); a removed or changed function fails unless LIB_SONAME differs
## from the release's; every header function is exported with the symbol version node of the
## release that added it (Sources/Cinematic/cinematic.map). tools/abi-check.py.
abi-check: lib abi-deps
	python3 tools/abi-check.py --library $(LIB) --soname $(LIB_SONAME) --version $(VERSION)

## wire-check: every difference between the last release's schema and today's, classified
## compatible or breaking (breaking fails unless the version says so), and the last release's
## golden intents and initial states still answered as documented. tools/wire-check.py.
wire-check:
	python3 tools/wire-check.py

## test-releases: every release the CHANGELOG names has its contract recorded (release/<v>/
## with VERSION and COMMIT, the commit an ancestor whose schema says v) and a host
## (Tests/c/abi_host_<major>_<minor>.c), so no step of cutting a release is skipped.
## tools/check-releases.py.
test-releases:
	python3 tools/check-releases.py

## test-release-checks: the two checks fed mutations (a member renamed, an intent removed, a
## type narrowed, a function removed, a new function under an old version node): each fails,
## unless the version or the SONAME says so.
test-release-checks: abi-deps
	python3 tools/test-release-checks.py

## test-migration-doc: each example of the migration guides (docs/migrating-*.md: a C program,
## a Python script) compiles and runs against the built library (tools/check-migration-doc.py).
test-migration-doc: lib
	python3 tools/check-migration-doc.py docs/migrating-0.2-to-0.3.md docs/migrating-0.3-to-0.4.md

## release-record: writes release/$(VERSION)/ (ABI descriptions, schema, goldens) from this
## tree and its built library: the baseline of the next release (docs/releasing.md).
release-record: lib abi-deps
	python3 tools/release-record.py --soname $(LIB_SONAME)

## dist: build/dist/ holds the source tarball (git archive of HEAD), libcinematic.so.<version>,
## the wheel and the jar, each carrying the version, and SHA256SUMS; the same commit gives the
## same bytes (SOURCE_DATE_EPOCH, default the commit's time; tools/dist.sh, docs/releasing.md).
dist: lib
	tools/dist.sh

## dist-check: `make dist` twice, the second time after building the library, its embedded
## index and the Kotlin classes again from nothing: fails unless both SHA256SUMS are
## identical. Slow (two release builds); not part of `make test`.
dist-check:
	$(MAKE) --no-print-directory dist
	cp $(BUILD)/dist/SHA256SUMS $(BUILD)/SHA256SUMS.first
	cp $(LIB) $(BUILD)/libcinematic.first
	rm -rf $(LIB_SCRATCH) $(BUILD)/lib $(INDEX_DIR) $(INDEX_TOOL) $(BUILD)/kotlin/jar-classes $(BUILD)/kotlin/jar-classes.stamp $(BUILD)/wheel
	$(MAKE) --no-print-directory dist
	@diff -u $(BUILD)/SHA256SUMS.first $(BUILD)/dist/SHA256SUMS || { python3 tools/elf-diff.py $(BUILD)/libcinematic.first $(LIB); exit 1; }
	@echo "dist-check: two builds, identical bytes"

