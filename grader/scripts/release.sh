#!/usr/bin/env bash
# release.sh OUTDIR GRADER: the student copy of the course (make release).
#
# Ships every file git tracks, with its content in this working tree, except
# solutions/ (the answers), the course's own suites that grade or read the
# solutions' sources (tests/unit, gpu, cli, class, layers, reports-compare.sh,
# and cpu-suite.sh with its runner; the copy's tests/tests.mk is
# tests/release.mk) and .ci/. The
# decks' browser test (tests/slides) ships: it needs no solution. The
# reference solutions go in compiled, as PTX at the default knobs for the
# oldest GPU each exercise allows (grader/references/, written by `grader
# references`). Writes OUTDIR/cuda-course-student.tar.gz.
set -euo pipefail
out=${1:-build/release}
grader=${2:-build/grader}
name=cuda-course

if [ ! -d solutions ]; then
    echo "make release: there is no solutions/ here. A student copy is made from the full course, not from another student copy." >&2
    exit 1
fi
if ! git rev-parse --git-dir >/dev/null 2>&1; then
    echo "make release: this is not a git checkout; the release ships the files git tracks." >&2
    exit 1
fi

stage=$(mktemp -d "${TMPDIR:-/tmp}/release-XXXXXX")
trap 'rm -rf "$stage"' EXIT
top=$stage/$name
mkdir -p "$top"

files=()
while IFS= read -r -d '' f; do
    case $f in
    solutions/* | tests/unit/* | tests/gpu/* | tests/cli/* | tests/class/* | tests/layers/* | \
        .ci/* | tests/tests.mk | tests/release.mk | tests/cpu-suite.sh | tests/run-parts.sh | \
        tests/reports-compare.sh) continue ;;
    esac
    [ -f "$f" ] || continue          # deleted in the working tree
    files+=("$f")
done < <(git ls-files -z)
n=${#files[@]}
# All in a few cp calls: one cp and one mkdir per file took seconds.
printf '%s\0' "${files[@]}" | xargs -0 cp -p --parents -t "$top"
mkdir -p "$top/tests"
cp tests/release.mk "$top/tests/tests.mk"

echo "make release: compiling the reference solutions to PTX"
"$grader" references --out "$top/grader/references"

# Every PTX must assemble for the architecture it names, where a ptxas is at hand.
ptxas=${CUDA_HOME:-/usr/local/cuda}/bin/ptxas
if [ -x "$ptxas" ]; then
    for p in "$top"/grader/references/*/*.ptx; do
        arch=$(sed -n 's|^// target: ||p' "$p")
        "$ptxas" -arch="$arch" -o /dev/null "$p" || { echo "make release: $p does not assemble" >&2; exit 1; }
    done
    echo "make release: every PTX assembles ($ptxas)"
else
    echo "make release: no ptxas at $ptxas, so the PTX files were not assembled here"
fi

version=$(git describe --always --dirty 2>/dev/null || echo unknown)
cat >"$top/STUDENT-COPY.md" <<EOF
# The student copy of the course

Made by \`make release\` from the course at $version on $(date -u +%Y-%m-%d).

It has everything the full course has except the solutions' sources: the
reference solutions the grader times your kernels against are in
\`grader/references/\`, compiled to PTX at each exercise's default knobs, and
\`make check\` uses them. Set a knob away from its default (\`TILE=32\`) and
there is no reference compiled for it: the grader then times your kernel
against the baseline alone, grades correctness and mechanisms, and says that
the speed part was not graded.

Instructors' targets (\`make check-solutions\`, the sweeps, calibration) need
the solutions and say so here. \`make test\` checks this copy: every compiled
reference is present and assembles, every exercise compiles, and on a GPU the
untouched exercises are graded against the compiled references.
EOF

mkdir -p "$out"
tarball=$(cd "$out" && pwd)/$name-student.tar.gz
tar --sort=name --owner=0 --group=0 --numeric-owner -C "$stage" -czf "$tarball.tmp" "$name"
mv "$tarball.tmp" "$tarball"
echo "make release: $tarball ($n files from git, $(ls "$top"/grader/references/*/*.ptx | wc -l) compiled references, no solutions/)"
