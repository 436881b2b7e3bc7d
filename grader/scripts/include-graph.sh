#!/usr/bin/env bash
# include-graph.sh: the grader's include graph, by folder, and a check that
# it has no circle and that no layer includes one above it.
#
#   bash grader/scripts/include-graph.sh          print the folder graph; fail on a circle
#   bash grader/scripts/include-graph.sh --dot    the same graph for graphviz's dot
#   bash grader/scripts/include-graph.sh --files  the file-level graph as well
#   bash grader/scripts/include-graph.sh --calls  also who calls whom, from the
#                                                 objects make built (nm)
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
# With --calls it also reads the built objects (build/obj/grader, as make
# builds them; an object older than its source is refused): a function
# defined in one folder and called from another makes a folder edge too,
# and the same rules hold between folders (files of one folder may call
# each other both ways). The file-opening calls compile_sandbox.c
# replaces for the whole program (fopen, open, ...) count as libc's.
# It uses grep, sed, awk, sort, tsort and nm only.
set -u
cd "$(dirname "$0")/../.."

# Lowest first. specs/ (the lessons and the inst_* calls they build problems
# with) sits on the contract only; cli/ is the top: the commands.
LAYERS="grader specs core ptx sim rules compile device grade report class cli"

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
# folder of a grader path: grader/x.h -> grader, grader/core/x.h -> core;
# its module: core/x. Both set REPLY (no subshell: this runs for every
# file and include, and a fork per call made the check take seconds).
folder() { local p=${1#grader/}; case $p in */*) REPLY=${p%%/*} ;; *) REPLY=grader ;; esac; }
module() { folder "$1"; local b=${1##*/}; REPLY=$REPLY/${b%.*}; }

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
    module "$f"; from=$REPLY
    dir=${f%/*}
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
    while read -r inc; do
        if [ -f "$dir/$inc" ]; then
            case $inc in
            */*) p=$(realpath --relative-to=. "$dir/$inc") ;;
            *) p=$dir/$inc ;;
            esac
        elif [ -n "${where[${inc##*/}]:-}" ] && [ "${inc##*/}" = "$inc" ]; then
            p=${where[$inc]}
        else
            echo "UNRESOLVED $f $inc"
            continue
        fi
        module "$p"
        [ "$from" = "$REPLY" ] || echo "$from $REPLY"
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

declare -A nfiles
for f in $(files); do
    folder "$f"; nfiles[$REPLY]=$(( ${nfiles[$REPLY]:-0} + 1 ))
done
echo "The grader's folders, each with the folders it includes (lowest layer first):"
for l in $LAYERS; do
    outs=$(awk -v l="$l" '$1 == l { printf " %s", $2 }' <<<"$fedges")
    printf '  %-8s (%2d files) ->%s\n' "$l" "${nfiles[$l]:-0}" "${outs:- nothing}"
done
if [ "$mode" = --files ]; then
    echo "Modules (x.c and x.h), each with the modules it includes:"
    awk '{ out[$1] = out[$1] " " $2 } END { for (m in out) print "  " m " ->" out[m] }' \
        <<<"$edges" | sort
fi

if [ "$mode" = --calls ]; then
    objs=()
    for f in $(files); do
        case $f in *.c) ;; *) continue ;; esac
        o=build/obj/${f%.c}.o
        if [ ! -f "$o" ] || [ "$o" -ot "$f" ]; then
            echo "include-graph: $o is missing or older than $f: make build/libgrader.a first"
            exit 1
        fi
        objs+=("$o")
    done
    # One nm for all objects (-A names each line's object): "symbol module",
    # the module read from the object's path, build/obj/grader/core/x.o -> core/x.
    nm_of() {
        nm -A "$@" "${objs[@]}" | awk 'NF == 3 { o = $1; sub(/:.*/, "", o);
            sub(/^build\/obj\/grader\//, "", o); sub(/\.o$/, "", o); print $3, o }'
    }
    defs=$(nm_of --defined-only -g)
    uses=$(nm_of -u)
    # The sandbox's stand-ins for libc's file-opening calls are not calls into compile/.
    libc=$(awk '$2 == "compile/compile_sandbox" && $1 !~ /^(compile_|sandbox_)/ { print $1 }' \
           <<<"$defs")
    calls=$(join <(grep . <<<"$uses" | sort) <(grep . <<<"$defs" | grep -vwFf <(echo "$libc") | sort) |
            awk '$2 != $3 { print $2, $3 }' | sort -u)
    fcalls=$(awk '{ split($1, a, "/"); split($2, b, "/"); if (a[1] != b[1]) print a[1], b[1] }' \
             <<<"$calls" | sort -u)
    echo "Calls between folders (from the objects):"
    for l in $LAYERS; do
        outs=$(awk -v l="$l" '$1 == l { printf " %s", $2 }' <<<"$fcalls")
        [ -n "$outs" ] && printf '  %-8s calls%s\n' "$l" "$outs"
    done
    # Files of one folder may call each other (class.h declares what
    # class_*.c define for class.c, and they call its helpers): calls count
    # between folders only.
    fedges=$(sort -u <<<"$fedges"$'\n'"$fcalls" | grep .)
fi

# Lower layers never include higher ones.
rank() { local i=0; for l in $LAYERS; do [ "$l" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo 99; }
while read -r a b; do
    [ -n "$a" ] || continue
    if [ "$(rank "$a")" -le "$(rank "$b")" ]; then
        why=$(awk -v a="$a" -v b="$b" '{ split($1, x, "/"); split($2, y, "/");
              if (x[1] == a && y[1] == b) printf " %s->%s", $1, $2 }' <<<"$edges")
        verb=includes
        [ -n "$why" ] || verb=calls
        echo "include-graph: $a $verb $b, a layer above it or beside it:${why:- (from the objects)}"
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
    what=includes; [ "$mode" = --calls ] && what="includes and calls"
    echo "include-graph: $(wc -l <<<"$edges") module includes, no circle; every folder's $what reach only layers below it"
fi
exit $fail
