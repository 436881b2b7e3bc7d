#!/usr/bin/env bash
# time-lessons.sh OUTFILE [grader args...]: wall time of grading each lesson's
# reference solutions, one lesson per grader run, as TSV (lesson, seconds,
# exit status). Used to compare grading time before and after a grader change:
# run it from the top of each version of the course (GRADER: the grader
# binary, default build/grader).
set -u
out=$1; shift
G=${GRADER:-build/grader}
echo -e "lesson\tseconds\texit" > "$out"
for l in $("$G" list all | sed -n 's/^lesson\([0-9]*\)\/.*/\1/p' | sort -un); do
    t0=$(date +%s%N)
    "$G" check lesson$l --solutions --json /tmp/tl.json "$@" >/dev/null 2>&1
    rc=$?
    t1=$(date +%s%N)
    ms=$(( (t1 - t0) / 1000000 ))
    printf "%s\t%d.%03d\t%s\n" "$l" $((ms / 1000)) $((ms % 1000)) "$rc" >> "$out"
done
cat "$out"
