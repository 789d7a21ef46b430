#!/bin/bash
# Compares release builds of Benchmarks on the playback section's frame figures, for a machine whose
# speed drifts (a shared virtual machine): runs `LOOKAROUND_BENCH_FRAMES_ONLY=1 BINARY playback` for
# each binary in turn, ROUNDS times (default 5), under the build lock, and prints per binary the
# sorted per-run figures of the depth warp alone (the same camera, and a turning one), the crossfade
# (code that rarely changes: the control for the machine's speed), the composed frame's median and
# mean over a move, and the set-up of a move.
#
# With SECTION=catalog it runs `BINARY catalog` instead and prints the nearest-within-50 m queries per
# second of the in-memory index one query at a time, in batches (n/a for a binary without the batched
# path), and the SQLite R*Tree peer of the same run.
#
#   scripts/bench-alternate.sh /tmp/bench-before /tmp/bench-after   two copies of .build/release/Benchmarks
#   ROUNDS=7 scripts/bench-alternate.sh A B C
#   SECTION=catalog ROUNDS=3 scripts/bench-alternate.sh A B
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: [ROUNDS=n] $0 BENCHMARKS-BINARY..." >&2; exit 64; }
for b in "$@"; do [ -x "$b" ] || { echo "error: $b is not an executable (copy .build/release/Benchmarks after each build)" >&2; exit 66; }; done
rounds=${ROUNDS:-5}
case "$rounds" in ''|*[!0-9]*) echo "error: ROUNDS=$rounds: a whole number of rounds, 1…100" >&2; exit 64;; esac
[ "$rounds" -ge 1 ] && [ "$rounds" -le 100 ] || { echo "error: ROUNDS=$rounds: 1…100" >&2; exit 64; }
section=${SECTION:-playback}
case "$section" in playback|catalog) ;; *) echo "error: SECTION=$section: playback or catalog" >&2; exit 64;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The figure a sed pattern's first group takes from the round's output ($tmp/out), or nothing.
figure() { sed -n "s/$1/\\1/p" "$tmp/out"; }

# Sorted figures of column $1 of the file $2, on one line.
col() { cut -d' ' -f"$1" "$2" | sort -n | tr '\n' ' '; }

# Runs every binary in turn, ROUNDS times: `$1 BINARY FILE` runs it once (its output in $tmp/out),
# appends its figures to FILE and reports the round; then `$2 BINARY FILE` prints each binary's
# sorted figures.
alternate() {
    local measure=$1 summary=$2 r k
    shift 2
    for r in $(seq 1 "$rounds"); do
        for k in $(seq 1 $#); do "$measure" "${!k}" "$tmp/$k"; done
    done
    for k in $(seq 1 $#); do "$summary" "${!k}" "$tmp/$k"; done
}

catalog_round() {
    local b=$1 single batched rtree
    flock /tmp/lookaround-build.lock "$b" catalog > "$tmp/out" 2>&1 || true
    single=$(figure '^nearest within 50 m, in-memory index  *\([0-9]*\) q\/s.*')
    batched=$(figure '^  same, in batches of [0-9]* (prefetching)  *\([0-9]*\) q\/s.*')
    rtree=$(figure '^same queries, SQLite R\*Tree + ORDER BY  *\([0-9]*\) q\/s.*')
    [ -n "$single" ] && [ -n "$rtree" ] || { echo "error: $b printed no catalog query figures:" >&2; cat "$tmp/out" >&2; exit 70; }
    echo "$single ${batched:-n/a} $rtree" >> "$2"
    echo "round $r/$rounds $(basename "$b"): index $single q/s, batched ${batched:-n/a} q/s, R*Tree $rtree q/s" >&2
}

catalog_summary() {
    echo "$(basename "$1")  index q/s: $(col 1 "$2")| batched q/s: $(col 2 "$2")| R*Tree q/s: $(col 3 "$2")"
}

playback_round() {
    local b=$1 warp turning fade composed mean setup
    flock /tmp/lookaround-build.lock env LOOKAROUND_BENCH_FRAMES_ONLY=1 "$b" playback > "$tmp/out" 2>&1 || true
    warp=$(figure '^   depth warp 640.*): \([0-9.]*\) ms per.*')
    turning=$(figure '^   depth warp, the camera turning.*: \([0-9.]*\) ms per.*')
    fade=$(figure '^   depth warp 640.*crossfade \([0-9.]*\) ms.*')
    composed=$(figure '^   composed.*median \([0-9.]*\) ms,.*')
    mean=$(figure '^   composed.* mean \([0-9.]*\) ms,.*')
    setup=$(figure '^   depth warp 640.*set-up per move \([0-9.]*\) ms.*')
    [ -n "$warp" ] && [ -n "$composed" ] || { echo "error: $b printed no playback figures:" >&2; cat "$tmp/out" >&2; exit 70; }
    echo "$warp $fade $composed $setup ${mean:-n/a} ${turning:-n/a}" >> "$2"
    echo "round $r/$rounds $(basename "$b"): warp $warp ms (turning camera ${turning:-n/a} ms), crossfade $fade ms, composed median $composed ms, mean ${mean:-n/a} ms, set-up $setup ms" >&2
}

playback_summary() {
    echo "$(basename "$1")  warp: $(col 1 "$2")| turning camera: $(col 6 "$2")| crossfade: $(col 2 "$2")| composed median: $(col 3 "$2")| mean: $(col 5 "$2")| set-up: $(col 4 "$2")"
}

alternate "${section}_round" "${section}_summary" "$@"
