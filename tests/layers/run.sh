#!/usr/bin/env bash
# tests/layers/run.sh: the grader's layers hold (grader/scripts/include-graph.sh
# --calls passes on the tree: includes, and calls read from the objects make
# built), and the check can fail: on copies of the grader with a layer
# reaching up (core including grade), two files of one folder including each
# other, an unknown include, and a core file calling grade_exercise without
# including anything, it must say so and fail.
#
#   bash tests/layers/run.sh     (after make test-cpu-build, as the CPU suite runs it)
set -u
cd "$(dirname "$0")/../.."
fails=0
say() { echo "$*"; }

if out=$(bash grader/scripts/include-graph.sh --calls); then
    say "ok    the grader's include graph: $(tail -1 <<<"$out")"
else
    say "FAIL  the grader's include graph:"; echo "$out"; fails=$((fails + 1))
fi

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
copy() {
    rm -rf "$tmp/c"; mkdir -p "$tmp/c"
    cp Makefile "$tmp/c/"
    (tar -cf - grader/*.h grader/*/*.c grader/*/*.h grader/scripts/include-graph.sh) |
        (cd "$tmp/c" && tar -xf -)
    mkdir -p "$tmp/c/build/obj" && cp -pr build/obj/grader "$tmp/c/build/obj/"
}
# expect NAME WORDS FILE LINE: FILE gets LINE after its first line; the
# check must fail and print WORDS.
expect() {
    copy
    sed -i "1a $4" "$tmp/c/$3"
    if out=$(bash "$tmp/c/grader/scripts/include-graph.sh" 2>&1); then
        say "FAIL  $1: include-graph.sh passed"; fails=$((fails + 1))
    elif ! grep -qF "$2" <<<"$out"; then
        say "FAIL  $1: no \"$2\" in:"; echo "$out"; fails=$((fails + 1))
    else
        say "ok    $1: refused (\"$2\")"
    fi
}
expect "a layer reaching up" "core includes grade" grader/core/stats.h '#include "grade.h"'
expect "a circle inside a folder" "a circle among the modules" \
    grader/grade/verify.h '#include "buffers.h"'
expect "an include of no grader file" 'includes "nosuch.h", which is no grader file' \
    grader/rules/mechanism.c '#include "nosuch.h"'
# A call no include shows: core/ calling up into grade/ through a
# declaration of its own.
copy
printf 'void grade_exercise(void);\nvoid reach_up(void) { grade_exercise(); }\n' \
    >"$tmp/c/grader/core/reach_up.c"
${CC:-cc} -c -o "$tmp/c/build/obj/grader/core/reach_up.o" "$tmp/c/grader/core/reach_up.c"
if out=$(bash "$tmp/c/grader/scripts/include-graph.sh" --calls 2>&1); then
    say "FAIL  a call reaching up: include-graph.sh --calls passed"; fails=$((fails + 1))
elif ! grep -qF "core calls grade" <<<"$out"; then
    say "FAIL  a call reaching up: not named in:"; echo "$out"; fails=$((fails + 1))
else
    say "ok    a call reaching up: refused (\"$(grep -m1 'include-graph: core' <<<"$out")\")"
fi
# A rule of the Makefiles about one object (an order-only package, say) must
# name an object a source still makes: after the folder move, the rule that
# installs libarchive named grader/archive.o, no longer built, and a fresh
# machine's make test failed on <archive.h>.
stale=""
for o in $(grep -ho '^\$(BUILD)/obj/[^:% ]*\.o' Makefile tests/*.mk grader/*.mk 2>/dev/null); do
    src=${o#\$(BUILD)/obj/}; src=${src%.o}.c
    [ -f "$src" ] || stale="$stale $o"
done
if [ -n "$stale" ]; then
    say "FAIL  Makefile rules for objects no source makes:$stale"; fails=$((fails + 1))
else
    say "ok    every Makefile rule for one object names a source that exists"
fi
[ $fails -eq 0 ] && echo "layers: all checks passed" || { echo "layers: $fails failed"; exit 1; }
