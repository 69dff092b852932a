#!/usr/bin/env bash
# `make dist`: the release's artifacts in build/dist/, each carrying the version, and their
# checksums:
#
#   cinematic-<version>.tar.gz                   the source of the commit (git archive of HEAD)
#   libcinematic.so.<version>                    the library (SONAME libcinematic.so.0)
#   cinematic-<version>-py3-none-manylinux_*.whl the Python package, the library inside
#   cinematic-<version>.jar                      the Kotlin/JVM binding, the library inside
#   SHA256SUMS                                   sha256sum of each, sorted by name
#
# Same commit, same bytes (docs/releasing.md, "Reproducible artifacts"): every timestamp is
# SOURCE_DATE_EPOCH (the commit's time unless set), archive entries are sorted with fixed
# permissions, gzip stores no name or time, and the library is built without the build
# directory's path (-file-prefix-map, Makefile REPRO_FLAGS). Needs `make lib` first.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
version="$(python3 tools/wiregen.py --version)"
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}"
export TZ=UTC
dist="build/dist"
rm -rf "$dist"
mkdir -p "$dist"
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    echo "dist: the working tree has uncommitted changes; the source tarball is HEAD's, the rest the tree's" >&2
fi

git archive --format=tar --prefix="cinematic-$version/" HEAD | gzip -n -9 > "$dist/cinematic-$version.tar.gz"
install -m 755 build/lib/libcinematic.so.0 "$dist/libcinematic.so.$version"
tools/build-wheel.sh > /dev/null
bindings/kotlin/jvm/build-jar.sh > /dev/null

# Each artifact says its version, inside as well as in its name.
python3 - "$dist" "$version" <<'PY'
import ctypes, io, sys, tarfile, zipfile, json
from pathlib import Path
dist, version = Path(sys.argv[1]), sys.argv[2]
with tarfile.open(dist / f"cinematic-{version}.tar.gz") as source:
    schema = json.load(source.extractfile(f"cinematic-{version}/schema/cinematic.schema.json"))
    assert schema["x-cinematic"]["version"] == version, "the source tarball's schema says " + schema["x-cinematic"]["version"]
library = ctypes.CDLL(str((dist / f"libcinematic.so.{version}").resolve()))
library.cinematic_version.restype = ctypes.c_char_p
assert library.cinematic_version().decode() == version, "the library says " + library.cinematic_version().decode()
(wheel,) = dist.glob(f"cinematic-{version}-py3-none-manylinux_*.whl")
with zipfile.ZipFile(wheel) as archive:
    metadata = archive.read(f"cinematic-{version}.dist-info/METADATA").decode()
    assert f"\nVersion: {version}\n" in metadata, "the wheel's METADATA has no Version: " + version
with zipfile.ZipFile(dist / f"cinematic-{version}.jar") as archive:
    manifest = archive.read("META-INF/MANIFEST.MF").decode()
    assert f"Implementation-Version: {version}\r\n" in manifest, "the jar's manifest has no Implementation-Version"
print(f"dist: every artifact says {version}")
PY
(cd "$dist" && LC_ALL=C sha256sum -- * | LC_ALL=C sort -k2 > SHA256SUMS)
cat "$dist/SHA256SUMS"
