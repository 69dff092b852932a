#!/usr/bin/env bash
# Builds (only when sources changed) and runs the Kotlin type-ahead example against
# build/lib/libcinematic, reusing the JVM binding's compiled classes (build/kotlin/classes).
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
build_binding
# The binding's stamp is listed with the sources: a rebuilt binding rebuilds the example.
kotlin_compile "$KOTLIN_OUT/examples" "$BINDING_CP" "$here" "$KOTLIN_OUT/classes.stamp"

# shellcheck disable=SC2086 # KOTLIN_JAVA_OPTS is a list of flags
exec "$JAVA" $KOTLIN_JAVA_OPTS -Djna.library.path="$CINEMATIC_LIB_DIR" \
  -cp "$KOTLIN_OUT/examples:$BINDING_CP" cinematic.examples.TypeAheadKt "$@"
