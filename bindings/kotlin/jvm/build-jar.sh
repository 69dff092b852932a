#!/usr/bin/env bash
# `make jar`: build/dist/cinematic-<version>.jar, a runnable jar: the Kotlin/JVM binding, the
# command line cinematic.cli.MainKt (its Main-Class), libcinematic.so at
# linux-x86-64/libcinematic.so (where JNA looks on the class path), and everything they need
# at run time bundled inside (nothing else on the class path):
#
#   java -jar build/dist/cinematic-<version>.jar search dune
#
# Bundled, each under its own licence (notices in META-INF/licenses/ of the jar):
#   kotlin-stdlib, -jdk7, -jdk8         Apache License 2.0
#   kotlinx-coroutines-core, atomicfu  Apache License 2.0
#   JNA (+ its libjnidispatch.so)      Apache License 2.0 or LGPL 2.1 (dual; used under Apache 2.0)
# A program of your own compiles against the jar alone (kotlinc -cp cinematic-<v>.jar) and
# runs with it alone (kotlin -cp cinematic-<v>.jar:. or java -cp ...): `use` on a Runtime
# needs kotlin-stdlib-jdk7, which is inside (bindings/kotlin/README.md; checked by test-jar.sh).
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
dispatch=""
for candidate in /usr/lib/x86_64-linux-gnu/jni/libjnidispatch.system.so /usr/lib/jni/libjnidispatch.system.so; do
  if [ -f "$candidate" ]; then dispatch="$candidate"; break; fi
done
kotlin_lib="$(dirname "${KOTLIN_STDLIB_CP%%:*}")"
bundled="$kotlin_lib/kotlin-stdlib.jar:$kotlin_lib/kotlin-stdlib-jdk7.jar"
[ -f "$kotlin_lib/kotlin-stdlib-jdk8.jar" ] && bundled="$bundled:$kotlin_lib/kotlin-stdlib-jdk8.jar"
bundled="$bundled:$COROUTINES_CP:$JNA_JAR"
python3 - "$jar" "$KOTLIN_OUT/jar-classes" "$CINEMATIC_LIB_DIR/libcinematic.so.0" "$bundled" "$dispatch" "$version" <<'PY'
import os, sys, time, zipfile
jar, classes, library, bundled, dispatch, version = sys.argv[1:]
partial = jar + ".tmp"
# Same inputs, same bytes: every entry stamped SOURCE_DATE_EPOCH (the commit's time under
# `make dist`; zip stores local time, read as UTC), fixed permissions, a fixed order.
stamp = time.gmtime(max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800))[:6]
seen = set()
notices = {
    "kotlin": ["/usr/share/doc/kotlin/copyright", "/usr/share/doc/kotlin/NOTICE.txt"],
    "kotlinx-coroutines": ["/usr/share/doc/libkotlinx-coroutines-java/copyright"],
    "atomicfu": ["/usr/share/doc/libkotlinx-atomicfu-java/copyright"],
    "jna": ["/usr/share/doc/libjna-java/copyright", "/usr/share/doc/libjna-jni/copyright"],
}
with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as out:
    def add(name, data):
        if name in seen:
            return
        seen.add(name)
        info = zipfile.ZipInfo(name, date_time=stamp)
        info.compress_type, info.external_attr, info.create_system = zipfile.ZIP_DEFLATED, 0o644 << 16, 3
        out.writestr(info, data)
    add("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\r\nMain-Class: cinematic.cli.MainKt\r\n"
        f"Implementation-Title: cinematic\r\nImplementation-Version: {version}\r\n\r\n")
    for root, _, files in sorted(os.walk(classes)):
        for name in sorted(files):
            path = os.path.join(root, name)
            arcname = os.path.relpath(path, classes)
            if not arcname.startswith("META-INF/MANIFEST"):
                add(arcname, open(path, "rb").read())
    add("linux-x86-64/libcinematic.so", open(library, "rb").read())
    # The run-time dependencies, merged (first copy of a name wins; signatures and module
    # descriptors of the merged jars dropped).
    for path in filter(None, bundled.split(":")):
        with zipfile.ZipFile(path) as dependency:
            for info in dependency.infolist():
                name = info.filename
                upper = name.upper()
                if info.is_dir() or upper == "META-INF/MANIFEST.MF" or name.endswith("module-info.class") \
                        or upper.startswith("META-INF/") and upper.endswith((".SF", ".RSA", ".DSA")):
                    continue
                add(name, dependency.read(name))
    if dispatch:   # JNA's own native part, where JNA looks for it inside a jar
        add("com/sun/jna/linux-x86-64/libjnidispatch.so", open(dispatch, "rb").read())
    for component, files in notices.items():
        for index, path in enumerate(files):
            if os.path.exists(path):
                add(f"META-INF/licenses/{component}/{os.path.basename(path)}", open(path, "rb").read())
os.replace(partial, jar)   # atomic: a running JVM keeps the jar it opened
PY
echo "$jar"
