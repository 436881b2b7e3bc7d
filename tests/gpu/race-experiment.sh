#!/usr/bin/env bash
# race-experiment.sh OUTDIR: which races of the course's kernels does the
# grader catch, and which do compute-sanitizer's racecheck and synccheck
# report? For a machine with an NVIDIA GPU (compute capability 8.0+ for the
# lesson 9 probes); about 4 minutes on an H100, bounded by RACE_SECONDS
# (default 230; each phase stops early when its share is spent and says so).
#
#   bash tests/gpu/race-experiment.sh build/race        # from the repository root
#
# The racy kernels live in tests/gpu/races/<variant>/lessonN/<file>.cu (see
# the README there). Four phases, five files in OUTDIR:
#
#   probes.tsv     build/tests/race_probe: the share of launches that give a
#                  wrong answer, per variant, knob setting and problem size,
#                  with the reference solutions as controls (must be 0)
#   sanitizer.txt  compute-sanitizer racecheck and synccheck on the
#                  correctness runs (build/grader --correctness-only), as
#                  `make check SANITIZE=race` would run them
#   gradings.tsv   normal gradings (build/grader check): how many a race fails
#   log.txt        GPU, toolkit, compute-sanitizer version, build, timings
#   summary.txt    the three tables, also printed last
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: tests/gpu/race-experiment.sh OUTDIR}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
export NO_COLOR=1
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
BUDGET=${RACE_SECONDS:-230}
START=$(date +%s)
LOG=$OUT/log.txt
PROBES=$OUT/probes.tsv
SAN=$OUT/sanitizer.txt
GRADES=$OUT/gradings.tsv
SUMMARY=$OUT/summary.txt
TMP=build/race-tmp
mkdir -p "$TMP"
: >"$LOG"
: >"$SAN"

now() { echo $(($(date +%s) - START)); }
log() { echo "== +$(now)s $*" | tee -a "$LOG"; }
# left: seconds until the phase ends at second $1 of the run (and never past
# the whole budget).
left() {
    local end=$1
    [ "$end" -gt "$BUDGET" ] && end=$BUDGET
    echo $((end - $(now)))
}

R=tests/gpu/races
SOL=solutions

# ---- 0. the machine -------------------------------------------------------
log "machine"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu \
    --format=csv >>"$LOG" 2>&1
date -u '+date %Y-%m-%d %H:%M UTC' >>"$LOG"
SANITIZER=$(command -v compute-sanitizer || true)
for c in "$CUDA_HOME/bin/compute-sanitizer" "$CUDA_HOME/compute-sanitizer/compute-sanitizer"; do
    [ -z "$SANITIZER" ] && [ -x "$c" ] && SANITIZER=$c
done
if [ -n "$SANITIZER" ]; then
    echo "compute-sanitizer: $SANITIZER" >>"$LOG"
    "$SANITIZER" --version >>"$LOG" 2>&1
    # The racecheck/synccheck options this version has (cp.async tracking...).
    "$SANITIZER" --help 2>&1 | grep -iE 'racecheck|synccheck|memcpy-async' >>"$LOG"
else
    echo "compute-sanitizer: not found (PATH, $CUDA_HOME/bin)" | tee -a "$LOG"
fi

# ---- 1. build -------------------------------------------------------------
log "build"
if ! make -j"$(nproc)" CUDA_HOME="$CUDA_HOME" build/grader build/tests/race_probe >>"$LOG" 2>&1; then
    tail -30 "$LOG"
    echo "build failed; see $LOG"
    exit 1
fi

