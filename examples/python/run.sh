#!/usr/bin/env bash
# Launches the terminal movie app with the in-tree bindings (no install needed):
#
#   examples/python/run.sh [--favorites PATH] [--catalog PATH]
#
# Keys: the app's keymap (F1 lists them): type to search, Up/Down move, Enter opens the
# detail, F toggles the favorite, Esc goes back, Tab switches tabs, Ctrl-Q quits.
# Needs build/lib/libcinematic.so.0 (`make lib`). Favorites persist in
# $XDG_DATA_HOME/cinematic/favorites.sqlite (else ~/.local/share/cinematic/).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
export PYTHONPATH="$repo/bindings/python:$here${PYTHONPATH:+:$PYTHONPATH}"
exec "${PYTHON:-python3}" -m cinematic_tui "$@"
