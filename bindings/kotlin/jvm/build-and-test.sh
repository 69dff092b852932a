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
exec "$JAVA" $KOTLIN_JAVA_OPTS -Djna.library.path="$CINEMATIC_LIB_DIR" -cp "$BINDING_CP" \
  cinematic.tests.MainKt "$@"
