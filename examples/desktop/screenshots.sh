#!/usr/bin/env bash
# `make screenshots`: each screen of the desktop app rendered offscreen to OUT_DIR/{search,
# discover,favorites,detail}.png (default docs/screenshots), in real states (screenshots.py).
#
#   examples/desktop/screenshots.sh [OUT_DIR]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
vpy="$("$here/ensure-qt.sh")"
export QT_QPA_PLATFORM=offscreen
export PYTHONPATH="$repo/bindings/python:$repo/examples/python:$here${PYTHONPATH:+:$PYTHONPATH}"
exec "$vpy" "$here/screenshots.py" "$@"
