#!/usr/bin/env bash
# tests/cli/run.sh: the course's command line as a student meets it, on a
# machine with or without a GPU (make test-cpu runs it; nothing here needs
# one). Checks make's messages for knobs and exercise names, make check
# without a GPU, make watch seeing saves, progress kept between runs and
# shown by make progress, make list and make static, the SANITIZE lookup,
# and the report's width.
#
#   bash tests/cli/run.sh          (after make grader; CUDA_HOME as for make)
#
# It never writes the repository's .progress: gradings of exercises/ run in
# a copy of the course under a temporary folder, and make-level gradings use
# STUDENT_DIR, which records nothing.
set -u
cd "$(dirname "$0")/../.."
GRADER=build/grader
T=$(mktemp -d /tmp/course-cli-XXXXXX)
trap 'rm -rf "$T"' EXIT
FIX=tests/unit/fixtures/nogpu
pass=0
fail=0

# The make a student types: none of the outer make's variables or flags.
smake() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u MAKEOVERRIDES make --no-print-directory "$@"; }
# No GPU, even on a machine that has one.
nogpu() { CUDA_VISIBLE_DEVICES= NO_COLOR=1 "$@"; }

bad() {
    fail=$((fail + 1))
    echo "FAIL: $1"
    [ -n "${2:-}" ] && [ -f "$2" ] && sed 's/^/    | /' "$2" | head -40
}
# has NAME FILE TEXT: FILE holds TEXT (a fixed string).
has() { if grep -qF -- "$3" "$2"; then pass=$((pass + 1)); else bad "$1: no '$3'" "$2"; fi; }
# lacks NAME FILE TEXT
lacks() { if grep -qF -- "$3" "$2"; then bad "$1: unexpected '$3'" "$2"; else pass=$((pass + 1)); fi; }
# status NAME GOT WANT
status() { if [ "$2" = "$3" ]; then pass=$((pass + 1)); else bad "$1: exit status $2, expected $3" "${4:-}"; fi; }
# widest NAME FILE MAX: no line of FILE is longer than MAX.
widest() {
    local w
    w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$2")
    if [ "$w" -le "$3" ]; then pass=$((pass + 1)); else bad "$1: a line of $w columns (at most $3)" "$2"; fi
}
# wait_for FILE TEXT SECONDS: until FILE holds TEXT.
wait_for() {
    local i=0
    while ! grep -qF -- "$2" "$1" 2>/dev/null; do
        i=$((i + 1))
        [ $i -gt $(($3 * 10)) ] && return 1
        sleep 0.1
    done
}

# ---- knobs and names: refused before anything is graded -----------------
o=$T/out
smake check lesson3 tile=32 >$o 2>&1; status "tile=32" $? 2 $o
has "tile=32" $o "tile=32: knob names are upper case: TILE=32."
lacks "tile=32 grades nothing" $o "grading lesson3"
lacks "tile=32 grades nothing" $o "Report for tools"

smake check lesson3 TILE=abc >$o 2>&1; status "TILE=abc" $? 2 $o
has "TILE=abc" $o "TILE=abc: TILE takes a whole number; for lesson3/matmul, a power of two from 8 to 32"

smake check lesson3 TILE=7 >$o 2>&1; status "TILE=7" $? 2 $o
has "TILE=7" $o "TILE=7 is not allowed for lesson3/matmul: TILE must be a power of two from 8 to 32"
lacks "TILE=7 grades nothing" $o "grading lesson3/bank_conflicts"

smake check lesson3 PDIST=4 >$o 2>&1; status "PDIST on lesson 3" $? 2 $o
has "PDIST on lesson 3" $o "PDIST is not a knob of lesson3, whose knobs are TILE (matmul)."

smake check lesson3 TILES=16 >$o 2>&1
has "TILES" $o "Did you mean TILE=16?"

smake check lesson3 only=matmul >$o 2>&1
has "only=" $o "make's options are upper case: ONLY=matmul."

smake check lesson3 ONLY=matmull >$o 2>&1; status "ONLY=matmull" $? 2 $o
has "ONLY=matmull" $o "lesson3 has no exercise 'matmull'; its exercises are: bank_conflicts, matmul. Did you mean ONLY=matmul?"

