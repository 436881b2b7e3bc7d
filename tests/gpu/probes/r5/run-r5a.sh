#!/usr/bin/env bash
# run-r5a.sh: the first GPU batch of 2026-11-29, in one call, before any
# grader change of that day: grading time per lesson (the "before" of issue
# 25), how cudaMalloc rounds allocations (issue 25 item 1), lesson 11b's
# prefetch placement with SASS (issue 26), the unpadded transpose (issue 29
# item 1), back-to-back timing spread (issue 29 item 9) and lesson 15's
# coalesced three-pass kernel under Nsight Compute (issue 29 item 10).
#
#   bash tests/gpu/probes/r5/run-r5a.sh        (OUT=build/out by default)
set -u
cd "$(dirname "$0")/../../../.."
OUT=${OUT:-build/out}; mkdir -p "$OUT"
R=build/r5a; rm -rf "$R"; mkdir -p "$R"
pack() { tar -czf "$OUT/r5a.tgz" -C build r5a; }
export NO_COLOR=1
P=tests/gpu/probes/r5
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$R/gpu.txt" 2>&1
date -u +%Y-%m-%dT%H:%MZ >> "$R/gpu.txt"; git rev-parse --short HEAD >> "$R/gpu.txt" 2>&1
cat "$R/gpu.txt"
echo "== build $(date -u +%T)"
make -j16 build/grader > "$R/build.log" 2>&1 || { tail -30 "$R/build.log"; pack; exit 1; }
echo "== alloc slack $(date -u +%T)"
/usr/local/cuda/bin/nvcc -O2 -arch=sm_90 -o build/alloc_slack $P/alloc_slack.cu -lcuda > "$R/alloc.txt" 2>&1 &&
  timeout 120 build/alloc_slack >> "$R/alloc.txt" 2>&1
cat "$R/alloc.txt"; pack
echo "== lesson 11b placement $(date -u +%T)"
mkdir -p build/r5s/top/lesson11 build/r5s/after/lesson11 build/r5s/t32/lesson2 build/r5s/t33/lesson2
cp $P/l11b_prefetch_top.cu build/r5s/top/lesson11/short_ring.cu
cp solutions/lesson11/short_ring.cu build/r5s/after/lesson11/short_ring.cu
for v in top after; do
  /usr/local/cuda/bin/nvcc -arch=sm_90 -cubin -DBLOCKDIMX=128 -DPDIST=2 -DL2DIST=8 \
     -o build/r5s/$v.cubin build/r5s/$v/lesson11/short_ring.cu > "$R/sass-$v.txt" 2>&1
  /usr/local/cuda/bin/cuobjdump -sass build/r5s/$v.cubin >> "$R/sass-$v.txt" 2>&1
done
for rep in 1 2 3; do for v in top after; do for d in 8 16; do
  timeout 200 build/grader check lesson11 --only short_ring --student-dir build/r5s/$v --set L2DIST=$d \
     --json "$R/l11b-$v-d$d-$rep.json" > "$R/l11b-$v-d$d-$rep.txt" 2>&1
  echo "$v L2DIST=$d rep $rep: $(grep -m1 -o 'short_ring .*' "$R/l11b-$v-d$d-$rep.txt" | cut -c1-150)"
done; done; done; pack
echo "== transpose [32][32] vs [32][33] $(date -u +%T)"
cp solutions/lesson2/transpose.cu build/r5s/t33/lesson2/transpose.cu
sed 's/tile\[TDIM\]\[TDIM + 1\]/tile[TDIM][TDIM]/' solutions/lesson2/transpose.cu > build/r5s/t32/lesson2/transpose.cu
grep -n "__shared__" build/r5s/t32/lesson2/transpose.cu
for rep in 1 2 3; do for v in t32 t33; do
  timeout 200 build/grader check lesson2 --only transpose --student-dir build/r5s/$v \
     --json "$R/tr-$v-$rep.json" > "$R/tr-$v-$rep.txt" 2>&1
  echo "$v rep $rep: $(grep -m1 -o 'transpose .*' "$R/tr-$v-$rep.txt" | cut -c1-150)"
done; done; pack
echo "== grading time before $(date -u +%T)"
timeout 200 bash tests/gpu/probes/time-lessons.sh "$R/time-before.tsv" > /dev/null 2>&1
cat "$R/time-before.tsv"; pack
echo "== lesson 15 three-pass under ncu $(date -u +%T)"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for v in coalesced-three-pass; do
  timeout 200 $NCU --clock-control none --csv --metrics \
    l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum \
    build/grader profile-one lesson15 --only softmax --root . --student-dir tests/gpu/probes/lesson15/$v \
    > "$R/l15-ncu-$v.csv" 2> "$R/l15-ncu-$v.err"
done
tail -20 "$R"/l15-ncu-*.csv "$R"/l15-ncu-*.err; pack
echo "== lesson 0 reports for the lesson's sample $(date -u +%T)"
COLUMNS=100 timeout 120 build/grader check lesson0 > "$R/l0-stub.txt" 2>&1
COLUMNS=100 timeout 120 build/grader check lesson0 --solutions > "$R/l0-sol.txt" 2>&1
cat "$R/l0-stub.txt"; pack
echo "== done $(date -u +%T)"
