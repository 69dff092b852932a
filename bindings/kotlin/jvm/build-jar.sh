#!/usr/bin/env bash
# `make jar`: build/dist/cinematic-<version>.jar, the Kotlin/JVM binding with libcinematic.so
# inside at linux-x86-64/libcinematic.so (where JNA looks on the class path) and the command
# line cinematic.cli.MainKt. Run it from anywhere, with no -Djna.library.path:
#
#   kotlin -cp build/dist/cinematic-<version>.jar:/usr/share/java/jna.jar cinematic.cli.MainKt search dune
#
# The library's own dependencies (jansson, SQLite, zlib) come from the system, as for any
# Debian package (`make deps` installs them). Prints the jar's path.
set -euo pipefail
# shellcheck source=tools.sh
. "$(dirname "${BASH_SOURCE[0]}")/tools.sh"
find_kotlin_tools || exit 1
require_cinematic_library || exit 1
here="$CINEMATIC_ROOT/bindings/kotlin/jvm"
version="$(python3 "$CINEMATIC_ROOT/tools/wiregen.py" --version)"
kotlin_compile "$KOTLIN_OUT/jar-classes" "$JNA_JAR:$COROUTINES_CP:$KOTLIN_STDLIB_CP" \
  "$here/../common/src/commonMain/kotlin" "$here/src/main/kotlin" "$here/src/cli/kotlin"
dist="$CINEMATIC_ROOT/build/dist"
mkdir -p "$dist"
jar="$dist/cinematic-$version.jar"
python3 - "$jar" "$KOTLIN_OUT/jar-classes" "$CINEMATIC_LIB_DIR/libcinematic.so.0" <<'PY'
import os, sys, zipfile
jar, classes, library = sys.argv[1:]
partial = jar + ".tmp"
with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as out:
    out.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\r\nMain-Class: cinematic.cli.MainKt\r\n\r\n")
    for root, _, files in sorted(os.walk(classes)):
        for name in sorted(files):
            path = os.path.join(root, name)
            arcname = os.path.relpath(path, classes)
            if not arcname.startswith("META-INF/MANIFEST"):
                out.write(path, arcname)
    out.write(library, "linux-x86-64/libcinematic.so")
os.replace(partial, jar)   # atomic: a running JVM keeps the jar it opened
PY
echo "$jar"
