#!/usr/bin/env bash
# latency-run.sh: issue 17's GPU measurement of Little's law, in one call, on
# a machine with an NVIDIA GPU (the lent H100). From the repository root:
#
#   bash tests/gpu/latency-run.sh            # RUNS=3 gradings of each, by default
#
#   1. builds the grader (no Check needed) and grader/measure/latency_probe.cu;
#   2. the probe: the device-memory latency the grader's chase measures,
#      three other chases (16x the L2, one hop per 2 MB page, an L2 hit),
#      and the latency while 1, 2 or 4 streaming blocks per SM keep the
#      memory busy;
#   3. grades the reference solutions (--solutions) and the untouched stubs
#      (exercises/) of every latency-bound lesson (1, 4, 5-12), RUNS times
#      each, alternating, with the JSON reports kept;
#   4. prints the table (tests/gpu/latency_table.py): per exercise and
#      version, GB/s, bytes in flight per SM (bandwidth x latency / SMs, as
#      the report shows it), what full bandwidth needs, the share, and what
#      the lesson 1 model predicts from the code's structure.
#
# Everything goes to build/latency-run/; after every step it is packed into
# $OUT/latency-run.tgz and the table so far into $OUT/summary.txt (two files).
# The call stops starting gradings LATENCY_SECONDS (default 420) after it
# began, so it ends well within 8 minutes; the summary says how many runs
# were made.
set -uo pipefail
cd "$(dirname "$0")/../.."
START=$(date +%s)
BUDGET=${LATENCY_SECONDS:-420}
RUNS=${RUNS:-3}
OUT=${OUT:-build/latency-out}
R=build/latency-run
LESSONS=(1 4 5 6 7 8 9 10 11 12)
rm -rf "$R"
mkdir -p "$OUT" "$R"
export NO_COLOR=1

now() { echo $(($(date +%s) - START)); }
left() { echo $((BUDGET - $(now))); }
log() { echo "== +$(now)s $*" | tee -a "$R/log.txt"; }

summarize() {
    {
        echo "LATENCY RUN on $(sed -n 2p "$R/gpu.txt" 2>/dev/null), $(date -u +%Y-%m-%d), +$(now)s"
        echo
        echo "1. The probe (grader/measure/latency_probe.cu): case, streaming GB/s, ns per hop"
        sed 's/^/   /' "$R/latency_probe.tsv" 2>/dev/null
        echo
        echo "2. Bytes in flight (tests/gpu/latency_table.py), $(ls "$R"/sol-*.json 2>/dev/null | wc -l) solution" \
             "and $(ls "$R"/stub-*.json 2>/dev/null | wc -l) stub gradings"
        # shellcheck disable=SC2046
        python3 tests/gpu/latency_table.py $(ls "$R"/sol-*.json 2>/dev/null) -- \
            $(ls "$R"/stub-*.json 2>/dev/null) 2>&1 | sed 's/^/   /'
        echo
        echo "3. Grader exit statuses (solutions must be 0; stubs 1):"
        sed 's/^/   /' "$R/exits.txt" 2>/dev/null
        echo "   log:"
        sed 's/^/   /' "$R/log.txt"
    } >"$R/summary.txt" 2>&1
    cp "$R/summary.txt" "$OUT/summary.txt"
    tar -czf "$OUT/latency-run.tgz" -C build latency-run 2>/dev/null
}

log build
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu \
    --format=csv >"$R/gpu.txt" 2>&1
if ! make -j"$(nproc)" build/grader >"$R/build.log" 2>&1; then
    log "build failed"
    tail -30 "$R/build.log"
    summarize
    exit 1
fi
if /usr/local/cuda/bin/nvcc -O3 -std=c++17 -arch=native -o build/latency_probe \
    grader/measure/latency_probe.cu >"$R/probe-build.log" 2>&1; then
    log probe
    timeout -k 5 120 build/latency_probe >"$R/latency_probe.tsv" 2>&1 ||
        log "probe failed or was cut short (exit $?)"
else
    log "probe did not build"
fi
summarize

for run in $(seq 1 "$RUNS"); do
    for kind in sol stub; do
        if [ "$(left)" -lt 45 ]; then
            log "not run: $kind $run ($(left)s left)"
            continue
        fi
        log "grading $kind $run"
        args=()
        [ "$kind" = sol ] && args=(--solutions)
        timeout -k 10 "$(($(left) - 5))" build/grader check "${LESSONS[@]}" "${args[@]}" \
            --timeout 60 --json "$R/$kind-$run.json" >"$R/$kind-$run.txt" 2>&1
        echo "$kind $run: exit $?" >>"$R/exits.txt"
        summarize
    done
done
summarize
cat "$R/summary.txt"
