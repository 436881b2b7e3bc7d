#!/usr/bin/env bash
# run-parts.sh: run a test suite's independent parts several at a time, and
# print each part's output whole, in the order the parts are listed, with
# its time. tests/cpu-suite.sh uses it for make test-cpu.
#
#   printf 'NAME\tWEIGHT\tCOMMAND\n...' | bash tests/run-parts.sh [-j N] [-d LOGDIR]
#
# NAME     what the part is called in the output (letters, digits, / . _ -)
# WEIGHT   about how many seconds it takes. One part at a time is started
#          in the listed order, so that the output flows; the other slots
#          take the heaviest part not yet started, so that no long part is
#          left running alone at the end (-j 1: the listed order alone).
#          Weights order the starts only; the output keeps the listed order
# COMMAND  run by bash from the current folder, stdin /dev/null, stdout and
#          stderr to LOGDIR/NAME.log (NAME's / as _)
#
# A part's output is printed as soon as it and every part listed before it
# have finished, so the output reads the same on every run; its header says
# how long it took, and how much CPU (user + system) it used. While parts run,
# a terminal shows which (one line, redrawn); a log gets a line whenever 20 s
# passed with nothing printed. Every part runs to its end, failed or not;
# the exit status is 0 only when every part exited 0. -j N: at most N at
# once (default: one more than the CPUs, as some parts wait on a child or a
# browser part of the time). Ctrl-C stops every part.
set -u

jobs=$(($(nproc 2>/dev/null || echo 2) + 1))
logdir=build/tests/parts
while getopts 'j:d:' opt; do
    case $opt in
    j) jobs=$OPTARG ;;
    d) logdir=$OPTARG ;;
    *) echo "usage: run-parts.sh [-j N] [-d LOGDIR] < parts" >&2; exit 2 ;;
    esac
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "run-parts.sh: -j $jobs is not a number of parts" >&2; exit 2; }

names=() weights=() cmds=()
while IFS=$'\t' read -r name weight cmd; do
    [ -n "$name" ] || continue
    if ! [[ $name =~ ^[A-Za-z0-9/._-]+$ && $weight =~ ^[0-9]+$ && -n $cmd ]]; then
        echo "run-parts.sh: not NAME<tab>WEIGHT<tab>COMMAND: $name	$weight	$cmd" >&2
        exit 2
    fi
    names+=("$name") weights+=("$weight") cmds+=("$cmd")
done
n=${#names[@]}
[ "$n" -gt 0 ] || { echo "run-parts.sh: no parts to run" >&2; exit 2; }
rm -rf "$logdir" && mkdir -p "$logdir" || exit 2

tty=0
[ -t 1 ] && tty=1
green='' red='' plain=''
if [ $tty = 1 ] && [ -z "${NO_COLOR:-}" ]; then
    green=$'\033[32m' red=$'\033[31m' plain=$'\033[0m'
fi

logs=() rcs=()              # each part's output, and its "status seconds" once it ended
for i in "${!names[@]}"; do
    logs[$i]=$logdir/${names[$i]//\//_}.log rcs[$i]=$logdir/${names[$i]//\//_}.rc
done
width=80
[ $tty = 1 ] && width=${COLUMNS:-$(tput cols 2>/dev/null || echo 80)}

# The heaviest first, ties in the listed order.
by_weight=($(for i in "${!names[@]}"; do printf '%s\t%s\n' "${weights[$i]}" "$i"; done |
    sort -s -t$'\t' -k1,1nr | cut -f2))

set -m                      # each part in a process group of its own, to stop it whole
declare -A pid=()           # running parts: index -> pid
state=()                    # "" waiting, run, done
for i in "${!names[@]}"; do state[$i]=; done
t0=$EPOCHREALTIME
started=0 next_print=0 failed=() last_print=$SECONDS status_shown=0
in_order=-1                 # the part started in the listed order, while it runs

since() { # REPLY: the seconds since $1 (an $EPOCHREALTIME), with one decimal
    local a=${1/[.,]/} b=${EPOCHREALTIME/[.,]/}
    local ds=$(((b - a) / 100000))
    REPLY=$((ds / 10)).$((ds % 10))
}

stop_all() {
    for i in "${!pid[@]}"; do kill -TERM -- "-${pid[$i]}" 2>/dev/null; done
    wait 2>/dev/null
    echo
    echo "run-parts: stopped; the parts' logs are in $logdir/"
    exit 130
}
trap stop_all INT TERM

# The next part to start, in $picked: the first not started in the listed
# order when no part so started is running, else the heaviest not started.
pick() {
    local i
    if [ "$in_order" -lt 0 ] || [ "${state[$in_order]}" = done ]; then
        for i in "${!names[@]}"; do
            if [ -z "${state[$i]}" ]; then in_order=$i picked=$i; return; fi
        done
    fi
    for i in "${by_weight[@]}"; do
        if [ -z "${state[$i]}" ]; then picked=$i; return; fi
    done
}

start() {
    local i=$1 rc
    started=$((started + 1))
    state[$i]=run
    (
        trap - INT TERM
        s=$EPOCHREALTIME
        bash -c "${cmds[$i]}" >"${logs[$i]}" 2>&1 </dev/null
        rc=$?
        since "$s"
        # The CPU the part used: times' second line, its children's user and system time.
        times >"${rcs[$i]}.cpu"
        echo "$rc $REPLY $(sed -n 2p "${rcs[$i]}.cpu")" >"${rcs[$i]}.tmp" && mv "${rcs[$i]}.tmp" "${rcs[$i]}"
    ) &
    pid[$i]=$!
}

clear_status() {
    if [ $status_shown = 1 ]; then printf '\r\033[K'; status_shown=0; fi
}

show_status() {
    [ $tty = 1 ] || [ $((SECONDS - last_print)) -ge 20 ] || return 0
    local running=() done_n=0 i
    for i in "${!names[@]}"; do
        case ${state[$i]} in run) running+=("${names[$i]}") ;; done) done_n=$((done_n + 1)) ;; esac
    done
    since "$t0"
    local line="  [$done_n of $n done, $REPLY s] running: ${running[*]}"
    if [ $tty = 1 ]; then
        printf '\r\033[K%s' "${line:0:$((width - 1))}"
        status_shown=1
    else
        echo "$line"
        last_print=$SECONDS
    fi
}

