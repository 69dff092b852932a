#!/usr/bin/env bash
# Builds (only when sources changed) and runs the Kotlin type-ahead example against
# build/lib/libcinematic; it is compiled with the JVM binding and its tests (build/kotlin/classes).
#
#   examples/kotlin/run.sh                        # types "star wars", manual clock
#   examples/kotlin/run.sh dune                   # another query
#   examples/kotlin/run.sh --real-clock --keystroke-ms=300 star wars
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../../bindings/kotlin/jvm/tools.sh
. "$here/../../bindings/kotlin/jvm/tools.sh"

find_kotlin_tools || exit 1
require_cinematic_library || exit 1
build_binding # compiles this example too, with the binding and its tests

# shellcheck disable=SC2086 # KOTLIN_JAVA_OPTS is a list of flags
exec "$JAVA" $KOTLIN_JAVA_OPTS -Djna.library.path="$CINEMATIC_LIB_DIR" \
  -cp "$BINDING_CP" cinematic.examples.TypeAheadKt "$@"
