#!/usr/bin/env bash
# race-check.sh: what `make check lessonN SANITIZE=race` runs.
#
#   GRADER=build/grader CUDA_HOME=/usr/local/cuda \
#       bash grader/scripts/race-check.sh lesson9 [grader options...]
#
# Runs every selected exercise's correctness checks (grader --correctness-only)
# twice under NVIDIA's compute-sanitizer: racecheck (shared-memory races,
# cp.async copies included) and synccheck (barriers used wrongly). One
# exercise per run, so every finding belongs to one kernel. Prints, per
# exercise, "lessonN/name: RACE: ..." with the file and line of every hazard
# the tool names, or "lessonN/name: no race found ..."; the tools' full
# output stays in build/sanitize/.
#
# racecheck reports a hazard on memory filled by asynchronous copies as a
# Warning, not an Error (CUDA 13.0 on an H100: lesson 9's ring without a
# commit per iteration gave 3 warnings and no error, and was wrong in every
# launch at 4 blocks per SM). Here a warning counts as much as an error.
#
# Exit status: 0 when no exercise has a finding and every one is correct
# under the tools, 1 when one has, 2 when the tools could not run.
set -u
GRADER=${GRADER:-build/grader}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
OUT=build/sanitize
export NO_COLOR=1

lessons=()
opts=()
student=exercises
only=
while [ $# -gt 0 ]; do
    case $1 in
    --student-dir) student=$2; opts+=("$1" "$2"); shift 2 ;;
    --solutions) student=solutions; opts+=("$1"); shift ;;
    --only) only=$2; shift 2 ;;
    --json | --timeout) shift 2 ;;          # ours, not the caller's
    --ncu) shift ;;                         # counters under a sanitizer mean nothing
    --set | --seed | --root) opts+=("$1" "$2"); shift 2 ;;
    -*) opts+=("$1"); shift ;;
    *) lessons+=("$1"); shift ;;
    esac
