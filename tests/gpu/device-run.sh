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
#   measure    lesson 2's coalescing and lesson 14's transfer measurements
#   ncu        Nsight Compute bank-conflict counts for lessons 3 and 10
#
# Issue 7's checks (make test with the cheat suite, SANITIZE=race on the racy
# kernels, grading time per lesson, 10 gradings of solutions and stubs) have
# a script of their own that packs its results: tests/gpu/trust-run.sh.
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
        make sweep-data >"$OUT/sweep.log" 2>&1
        cp build/measure/prefetch-sweep*.tsv "$OUT/" 2>/dev/null
        build/grader check lesson3 --solutions --only matmul --sweep TILE=8,16,32 \
            >"$OUT/tile-sweep.tsv" 2>"$OUT/tile-sweep.log"
        ;;
    extras)
        # The figures the lessons quote beyond the sweeps.
        log extras
        build/grader check lesson1 --solutions --only register_hog \
            --sweep SMEM_PAD_KB=0,28,32,40,48,64,100,120 >"$OUT/plateau.tsv" 2>/dev/null
        build/grader check lesson5 lesson9 --solutions --set BLOCKS_PER_SM=8 \
            --json "$OUT/bps8.json" >"$OUT/bps8.txt" 2>&1
        build/grader check lesson9 --solutions --set BLOCKS_PER_SM=4 \
            --json "$OUT/l9-bps4.json" >"$OUT/l9-bps4.txt" 2>&1
        build/grader check lesson10 --solutions --only padded --sweep PADDING=0,1,2,3,4 \
            >"$OUT/padding.tsv" 2>/dev/null
        build/grader check lesson6 --solutions --sweep PDIST=2,4,8,16 >"$OUT/l6-pdist.tsv" 2>/dev/null
        build/grader check lesson4 --solutions --only unroll --sweep UNROLL=1,2,4,8,16,32 \
            >"$OUT/unroll.tsv" 2>/dev/null
        build/grader check lesson9 --solutions --sweep PDIST=2,4,6,8,12,16 >"$OUT/l9-pdist.tsv" 2>/dev/null
        ;;
    ncu-check)
        # Lesson 10's "conflicts gone" rule: the stubs must fail it, the
        # solutions pass.
        log ncu-check
        build/grader check lesson10 --ncu --json "$OUT/ncu-check-stubs.json" >"$OUT/ncu-check-stubs.txt" 2>&1
        echo "ncu-check stubs exit $?" >>"$OUT/phases.log"
        build/grader check lesson10 --ncu --solutions --json "$OUT/ncu-check-solutions.json" \
            >"$OUT/ncu-check-solutions.txt" 2>&1
        echo "ncu-check solutions exit $?" >>"$OUT/phases.log"
        ;;
    ncu)
        log ncu
        for l in lesson3 lesson5 lesson8 lesson9 lesson10; do
            build/grader check $l --ncu --json "$OUT/ncu-$l.json" >"$OUT/ncu-$l.txt" 2>&1
        done
        ;;
    measure)
        log measure
        make measure-data >"$OUT/measure.log" 2>&1
        cp build/measure/coalescing.tsv build/measure/transfers.tsv "$OUT/" 2>/dev/null
        ;;
    *)
        echo "unknown phase $phase" >&2
        exit 2
        ;;
    esac
done
log done
