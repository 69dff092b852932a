#!/usr/bin/env bash
# Launches the terminal movie app with the in-tree bindings (no install needed):
#
#   examples/python/run.sh [--favorites PATH] [--catalog PATH]
#
# Keys: Tab/Left/Right switch tabs, type to search, Up/Down move, Enter opens the detail,
# f toggles the favorite, Esc/Backspace goes back, Ctrl-Q (or Esc then q) quits.
# Needs build/lib/libcinematic.so.0 (`make lib`). Favorites persist in
# $XDG_DATA_HOME/cinematic/favorites.sqlite (else ~/.local/share/cinematic/).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
export PYTHONPATH="$repo/bindings/python:$here${PYTHONPATH:+:$PYTHONPATH}"
exec "${PYTHON:-python3}" -m cinematic_tui "$@"
