#!/usr/bin/env bash
# run-b.sh: the GPU batch for issue 11 (lessons 11-14, the padded lessons 6
# and 8, lesson 12's protocol question), in one call, from any folder:
#
#   bash tests/gpu/probes/run-b.sh          (OUT=build/out by default)
#
# Needs an H100 (compute capability 9.0; lesson 12 skips on older GPUs),
# nvcc and gnuplot (apt-get install -y gnuplot-nox). About 6 minutes: the
# probe 20 s, ten gradings of lessons 11-13 about 2 minutes, the stubs 20 s,
# make measure lesson14 15 s, the prefetch sweeps 3 minutes. Everything lands
# in build/runB and is packed into $OUT/runB.tgz after every phase, so a run
# cut short still returns what it had. What each phase should show is in
# the issue-11 report; the files:
#   l12-forms.tsv      lesson 12's protocols in one run: ptx_sync (the
#                      reference solution's PTX) next to cccl_sync, and the
#                      two ptx_fe variants that isolate why ptx_fe was slow
#   sol-N.json/.txt    build/grader check lesson11 lesson12 lesson13 --solutions
#   stub-N.json/.txt   the same with the untouched stubs
#   transfers.tsv, lesson14-*.png   make measure lesson14
#   prefetch-sweep*.tsv, prefetch-sweep*.png   make sweep (padded 6 and 8 now in)
set -u
cd "$(dirname "$0")/../../.."
OUT=${OUT:-build/out}; mkdir -p "$OUT"
R=build/runB; rm -rf "$R"; mkdir -p "$R"
pack() { tar -czf "$OUT/runB.tgz" -C build runB; }
export NO_COLOR=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$R/gpu.txt" 2>&1
date -u +%Y-%m-%dT%H:%MZ >> "$R/gpu.txt"
git rev-parse --short HEAD >> "$R/gpu.txt" 2>&1
echo "== build $(date -u +%T)"
make -j16 build/grader > "$R/build.log" 2>&1 || { tail -30 "$R/build.log"; pack; exit 1; }

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

echo "== lessons 11-13, ten gradings of the solutions $(date -u +%T)"
for i in $(seq 1 10); do
  timeout 300 build/grader check lesson11 lesson12 lesson13 --solutions \
    --json "$R/sol-$i.json" > "$R/sol-$i.txt" 2>&1
  echo "solutions run $i exit $?" >> "$R/phases.log"
done
grep -h -E '^lesson1[123]/' "$R"/sol-*.txt | awk '{print $1, $2, $3, $4, $5, $6, $7}' | sort | uniq -c | head -40
pack

echo "== lessons 11-13, the untouched stubs $(date -u +%T)"
for i in 1 2; do
  timeout 300 build/grader check lesson11 lesson12 lesson13 --json "$R/stub-$i.json" \
    > "$R/stub-$i.txt" 2>&1
  echo "stubs run $i exit $?" >> "$R/phases.log"
done
grep -h -E '^lesson1[123]/' "$R"/stub-*.txt | awk '{print $1, $2, $6}' | sort | uniq -c
pack

echo "== make measure lesson14 $(date -u +%T)"
timeout 180 make measure lesson14 > "$R/measure.log" 2>&1
echo "make measure lesson14 exit $?" >> "$R/phases.log"
cp build/measure/transfers.tsv build/measure/lesson14-*.png "$R/" 2>/dev/null
grep -E 'bw.*(65536|268435456)|overlap' "$R/transfers.tsv" | cut -f2-8
pack

echo "== prefetch sweeps, padded lessons 6 and 8 included $(date -u +%T)"
timeout 400 make sweep > "$R/sweep.log" 2>&1
echo "make sweep exit $?" >> "$R/phases.log"
cp build/measure/prefetch-sweep*.tsv build/measure/prefetch-sweep*.png "$R/" 2>/dev/null
awk -F'\t' '$2 ~ /padded|lesson[689]/ {print $1, $2, $3, $4}' "$R/prefetch-sweep-padded.tsv" | head -40
pack
echo "== done $(date -u +%T)"
cat "$R/phases.log"
