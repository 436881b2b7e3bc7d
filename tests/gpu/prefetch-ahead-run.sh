#!/usr/bin/env bash
# prefetch-ahead-run.sh: issue 15 item 1 for lesson 11 on a GPU: does the
# knock-out run hold an L2 prefetch only when it runs ahead of the load it
# serves (grader/grade/knockout_run.c)? From the repository root, on a machine
# with an NVIDIA GPU (no Check library needed):
#
#   bash tests/gpu/prefetch-ahead-run.sh
#
# Grades (build/grader check lesson11 --only ...):
#   sol11a        solutions, 11a at its defaults: PASS, prefetch check holds
#                 ("... of them ahead of their load")
#   sol11a_d1     11a's solution at L2DIST=1 (before its load: one load
#                 between): the prefetch check holds (speed may be SLOW)
#   sol11b        solutions, 11b at its defaults (PDIST 2, L2DIST 8): PASS
#   sol11b_d4     11b's solution at L2DIST=4: the check holds
#   sol11b_d3     11b's solution at L2DIST=3 = PDIST + 1 (the copy of the
#                 next iteration follows the prefetch): MECHANISM, not ahead
#   now behind    tests/gpu/gaming/prefetch_now, prefetch_behind: MECHANISM,
#                 "run ahead of their line's first load"
#   l2dist        tests/gpu/faulty/l2dist_elements: MECHANISM, not ahead
#   token dead    tests/gpu/gaming/token_prefetch, dead_l2_prefetch:
#                 MECHANISM, "ran for only"
# and prints a table last: case, wanted, got, ok/FAIL, the prefetch
# check's clause. Reports in $OUT (summary.txt, reports.tgz). About 4-6
# minutes; bounded by PF_SECONDS (default 450).
set -uo pipefail
cd "$(dirname "$0")/../.."
START=$(date +%s)
BUDGET=${PF_SECONDS:-450}
OUT=${OUT:-build/prefetch-ahead-out}
R=build/prefetch-ahead-run
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
left() { echo $((BUDGET - ($(date +%s) - START))); }

# grade TAG ARGS...: report in $R/TAG.txt, JSON in $R/TAG.json.
grade() {
    local tag=$1; shift
    [ "$(left)" -gt 20 ] || { echo "out of time" > "$R/$tag.txt"; return; }
    local t0=$(date +%s) lim=$(( $(left) > 150 ? 150 : $(left) ))
    timeout "$lim" build/grader check lesson11 "$@" --json "$R/$tag.json" > "$R/$tag.txt" 2>&1
    echo $(($(date +%s) - t0)) > "$R/$tag.secs"
}
outcome() { sed -n 's/.*"outcome": "\([^"]*\)".*/\1/p' "$R/$1.json" 2>/dev/null | head -1; }
# row TAG WANT-OUTCOME(any: not checked) WANT-CLAUSE-TEXT
row() {
    local got c ok=ok
    # The first mention: the message's (MECHANISM) or the check's (PASS).
    got=$(outcome "$1"); c=$(grep -o "prefetch.global.L2'[^\"]*" "$R/$1.json" 2>/dev/null | head -1)
    [ "$2" = any ] || [ "$got" = "$2" ] || ok=FAIL
    printf '%s' "$c" | grep -q -- "$3" || ok=FAIL
    printf '%-10s %-9s %-9s %-4s %4ss  %s\n' "$1" "$2" "${got:-none}" "$ok" \
        "$(cat "$R/$1.secs" 2>/dev/null)" "$(printf '%s' "$c" | cut -c1-150)" >> "$SUMMARY"
}

grade sol11a --only l2_prefetch --solutions
grade sol11b --only short_ring --solutions
grade now --only l2_prefetch --student-dir tests/gpu/gaming/prefetch_now
grade behind --only l2_prefetch --student-dir tests/gpu/gaming/prefetch_behind
grade l2dist --only l2_prefetch --student-dir tests/gpu/faulty/l2dist_elements
grade sol11b_d3 --only short_ring --solutions --set L2DIST=3
grade sol11a_d1 --only l2_prefetch --solutions --set L2DIST=1
grade sol11b_d4 --only short_ring --solutions --set L2DIST=4
grade token --only l2_prefetch --student-dir tests/gpu/gaming/token_prefetch
grade dead --only l2_prefetch --student-dir tests/gpu/gaming/dead_l2_prefetch

AHEAD="of them ahead of their load"
NOT="run ahead of their line's first load"
row sol11a PASS "$AHEAD"
row sol11a_d1 any "$AHEAD"
row sol11b PASS "$AHEAD"
row sol11b_d4 any "$AHEAD"
row sol11b_d3 MECHANISM "$NOT"
row now MECHANISM "$NOT"
row behind MECHANISM "$NOT"
row l2dist MECHANISM "$NOT"
row token MECHANISM "ran for only"
row dead MECHANISM "ran for only"

{
    echo "PREFETCH-AHEAD RUN on $(cat "$R/gpu.txt"), $(date -u '+%Y-%m-%d %H:%M UTC'), $(($(date +%s) - START)) s"
    echo
    printf '%-10s %-9s %-9s %-4s %5s  %s\n' case want got ok time "the prefetch check (JSON)"
    cat "$SUMMARY"
    echo
    echo "$(grep -c ' ok ' "$SUMMARY") of $(wc -l < "$SUMMARY") rows ok"
} > "$OUT/summary.txt"
tar czf "$OUT/reports.tgz" -C build prefetch-ahead-run 2>/dev/null
cat "$OUT/summary.txt"
