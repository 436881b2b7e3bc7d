#!/usr/bin/env bash
# include-graph.sh: the grader's include graph, by folder, and a check that
# it has no circle and that no layer includes one above it.
#
#   bash grader/scripts/include-graph.sh          print the folder graph; fail on a circle
#   bash grader/scripts/include-graph.sh --dot    the same graph for graphviz's dot
#   bash grader/scripts/include-graph.sh --files  the file-level graph as well
#
# A node of the file-level graph is a module: x.c and x.h together (a .c
# file that includes its own header is no edge). A folder's node is every
# module in it; grader/spec.h, the contract every layer and lesson shares,
# is the folder "grader". An #include "name" is resolved as the compiler
# resolves it: the including file's folder first, then every folder on the
# Makefile's quote path (GRADER_DIRS), which is why no two grader headers may
# share a name.
#
# It fails (status 1), saying which, when
#   - two modules include each other, directly or through others;
#   - a folder includes a folder its layer may not call: LAYERS below lists
#     them lowest first, and a folder may include only the ones before it
#     (grader/README.md draws the same picture);
#   - an include names no grader file and is not a system header (<...>);
#   - a folder on the Makefile's list is missing from LAYERS.
# It uses grep, sed, awk, sort and tsort only.
set -u
cd "$(dirname "$0")/../.."

# Lowest first. specs/ (the lessons) sits on the contract only; cli/ is the
# top: the commands.
LAYERS="grader core rules compile device grade report class specs cli"

mode=${1:-}
dirs=$(sed -n 's/^GRADER_DIRS := //p' Makefile)
[ -n "$dirs" ] || { echo "include-graph: no GRADER_DIRS in the Makefile" >&2; exit 1; }
fail=0
for d in $dirs; do
    case " $LAYERS " in *" $d "*) ;; *) echo "include-graph: folder $d is in no layer (LAYERS)"; fail=1 ;; esac
done

files() {
    ls grader/*.h 2>/dev/null
    for d in $dirs; do ls grader/"$d"/*.c grader/"$d"/*.h 2>/dev/null; done
}
# folder of a grader path: grader/x.h -> grader, grader/core/x.h -> core
folder() { local p=${1#grader/}; case $p in */*) echo "${p%%/*}" ;; *) echo grader ;; esac; }
module() { local f; f=$(folder "$1"); local b=${1##*/}; echo "$f/${b%.*}"; }

# Every header's name, once; a name found twice is refused.
declare -A where
for f in $(files); do
    case $f in *.h) ;; *) continue ;; esac
    b=${f##*/}
    if [ -n "${where[$b]:-}" ]; then
        echo "include-graph: two headers named $b: ${where[$b]} and $f"
        fail=1
    fi
    where[$b]=$f
done

edges=$(
for f in $(files); do
    from=$(module "$f")
    dir=${f%/*}
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
    while read -r inc; do
        if [ -f "$dir/$inc" ]; then
            p=$(realpath --relative-to=. "$dir/$inc")
        elif [ -n "${where[${inc##*/}]:-}" ] && [ "${inc##*/}" = "$inc" ]; then
            p=${where[$inc]}
        else
            echo "UNRESOLVED $f $inc"
            continue
        fi
        to=$(module "$p")
        [ "$from" = "$to" ] || echo "$from $to"
    done
done | sort -u)

if grep -q '^UNRESOLVED' <<<"$edges"; then
    grep '^UNRESOLVED' <<<"$edges" | while read -r _ f inc; do
        echo "include-graph: $f includes \"$inc\", which is no grader file"
    done
    fail=1
    edges=$(grep -v '^UNRESOLVED' <<<"$edges")
fi

# Folder edges, with the modules that make each one.
fedges=$(awk '{ split($1, a, "/"); split($2, b, "/"); if (a[1] != b[1]) print a[1], b[1] }' \
         <<<"$edges" | sort -u)

if [ "$mode" = --dot ]; then
    echo "digraph grader {"
    echo "  rankdir=BT; node [shape=box];"
    awk '{ printf "  \"%s\" -> \"%s\";\n", $1, $2 }' <<<"$fedges"
    echo "}"
    exit $fail
fi

echo "The grader's folders, each with the folders it includes (lowest layer first):"
for l in $LAYERS; do
    outs=$(awk -v l="$l" '$1 == l { printf " %s", $2 }' <<<"$fedges")
    n=$(files | while read -r f; do [ "$(folder "$f")" = "$l" ] && echo; done | wc -l)
    printf '  %-8s (%2d files) ->%s\n' "$l" "$n" "${outs:- nothing}"
done
if [ "$mode" = --files ]; then
    echo "Modules (x.c and x.h), each with the modules it includes:"
    awk '{ out[$1] = out[$1] " " $2 } END { for (m in out) print "  " m " ->" out[m] }' \
        <<<"$edges" | sort
fi

# Lower layers never include higher ones.
rank() { local i=0; for l in $LAYERS; do [ "$l" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo 99; }
while read -r a b; do
    [ -n "$a" ] || continue
    if [ "$(rank "$a")" -le "$(rank "$b")" ]; then
        why=$(awk -v a="$a" -v b="$b" '{ split($1, x, "/"); split($2, y, "/");
              if (x[1] == a && y[1] == b) printf " %s->%s", $1, $2 }' <<<"$edges")
        echo "include-graph: $a includes $b, a layer above it or beside it:$why"
        fail=1
    fi
done <<<"$fedges"

# No circle among modules or folders: tsort says "input contains a loop"
# and names the members.
for g in modules folders; do
    if [ $g = modules ]; then in=$edges; else in=$fedges; fi
    if ! out=$(tsort <<<"$in" 2>&1 >/dev/null) || grep -q loop <<<"$out"; then
        echo "include-graph: a circle among the $g:"
        grep -v 'input contains a loop' <<<"$out" | sed 's/^tsort: /  /'
        fail=1
    fi
done

if [ $fail -eq 0 ]; then
    echo "include-graph: $(wc -l <<<"$edges") module includes, no circle; every folder includes only layers below it"
fi
exit $fail
