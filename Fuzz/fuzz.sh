#!/usr/bin/env bash
# Runs the libFuzzer targets built by `make fuzz` (README, "Hardening: fuzzing").
# Usage: Fuzz/fuzz.sh SECONDS TARGET...   (targets: gpx gpx-diff csv plt rec nmea kml json ndjson policy scenario merge)
# Env: SHARED_TRACES (default ../shared/traces), FUZZ_BUILD (default .build/fuzz).
# Each target's corpus is .build/fuzz/corpus/TARGET, seeded on every run from the shared corpus
# (when present), Traces/, Fuzz/Seeds/TARGET (gpx-diff: Fuzz/Seeds/gpx) and the committed
# regression inputs under Tests/*/Fuzz/TARGET; crashers land in .build/fuzz/crashes/. Exit 1 when
# any target crashed. `swift test` reads the GPX, KML and JSON seeds too (FuzzSeedTests).
set -uo pipefail
seconds=$1; shift
shared=${SHARED_TRACES:-../shared/traces}
build=${FUZZ_BUILD:-.build/fuzz}
bin=$build/debug

# The seed files of a target: name patterns, and the largest input libFuzzer may make.
patterns() {
    case $1 in
        gpx | gpx-diff) echo '*.gpx *.xml' ;;
        csv) echo '*.csv *.tsv' ;;
        plt) echo '*.plt' ;;
        rec) echo '*.rec' ;;
        nmea) echo '*.nmea *.nma' ;;
        kml) echo '*.kml' ;;
        json) echo '*.json *.geojson' ;;
        ndjson) echo '*.ndjson *.jsonl' ;;
        policy) echo '*.policy.json' ;;
        scenario) echo '*.scenario.json' ;;
        merge) echo '*.jsonl' ;;
    esac
}
maxlen() {
    case $1 in
        gpx | gpx-diff | kml | json) echo 16384 ;;
        csv | plt | rec | nmea | ndjson) echo 8192 ;;
        merge) echo 65536 ;;
        *) echo 4096 ;;
    esac
}

failed=()
for t in "$@"; do
    corpus=$build/corpus/$t crashes=$build/crashes
    mkdir -p "$corpus" "$crashes"
    seeds=$t; [ "$t" = gpx-diff ] && seeds=gpx  # the differential fuzzer reads the GPX seeds
    roots=(Traces "Fuzz/Seeds/$seeds")
    [ -d "$shared" ] && roots+=("$shared")
    for d in Tests/*/Fuzz/"$t"; do [ -d "$d" ] && roots+=("$d"); done
    names=()
    for p in $(patterns "$t"); do names+=(-o -name "$p"); done
    # Content-addressed copies, so reseeding never duplicates an input.
    seeded=0
    while IFS= read -r -d '' f; do
        cp "$f" "$corpus/seed-$(sha1sum < "$f" | cut -c1-16)" && seeded=$((seeded + 1))
    done < <(find "${roots[@]}" -type f \( -false "${names[@]}" \) -print0 2>/dev/null)
    # Committed regression inputs of any name (Tests/*/Fuzz/TARGET holds only inputs).
    for d in Tests/*/Fuzz/"$t"; do
        [ -d "$d" ] && for f in "$d"/*; do [ -f "$f" ] && cp "$f" "$corpus/seed-$(sha1sum < "$f" | cut -c1-16)"; done
    done
    echo "== fuzz-$t: ${seconds}s, $seeded seed files, corpus $corpus, max_len $(maxlen "$t")"
    log=$build/fuzz-$t.log
    SWIFT_BACKTRACE=enable=no "$bin/fuzz-$t" "$corpus" -max_total_time="$seconds" -max_len="$(maxlen "$t")" -timeout=10 \
        -rss_limit_mb=2048 -artifact_prefix="$crashes/$t-" -print_final_stats=1 > "$log" 2>&1
    status=$?
    grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)' "$log" | sed 's/^/   /'
    if [ $status -ne 0 ]; then
        echo "   CRASH (exit $status); log: $log"
        grep -E 'Test unit written to|ERROR: |Fatal error' "$log" | sed 's/^/   /'
        failed+=("$t")
    fi
done
if [ ${#failed[@]} -ne 0 ]; then
    echo "fuzz: crashes in: ${failed[*]} (reproducers in $build/crashes; replay one with .build/debug/fuzz-TARGET FILE,"
    echo "      minimise with SWIFT_BACKTRACE=enable=no $bin/fuzz-TARGET -minimize_crash=1 -max_total_time=60 FILE)"
    exit 1
fi
echo "fuzz: no crash in: $*"
