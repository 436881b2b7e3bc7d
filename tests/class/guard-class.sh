#!/usr/bin/env bash
# guard-class.sh: one run per output folder, and nothing left in $TMPDIR by
# an interrupted run (run by `make test-class`, no GPU needed).
#   1. run A grades a class of 12; run B on the same folder meanwhile is
#      refused plainly (status 2, "in use by another grading run (pid N)");
#   2. A is stopped by SIGTERM mid-class: its staged sources are gone from
#      its $TMPDIR, and a new run completes the class.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=build/tests/guard-class
subs=$work/subs
out=$work/out
rm -rf "$work"
mkdir -p "$subs" "$work/tmp"
fail() { echo "FAIL guard-class: $*" >&2; exit 1; }
for i in $(seq -w 1 12); do
    mkdir -p "$subs/s$i"
    cp -r exercises/lesson0 exercises/lesson3 "$subs/s$i/"
done
make --no-print-directory grader >/dev/null

TMPDIR=$PWD/$work/tmp build/grader class "$subs" 0 3 --out "$out" >"$work/a.txt" 2>"$work/a.err" &
a=$!
# Wait until A holds the lock and is grading (its first student staged).
for _ in $(seq 100); do
    grep -q '^grading ' "$work/a.err" 2>/dev/null && break
    sleep 0.1
done
grep -q '^grading ' "$work/a.err" || fail "run A did not start grading"
set +e
build/grader class "$subs" 0 3 --out "$out" >"$work/b.txt" 2>"$work/b.err"
b=$?
set -e
[ "$b" = 2 ] || fail "run B on the same folder exited $b, not 2 (refused)"
grep -q "is in use by another grading run (pid $a)" "$work/b.err" || { cat "$work/b.err"; fail "run B did not say plainly why"; }

kill -TERM "$a"
set +e
wait "$a"
st=$?
set -e
# 143: SIGTERM; 4: the signal landed while NVRTC compiled in this process
# (no GPU), whose own handler exits 4.
[ "$st" = 143 ] || [ "$st" = 4 ] || fail "run A ended with $st, not by SIGTERM (143, or NVRTC's 4)"
if grep -q '^Gradebook:' "$work/a.txt"; then fail "run A finished before the signal"; fi
left=$(find "$work/tmp" -mindepth 1 | head -5)
[ -z "$left" ] || fail "the interrupted run left its staged sources: $left"

build/grader class "$subs" 0 3 --out "$out" >"$work/c.txt" 2>"$work/c.err" || fail "the run after the interrupt failed"
[ "$(grep -c '^s[0-9]*,' "$out/gradebook.csv")" = 12 ] || fail "the run after the interrupt did not complete the class"
echo "guard-class: a second run on one folder refused plainly; SIGTERM left nothing in \$TMPDIR; the next run completed all 12"
