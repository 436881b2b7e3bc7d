#!/usr/bin/env bash
# trust-run.sh [PHASE...]: issue 7's GPU checks in one call, for a machine
# with an NVIDIA GPU (the lent H100 or H200). From the repository root:
#
#   bash tests/gpu/trust-run.sh                 # every phase, within TRUST_SECONDS
#   REPEAT_FROM=5 bash tests/gpu/trust-run.sh repeat      # more repeats only
#
# Phases (default: test race time repeat; also: margin):
#   test     make test: the CPU suite, then the GPU suite (solutions PASS,
#            stubs and baselines fail, every fixture of tests/gpu/{faulty,
#            cheats,races}/ gets its expected verdict, SANITIZE=1 and
#            SANITIZE=race). Its gradings of the solutions and the stubs
#            count as repeat 1.
#   race     make check ... SANITIZE=race on every racy kernel of
#            tests/gpu/races/ and on the lesson 3, 9 and 10 solutions
#   time     wall time of grading each lesson's solutions
#            (tests/gpu/probes/time-lessons.sh)
#   margin   the floor's margin: grader/measure/floor_margin.cu
#   repeat   grade the solutions and the stubs, alternately, runs
#            REPEAT_FROM..REPEAT_TO (default 2..10 after `test`, else 1..10),
#            while time is left
#
# TEST_MAX_S (default 420): the test phase's own bound; CK_RUN_CASE (Check's
# own variable) picks one part of the GPU suite, e.g. "each fixture gets its
# verdict", when the whole suite does not fit one call.
#
# Everything goes to build/trust-run/; after every phase (and every repeat)
# it is packed into $OUT/trust-run.tgz, and the tables into $OUT/summary.txt,
# so a call cut short still returns what it had. Two files in $OUT.
#
# Time: the whole call stops starting work TRUST_SECONDS (default 540) after
# it began; each phase is also bounded. On an H100 a course grading takes
# roughly 20-40 s, make test several minutes: if the summary says fewer than
# 10 repeats ran, a second call with PHASES "repeat" and REPEAT_FROM set to
# the next run number finishes them.
set -uo pipefail
cd "$(dirname "$0")/../.."
START=$(date +%s)
BUDGET=${TRUST_SECONDS:-540}
OUT=${OUT:-build/trust-out}
R=build/trust-run
rm -rf "$R"
mkdir -p "$OUT" "$R"
export NO_COLOR=1
PHASES=("$@")
[ ${#PHASES[@]} -eq 0 ] && PHASES=(test race time repeat)
LOG=$R/log.txt

now() { echo $(($(date +%s) - START)); }
left() { echo $((BUDGET - $(now))); }
log() { echo "== +$(now)s $*" | tee -a "$LOG"; }
has_phase() {
    local p
    for p in "${PHASES[@]}"; do [ "$p" = "$1" ] && return 0; done
    return 1
}

# ---- the summary: tables from what the phases left in $R ------------------
summarize() {
    {
        echo "TRUST RUN on $(head -2 "$R/gpu.txt" 2>/dev/null | tail -1), $(date -u +%Y-%m-%d), +$(now)s, phases: ${PHASES[*]}"
        echo
        if [ -f "$R/make-test.log" ]; then
            echo "1. make test (exit $(cat "$R/make-test.exit" 2>/dev/null || echo '?'))"
            grep -E '^[0-9]+%: Checks|skipped|FAILED|^race-check|^slides' "$R/make-test.log" | sed 's/^/   /'
            echo "   failures (suite:file:line:F/E:case:test:iteration: message):"
            grep -E ':[FE]:' "$R/make-test.log" | sed 's/^/   /' | head -60
            echo
        fi
        if ls "$R"/test/fixture-*.json >/dev/null 2>&1; then
            echo "1b. The fixtures (tests/gpu/{faulty,cheats,races,accepted}/): expected, and what the grader said"
            local e id want got msg
            for e in tests/gpu/{faulty,cheats,races,accepted}/*/expect; do
                id=${e%/expect}
                id=${id#tests/gpu/}
                want=$(sed -n 's/^outcome: *//p' "$e")
                got=$(sed -n 's/.*"outcome": "\([^"]*\)".*/\1/p' "$R/test/fixture-${id//\//-}.json" 2>/dev/null | head -1)
                msg=$(sed -n 's/.*"message": "\([^"]\{0,110\}\).*/\1/p' "$R/test/fixture-${id//\//-}.json" 2>/dev/null | head -1)
                printf '   %-34s %-10s %-10s %s\n' "$id" "$want" "${got:-none}" "$msg"
            done
            echo
        fi
        if [ -f "$R/race.txt" ]; then
            echo "2. SANITIZE=race"
            grep -E '^#### |: RACE|: SYNC ERROR|: no race found|: NOT CHECKED|^    (Error|Warning|synccheck):|not installed|no exercise matches' \
                "$R/race.txt" | sed 's/^/   /' | cut -c1-220
            echo
        fi
        if [ -f "$R/time.tsv" ]; then
            echo "3. Grading time per lesson (solutions, one grader run per lesson): now | before"
            if [ -f "$R/time-before.tsv" ]; then
                join -t "$(printf '\t')" -a 1 "$R/time.tsv" "$R/time-before.tsv" | sed 's/^/   /'
            else
                sed 's/^/   /' "$R/time.tsv"
            fi
            echo
        fi
        if [ -f "$R/floor_margin.tsv" ]; then
            echo "3b. Floor margin (grader/measure/floor_margin.cu)"
            tail -8 "$R/floor_margin.tsv" | sed 's/^/   /'
            echo
        fi
        if ls "$R"/repeat/*.json >/dev/null 2>&1; then
            echo "4. Repeated gradings: outcomes per exercise (solutions must all be PASS, stubs never pass)"
            for kind in sol stub; do
                local runs
                runs=$(ls "$R"/repeat/"$kind"-*.json 2>/dev/null | wc -l)
                echo "   $kind: $runs runs"
                cat "$R"/repeat/"$kind"-*.json 2>/dev/null |
                    sed -n 's/.*{"lesson": \([0-9]*\), "name": "\([^"]*\)".*"outcome": "\([^"]*\)".*/lesson\1\/\2|\3/p' |
                    awk -F'|' '{ n[$1, $2]++; if (!(($1, $2) in seen)) { seen[$1, $2] = 1; o[$1] = o[$1] "|" $2 } }
                        END { for (e in o) { m = split(substr(o[e], 2), os, "|"); line = ""
                                for (j = 1; j <= m; j++) line = line sprintf(" %s x%d", os[j], n[e, os[j]])
                                printf "     %-26s%s\n", e, line } }' | sort -V
            done
            echo "   exit status per run:"
            sed 's/^/     /' "$R/repeat/exits.txt" 2>/dev/null
            echo
        fi
        echo "Phases not run or cut short (time):"
        grep -E 'not run|cut short' "$LOG" | sed 's/^/   /'
    } >"$R/summary.txt" 2>&1
    cp "$R/summary.txt" "$OUT/summary.txt"
    tar -czf "$OUT/trust-run.tgz" -C build trust-run 2>/dev/null
}

# ---- the machine and the build -------------------------------------------
log "machine"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu \
    --format=csv >"$R/gpu.txt" 2>&1
date -u +%Y-%m-%dT%H:%MZ >>"$R/gpu.txt"
log "build"
if ! make -j"$(nproc)" build/grader build/libgrader.a build/tests/unit_tests \
    build/tests/gpu_tests >"$R/build.log" 2>&1; then
    tail -30 "$R/build.log"
    log "build failed: nothing else run"
    summarize
    exit 1
fi

# ---- make test --------------------------------------------------------------
if has_phase test; then
    t=$(left)
    [ "$t" -gt "${TEST_MAX_S:-420}" ] && t=${TEST_MAX_S:-420}
    if [ "$t" -lt 120 ]; then
        log "test: not run (${t}s left)"
    else
        log "test (at most ${t}s)"
        # -k: the GPU suite runs even when a CPU-side target (the slides, say,
        # on a machine without pandoc or the network) fails.
        timeout -k 10 "$t" make -k "${TEST_TARGET:-test}" >"$R/make-test.log" 2>&1
        rc=$?
        echo "$rc" >"$R/make-test.exit"
        [ $rc -ge 124 ] && log "test: cut short after ${t}s"
        mkdir -p "$R/test" "$R/repeat"
        cp build/tests/*.txt build/tests/*.json "$R/test/" 2>/dev/null
        # The suite's gradings of the solutions and stubs are repeat 1.
        cp build/tests/solutions.json "$R/repeat/sol-1.json" 2>/dev/null
        cp build/tests/stubs.json "$R/repeat/stub-1.json" 2>/dev/null
        log "test: exit $rc"
    fi
    summarize
fi

# ---- SANITIZE=race on the racy kernels and the solutions -------------------
if has_phase race; then
    log "race"
    : >"$R/race.txt"
    # tag (the GPU suite's output of the same run, if it made one) | arguments
    RUNS=(
        "race-l9|lesson9 STUDENT_DIR=tests/gpu/races/async_commit_if_copy"
        "-|lesson9 STUDENT_DIR=tests/gpu/races/async_wait_prior_pdist"
        "-|lesson9 STUDENT_DIR=tests/gpu/races/async_wait_group_pdist"
        "race-l3|lesson3 ONLY=matmul STUDENT_DIR=tests/gpu/races/matmul_no_second_sync"
        "-|lesson3 ONLY=matmul STUDENT_DIR=tests/gpu/races/matmul_no_first_sync"
        "race-solutions|lesson3 lesson9 STUDENT_DIR=solutions"
        "-|lesson10 STUDENT_DIR=solutions"
    )
    for entry in "${RUNS[@]}"; do
        tag=${entry%%|*}
        run=${entry#*|}
        echo "#### make check $run SANITIZE=race" >>"$R/race.txt"
        if has_phase test && [ -f "build/tests/$tag.txt" ]; then
            # make test ran it already, in this call.
            cat "build/tests/$tag.txt" >>"$R/race.txt"
            echo "#### (output of make test's run)" >>"$R/race.txt"
            continue
        fi
        t=$(left)
        [ "$t" -gt 240 ] && t=240
        if [ "$t" -lt 30 ]; then
            log "race: not run: make check $run SANITIZE=race (${t}s left)"
            continue
        fi
        t0=$(date +%s)
        # shellcheck disable=SC2086
        timeout -k 10 "$t" make -s check $run SANITIZE=race >>"$R/race.txt" 2>&1
        rc=$?
        echo "#### exit $rc after $(($(date +%s) - t0))s" >>"$R/race.txt"
        [ $rc -ge 124 ] && log "race: cut short: $run"
    done
    mkdir -p "$R/sanitize"
    cp build/sanitize/* "$R/sanitize/" 2>/dev/null
    # The raw tool output is large; keep the first lines of each.
    for f in "$R"/sanitize/*.txt; do
        [ -f "$f" ] && head -c 20000 "$f" >"$f.head" && mv "$f.head" "$f"
    done
    summarize
fi

# ---- grading time per lesson ---------------------------------------------
if has_phase time; then
    t=$(left)
    [ "$t" -gt 150 ] && t=150
    if [ "$t" -lt 40 ]; then
        log "time: not run (${t}s left)"
    else
        log "time"
        timeout -k 10 "$t" bash tests/gpu/probes/time-lessons.sh "$R/time.tsv" \
            >/dev/null 2>&1 || log "time: cut short or failed"
        # Before: the grader as it stood before these changes, carried as
        # .old-grader/ (git archive 3fe8ff4), timed on its own lessons.
        if [ -d .old-grader ] && [ "$(left)" -gt 60 ]; then
            log "time: the old grader"
            (cd .old-grader && make -s -j"$(nproc)" build/grader >/dev/null 2>&1 &&
             timeout -k 10 100 bash ../tests/gpu/probes/time-lessons.sh ../"$R/time-before.tsv" \
                 >/dev/null 2>&1) || log "time: the old grader failed or was cut short"
        fi
    fi
    summarize
fi

# ---- the floor's margin: the best real kernels against cudaMemcpy ------------
if has_phase margin; then
    log "margin"
    "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" -O3 -arch=native -o build/floor_margin \
        grader/measure/floor_margin.cu >"$R/floor_margin.build" 2>&1 &&
        timeout -k 5 60 build/floor_margin >"$R/floor_margin.tsv" 2>&1 || log "margin failed"
    summarize
fi

# ---- repeated gradings of the solutions and the stubs ---------------------
if has_phase repeat; then
    mkdir -p "$R/repeat"
    from=${REPEAT_FROM:-$([ -f "$R/repeat/sol-1.json" ] && echo 2 || echo 1)}
    to=${REPEAT_TO:-10}
    log "repeat runs $from..$to"
    for i in $(seq "$from" "$to"); do
        for kind in sol stub; do
            t=$(left)
            if [ "$t" -lt 60 ]; then
                log "repeat: not run: $kind run $i and later (${t}s left)"
                break 2
            fi
            args=(all)
            [ $kind = sol ] && args+=(--solutions)
            timeout -k 10 "$t" build/grader check "${args[@]}" \
                --json "$R/repeat/$kind-$i.json" >"$R/repeat/$kind-$i.txt" 2>&1
            echo "$kind run $i: exit $? after +$(now)s" >>"$R/repeat/exits.txt"
        done
        summarize
    done
    summarize
fi
log "done"
summarize
cat "$R/summary.txt"
