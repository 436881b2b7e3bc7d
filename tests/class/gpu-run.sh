#!/usr/bin/env bash
# gpu-run.sh PHASE...: the class tools on a machine with an NVIDIA GPU, for
# the lead's device runs (helpers never run it). Results go under $RESULTS
# (default build/device-class), small enough to bring back whole.
#
#   class     a class of ten graded in one `make grade-class` (lessons 0, 3
#             and 9), with its wall time; then the same command again, which
#             must grade nothing (every submission unchanged)
#   release   make release, then the student copy and the full course grade
#             the same files (the reference solutions and the untouched
#             stubs, lessons 3 and 9) with one seed: the verdicts must match;
#             and the copy graded at TILE=32, where it has no reference
#
# What to look for:
#   class/wall.txt        seconds for the ten (and for the re-run: a few)
#   class/gradebook.csv   ada PASS everywhere; bo the stubs' verdicts; cy SLOW or
#                         MECHANISM (the baselines); dee MISSING matmul, 2 entries
#                         refused; eli HANG, fay CRASH, gus WRONG on saxpy and
#                         PASS on the rest; hal and ivy the races' verdicts; jon
#                         COMPILE on matmul and WRONG on saxpy (right once)
#   class/rerun.txt       ten lines "unchanged since ..."
#   release/compare.tsv   full and copy verdicts equal on every row
#   release/knob.txt      PASS* and "the speed part was not graded" at TILE=32
set -uo pipefail
cd "$(dirname "$0")/../.."
RESULTS=${RESULTS:-build/device-class}
mkdir -p "$RESULTS"
export NO_COLOR=1
SEED=${SEED:-20261124}
log() { echo "== $(date -u +%H:%M:%S) $*" | tee -a "$RESULTS/phases.log"; }

nvidia-smi --query-gpu=name,driver_version --format=csv >"$RESULTS/gpu.txt" 2>&1
date -u +%Y-%m-%d >>"$RESULTS/gpu.txt"
make -j8 build/grader >"$RESULTS/build.log" 2>&1 || { tail -30 "$RESULTS/build.log"; exit 1; }

# A student folder from the course's own files: solutions, or stubs.
from() {   # from DIR solutions|exercises
    mkdir -p "$1"
    for l in lesson0 lesson3 lesson9; do cp -r "$2/$l" "$1/"; done
}

make_class() {
    local w=$1 s=$1/subs
    rm -rf "$w"
    mkdir -p "$s"
    from "$s/ada" solutions                                         # every answer right
    from "$w/bo/exercises" exercises                                # the stubs, as a tar.gz
    tar -C "$w/bo" -czf "$s/bo.tar.gz" exercises
    mkdir -p "$w/cy"                                                # the baselines handed in, as a zip
    for l in lesson0 lesson3 lesson9; do cp -r "grader/baselines/$l" "$w/cy/"; done
    if command -v zip >/dev/null && command -v unzip >/dev/null; then
        (cd "$w/cy" && zip -qr ../subs/cy.zip lesson0 lesson3 lesson9)
    else                                                            # no zip here, and no network
        tar -C "$w/cy" -czf "$s/cy.tgz" lesson0 lesson3 lesson9
    fi
    from "$w/dee" solutions                                         # hostile: '..', absolute, a link
    rm "$w/dee/lesson3/matmul.cu"
    ln -s /etc/passwd "$w/dee/lesson3/matmul.cu"
    echo "// OUTSIDE" >"$w/dee/outside.cu"
    tar -C "$w/dee" -cPzf "$s/dee.tar.gz" --transform='s,^outside.cu,../../outside.cu,' \
        outside.cu lesson0 lesson3 lesson9
    for v in eli:hang fay:crash gus:oob; do                         # a broken saxpy, the rest right
        from "$s/${v%%:*}" solutions
        cp "tests/gpu/faulty/${v##*:}/lesson0/saxpy.cu" "$s/${v%%:*}/lesson0/"
    done
    from "$s/hal" solutions                                         # matmul without its second barrier
    if [ -f tests/gpu/races/matmul_no_second_sync/lesson3/matmul.cu ]; then
        cp tests/gpu/races/matmul_no_second_sync/lesson3/matmul.cu "$s/hal/lesson3/"
    else
        awk '/__syncthreads\(\)/ { n++; if (n == 2) next } { print }' solutions/lesson3/matmul.cu \
            >"$s/hal/lesson3/matmul.cu"
    fi
    from "$s/ivy" solutions                                         # the blog's commit inside the if
    if [ -f tests/gpu/races/async_commit_if_copy/lesson9/rolling_async.cu ]; then
        cp tests/gpu/races/async_commit_if_copy/lesson9/rolling_async.cu "$s/ivy/lesson9/"
    else
        cp exercises/lesson9/rolling_async.cu "$s/ivy/lesson9/"
    fi
    from "$s/jon" solutions                                         # a compile error, a right-once kernel
    echo "this does not compile;" >>"$s/jon/lesson3/matmul.cu"
    cp tests/gpu/faulty/right_once/lesson0/saxpy.cu "$s/jon/lesson0/"
}

