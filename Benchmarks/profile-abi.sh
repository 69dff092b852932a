#!/usr/bin/env bash
# What a keystroke costs through the C API and in the in-process Swift store, in instructions
# (valgrind --tool=callgrind), side by side: `cinematic-bench abi`'s keystrokes, one side per
# process (Benchmarks/abi-profile), counting only the typing loop on the typing thread (what
# the benchmark times; effects started on other threads are not counted on either side).
# Prints both per keystroke, their ratio, the app store against the search store (both observed
# with patches), and each side's top functions (inclusive).
#
#   Benchmarks/profile-abi.sh [ROUNDS]     (default 2000; needs valgrind and `make lib`)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
rounds="${1:-2000}"
index="$repo/build/catalog-index/catalog.idx"
[ -e "$index" ] || { echo "profile-abi: $index is missing: run \`make lib\`" >&2; exit 2; }
cd "$repo"
swift build -c release --product cinematic-abi-profile > /dev/null
# PROFILE_OUT=DIR keeps the callgrind files (c.out, swift.out) for callgrind_annotate.
work="${PROFILE_OUT:-$(mktemp -d)}"
mkdir -p "$work"
[ -n "${PROFILE_OUT:-}" ] || trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read the Swift toolchain's debug info: profile a copy without it.
objcopy --strip-debug .build/release/cinematic-abi-profile "$work/profile"
declare -A loop=([swift]=typeIntoSwiftStore [c]=typeThroughCAPI) per_key
for side in swift c; do
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect="*${loop[$side]}*" \
        --callgrind-out-file="$work/$side.out" "$work/profile" "$side" "$index" "$rounds" > /dev/null 2> "$work/$side.log"
    total=$(grep -o 'Collected : [0-9]*' "$work/$side.log" | grep -o '[0-9]*$')
    per_key[$side]=$(( total / rounds ))
done
echo "instructions per keystroke on the typing thread (callgrind, $rounds keystrokes, 20 movies in the state)"
echo "  in-process Swift store  ${per_key[swift]}"
echo "  C API (JSON, immediate) ${per_key[c]}"
awk -v c="${per_key[c]}" -v s="${per_key[swift]}" 'BEGIN { r = c / s; printf "  ratio C API / in-process  %.2fx  target: the ABI within 1.5x the in-process store, in instructions: %s\n", r, (r <= 1.5 ? "met" : "NOT met") }'
# The app store against the search store alone, both through the C API observed with patches
# (`cinematic-bench app`'s comparison, in instructions).
declare -A patched
for side in search-patches app-patches; do
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect="*typeThroughCAPI*" \
        --callgrind-out-file="$work/$side.out" "$work/profile" "$side" "$index" "$rounds" > /dev/null 2> "$work/$side.log"
    patched[$side]=$(( $(grep -o 'Collected : [0-9]*' "$work/$side.log" | grep -o '[0-9]*$') / rounds ))
done
echo "instructions per keystroke, observed with patches: search store ${patched[search-patches]}, app store ${patched[app-patches]}"
awk -v a="${patched[app-patches]}" -v s="${patched[search-patches]}" 'BEGIN { r = a / s; printf "  ratio app / search  %.2fx  target: within 1.2x, in instructions: %s\n", r, (r <= 1.2 ? "met" : "NOT met") }'
set +o pipefail  # (head ends the listings early)
for side in c swift; do
    echo "  $side: top functions, inclusive instructions per keystroke"
    callgrind_annotate --inclusive=yes "$work/$side.out" 2>/dev/null | grep -E '^ *[0-9,]+ ' | head -${TOP:-30} \
        | awk -v n="$rounds" '{ count = $1; gsub(",", "", count); $1 = ""; $2 = ""; printf "    %8d %s\n", count / n, substr($0, 1, 160) }'
done