# "1m2.345s" -> 62.3
seconds() {
    local m=${1%%m*} s=${1#*m}
    s=${s%s}
    REPLY=$(awk -v m="$m" -v s="$s" 'BEGIN { printf "%.1f", m * 60 + s }')
}

print_part() {
    local i=$1 rc secs user sys cpu=''
    read -r rc secs user sys <"${rcs[$i]}"
    if [ -n "${sys:-}" ]; then
        seconds "$user" && user=$REPLY
        seconds "$sys" && cpu=", CPU ${user} + ${REPLY} s"
    fi
    clear_status
    if [ "$rc" = 0 ]; then
        echo "${green}--- ${names[$i]}: ok${plain} ($secs s$cpu)"
    else
        echo "${red}--- ${names[$i]}: FAILED${plain} (exit $rc, $secs s$cpu; log: ${logs[$i]})"
        failed+=("${names[$i]}")
    fi
    cat "${logs[$i]}"
    last_print=$SECONDS
}

# A pipe no one writes to: read -t on it waits without starting a process.
exec {nap}<> <(:)

while [ $next_print -lt $n ]; do
    while [ ${#pid[@]} -lt "$jobs" ] && [ $started -lt $n ]; do
        pick
        start "$picked"
    done
    for i in "${!pid[@]}"; do
        if [ -f "${rcs[$i]}" ]; then
            wait "${pid[$i]}" 2>/dev/null
        elif ! kill -0 "${pid[$i]}" 2>/dev/null && [ ! -f "${rcs[$i]}" ]; then
            # Gone without writing its status (killed from outside).
            wait "${pid[$i]}" 2>/dev/null
            rc=$?
            echo "$((rc ? rc : 1)) ?" >"${rcs[$i]}"
        else
            continue
        fi
        unset "pid[$i]"
        state[$i]=done
    done
    while [ $next_print -lt $n ] && [ "${state[$next_print]}" = done ]; do
        print_part $next_print
        next_print=$((next_print + 1))
    done
    [ $next_print -lt $n ] || break
    show_status
    read -r -t 0.1 -u "$nap"
done
clear_status

since "$t0"
if [ ${#failed[@]} -eq 0 ]; then
    echo "${green}all $n parts passed${plain} in $REPLY s, $jobs at a time"
    exit 0
fi
echo "${red}${#failed[@]} of $n parts FAILED${plain} (in $REPLY s): ${failed[*]}"
exit 1
