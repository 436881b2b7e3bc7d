#!/usr/bin/env bash
# verdict-path-run.sh: issue 15 items 3 and 4 on a GPU (the lent H100 or
# H200), from the repository root:
#
#   bash tests/gpu/verdict-path-run.sh
#
# Needs only build/grader (no Check). What it grades:
#   1. the one verdict: the solutions of lessons 0, 3, 9 and 10 PASS, their
#      stubs do not; lesson 10 again with --ncu, where Nsight Compute now runs
#      before each exercise is graded and its bank-conflict counts are a fact
#      the verdict reads (solutions must still PASS; the stubs get MECHANISM
#      or SLOW, as without --ncu, unless ncu could not read the counters)
#   2. the one compile path on a GPU: hostile student files (a link out of
#      the folder, an include of /etc/passwd, a writable __device__ variable,
#      a file over 4 MB) are refused by `check`, and by `check --ncu`, whose
#      profile run now builds its jobs with the same rules
# Logs go to $OUT (at most 6 files); the last thing printed is the table.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-build/verdict-path-out}
R=build/verdict-path
rm -rf "$R"
mkdir -p "$OUT" "$R"
export NO_COLOR=1
START=$(date +%s)
ROWS=$R/rows.txt
: >"$ROWS"

make -j"$(nproc)" build/grader >"$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; exit 1; }
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)

# outcomes JSON: "lessonN/name OUTCOME" per exercise
outcomes() {
    python3 -c 'import json,sys
for e in json.load(open(sys.argv[1]))["exercises"]:
    if not e["demo"]:   # demos fail on purpose
        print("lesson%d/%s %s" % (e["lesson"], e["name"], e["outcome"]))' "$1"
}

# row CASE EXPECTED GOT
row() {
    local ok=FAIL
    [[ "$3" =~ ^($2)$ ]] && ok=ok
    printf '%-40s %-40s %-10s %s\n' "$1" "$2" "$3" "$ok" >>"$ROWS"
}

# grade LABEL EXPECTED(regex) ARGS...: one grading, a row per exercise
grade() {
    local label=$1 want=$2
    shift 2
    local json="$R/$label.json"
    { echo "== $label: build/grader check $*"; build/grader check "$@" --seed 7 --json "$json"; } \
        >>"$OUT/gradings.log" 2>&1
    if [ ! -f "$json" ]; then row "$label" "$want" "NO-REPORT"; return; fi
    while read -r ex outcome; do row "$label $ex" "$want" "$outcome"; done < <(outcomes "$json")
}

# 1. the verdict
for l in 0 3 9 10; do
    grade "solutions" "PASS" "lesson$l" --solutions
    grade "stubs" "SLOW|MECHANISM|WRONG|COMPILE|HANG|CRASH" "lesson$l"
done
grade "ncu-solutions" "PASS" lesson10 --solutions --ncu
grade "ncu-stubs" "SLOW|MECHANISM" lesson10 --ncu
grep -E "Nsight Compute|shared-load bank conflicts" "$OUT/gradings.log" | sort | uniq -c \
    >"$R/ncu-lines.txt" || true

# 2. hostile files, each in its own student folder for lesson0/saxpy
H=$R/hostile
mkdir -p "$H/link/lesson0" "$H/passwd/lesson0" "$H/device/lesson0" "$H/big/lesson0"
ln -s "$PWD/solutions/lesson0/saxpy.cu" "$H/link/lesson0/saxpy.cu"
cp tests/gpu/cheats/include_etc_passwd/lesson0/saxpy.cu "$H/passwd/lesson0/saxpy.cu"
cat >"$H/device/lesson0/saxpy.cu" <<'EOF'
__device__ int launches;
extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        z[i] = a * x[i] + y[i] + launches;
    if (i == 0)
        launches++;
}
EOF
{ head -c $((5 << 20)) /dev/zero | tr '\0' ' '; echo; cat "$H/passwd/lesson0/saxpy.cu" | grep -v passwd; } \
    >"$H/big/lesson0/saxpy.cu"
for h in link passwd device big; do
    want=REFUSED
    [ "$h" = big ] && want=COMPILE
    grade "hostile-$h" "$want" lesson0 --only saxpy --student-dir "$H/$h"
    grade "hostile-$h-ncu" "$want" lesson0 --only saxpy --student-dir "$H/$h" --ncu
done
if grep -q "root:x:" "$OUT/gradings.log"; then row "no line of /etc/passwd shown" "none" "SHOWN"
else row "no line of /etc/passwd shown" "none" "none"; fi

tar czf "$OUT/reports.tgz" -C "$R" --exclude=hostile . 2>/dev/null
{
    echo "VERDICT/COMPILE-PATH RUN on ${GPU:-unknown GPU}, $(date -u +%Y-%m-%d), $(($(date +%s) - START)) s"
    echo
    echo "Nsight Compute lines in the reports (count, line):"
    cat "$R/ncu-lines.txt"
    echo
    printf '%-40s %-40s %-10s %s\n' "case" "expected" "got" "ok"
    cat "$ROWS"
    echo
    echo "$(grep -c ' ok$' "$ROWS") ok, $(grep -c ' FAIL$' "$ROWS") FAIL"
} | tee "$OUT/summary.txt"
