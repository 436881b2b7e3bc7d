#!/usr/bin/env bash
# cpu-suite.sh: the CPU test suite, its independent parts run side by side
# (tests/run-parts.sh). make test-cpu runs it once everything the parts use
# is built; run alone, it expects the same (make test-cpu-build).
#
#   UNIT_BIN=build/tests/unit_tests GRADER=build/grader TEST_JOBS=3 bash tests/cpu-suite.sh
#
# The parts: each Check suite of the unit binary (unit/NAME, one process
# each; Check still runs every test in a child of its own, with its
# timeout), SANITIZE=race's report, the command line, the grader's layers
# (no include circle: tests/layers/run.sh), the class tools, the
# student copy, and the slides in Chromium. None of them uses a GPU to time
# anything. CK_RUN_SUITE, CK_RUN_CASE or Check's tag variables in the
# environment select unit tests as they always did: the unit binary then
# runs as one part, with them.
set -u
cd "$(dirname "$0")/.."
unit=${UNIT_BIN:-build/tests/unit_tests}
grader=${GRADER:-build/grader}
jobs=${TEST_JOBS:-$(($(nproc 2>/dev/null || echo 2) + 1))}
logs=build/tests/parts
# The parts' own makes: none of the outer make's job flags (its jobserver is
# not theirs); the variables set on its command line stay.
MAKEFLAGS=$(sed -E 's/(^| )-j[0-9]*//g; s/ ?--jobserver-(auth|fds)=[^ ]*//g' <<<"${MAKEFLAGS:-}")
export MAKEFLAGS
make=${MAKE:-make}

# About how long each part takes alone on a 2-core machine, in seconds.
# The parts are listed (and printed) lightest first, and run-parts.sh starts
# one part at a time in that order and the rest heaviest first: the short
# parts' output comes early, and the long parts start at once, so that none
# is left running alone at the end. Only the order depends on the weights.
weight() {
    case $1 in
    class/slurm) echo 38 ;;
    unit/fixtures) echo 16 ;;
    unit/sim_kernels) echo 24 ;;
    class/release) echo 15 ;;
    slides) echo 13 ;;
    layers) echo 20 ;;
    unit/specs | cli | class/gpus) echo 8 ;;
    unit/static | unit/nogpu) echo 6 ;;
    unit/compile | unit/compile_limits | unit/ptx_rules) echo 3 ;;
    unit/pipeline | unit/reference | class/grade-class | class/hostile | class/guard) echo 2 ;;
    unit/class | unit/source_rules) echo 1 ;;
    *) echo 0 ;;
    esac
}
part() { printf '%s\t%s\t%s\n' "$1" "$(weight "$1")" "$2"; }

parts() {
    if [ -n "${CK_RUN_SUITE:-}${CK_RUN_CASE:-}${CK_INCLUDE_TAGS:-}${CK_EXCLUDE_TAGS:-}" ]; then
        part unit "$(printf '%q' "$unit")"
    else
        local names
        names=$("$unit" --list) || { echo "cpu-suite: $unit --list failed" >&2; return 1; }
        for s in $names; do
            part "unit/$s" "CK_RUN_SUITE=$s $(printf '%q' "$unit")"
        done
    fi
    part race-check "GRADER=$(printf '%q' "$grader") bash tests/unit/race_check/run.sh"
    part cli "bash tests/cli/run.sh"
    part layers "bash tests/layers/run.sh"
    part class/grade-class "bash tests/class/grade-class.sh"
    part class/release "bash tests/class/release.sh"
    part class/hostile "bash tests/class/hostile-class.sh"
    part class/guard "bash tests/class/guard-class.sh"
    part class/gpus "bash tests/class/gpus-class.sh"
    part class/slurm "bash tests/class/slurm-class.sh"
    part slides "$(printf '%q' "$make") --no-print-directory test-slides"
}

list=$(parts) || exit 1
list=$(sort -s -t$'\t' -k2,2n <<<"$list")
echo "== CPU test suite (no GPU needed): $(wc -l <<<"$list") parts, $jobs at a time =="
bash tests/run-parts.sh -j "$jobs" -d "$logs" <<<"$list"
rc=$?
[ $rc -ne 130 ] || exit 130     # stopped (Ctrl-C): no totals

# The unit tests' total, as the one binary used to print it.
checks=0 failures=0 errors=0
for f in "$logs"/unit*.log; do
    [ -f "$f" ] || continue
    read -r c fl e < <(sed -n 's/.*Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\).*/\1 \2 \3/p' "$f" | tail -1)
    checks=$((checks + ${c:-0})) failures=$((failures + ${fl:-0})) errors=$((errors + ${e:-0}))
done
echo "unit tests, all parts: $checks checks, $failures failures, $errors errors"
# A part that could not run here says SKIPPED and the command that enables
# it; repeat those lines last, so a skip is never lost in the scroll.
skipped=$(grep -h 'SKIPPED' "$logs"/*.log 2>/dev/null)
if [ -n "$skipped" ]; then
    echo "parts skipped on this machine (the suite is not complete):"
    sed 's/^/  /' <<<"$skipped"
fi
exit $rc
