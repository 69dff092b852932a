# shellcheck shell=bash
# Sourced by build-and-test.sh and examples/kotlin/run.sh. Finds (or, as root, installs)
# kotlinc, java, the Kotlin standard library and the JNA jar from Debian, and compiles Kotlin
# sources only when they changed. No Gradle or Maven: kotlinc and /usr/share/java only.
#
# After `find_kotlin_tools`: KOTLINC, JAVA, JNA_JAR, COROUTINES_CP (kotlinx-coroutines + atomicfu), KOTLIN_STDLIB_CP.
# After `build_binding`:     BINDING_CP (the binding + its tests + JNA + coroutines + the Kotlin stdlib).
# Always:                    CINEMATIC_ROOT, KOTLIN_OUT (build/kotlin), CINEMATIC_LIB_DIR (build/lib),
#                            KOTLIN_JAVA_OPTS (JVM flags for quick start-up).

_cinematic_kotlin_jvm="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CINEMATIC_ROOT="$(cd "$_cinematic_kotlin_jvm/../../.." && pwd)"
KOTLIN_OUT="${KOTLIN_OUT:-$CINEMATIC_ROOT/build/kotlin}"
CINEMATIC_LIB_DIR="${CINEMATIC_LIB_DIR:-$CINEMATIC_ROOT/build/lib}"
KOTLIN_JAVA_OPTS="${KOTLIN_JAVA_OPTS:--XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto}"
# Debian's coroutines jar needs atomicfu at run time but its package does not depend on it.
KOTLIN_APT_PACKAGES="kotlin libjna-java libkotlinx-coroutines-java libkotlinx-atomicfu-java"

