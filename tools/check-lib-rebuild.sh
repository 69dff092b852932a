#!/usr/bin/env bash
# test-lib-rebuild: `make lib` from a pipe, then from a terminal (script(1) gives it one), then
# from a pipe again: once the library is built, neither rebuilds a module (SwiftPM keys its
# build on the environment, and GNU make exports MAKE_TERMOUT/MAKE_TERMERR on a terminal: the
# Makefile unexports them). Fails naming the run that compiled something.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v script >/dev/null; then   # util-linux's script(1): Debian's bsdutils, always installed
    echo "check-lib-rebuild: no script(1) to give make a terminal (apt-get install bsdutils)" >&2
    exit 1
fi
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
make --no-print-directory lib >/dev/null 2>&1 || { echo "check-lib-rebuild: make lib failed" >&2; exit 1; }
for run in terminal pipe; do
    if [ "$run" = terminal ]; then
        script -qec "make --no-print-directory lib" /dev/null </dev/null >"$log" 2>&1
    else
        make --no-print-directory lib >"$log" 2>&1
    fi
    if grep -q "Compiling" "$log"; then
        echo "check-lib-rebuild: make lib from a $run rebuilt what a make lib before it had built:" >&2
        tr '\r' '\n' <"$log" | sed 's/\x1b\[[0-9]*K//g' | grep -o "Compiling .*" | sort -u | head -5 >&2
        exit 1
    fi
done
echo "check-lib-rebuild: make lib from a pipe, a terminal and a pipe again: nothing rebuilt"
