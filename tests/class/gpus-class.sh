#!/usr/bin/env bash
# gpus-class.sh: GPUS=0,1 (a worker per GPU, one shared queue) gives the
# same class files as one process, here on a machine without a GPU, where
# both workers compile and check (run by `make test-class`); and a worker
# killed mid-student leaves that student "not graded (why)", which the next
# run completes.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=build/tests/gpus-class
subs=$work/subs
rm -rf "$work"
mkdir -p "$subs"
fail() { echo "FAIL gpus-class: $*" >&2; exit 1; }
for i in 1 2 3 4 5 6; do
    mkdir -p "$subs/st$i"
    cp -r exercises/lesson0 exercises/lesson3 "$subs/st$i/"
done
cp -r solutions/lesson0 solutions/lesson3 "$subs/st2/"
echo "not C++ // st5" >>"$subs/st5/lesson3/matmul.cu"
rm "$subs/st6/lesson0/saxpy.cu"
echo "not a submission" >"$subs/notes.txt"
grade() {   # grade OUT [GPUS]
    make --no-print-directory grade-class SUBMISSIONS="$subs" LESSONS=0,3 CLASS_OUT="$work/$1" \
        SEED=7 ${2:+GPUS=$2} >"$work/$1.txt" 2>"$work/$1.err" || { tail "$work/$1.txt" "$work/$1.err"; fail "grade-class ${2:+GPUS=$2} exited $?"; }
}
# The files, less what differs from run to run by nature: the time of day,
# the seconds things took and the PTX simulator's rates (its counts and
# times, numbers whose width moves a report's line breaks, so the text is
# compared as one line of single spaces).
norm() {
    sed -E -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9:]{8}/DATE/g' -e 's/ in [0-9.]+ s/ in N s/g' \
        -e 's/"(seconds|time)": ?[0-9.]+/"\1": N/g' -e 's/time="[0-9.]+"/time="N"/g' \
        -e 's/[0-9.]+e[+-][0-9]+/N/g' -e 's/[0-9]+\.[0-9]+ s([ ;,)]|$)/N s\1/g' "$@" |
        tr '\n' ' ' | tr -s ' '
    echo
}
grade one
grade two 0,1
grep -q 'A worker per GPU, each taking the next student: 0 1' "$work/two.txt" || fail "GPUS=0,1 did not start two workers"
for w in 0 1; do
    grep -q "^\[GPU $w\] st" "$work/two.txt" || fail "worker $w graded no student: $(cat "$work/two.txt")"
done
for f in gradebook.csv class.json summary.md junit.xml leaderboards/lesson3-matmul.md \
         students/st5/report.txt students/st5/junit.xml students/notes.txt/junit.xml; do
    [ -s "$work/one/$f" ] && [ -s "$work/two/$f" ] || fail "no $f"
    diff <(norm "$work/one/$f") <(norm "$work/two/$f") >"$work/diff.txt" || { head -20 "$work/diff.txt"; fail "$f differs between one process and GPUS=0,1"; }
done
grade all all
grep -q '^st5,.*COMPILE' "$work/all/gradebook.csv" || fail "GPUS=all without a GPU graded nothing"

# A worker killed with SIGKILL in the middle of a student.
out=$work/kill
build/grader class "$subs" 0 3 --out "$out" --seed 7 --gpus 0,1 >"$work/kill.txt" 2>"$work/kill.err" &
pid=$!
victim=
for _ in $(seq 100); do
    victim=$(pgrep -P "$pid" | head -1 || true)
    [ -n "$victim" ] && grep -q '^grading ' "$work/kill.err" && break
    sleep 0.05
done
[ -n "$victim" ] || fail "no worker to kill"
kill -KILL "$victim"
set +e; wait "$pid"; st=$?; set -e
[ "$st" = 1 ] || fail "a run that lost a worker exited $st, not 1"
grep -q 'the worker for GPU [01] ended badly' "$work/kill.err" || fail "the lost worker was not reported"
lost=$(grep -c 'not graded: the worker grading it stopped' "$out/gradebook.csv" || true)
[ "$lost" -ge 1 ] || fail "the killed worker's student has no 'not graded (why)' row: $(cat "$out/gradebook.csv")"
[ "$(grep -c '^st[0-9],' "$out/gradebook.csv")" = 6 ] || fail "rows lost"
build/grader class "$subs" 0 3 --out "$out" --seed 7 --gpus 0,1 >"$work/again.txt" 2>&1 || fail "the re-run failed"
if grep -q 'not graded: the worker' "$out/gradebook.csv"; then fail "the re-run did not complete the class"; fi
diff <(norm "$work/one/gradebook.csv" | cut -d, -f1-12) <(norm "$out/gradebook.csv" | cut -d, -f1-12) >/dev/null ||
    fail "the completed class's grades differ from one process's"
echo "gpus-class: GPUS=0,1 gave the same files as one process (6 students, 2 workers); a killed worker's student was marked not graded ($lost), and the re-run completed it"
