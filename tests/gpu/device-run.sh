#!/usr/bin/env bash
# device-run.sh PHASE...: the course's GPU work in one call, for a machine
# with an NVIDIA GPU (the course's own calibration runs on a lent H100).
# Every result goes under $OUT (default build/device) so it can be copied
# back into the repository.
#
#   build      build the grader and the test binaries
#   test       make test (CPU suite, then the GPU suite)
#   repeat     grade the solutions and the stubs REPEAT times (default 10)
#   sweeps     the prefetch sweeps over PDIST, the TILE sweep of lesson 3
#   measure    lesson 2's coalescing measurement and its plots
#   ncu        Nsight Compute bank-conflict counts for lessons 3 and 10
set -uo pipefail
cd "$(dirname "$0")/../.."
# $OUT is the device tool's return folder (few files): results go to build/device
# and the caller packs them.
OUT=${RESULTS:-build/device}
mkdir -p "$OUT"
export NO_COLOR=1
REPEAT=${REPEAT:-10}

log() { echo "== $(date -u +%H:%M:%S) $*" | tee -a "$OUT/phases.log"; }

for phase in "$@"; do
    case $phase in
    build)
        log build
        nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu \
            --format=csv >"$OUT/gpu.txt" 2>&1
        date -u +%Y-%m-%d >>"$OUT/gpu.txt"
        make -j8 build/grader build/libgrader.a >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
        ;;
    test)
        log test
        make test >"$OUT/make-test.log" 2>&1
        echo "make test exit $?" | tee -a "$OUT/phases.log"
        grep -E '^[0-9]+%: Checks|skipped|Passed|Failed|Error' "$OUT/make-test.log" | tail -40
        cp build/tests/*.txt build/tests/*.json "$OUT/" 2>/dev/null
        ;;
    test-gpu)
        log test-gpu
        make test-gpu >"$OUT/make-test-gpu.log" 2>&1
        echo "make test-gpu exit $?" | tee -a "$OUT/phases.log"
        grep -E '^[0-9]+%: Checks|skipped|:[A-Z]:' "$OUT/make-test-gpu.log" | tail -40
        cp build/tests/*.txt build/tests/*.json "$OUT/" 2>/dev/null
        ;;
    repeat)
        log "repeat x$REPEAT"
        for i in $(seq 1 "$REPEAT"); do
            build/grader check all --solutions --json "$OUT/sol-$i.json" >"$OUT/sol-$i.txt" 2>&1
            echo "solutions run $i exit $?" >>"$OUT/phases.log"
        done
        ;;
    repeat-stubs)
        log "repeat stubs x$REPEAT"
        for i in $(seq 1 "$REPEAT"); do
            build/grader check all --json "$OUT/stub-$i.json" >"$OUT/stub-$i.txt" 2>&1
            echo "stubs run $i exit $?" >>"$OUT/phases.log"
        done
        ;;
    sweeps)
        log sweeps
        make sweep lesson9 >"$OUT/sweep.log" 2>&1
        cp build/measure/prefetch-sweep*.tsv build/measure/prefetch-sweep*.png "$OUT/" 2>/dev/null
        build/grader check lesson3 --solutions --only matmul --sweep TILE=8,16,32 \
            >"$OUT/tile-sweep.tsv" 2>"$OUT/tile-sweep.log"
        ;;
    measure)
        log measure
        make measure lesson2 >"$OUT/measure.log" 2>&1
        cp build/measure/coalescing* build/measure/lesson2-*.png "$OUT/" 2>/dev/null
        ;;
    *)
        echo "unknown phase $phase" >&2
        exit 2
        ;;
    esac
done
log done
