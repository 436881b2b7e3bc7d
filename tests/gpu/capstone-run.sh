#!/usr/bin/env bash
# capstone-run.sh: lesson 15's (the capstone's) GPU measurements in one call,
# for a machine with an NVIDIA GPU (the lent H100). From the repository root:
#
#   OUT=dir bash tests/gpu/capstone-run.sh
#
# What it does, in order, while time is left (CAPSTONE_SECONDS, default 420):
#   1. builds build/grader (no Check needed: the grader alone);
#   2. grades lesson15/softmax RUNS times (default 3) for each of
#        reference      build/grader check lesson15 --solutions
#        shared-tile    --student-dir tests/gpu/accepted/lesson15-shared-tile
#        register-ring  --student-dir tests/gpu/accepted/lesson15-register-ring
#        transposed-tile --student-dir tests/gpu/accepted/lesson15-transposed-tile
#        stub           the untouched exercises/lesson15/softmax.cu
#      interleaved (round 1 of all five, then round 2...), each grading in its
#      own grader run with its own seed; every JSON report records the
#      baseline's (the naive kernel's) and the reference's time of that run;
#   3. grades each probe of tests/gpu/probes/lesson15/ once (what each single
#      fix is worth: coalescing alone, fewer passes alone, the transposed
#      tile without its padding), and the fixture tests/gpu/faulty/
#      softmax_no_max once (expected: WRONG, "values wrong");
#   4. Nsight Compute counters (--ncu) for the stub and for the unpadded
#      transposed tile, where ncu works;
#   5. SANITIZE=race (racecheck and synccheck) on the shared-tile and
#      transposed-tile routes, the two that share data through shared memory.
#
# Expected on a working GPU (grader/calibration/h100-2026-11-25-capstone.md:
# the H100 on 2026-11-25): reference, shared-tile, register-ring and
# transposed-tile PASS 3/3 (about 11.4x, 10.2x, 11.3x, 7.3x against a bar
# near 6.2x), the stub SLOW 3/3 (0.99x); probes: coalesced-three-pass PASS,
# online-one-thread-per-row and transposed-tile-unpadded SLOW.
#
# Output: the table goes to stdout last and to $OUT/summary.txt; the raw
# reports (JSON and text of every grading, the build log, nvidia-smi) are
# packed into $OUT/capstone-run.tgz after every grading, so a call cut short
# still returns what it had. Two files in $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
START=$(date +%s)
BUDGET=${CAPSTONE_SECONDS:-420}
RUNS=${RUNS:-3}
OUT=${OUT:-build/capstone-out}
R=build/capstone-run
rm -rf "$R"
mkdir -p "$OUT" "$R/grades" "$R/ncu"
export NO_COLOR=1
G=build/grader
PROBES=tests/gpu/probes/lesson15

now() { echo $(($(date +%s) - START)); }
left() { echo $((BUDGET - $(now))); }
log() { echo "== +$(now)s $*" | tee -a "$R/log.txt"; }
pack() { tar -czf "$OUT/capstone-run.tgz" -C build capstone-run 2>/dev/null; }

# name | grader arguments (after `check lesson15`)
ROUTES=(
    "reference|--solutions"
    "shared-tile|--student-dir tests/gpu/accepted/lesson15-shared-tile"
    "register-ring|--student-dir tests/gpu/accepted/lesson15-register-ring"
    "transposed-tile|--student-dir tests/gpu/accepted/lesson15-transposed-tile"
    "stub|"
)

# grade NAME TAG ARGS...: one grader run, its report kept as $R/grades/TAG.*
grade() {
    local name=$1 tag=$2
    shift 2
    local t=$(left)
    if [ "$t" -lt 25 ]; then
        log "$tag: not run (${t}s left)"
        return
    fi
    [ "$t" -gt 120 ] && t=120
    # shellcheck disable=SC2068
    timeout -k 5 "$t" "$G" check lesson15 --only softmax $@ --timeout 110 \
        --json "$R/grades/$tag.json" >"$R/grades/$tag.txt" 2>&1
    echo "$name $tag exit=$?" >>"$R/grades/exits.txt"
    log "$tag graded"
    pack
}

