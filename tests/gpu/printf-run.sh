#!/usr/bin/env bash
# printf-run.sh: issue 15's printf/assert and diagnosing hints, on a machine
# with an NVIDIA GPU (the lent H100). From the repository root:
#
#   bash tests/gpu/printf-run.sh
#
# Grades, each with build/grader check ... --student-dir:
#   printf      tests/gpu/accepted/lesson0-printf: PASS; the report shows the
#               one line the kernel printed, exactly once (not the timed
#               launches'), and says printing costs time
#   flood       a copy of it printing from every thread: bounded (20 lines
#               shown, "more lines not shown"), and the grading ends
#   assert      tests/gpu/faulty/assert_fails: CRASH; the message gives the
#               condition "n % blockDim.x == 0", the file and the line (13)
#   assert_late tests/gpu/faulty/assert_late: the assert fails in a later
#               launch (size 2^20): condition "n <= 4097" and line 14
#   shift       tests/gpu/faulty/shift_register (lesson 7): SLOW, report has
#               "Diagnosis: a register copied from a pending load"
#   wait        tests/gpu/faulty/consumer_wait (lesson 9): SLOW, report has
#               "Diagnosis: a wait depth chosen at run time"
#   l2dist      tests/gpu/faulty/l2dist_elements (lesson 11a): MECHANISM (its
#               prefetches do not run ahead of their line's first load), report
#               has "Diagnosis: an L2 prefetch that lands in the current
#               iteration" and the hint "L2DIST * BLOCKDIMX elements, not L2DIST"
#   mbarrier    tests/gpu/faulty/phase_never_completes (lesson 12): HANG
#               whose message names the mbarrier phase
#   libcuxx     tests/gpu/accepted/lesson9-libcuxx: PASS, no diagnosis
#   solutions   lessons 0, 7, 9, 11, 12 --solutions: all PASS
# Full reports go to build/printf-run/; $OUT gets printf-run.tgz (all of
# them) and summary.txt (the table, also printed last). About 3-5 minutes.
set -uo pipefail
cd "$(dirname "$0")/../.."
START=$(date +%s)
OUT=${OUT:-build/printf-out}
R=build/printf-run
rm -rf "$R"
mkdir -p "$OUT" "$R"
export NO_COLOR=1
SUMMARY=$R/summary.txt
: > "$SUMMARY"

if ! make -s build/grader > "$R/build.log" 2>&1; then
    echo "build failed:"; tail -30 "$R/build.log"; exit 1
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt" 2>/dev/null ||
    echo "no nvidia-smi" > "$R/gpu.txt"

# grade TAG ENV LESSON ARGS...: the report in $R/TAG.txt, JSON in $R/TAG.json.
grade() {
    local tag=$1 envs=$2; shift 2
    local t0=$(date +%s)
    env $envs timeout 400 build/grader check "$@" --json "$R/$tag.json" > "$R/$tag.txt" 2>&1
    echo $? > "$R/$tag.exit"
    echo $(($(date +%s) - t0)) > "$R/$tag.secs"
}
outcome() { sed -n 's/.*"outcome": "\([^"]*\)".*/\1/p' "$R/$1.json" 2>/dev/null | head -1; }
message() { sed -n 's/.*"message": "\([^"]*\)".*/\1/p' "$R/$1.json" 2>/dev/null | head -1; }
row() {   # row TAG WANT RESULT(ok|FAIL) WHAT
    printf '%-12s %-9s %-9s %-5s %4ss  %s\n' "$1" "$2" "$(outcome "$1")" "$3" \
        "$(cat "$R/$1.secs" 2>/dev/null)" "$4" >> "$SUMMARY"
}
check() { if eval "$1"; then echo ok; else echo FAIL; fi; }
# "ran at 1.14x the baseline's speed; the bar was 3.06x" -> "1.14x (bar 3.06x)"
speed() {
    message "$1" | sed -n 's/.*ran at \([0-9.]*x\) the baseline.s speed; the bar was \([0-9.]*x\).*/\1 (bar \2)/p'
}

# A kernel that prints from every thread: the report must stay bounded.
mkdir -p "$R/flood/lesson0"
sed 's/if (blockIdx.x == 0 \&\& threadIdx.x == 0)/if (true)/' \
    tests/gpu/accepted/lesson0-printf/lesson0/saxpy.cu > "$R/flood/lesson0/saxpy.cu"

grade printf "" lesson0 --student-dir tests/gpu/accepted/lesson0-printf
grade flood "" lesson0 --timeout 90 --student-dir "$R/flood"
grade assert "" lesson0 --student-dir tests/gpu/faulty/assert_fails
grade assert_late "" lesson0 --student-dir tests/gpu/faulty/assert_late
grade shift "" lesson7 --only rolling_regs --student-dir tests/gpu/faulty/shift_register
grade wait "" lesson9 --student-dir tests/gpu/faulty/consumer_wait
grade l2dist "" lesson11 --only l2_prefetch --student-dir tests/gpu/faulty/l2dist_elements
grade mbarrier "GRADER_LAUNCH_TIMEOUT=3" lesson12 --student-dir tests/gpu/faulty/phase_never_completes
grade libcuxx "" lesson9 --student-dir tests/gpu/accepted/lesson9-libcuxx
grade solutions "" lesson0 lesson7 lesson9 lesson11 lesson12 --solutions

