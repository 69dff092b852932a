#!/usr/bin/env bash
# The desktop app's typing benchmark (bench_typing.py): the longest event-loop stall while
# "the lord of the rings" is typed at 20 ms per key, offscreen. Part of `make bench`.
#
#   examples/desktop/bench-typing.sh [--rounds N]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
vpy="$("$here/ensure-qt.sh")"
export QT_QPA_PLATFORM=offscreen
export PYTHONPATH="$repo/bindings/python:$repo/examples/python:$here${PYTHONPATH:+:$PYTHONPATH}"
exec "$vpy" "$here/bench_typing.py" "$@"
