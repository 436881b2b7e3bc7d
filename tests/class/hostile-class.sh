#!/usr/bin/env bash
# hostile-class.sh: a class as students hand it in, and as a hostile one
# would, graded by the real grader without a GPU (lesson 0 only: compile and
# mechanism verdicts). Run by `make test-class`. Every entry must get a row,
# under a unique identifier that keeps its name; every archive format must
# be read; every output must parse. The class (made by the Python below):
#   李雷 韩梅 王芳, "Zoë Müller" "Zoë Möller"   names that used to collide
#   ten cuda-course-fall-2025-assignment-3-shared-memory-<user>   (GitHub Classroom)
#   ada/ and ada.zip                        one name, two entries
#   repo.zip       cuda-course-main/exercises/lesson0/saxpy.cu (two wrapping folders)
#   nested.zip     upload/hw.tar.gz holding lesson0/saxpy.cu (a tar inside a zip)
#   streamed.tar   a zip written to a pipe (sizes after the data) inside a tar
#   writestr.zip   Python's zipfile.writestr: Unix mode without type bits
#   zip64.zip      zip64 records
#   bz2/xz/zst     .tar.bz2, .tar.xz, .tar.zst
#   build-first.tar  10,001 entries under build/ before lesson0/ (a cap must not hide it)
#   nothing.zip    no exercise file at all: listed under the submissions to look at
#   deep/          folders nested 14 deep, one named with ESC and a 0xff byte
#   ffff/          a compile error quoting U+FFFF and ESC (junit.xml must stay XML 1.0)
#   =HYPERLINK(..), <svg onload=alert(1)>, back`quote, bad\xffname   hostile names
#   .bob/          a hidden folder: a student too
#   notes.txt      not a submission: a row saying why
set -euo pipefail
cd "$(dirname "$0")/../.."
work=build/tests/hostile-class
subs=$work/subs
out=$work/out
rm -rf "$work"
mkdir -p "$subs"
fail() { echo "FAIL hostile-class: $*" >&2; exit 1; }
command -v python3 >/dev/null || { echo "hostile-class: skipped: no python3 to build the class"; exit 0; }

python3 - "$subs" exercises/lesson0/saxpy.cu <<'PY'
import io, os, sys, tarfile, zipfile
subs, stub = sys.argv[1].encode(), open(sys.argv[2], "rb").read()
def folder(name, inner=b"lesson0/saxpy.cu", data=stub):
    p = os.path.join(subs, name, inner)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "wb").write(data)
def tar_bytes(files, mode="w"):
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode=mode) as t:
        for name, data in files:
            ti = tarfile.TarInfo(name); ti.size = len(data); t.addfile(ti, io.BytesIO(data))
    return b.getvalue()
for n in ["李雷", "韩梅", "王芳", "Zoë Müller", "Zoë Möller", "ada",
          "=HYPERLINK(\"x\")", "<svg onload=alert(1)>", "back`quote"]:
    folder(n.encode())
folder(b"bad\xffname")
folder(b".bob")
for u in ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]:
    folder(("cuda-course-fall-2025-assignment-3-shared-memory-" + u).encode())
with zipfile.ZipFile(os.fsdecode(os.path.join(subs, b"ada.zip")), "w") as z:
    z.writestr("lesson0/saxpy.cu", stub)
