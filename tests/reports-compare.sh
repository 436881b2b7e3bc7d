#!/usr/bin/env bash
# reports-compare.sh: does a change to the grader change what it says about
# the course's own kernels? Grades every solution and every stub (with and
# without --no-gpu), runs `static` and `list`, and writes the compiled
# references a student copy carries (`references --out`), with the grader of
# BASE and with this tree's, each in its own copy of the course, and
# compares the reports (text and JSON) with timings masked. Prints a table,
# one row per report, and fails when any report differs.
#
#   bash tests/reports-compare.sh [BASE]
#
# On a machine whose copy of the course has no .git (the GPU machines), make
# BASE a folder first, where git is:
#   mkdir -p base && git archive 594768e | tar -x -C base
# and there run: bash tests/reports-compare.sh base
#
# BASE (default 594768e, main before the grader's folders): a git revision
# (needs git), a folder holding a course tree, or a built grader binary (then
# graded in this tree). On a machine without a GPU every verdict is the
# no-GPU one (CHECKED); on a GPU the same run compares the real verdicts,
# plus the same with --no-gpu. Timings, speeds and other measured figures
# (any number with a decimal point, and whole numbers of ms/us/s/GB/s/x)
# are masked; a verdict that flips near its bar on a GPU is real noise, so
# read such a row's diff before blaming the change.
#
# REPORTS (default: all) names the runs to make, of: solutions stubs
# solutions-nogpu stubs-nogpu static list references; on a GPU, where a run
# grades for real, REPORTS="solutions stubs references" keeps it short.
#
# Writes both sides' reports and the diffs under build/reports-compare/;
# with $OUT set (the GPU machines), three files there: summary.txt (the
# table), diffs.txt (every difference) and reports.tgz (both sides).
set -u
cd "$(dirname "$0")/.."
top=$PWD
base=${1:-594768e}
out=build/reports-compare
want=" ${REPORTS:-solutions stubs solutions-nogpu stubs-nogpu static list references} "
rm -rf "$out"; mkdir -p "$out/base" "$out/new"
out=$(realpath "$out")
make=${MAKE:-make}
export NO_COLOR=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Each side: a course tree and the grader that grades it.
if [ -f "$base" ] && [ -x "$base" ]; then
    base_tree=$top base_grader=$(realpath "$base")
elif [ -d "$base" ]; then
    base_tree=$(realpath "$base") base_grader=$base_tree/build/grader
elif git rev-parse --verify -q "$base^{commit}" >/dev/null; then
    base_tree=$tmp/base
    mkdir -p "$base_tree"
    git archive "$base" | tar -x -C "$base_tree" || exit 1
    base_grader=$base_tree/build/grader
else
    echo "reports-compare: $base is no grader, folder or git revision" >&2
    exit 2
fi
if [ ! -x "$base_grader" ]; then
    echo "reports-compare: building the grader of $base"
    $make -C "$base_tree" --no-print-directory build/grader >"$out/base/build.log" 2>&1 ||
        { echo "reports-compare: the grader of $base does not build ($out/base/build.log)"; exit 1; }
fi
$make --no-print-directory build/grader >"$out/new/build.log" 2>&1 ||
    { echo "reports-compare: this tree's grader does not build ($out/new/build.log)"; exit 1; }

# The runs: a name, then the grader's arguments. The JSON of a check run
# goes beside its text.
runs() {
    echo "solutions check all --solutions --seed 7"
    echo "stubs check all --seed 7"
    echo "solutions-nogpu check all --solutions --seed 7 --no-gpu"
    echo "stubs-nogpu check all --seed 7 --no-gpu"
    echo "static static all"
    echo "list list all"
}

# side DIR TREE GRADER: every run, in TREE, reports into DIR.
side() {
    local dir=$1 tree=$2 grader=$3
    while read -r name args; do
        [[ $want == *" $name "* ]] || continue
        local json=()
        case $args in check*) json=(--json "$dir/$name.json") ;; esac
        # shellcheck disable=SC2086
        (cd "$tree" && "$grader" $args "${json[@]}" >"$dir/$name.txt" 2>&1
         echo "exit status $?" >>"$dir/$name.txt")
    done < <(runs)
    # The compiled references a student copy gets (make release), all in one
    # file: what `grader references --out` wrote, in order.
    [[ $want == *" references "* ]] || return 0
    (cd "$tree" && "$grader" references --out "$dir/refs" >"$dir/references.txt" 2>&1
     echo "exit status $?" >>"$dir/references.txt")
    find "$dir/refs" -name '*.ptx' | sort | while read -r p; do
        echo "== ${p#"$dir"/}"; cat "$p"
    done >"$dir/references-ptx.txt"
    rm -rf "$dir/refs"
}
side "$out/base" "$base_tree" "$base_grader"
side "$out/new" "$top" "$top/build/grader"

# Measured figures masked, and where each side's tree and reports lie: what
# is left is what the grader decided and said.
mask() {
    sed -E -e "s#$out/(base|new)/#OUT/#g" -e "s#$base_tree/#TREE/#g" -e "s#$top/#TREE/#g" -e 's/[0-9]+\.[0-9]+/#/g' \
           -e 's/\b[0-9]+ ?(ms|us|µs|ns|s|GB\/s|TB\/s|x)\b/# \1/g' "$1"
}

{
printf '%-22s %8s %8s  %s\n' report base new result
differ=0
for f in "$out"/new/*.txt "$out"/new/*.json; do
    [ -f "$f" ] || continue
    b=${f##*/}
    [ "$b" = build.log ] && continue
    if [ ! -f "$out/base/$b" ]; then
        printf '%-22s %8s %8s  %s\n' "$b" - "$(wc -l <"$f")" "only new"
        differ=$((differ + 1)); continue
    fi
    if diff -u <(mask "$out/base/$b") <(mask "$f") >"$out/$b.diff"; then
        rm -f "$out/$b.diff"; r=identical
    else
        r="DIFFERS ($out/$b.diff)"; differ=$((differ + 1))
    fi
    printf '%-22s %8s %8s  %s\n' "$b" "$(wc -l <"$out/base/$b")" "$(wc -l <"$f")" "$r"
done
if [ $differ -eq 0 ]; then
    echo "reports-compare: every report is the same as $base's (timings masked)"
else
    echo "reports-compare: $differ report(s) differ from $base's; the diffs are in $out"
fi
} | tee "$out/summary.txt"
if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT"
    cp "$out/summary.txt" "$OUT/"
    cat /dev/null "$out"/*.diff >"$OUT/diffs.txt" 2>/dev/null
    tar -czf "$OUT/reports.tgz" -C "$out" base new
fi
grep -q 'every report is the same' "$out/summary.txt"
