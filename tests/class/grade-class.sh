#!/usr/bin/env bash
# grade-class.sh: `make grade-class` end to end with the real grader, on a
# machine without a GPU (compile and mechanism verdicts, correctness on the
# PTX simulator). Run by
# `make test-class`. A class of five, one entry per kind:
#   ada  the reference solutions, as a folder
#   bo   the stubs, as exercises/ in a .tar.gz (what `tar czf` gives)
#   cy   a compile error in lesson3/matmul.cu, as a .zip
#   dee  a hostile .tar.gz: a '..' entry, an absolute path, and a symbolic
#        link where lesson3/matmul.cu should be
#   eli  the stubs as a folder, changed between the second and third runs
# and README.txt, which is not a submission.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=build/tests/class
subs=$work/subs
out=$work/out
rm -rf "$work"
mkdir -p "$subs"
fail() { echo "FAIL grade-class: $*" >&2; exit 1; }

mkdir -p "$subs/ada/lesson0" "$subs/ada/lesson3"
cp solutions/lesson0/saxpy.cu "$subs/ada/lesson0/"
cp solutions/lesson3/bank_conflicts.cu solutions/lesson3/matmul.cu "$subs/ada/lesson3/"
for f in "$subs"/ada/lesson*/*.cu; do echo "// MARK-ada" >>"$f"; done

mkdir -p "$work/bo-src"
cp -r exercises "$work/bo-src/"
tar -C "$work/bo-src" -czf "$subs/bo.tar.gz" exercises

mkdir -p "$work/cy-src/lesson3"
cp exercises/lesson3/*.cu "$work/cy-src/lesson3/"
echo "this is not C++ at all; // MARK-cy" >>"$work/cy-src/lesson3/matmul.cu"
(cd "$work/cy-src" && zip -qr ../subs/cy.zip lesson3)

mkdir -p "$work/dee-src/lesson3"
cp exercises/lesson3/bank_conflicts.cu "$work/dee-src/lesson3/"
echo "// OUTSIDE-SECRET" >"$work/dee-src/outside.cu"
echo "// ABSOLUTE-SECRET" >"$work/dee-src/abs.cu"
ln -s /etc/passwd "$work/dee-src/lesson3/matmul.cu"
tar -C "$work/dee-src" -cPzf "$subs/dee.tar.gz" \
    --transform='s,^outside.cu,../../outside.cu,;s,^abs.cu,/tmp/abs.cu,' outside.cu abs.cu lesson3
# (Listed whole first: grep -q in a pipe would end tar early, and pipefail.)
listing=$(tar -tPzf "$subs/dee.tar.gz")
grep -qx '../../outside.cu' <<<"$listing" || fail "tar did not keep the '..' entry"

mkdir -p "$subs/eli"
cp -r exercises/lesson0 exercises/lesson3 "$subs/eli/"
echo "not a submission" >"$subs/README.txt"

grade() {
    make --no-print-directory grade-class SUBMISSIONS="$subs" LESSONS=0,3 CLASS_OUT="$out" \
        >"$work/$1.txt" 2>"$work/$1.err" || { cat "$work/$1.txt" "$work/$1.err"; fail "make grade-class exited $?"; }
}

# ---- first run: everything graded, every output written ----
t0=$(date +%s%N)
grade run1
first_ms=$((($(date +%s%N) - t0) / 1000000))
for f in gradebook.csv summary.md class.json; do
    [ -s "$out/$f" ] || fail "no $f"
done
for e in lesson0-saxpy lesson3-bank_conflicts lesson3-matmul; do
    [ -s "$out/leaderboards/$e.md" ] && [ -s "$out/leaderboards/$e.html" ] || fail "no leaderboard $e"
done
for s in ada bo cy dee eli; do
    for f in report.txt report.json junit.xml submission.json; do
        [ -s "$out/students/$s/$f" ] || fail "no students/$s/$f"
    done
done
grep -q '^README.txt,0,0,NOT GRADED,.*not graded: neither a folder' "$out/gradebook.csv" ||
    fail "README.txt has no row saying why it was not graded"
grep -q '`README.txt`: not graded' "$out/summary.md" || fail "summary does not say README.txt was not graded"

# The hostile archive: its bad entries refused and reported, nothing unpacked.
grep -q "\.\./\.\./outside.cu: '\.\.' in the path" "$out/students/dee/report.txt" || fail "dee's '..' entry not reported"
grep -q '/tmp/abs.cu: an absolute path' "$out/students/dee/report.txt" || fail "dee's absolute entry not reported"
grep -q 'lesson3/matmul.cu: a symbolic link' "$out/students/dee/report.txt" || fail "dee's link not reported"
grep -q '"refused_count": 3' "$out/students/dee/submission.json" || fail "submission.json: not 3 refused"
grep -q '../../outside.cu' "$out/summary.md" || fail "the summary does not list dee's refused entry"
[ ! -e build/outside.cu ] && [ ! -e "$work/outside.cu" ] && [ ! -e /tmp/abs.cu ] || fail "an entry was unpacked"
if grep -rq -e OUTSIDE-SECRET -e ABSOLUTE-SECRET "$out"; then fail "a refused entry's content is in the results"; fi
if grep -rq 'root:x:0:0' "$out"; then fail "the link's target (/etc/passwd) is in the results"; fi

# Each student's files show in their own results only (cy's compile log
# quotes cy's line: the check below could fail).
grep -q 'MARK-cy' "$out/students/cy/report.txt" || fail "cy's compile log does not quote cy's file"
if grep -rl -e MARK-cy "$out" | grep -v "^$out/students/cy/"; then fail "cy's file shows elsewhere"; fi
if grep -rl -e MARK-ada "$out" | grep -v "^$out/students/ada/"; then fail "ada's file shows elsewhere"; fi
if grep -rq 'grade-class-' "$out"; then fail "the staging folder's path is in the results"; fi
grep -q 'exercises/lesson3/matmul.cu(' "$out/students/cy/report.txt" || fail "cy's report does not name exercises/lesson3/matmul.cu"

# Verdicts: compile error, missing (refused) file, and the rest compiled.
row() { grep "^$1," "$out/gradebook.csv"; }
[[ $(row cy) == *,COMPILE,* ]] || fail "cy's compile error is not COMPILE: $(row cy)"
[[ $(row dee) == *,MISSING,* ]] || fail "dee's refused matmul is not MISSING: $(row dee)"
for s in ada bo eli; do
    if grep -qE ',(COMPILE|MISSING|INTERNAL|NOT RUN),' <<<"$(row "$s")"; then fail "$s: $(row "$s")"; fi
done
# Without a GPU the PTX simulator judges correctness, as make check does:
# the solutions CORRECT (not a pass), lesson 0's stub (it writes nothing)
# WRONG, lesson 3's stubs right (bank_conflicts CORRECT, matmul without its
# shared-memory tiles MECHANISM).
[[ $(row ada) == ada,0,3,CORRECT,,CORRECT,,CORRECT,,* ]] || fail "ada's solutions are not CORRECT: $(row ada)"
[[ $(row bo) == bo,0,3,WRONG,,CORRECT,,MECHANISM,,* ]] || fail "bo's stubs: $(row bo)"
grep -q 'is not in the submission: the entry lesson3/matmul.cu was refused: a symbolic link' \
    "$out/students/dee/report.json" || fail "dee's matmul row does not say why it is missing"

# Standard parsers: CSV, JUnit XML, JSON.
if command -v python3 >/dev/null; then
    python3 - "$out" <<'PY' || fail "a result does not parse"
import csv, glob, json, sys, xml.etree.ElementTree as ET
out = sys.argv[1]
rows = list(csv.reader(open(out + "/gradebook.csv", newline="")))
assert len(rows) == 7, rows
assert all(len(r) == len(rows[0]) for r in rows), "ragged rows"
assert rows[0][:3] == ["student", "passed", "out_of"], rows[0]
assert [r[0] for r in rows[1:]] == ["README.txt", "ada", "bo", "cy", "dee", "eli"], rows
for s in ["ada", "bo", "cy", "dee", "eli"]:
    path = out + "/students/" + s + "/junit.xml"
    suite = ET.parse(path).getroot().find("testsuite")
    assert suite is not None and suite.get("tests") == "3", path
    assert len(suite.findall("testcase")) == 3, path
cy = ET.parse(out + "/students/cy/junit.xml").getroot()
assert any(f.get("type") == "COMPILE" for f in cy.iter("failure")), "cy: no COMPILE failure"
for path in glob.glob(out + "/**/*.json", recursive=True):
    json.load(open(path))
