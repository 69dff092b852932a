#!/usr/bin/env bash
# `make test-jar`: the jar as a new user runs it: `java -jar` from a scratch directory, with no
# -Djna.library.path and nothing on the class path but the jar (the Kotlin runtime,
# coroutines and JNA are inside), the packaged command line finds the library inside the jar
# and answers; its command line matches Python's `cinematic` case for case (cli-parity.py);
# and the Kotlin program of bindings/kotlin/README.md ("Use") compiles and runs against the
# jar alone.
set -euo pipefail
# shellcheck source=tools.sh
. "$(dirname "${BASH_SOURCE[0]}")/tools.sh"
find_kotlin_tools || exit 1
version="$(python3 "$CINEMATIC_ROOT/tools/wiregen.py" --version)"
jar="$CINEMATIC_ROOT/build/dist/cinematic-$version.jar"
[ -f "$jar" ] || { echo "test-jar: $jar is missing; run \`make jar\`" >&2; exit 2; }
scratch="$(mktemp -d /tmp/cinematic-jar.XXXXXX)"
trap 'rm -rf "$scratch"' EXIT
passed=0 failed=0
check() { # name, condition status, detail
  if [ "$2" = 0 ]; then passed=$((passed + 1)); echo "ok   $1"; else failed=$((failed + 1)); echo "FAIL $1"; echo "     $3"; fi
}
mkdir -p "$scratch/home"
# shellcheck disable=SC2086 # KOTLIN_JAVA_OPTS is a list of flags
run() { (cd "$scratch" && env -u CINEMATIC_LIBRARY -u LD_LIBRARY_PATH -u CLASSPATH HOME="$scratch/home" XDG_CACHE_HOME="$scratch/home/.cache" \
  "$JAVA" $KOTLIN_JAVA_OPTS -jar "$jar" "$@") >"$scratch/out" 2>"$scratch/err"; }

status=0
python3 -c 'import sys, zipfile; sys.exit(0 if "linux-x86-64/libcinematic.so" in zipfile.ZipFile(sys.argv[1]).namelist() else 1)' "$jar" || status=$?
check "the jar carries linux-x86-64/libcinematic.so" "$status" ""

status=0; run search dune || status=$?
[ "$status" = 0 ] && [[ "$(head -1 "$scratch/out")" == *" 15249  Dune (1984)  "* ]]
check "java -jar from another directory, nothing else on the class path: \`search dune\` prints Dune (1984) first, exit 0" $? "status $status: $(head -3 "$scratch/out") $(cat "$scratch/err")"

[ -z "$(ls -A "$scratch/home")" ]
check "nothing was written under the empty HOME / XDG_CACHE_HOME" $? "$(find "$scratch/home")"

status=0; run search godfathr 2 || status=$?
[ "$status" = 0 ] && [[ "$(head -1 "$scratch/out")" == *"The Godfather: Part II (1974)"* ]]
check "\`search godfathr 2\` forgives the typo" $? "status $status: $(head -3 "$scratch/out") $(cat "$scratch/err")"

status=0; run search || status=$?
[ "$status" = 2 ] && grep -q usage "$scratch/err"
check "no query: usage on stderr, exit 2" $? "status $status: $(cat "$scratch/err")"

status=0; run search "$(printf 'a%.0s' {1..300})" || status=$?
[ "$status" = 2 ] && grep -q "256" "$scratch/err"
check "a query over 256 characters: invalid, exit 2" $? "status $status: $(cat "$scratch/err")"

status=0; run --help || status=$?
[ "$status" = 0 ] && grep -q "search" "$scratch/out" && grep -q "discover" "$scratch/out" && grep -q "detail" "$scratch/out" \
  && grep -q -- "--json" "$scratch/out"
check "--help lists search, discover, detail and --json, exit 0" $? "status $status: $(cat "$scratch/out" "$scratch/err")"

status=0; run search d || status=$?
[ "$status" = 2 ] && grep -q "at least 2 characters" "$scratch/err"
check "\`search d\`: too short, exit 2 (as Python's)" $? "status $status: $(cat "$scratch/err")"

status=0
python3 - "$jar" >"$scratch/listing" <<'PY' || status=$?
import sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
need = ["kotlin/jvm/internal/Intrinsics.class", "kotlin/jdk7/AutoCloseableKt.class", "kotlinx/coroutines/Job.class",
        "com/sun/jna/Native.class", "META-INF/licenses/kotlin/copyright", "META-INF/licenses/jna/copyright",
        "META-INF/licenses/kotlinx-coroutines/copyright", "META-INF/licenses/atomicfu/copyright"]
missing = [name for name in need if name not in names]
print(" ".join(missing))
sys.exit(1 if missing else 0)
PY
check "the jar bundles the Kotlin runtime (stdlib, -jdk7), coroutines and JNA, with their licence notices" "$status" "missing: $(cat "$scratch/listing")"

# The command line and Python's, over one table of cases (status, stdout, stderr).
venv_python="$("$CINEMATIC_ROOT/tools/ensure-venv.sh")"
status=0
PYTHONPATH="$CINEMATIC_ROOT/bindings/python" JAVA="$JAVA" KOTLIN_JAVA_OPTS="$KOTLIN_JAVA_OPTS" \
  "$venv_python" "$CINEMATIC_ROOT/bindings/kotlin/jvm/cli-parity.py" "$venv_python" "$jar" "$scratch" >"$scratch/parity" 2>&1 || status=$?
check "the jar's command line and Python's agree on every case of cli-parity.py ($(tail -1 "$scratch/parity"))" "$status" \
  "$(grep -A6 FAIL "$scratch/parity" | head -40)"

# The README's program ("Use"), compiled and run with the jar alone on the class path.
mkdir -p "$scratch/program"
python3 - "$CINEMATIC_ROOT/bindings/kotlin/README.md" >"$scratch/program/Hello.kt" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
use = text[text.index("## Use"):]
block = re.search(r"```kotlin\n(.*?)```", use, re.S).group(1)
imports = [line for line in block.splitlines() if line.startswith("import ")]
body = [line for line in block.splitlines() if not line.startswith("import ")]
print("\n".join(imports) + "\n\nfun main() {\n" + "\n".join("    " + line for line in body) + "\n}")
PY
status=0
(cd "$scratch/program" && env -u CLASSPATH "$KOTLINC" -no-stdlib -no-reflect -cp "$jar" Hello.kt -d classes) >"$scratch/compile" 2>&1 || status=$?
check "the README's Kotlin program compiles against the jar alone (\`use\` included)" "$status" "$(grep -v Xverify "$scratch/compile")"
status=0
(cd "$scratch/program" && env -u CINEMATIC_LIBRARY -u LD_LIBRARY_PATH -u CLASSPATH "$JAVA" $KOTLIN_JAVA_OPTS -cp "$jar:classes" HelloKt) \
  >"$scratch/out" 2>"$scratch/err" || status=$?
[ "$status" = 0 ] && grep -q "Dune (1984)" "$scratch/out"
check "the README's Kotlin program runs with the jar alone and prints Dune (1984)" $? "status $status: $(head -5 "$scratch/out") $(cat "$scratch/err")"

echo "jar check: $passed passed, $failed failed"
[ "$failed" = 0 ]