# Sets KOTLINC, JAVA, JNA_JAR and KOTLIN_STDLIB_CP from the environment or the usual Debian
# places; returns 1 (having said why) when something is missing.
_locate_kotlin_tools() {
  KOTLINC="${KOTLINC:-$(command -v kotlinc 2>/dev/null || true)}"
  JAVA="${JAVA:-$(command -v java 2>/dev/null || true)}"
  if [ -z "${JNA_JAR:-}" ]; then
    local jar
    for jar in /usr/share/java/jna.jar /usr/share/java/jna-[0-9]*.jar; do
      if [ -f "$jar" ]; then JNA_JAR="$jar"; break; fi
    done
  fi
  if [ -z "${COROUTINES_JAR:-}" ]; then
    local coroutines
    for coroutines in /usr/share/java/kotlinx-coroutines-core.jar /usr/share/java/kotlinx-coroutines-core-[0-9]*.jar; do
      if [ -f "$coroutines" ]; then COROUTINES_JAR="$coroutines"; break; fi
    done
  fi
  ATOMICFU_JAR="${ATOMICFU_JAR:-/usr/share/java/atomicfu.jar}"
  KOTLIN_STDLIB_CP=""
  if [ -n "$KOTLINC" ]; then
    local home lib
    home="$(cd "$(dirname "$(readlink -f "$KOTLINC")")/.." && pwd)"
    for lib in "$home/lib" /usr/share/java; do
      if [ -f "$lib/kotlin-stdlib.jar" ] && [ -f "$lib/kotlin-stdlib-jdk7.jar" ]; then
        KOTLIN_STDLIB_CP="$lib/kotlin-stdlib.jar:$lib/kotlin-stdlib-jdk7.jar"
        break
      fi
    done
  fi
  local missing=()
  [ -n "$KOTLINC" ] || missing+=("kotlinc")
  [ -n "$JAVA" ] || missing+=("java")
  [ -n "${JNA_JAR:-}" ] && [ -f "$JNA_JAR" ] || missing+=("the JNA jar")
  [ -n "$KOTLIN_STDLIB_CP" ] || missing+=("kotlin-stdlib.jar")
  [ -n "${COROUTINES_JAR:-}" ] && [ -f "$COROUTINES_JAR" ] || missing+=("the kotlinx-coroutines jar")
  [ -f "$ATOMICFU_JAR" ] || missing+=("the atomicfu jar")
  COROUTINES_CP="${COROUTINES_JAR:-}:$ATOMICFU_JAR"
  if [ ${#missing[@]} -gt 0 ]; then
    _kotlin_missing="${missing[*]}"
    return 1
  fi
}

# Finds the tools, installing the Debian packages when they are missing and we are root.
find_kotlin_tools() {
  if _locate_kotlin_tools; then return 0; fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "missing $_kotlin_missing; installing $KOTLIN_APT_PACKAGES" >&2
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $KOTLIN_APT_PACKAGES >/dev/null 2>&1; then
      apt-get update -qq >/dev/null
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $KOTLIN_APT_PACKAGES >/dev/null
    fi
    KOTLINC="" JAVA=""
    if _locate_kotlin_tools; then return 0; fi
  fi
  echo "missing $_kotlin_missing; run:  sudo apt-get install -y $KOTLIN_APT_PACKAGES" >&2
  return 1
}

# kotlin_compile OUT CLASSPATH SRC_DIR...: compiles every .kt file under the SRC_DIRs into
# the directory OUT with one kotlinc run. Skipped when OUT.stamp is newer than every source
# (and the source dirs) and records the same compiler, classpath and file list. Builds into
# OUT.tmp and renames, under a lock, so concurrent callers never see half a build.
kotlin_compile() {
  local out="$1" cp="$2"
  shift 2
  mkdir -p "$(dirname "$out")"
  (
    flock 9 2>/dev/null || true
    local sources signature stamp="$out.stamp"
    mapfile -t sources < <(find "$@" -name '*.kt' | LC_ALL=C sort)
    signature="$KOTLINC|$cp|${sources[*]}"
    if [ -d "$out" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$signature" ] &&
       [ -z "$(find "$@" -newer "$stamp" -print -quit)" ]; then
      exit 0
    fi
    echo "kotlinc: compiling ${#sources[@]} files into ${out#"$CINEMATIC_ROOT"/}" >&2
    rm -rf "$out.tmp" "$stamp"
    mkdir -p "$out.tmp"
    touch "$stamp.new" # taken before compiling: an edit made meanwhile forces a rebuild
    local status=0
    # The shared source set (commonMain, with expect declarations) compiles as common code
    # together with the platform's actuals, as a multiplatform build would.
    local common=() source
    for source in "${sources[@]}"; do case "$source" in */commonMain/*) common+=("$source") ;; esac; done
    local multiplatform=()
    if [ ${#common[@]} -gt 0 ]; then multiplatform=(-Xmulti-platform "-Xcommon-sources=$(IFS=,; echo "${common[*]}")"); fi
    "$KOTLINC" -jvm-target 1.8 -Xuse-experimental=kotlin.Experimental "${multiplatform[@]}" -cp "$cp" -d "$out.tmp" "${sources[@]}" 2>"$out.log" || status=$?
    # The Debian kotlinc script passes a JVM flag that Java 17 warns about; hide only that.
    grep -v -e '^OpenJDK 64-Bit Server VM warning: Options -Xverify:none' "$out.log" >&2 || true
    if [ "$status" = 0 ] && grep -q ': warning:' "$out.log"; then status=1; echo "kotlinc: warnings are errors here" >&2; fi
    if [ "$status" != 0 ]; then
      rm -rf "$out.tmp" "$stamp.new"
      echo "kotlinc failed (status $status)" >&2
      exit "$status"
    fi
    rm -rf "$out"
    mv "$out.tmp" "$out"
    rm -f "$out.log"
    printf '%s' "$signature" >"$stamp.new"
    mv "$stamp.new" "$stamp"
  ) 9>"$out.lock"
}

# check_common_sources: compiles the shared source set (bindings/kotlin/common) alone as
# *common* code, against the common standard library and kotlinx-coroutines' common part
# (kotlinc's metadata compiler): a JVM-only call there (String.format, synchronized, java.*)
# fails here, though the JVM build would accept it, so the Kotlin/Native binding, which
# shares these sources but cannot be compiled on this machine, gets them checked too.
# Skipped when nothing changed since the last successful check.
check_common_sources() {
  local common="$_cinematic_kotlin_jvm/../common/src/commonMain/kotlin" out="$KOTLIN_OUT/common-metadata"
  local stamp="$out.stamp"
  if [ -f "$stamp" ] && [ -z "$(find "$common" -newer "$stamp" -print -quit)" ]; then return 0; fi
  local lib="/usr/share/java" sources
  mapfile -t sources < <(find "$common" -name '*.kt' | LC_ALL=C sort)
  echo "kotlinc: checking ${#sources[@]} common files against the common standard library" >&2
  mkdir -p "$KOTLIN_OUT"
  touch "$stamp.new"
  rm -rf "$out"
  if ! KOTLIN_COMPILER=org.jetbrains.kotlin.cli.metadata.K2MetadataCompiler "$KOTLINC" -Xmulti-platform \
      -Xuse-experimental=kotlin.Experimental -classpath "$lib/kotlin-stdlib-common.jar:$lib/kotlinx-coroutines-core-common.jar:$lib/atomicfu-common.jar" \
      -d "$out" "${sources[@]}" 2>"$out.log"; then
    grep -v -e 'Options -Xverify:none' "$out.log" >&2 || true
    rm -f "$stamp.new"
    echo "the shared Kotlin sources (bindings/kotlin/common) use something that is not common Kotlin" >&2
    return 1
  fi
  if grep -q ': warning:' "$out.log"; then  # zero warnings, as kotlin_compile
    grep ': warning:' "$out.log" >&2
    rm -f "$stamp.new"
    echo "the shared Kotlin sources (bindings/kotlin/common) compile with warnings" >&2
    return 1
  fi
  mv "$stamp.new" "$stamp"
}

# Compiles the binding and its tests together (one kotlinc run) into build/kotlin/classes.
build_binding() {
  check_common_sources || return 1
  kotlin_compile "$KOTLIN_OUT/classes" "$JNA_JAR:$COROUTINES_CP:$KOTLIN_STDLIB_CP" \
    "$_cinematic_kotlin_jvm/../common/src/commonMain/kotlin" "$_cinematic_kotlin_jvm/src/main/kotlin" "$_cinematic_kotlin_jvm/src/test/kotlin" \
    "$CINEMATIC_ROOT/examples/kotlin"
  BINDING_CP="$KOTLIN_OUT/classes:$JNA_JAR:$COROUTINES_CP:$KOTLIN_STDLIB_CP"
}

# Fails with the command to run when libcinematic has not been built.
require_cinematic_library() {
  if [ ! -e "$CINEMATIC_LIB_DIR/libcinematic.so" ]; then
    echo "libcinematic is not built ($CINEMATIC_LIB_DIR/libcinematic.so is missing); run:  make -C $CINEMATIC_ROOT lib" >&2
    return 1
  fi
}
