#!/usr/bin/env bash
# Builds the libFuzzer targets (the separate package in Fuzz/) and runs each for a bounded time, one
# after another, each run holding the build lock (so two never run at once, and other builds get in
# between targets). Prints, per target: executions, seconds, corpus size, and whether it found anything.
#
#   scripts/fuzz.sh                    every target, FUZZ_SECONDS (default 60) each
#   FUZZ_SECONDS=600 scripts/fuzz.sh FuzzJPEG FuzzPNG
#   FUZZ_RUNS=1000000 scripts/fuzz.sh FuzzHTTP     a number of executions instead of a time
#
# New inputs libFuzzer finds go to .build/fuzz/corpus/<target>/ (Fuzz/corpus/<target>/, the committed
# seeds, is only read); a crash, leak, timeout or out-of-memory input goes to .build/fuzz/artifacts/<target>/
# and the script exits 1 after the remaining targets ran. Fuzz/lsan-suppressions.txt lists leaks found in
# code outside this project (Foundation's XMLParser), each with where it was found.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
LOCK=/tmp/lookaround-build.lock
SWIFT=${SWIFT:-swift}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_RUNS=${FUZZ_RUNS:-}
ALL=(FuzzJPEG FuzzPNG FuzzMetadata FuzzOSM FuzzArguments FuzzGeoJSON FuzzGPX FuzzSidecar FuzzTileFile FuzzHTTP FuzzHTTPConnection)
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=("${ALL[@]}")

FLAGS=(-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -enable-testing)
echo "fuzz: building Fuzz/ (release, -sanitize=fuzzer,address)"
(cd Fuzz && flock "$LOCK" "$SWIFT" build "${FLAGS[@]}" 2>&1 | grep -E 'error|warning: unre|Compiling|Build' | tail -3)
BIN=$(cd Fuzz && "$SWIFT" build "${FLAGS[@]}" --show-bin-path)

mkdir -p .build/fuzz
found=0
printf '%-14s %12s %8s %10s  %s\n' target executions seconds corpus result
for target in "${TARGETS[@]}"; do
    seeds="Fuzz/corpus/$(echo "${target#Fuzz}" | tr '[:upper:]' '[:lower:]')"
    corpus=".build/fuzz/corpus/$target" artifacts=".build/fuzz/artifacts/$target/" log=".build/fuzz/$target.log"
    mkdir -p "$corpus" "$artifacts"
    limit=(-max_total_time="$FUZZ_SECONDS")
    [ -n "$FUZZ_RUNS" ] && limit=(-runs="$FUZZ_RUNS")
    # FuzzGPX: no leak check after each input (Foundation's XMLParser leaks on every malformed document,
    # and each check is a heap scan that took the target below 1 execution per second; see its
    # main.swift); LeakSanitizer still checks everything at exit. Those leaks also add up, about 3 KB
    # per malformed document (2 GB after 680,000 inputs): FuzzGPX gets 4 GB of memory instead of 2.
    extra=() rss=2048
    [ "$target" = FuzzGPX ] && extra=(-detect_leaks=0) rss=4096
    # One process, one core; 2 GB of memory (but FuzzGPX) and 10 s per input at most; leaks are findings (ASan's default).
    # flock -o: the target does not inherit the lock, and no Swift backtracer is spawned on a crash
    # (it would inherit it and hold it long after the crash; libFuzzer prints the stack itself).
    status=0
    LSAN_OPTIONS=suppressions=$ROOT/Fuzz/lsan-suppressions.txt SWIFT_BACKTRACE=enable=no flock -o "$LOCK" "$BIN/$target" "${limit[@]}" "${extra[@]}" -rss_limit_mb=$rss -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$artifacts" "$corpus" "$seeds" > "$log" 2>&1 || status=$?
    # A crashed run has no "Done" line: || true, or set -e would end the script before its row is printed.
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)
    seconds=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | grep -o 'in [0-9]*' | grep -o '[0-9]*' | tail -1 || true)
    files=$(find "$corpus" -type f | wc -l)
    result="ok"
    if [ "$status" -ne 0 ] || [ -n "$(ls -A "$artifacts")" ]; then
        result="FOUND: $(grep -m1 -E 'ERROR|SUMMARY|Fatal|deadly|timeout|out-of-memory' "$log" || echo "exit $status") (see $log, $artifacts)"
        found=1
    fi
    printf '%-14s %12s %8s %10s  %s\n' "$target" "${runs:-?}" "${seconds:-?}" "$files" "$result"
done
exit $found
