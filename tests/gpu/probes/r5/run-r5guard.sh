#!/usr/bin/env bash
# run-r5guard.sh: the GPU runs that check branch r5-guard (issue 25 items 1,
# 2 and 4), in one call. Everything lands in build/r5guard and is packed into
# $OUT/r5guard.tgz after every phase.
#
#   bash tests/gpu/probes/r5/run-r5guard.sh        (OUT=build/out by default)
#
# Expected (each line of fixtures.txt): slack_replay WRONG "wrote into
# memory beside its arrays"; tell_guard_words, tell_size, tell_grid MECHANISM "do not come
# through its asynchronous copies"; printf_flood HANG "printf is what most
# likely took the time: your kernel printed 5098 lines". Then the solutions
# of the lessons with knock-outs must still PASS (the knock-out now runs at
# the timing size), grading time per lesson (compare with the "before" of
# grader/calibration/h200-2026-11-29/), and the on-chip state probe.
set -u
cd "$(dirname "$0")/../../../.."
OUT=${OUT:-build/out}; mkdir -p "$OUT"
R=build/r5guard; rm -rf "$R"; mkdir -p "$R"
pack() { tar -czf "$OUT/r5guard.tgz" -C build r5guard; }
export NO_COLOR=1
nvidia-smi --query-gpu=name,driver_version --format=csv > "$R/gpu.txt" 2>&1
git rev-parse --short HEAD >> "$R/gpu.txt" 2>&1
echo "== build $(date -u +%T)"
make -j16 build/grader > "$R/build.log" 2>&1 || { tail -30 "$R/build.log"; pack; exit 1; }
echo "== fixtures $(date -u +%T)"
fx() {   # lesson dir [env]
    local l=$1 d=$2 name; name=$(basename "$d")
    env ${3:-} timeout 300 build/grader check lesson$l --student-dir "$d" \
        --json "$R/$name.json" > "$R/$name.txt" 2>&1
    echo "$name: $(grep -m1 -E 'PASS|SLOW|WRONG|MECHANISM|HANG|CRASH|INTERNAL|TOO FAST' "$R/$name.txt" | cut -c1-160)"
}
{
  fx 4 tests/gpu/cheats/slack_replay
  for t in tell_guard_words tell_size tell_grid; do fx 9 tests/gpu/gaming/$t; done
  fx 0 tests/gpu/faulty/printf_flood GRADER_LAUNCH_TIMEOUT=3
} | tee "$R/fixtures.txt"; pack
echo "== solutions with knock-outs $(date -u +%T)"
for l in 2 3 4 6 8 9 10 11 12 13; do
  timeout 400 build/grader check lesson$l --solutions --json "$R/sol$l.json" > "$R/sol$l.txt" 2>&1
  echo "lesson$l: rc=$? $(grep -c PASS "$R/sol$l.txt") PASS lines"
done | tee "$R/solutions.txt"; pack
echo "== grading time after $(date -u +%T)"
timeout 400 bash tests/gpu/probes/time-lessons.sh "$R/time-after.tsv" > /dev/null 2>&1
cat "$R/time-after.tsv"; pack
echo "== on-chip state $(date -u +%T)"
/usr/local/cuda/bin/nvcc -O2 -arch=sm_90 -o build/onchip_state tests/gpu/probes/r5/onchip_state.cu \
    > "$R/onchip.txt" 2>&1 && timeout 60 build/onchip_state >> "$R/onchip.txt" 2>&1
cat "$R/onchip.txt"; pack
