#!/usr/bin/env bash
# ncu-counts-run.sh: issue 28 item 3 on a GPU (the lent H200), from the
# repository root:
#
#   bash tests/gpu/ncu-counts-run.sh          (about 4-6 minutes; at most 8)
#
# The report's memory counts by line come from the PTX simulator
# (grader/sim/sim_counts.c); this checks them against Nsight Compute. For
# every exercise of the course, one process launches its baseline, its stub
# (exercises/) and its solution once each (grader profile-one, the launch
# `make check NCU=1` profiles), at the exercise's largest sim size
# (--profile-sim-size: the simulator runs that whole grid in well under a
# second), with the same seed and default knobs:
#   - under ncu, reading the totals Nsight Compute counts (global load and
#     store sectors and requests, cp.async's global reads among the loads as
#     ncu 2025.3.1 counts an LDGSTS, shared-memory
#     wavefronts and bank conflicts of loads and stores, shared load
#     instructions; the metrics this ncu does not know are left out);
#   - on the simulator (--no-gpu), every exercise at once on every core,
#     which prints the same totals ("sim-counts ..." lines).
# Then one table: a row per kernel, "same" or the ratio ncu/sim per count,
# and every difference with both numbers (tests/gpu/ncu_counts_table.py).
#
# Files, all in $OUT (default build/ncu-counts-out), 6 of them: build.log,
# metrics.txt (the metrics asked for), sim.txt and ncu.csv (both sides, a
# "### lessonN/name" section per exercise), ncu-errors.log (what ncu said on
# stderr, per exercise), table.txt (printed last).
# NCU=/path/to/ncu (default /usr/local/cuda/bin/ncu); LIMIT=N tries the
# first N exercises; BUDGET_S (default 380): no ncu run starts after that
# many seconds, so the whole run ends within 8 minutes (the rest read "not
# run"); one ncu run may take 60 s.
# The grids are the same on both sides where the GPU has the simulator's
# SM count (132: H100, H200), since lessons 5-12 launch a grid per SM.
# Without a GPU: NCU=tests/gpu/fake-ncu.sh LIMIT=4 tries the script (the
# simulator standing in for ncu too).
# What the first run on an H200 found, and why each difference is there:
# grader/calibration/h200-2026-11-29/ncu-counts/README.md.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-build/ncu-counts-out}
mkdir -p "$OUT"
export NO_COLOR=1
NCU=${NCU:-/usr/local/cuda/bin/ncu}
SEED=${SEED:-3}
BUDGET_S=${BUDGET_S:-380}
LIMIT=${LIMIT:-0}
start=$(date +%s)
TMP=$(mktemp -d /tmp/ncu-counts.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

make -j"$(nproc)" build/grader >"$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; exit 1; }
mapfile -t EXERCISES < <(build/grader list 2>/dev/null | awk '/^lesson[0-9]+\/[A-Za-z0-9_]+ /{print $1}')
if [ "$LIMIT" -gt 0 ]; then EXERCISES=("${EXERCISES[@]:0:$LIMIT}"); fi
echo "${#EXERCISES[@]} exercises: ${EXERCISES[*]}" >&2

# The simulator's side, in the background on every core.
sim_one() {
    local e=$1 tmp=$2 seed=$3
    build/grader profile-one "${e%%/*}" --only "${e#*/}" --no-gpu --profile-sim-size \
        --seed "$seed" --student-dir exercises >"$tmp/sim.${e/\//.}" 2>&1
}
export -f sim_one
printf '%s\n' "${EXERCISES[@]}" | xargs -P "$(nproc)" -I{} bash -c 'sim_one "$@"' _ {} "$TMP" "$SEED" &
sim_pid=$!

# The metrics: those this ncu knows (--query-metrics), of the table's list.
WANT="l1tex__t_sectors_pipe_lsu_mem_global_op_ld l1tex__t_requests_pipe_lsu_mem_global_op_ld
l1tex__t_sectors_pipe_lsu_mem_global_op_st l1tex__t_requests_pipe_lsu_mem_global_op_st
l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st
smsp__inst_executed_op_shared_ld smsp__inst_executed_op_shared_st"
"$NCU" --query-metrics >"$TMP/query.txt" 2>&1
LIST=""
for m in $WANT; do
    if grep -qw "$m" "$TMP/query.txt" || ! grep -q "l1tex__" "$TMP/query.txt"; then
        LIST="$LIST${LIST:+,}$m.sum"
    fi
done
{ echo "asked: $LIST"; echo "ncu: $("$NCU" --version 2>&1 | tail -1)"; } >"$OUT/metrics.txt"

# Nsight Compute's side, one exercise at a time (one GPU).
: >"$OUT/ncu.csv"
: >"$OUT/ncu-errors.log"
for e in "${EXERCISES[@]}"; do
    echo "### $e" >>"$OUT/ncu.csv"
    echo "### $e" >>"$OUT/ncu-errors.log"
    if [ $(($(date +%s) - start)) -gt "$BUDGET_S" ]; then
        echo "not run: past BUDGET_S=$BUDGET_S s" >>"$OUT/ncu-errors.log"
        continue
    fi
    rm -f "$TMP/ncu.csv"
    timeout 60 "$NCU" --clock-control none --csv --metrics "$LIST" --log-file "$TMP/ncu.csv" \
        build/grader profile-one "${e%%/*}" --only "${e#*/}" --profile-sim-size \
        --seed "$SEED" --student-dir exercises >/dev/null 2>>"$OUT/ncu-errors.log"
    echo "exit status $?, $(($(date +%s) - start)) s so far" >>"$OUT/ncu-errors.log"
    cat "$TMP/ncu.csv" >>"$OUT/ncu.csv" 2>/dev/null
done

wait "$sim_pid"
: >"$OUT/sim.txt"
for e in "${EXERCISES[@]}"; do
    echo "### $e" >>"$OUT/sim.txt"
    cat "$TMP/sim.${e/\//.}" >>"$OUT/sim.txt" 2>/dev/null
done
python3 tests/gpu/ncu_counts_table.py "$OUT/sim.txt" "$OUT/ncu.csv" >"$OUT/table.txt"
echo "($(($(date +%s) - start)) s; files in $OUT)"
# the differences first, at most 20 of them, so the table ends the output and
# fits the 12,000 characters of output a device run returns (table.txt has all)
python3 tests/gpu/ncu_counts_table.py "$OUT/sim.txt" "$OUT/ncu.csv" --max-diffs=20