{
    echo "PRINTF RUN on $(cat "$R/gpu.txt"), $(date -u '+%Y-%m-%d %H:%M UTC'), $(($(date +%s) - START)) s"
    echo
    printf '%-12s %-9s %-9s %-5s %5s  %s\n' case want got check time "what was checked"
} > "$R/head.txt"

n_saxpy=$(grep -c 'saxpy: n=' "$R/printf.txt")
row printf PASS "$(check "[ \"$(outcome printf)\" = PASS ] && [ $n_saxpy -eq 1 ] && grep -q 'Your kernel printed 1 line' $R/printf.txt && grep -q 'costs time' $R/printf.txt")" \
    "PASS; 'saxpy: n=' shown $n_saxpy time(s) (want 1); 'printed 1 line'; 'costs time'"
n_flood=$(grep -c 'saxpy: n=' "$R/flood.txt")
row flood any "$(check "[ $n_flood -le 20 ] && [ $n_flood -ge 1 ] && grep -q 'more lines not shown' $R/flood.txt")" \
    "$n_flood lines shown (want 1..20); '$(grep -o 'printed [0-9]* lines' "$R/flood.txt" | head -1)'"
row assert CRASH "$(check "[ \"$(outcome assert)\" = CRASH ] && message assert | grep -q 'n % blockDim.x == 0' && message assert | grep -q 'saxpy.cu:13'")" \
    "message has 'n % blockDim.x == 0' and 'saxpy.cu:13'"
row assert_late CRASH "$(check "[ \"$(outcome assert_late)\" = CRASH ] && message assert_late | grep -q 'n <= 4097' && message assert_late | grep -q 'saxpy.cu:14'")" \
    "message has 'n <= 4097' and 'saxpy.cu:14'"
row shift SLOW "$(check "[ \"$(outcome shift)\" = SLOW ] && grep -q 'Diagnosis: a register copied from a pending load' $R/shift.txt")" \
    "'Diagnosis: a register copied from a pending load'; $(speed shift)"
row wait SLOW "$(check "[ \"$(outcome wait)\" = SLOW ] && grep -q 'Diagnosis: a wait depth chosen at run time' $R/wait.txt")" \
    "'Diagnosis: a wait depth chosen at run time'; $(speed wait)"
row l2dist MECHANISM "$(check "[ \"$(outcome l2dist)\" = MECHANISM ] && message l2dist | grep -q 'run ahead of their line' && grep -q 'Diagnosis: an L2 prefetch that lands in the current' $R/l2dist.txt && tr '\n' ' ' < $R/l2dist.txt | tr -s " " | grep -q 'L2DIST \* BLOCKDIMX\], not &chunk\[i + L2DIST\]'")" \
    "not ahead; 'Diagnosis: an L2 prefetch that lands in the current iteration' with its fix; $(speed l2dist)"
row mbarrier HANG "$(check "[ \"$(outcome mbarrier)\" = HANG ] && message mbarrier | grep -q 'mbarrier' && ! message mbarrier | grep -q 'loop whose exit'")" \
    "message names the mbarrier phase, not loop conditions"
row libcuxx PASS "$(check "[ \"$(outcome libcuxx)\" = PASS ] && ! grep -q 'Diagnosis' $R/libcuxx.txt")" \
    "PASS and no diagnosis"
# Demos (lesson 7's rolling_direct) fail on purpose: only exercises count.
n_pass=$(grep '"demo": false' "$R/solutions.json" | grep -c '"outcome": "PASS"')
n_all=$(grep -c '"demo": false' "$R/solutions.json")
row solutions PASS "$(check "[ $n_pass -eq $n_all ] && [ $n_all -ge 6 ]")" \
    "$n_pass of $n_all solutions PASS (lessons 0 7 9 11 12; demos not counted)"

{
    echo
    echo "-- the printf report's explanation (printf.txt):"
    sed -n '/lesson0\/saxpy:/,/^$/p' "$R/printf.txt" | head -30
    echo "-- flood (flood.txt), the printed part:"
    grep -A3 -B1 'more lines not shown' "$R/flood.txt" | head -8
    echo "-- assert messages:"
    message assert | cut -c1-400
    message assert_late | cut -c1-400
    echo "-- mbarrier hang message:"
    message mbarrier | cut -c1-500
    echo "-- diagnoses (shift, wait, l2dist):"
    grep -A3 'Diagnosis' "$R/shift.txt" | head -4
    grep -A3 'Diagnosis' "$R/wait.txt" | head -4
    grep -A3 'Diagnosis' "$R/l2dist.txt" | head -4
} > "$R/excerpts.txt"

cat "$R/head.txt" "$SUMMARY" > "$OUT/summary.txt"
cat "$R/excerpts.txt" >> "$OUT/summary.txt"
tar czf "$OUT/printf-run.tgz" -C build printf-run 2>/dev/null
cat "$R/excerpts.txt"
echo
cat "$R/head.txt" "$SUMMARY"
