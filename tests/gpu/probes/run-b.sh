#!/usr/bin/env bash
# run-b.sh: lesson 12's open question, in one call: why the hand-written
# PTX full/empty protocol ran slower than libcu++'s in the first probe
# (grader/calibration/h100-2026-11-23-b/lessons/l12.tsv). It times the
# reference solution's protocol (ptx_sync) next to cccl_sync, and the two
# ptx_fe variants that separate the per-warp arrival from the trap-counting
# wait. Needs compute capability 9.0 and nvcc; results in $OUT/runB.tgz.
# (The gradings, lesson 14 and the sweeps this script also ran at first are
# done by tests/gpu/trust-run.sh and make measure / make sweep-data.)
#
#   bash tests/gpu/probes/run-b.sh          (OUT=build/out by default)
set -u
cd "$(dirname "$0")/../../.."
OUT=${OUT:-build/out}; mkdir -p "$OUT"
R=build/runB; rm -rf "$R"; mkdir -p "$R"
pack() { tar -czf "$OUT/runB.tgz" -C build runB; }
export NO_COLOR=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$R/gpu.txt" 2>&1
date -u +%Y-%m-%dT%H:%MZ >> "$R/gpu.txt"
git rev-parse --short HEAD >> "$R/gpu.txt" 2>&1
echo "== lesson 12 protocols $(date -u +%T)"
mkdir -p build/probes
/usr/local/cuda/bin/nvcc -O3 -std=c++17 -arch=sm_90 -o build/probes/l12 \
  grader/measure/probes/l12_bulk_copy.cu > "$R/l12-build.log" 2>&1
for form in ref cccl_sync ptx_sync ptx_fe ptx_fe_notrap ptx_fe_thread cccl_fe; do
  timeout -k 5 30 build/probes/l12 $form >> "$R/l12-forms.tsv" 2>> "$R/l12-forms.log" ||
    echo "# form $form: exit $?" >> "$R/l12-forms.tsv"
done
awk -F'\t' '$1 == "l12" && ($5 == 4 || $2 ~ /async/) {print $3, $2, $4 "/" $5, $7, $9}' \
  "$R/l12-forms.tsv" | sort -k1,1n -k4,4nr | awk '{print "   bps " $0}' | head -60
pack

echo "== done $(date -u +%T)"