summarize() {
    {
        echo "Nsight Compute (the stub; then the unpadded transposed tile): naive | yours | reference"
        grep -ihE 'conflict|DRAM|stall|occupancy|ncu' "$R/ncu/stub.txt" "$R/ncu/unpadded.txt" \
            2>/dev/null | cut -c1-150 | head -24
        echo
        echo "SANITIZE=race (shared-tile and transposed-tile routes):"
        grep -E '^#### |: RACE|: SYNC ERROR|: no race found|: NOT CHECKED|not installed|not found' \
            "$R/race.txt" 2>/dev/null | cut -c1-150
        echo
    } >"$R/ncu-lines.txt"
    cat "$R/ncu-lines.txt"
    python3 - "$R" <<'EOF' | tee "$R/summary.txt"
import json, os, statistics, sys
R = sys.argv[1]
gpu = open(os.path.join(R, "gpu.txt")).read().strip().splitlines()
print("CAPSTONE RUN (lesson15/softmax) on", gpu[1] if len(gpu) > 1 else "?", "|", gpu[-1])
rows, by = [], {}
# In the order graded (exits.txt: "name tag exit=N" per grading).
order = [l.split()[1] for l in open(os.path.join(R, "grades", "exits.txt")) if l.strip()]
for tag in order:
    try:
        rec = json.load(open(os.path.join(R, "grades", tag + ".json")))["exercises"][0]
    except Exception as e:
        rows.append((tag, "NO REPORT", {}, str(e)[:60]))
        continue
    rows.append((tag, rec["outcome"], rec, rec.get("message", "")[:70]))
    by.setdefault(tag.rsplit("-", 1)[0] if tag[-1].isdigit() else tag, []).append(rec)
def g(rec, k, fmt):
    v = rec.get(k)
    return fmt % v if isinstance(v, (int, float)) else "-"
print()
print("%-31s %-9s %9s %9s %9s %8s %8s %8s %7s %6s" % ("grading", "outcome", "naive ms",
      "yours ms", "ref ms", "speedup", "ref x", "bar", "GB/s", "copy%"))
for tag, outcome, rec, msg in rows:
    share = "-"
    if isinstance(rec.get("student_gbps"), (int, float)) and rec.get("copy_gbps"):
        share = "%.0f%%" % (100 * rec["student_gbps"] / rec["copy_gbps"])
    print("%-31s %-9s %9s %9s %9s %8s %8s %8s %7s %6s" % (tag, outcome,
          g(rec, "baseline_ms", "%.3f"), g(rec, "student_ms", "%.3f"), g(rec, "solution_ms", "%.3f"),
          g(rec, "speedup", "%.2fx"), g(rec, "solution_speedup", "%.2fx"), g(rec, "bar", "%.2fx"),
          g(rec, "student_gbps", "%.0f"), share))
print()
print("Per route: outcomes, and the range of its speedup over the naive kernel")
for name, recs in by.items():
    outs = {}
    for r in recs:
        outs[r["outcome"]] = outs.get(r["outcome"], 0) + 1
    sp = [r["speedup"] for r in recs if isinstance(r.get("speedup"), (int, float))]
    bars = [r["bar"] for r in recs if isinstance(r.get("bar"), (int, float))]
    print("  %-31s %-20s speedup %s  bar %s" % (name,
          " ".join("%s %d/%d" % (o, n, len(recs)) for o, n in outs.items()),
          "%.2f-%.2fx" % (min(sp), max(sp)) if sp else "-",
          "%.2f-%.2fx" % (min(bars), max(bars)) if bars else "-"))
allrec = [r for recs in by.values() for r in recs]
base = [r["baseline_ms"] for r in allrec if isinstance(r.get("baseline_ms"), (int, float))]
ref = [r["solution_ms"] for r in allrec if isinstance(r.get("solution_ms"), (int, float))]
refx = [r["solution_speedup"] for r in allrec if isinstance(r.get("solution_speedup"), (int, float))]
copy = [r["copy_gbps"] for r in allrec if isinstance(r.get("copy_gbps"), (int, float))]
if base and ref:
    print()
    print("Naive (baseline) ms: median %.3f, range %.3f-%.3f over %d gradings" % (
          statistics.median(base), min(base), max(base), len(base)))
    print("Reference ms:        median %.3f, range %.3f-%.3f; its speedup %.2f-%.2fx" % (
          statistics.median(ref), min(ref), max(ref), min(refx), max(refx)))
if copy:
    print("Copy bandwidth:      %.0f-%.0f GB/s" % (min(copy), max(copy)))
for tag, outcome, rec, msg in rows:
    if outcome not in ("PASS", "SLOW"):
        print("note: %s: %s: %s" % (tag, outcome, msg))
EOF
    cat "$R/ncu-lines.txt" "$R/summary.txt" >"$OUT/summary.txt"
    pack
}

log "machine"
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv 2>&1
  date -u +%Y-%m-%dT%H:%MZ; } >"$R/gpu.txt"
log "build"
if ! make -j"$(nproc)" build/grader >"$R/build.log" 2>&1; then
    tail -30 "$R/build.log"
    log "build failed: nothing else run"
    pack
    exit 1
fi

for run in $(seq 1 "$RUNS"); do
    for entry in "${ROUTES[@]}"; do
        name=${entry%%|*}
        grade "$name" "$name-$run" ${entry#*|}
    done
done
for d in "$PROBES"/*/; do
    p=$(basename "$d")
    grade "probe-$p" "probe-$p" --student-dir "$d"
done
# The lesson's own fixture: fast, and wrong without the row's maximum.
grade "faulty-softmax_no_max" "faulty-softmax_no_max" --student-dir tests/gpu/faulty/softmax_no_max

# Nsight Compute: baseline, student and reference side by side.
if [ "$(left)" -gt 100 ]; then
    log "ncu: stub"
    timeout -k 5 45 "$G" check lesson15 --only softmax --ncu --timeout 40 \
        --json "$R/ncu/stub.json" >"$R/ncu/stub.txt" 2>&1
    log "ncu: transposed tile without padding"
    timeout -k 5 45 "$G" check lesson15 --only softmax --ncu --timeout 40 \
        --student-dir "$PROBES/transposed-tile-unpadded" \
        --json "$R/ncu/unpadded.json" >"$R/ncu/unpadded.txt" 2>&1
else
    log "ncu: not run ($(left)s left)"
fi

# Races: the routes that share data through shared memory.
: >"$R/race.txt"
for d in tests/gpu/accepted/lesson15-shared-tile tests/gpu/accepted/lesson15-transposed-tile; do
    t=$(( $(left) - 10 ))
    [ "$t" -gt 90 ] && t=90
    if [ "$t" -lt 20 ]; then
        log "race: not run for $d ($(left)s left)"
        continue
    fi
    log "race: $d"
    echo "#### $d" >>"$R/race.txt"
    timeout -k 5 "$t" make -s check lesson15 SANITIZE=race STUDENT_DIR="$d" \
        >>"$R/race.txt" 2>&1
    echo "#### exit $?" >>"$R/race.txt"
done

log "done"
summarize
