#!/usr/bin/env bash
# run.sh: make check SANITIZE=race's report (grader/scripts/race-check.sh),
# tested without a GPU against what compute-sanitizer printed on an H100 for
# the racy kernels of tests/gpu/races/ and the reference solutions (the
# stand-in tool beside this file replays it). Run from the course's top by
# make test-cpu; prints one line per check, exits 1 on the first failure.
set -u
here=tests/unit/race_check
export PATH="$here:$PATH" GRADER=${GRADER:-build/grader}
out=build/tests/race-check
mkdir -p "$out"
fails=0

# $1 tag, $2 expected exit status, then the script's arguments.
run() {
    local tag=$1 want=$2
    shift 2
    bash grader/scripts/race-check.sh "$@" >"$out/$tag.txt" 2>/dev/null
    local rc=$?
    if [ "$rc" != "$want" ]; then
        echo "FAIL race-check $tag: exit $rc, expected $want (see $out/$tag.txt)"
        fails=$((fails + 1))
    fi
}
# $1 tag, $2 text that must be in its output.
has() {
    if ! grep -qF -- "$2" "$out/$1.txt"; then
        echo "FAIL race-check $1: no '$2' in its output (see $out/$1.txt)"
        fails=$((fails + 1))
    fi
}
lacks() {
    if grep -qF -- "$2" "$out/$1.txt"; then
        echo "FAIL race-check $1: '$2' in its output (see $out/$1.txt)"
        fails=$((fails + 1))
    fi
}

# Lesson 3 without its second barrier: an Error and a Warning, both named
# with the student's file and line.
run l3 1 lesson3 --only matmul --student-dir tests/gpu/races/matmul_no_second_sync
has l3 "lesson3/matmul: RACE (racecheck: 2 hazards (1 error, 1 warning); synccheck: 0 errors)"
has l3 "Error: a write at tests/gpu/races/matmul_no_second_sync/lesson3/matmul.cu:29 races with a read at tests/gpu/races/matmul_no_second_sync/lesson3/matmul.cu:34"
has l3 "Warning: a write at tests/gpu/races/matmul_no_second_sync/lesson3/matmul.cu:28"

# Lesson 9's blog ring: warnings only, and they count.
run l9 1 lesson9 --student-dir tests/gpu/races/async_commit_if_copy
has l9 "lesson9/rolling_async: RACE (racecheck: 3 hazards (0 errors, 3 warnings)"
has l9 "Warning: a read at tests/gpu/races/async_commit_if_copy/lesson9/rolling_async.cu:38 races with a write at cuda_pipeline_helpers.h:190 (an asynchronous copy, cp.async)"
has l9 "Warning or Error alike"

# The solution: nothing found, exit 0.
run clean 0 lesson9 --student-dir solutions
has clean "lesson9/rolling_async: no race found (racecheck: 0 hazards (0 errors, 0 warnings); synccheck: 0 errors)"
lacks clean "RACE"

# A synccheck error alone is a finding too.
run sync 1 lesson3 --only matmul --student-dir "$here/sync_error"
has sync "lesson3/matmul: SYNC ERROR"
has sync "synccheck: Barrier error detected. Divergent thread(s) in warp at $here/sync_error/lesson3/matmul.cu:27"

# A tool that printed no summary did not check anything: never "no race".
run none 2 lesson3 --only matmul --student-dir "$here/no_such_run"
has none "lesson3/matmul: NOT CHECKED"
lacks none "no race found"

[ "$fails" -eq 0 ] && echo "race-check: SANITIZE=race's report checked against 5 recorded runs"
[ "$fails" -eq 0 ]