# ---- 2. probes: wrong launches out of many ------------------------------
# tag | lesson | exercise | file | knob settings (space-separated K=V) | sizes
# The sizes: the exercise's correctness sizes and its timing size, i.e. every
# size normal grading verifies the student's kernel at.
PROBE_END=$((BUDGET * 40 / 100))
printf 'tag\texercise\tknobs\tsize\tlaunches\twrong\tfirst_wrong\tseconds\tfirst_failure\n' >"$PROBES"
probe() {
    local tag=$1 lesson=$2 only=$3 file=$4 sets=$5 sizes=$6
    local t
    t=$(left $PROBE_END)
    if [ "$t" -le 2 ]; then
        printf '%s\tlesson%s/%s\t%s\t-\t0\t0\t-\t0\tnot run: probe phase out of time\n' \
            "$tag" "$lesson" "$only" "$sets" >>"$PROBES"
        return
    fi
    local args=()
    for s in $sets; do args+=(--set "$s"); done
    timeout "$((t + 5))" build/tests/race_probe --lesson "$lesson" --only "$only" --file "$file" \
        "${args[@]}" --sizes "$sizes" --launches 1000 --seconds 1 --tag "$tag" \
        >>"$PROBES" 2>>"$LOG"
    local rc=$?
    [ $rc -ne 0 ] && echo "probe $tag [$sets] exit $rc" >>"$LOG"
}
log "probes (until +${PROBE_END}s)"
MM=matmul
RA=rolling_async
CI=$R/async_commit_if_copy/lesson9/rolling_async.cu
WP=$R/async_wait_prior_pdist/lesson9/rolling_async.cu
WG=$R/async_wait_group_pdist/lesson9/rolling_async.cu
# Lesson 3: the missing second barrier at each tile size; the missing first
# one as the control that must be caught; the solution must never be wrong.
probe no_second_sync 3 $MM $R/matmul_no_second_sync/lesson3/matmul.cu "TILE=16" check,time
probe no_second_sync 3 $MM $R/matmul_no_second_sync/lesson3/matmul.cu "TILE=32" check,time
probe no_second_sync 3 $MM $R/matmul_no_second_sync/lesson3/matmul.cu "TILE=8" check,time
probe no_first_sync 3 $MM $R/matmul_no_first_sync/lesson3/matmul.cu "TILE=16" check,time
probe solution 3 $MM $SOL/lesson3/matmul.cu "TILE=32" check,time
# Lesson 9: commit only with a copy (the blog's code), at the default and
# under stress (short distance: copies land later than the reads; more blocks
# per SM: a loaded memory system, later and more uneven landings). One wait
# too few: through the header (clamped to 8 from PDIST 9 on, so not racy at
# 16) and as the PTX instruction (racy at every PDIST). The most telling
# cells first, in case the phase runs out of time.
probe commit_if_copy 9 $RA $CI "PDIST=8 BLOCKS_PER_SM=1" check,time
probe commit_if_copy 9 $RA $CI "PDIST=2 BLOCKS_PER_SM=1" check,time
probe solution 9 $RA $SOL/lesson9/rolling_async.cu "PDIST=2 BLOCKS_PER_SM=16" check,time
probe wait_prior_pdist 9 $RA $WP "PDIST=8" check,time
probe wait_group_pdist 9 $RA $WG "PDIST=16" check,time
probe commit_if_copy 9 $RA $CI "PDIST=8 BLOCKS_PER_SM=16" check,time
probe commit_if_copy 9 $RA $CI "PDIST=2 BLOCKS_PER_SM=16" check,time
probe commit_if_copy 9 $RA $CI "PDIST=4 BLOCKS_PER_SM=1" check,time
probe commit_if_copy 9 $RA $CI "PDIST=16 BLOCKS_PER_SM=1" check,time
probe commit_if_copy 9 $RA $CI "PDIST=8 BLOCKS_PER_SM=4" check,time
probe commit_if_copy 9 $RA $CI "PDIST=2 BLOCKS_PER_SM=4" check,time
probe wait_prior_pdist 9 $RA $WP "PDIST=4" check,time
probe wait_prior_pdist 9 $RA $WP "PDIST=16" check,time
probe wait_group_pdist 9 $RA $WG "PDIST=8" check,time
probe solution 9 $RA $SOL/lesson9/rolling_async.cu "PDIST=8 BLOCKS_PER_SM=1" check,time

