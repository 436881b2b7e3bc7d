#!/usr/bin/env bash
# run-a.sh: the first GPU batch of 2026-11-23's second session, in one call:
# the physical-floor probe, the probes for lessons 11-14, the grading time per
# lesson with the grader as it stood before the grader-trust changes, and the
# race experiment. Everything lands in build/runA and is packed into
# $OUT/runA.tgz after every phase, so a run cut short still returns what it had.
set -u
cd "$(dirname "$0")/../../.."
OUT=${OUT:-build/out}; mkdir -p "$OUT"
R=build/runA; rm -rf "$R"; mkdir -p "$R"
pack() { tar -czf "$OUT/runA.tgz" -C build runA; }
export NO_COLOR=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$R/gpu.txt" 2>&1
date -u +%Y-%m-%dT%H:%MZ >> "$R/gpu.txt"
echo "== build $(date -u +%T)"
make -j16 build/grader build/libgrader.a > "$R/build.log" 2>&1 || { tail -30 "$R/build.log"; pack; exit 1; }
echo "== floor $(date -u +%T)"
# (the floor probe of this run, commit 70001bf, is now grader/measure/floor_margin.cu)
/usr/local/cuda/bin/nvcc -O3 -std=c++17 -arch=sm_90 -o build/floor_margin grader/measure/floor_margin.cu > "$R/floor.txt" 2>&1 &&
  timeout 60 build/floor_margin >> "$R/floor.txt" 2>&1
grep SUMMARY "$R/floor.txt"; pack
echo "== lesson probes $(date -u +%T)"
timeout 150 bash grader/measure/probe-new-lessons.sh "$R/lessons" > "$R/lessons-stdout.txt" 2>&1
tail -40 "$R/lessons-stdout.txt"; pack
echo "== grading time before $(date -u +%T)"
timeout 150 bash tests/gpu/probes/time-lessons.sh "$R/time-before.tsv" > /dev/null 2>&1
cat "$R/time-before.tsv"; pack
echo "== races $(date -u +%T)"
RACE_SECONDS=${RACE_SECONDS:-190} timeout 230 bash tests/gpu/race-experiment.sh "$R/race" > "$R/race-stdout.txt" 2>&1
tail -60 "$R/race-stdout.txt"; pack
echo "== done $(date -u +%T)"
