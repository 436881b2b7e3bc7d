#!/usr/bin/env bash
# run-r5b.sh: the second GPU batch of 2026-11-29: the write probes of
# alloc_slack.cu (fixed: a process per probe) and lesson 11b's L2 prefetch
# at each of six places in the loop body (l11b_placements.py), three
# gradings each, with SASS. On main's grader as it stands.
#
#   bash tests/gpu/probes/r5/run-r5b.sh        (OUT=build/out by default)
set -u
cd "$(dirname "$0")/../../../.."
OUT=${OUT:-build/out}; mkdir -p "$OUT"
R=build/r5b; rm -rf "$R"; mkdir -p "$R"
pack() { tar -czf "$OUT/r5b.tgz" -C build r5b; }
export NO_COLOR=1
P=tests/gpu/probes/r5
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$R/gpu.txt" 2>&1
date -u +%Y-%m-%dT%H:%MZ >> "$R/gpu.txt"; git rev-parse --short HEAD >> "$R/gpu.txt" 2>&1
cat "$R/gpu.txt"
make -j16 build/grader > "$R/build.log" 2>&1 || { tail -30 "$R/build.log"; pack; exit 1; }
echo "== alloc slack $(date -u +%T)"
/usr/local/cuda/bin/nvcc -O2 -arch=sm_90 -o build/alloc_slack $P/alloc_slack.cu -lcuda > "$R/alloc.txt" 2>&1 &&
  timeout 120 build/alloc_slack >> "$R/alloc.txt" 2>&1
cat "$R/alloc.txt"; pack
echo "== lesson 11b placements $(date -u +%T)"
python3 $P/l11b_placements.py build/r5p
for k in 0 1 2 3 4 5; do
  /usr/local/cuda/bin/nvcc -arch=sm_90 -cubin -DBLOCKDIMX=128 -DPDIST=2 -DL2DIST=8 \
     -o build/r5p/p$k.cubin build/r5p/p$k/lesson11/short_ring.cu > "$R/sass-p$k.txt" 2>&1
  /usr/local/cuda/bin/cuobjdump -sass build/r5p/p$k.cubin >> "$R/sass-p$k.txt" 2>&1
  cp build/r5p/p$k/lesson11/short_ring.cu "$R/p$k.cu"
done
for rep in 1 2 3; do for k in 0 1 2 3 4 5; do
  timeout 200 build/grader check lesson11 --only short_ring --student-dir build/r5p/p$k \
     --json "$R/p$k-$rep.json" > "$R/p$k-$rep.txt" 2>&1
  echo "p$k rep $rep: $(grep -m1 '^lesson11/' "$R/p$k-$rep.txt")"
done; done; pack
echo "== done $(date -u +%T)"
