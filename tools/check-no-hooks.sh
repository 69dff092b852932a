#!/usr/bin/env bash
# `make test-no-hooks`: the shipped library contains none of the test hooks. They live in
# targets the library does not link: Tests/CinematicTestHooks (FaultInjection, FaultVFS: the
# fault-injecting system calls and SQLite VFS) and the benchmark (SyntheticCatalog; the old
# CinematicBenchmarks door is gone: the bench calls the production code through `package`).
# Reads every symbol `nm` sees (the symbol table and the dynamic one) and fails naming each
# that mentions a hook; fails too when nm sees no symbol of the C API (nothing was checked).
set -euo pipefail
lib=${1:-build/lib/libcinematic.so.0}
hooks=(FaultInjection FaultVFS SyntheticCatalog CinematicBenchmarks CinematicTestHooks)
[[ -f $lib ]] || { echo "no-hooks check: $lib does not exist (make lib)"; exit 1; }
symbols=$( { nm "$lib" 2>/dev/null || true; nm -D "$lib"; } | awk '{ print $NF }' | sort -u)
grep -qx 'cinematic_runtime_open' <<<"$symbols" || { echo "no-hooks check: nm sees no C API in $lib"; exit 1; }
pattern=$(IFS='|'; echo "${hooks[*]}")
found=$(grep -E "$pattern" <<<"$symbols" || true)
if [[ -n $found ]]; then
  count=$(wc -l <<<"$found")
  echo "no-hooks check: $lib holds $count symbols of test hooks ($pattern):"
  for hook in "${hooks[@]}"; do n=$(grep -c "$hook" <<<"$found" || true); [[ $n == 0 ]] || echo "  $hook: $n"; done
  if command -v swift >/dev/null; then swift demangle --compact <<<"$found" | head -40 | sed 's/^/    /' || true
  else head -40 <<<"$found" | sed 's/^/    /'; fi
  exit 1
fi
echo "no-hooks check: $(wc -l <<<"$symbols") symbols, none from ${hooks[*]}: 1 passed, 0 failed"
