#!/usr/bin/env bash
# mechanism-run.sh: issue 15 item 1 on a GPU: is every mechanism check
# judged on the data path (grader/rules/knockout.h)? From the repository root, on
# a machine with an NVIDIA GPU (no Check library needed):
#
#   bash tests/gpu/mechanism-run.sh
#
# Grades, for every lesson with a data-path check (2 3 4 6 8 9 10 11 12 13):
#   solutions/   every exercise must PASS (the knock-out must not fail a
#                right answer that uses its mechanism)
#   exercises/   the stubs: must not PASS
#   tests/gpu/gaming/*   each gaming kernel must get its expect file's
#                outcome (MECHANISM) and message
#   tests/gpu/accepted/* each right answer written unlike the reference must
#                still PASS (its mechanism carries the data)
# and prints a table (last), with each row's mechanism findings. Logs and
# JSON reports go to $OUT (default build/mechanism-out): summary.txt,
# reports.tgz. Bounded by MECH_SECONDS (default 420).
set -uo pipefail
cd "$(dirname "$0")/../.."
START=$(date +%s)
BUDGET=${MECH_SECONDS:-420}
OUT=${OUT:-build/mechanism-out}
R=build/mechanism-run
rm -rf "$R"
mkdir -p "$OUT" "$R"
export NO_COLOR=1
LESSONS=(2 3 4 6 8 9 10 11 12 13)
left() { echo $((BUDGET - ($(date +%s) - START))); }

make -j"$(nproc)" build/grader >"$R/build.log" 2>&1 || { tail -20 "$R/build.log"; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$R/gpu.txt" 2>&1 ||
    echo "no GPU (nvidia-smi failed): every row below is a no-GPU check" >"$R/gpu.txt"

# rows: group lesson exercise expected got checks message
ROWS=$R/rows.tsv
: >"$ROWS"
record() {   # record GROUP EXPECTED JSON
    python3 - "$1" "$2" "$3" >>"$ROWS" <<'PY'
import json, sys
group, want, path = sys.argv[1:4]
try:
    rep = json.load(open(path))
except Exception as e:
    print(f"{group}\t?\t?\t{want}\tNO-REPORT\t\t{e}")
    sys.exit()
exs = rep.get("exercises", rep if isinstance(rep, list) else [])
for ex in exs:
    if ex.get("demo"):
        continue
    checks = "; ".join(f"{c.get('state')}: {c.get('what')}" for c in ex.get("checks", []) if c.get("kind") != "none")
    print(f"{group}\t{ex.get('lesson')}\t{ex.get('name')}\t{want}\t{ex.get('outcome')}\t{checks}\t{ex.get('message','')[:160]}")
PY
}

for L in "${LESSONS[@]}"; do
    [ "$(left)" -gt 30 ] || break
    t0=$(date +%s.%N)
    timeout $(( $(left) > 200 ? 200 : $(left) )) build/grader check "lesson$L" --solutions \
        --json "$R/sol-$L.json" >"$R/sol-$L.txt" 2>&1
    awk -v L="$L" -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "lesson%s %.1f\n", L, a - b }' \
        >>"$R/times.txt"
    record solution PASS "$R/sol-$L.json"
done
for L in "${LESSONS[@]}"; do
    [ "$(left)" -gt 30 ] || break
    timeout $(( $(left) > 200 ? 200 : $(left) )) build/grader check "lesson$L" \
        --json "$R/stub-$L.json" >"$R/stub-$L.txt" 2>&1
    record stub not-PASS "$R/stub-$L.json"
done
for e in tests/gpu/gaming/*/expect tests/gpu/accepted/*/expect; do
    [ "$(left)" -gt 20 ] || break
    d=${e%/expect}
    n=$(basename "$(dirname "$d")")-$(basename "$d")
    L=$(sed -n 's/^lesson: *//p' "$e")
    X=$(sed -n 's/^exercise: *//p' "$e")
    W=$(sed -n 's/^outcome: *//p' "$e")
    M=$(sed -n 's/^message: *//p' "$e")
    S=()
    for kv in $(sed -n 's/^set: *//p' "$e"); do S+=(--set "$kv"); done
    timeout $(( $(left) > 120 ? 120 : $(left) )) build/grader check "lesson$L" --only "$X" \
        --student-dir "$d" "${S[@]}" --json "$R/gaming-$n.json" >"$R/gaming-$n.txt" 2>&1
    record "${d#tests/gpu/}" "$W|$M" "$R/gaming-$n.json"
done

summarize() {
python3 - "$ROWS" "$(cat "$R/gpu.txt" 2>/dev/null | head -1)" <<'PY'
import sys, datetime
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
print(f"MECHANISM RUN on {sys.argv[2]}, {datetime.date.today()}")
bad = 0
print(f"{'group':27} {'lesson':>6} {'exercise':16} {'expected':10} {'got':10} ok")
rows = [(r + [""] * 7)[:7] for r in rows]
for g, les, ex, want, got, checks, msg in rows:
    w, _, m = want.partition("|")
    if w == "not-PASS":
        ok = got not in ("PASS", "PASS*")
    else:
        ok = got == w and (not m or m in msg)
    bad += not ok
    print(f"{g:27} {les:>6} {ex:16} {w:10} {got:10} {'yes' if ok else 'NO'}")
print(f"\n{len(rows)} rows, {bad} not as expected")
print("\nwhat each row found: the checks (solutions, gaming kernels), the message (stubs, and")
print("every row not as expected):")
for g, les, ex, want, got, checks, msg in rows:
    print(f"  {g} lesson{les} {ex} [{got}]")
    if g != "stub":
        print(f"    checks: {checks[:500]}")
    if g == "stub" or not want.startswith(got):
        print(f"    message: {msg[:300]}")
PY
echo
echo "wall time of grading each lesson's solutions (s), knock-out runs included:"
sed 's/^/  /' "$R/times.txt" 2>/dev/null
}
summarize >"$R/summary.txt" 2>&1
cp "$R/summary.txt" "$OUT/summary.txt"
tar czf "$OUT/reports.tgz" -C build mechanism-run 2>/dev/null
cat "$R/summary.txt"