# How make passes things on (dry runs): knobs as --set, progress only for
# the student's own exercises/.
smake -n check lesson3 TILE=16 >$o 2>&1
has "make forwards knobs" $o "--set 'TILE=16'"
has "make check records progress" $o "--progress .progress"
smake -n check lesson3 STUDENT_DIR=elsewhere >$o 2>&1
lacks "STUDENT_DIR records nothing" $o "--progress"
smake -n check-solutions >$o 2>&1
lacks "check-solutions records nothing" $o "--progress"
smake -n watch lesson3 >$o 2>&1
has "make watch" $o "watch lesson3"
has "make watch records progress" $o "--progress .progress"

# ---- make check without a GPU ---------------------------------------------
nogpu smake check lesson3 ONLY=bank_conflicts STUDENT_DIR=$FIX/right >$o 2>&1
status "no GPU, everything holds: make check succeeds" $? 0 $o
has "no GPU, right file" $o "lesson3/bank_conflicts CORRECT"
has "no GPU, right file" $o "holds  the PTX has 'ld.shared'"
has "no GPU, summary" $o "Without a GPU: 1 correct on the PTX simulator, 0 checked, 0 failed"
has "no GPU, summary" $o "needs an NVIDIA GPU"
lacks "no GPU is no error" $o "make: ***"

nogpu smake check lesson3 ONLY=bank_conflicts STUDENT_DIR=$FIX/wrong_mechanism >$o 2>&1
status "no GPU, a check fails: make check fails" $? 2 $o
has "no GPU, wrong mechanism" $o "lesson3/bank_conflicts MECHANISM"
has "no GPU, wrong mechanism" $o "FAILS  the PTX has no 'ld.shared' instruction"

# The grader's own statuses: 3 all CORRECT or CHECKED, 1 a failure, 2 a usage error.
nogpu $GRADER check lesson3 --only bank_conflicts --student-dir $FIX/right >$o 2>&1
status "grader: all CORRECT" $? 3 $o
nogpu $GRADER check lesson3 --student-dir $FIX/wrong_mechanism >$o 2>&1
status "grader: a check fails" $? 1 $o
# --dump-outputs: the simulator's output bytes of each run, by size and seed
# (tests/gpu/sim-agreement-run.sh compares them with a GPU's).
mkdir -p "$T/dump"
nogpu $GRADER check lesson0 --only saxpy --solutions --seed 11 --dump-outputs "$T/dump" \
    --json "$T/r.json" >$o 2>&1
status "dump-outputs: correct" $? 3 $o
if [ "$(stat -c %s "$T/dump/size1000-seed12.bin" 2>/dev/null)" = 4000 ]; then
    pass=$((pass + 1))
else
    bad "dump-outputs: no size1000-seed12.bin of 4000 bytes" $o
fi
# A race the simulator sees fails, its values right or not, named by its lines.
nogpu $GRADER check lesson0 --only saxpy --student-dir $FIX/race_right_values >$o 2>&1
status "grader: a race" $? 1 $o
has "no GPU, a race" $o "lesson0/saxpy RACE"
has "no GPU, a race" $o "read at line 16, with no __syncthreads()"
$GRADER check lesson3 --set TILE=7 >$o 2>&1
status "grader: bad knob" $? 2 $o

