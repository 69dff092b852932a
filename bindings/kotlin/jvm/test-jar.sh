#!/usr/bin/env bash
# `make test-jar`: the jar as a new user runs it: from a scratch directory, with no
# -Djna.library.path and nothing of the repository on the class path but the jar, the packaged
# command line finds the library inside the jar and answers; bad usage exits 2.
set -euo pipefail
# shellcheck source=tools.sh
. "$(dirname "${BASH_SOURCE[0]}")/tools.sh"
find_kotlin_tools || exit 1
version="$(python3 "$CINEMATIC_ROOT/tools/wiregen.py" --version)"
jar="$CINEMATIC_ROOT/build/dist/cinematic-$version.jar"
[ -f "$jar" ] || { echo "test-jar: $jar is missing; run \`make jar\`" >&2; exit 2; }
kotlin="$(dirname "$(readlink -f "$KOTLINC")")/kotlin"
scratch="$(mktemp -d /tmp/cinematic-jar.XXXXXX)"
trap 'rm -rf "$scratch"' EXIT
passed=0 failed=0
check() { # name, condition status, detail
  if [ "$2" = 0 ]; then passed=$((passed + 1)); echo "ok   $1"; else failed=$((failed + 1)); echo "FAIL $1"; echo "     $3"; fi
}
mkdir -p "$scratch/home"
run() { (cd "$scratch" && env -u CINEMATIC_LIBRARY -u LD_LIBRARY_PATH HOME="$scratch/home" XDG_CACHE_HOME="$scratch/home/.cache" JAVA_OPTS="$KOTLIN_JAVA_OPTS" \
  "$kotlin" -cp "$jar:$JNA_JAR" cinematic.cli.MainKt "$@") >"$scratch/out" 2>"$scratch/err"; }

status=0
python3 -c 'import sys, zipfile; sys.exit(0 if "linux-x86-64/libcinematic.so" in zipfile.ZipFile(sys.argv[1]).namelist() else 1)' "$jar" || status=$?
check "the jar carries linux-x86-64/libcinematic.so" "$status" ""

status=0; run search dune || status=$?
[ "$status" = 0 ] && [ "$(head -1 "$scratch/out")" = "Dune (1984)" ]
check "from another directory, \`search dune\` prints Dune (1984) first, exit 0" $? "status $status: $(head -3 "$scratch/out") $(cat "$scratch/err")"

[ -z "$(ls -A "$scratch/home")" ]
check "nothing was written under the empty HOME / XDG_CACHE_HOME" $? "$(find "$scratch/home")"

status=0; run search godfathr 2 || status=$?
[ "$status" = 0 ] && [ "$(head -1 "$scratch/out")" = "The Godfather: Part II (1974)" ]
check "\`search godfathr 2\` forgives the typo" $? "status $status: $(head -3 "$scratch/out") $(cat "$scratch/err")"

status=0; run search || status=$?
[ "$status" = 2 ] && grep -q usage "$scratch/err"
check "no query: usage on stderr, exit 2" $? "status $status: $(cat "$scratch/err")"

status=0; run search "$(printf 'a%.0s' {1..300})" || status=$?
[ "$status" = 2 ] && grep -q "256" "$scratch/err"
check "a query over 256 characters: invalid, exit 2" $? "status $status: $(cat "$scratch/err")"

echo "jar check: $passed passed, $failed failed"
[ "$failed" = 0 ]
