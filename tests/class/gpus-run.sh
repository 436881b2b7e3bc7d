#!/usr/bin/env bash
# gpus-run.sh: issue 16 on a machine with NVIDIA GPUs (the lead's device
# run; helpers never run it). From the repository root, under 8 minutes:
#
#   bash tests/class/gpus-run.sh          (full logs under $OUT, default build/gpus-run)
#
# The grader now links libarchive. The lent machines have no network: when
# /usr/include/archive.h is missing, the script unpacks the Debian packages
# found in $DEBS (default build/debs), made beforehand on a machine with apt:
#   mkdir -p build/debs && (cd build/debs && apt-get download libarchive-dev libarchive13 libxml2 libicu72)
# and carried along (carry: ["build/debs"]). libxml2 and libicu72 are only
# unpacked when the machine lacks libxml2.so.2.
#
# What it does: a class of six (the reference solutions; the stubs as a
# .tar.gz; the baselines as a .zip; a repository .zip with two wrapping
# folders; a hostile .tar.gz; a kernel right only once) graded on lessons 0
# and 3 with one seed, twice: by today's path (one process, no GPUS) and by
# GPUS=all (a worker per GPU; with one GPU, one worker). Then:
#   verdicts      every verdict cell of the two gradebooks equal, the gpu
#                 column naming the same GPU model (and device, on one GPU;
#                 on several, GPUS=all spreads students over the devices)
#   speedups      the two runs' speedups side by side (noise, not a rule)
#   per student   wall seconds per student of each run: GPUS=all on one GPU
#                 costs what one process costs; on n GPUs about 1/n of it
# The summary table comes last. Exit 0 when the verdicts agree. Files (8):
# gpu.txt phases.log build.log class/{one,all}.txt (each run's output)
# class/gradebook-{one,all}.csv class/compare.txt (cell by cell, then the summary)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-build/gpus-run}
DEBS=${DEBS:-build/debs}
mkdir -p "$OUT/class"
export NO_COLOR=1
SEED=${SEED:-20261125}
log() { echo "== $(date -u +%H:%M:%S) $*" | tee -a "$OUT/phases.log"; }

nvidia-smi --query-gpu=index,name,driver_version --format=csv >"$OUT/gpu.txt" 2>&1
date -u +%Y-%m-%dT%H:%MZ >>"$OUT/gpu.txt"
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)

if [ ! -f /usr/include/archive.h ]; then
    log "no libarchive-dev here: unpacking $DEBS"
    for f in "$DEBS"/libarchive*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done
    if ! ldconfig -p | grep -q 'libxml2.so.2 '; then
        for f in "$DEBS"/libxml2*.deb "$DEBS"/libicu*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done
    fi
    ldconfig
    [ -f /usr/include/archive.h ] || { echo "No libarchive-dev and none in $DEBS: see the comment at the top."; exit 1; }
fi
log build
make -j8 build/grader >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
ldd build/grader | grep 'not found' && { echo "build/grader misses a library (above)"; exit 1; }

log class
w=build/gpus-class
s=$w/subs
rm -rf "$w"
mkdir -p "$s"
from() { mkdir -p "$1"; for l in lesson0 lesson3; do cp -r "$2/$l" "$1/"; done; }
from "$s/ada" solutions
from "$w/bo/exercises" exercises && tar -C "$w/bo" -czf "$s/bo.tar.gz" exercises
from "$w/cy" grader/baselines
python3 - "$w/cy" "$s/cy.zip" <<'PY'
import os, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
    for root, _, files in os.walk(src):
        for f in files:
            p = os.path.join(root, f)
            zi = zipfile.ZipInfo(os.path.relpath(p, src)); zi.external_attr = 0o644 << 16; zi.create_system = 3
            z.writestr(zi, open(p, "rb").read())      # writestr: mode without type bits
PY
from "$w/dan/cuda-course-main/exercises" solutions
(cd "$w/dan" && python3 -c "import shutil; shutil.make_archive('../subs/dan', 'zip', '.', 'cuda-course-main')")
from "$w/dee" solutions
rm "$w/dee/lesson3/matmul.cu" && ln -s /etc/passwd "$w/dee/lesson3/matmul.cu"
tar -C "$w/dee" -czf "$s/dee.tar.gz" lesson0 lesson3
from "$s/jon" solutions
cp tests/gpu/faulty/right_once/lesson0/saxpy.cu "$s/jon/lesson0/" 2>/dev/null || true
nst=$(ls "$s" | wc -l)

run() {   # run NAME [GPUS]
    local t0 t1
    t0=$(date +%s%N)
    make --no-print-directory grade-class SUBMISSIONS="$s" LESSONS=0,3 CLASS_OUT="$w/$1" \
        SEED="$SEED" TIMEOUT=60 ${2:+GPUS=$2} >"$OUT/class/$1.txt" 2>&1
    echo "grade-class $1 exit $?" | tee -a "$OUT/phases.log"
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000000))
}
ms_one=$(run one | tail -1)
ms_all=$(run all all | tail -1)
cp "$w/one/gradebook.csv" "$OUT/class/gradebook-one.csv"
cp "$w/all/gradebook.csv" "$OUT/class/gradebook-all.csv"

python3 - "$w/one/gradebook.csv" "$w/all/gradebook.csv" "$ms_one" "$ms_all" "$nst" "$ngpu" \
    >"$OUT/class/compare.txt" <<'PY'
import csv, sys
one = {r["student"]: r for r in csv.DictReader(open(sys.argv[1], encoding="utf-8"))}
alls = {r["student"]: r for r in csv.DictReader(open(sys.argv[2], encoding="utf-8"))}
ms_one, ms_all, nst, ngpu = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
cols = [c for c in next(iter(one.values())).keys()]
verdicts = [c for c in cols if "/" in c and not c.endswith("speedup")]
bad = gpu_bad = 0
print("student\texercise\tone\tGPUS=all\tspeedup one\tspeedup all\tsame")
for who in sorted(one):
    a, b = one[who], alls.get(who)
    if b is None:
        print(who, "missing from GPUS=all"); bad += 1; continue
    for c in verdicts:
        same = a[c] == b[c]
        bad += not same
        print("\t".join([who, c, a[c], b[c], a[c + " speedup"], b[c + " speedup"], "yes" if same else "NO"]))
    # The model must agree; the device index may differ only where there
    # are several GPUs (GPUS=all hands students to every device).
    model = lambda g: g.rsplit(" (device", 1)[0]
    if model(a["gpu"]) != model(b["gpu"]) or (ngpu == 1 and a["gpu"] != b["gpu"]):
        print(who, "gpu column differs:", a["gpu"], "|", b["gpu"]); gpu_bad += 1
print()
print("SUMMARY (issue 16, GPUS=all against one process)")
print("gpus on this host        %d" % ngpu)
print("students                 %d (lessons 0 and 3)" % nst)
print("one process              %.1f s, %.1f s per student" % (ms_one / 1000, ms_one / 1000 / nst))
print("GPUS=all                 %.1f s, %.1f s per student" % (ms_all / 1000, ms_all / 1000 / nst))
print("verdict cells differing  %d of %d" % (bad, len(one) * len(verdicts)))
print("gpu cells differing      %d of %d (the model; the device too on one GPU)" % (gpu_bad, len(one)))
print("gpu column (one)         %s" % sorted({r["gpu"] for r in one.values()}))
print("gpu column (GPUS=all)    %s" % sorted({r["gpu"] for r in alls.values()}))
sys.exit(1 if bad or gpu_bad else 0)
PY
rc=$?
log done
cat "$OUT/class/compare.txt"
exit $rc