# The whole course without a GPU fits 100 columns when the width is unknown.
env -u COLUMNS NO_COLOR=1 $GRADER check all --no-gpu --student-dir exercises --json "$T/r.json" >$o 2>&1
widest "report width" $o 100
has "the table shows knob values" $o "  knobs: BLOCKDIMX=128 PDIST=8 BLOCKS_PER_SM=1"
# memory counts by line (issue 28 item 3): lesson 2's stub stores a lane per row
has "the table shows memory by line" $o "line 34   global store   32.0 sectors/request (best 4.0)"
has "the JSON lists every counted instruction" "$T/r.json" '"op": "st.global.f32", "space": "global"'
# the simulator's half of tests/gpu/ncu-counts-run.sh: totals in ncu's names, the
# stub's column read 32-way in its full warps (16.5 wavefronts a request on average)
$GRADER profile-one lesson3 --only bank_conflicts --no-gpu --profile-sim-size --seed 3 >$o 2>&1
has "profile-one on the simulator" $o "sim-counts student 300 "
has "profile-one on the simulator" $o "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum=6758400"
has "profile-one on the simulator" $o "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum=0 "
# cp.async's global reads are global loads, as Nsight Compute counts an
# LDGSTS (H200, 2026-11-29: lesson 9's solution, 59136 requests, 473088 sectors)
$GRADER profile-one lesson9 --only rolling_async --no-gpu --profile-sim-size --seed 3 >$o 2>&1
has "profile-one: cp.async in the global loads" $o "sim-counts solution 2000000 l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum=59136 l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum=473088 "
COLUMNS=72 NO_COLOR=1 $GRADER check lesson1 --no-gpu --json "$T/r.json" >$o 2>&1
widest "report width, COLUMNS=72" $o 72

# ---- list and static -------------------------------------------------------
smake list lesson7 >$o 2>&1
has "list: a demo is not edited" $o "demo:     grader/demos/lesson7/rolling_direct.cu (shown for what it teaches; not graded, nothing to edit)"
lacks "list: a demo is not edited" $o "edit:     grader/demos"
has "list: the exercise is" $o "edit:     exercises/lesson7/rolling_regs.cu"

smake static lesson3 >$o 2>&1
has "static labels the student's files" $o "yours: CHECKED"
has "static labels the student's files" $o "yours: MECHANISM"
lacks "static labels the student's files" $o "stub:"
smake static lesson7 STUDENT_DIR=$FIX/wrong_mechanism >$o 2>&1
has "static with STUDENT_DIR" $o "$FIX/wrong_mechanism: MECHANISM"
has "static shows the demo as a demo" $o "demo: MECHANISM"

# ---- SANITIZE=1 finds compute-sanitizer in the toolkit ---------------------
mkdir -p "$T/cuda/bin"
printf '#!/bin/sh\necho "fake compute-sanitizer: $*"\n' >"$T/cuda/bin/compute-sanitizer"
chmod +x "$T/cuda/bin/compute-sanitizer"
sh grader/scripts/find-sanitizer.sh "$T/cuda" >$o 2>&1; status "sanitizer in CUDA_HOME/bin" $? 0 $o
has "sanitizer in CUDA_HOME/bin" $o "$T/cuda/bin/compute-sanitizer"
PATH=/usr/bin:/bin sh grader/scripts/find-sanitizer.sh "$T/nowhere" >$o 2>&1
status "no sanitizer anywhere" $? 1 $o
has "no sanitizer anywhere" $o "compute-sanitizer was not found: not in $T/nowhere/bin"
# Through make, with a toolkit whose bin/ has it (and include/ and lib64/
# borrowed from the real one, so the grader still builds).
CUDA=${CUDA_HOME:-/usr/local/cuda}
ln -s "$CUDA/include" "$T/cuda/include"
ln -s "$CUDA/lib64" "$T/cuda/lib64"
smake check lesson0 SANITIZE=1 CUDA_HOME="$T/cuda" STUDENT_DIR=exercises >$o 2>&1
has "make SANITIZE=1 uses the toolkit's compute-sanitizer" $o "fake compute-sanitizer: --tool memcheck"
has "make SANITIZE=1 runs the grader under it" $o "build/grader check lesson0 --correctness-only"