for phase in "$@"; do
    case $phase in
    class)
        log class
        w=build/gpu-class
        make_class "$w"
        o=$RESULTS/class
        mkdir -p "$o"
        t0=$(date +%s%N)
        make --no-print-directory grade-class SUBMISSIONS="$w/subs" LESSONS=0,3,9 CLASS_OUT="$w/out" \
            SEED="$SEED" TIMEOUT=30 >"$o/run.txt" 2>"$o/run.err"
        echo "grade-class exit $?" | tee -a "$RESULTS/phases.log"
        t1=$(date +%s%N)
        make --no-print-directory grade-class SUBMISSIONS="$w/subs" LESSONS=0,3,9 CLASS_OUT="$w/out" \
            SEED="$SEED" TIMEOUT=30 >"$o/rerun.txt" 2>&1
        t2=$(date +%s%N)
        printf "ten students, lessons 0 3 9: %d.%03d s\nre-run, nothing changed: %d.%03d s\n" \
            $(((t1 - t0) / 1000000000)) $(((t1 - t0) / 1000000 % 1000)) \
            $(((t2 - t1) / 1000000000)) $(((t2 - t1) / 1000000 % 1000)) | tee "$o/wall.txt"
        cp "$w/out/gradebook.csv" "$w/out/summary.md" "$w/out/class.json" "$o/"
        cp -r "$w/out/leaderboards" "$o/"
        for s in dee eli jon; do cp "$w/out/students/$s/report.txt" "$o/report-$s.txt"; done
        cp "$w/out/students/jon/junit.xml" "$o/junit-jon.xml"
        cat "$o/gradebook.csv"
        cat "$o/leaderboards/lesson3-matmul.md"
        ;;
    release)
        log release
        o=$RESULTS/release
        mkdir -p "$o"
        make --no-print-directory release RELEASE_OUT=build/gpu-release >"$o/release.txt" 2>&1 ||
            { cat "$o/release.txt"; exit 1; }
        rm -rf build/gpu-release/copy
        mkdir -p build/gpu-release/copy
        tar -xzf build/gpu-release/cuda-course-student.tar.gz -C build/gpu-release/copy
        copy=build/gpu-release/copy/cuda-course
        make -C "$copy" -j8 grader >"$o/build.txt" 2>&1 || { tail -20 "$o/build.txt"; exit 1; }
        make --no-print-directory -C "$copy" test >"$o/copy-make-test.txt" 2>&1
        echo "copy make test exit $?" | tee -a "$RESULTS/phases.log"
        # The same student files, graded by the full course and by the copy.
        mkdir -p build/gpu-release/sol
        for l in lesson3 lesson9; do cp -r "solutions/$l" build/gpu-release/sol/; done
        sol=$(pwd)/build/gpu-release/sol
        oabs=$(cd "$o" && pwd)
        for who in solutions stubs; do
            dir=$([ $who = solutions ] && echo "$sol" || echo exercises)
            build/grader check lesson3 lesson9 --seed "$SEED" --student-dir "$dir" \
                --json "$oabs/full-$who.json" >"$o/full-$who.txt" 2>&1
            (cd "$copy" && build/grader check lesson3 lesson9 --seed "$SEED" --student-dir "$dir" \
                --json "$oabs/copy-$who.json") >"$o/copy-$who.txt" 2>&1
        done
        if ! command -v python3 >/dev/null; then
            for who in solutions stubs; do
                paste <(grep -o '"name": "[^"]*"' "$o/full-$who.json") \
                      <(grep -o '"outcome": "[^"]*"' "$o/full-$who.json") \
                      <(grep -o '"outcome": "[^"]*"' "$o/copy-$who.json")
            done | tee "$o/compare.tsv"
        else
        python3 - "$o" <<'PY' | tee "$o/compare.tsv"
import json, sys
o = sys.argv[1]
print("who\texercise\tfull\tcopy\tfull speedup\tcopy speedup\tfull ref speedup\tcopy ref speedup\tsame")
for who in ("solutions", "stubs"):
    full = json.load(open(f"{o}/full-{who}.json"))["exercises"]
    copy = json.load(open(f"{o}/copy-{who}.json"))["exercises"]
    for f, c in zip(full, copy):
        print("\t".join([who, f"lesson{f['lesson']}/{f['name']}", f["outcome"], c["outcome"],
                         str(f.get("speedup")), str(c.get("speedup")),
                         str(f.get("solution_speedup")), str(c.get("solution_speedup")),
                         "yes" if f["outcome"] == c["outcome"] else "NO"]))
PY
        fi
        # A knob the copy has no reference for.
        (cd "$copy" && build/grader check lesson3 --only matmul --set TILE=32 --seed "$SEED" \
            --student-dir "$sol") >"$o/knob.txt" 2>&1
        cat "$o/knob.txt"
        ;;
    *)
        echo "unknown phase $phase (class, release)" >&2
        exit 2
        ;;
    esac
done
log done
