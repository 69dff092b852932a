#!/usr/bin/env bash
# Runs the Python binding's test suite (which includes the terminal app's pty test).
#
#   bindings/python/run-tests.sh [pytest args...]
#
# Creates or reuses a venv at <repo>/build/venv, installs pytest and the `cinematic` package
# from bindings/python into it (again only when the package's sources changed since the last
# install), and runs `python -m pytest bindings/python/tests -q` from the repository root,
# exiting with pytest's status. Needs build/lib/libcinematic.so.0 (`make lib`).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
venv="$repo/build/venv"
python="${PYTHON:-python3}"
stamp="$venv/.cinematic-install-stamp"

if [ ! -e "$repo/build/lib/libcinematic.so.0" ] && [ -z "${CINEMATIC_LIBRARY:-}" ]; then
    echo "run-tests.sh: $repo/build/lib/libcinematic.so.0 is missing; run \`make lib\` first" >&2
    exit 2
fi

# The venv (pytest, jsonschema, hypothesis, hypothesis-jsonschema, mypy) is shared with the
# schema validation of the C and Kotlin suites.
vpy="$("$repo/tools/ensure-venv.sh")"
pip=("$vpy" -m pip install -q --disable-pip-version-check)

# Reinstall the package when anything under it is newer than the last install.
changed=""
if [ ! -e "$stamp" ]; then
    changed=yes
else
    changed="$(find "$here/cinematic" "$here/pyproject.toml" "$here/README.md" -newer "$stamp" \
        -not -name '*.pyc' -not -path '*/__pycache__*' -print -quit)"
fi
if [ -n "$changed" ]; then
    echo "run-tests.sh: installing bindings/python into $venv"
    (cd "$repo" && "${pip[@]}" --no-build-isolation --force-reinstall --no-deps ./bindings/python)
    rm -rf "$here/build" "$here/cinematic.egg-info"   # setuptools' in-tree leftovers
    touch "$stamp"
fi

cd "$repo"
# Typed hosts: the package and the terminal app, which uses the schema's generated types,
# are clean under mypy --strict.
if [ $# -eq 0 ]; then
    (cd "$here" && "$vpy" -m mypy --strict cinematic) && (cd "$repo/examples/python" && "$vpy" -m mypy --strict cinematic_tui) \
        || { echo "run-tests.sh: mypy --strict failed"; exit 1; }
fi
set +e
"$vpy" -m pytest bindings/python/tests -q "$@"
status=$?
set -e
exit "$status"
