#!/usr/bin/env bash
# Runs the desktop app's tests: real widgets on Qt's offscreen platform (pytest-qt), after
# mypy --strict on the app, and a smoke test of the real app on Xvfb. Installs PySide6-Essentials
# and pytest-qt into build/venv when missing (ensure-qt.sh), and Xvfb with Qt's X libraries
# (ensure-xvfb.sh: apt-get as root, else the command to run). Needs build/lib/libcinematic.so.0
# (`make lib`) or CINEMATIC_LIBRARY.
#
#   examples/desktop/run-tests.sh [pytest args...]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
if [ ! -e "$repo/build/lib/libcinematic.so.0" ] && [ -z "${CINEMATIC_LIBRARY:-}" ]; then
    echo "run-tests.sh: $repo/build/lib/libcinematic.so.0 is missing; run \`make lib\` first" >&2
    exit 2
fi
vpy="$("$here/ensure-qt.sh")"
"$here/ensure-xvfb.sh" "$vpy" > /dev/null     # the smoke test runs the real app on Xvfb
export QT_QPA_PLATFORM=offscreen
export PYTHONPATH="$repo/bindings/python:$repo/examples/python:$here${PYTHONPATH:+:$PYTHONPATH}"
if [ $# -eq 0 ]; then
    # The app is checked; the binding it imports is typed from its sources, its own errors are
    # its suite's business (--follow-imports=silent).
    (cd "$here" && MYPYPATH="$repo/bindings/python" "$vpy" -m mypy --strict --follow-imports=silent cinematic_desktop) \
        || { echo "run-tests.sh: mypy --strict failed"; exit 1; }
fi
cd "$here"
exec "$vpy" -m pytest tests -q -p no:cacheprovider "$@"
