#!/usr/bin/env bash
# slurm-class.sh: make grade-class SCHEDULER=slurm on a real one-node Slurm
# cluster started here, on localhost, without systemd (Debian's slurm-wlm
# and munge; `make test-slurm`, which installs them where it can). No GPU:
# compile and mechanism verdicts.
#   1. a class of six (and a file that is not a submission) planned as a job
#      array and merged by the dependent job: the merged gradebook equals a
#      plain grade-class run's;
#   2. two students change; the plan holds only those two; the first task is
#      killed (scancel) while it waits, and the merge names it: "not graded:
#      its task (Slurm job J, task 0, ...) ended without results";
#   3. submitted again: only that student is planned, and the gradebook
#      equals a plain run's of the changed class.
# The cluster (munged, slurmctld, slurmd) runs as root with its state, spool,
# logs and munge socket under a temporary folder, and is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
work=$root/build/tests/slurm-class
subs=$work/subs
rm -rf "$work"
mkdir -p "$subs"
t0=$(date +%s)
phase() { echo "$(($(date +%s) - t0)) s: $*" >>"$work/phases.txt"; }
fail() { echo "FAIL slurm-class: $*" >&2; [ -n "${T:-}" ] && tail -n 5 "$T"/*.log >&2; exit 1; }
PATH=$PATH:/usr/sbin
[ "$(id -u)" = 0 ] || { echo "slurm-class: skipped: a test cluster runs its daemons as root (SlurmUser=root), and this is $(id -un)"; exit 0; }
# Installed here when they can be (CI does it in .ci/run); said plainly when not.
if ! sh grader/scripts/need-package.sh slurm-wlm command -v slurmctld ||
   ! sh grader/scripts/need-package.sh munge command -v munged; then
    echo "slurm-class: skipped: slurm-wlm and munge are not installed and could not be (see above)"
    exit 0
fi
for t in munged mungekey slurmctld slurmd sbatch squeue sinfo scancel flock; do
    command -v $t >/dev/null || fail "$t is missing although slurm-wlm and munge are installed"
done

# ---- the cluster ----
T=$(mktemp -d /tmp/slurm-test-XXXXXX)
pids=()
stop() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    rm -rf "$T"
}
trap stop EXIT
mkdir -p "$T/state" "$T/spool" "$T/munge"
chmod 711 "$T/munge"
mungekey -c -k "$T/munge/munge.key" 2>/dev/null || dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$T/munge/munge.key"
munged --force --foreground --key-file="$T/munge/munge.key" --socket="$T/munge/munge.sock" \
    --pid-file="$T/munge/munged.pid" --log-file="$T/munge.log" --seed-file="$T/munge/seed" \
    </dev/null >"$T/munged.out" 2>&1 &
pids+=($!)
host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
cat >"$T/slurm.conf" <<EOF
ClusterName=gradetest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$T/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=grading Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$T/slurm.conf
for _ in $(seq 50); do [ -S "$T/munge/munge.sock" ] && break; sleep 0.1; done
[ -S "$T/munge/munge.sock" ] || fail "munged did not start"
slurmctld -D -f "$SLURM_CONF" </dev/null >"$T/slurmctld.out" 2>&1 &
pids+=($!)
sleep 1
slurmd -D -f "$SLURM_CONF" -N "$host" </dev/null >"$T/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
    sinfo -h -o %t 2>/dev/null | grep -qE '^(idle|mix|alloc)' && break
    sleep 0.2
done
sinfo -h -o %t | grep -qE '^(idle|mix|alloc)' || fail "the node did not come up: $(sinfo 2>&1)"

# ---- the class ----
for i in 1 2 3 4 5 6; do
    mkdir -p "$subs/st$i"
    cp -r exercises/lesson0 exercises/lesson3 "$subs/st$i/"
done
cp -r solutions/lesson0 solutions/lesson3 "$subs/st2/"
echo "not C++ // st4" >>"$subs/st4/lesson3/matmul.cu"
rm "$subs/st6/lesson0/saxpy.cu"
echo "not a submission" >"$subs/notes.txt"

norm() { sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}/DATE/g' "$1"; }
wait_idle() {   # until no job of ours is left
    for _ in $(seq 600); do
        [ -z "$(squeue -h -o %i 2>/dev/null)" ] && return 0
        sleep 0.2
    done
    fail "jobs still queued after 120 s: $(squeue 2>&1)"
}
plain() {   # plain OUT: today's grade-class, for comparison
    make --no-print-directory grade-class SUBMISSIONS="$subs" LESSONS=0,3 CLASS_OUT="$work/$1" \
        SEED=11 >"$work/$1.txt" 2>&1 || fail "plain grade-class failed: $(tail -5 "$work/$1.txt")"
}
out=$work/cluster
slurm() {   # slurm LOG: make grade-class SCHEDULER=slurm, then wait for the array and the merge
    make --no-print-directory grade-class SCHEDULER=slurm SUBMISSIONS="$subs" LESSONS=0,3 \
        CLASS_OUT="$out" SEED=11 >"$work/$1.txt" 2>&1 || fail "SCHEDULER=slurm failed: $(tail -5 "$work/$1.txt")"
    wait_idle
}

phase "cluster up"
# 1. The whole class on the cluster, against a plain run.
plain plain1
phase "plain run"
slurm submit1
phase "first submission merged"
grep -q 'Submitted job array' "$work/submit1.txt" || fail "no job array submitted: $(cat "$work/submit1.txt")"
[ "$(wc -l <"$out/slurm/tasks.txt")" = 6 ] || fail "the first plan is not six students"
grep -q '^#SBATCH --array=0-5$' "$out/slurm/grade-class.sbatch" || fail "no array of six in the batch script"
if grep -q -- '--gres' "$out/slurm/grade-class.sbatch"; then fail "--gres asked of a cluster without GPUs"; fi
[ -s "$out/gradebook.csv" ] || fail "the dependent merge wrote no gradebook: $(cat "$out"/slurm/logs/collect-* 2>&1 | tail -5)"
diff <(norm "$work/plain1/gradebook.csv") <(norm "$out/gradebook.csv") >"$work/diff1.txt" ||
    { cat "$work/diff1.txt"; fail "the cluster's gradebook differs from a plain run's"; }

# 2. Two students change; the first task is killed.
echo "// changed" >>"$subs/st1/lesson3/matmul.cu"
echo "// changed" >>"$subs/st3/lesson3/matmul.cu"
build/grader class "$subs" 0 3 --out "$out" --seed 11 --slurm --slurm-gres none >"$work/plan2.txt" 2>&1 ||
    fail "planning failed: $(tail -3 "$work/plan2.txt")"
[ "$(wc -l <"$out/slurm/tasks.txt")" = 2 ] || fail "the second plan is not the two changed: $(cat "$work/plan2.txt")"
exec 9>>"$out/.lock"                        # this shell holds the folder: the tasks wait
flock -x 9
job=$(sbatch --parsable "$out/slurm/grade-class.sbatch")
merge=$(sbatch --parsable --dependency=afterany:$job "$out/slurm/collect.sbatch")
for _ in $(seq 150); do
    [ -s "$out/.cache/st1.task" ] && squeue -h -t R -o %i | grep -q "^${job}_0$" && break
    sleep 0.2
done
[ -s "$out/.cache/st1.task" ] || fail "task 0 did not start: $(squeue 2>&1)"
scancel --signal=KILL "${job}_0"
sleep 1
scancel "${job}_0" 2>/dev/null || true
phase "task 0 killed"
flock -u 9
exec 9>&-
wait_idle
phase "second submission merged"
row=$(grep '^st1,' "$out/gradebook.csv")
[[ $row == *"not graded: its task (Slurm job $job, task 0, on $host, started"*"ended without results"* ]] ||
    fail "the killed task's student is not 'not graded (why)': $row"
grep -q '^st3,.*,MISSING\|^st3,' "$out/gradebook.csv" || fail "st3 has no row"
if grep -q '^st3,.*not graded' "$out/gradebook.csv"; then fail "the second task's student was not graded"; fi

# 3. Submitted again: only st1.
plain plain3
slurm submit3
phase "third submission merged"
[ "$(wc -l <"$out/slurm/tasks.txt")" = 1 ] && grep -q "^$(printf st1 | od -An -tx1 | tr -d ' \n')$" "$out/slurm/tasks.txt" ||
    fail "the re-submission did not plan st1 alone"
diff <(norm "$work/plain3/gradebook.csv") <(norm "$out/gradebook.csv") >"$work/diff3.txt" ||
    { cat "$work/diff3.txt"; fail "after the re-run, the cluster's gradebook differs from a plain run's"; }
echo "slurm-class: a one-node Slurm cluster graded 6 students as a job array and merged them as a plain run does; a killed task's student was named, and the re-submission graded only it"
