#!/usr/bin/env bash
# learner-loop.sh: issue 8's loop on a machine with an NVIDIA GPU: make check
# with real grading records progress (per GPU, apart from runs without one),
# make progress shows it, make watch grades again on a save, Ctrl-C stops a
# watch mid-grading and leaves no grading process behind, and the report
# lists the mechanism checks that hold and fits 100 columns.
#
#   bash tests/gpu/learner-loop.sh        (after make grader; about 2 minutes)
#
# Everything a student would see goes to $OUT (default build/device/loop),
# one file per step; the last lines say what held. It edits exercises/ and
# .progress of this copy of the course for the run and puts them back after.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-build/device/loop}
mkdir -p "$OUT"
export NO_COLOR=1
unset COLUMNS MAKEFLAGS MAKELEVEL MFLAGS
SAVE=$(mktemp -d)
cp -r exercises "$SAVE/"
[ -f .progress ] && cp .progress "$SAVE/progress"
restore() {
    rm -rf exercises && cp -r "$SAVE/exercises" . && rm -f .progress
    [ -f "$SAVE/progress" ] && cp "$SAVE/progress" .progress
    rm -rf "$SAVE"
}
trap restore EXIT
rm -f .progress

ok=0
bad=0
say() { echo "$*" | tee -a "$OUT/summary.txt"; }
check() {   # check NAME FILE TEXT
    if grep -qF -- "$3" "$2"; then ok=$((ok + 1)); else bad=$((bad + 1)); say "NOT SEEN ($1): '$3' in $2"; fi
}
: >"$OUT/summary.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/gpu.txt" 2>&1
GPU=$(build/grader check lesson0 --json /dev/null 2>/dev/null | sed -n 's/^GPU: \(.*\) (compute capability.*/\1/p')
say "GPU: ${GPU:-none found}"

# 1. The untouched lesson 3 stubs, graded: progress records them under the GPU.
make check lesson3 >"$OUT/1-check-lesson3-stubs.txt" 2>&1
say "1. make check lesson3 (stubs): exit $?"
check "stub report" "$OUT/1-check-lesson3-stubs.txt" "Course progress: 0 of"
check "progress keyed by GPU" .progress "lesson3/matmul	$GPU	best	MECHANISM"
check "checks listed on a GPU" "$OUT/1-check-lesson3-stubs.txt" "Mechanism checks:"
awk '{ if (length($0) > 100) { print "line of " length($0) " columns"; exit 1 } }' \
    "$OUT/1-check-lesson3-stubs.txt" && ok=$((ok + 1)) || { bad=$((bad + 1)); say "NOT SEEN: report within 100 columns"; }

# 2. The solution saved as the student's matmul: PASS, and a check that holds says so.
cp solutions/lesson3/matmul.cu exercises/lesson3/matmul.cu
make check lesson3 ONLY=matmul >"$OUT/2-check-matmul-solved.txt" 2>&1
say "2. make check lesson3 ONLY=matmul (solved): exit $?"
check "solved matmul passes" "$OUT/2-check-matmul-solved.txt" "lesson3/matmul"
check "solved matmul passes" .progress "lesson3/matmul	$GPU	best	PASS"
check "a holding check is said to hold" "$OUT/2-check-matmul-solved.txt" "holds  the PTX has 'ld.shared'"

# 3. The same without the GPU: kept apart, not mixed.
build/grader check lesson3 --no-gpu --progress .progress >"$OUT/3-check-no-gpu.txt" 2>&1
say "3. build/grader check lesson3 --no-gpu: exit $? (3: everything checkable holds)"
check "no-GPU runs kept apart" .progress "lesson3/matmul	no GPU	best	CHECKED"
check "GPU best untouched" .progress "lesson3/matmul	$GPU	best	PASS"

# 4. make progress: the course map from both runs.
make progress >"$OUT/4-progress.txt" 2>&1
say "4. make progress: exit $?"
check "map" "$OUT/4-progress.txt" "  passed     matmul"
check "map" "$OUT/4-progress.txt" "  tried      bank_conflicts"
cp .progress "$OUT/progress-file.txt"

# 5. make watch with real grading: the stub, then a save of the solution.
cp "$SAVE/exercises/lesson3/matmul.cu" exercises/lesson3/matmul.cu
build/grader watch lesson3 --only matmul --watch-rounds 2 --progress .progress \
    >"$OUT/5-watch.txt" 2>&1 &
pid=$!
for i in $(seq 600); do grep -q "Save one to grade it again" "$OUT/5-watch.txt" && break; sleep 0.1; done
cp solutions/lesson3/matmul.cu exercises/lesson3/.matmul.tmp && mv exercises/lesson3/.matmul.tmp exercises/lesson3/matmul.cu
for i in $(seq 1200); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
kill -0 $pid 2>/dev/null && { kill $pid; say "watch did not finish in 2 minutes"; }
wait $pid
say "5. make watch lesson3 ONLY=matmul, a save in between: exit $?"
check "watch graded the stub" "$OUT/5-watch.txt" "MECHANISM"
check "watch saw the save" "$OUT/5-watch.txt" "grading lesson3/matmul (saved)"
check "watch graded it again" "$OUT/5-watch.txt" "PASS"

# 6. Ctrl-C in the middle of grading: the watch stops, no grading child stays.
build/grader watch lesson9 >"$OUT/6-watch-interrupted.txt" 2>&1 &
pid=$!
for i in $(seq 100); do grep -q "grading lesson9/rolling_async" "$OUT/6-watch-interrupted.txt" && break; sleep 0.1; done
sleep 2
ps -eo pid,ppid,pgid,args | grep "[b]uild/grader" >"$OUT/6-processes-before.txt"
kill -INT $pid
sleep 2
ps -eo pid,ppid,pgid,args | grep "[b]uild/grader" >"$OUT/6-processes-after.txt"
wait $pid
say "6. Ctrl-C mid-grading: exit $?; grader processes before: $(wc -l <"$OUT/6-processes-before.txt"), after: $(wc -l <"$OUT/6-processes-after.txt")"
check "stopped" "$OUT/6-watch-interrupted.txt" "Stopped watching."
[ -s "$OUT/6-processes-after.txt" ] && { bad=$((bad + 1)); say "NOT SEEN: no grader process left"; } || ok=$((ok + 1))

say "learner loop: $ok held, $bad did not"
[ $bad -eq 0 ]
