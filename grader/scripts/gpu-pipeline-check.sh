#!/usr/bin/env bash
# gpu-pipeline-check.sh PHASE...: the GPU checks of issue 7's grading rules
# (inputs checked, rotated timing sets, poison before every timed launch,
# the physical floor, resource messages, constants). Results go to $RESULTS
# (default build/device-pipeline).
#
#   margin    measure FLOOR_MARGIN: grader/measure/floor_margin.cu
#             -> floor_margin.tsv; its last line is the largest ratio
#   verdicts  grade solutions, stubs and baselines REPEAT times (default 1)
#             -> verdicts.tsv: exercise, outcome of each run; and the
#             largest effective bandwidth / copy bandwidth of any solution
#   times     wall time of `grader check lessonN --solutions` per lesson,
#             with this build and with $OTHER_GRADER (e.g. main's build)
#   test      make test (CPU suite, then the GPU suite)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${RESULTS:-build/device-pipeline}
REPEAT=${REPEAT:-1}
mkdir -p "$OUT"
export NO_COLOR=1
make -s build/grader >/dev/null || { echo "build failed"; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/gpu.txt" 2>&1
date -u +%Y-%m-%d >>"$OUT/gpu.txt"

# Outcome of every exercise in a JSON report: "lessonN/name<TAB>outcome" a line.
outcomes() {
    grep -o '"lesson": [0-9]*, "name": "[^"]*"\|"outcome": "[^"]*"' "$1" |
        paste -d' ' - - | sed 's/"lesson": \([0-9]*\), "name": "\([^"]*\)" "outcome": "\([^"]*\)"/lesson\1\/\2\t\3/'
}

for phase in "$@"; do
    case $phase in
    margin)
        mkdir -p build
        "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" -O3 -arch=native -o build/floor_margin \
            grader/measure/floor_margin.cu && build/floor_margin | tee "$OUT/floor_margin.tsv"
        ;;
    verdicts)
        for i in $(seq 1 "$REPEAT"); do
            build/grader check all --solutions --json "$OUT/sol-$i.json" >"$OUT/sol-$i.txt" 2>&1
            build/grader check all --json "$OUT/stub-$i.json" >"$OUT/stub-$i.txt" 2>&1
            build/grader check all --student-dir grader/baselines --json "$OUT/base-$i.json" \
                >"$OUT/base-$i.txt" 2>&1
        done
        for kind in sol stub base; do
            for i in $(seq 1 "$REPEAT"); do outcomes "$OUT/$kind-$i.json" >"$OUT/$kind-$i.out"; done
            paste "$OUT/$kind-"*.out | awk -F'\t' -v k="$kind" '{printf "%s\t%s", k, $1; for (i = 2; i <= NF; i += 2) printf "\t%s", $i; print ""}'
        done | tee "$OUT/verdicts.tsv"
        echo "largest effective bandwidth / copy bandwidth of a graded kernel (solutions, baselines):"
        for f in "$OUT"/sol-*.json "$OUT"/base-*.json; do
            grep -o '"student_gbps": [0-9.e+-]*\|"copy_gbps": [0-9.e+-]*' "$f" | awk -v f="$f" '
                /student_gbps/ {s = $2; next} {if ($2 > 0 && s / $2 > m) m = s / $2}
                END {printf "  %s: %.3f\n", f, m}'
        done | tee -a "$OUT/verdicts.tsv"
        ;;
    times)
        for g in build/grader ${OTHER_GRADER:-}; do
            for l in 0 1 2 3 4 5 6 7 8 9 10; do
                s=$(date +%s.%N)
                "$g" check "lesson$l" --solutions --json /dev/null >/dev/null 2>&1
                awk -v g="$g" -v l="$l" -v a="$s" -v b="$(date +%s.%N)" \
                    'BEGIN {printf "%s\tlesson%d\t%.1f s\n", g, l, b - a}'
            done
        done | tee "$OUT/times.tsv"
        ;;
    test)
        make test >"$OUT/make-test.log" 2>&1
        echo "make test exit $?"
        grep -E '^[0-9]+%: Checks|skipped|:[FE]:' "$OUT/make-test.log" | tail -40
        ;;
    *) echo "unknown phase $phase"; exit 2 ;;
    esac
done