# ---- progress: kept between runs, shown by make progress -------------------
C=$T/course
mkdir -p "$C/grader" "$C/lessons"
cp -r exercises solutions "$C/"
cp -r grader/baselines grader/demos "$C/grader/"
cp -r lessons/hints "$C/lessons/"
P=$C/.progress
$GRADER check lesson3 --root "$C" --no-gpu --progress "$P" --json "$T/r.json" >$o 2>&1
has "first run records" $o "Course progress: 0 of "
has "first run records" $P "lesson3/matmul	PTX simulator (no GPU)	best	MECHANISM"
cp solutions/lesson3/matmul.cu "$C/exercises/lesson3/matmul.cu"
$GRADER check lesson3 --root "$C" --no-gpu --progress "$P" --json "$T/r.json" >$o 2>&1
has "second run" $o "lesson3/matmul         CORRECT"
has "progress survives a second run" $P "lesson3/matmul	PTX simulator (no GPU)	best	CORRECT"
has "progress survives a second run" $P "lesson3/bank_conflicts	PTX simulator (no GPU)	latest	CORRECT"
$GRADER progress --root "$C" --progress "$P" >$o 2>&1
has "make progress shows it" $o "Course map: 0 of "
has "make progress shows it" $o "  tried      bank_conflicts  CORRECT on the PTX simulator (no GPU)"
has "make progress shows it" $o "  tried      matmul          CORRECT on the PTX simulator (no GPU)"
has "make progress shows it" $o "  not tried  saxpy"
has "make progress shows it" $o "Next: lesson0/saxpy"
widest "make progress width" $o 100
# Grading the solutions or another folder leaves it alone.
cp "$P" "$T/before"
$GRADER check lesson0 --root "$C" --no-gpu --solutions --progress "$P" --json "$T/r.json" >$o 2>&1
has "solutions are not recorded" $o "Progress not recorded: these are not your exercises/."
$GRADER check lesson0 --root "$C" --no-gpu --student-dir "$(pwd)/$FIX/right" --progress "$P" \
    --json "$T/r.json" >$o 2>&1
if cmp -s "$P" "$T/before"; then pass=$((pass + 1)); else bad "other folders pollute progress" "$P"; fi
# The course's exercises/ named by an absolute path are the student's own.
$GRADER check lesson0 --root "$C" --no-gpu --student-dir "$C/exercises" --progress "$P" \
    --json "$T/r.json" >$o 2>&1
# (the untouched stub writes nothing: WRONG on the PTX simulator, as on a GPU)
has "exercises/ by its full path is recorded" "$P" "lesson0/saxpy	PTX simulator (no GPU)	latest	WRONG"
smake progress >$o 2>&1; status "make progress runs" $? 0 $o
has "make progress runs" $o "Course map:"

