#!/usr/bin/env bash
# release.sh: `make release` end to end on CPU. Run by `make test-class`.
# The student copy must unpack, hold no solution source, carry a compiled
# reference for every exercise, build, compile every exercise and check its
# references (its own make test-cpu), grade without solutions/, and say
# plainly that the instructors' targets need the full course.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=build/tests/release
rm -rf "$work"
mkdir -p "$work/unpacked"
fail() { echo "FAIL release: $*" >&2; exit 1; }
# make in the copy as a student types it: none of the outer make's variables
# (make test CHROMIUM=... would reach the copy's make static as a knob) or flags.
smake() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u MAKEOVERRIDES make --no-print-directory "$@"; }

make --no-print-directory release RELEASE_OUT="$work" >"$work/release.txt" 2>&1 ||
    { cat "$work/release.txt"; fail "make release exited $?"; }
tar -xzf "$work/cuda-course-student.tar.gz" -C "$work/unpacked"
top=$work/unpacked/cuda-course
[ -f "$top/Makefile" ] && [ -f "$top/STUDENT-COPY.md" ] || fail "the tarball does not hold the course"

# No solution source: no solutions/, and no file equal to one of them.
[ ! -e "$top/solutions" ] || fail "solutions/ is in the student copy"
for d in unit gpu cli class cpu-suite.sh; do
    [ ! -e "$top/tests/$d" ] || fail "tests/$d (it grades or reads the solutions) is in the student copy"
done
if grep -rlE 'solutions/|--solutions' "$top/tests"; then fail "a test in the copy needs solutions/"; fi
declare -A solution_sum=()
while read -r s _; do solution_sum[$s]=1; done < <(find solutions -name '*.cu' -exec sha256sum {} +)
[ ${#solution_sum[@]} -gt 0 ] || fail "no solution to compare the copy with"
while read -r s f; do
    [ -z "${solution_sum[$s]:-}" ] || fail "$f is a copy of a solution"
done < <(find "$top" -type f -name '*.cu' -exec sha256sum {} +)

# A compiled reference for every exercise the grader knows.
n_ex=$(build/grader list all | grep -c '^lesson')
n_ptx=$(find "$top/grader/references" -name '*.ptx' | wc -l)
[ "$n_ex" = "$n_ptx" ] || fail "$n_ex exercises but $n_ptx compiled references"

# Builds, compiles every exercise and checks the references (its make test-cpu).
# At -O0: the question is whether the copy's own files build, not how fast
# its grader runs (NVRTC does the compiling below); -O2 took twice as long.
CFLAGS="-O0 -g" smake -C "$top" -j2 grader >"$work/build.txt" 2>&1 ||
    { tail -20 "$work/build.txt"; fail "the copy does not build"; }
smake -C "$top" test-cpu >"$work/test-cpu.txt" 2>&1 || { cat "$work/test-cpu.txt"; fail "the copy's make test-cpu failed"; }
grep -q "^$n_ex exercises, 0 failed" "$work/test-cpu.txt" || fail "the copy did not check all $n_ex exercises"
if [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/ptxas" ]; then
    [ "$(grep -c ', assembles;' "$work/test-cpu.txt")" = "$n_ex" ] || fail "not every reference assembled"
fi

smake -C "$top" static >"$work/static.txt" 2>&1 || { tail -20 "$work/static.txt"; fail "make static failed in the copy"; }

# A student's make check works without solutions/ (here: no GPU, so compiled only).
(cd "$top" && smake check lesson3 lesson9 >/dev/null 2>&1) || true
[ -s "$top/build/report.json" ] || fail "make check wrote no report in the copy"
if grep -qE '"outcome": "(COMPILE|MISSING|INTERNAL)"' "$top/build/report.json"; then
    fail "make check in the copy: $(grep -o '"outcome": "[A-Z ]*"' "$top/build/report.json" | sort | uniq -c)"
fi

# Instructors' targets refuse plainly.
for t in check-solutions sweep-data; do
    if smake -C "$top" "$t" >"$work/$t.txt" 2>&1; then fail "make $t ran in the copy"; fi
    grep -q 'student copy of the course' "$work/$t.txt" || fail "make $t does not say why it cannot run"
done
smake -C "$top" release >"$work/rerelease.txt" 2>&1 && fail "make release ran in the copy"
grep -q 'no solutions/ here' "$work/rerelease.txt" || fail "make release in the copy does not say why"

echo "release: $(du -k "$work/cuda-course-student.tar.gz" | cut -f1) KB, no solution source, $n_ptx compiled" \
     "references; the copy builds, compiles and checks all $n_ex exercises, grades, and refuses the instructors' targets"
