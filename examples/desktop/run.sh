#!/usr/bin/env bash
# Launches the desktop movie app (PySide6) with the in-tree bindings:
#
#   examples/desktop/run.sh [--favorites PATH] [--catalog PATH] [--record FILE] [--live URL]
#                           [--state-file PATH] [--fresh]
#
# Installs PySide6 into the project's venv (build/venv, tools/ensure-venv.sh) when missing.
# Needs build/lib/libcinematic.so.0 (`make lib`) and a display (DISPLAY or WAYLAND_DISPLAY,
# or QT_QPA_PLATFORM=offscreen); without one it says so in one line and exits 2.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [[ "${QT_QPA_PLATFORM:-}" != offscreen* ]]; then
    echo "cinematic-desktop: no display (set DISPLAY or WAYLAND_DISPLAY, or QT_QPA_PLATFORM=offscreen)" >&2
    exit 2
fi
vpy="$("$here/ensure-qt.sh")"
export PYTHONPATH="$repo/bindings/python:$repo/examples/python:$here${PYTHONPATH:+:$PYTHONPATH}"
exec "$vpy" -m cinematic_desktop "$@"
