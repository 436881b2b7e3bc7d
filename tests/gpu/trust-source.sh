#!/usr/bin/env bash
# trust-source.sh: the checks of the compile path on a machine with a GPU,
# where they run inside the grading child that holds a CUDA context (the
# compile children are forked from it). Each line says what was expected and
# what the grader gave; the script exits 1 if any differs.
#
#   bash tests/gpu/trust-source.sh        (after make build/grader)
#
# Writes every report under $OUT (default build/device/trust-source).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-build/device/trust-source}
mkdir -p "$OUT"
export NO_COLOR=1
bad=0

# expect TAG OUTCOME TEXT ARGS...: grade, then compare the first record.
expect() {
    local tag=$1 want=$2 text=$3
    shift 3
    local t0 t1
    t0=$(date +%s.%N)
    build/grader check "$@" --json "$OUT/$tag.json" >"$OUT/$tag.txt" 2>&1
    t1=$(date +%s.%N)
    local got msg
    got=$(grep -o '"outcome": "[^"]*"' "$OUT/$tag.json" | head -1 | cut -d'"' -f4)
    msg=$(grep -o '"message": "[^"]*"' "$OUT/$tag.json" | head -1 | cut -d'"' -f4)
    if [ "$got" = "$want" ] && grep -qF -- "$text" "$OUT/$tag.json"; then
        printf 'ok    %-16s %-9s %5.1f s\n' "$tag" "$got" "$(echo "$t1 - $t0" | bc)"
    else
        printf 'FAIL  %-16s expected %s with "%s", got %s: %s\n' "$tag" "$want" "$text" \
            "${got:-nothing}" "${msg:0:300}"
        bad=1
    fi
}

F=tests/gpu/faulty
expect libcuxx PASS "" lesson9 --student-dir tests/unit/fixtures/lesson9-libcuxx
expect cached-answer REFUSED "__device__ variable" lesson0 --only saxpy --student-dir $F/cached_answer
expect include-outside REFUSED "may include only" lesson0 --only saxpy --student-dir $F/include_outside
expect huge-shared RESOURCES "of static shared memory" lesson0 --only saxpy --student-dir $F/huge_shared
GRADER_COMPILE_TIMEOUT=2 expect slow-compile COMPILE "did not compile within 2 s" \
    lesson0 --only saxpy --student-dir $F/slow_compile
# Its speed next to the reference's, timed in the same run (the bar's basis).
grep -o '"\(solution_\)\?speedup": [0-9.]*' "$OUT/libcuxx.json" | paste -sd' ' |
    sed 's/^/libcu++ answer vs reference: /'
exit $bad