with zipfile.ZipFile(os.fsdecode(os.path.join(subs, b"repo.zip")), "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("cuda-course-main/README.md", "course")
    z.writestr("cuda-course-main/exercises/lesson0/saxpy.cu", stub)
with zipfile.ZipFile(os.fsdecode(os.path.join(subs, b"nested.zip")), "w") as z:
    z.writestr("upload/hw.tar.gz", tar_bytes([("hw/lesson0/saxpy.cu", stub)], "w:gz"))
with zipfile.ZipFile(os.fsdecode(os.path.join(subs, b"writestr.zip")), "w", zipfile.ZIP_DEFLATED) as z:
    zi = zipfile.ZipInfo("lesson0/saxpy.cu"); zi.create_system = 3; zi.external_attr = 0o644 << 16
    z.writestr(zi, stub)
with zipfile.ZipFile(os.fsdecode(os.path.join(subs, b"zip64.zip")), "w", zipfile.ZIP_DEFLATED) as z:
    with z.open("lesson0/saxpy.cu", "w", force_zip64=True) as f:
        f.write(stub)
for ext, mode in [("bz2", "w:bz2"), ("xz", "w:xz")]:
    open(os.path.join(subs, ("c-" + ext + ".tar." + ext).encode()), "wb").write(
        tar_bytes([("lesson0/saxpy.cu", stub)], mode))
class Unseekable(io.RawIOBase):   # what zip writes to a pipe: sizes after the data
    def __init__(self): self.b = bytearray()
    def writable(self): return True
    def write(self, d): self.b += d; return len(d)
u = Unseekable()
with zipfile.ZipFile(u, "w", zipfile.ZIP_DEFLATED) as z:
    with z.open("lesson0/saxpy.cu", "w") as f:
        f.write(stub)
open(os.path.join(subs, b"streamed.tar"), "wb").write(tar_bytes([("hw.zip", bytes(u.b))]))
open(os.path.join(subs, b"build-first.tar"), "wb").write(
    tar_bytes([("build/o%05d.o" % i, b"") for i in range(10001)] + [("lesson0/saxpy.cu", stub)]))
with zipfile.ZipFile(os.fsdecode(os.path.join(subs, b"nothing.zip")), "w") as z:
    z.writestr("homework/README.md", "I forgot the kernel")
    z.writestr("homework/saxpy_final_v2.cu", stub)
folder(b"deep", b"/".join([b"d"] * 12) + b"/x\x1b[31m\xff/lesson0/saxpy.cu")
folder(b"ffff", data=stub + "\nthis is not C++ \uffff \x1b[2J here\n".encode())
open(os.path.join(subs, b"notes.txt"), "wb").write(b"not a submission")
PY
mkdir -p "$work/zst/lesson0" && cp exercises/lesson0/saxpy.cu "$work/zst/lesson0/"
if tar --zstd -cf "$subs/c-zst.tar.zst" -C "$work/zst" lesson0 2>/dev/null; then zst=1; else zst=0; fi
entries=$(ls -A "$subs" | wc -l)

make --no-print-directory grade-class SUBMISSIONS="$subs" LESSONS=0 CLASS_OUT="$out" \
    >"$work/run.txt" 2>"$work/run.err" || { tail "$work/run.txt" "$work/run.err"; fail "make grade-class exited $?"; }
if grep -q $'\x1b' "$work/run.txt" "$work/run.err"; then fail "an ESC byte reached the terminal"; fi

python3 - "$out" "$entries" "$zst" <<'PY' || fail "see above"
import csv, glob, json, re, sys, xml.etree.ElementTree as ET
out, entries, zst = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
rows = list(csv.DictReader(open(out + "/gradebook.csv", newline="", encoding="utf-8")))
ids = [r["student"] for r in rows]
assert len(rows) == entries, "%d rows for %d entries" % (len(rows), entries)
assert len(set(i.lower() for i in ids)) == len(ids), "identifiers collide: %s" % ids
by = {r["entry"]: r for r in rows}
for n in ["李雷", "韩梅", "王芳", "Zoë Müller", "Zoë Möller", "ada", "ada.zip", "back`quote"]:
    assert n in ids, "%s is not an identifier as given: %s" % (n, ids)
for u in ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]:
    assert "cuda-course-fall-2025-assignment-3-shared-memory-" + u in ids, u
bad = [i for i in ids if i.startswith("bad")]
assert len(bad) == 1 and re.fullmatch(r"bad_name-[0-9a-f]{8}", bad[0]), bad
read = ["repo.zip", "nested.zip", "writestr.zip", "zip64.zip", "c-bz2.tar.bz2", "c-xz.tar.xz",
        "build-first.tar", "streamed.tar"] + (["c-zst.tar.zst"] if zst else [])
for e in read:
    cell = by[e]["lesson0/saxpy"]
    assert cell not in ("MISSING", "NOT GRADED"), "%s: %s (%s)" % (e, cell, by[e]["notes"])
assert by[".bob"]["lesson0/saxpy"] not in ("MISSING", "NOT GRADED"), by[".bob"]
assert re.fullmatch(r"_bob-[0-9a-f]{8}", by[".bob"]["student"]), by[".bob"]
assert by["nothing.zip"]["lesson0/saxpy"] == "MISSING"
assert "no exercise file found" in by["nothing.zip"]["notes"], by["nothing.zip"]
assert by["notes.txt"]["lesson0/saxpy"] == "NOT GRADED" and "not graded" in by["notes.txt"]["notes"]
assert "nested deeper than 12" in by["deep"]["notes"], by["deep"]
assert by["ffff"]["lesson0/saxpy"] == "COMPILE", by["ffff"]
formula = [r for r in rows if "HYPERLINK" in r["student"]][0]
raw = open(out + "/gradebook.csv", encoding="utf-8").read()
assert "\"'=HYPERLINK" in raw, "a formula cell is not defused"

cls = json.load(open(out + "/class.json", encoding="utf-8"))   # strict UTF-8
assert len(cls["students"]) == entries
assert sum(1 for s in cls["students"] if not s["graded"]) == 1
for path in glob.glob(out + "/students/*/*.json"):
    json.load(open(path, encoding="utf-8"))
suites = ET.parse(out + "/junit.xml").getroot().findall("testsuite")
assert len(suites) == entries, "class junit.xml: %d suites" % len(suites)
for path in glob.glob(out + "/students/*/junit.xml"):
    ET.parse(path)
ju = open(out + "/students/ffff/junit.xml", encoding="utf-8").read()
assert "\uffff" not in ju and "\x1b" not in ju
summary = open(out + "/summary.md", encoding="utf-8").read()
look = summary.split("## Submissions to look at")[1]
assert "`nothing.zip`" in look and "no exercise file was found" in look, look
assert "`notes.txt`: not graded" in look, look
outside = re.sub(r"(`+)(.+?)\1", "", summary)   # text outside code spans
assert "<" not in outside, "raw HTML in summary.md: %s" % [l for l in outside.splitlines() if "<" in l]
for path in glob.glob(out + "/leaderboards/*.html"):
    assert "<svg" not in open(path, encoding="utf-8").read(), path
print("hostile-class: %d entries, %d rows, identifiers unique, %d archives of every kind read, "
      "all outputs parse" % (entries, len(rows), len(read)))
PY
