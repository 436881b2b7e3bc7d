#!/usr/bin/env bash
# sim-agreement-run.sh: issue 27 item 6 on a GPU (the lent H100 or H200),
# from the repository root:
#
#   bash tests/gpu/sim-agreement-run.sh
#
# Needs only build/grader. Every kernel the CPU suite runs through the PTX
# simulator (tests/unit/test_sim_kernels.c: the solutions, stubs and
# baselines of lessons 0-13 and 15, and the tests/gpu kernels) is graded
# twice with the same seed: on the GPU (--correctness-only) and on the
# simulator (--no-gpu). Each side's correctness verdict is reduced to one
# word:
#   right    GPU: PASS, PASS_UNTIMED, SLOW, MECHANISM, TOO FAST;
#            simulator: CORRECT, or MECHANISM whose message says "Correct on
#            the PTX simulator"
#   WRONG    also the simulator's RACE (wrong whenever the order shows)
#   WRONG, CRASH, HANG, RESOURCES, COMPILE, MISSING, REFUSED: as graded
#   gpu?     simulator: "Correctness needs a GPU" (it did not judge)
# A row where the two words differ is a disagreement: a bug to find (or a
# race the GPU did not show this time: the simulator names its lines).
# Outputs: both sides write the student's output bytes of each correctness
# run (--dump-outputs: size<N>-seed<S>.bin); the runs both made (same size,
# same seed, so the same inputs) are compared with cmp. The bits column:
# "equal" when every common run's bytes are equal, "N/M differ" when N of M
# differ (a kernel whose order of float operations is not fixed, atomics,
# or a bug: the verdict column says whether it is within tolerance), "-"
# when no run is common (one side stopped first).
# Logs go to $OUT; the last thing printed is the table and the count.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-build/sim-agreement-out}
mkdir -p "$OUT"
export NO_COLOR=1
SEED=${SEED:-11}
make -j"$(nproc)" build/grader >"$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; exit 1; }
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)

# word LOG EXERCISE: the one word for an exercise's line of a report. The
# row's outcome (a demo's row says "(demo)" first); on the simulator's side
# a CHECKED or MECHANISM row is judged by the exercise's own message ("Correct
# on the PTX simulator (", with its figures: the report's header names the
# phrase too, in quotes, so the bare phrase says nothing).
word() {
    local log=$1 ex=$2 out text
    out=$(grep -E "^$ex " "$log" | awk '{print ($2 == "(demo)") ? $3 : $2}' | head -1)
    text=$(tr '\n' ' ' <"$log" | tr -s ' ')
    case $out in
    CORRECT) echo right ;;
    RACE) echo WRONG ;;
    CHECKED | MECHANISM)
        if [[ $log == *.sim.txt ]]; then
            if [[ $text == *"Correct on the PTX simulator ("* ]]; then echo right
            elif [[ $text == *"Correctness needs a GPU"* ]]; then echo "gpu?"
            else echo unjudged
            fi
        else
            echo right
        fi ;;
    PASS | "PASS*" | PASS_UNTIMED | SLOW | TOO) echo right ;;
    *) echo "${out:-none}" ;;
    esac
}

# The kernels: one line each, "TAG|LESSON|EXERCISE|DIR|ENVS|SETS".
jobs=$OUT/jobs.txt
: >"$jobs"
for l in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 15; do
    for ex in $(build/grader list 2>/dev/null | awk -v l="lesson$l/" 'index($1, l) == 1 {
                    sub(l, "", $1); print $1 }'); do
        for dir in solutions exercises grader/baselines; do
            [ -f "$dir/lesson$l/$ex.cu" ] &&
                echo "$(echo "lesson$l-$ex-$dir" | tr '/' '_')|$l|$ex|$dir||" >>"$jobs"
        done
    done
done
for e in tests/gpu/{faulty,races,accepted,cheats}/*/expect; do
    d=$(dirname "$e")
    l=$(awk '/^lesson:/ {print $2; exit}' "$e")
    ex=$(awk '/^exercise:/ {print $2; exit}' "$e")
    sets=$(awk '/^set:/ {for (i = 2; i <= NF; i++) printf "--set %s ", $i}' "$e")
    envs=$(awk '/^env:/ {$1 = ""; print}' "$e")
    echo "$(echo "lesson$l-$ex-$d" | tr '/' '_')|$l|$ex|$d|$envs|$sets" >>"$jobs"
done

# side SIDE LINE: one kernel on one side (gpu: --correctness-only on the
# GPU; sim: --no-gpu), its report and its output bytes under $OUT.
side() {
    local side=$1 tag l ex dir envs sets flag
    IFS='|' read -r tag l ex dir envs sets <<<"$2"
    flag=--correctness-only
    [ "$side" = sim ] && flag=--no-gpu
    rm -rf "$OUT/dump/$tag.$side"
    mkdir -p "$OUT/dump/$tag.$side"
    # shellcheck disable=SC2086  # ENVS and SETS are words
    env $envs build/grader check "lesson$l" --only "$ex" --student-dir "$dir" --seed "$SEED" \
        $flag --dump-outputs "$OUT/dump/$tag.$side" $sets >"$OUT/$tag.$side.txt" 2>&1
}
# LIMIT=N: only the first N kernels (a quick try of the script itself).
if [ -n "${LIMIT:-}" ] && [ "$LIMIT" != all ]; then head -n "$LIMIT" "$jobs" >"$jobs.first"; mv "$jobs.first" "$jobs"; fi
export -f side
export OUT SEED
# The GPU side one kernel at a time (the GPU is one); the simulator's side
# on the CPU's cores at the same time.
# shellcheck disable=SC2016  # $1 is bash -c's own argument
xargs -d '\n' -P "$(nproc)" -I{} bash -c 'side sim "$1"' _ {} <"$jobs" &
SIMS=$!
while IFS= read -r line; do side gpu "$line"; done <"$jobs"
wait $SIMS

agree=0
differ=0
equal=0
rows=$OUT/rows.txt
: >"$rows"
while IFS='|' read -r tag l ex dir _; do
    dg=$OUT/dump/$tag.gpu ds=$OUT/dump/$tag.sim
    common=0 unequal=0
    for f in "$dg"/*.bin; do
        if [ ! -f "$f" ] || [ ! -f "$ds/${f##*/}" ]; then continue; fi
        common=$((common + 1))
        cmp -s "$f" "$ds/${f##*/}" || unequal=$((unequal + 1))
    done
    if [ $common = 0 ]; then bits=-
    elif [ $unequal = 0 ]; then bits=equal; equal=$((equal + 1))
    else bits="$unequal/$common differ"
    fi
    g=$(word "$OUT/$tag.gpu.txt" "lesson$l/$ex")
    s=$(word "$OUT/$tag.sim.txt" "lesson$l/$ex")
    if [ "$g" = "$s" ]; then agree=$((agree + 1)); else differ=$((differ + 1)); fi
    printf '%-8s %-9s %-9s %-12s lesson%s/%s %s\n' \
        "$([ "$g" = "$s" ] && echo same || echo DIFFER)" "$g" "$s" "$bits" "$l" "$ex" "$dir" \
        >>"$rows"
done <"$jobs"

echo "# sim agreement, $GPU, seed $SEED, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "# same/DIFFER  GPU  simulator  bits  exercise  folder"
cat "$rows"
echo "agree: $agree, differ: $differ; outputs bit for bit equal in $equal kernels"