print("parsers: gradebook.csv (csv), 5 junit.xml (xml.etree), %d JSON files (json) parse"
      % len(glob.glob(out + "/**/*.json", recursive=True)))
PY
else
    sh grader/scripts/need-package.sh libxml2-utils command -v xmllint
    xmllint --noout "$out"/students/*/junit.xml "$out"/leaderboards/*.html 2>/dev/null ||
        xmllint --noout "$out"/students/*/junit.xml || fail "junit.xml does not parse"
    echo "parsers: junit.xml parses (xmllint); no python3 here, so the CSV is checked by the unit tests"
fi

# ---- second run: nothing changed, nothing graded ----
grade run2
[ "$(grep -c 'unchanged since' "$work/run2.txt")" = 5 ] || { cat "$work/run2.txt"; fail "the second run did not skip all five"; }
if grep -q '^grading ' "$work/run2.err"; then fail "the second run graded something"; fi

# ---- third run: eli changes a file; only eli is graded ----
echo "// edited" >>"$subs/eli/lesson3/matmul.cu"
grade run3
grep -q '^eli .*passed in' "$work/run3.txt" || fail "eli was not graded again"
[ "$(grep -c 'unchanged since' "$work/run3.txt")" = 4 ] || fail "the third run did not skip the other four"
[ "$(grep -c '^grading eli' "$work/run3.err")" = 3 ] || fail "eli's three exercises were not graded"

echo "grade-class: 5 submissions graded without a GPU (the first run in ${first_ms} ms), every output written," \
     "3 hostile entries refused, unchanged submissions skipped on the re-runs"