# ---- 3. compute-sanitizer on the correctness runs ------------------------
# As `make check lessonN SANITIZE=race` runs them: the grader under the tool,
# correctness only. The solutions are the false-positive controls.
SAN_END=$((BUDGET * 72 / 100))
SANRUNS=()
sanitize() {
    local tool=$1 tag=$2 lesson=$3 only=$4 dir=$5 sets=$6
    local t
    t=$(left $SAN_END)
    local args=()
    for s in $sets; do args+=(--set "$s"); done
    {
        echo "######## $tool | $tag | lesson$lesson/$only | $dir | $sets"
    } >>"$SAN"
    if [ -z "$SANITIZER" ]; then
        echo "not run: no compute-sanitizer" >>"$SAN"
        SANRUNS+=("$tool|$tag|$sets|not run (no compute-sanitizer)|-")
        return
    fi
    if [ "$t" -le 5 ]; then
        echo "not run: sanitizer phase out of time" >>"$SAN"
        SANRUNS+=("$tool|$tag|$sets|not run (out of time)|-")
        return
    fi
    [ "$t" -gt 90 ] && t=90
    local t0 out
    t0=$(date +%s)
    out=$TMP/san-$tool-$tag.txt
    # The grader's own limit ends its child (in a process group of its own,
    # which `timeout` would not reach); `timeout` is the backstop.
    GRADER_LAUNCH_TIMEOUT=$t timeout -k 5 "$((t + 15))" "$SANITIZER" --tool "$tool" \
        --print-limit 10 build/grader check "lesson$lesson" --only "$only" --student-dir "$dir" \
        --correctness-only --timeout "$t" --json "$TMP/san.json" "${args[@]}" >"$out" 2>&1
    local rc=$?
    local secs=$(($(date +%s) - t0))
    # Keep the tool's findings (first ones) and its summaries, not the table.
    grep -E '^=========' "$out" | head -60 >>"$SAN"
    echo "exit $rc after ${secs}s" >>"$SAN"
    local summary outcome
    summary=$(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$out" | sed 's/^=* *//' | tr '\n' ' ')
    [ $rc -ge 124 ] && summary="timed out after ${secs}s; $summary"
    outcome=$(grep -o '"outcome": "[^"]*"' "$TMP/san.json" 2>/dev/null | head -1 | cut -d'"' -f4)
    rm -f "$TMP/san.json"
    SANRUNS+=("$tool|$tag|$sets|${summary:-no summary line}|${outcome:--}")
}
log "compute-sanitizer (until +${SAN_END}s)"
sanitize racecheck no_second_sync 3 $MM $R/matmul_no_second_sync "TILE=16"
sanitize racecheck commit_if_copy 9 $RA $R/async_commit_if_copy "PDIST=8"
sanitize racecheck solution 9 $RA $SOL "PDIST=8"
sanitize racecheck solution 3 $MM $SOL "TILE=16"
sanitize racecheck wait_prior_pdist 9 $RA $R/async_wait_prior_pdist "PDIST=8"
sanitize racecheck no_first_sync 3 $MM $R/matmul_no_first_sync "TILE=16"
sanitize synccheck no_second_sync 3 $MM $R/matmul_no_second_sync "TILE=16"
sanitize synccheck commit_if_copy 9 $RA $R/async_commit_if_copy "PDIST=8"
sanitize synccheck solution 9 $RA $SOL "PDIST=8"
sanitize racecheck commit_if_copy 9 $RA $R/async_commit_if_copy "PDIST=2"
sanitize synccheck wait_prior_pdist 9 $RA $R/async_wait_prior_pdist "PDIST=8"
sanitize racecheck wait_group_pdist 9 $RA $R/async_wait_group_pdist "PDIST=16"

# ---- 4. normal gradings ---------------------------------------------------
# Round robin, so every variant gets its share if time runs short. The
# controls need only a couple: they should fail every time.
log "normal gradings (until +${BUDGET}s)"
printf 'tag\texercise\tknobs\trun\toutcome\tseconds\tmessage\n' >"$GRADES"
grade_once() {
    local tag=$1 lesson=$2 only=$3 dir=$4 sets=$5 run=$6
    local args=()
    for s in $sets; do args+=(--set "$s"); done
    local t0 outcome msg
    t0=$(date +%s)
    timeout -k 5 150 build/grader check "lesson$lesson" --only "$only" --student-dir "$dir" \
        --json "$TMP/grade.json" "${args[@]}" >"$TMP/grade.txt" 2>&1
    outcome=$(grep -o '"outcome": "[^"]*"' "$TMP/grade.json" 2>/dev/null | head -1 | cut -d'"' -f4)
    msg=$(sed -n 's/.*"message": "\([^"]\{0,220\}\).*/\1/p' "$TMP/grade.json" 2>/dev/null | head -1)
    rm -f "$TMP/grade.json"
    printf '%s\tlesson%s/%s\t%s\t%s\t%s\t%s\t%s\n' "$tag" "$lesson" "$only" "${sets:-defaults}" "$run" \
        "${outcome:-none}" "$(($(date +%s) - t0))" "$msg" >>"$GRADES"
}
GRADED=(
    "no_second_sync|3|$MM|$R/matmul_no_second_sync||20"
    "commit_if_copy|9|$RA|$R/async_commit_if_copy||20"
    "commit_if_copy|9|$RA|$R/async_commit_if_copy|PDIST=2|4"
    "wait_prior_pdist|9|$RA|$R/async_wait_prior_pdist||2"
    "no_first_sync|3|$MM|$R/matmul_no_first_sync||2"
)
for run in $(seq 1 20); do
    for g in "${GRADED[@]}"; do
        IFS='|' read -r tag lesson only dir sets max <<<"$g"
        [ "$run" -gt "$max" ] && continue
        # A grading takes a few seconds; do not start one that cannot end in time.
        [ "$(left $BUDGET)" -le 12 ] && break 2
        grade_once "$tag" "$lesson" "$only" "$dir" "$sets" "$run"
    done
done

# ---- 5. summary -------------------------------------------------------------
log "summary"
{
    echo "RACE EXPERIMENT on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), $(date -u +%Y-%m-%d), $(now)s"
    echo
    echo "1. Wrong launches out of launches, per problem size (race_probe; the solutions must show 0)"
    awk -F'\t' 'NR > 1 {
            key = $1 "  " $3
            if (!(key in seen)) { seen[key] = 1; order[++n] = key }
            cell[key] = cell[key] sprintf(" %s:%s/%s", $4, $6, $5)
            if ($9 != "-" && $6 > 0 && !(key in why)) why[key] = $9
            if ($5 == 0) why[key] = $9
        }
        END {
            for (i = 1; i <= n; i++) {
                k = order[i]
                printf "  %-48s%s\n", k, cell[k]
                if (k in why) printf "  %-48s  first: %s\n", "", substr(why[k], 1, 110)
            }
        }' "$PROBES"
    echo
    echo "2. compute-sanitizer on the correctness runs (grader --correctness-only under the tool)"
    printf '  %-10s %-18s %-10s %-9s %s\n' tool variant knobs grader "tool's summary"
    for s in "${SANRUNS[@]}"; do
        IFS='|' read -r tool tag sets summary outcome <<<"$s"
        printf '  %-10s %-18s %-10s %-9s %s\n' "$tool" "$tag" "${sets:--}" "$outcome" "$summary"
    done
    echo
    echo "3. Normal gradings (build/grader check): outcomes"
    awk -F'\t' 'NR > 1 {
            key = $1 "  " $3
            if (!(key in seen)) { seen[key] = 1; order[++n] = key }
            total[key]++
            # Caught: the grade says the kernel is wrong. PASS, PASS*, SLOW
            # and MECHANISM all mean it was judged correct.
            if ($5 == "WRONG" || $5 == "CRASH" || $5 == "HANG") caught[key]++
            hist[key, $5]++
            secs[key] += $6
            if (!((key, $5) in oseen)) { oseen[key, $5] = 1; outs[key] = outs[key] "|" $5 }
        }
        END {
            for (i = 1; i <= n; i++) {
                k = order[i]
                m = split(substr(outs[k], 2), os, "|")
                h = ""
                for (j = 1; j <= m; j++) h = h sprintf(" %s x%d", os[j], hist[k, os[j]])
                printf "  %-34s wrong in %d of %d gradings (%.1f s each):%s\n", k, caught[k] + 0,
                       total[k], secs[k] / total[k], h
            }
        }' "$GRADES"
} >"$SUMMARY"
rm -rf "$TMP"
log "done"
cat "$SUMMARY"