done
[ ${#lessons[@]} -eq 0 ] && lessons=(all)

# The same lookup as SANITIZE=1: the toolkit's own copy first, then PATH.
SAN=$(sh "$(dirname "$0")/find-sanitizer.sh" "$CUDA_HOME") || exit 2
mkdir -p "$OUT"

# lessonN/name and the kernel file it grades, from `grader list`.
listing=$("$GRADER" list "${lessons[@]}" ${only:+--only "$only"} 2>&1) || {
    echo "$listing"
    exit 2
}
mapfile -t exercises < <(echo "$listing" | awk '
    /^lesson[0-9]+\// { name = $1 }
    /^ +edit: / && name != "" { print name " " $2; name = "" }')
if [ ${#exercises[@]} -eq 0 ]; then
    echo "SANITIZE=race: no exercise matches ${lessons[*]}${only:+ ONLY=$only}"
    exit 2
fi

# The findings of one tool's output, one line each, with the student's file
# named as the student knows it. $1: tool, $2: its output, $3: the file's
# name as the tool shows it (basename), $4: the file as the student knows it.
findings() {
    awk -v tool="$1" -v base="$3" -v path="$4" '
        function where(line,   s, loc) {
            # The last " in FILE:LINE" of the line: the symbol before it may
            # hold spaces and parentheses, never " in ".
            loc = ""
            s = line
            while (match(s, / in [^ \[]+:[0-9]+/)) {
                loc = substr(s, RSTART + 4, RLENGTH - 4)
                s = substr(s, RSTART + RLENGTH)
            }
            if (index(loc, base ":") == 1) loc = path substr(loc, length(base) + 1)
            return loc
        }
        function access(line) { return line ~ /Write access/ ? "write" : "read" }
        function flush() {
            if (head != "") print "    " head partners
            head = ""; partners = ""; delete seen
        }
        tool == "racecheck" && /^========= (Error|Warning): Race reported between/ {
            flush()
            kind = $2; sub(/:$/, "", kind)
            head = kind ": a " access($0) " at " where($0) " races with"
            next
        }
        tool == "racecheck" && head != "" && /^=========  +and / {
            p = "a " access($0) " at " where($0)
            if ($0 ~ /cp_async|CpAsync|memcpy_async/) p = p " (an asynchronous copy, cp.async)"
            if (!(p in seen)) { seen[p] = 1; partners = partners (partners == "" ? " " : "; ") p }
            next
        }
        tool == "racecheck" { flush() }
        tool == "synccheck" && /^========= [A-Z]/ && !/COMPUTE-SANITIZER|ERROR SUMMARY|Target application|Program hit|Saved host|Host Frame/ {
            msg = $0; sub(/^========= /, "", msg); want_loc = 1; next
        }
        tool == "synccheck" && want_loc && / in [^ ]+:[0-9]+/ {
            print "    synccheck: " msg " at " where($0); want_loc = 0
        }
        END { flush() }' "$2" | awk '!seen[$0]++' | head -20
}

raced=0
broken=0
wrong=0
for e in "${exercises[@]}"; do
    name=${e%% *}
    edit=${e#* }
    lesson=${name%%/*}
    file=${edit##*/}
    # As the student knows it: under their folder, or the course's demo.
    case $edit in
    exercises/*) shown=$student/${edit#exercises/} ;;
    *) shown=$edit ;;
    esac
    tag=$(echo "$name" | tr / -)
    summary=()
    lines=()
    outcome=
    hazards=0
    sync_errors=0
    for tool in racecheck synccheck; do
        log=$OUT/$tool-$tag.txt
        json=$OUT/$tool-$tag.json
        rm -f "$json"
        echo "SANITIZE=race: $tool on $name ..." >&2
        GRADER_LAUNCH_TIMEOUT=120 "$SAN" --tool "$tool" --print-limit 100 \
            "$GRADER" check "$lesson" --only "${name#*/}" "${opts[@]}" --correctness-only \
            --timeout 600 --json "$json" >"$log" 2>&1
        o=$(sed -n 's/.*"outcome": "\([^"]*\)".*/\1/p' "$json" 2>/dev/null | head -1)
        [ "$tool" = racecheck ] && outcome=${o:-none}
        [ "${o:-none}" != "PASS*" ] && [ "${o:-none}" != SKIPPED ] && wrong=1
        if [ "$tool" = racecheck ]; then
            # "RACECHECK SUMMARY: 3 hazards displayed (0 errors, 3 warnings)"
            s=$(sed -n 's/.*RACECHECK SUMMARY: \([0-9]*\) hazards\{0,1\} displayed \((.*)\).*/\1 \2/p' "$log" | tail -1)
            if [ -n "$s" ]; then
                hazards=${s%% *}
                summary+=("racecheck: $hazards hazards ${s#* }")
            fi
        else
            s=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors\{0,1\}.*/\1/p' "$log" | tail -1)
            [ -n "$s" ] && sync_errors=$s && summary+=("synccheck: $s errors")
        fi
        if [ -z "$s" ]; then
            summary+=("$tool gave no summary: see $log")
            broken=1
            unfinished=1
        fi
        mapfile -t -O "${#lines[@]}" lines < <(findings "$tool" "$log" "$file" "$shown")
    done
    if [ "$hazards" -gt 0 ] && [ "$sync_errors" -gt 0 ]; then
        verdict="RACE and SYNC ERROR"
    elif [ "$hazards" -gt 0 ]; then
        verdict="RACE"
    elif [ "$sync_errors" -gt 0 ]; then
        verdict="SYNC ERROR"
    elif [ "${unfinished:-0}" = 1 ]; then
        verdict="NOT CHECKED"
    else
        verdict="no race found"
    fi
    [ "$hazards" -gt 0 ] || [ "$sync_errors" -gt 0 ] && raced=$((raced + 1))
    unfinished=0
    echo "$name: $verdict ($(IFS=';'; echo "${summary[*]}" | sed 's/;/; /g')); correctness under the tools: $outcome"
    for l in "${lines[@]}"; do
        echo "$l"
    done
done

echo
echo "Full reports: $OUT/racecheck-*.txt and $OUT/synccheck-*.txt"
if [ "$raced" -gt 0 ]; then
    cat <<'EOF'
A RACE or SYNC ERROR above is a finding to fix, Warning or Error alike.
racecheck gives a hazard between threads of one warp the Warning level (the
Compute Sanitizer manual, "Racecheck Severity Levels": hazards that code
written for a warp moving in step may create on purpose) and one between
warps the Error level. In an asynchronous ring each thread reads the slot
its own copy (cp.async) writes, so a missing wait is a Warning; it is still
a read that can see a slot before its copy has landed, or a store over data
another thread may still be reading. The file and line are
where it happens; the lesson of the exercise says which barrier or wait
orders them (__syncthreads() between filling a tile and reading it, and
again before refilling it; one __pipeline_commit() per iteration and
__pipeline_wait_prior(PDIST - 1) before reading a slot).
EOF
fi
[ "$wrong" = 1 ] && echo "An exercise was not correct under the tools (its outcome is above; the grader's report is in $OUT/)."
[ "$broken" = 1 ] && echo "compute-sanitizer did not finish every run: see $OUT/ for what it said."
if [ "$broken" = 1 ]; then
    exit 2
elif [ "$raced" -gt 0 ] || [ "$wrong" = 1 ]; then
    exit 1
fi
exit 0