# ---- make watch: a save is seen and graded again ---------------------------
W=$T/watch
# watch_session NAME [grader options]: grade, save a file, see it graded again.
watch_session() {
    local name=$1
    shift
    rm -rf "$W"
    mkdir -p "$W/lesson3"
    cp exercises/lesson3/*.cu "$W/lesson3/"
    rm -f "$T/watch.out"   # no text of an earlier session to be mistaken for this one's
    NO_COLOR=1 $GRADER watch lesson3 --no-gpu --student-dir "$W" --watch-rounds 3 \
        --json "$T/w.json" "$@" >"$T/watch.out" 2>&1 &
    local pid=$!
    wait_for "$T/watch.out" "Save one to grade it again" 30 || bad "$name: never started" "$T/watch.out"
    # An editor that writes a new file and renames it over the old one ...
    cp solutions/lesson3/matmul.cu "$W/lesson3/.matmul.cu.swp"
    mv "$W/lesson3/.matmul.cu.swp" "$W/lesson3/matmul.cu"
    wait_for "$T/watch.out" "grading lesson3/matmul (saved)" 30 || bad "$name: rename not seen" "$T/watch.out"
    wait_for "$T/watch.out" "lesson3/matmul CORRECT" 30 || bad "$name: not graded again" "$T/watch.out"
    # ... and one that writes in place.
    sleep 0.2
    echo "// saved again" >>"$W/lesson3/bank_conflicts.cu"
    local i=0
    while kill -0 $pid 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
    if kill -0 $pid 2>/dev/null; then
        kill $pid
        bad "$name: did not stop after 3 gradings" "$T/watch.out"
    fi
    wait $pid
    status "$name: exit" $? 0 "$T/watch.out"
    has "$name: first grading" "$T/watch.out" "grading lesson3/bank_conflicts, lesson3/matmul"
    has "$name: first grading" "$T/watch.out" "lesson3/matmul         MECHANISM"
    has "$name: in-place write seen" "$T/watch.out" "grading lesson3/bank_conflicts (saved)"
}
watch_session "watch (inotify)"
watch_session "watch (polling)" --watch-poll

# The screen is cleared before each grading on a terminal, never in a file.
if grep -q $'\033' "$T/watch.out"; then bad "watch wrote escape codes to a file" "$T/watch.out"; else pass=$((pass + 1)); fi
if command -v script >/dev/null; then
    rm -rf "$W" && mkdir -p "$W/lesson3" && cp exercises/lesson3/*.cu "$W/lesson3/"
    script -qec "$GRADER watch lesson3 --no-gpu --student-dir $W --watch-rounds 1 --json $T/w.json" \
        /dev/null >"$T/tty.out" 2>&1 </dev/null
    if grep -q $'\033\[2J' "$T/tty.out"; then pass=$((pass + 1)); else bad "watch clears a terminal" "$T/tty.out"; fi
else
    echo "cli: no 'script' command, the terminal case of make watch is not tested"
fi

# Ctrl-C stops it cleanly.
rm -rf "$W" "$T/watch.out" && mkdir -p "$W/lesson3" && cp exercises/lesson3/*.cu "$W/lesson3/"
NO_COLOR=1 $GRADER watch lesson3 --no-gpu --student-dir "$W" --json "$T/w.json" >"$T/watch.out" 2>&1 &
pid=$!
wait_for "$T/watch.out" "Ctrl-C stops" 30 || bad "watch for Ctrl-C: never started" "$T/watch.out"
kill -INT $pid
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 $pid 2>/dev/null; then
    kill -KILL $pid
    bad "watch ignored Ctrl-C" "$T/watch.out"
fi
wait $pid
status "watch stops on Ctrl-C" $? 0 "$T/watch.out"
has "watch stops on Ctrl-C" "$T/watch.out" "Stopped watching."

# ---- the command line: one parser (core/options.h) for every command ------
# Help comes from the same table the parser reads: every command's fits 80
# columns, and the options they share say the same thing.
for c in "" class references; do
    $GRADER $c --help >$o 2>&1
    status "grader $c --help" $? 0 $o
    widest "grader $c --help" $o 80
    has "grader $c --help" $o "--root DIR"
    has "grader $c --help" $o "the course's top folder (default: .)"
done
$GRADER --help >$o 2>&1
has "check's help" $o "exit status of check: 0 all passed"
grep -F -- "--timeout S" $o >"$T/t1"
$GRADER class --help >$o 2>&1
has "class's help" $o "--slurm-partition P"
grep -F -- "--timeout S" $o >"$T/t2"
if cmp -s "$T/t1" "$T/t2" && grep -qF "(default 120)" "$T/t1"; then pass=$((pass + 1));
else bad "check and class describe --timeout alike" "$T/t2"; fi
# refused NAME WANT-TEXT ARGS...: status 2, one line naming what was wrong.
refused() {
    local name=$1 want=$2
    shift 2
    $GRADER "$@" >$o 2>&1
    status "$name" $? 2 $o
    has "$name" $o "$want"
}
refused "no command" "usage: grader check" 
refused "unknown command" "grader: unknown command 'frobnicate'" frobnicate
refused "unknown option" "grader: unknown option --frob" check lesson3 --frob
refused "no such lesson" "grader: 'lesson99' is not a lesson (lesson0 .. lesson" check lesson99
refused "a value missing" "grader: --only needs a value" check lesson3 --only
refused "timeout 0" "grader: --timeout needs seconds > 0, got '0'" check lesson3 --timeout 0
refused "timeout 5x" "grader: --timeout needs seconds > 0, got '5x'" check lesson3 --timeout 5x
refused "seed abc" "grader: --seed needs a whole number >= 0, got 'abc'" check lesson3 --seed abc
refused "sweep without =" "grader: --sweep takes NAME=VALUE, got 'TILE'" check lesson3 --sweep TILE
refused "sweep list" "grader: bad --sweep list 'x'" check lesson3 --sweep TILE=x
refused "class without a folder" "usage: grader class SUBMISSIONS" class
refused "class budget" "grader class: --budget needs seconds > 0, got '0'" class "$T" --budget 0
refused "class batch" "grader class: --batch needs a whole number >= 1, got '0'" class "$T" --batch 0
refused "class lesson" "grader class: 'lesson99' is not a lesson" class "$T" lesson99
refused "class option" "grader class: unknown option --frob" class "$T" --frob
refused "class missing folder" "grader class: $T/none is not a folder of submissions" class "$T/none"
refused "references alone" "usage: grader references --out DIR | --verify" references
refused "references option" "grader references: unknown option --frob" references --verify --frob
# profile-one (what ncu runs, grade/profile.c): exactly one exercise, then the
# launch, which without a GPU is refused as grading is.
refused "profile-one of two" "grader: profile-one needs exactly one exercise" profile-one lesson3
refused "profile-one of none" "grader: profile-one needs exactly one exercise" profile-one lesson14
nogpu $GRADER profile-one lesson3 --only matmul >$o 2>&1
status "profile-one of one, no GPU" $? 2 $o
has "profile-one of one, no GPU" $o "grader: No usable GPU: "
lacks "profile-one of one" $o "needs exactly one"
# --ncu runs this very grader's profile-one under ncu ($CUDA_HOME/bin/ncu
# when none is on the PATH; here a stand-in that notes its arguments).
mkdir -p "$T/tk/bin"
printf '#!/bin/sh\necho "$@" >>"%s/ncu.args"\n' "$T" >"$T/tk/bin/ncu"
chmod +x "$T/tk/bin/ncu"
if ! PATH=/usr/bin:/bin command -v ncu >/dev/null 2>&1; then
    nogpu env CUDA_HOME="$T/tk" PATH=/usr/bin:/bin $GRADER check lesson3 --only matmul --ncu \
        --set TILE=8 --json "$T/ncu.json" >$o 2>&1
    has "--ncu runs this grader's profile-one" "$T/ncu.args" \
        "$GRADER profile-one lesson3 --only matmul --root . --student-dir exercises --set TILE=8"
fi
# Each option does what its help says.
nogpu $GRADER check lesson3 --seed 42 --json "$T/seed.json" --student-dir $FIX/right >$o 2>&1
has "--seed is the report's seed" "$T/seed.json" '"seed": 42,'
nogpu $GRADER check lesson3 --json "$T/fresh.json" --student-dir $FIX/right >$o 2>&1
seed=$(grep -o '"seed": [0-9]*' "$T/fresh.json" | head -1 | grep -o '[0-9]*$')
if [ -n "$seed" ] && [ "$seed" -ge 1 ] && [ "$seed" -le 1000000000 ]; then pass=$((pass + 1));
else bad "without --seed: a fresh seed, short enough to type (got '$seed')" "$T/fresh.json"; fi
(cd "$T" && nogpu "$OLDPWD/$GRADER" check lesson3 --only bank_conflicts --root "$OLDPWD" \
    --json "$T/root.json" >"$T/root.out" 2>&1)
status "--root from another folder" $? 3 "$T/root.out"
has "--only grades that one" "$T/root.json" '"name": "bank_conflicts"'
lacks "--only grades only that one" "$T/root.json" '"name": "matmul"'
nogpu $GRADER static lesson3 --solutions >$o 2>&1
status "static --solutions" $? 0 $o
has "static --solutions labels them" $o "solutions: CHECKED"
nogpu $GRADER check lesson3 --solutions --json "$T/sol.json" >$o 2>&1
status "check --solutions, no GPU: all CORRECT" $? 3 $o
has "--solutions is the report's mode" "$T/sol.json" '"mode": "solutions"'

# ---- what static, sweep and a measured lesson print -------------------------
nogpu $GRADER static lesson3 lesson12 >$o 2>&1
status "static: the course's files hold" $? 0 $o
has "static: the first generation with occupancy" $o "lesson3/matmul                   sm_90  yours: MECHANISM (32 regs, 0 B local, 0 B smem, 100% occupancy)"
has "static: the failing check under it" $o "      the PTX has no 'ld.shared' instruction"
if grep -Eq "^ok    lesson3/matmul +sm_75  yours: [0-9]+ regs, 0 B local, 0 B smem$" $o; then pass=$((pass + 1));
else bad "static: the oldest generation, resources only" $o; fi
if [ "$(grep -Ec "^ok    lesson12/bulk_ring +sm_90 " $o)" = 2 ]; then pass=$((pass + 1));
else bad "static: an sm_90-only exercise is compiled for sm_90 twice, not for sm_75" $o; fi
has "static: shared memory in KB" $o "8.0 KB smem"
has "static: the count" $o "6 passed, 0 failed (the course's files"
has "static: the stubs, shown, not counted" $o "2 of your files not CHECKED without a GPU"
# A course whose own solution does not compile: static fails, and says where.
C=$T/course
mkdir -p "$C/grader" && cp -r exercises solutions "$C/" && cp -r grader/baselines grader/demos "$C/grader/"
echo "this is not CUDA" >>"$C/solutions/lesson3/matmul.cu"
nogpu $GRADER static lesson3 --root "$C" >$o 2>&1
status "static: a broken solution fails" $? 1 $o
has "static: a broken solution is named" $o "FAIL  lesson3/matmul"
has "static: a broken solution is counted at both generations" $o "2 passed, 2 failed"
# --sweep: a TSV row per value and exercise that has the knob.
nogpu $GRADER check lesson3 --sweep TILE=8,16 --seed 3 >$o 2>"$T/sweep.err"
status "sweep" $? 0 $o
has "sweep: its seed" $o "# TILE sweep, seed 3"
has "sweep: the header" $o "TILE	exercise	outcome	speedup"
has "sweep: one row per value" $o "8	lesson3/matmul	NO GPU	"
has "sweep: one row per value" $o "16	lesson3/matmul	NO GPU	"
lacks "sweep: only exercises with the knob" $o "bank_conflicts"
has "sweep: says what it grades" "$T/sweep.err" "sweep TILE=16 lesson3/matmul ..."
# A lesson that is measured, not graded: what to run instead, and success.
nogpu $GRADER check lesson14 >$o 2>&1
status "a measured lesson" $? 0 $o
has "a measured lesson" $o "lesson14 has no graded exercise: it is measured on your GPU instead (make measure lesson14"
nogpu $GRADER check lesson14 lesson0 --json "$T/m.json" >$o 2>&1
# lesson0's stub is WRONG on the PTX simulator: exit 1
status "a measured lesson beside a graded one" $? 1 $o
lacks "a measured lesson beside a graded one" $o "lesson14 has no graded exercise"
has "a measured lesson beside a graded one" "$T/m.json" '"name": "saxpy"'

# ---- grader references: a student copy's compiled references ---------------
# From a course whose solution does not compile: that one is named, no PTX
# is written for it, the others are, and the status says it failed.
nogpu $GRADER references --out "$T/refs-broken" --root "$C" >$o 2>&1
status "references from a broken course" $? 1 $o
has "references from a broken course: the file" $o "grader references: $C/solutions/lesson3/matmul.cu"
has "references from a broken course: the count" $o "23 exercises, 1 failed"
[ -f "$T/refs-broken/lesson3/bank_conflicts.ptx" ] && [ ! -e "$T/refs-broken/lesson3/matmul.ptx" ] &&
    pass=$((pass + 1)) || bad "references: the broken one has no PTX, the others do" $o
# A student copy: exercises, baselines and the compiled references, no solutions.
nogpu $GRADER references --out "$T/refs" >$o 2>&1
status "references from the course" $? 0 $o
has "references: what it wrote" $o "$T/refs/lesson3/matmul.ptx (sm_75, TILE=16)"
head -5 "$T/refs/lesson3/matmul.ptx" >"$T/head.txt"
has "references: the PTX says its knobs" "$T/head.txt" "// knobs: TILE=16"
S=$T/student-copy
mkdir -p "$S/grader" && cp -r exercises "$S/" && cp -r grader/baselines grader/demos "$S/grader/" &&
    cp -r "$T/refs" "$S/grader/references"
nogpu $GRADER references --out "$T/refs-again" --root "$S" >$o 2>&1
status "references --out from a student copy is refused" $? 2 $o
has "references --out from a student copy" $o "the references are compiled from the full course"
nogpu $GRADER references --verify --root "$S" >$o 2>&1
status "references --verify on a good copy" $? 0 $o
has "references --verify: each one" $o "lesson3/matmul               reference PTX for TILE=16"
has "references --verify: the count" $o "23 exercises, 0 failed"
sed -i 's|^// knobs: TILE=16|// knobs: TILE=32|' "$S/grader/references/lesson3/matmul.ptx"
rm "$S/grader/references/lesson0/saxpy.ptx"
nogpu $GRADER references --verify --root "$S" >$o 2>&1
status "references --verify on a damaged copy" $? 1 $o
has "references --verify: other knobs" $o "FAIL  lesson3/matmul: its reference was compiled at TILE=32, the defaults are TILE=16"
has "references --verify: a missing one" $o "FAIL  lesson0/saxpy: cannot read"
has "references --verify: the count" $o "23 exercises, 2 failed"

# Writing references into a folder that is already there is fine.
nogpu $GRADER references --out "$T/refs" >$o 2>&1
status "references --out into an existing folder" $? 0 $o
nogpu $GRADER references --out "$T/no/such/parent" >$o 2>&1
status "references --out under a missing folder" $? 1 $o
has "references --out under a missing folder" $o "grader references: cannot make $T/no/such/parent"

# ---- grader class as an instructor watches it ------------------------------
# In a log, one progress line per student; on a terminal, one line rewritten.
K=$T/class-subs
mkdir -p "$K/ada/lesson0" "$K/bo/lesson0"
cp exercises/lesson0/saxpy.cu "$K/ada/lesson0/" && cp exercises/lesson0/saxpy.cu "$K/bo/lesson0/"
nogpu $GRADER class "$K" lesson0 --out "$T/class-out" >$o 2>&1
status "class, no GPU" $? 0 $o
has "class in a log: a line per student" $o "progress: 1 of 2 students done"
has "class in a log: a line per student" $o "progress: 2 of 2 students done"
if grep -q $'\r' $o; then bad "class wrote carriage returns to a log" $o; else pass=$((pass + 1)); fi
if command -v script >/dev/null; then
    CUDA_VISIBLE_DEVICES= NO_COLOR=1 script -qec "$GRADER class $K lesson0 --out $T/class-tty --regrade" \
        /dev/null >"$T/class-tty.out" 2>&1 </dev/null
    if grep -q $'\r\033\[K' "$T/class-tty.out"; then pass=$((pass + 1));
    else bad "class on a terminal rewrites its progress line" "$T/class-tty.out"; fi
fi

# ---- the grader's build: quiet, one line, errors shown; V=1 the commands -----
# One object into a scratch build folder: what a first make check shows.
Q=$T/quiet
obj=obj/grader/core/stats.o
smake BUILD="$Q/a" "$Q/a/$obj" >$o 2>&1; status "quiet build" $? 0 $o
has "quiet build: one line" $o "building the grader (once; V=1 shows the commands)"
lacks "quiet build: no command lines" $o " -c -o "
[ "$(wc -l <$o)" -eq 1 ] && pass=$((pass + 1)) || bad "quiet build: more than one line" $o
smake BUILD="$Q/a" "$Q/a/obj/grader/core/clock.o" >$o 2>&1
lacks "quiet build: once per build, not per file" $o "building the grader"
smake BUILD="$Q/b" "$Q/b/$obj" V=1 >$o 2>&1; status "V=1 build" $? 0 $o
has "V=1: the compiler's command" $o " -c -o $Q/b/$obj grader/core/stats.c"
lacks "V=1: no banner" $o "building the grader"
smake BUILD="$Q/c" "$Q/c/$obj" CFLAGS="-include /nonexistent/quiet-test.h" >$o 2>&1
status "quiet build, a compile error" $? 2 $o
has "quiet build: the error shows" $o "quiet-test.h"

echo "cli: $pass checks passed, $fail failed"
[ $fail -eq 0 ]
