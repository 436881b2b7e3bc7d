#!/usr/bin/env bash
# sim-sample-run.sh: the timed launch's sampled run on the PTX simulator
# (grader/grade/sim_sample.h) and the special-register rule
# (grader/rules/ptx_rules.h), on a machine with an NVIDIA GPU. From the
# repository root:
#
#   bash tests/gpu/sim-sample-run.sh
#
# Grades, each with build/grader check ... --student-dir:
#   local       tests/gpu/cheats/onchip_replay (seed 5): WRONG, "depends on
#               memory it never wrote", "read local memory", "Seen on the PTX
#               simulator, which ran the launch that was timed"
#   local_again the same, seed 5 again: the same blocks named
#   local_other the same, seed 6: other blocks named
#   shared      tests/gpu/cheats/onchip_replay_shared: WRONG, "read shared memory"
#   tell_grid   tests/gpu/gaming/tell_grid (lesson 9): REFUSED, "could tell a
#               simulated launch from a real one"
#   tell_clock  tests/gpu/cheats/tell_clock: REFUSED, same words
#   libcuxx9    tests/gpu/accepted/lesson9-libcuxx: PASS (libcu++'s backoff
#               reads %globaltimer: let through)
#   libcuxx12   tests/gpu/accepted/lesson12-libcuxx: PASS
#   solutions   every lesson --solutions: every exercise PASS, with the
#               sampled run's time in each exercise's (see summary)
# Full reports go to build/sim-sample-run/; $OUT gets sim-sample-run.tgz and
# summary.txt (the table, also printed last). About 5-10 minutes.
set -uo pipefail
cd "$(dirname "$0")/../.."
START=$(date +%s)
OUT=${OUT:-build/sim-sample-out}
R=build/sim-sample-run
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

# grade TAG ARGS...: the report in $R/TAG.txt, JSON in $R/TAG.json.
grade() {
    local tag=$1; shift
    local t0=$(date +%s)
    timeout 900 build/grader check "$@" --json "$R/$tag.json" > "$R/$tag.txt" 2>&1
    echo $? > "$R/$tag.exit"
    echo $(($(date +%s) - t0)) > "$R/$tag.secs"
}
outcome() { sed -n 's/.*"outcome": "\([^"]*\)".*/\1/p' "$R/$1.json" 2>/dev/null | head -1; }
message() { sed -n 's/.*"message": "\([^"]*\)".*/\1/p' "$R/$1.json" 2>/dev/null | head -1; }
blocks() { message "$1" | sed -n 's/.*for \(blocks [^.]*\)\..*/\1/p'; }
row() {   # row TAG WANT RESULT(ok|FAIL) WHAT
    printf '%-12s %-9s %-9s %-5s %4ss  %s\n' "$1" "$2" "$(outcome "$1")" "$3" \
        "$(cat "$R/$1.secs" 2>/dev/null)" "$4" >> "$SUMMARY"
}
check() { if eval "$1"; then echo ok; else echo FAIL; fi; }
has() { message "$1" | grep -qF "$2"; }

grade local lesson0 --seed 5 --student-dir tests/gpu/cheats/onchip_replay
grade local_again lesson0 --seed 5 --student-dir tests/gpu/cheats/onchip_replay
grade local_other lesson0 --seed 6 --student-dir tests/gpu/cheats/onchip_replay
grade shared lesson0 --student-dir tests/gpu/cheats/onchip_replay_shared
grade tell_grid lesson9 --student-dir tests/gpu/gaming/tell_grid
grade tell_clock lesson0 --student-dir tests/gpu/cheats/tell_clock
grade libcuxx9 lesson9 --student-dir tests/gpu/accepted/lesson9-libcuxx
grade libcuxx12 lesson12 --student-dir tests/gpu/accepted/lesson12-libcuxx
grade solutions all --solutions --seed 3

SEEN="Seen on the PTX simulator, which ran the launch that was timed"
row local WRONG "$(check "[ \"$(outcome local)\" = WRONG ] && has local 'depends on memory it never wrote' && has local 'read local memory' && has local \"$SEEN\"")" \
    "unwritten local read on $(blocks local | cut -c1-60)"
row local_again WRONG "$(check "[ -n \"$(blocks local)\" ] && [ \"$(blocks local)\" = \"$(blocks local_again)\" ]")" \
    "seed 5 again: the same blocks"
row local_other WRONG "$(check "[ \"$(outcome local_other)\" = WRONG ] && [ \"$(blocks local)\" != \"$(blocks local_other)\" ]")" \
    "seed 6: $(blocks local_other | cut -c1-60)"
row shared WRONG "$(check "[ \"$(outcome shared)\" = WRONG ] && has shared 'read shared memory' && has shared \"$SEEN\"")" \
    "unwritten shared read on the timed launch's blocks"
row tell_grid REFUSED "$(check "[ \"$(outcome tell_grid)\" = REFUSED ] && has tell_grid 'could tell a simulated launch from a real one'")" \
    "%nsmid refused"
row tell_clock REFUSED "$(check "[ \"$(outcome tell_clock)\" = REFUSED ] && has tell_clock 'could tell a simulated launch from a real one'")" \
    "%clock64 refused"
row libcuxx9 PASS "$(check "[ \"$(outcome libcuxx9)\" = PASS ]")" "cuda::barrier's backoff let through"
row libcuxx12 PASS "$(check "[ \"$(outcome libcuxx12)\" = PASS ]")" "cuda::barrier's backoff let through"
n_pass=$(grep '"demo": false' "$R/solutions.json" | grep -c '"outcome": "PASS"')
n_all=$(grep -c '"demo": false' "$R/solutions.json")
row solutions PASS "$(check "[ $n_pass -eq $n_all ] && [ $n_all -ge 20 ]")" \
    "$n_pass of $n_all solutions PASS (demos not counted); compare the time with main's"

{
    echo "SIM SAMPLE RUN on $(cat "$R/gpu.txt"), $(date -u '+%Y-%m-%d %H:%M UTC'), $(($(date +%s) - START)) s"
    echo
    printf '%-12s %-9s %-9s %-5s %5s  %s\n' case want got check time "what was checked"
    cat "$SUMMARY"
    echo
    echo "-- local (local.txt), the message:"
    message local | fold -w 100
} > "$OUT/summary.txt"
tar czf "$OUT/sim-sample-run.tgz" -C build sim-sample-run
cat "$OUT/summary.txt"
! grep -q ' FAIL ' "$SUMMARY"
