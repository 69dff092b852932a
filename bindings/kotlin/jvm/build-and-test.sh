#!/usr/bin/env bash
# Builds the Kotlin/JVM binding of libcinematic with its tests (one kotlinc run, skipped when
# no source changed) into build/kotlin/, then runs the tests against build/lib. The last line
# printed is "N passed, N failed"; the exit status is non-zero on any failure.
#
#   bindings/kotlin/jvm/build-and-test.sh                 # every test
#   bindings/kotlin/jvm/build-and-test.sh "search promises" # tests whose name contains it
#
# Needs kotlinc, java and the JNA jar (Debian: apt-get install -y kotlin libjna-java; installed
# automatically when running as root) and libcinematic (make lib).
set -euo pipefail

# shellcheck source=tools.sh
. "$(dirname "${BASH_SOURCE[0]}")/tools.sh"

find_kotlin_tools || exit 1
require_cinematic_library || exit 1
build_binding

# shellcheck disable=SC2086 # KOTLIN_JAVA_OPTS is a list of flags
# Every state, envelope and request the binding receives is logged and then validated
# against the schema (tools/wirecheck.py).
wire_log="$CINEMATIC_ROOT/build/wire/kotlin.jsonl"
mkdir -p "$(dirname "$wire_log")" && rm -f "$wire_log"
status=0
"$JAVA" $KOTLIN_JAVA_OPTS -Djna.library.path="$CINEMATIC_LIB_DIR" -Dcinematic.wireLog="$wire_log" -Dcinematic.root="$CINEMATIC_ROOT" -cp "$BINDING_CP" \
  cinematic.tests.MainKt "$@" || status=$?
echo "== schema validation of what the Kotlin binding received"
"$("$CINEMATIC_ROOT/tools/ensure-venv.sh")" "$CINEMATIC_ROOT/tools/wirecheck.py" "$wire_log" || status=1
exit "$status"
