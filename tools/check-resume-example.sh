#!/usr/bin/env bash
# Runs examples/c/cinematic_resume.c across two processes: the first searches "star", loads
# 3 pages, opens a detail and saves the runtime snapshot; the second restores it. Both print
# what they show once loaded: the outputs must be the same (and the search must have 3 pages).
#
#   tools/check-resume-example.sh build/bin/cinematic-resume
set -euo pipefail
example="$1"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
"$example" "$scratch/session.json" star 3 15249 > "$scratch/saved.txt"
"$example" "$scratch/session.json" > "$scratch/restored.txt"
cat "$scratch/restored.txt"
grep -q '^search "star": 60 movies, 3 pages, first ' "$scratch/saved.txt" || { echo "the first run did not load 3 pages:"; cat "$scratch/saved.txt"; exit 1; }
grep -q '^detail 15249: ' "$scratch/saved.txt" || { echo "the first run did not open the detail"; exit 1; }
diff -u "$scratch/saved.txt" "$scratch/restored.txt" || { echo "the restored run shows something else than was saved"; exit 1; }
test "$(ls -A "$scratch")" = "$(printf 'restored.txt\nsaved.txt\nsession.json')" || { echo "temporary files were left: $(ls -A "$scratch")"; exit 1; }
echo "resume example: 1 passed, 0 failed"
