#!/usr/bin/env python3
"""mutate.py: does the CPU suite fail when the grader is wrong? (make mutate)

    python3 tests/mutate/mutate.py                   the default sample
    python3 tests/mutate/mutate.py grader/stats.c    every mutant of one file
    python3 tests/mutate/mutate.py --sample 50 --seed 3 --jobs 2 grader/grade_*.c
    python3 tests/mutate/mutate.py --ids tests/mutate/ci-mutants.txt --expect-caught
    python3 tests/mutate/mutate.py --list grader/stats.c    the mutants, not run
    python3 tests/mutate/mutate.py --named       the hand-written bugs of named.txt
    python3 tests/mutate/mutate.py --rescore build/mutate/last.txt   a past run's table,
                                                 with today's equivalent.txt

Generic operator mutations (tests/mutate/cmut.py: comparisons negated and
their boundaries moved, && and || swapped, constants +-1, calls and early
returns removed, neighbouring arguments swapped, conditions negated) of the
files tests/mutate/suites.map names, each mutant alone. The map says which
Check suites (and scripts) cover each file: only those run for its mutants,
lightest first, stopping at the first failure. A mutant is

  KILLED      a suite failed, or ran past its time bound (3x its time alone
              plus 10 s);
  SURVIVED    every suite passed: the suite cannot tell the grader is wrong;
  STILLBORN   it does not compile cleanly (an error or a new warning):
              not counted, as a compiler would have caught it;
  EQUIVALENT  listed in tests/mutate/equivalent.txt with why it cannot
              change behaviour: not run, not counted.

Only the suites that run the mutated line run for a mutant: a coverage
build (gcc --coverage) of the copy runs each needed suite once and records
which lines it executes; a mutant on a line no suite runs survives without
being built (--no-coverage runs every suite of the map instead).

Score = killed / (killed + survived). The tree itself is never touched: the
tool copies it to a temporary folder, builds once, gives each job a copy of
that build, and per mutant changes one file, lets make rebuild only what
depends on it, runs the suites, and puts the file and every changed build
product back from the pristine copy (also after a failure or Ctrl-C). A
sample (--sample N, --seed S) is a fixed function of the list of mutants,
so the same seed on the same sources picks the same mutants.

Results go to build/mutate/last.txt (one line per mutant: status, id, what
changed); --ids FILE runs exactly the ids in FILE (the first word of each
line), and --expect-caught makes any SURVIVED among them a failure (CI:
tests/mutate/ci-mutants.txt, mutants recorded as caught). Exit status: 0,
or 1 when --expect-caught found a survivor or the suite fails unmutated.
"""
import argparse
import glob
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import cmut  # noqa: E402

# The scripts a map line may name (sh:NAME), run from the copy's root.
SCRIPTS = {
    "cli": "bash tests/cli/run.sh",
    "grade-class": "bash tests/class/grade-class.sh",
    "hostile-class": "bash tests/class/hostile-class.sh",
    "guard-class": "bash tests/class/guard-class.sh",
    "gpus-class": "bash tests/class/gpus-class.sh",
}


def read_map(path):
    """file -> list of suites (empty: not mutated; the reason is the comment)."""
    m = {}
    for raw in open(path):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        f, *suites = line.split()
        f = f.rstrip(":")
        m[f] = [] if suites == ["-"] else suites
    return m


def read_ids(path):
    ids = {}
    if not os.path.exists(path):
        return ids
    for raw in open(path):
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        mid, _, why = s.partition(" ")
        ids[mid] = why.strip()
    return ids


def read_named(path, srcs):
    """The hand-written bugs of named.txt as mutants (see its header)."""
    out, stale = [], []
    text = open(path).read()
    for block in text.split("\n=== ")[1:] if not text.startswith("=== ") else \
            ("\n" + text).split("\n=== ")[1:]:
        head, _, rest = block.partition("\n")
        if not head.strip() or head.startswith("="):
            continue
        f, _, rest = rest.partition("\n<<<\n")
        old, _, rest = rest.partition("\n>>>\n")
        new, _, _ = rest.partition("===")
        new = new[:-1] if new.endswith("\n") else new
        if not new.strip():         # a removed line goes with its newline
            new, old = "", old + "\n"
        f = f.strip()
        if f not in srcs:
            srcs[f] = open(os.path.join(ROOT, f)).read()
        at = srcs[f].find(old)
        if at < 0:
            stale.append(f"{head.strip()} ({f})")
            continue
        m = cmut.Mutant()
        m.id = "named:" + re.sub(r"[^A-Za-z0-9.+-]+", "_", head.strip()).strip("_")
        m.file, m.func, m.op, m.start, m.end, m.repl = f, "", "NAMED", at, at + len(old), new
        m.lineno = srcs[f].count("\n", 0, at) + 1
        m.line, m.desc = old.strip().split("\n")[0], head.strip()
        out.append(m)
    return out, stale


def sh(cmd, cwd, timeout, env=None):
    """Run cmd in its own process group; (rc, output); rc None: timed out."""
    p = subprocess.Popen(cmd, shell=True, cwd=cwd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, errors="replace",
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        # A grandchild in a process group of its own (a grading child) may
        # still hold the output pipe open: reap it by folder too, and never
        # wait on the pipe without a bound (a run once stalled here).
        reap(cwd)
        try:
            out, _ = p.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            out = ""
        return None, out


def test_env():
    env = {k: v for k, v in os.environ.items() if not k.startswith("CK_")}
    env.pop("MAKEFLAGS", None)
    env.pop("MAKELEVEL", None)
    env["NO_COLOR"] = "1"
    return env


def suite_cmd(s):
    if s.startswith("sh:"):
        return SCRIPTS[s[3:]]
    return f"CK_RUN_SUITE={s} build/tests/unit_tests"


def copy_tree(dst):
    """The working tree (tracked and untracked-not-ignored files) into dst."""
    r = subprocess.run(["git", "ls-files", "-coz", "--exclude-standard"], cwd=ROOT,
                       capture_output=True)
    files = [f for f in r.stdout.decode().split("\0") if f] if r.returncode == 0 else None
    if files is None:     # not a git checkout (a release copy): everything but build/
        shutil.copytree(ROOT, dst, ignore=shutil.ignore_patterns("build", ".git"))
        return
    for f in files:
        s = os.path.join(ROOT, f)
        if not os.path.isfile(s):
            continue
        d = os.path.join(dst, f)
        os.makedirs(os.path.dirname(d), exist_ok=True)
        shutil.copy2(s, d, follow_symlinks=False)


# What make builds from the sources: restored after each mutant. (The
# scripts' own work files under build/ are theirs to clean.)
PRODUCTS = ["obj", "libgrader.a", "grader", "tests/unit_tests"]


def snapshot(build):
    st = {}
    paths = []
    for top in PRODUCTS:
        t = os.path.join(build, top)
        if os.path.isdir(t):
            paths += [os.path.join(dp, f) for dp, _, fs in os.walk(t) for f in fs]
        elif os.path.lexists(t):
            paths.append(t)
    for p in paths:
        try:
            s = os.lstat(p)
            st[os.path.relpath(p, build)] = (s.st_size, s.st_mtime_ns)
        except FileNotFoundError:
            pass
    return st


# The grading child leaves with _exit(), which skips gcov's writing of its
# counts: in the coverage build, _exit writes them first. So does raise():
# a signal handler that ends by raising its signal again (class_guard.c's)
# kills the process before exit could write them. gcov writes a process's
# counts once, so raise starts them again from zero after writing (the
# signal may be handled, and the handler raise again).
WRAP_EXIT = """
extern void __gcov_dump(void);
extern void __gcov_reset(void);
extern void __real__exit(int);
extern int __real_raise(int);
void __wrap__exit(int s) { __gcov_dump(); __real__exit(s); }
int __wrap_raise(int s) { __gcov_dump(); __gcov_reset(); return __real_raise(s); }
"""


def coverage(tmp, base, suites, files, jobs, took):
    """Which suites run which lines: {file: {line: set(suites)}} and each
    file's functions [(first, last line)], from a --coverage build of the
    copy in which each suite runs alone. Lines no suite runs need no run."""
    cov = os.path.join(tmp, "cov")
    shutil.copytree(base, cov, symlinks=True, ignore=shutil.ignore_patterns("build"))
    wrap = os.path.join(tmp, "wrap_exit")
    with open(wrap + ".c", "w") as fh:
        fh.write(WRAP_EXIT)
    rc, out = sh(f"cc -c -o {wrap}.o {wrap}.c", tmp, 120)
    cc = f"cc --coverage -Wl,--wrap=_exit -Wl,--wrap=raise {wrap}.o"
    rc, out = sh(f"make -s -j{jobs} CC='{cc}' build/tests/unit_tests build/grader", cov, 1200,
                 test_env())
    if rc != 0:
        print(out[-2000:])
        return None
    srcs = [f for f in files if f.endswith(".c")]
    lines = {f: {} for f in srcs}
    funcs = {f: [] for f in srcs}
    for s in suites:
        for dp, _, fs in os.walk(os.path.join(cov, "build", "obj")):
            for f in fs:
                if f.endswith(".gcda"):
                    os.remove(os.path.join(dp, f))
        t0 = time.time()
        rc, out = sh(suite_cmd(s), cov, 900, test_env())
        took[s] = time.time() - t0
        if rc != 0:
            print(out[-3000:])
            print(f"mutate: {s} fails without any mutant: fix the suite first")
            return "FAILED"
        for f in srcs:
            obj = os.path.join("build", "obj", os.path.dirname(f))
            gcda = os.path.join(cov, obj, os.path.basename(f)[:-2] + ".gcda")
            if not os.path.exists(gcda):
                continue
            rc, out = sh(f"gcov -j -t -o {obj} {f}", cov, 120)
            for doc in out.splitlines():
                if not doc.startswith("{"):
                    continue
                for fe in json.loads(doc).get("files", []):
                    if fe.get("file") != f:
                        continue
                    if not funcs[f]:
                        funcs[f] = [(fn["start_line"], fn["end_line"]) for fn in fe["functions"]]
                    for ln in fe["lines"]:
                        d = lines[f].setdefault(ln["line_number"], set())
                        if ln["count"] > 0:
                            d.add(s)
    return lines, funcs


def suites_for(m, cover, took, cov):
    """The suites of the map that run the mutant's line, lightest first.
    A line that is not code of its own (a statement's continuation) counts
    as the code line before it in the same function; outside any function,
    or in a header: every suite the map names."""
    every = sorted(cover[m.file], key=lambda s: took[s])
    if cov is None or m.file not in cov[0] or m.op == "NAMED":
        return every
    lines, funcs = cov[0][m.file], cov[1][m.file]
    fn = [(a, b) for a, b in funcs if a <= m.lineno <= b]
    if not fn:
        return every
    first = fn[0][0]
    ln = m.lineno
    while ln >= first and ln not in lines:
        ln -= 1
    run = lines.get(ln)
    if run is None:
        return every
    return [s for s in every if s in run]


def reap(path):
    """Kill what a mutant left running in the copy `path`: a mutant can make a
    grading child loop in a process group of its own, out of reach of the
    suite's timeout. Found by working folder, so only the tool's own."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if cwd == path or cwd.startswith(path + "/"):
            try:
                os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass


class Worker:
    def __init__(self, base, path, base_build_state):
        self.base, self.path, self.state = base, path, base_build_state

    def restore(self, rel):
        """The mutated file and every changed build product back from base."""
        shutil.copy2(os.path.join(self.base, rel), os.path.join(self.path, rel))
        build = os.path.join(self.path, "build")
        now = snapshot(build)
        for f, st in now.items():
            if self.state.get(f) != st:
                src, dst = os.path.join(self.base, "build", f), os.path.join(build, f)
                # Replaced, not written into: a binary still running (a
                # grader a script left behind) cannot be opened for writing.
                os.remove(dst)
                if os.path.exists(src):
                    shutil.copy2(src, dst)

    def run(self, m, src, suites, bounds):
        path = os.path.join(self.path, m.file)
        try:
            with open(path, "w") as fh:
                fh.write(m.apply(src))
            targets = "build/tests/unit_tests"
            if any(s.startswith("sh:") for s in suites):
                targets += " build/grader"
            rc, out = sh(f"make -s {targets}", self.path, 600, test_env())
            if rc != 0:
                return "STILLBORN", "does not compile"
            if "warning:" in out:
                return "STILLBORN", "compiles with a warning: " + \
                    next(l for l in out.splitlines() if "warning:" in l).strip()[:160]
            if not suites:      # it compiles cleanly, and no test goes there
                return "SURVIVED", "no suite runs this line"
            for s in suites:
                rc, out = sh(suite_cmd(s), self.path, bounds[s], test_env())
                if rc is None:
                    return "KILLED", f"{s} (ran past {bounds[s]:.0f} s)"
                if rc != 0:
                    # Check: file:line:F:tcase:test:iteration: message
                    failed = [l.split(":")[4] for l in out.splitlines()
                              if (":F:" in l or ":E:" in l) and l.count(":") >= 5]
                    what = ", ".join(failed[:3]) if failed else f"exit {rc}"
                    return "KILLED", f"{s}: {what}"
            return "SURVIVED", ""
        finally:
            reap(self.path)
            self.restore(m.file)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", help="sources to mutate (default: every file the map covers)")
    ap.add_argument("--sample", type=int, default=500, help="mutants to run, 0: all (default 500)")
    ap.add_argument("--seed", type=int, default=16, help="the sample's seed (default 16: see tests/tests.mk)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="mutants at once")
    ap.add_argument("--ids", help="run exactly the mutant ids in this file")
    ap.add_argument("--coverage", action="store_true",
                    help="with --ids: still run only the suites that execute each line "
                         "(worth its setup for many ids, such as a run's survivors)")
    ap.add_argument("--expect-caught", action="store_true",
                    help="fail if one of --ids survives (CI)")
    ap.add_argument("--list", action="store_true", help="list the mutants, run none")
    ap.add_argument("--named", action="store_true",
                    help="run the hand-written bugs of tests/mutate/named.txt; each must be caught")
    ap.add_argument("--no-coverage", action="store_true",
                    help="run every suite of the map for each mutant, not only those that run its line")
    ap.add_argument("--rescore", metavar="RESULTS",
                    help="print the table of a past run's results file, leaving out the "
                         "mutants equivalent.txt lists now")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "mutate", "last.txt"))
    ap.add_argument("--map", default=os.path.join(HERE, "suites.map"))
    ap.add_argument("--equivalent", default=os.path.join(HERE, "equivalent.txt"))
    a = ap.parse_args()

    cover = read_map(a.map)
    equiv = read_ids(a.equivalent)
    if a.rescore:
        return rescore(a, equiv)
    files = [os.path.relpath(os.path.abspath(f), ROOT) for f in a.files] or \
        [f for f, s in cover.items() if s]
    for f in files:
        if f not in cover:
            sys.exit(f"mutate: {f} is not in {os.path.relpath(a.map, ROOT)}: say which suites cover it")
        if not cover[f]:
            sys.exit(f"mutate: {f}: no suite covers it on a CPU ({os.path.relpath(a.map, ROOT)})")

    srcs, every = {}, []
    if a.named:
        pool, stale = read_named(os.path.join(HERE, "named.txt"), srcs)
        for st in stale:
            print(f"mutate: STALE named mutant (its text is gone): {st}")
        for m in pool:
            if not cover.get(m.file):
                sys.exit(f"mutate: {m.file}: not in {os.path.relpath(a.map, ROOT)}")
        if a.list:
            for m in pool:
                print(f"{m.id}  {m.file}:{m.lineno}")
            return 0
        print(f"mutate: {len(pool)} named mutants, {a.jobs} at a time", flush=True)
        a.expect_caught = True
        rc = run(a, pool, srcs, cover)
        return rc or (1 if stale else 0)
    for f in files:
        srcs[f] = open(os.path.join(ROOT, f)).read()
        every += cmut.mutants(f, srcs[f], defines_only=f.endswith(".h"))
    # The sample is drawn from every mutant, and the equivalent ones are then
    # left out of it: listing a mutant as equivalent changes no other pick,
    # so runs before and after a change to equivalent.txt stay comparable.
    n_equiv = sum(1 for m in every if m.id in equiv)
    pool = every
    if a.ids:
        named, _ = read_named(os.path.join(HERE, "named.txt"), srcs)
        pool = every + named
        want = read_ids(a.ids)
        pool = [m for m in pool if m.id in want]
        missing = set(want) - {m.id for m in pool} - set(equiv)
        for mid in sorted(missing):
            print(f"mutate: STALE id (its line changed or is gone): {mid}")
        if missing and a.expect_caught:
            print("mutate: update tests/mutate/ci-mutants.txt (see its header)")
            return 1
    elif a.sample and a.sample < len(pool):
        pool = sorted(random.Random(a.seed).sample(sorted(pool, key=lambda m: m.id), a.sample),
                      key=lambda m: (m.file, m.start))
    pool = [m for m in pool if m.id not in equiv]
    if a.list:
        for m in pool:
            print(f"{m.id}  {m.file}:{m.lineno}  {m.desc}  | {m.line}")
        print(f"{len(pool)} mutants ({len(every)} in all, {n_equiv} listed equivalent)")
        return 0
    print(f"mutate: {len(pool)} mutants of {len(files)} files ({len(every)} in all, "
          f"{n_equiv} listed equivalent), {a.jobs} at a time", flush=True)
    return run(a, pool, srcs, cover)


def run(a, pool, srcs, cover):
    tmp = tempfile.mkdtemp(prefix="mutate-")
    base = os.path.join(tmp, "base")
    try:
        copy_tree(base)
        # The tree's own build products, times kept: make then rebuilds only
        # what is out of date (CI has just built everything).
        for top in PRODUCTS:
            src = os.path.join(ROOT, "build", top)
            dst = os.path.join(base, "build", top)
            if os.path.isdir(src):
                shutil.copytree(src, dst, symlinks=True)
            elif os.path.isfile(src):
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copy2(src, dst)
        t0 = time.time()
        rc, out = sh(f"make -s -j{a.jobs} build/tests/unit_tests build/grader", base, 1200,
                     test_env())
        if rc != 0:
            print(out[-3000:])
            print("mutate: the unmutated tree does not build")
            return 1
        print(f"mutate: built in {time.time() - t0:.0f} s", flush=True)
        need = sorted({s for m in pool for s in cover[m.file]})
        took, cov = {}, None
        # Coverage pays for itself over many mutants; the named ones and a
        # list of ids (CI's) are few and mostly caught by the first suite.
        if not (a.no_coverage or a.named or (a.ids and not a.coverage)):
            t0 = time.time()
            cov = coverage(os.path.dirname(base), base, need, sorted({m.file for m in pool}),
                           a.jobs, took)
            if cov == "FAILED":
                return 1
            print(f"mutate: which suite runs which line: {time.time() - t0:.0f} s"
                  + ("" if cov else " (no coverage build: every suite of the map runs)"),
                  flush=True)
        for s in need:
            if s in took:
                continue
            if a.ids and not a.coverage:    # CI: make test ran it; a fixed bound
                took[s] = 30.0
                continue
            t0 = time.time()
            rc, out = sh(suite_cmd(s), base, 900, test_env())
            took[s] = time.time() - t0
            if rc != 0:
                print(out[-3000:])
                print(f"mutate: {s} fails without any mutant: fix the suite first")
                return 1
        # the coverage build's times are a little longer than the real ones
        bounds = {s: 3 * took[s] + 10 for s in need}
        if a.ids:
            print(f"mutate: each suite bounded at {bounds[need[0]]:.0f} s" if need else "",
                  flush=True)
        else:
            print("mutate: suites alone: " + ", ".join(f"{s} {took[s]:.1f} s" for s in need),
                  flush=True)
        state = snapshot(os.path.join(base, "build"))
        workers = []
        for i in range(a.jobs):
            w = os.path.join(tmp, f"w{i}")
            shutil.copytree(base, w, symlinks=True)
            workers.append(Worker(base, w, state))
        return drive(a, pool, srcs, cover, workers, took, bounds, cov)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def drive(a, pool, srcs, cover, workers, took, bounds, cov):
    results = {}
    killer = {k: (v.split() or [""])[0] for k, v in read_ids(a.ids).items()} if a.ids else {}
    lock = threading.Lock()
    todo = list(pool)
    t_start = time.time()

    def loop(w):
        while True:
            with lock:
                if not todo:
                    return
                m = todo.pop(0)
            suites = suites_for(m, cover, took, cov)
            first = killer.get(m.id)
            if first in suites:     # CI: the suite that caught it last time first
                suites = [first] + [s for s in suites if s != first]
            try:
                st, why = w.run(m, srcs[m.file], suites, bounds)
            except Exception as e:   # the tool's own fault: say so, go on
                st, why = "ERROR", repr(e)
            with lock:
                results[m.id] = (st, why)
                n = len(results)
                if st == "SURVIVED" or n % 25 == 0:
                    print(f"[{n}/{len(pool)} {time.time() - t_start:.0f}s] {st} {m.id} "
                          f"{m.file}:{m.lineno} {m.desc}", flush=True)

    threads = [threading.Thread(target=loop, args=(w,), daemon=True) for w in workers]
    for t in threads:
        t.start()
    try:
        for t in threads:
            while t.is_alive():
                t.join(1)
    except KeyboardInterrupt:
        with lock:
            todo.clear()        # the running mutants finish; no new one starts
        print("mutate: stopped; the mutants under way finish first", flush=True)
        for t in threads:
            t.join()
    return report(a, pool, results, time.time() - t_start)


def report(a, pool, results, secs):
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as fh:
        fh.write(f"# make mutate, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
                 f"seed {a.seed}, sample {a.sample}\n")
        for m in pool:
            st, why = results.get(m.id, ("NOT RUN", ""))
            fh.write(f"{st:9} {m.id}  {m.file}:{m.lineno} {m.desc}  {why}\n")
    surv = [m for m in pool if results.get(m.id, ("",))[0] == "SURVIVED"]
    if surv:
        print("\nSurvivors (the suite stayed green with these):")
        for m in surv:
            print(f"  {m.id}\n      {m.file}:{m.lineno} {m.desc}  | {m.line[:100]}")
    rows = {}
    for m in pool:
        st = results.get(m.id, ("NOT RUN",))[0]
        r = rows.setdefault(m.file, {"KILLED": 0, "SURVIVED": 0, "STILLBORN": 0, "NOT RUN": 0})
        r[st if st in r else "NOT RUN"] += 1
    print(f"\n{'file':30} {'run':>5} {'killed':>7} {'survived':>9} {'stillborn':>10} {'score':>7}")
    tot = {"KILLED": 0, "SURVIVED": 0, "STILLBORN": 0, "NOT RUN": 0}
    errors = [m for m in pool if results.get(m.id, ("",))[0] == "ERROR"]
    for m in errors:
        print(f"mutate: ERROR (the tool's, not the suite's) on {m.id}: {results[m.id][1]}")
    for f in sorted(rows):
        r = rows[f]
        for k in tot:
            tot[k] += r[k]
        print(line_of(f, r))
    print(line_of("total", tot))
    print(f"({secs / 60:.1f} min; results in {os.path.relpath(a.out, ROOT)})")
    if errors:
        return 1
    if a.expect_caught and surv:
        print(f"mutate: {len(surv)} mutant(s) recorded as caught survived: a test lost its teeth")
        return 1
    return 0


def rescore(a, equiv):
    rows, tot = {}, {"KILLED": 0, "SURVIVED": 0, "STILLBORN": 0, "NOT RUN": 0}
    left_out = 0
    for raw in open(a.rescore):
        if raw.startswith("#") or not raw.strip():
            continue
        st, mid = raw.split()[:2]
        if mid in equiv:
            left_out += 1
            continue
        f = mid.split(":")[0]
        r = rows.setdefault(f, {"KILLED": 0, "SURVIVED": 0, "STILLBORN": 0, "NOT RUN": 0})
        r[st if st in r else "NOT RUN"] += 1
    print(f"{'file':30} {'run':>5} {'killed':>7} {'survived':>9} {'stillborn':>10} {'score':>7}")
    for f in sorted(rows):
        for k in tot:
            tot[k] += rows[f][k]
        print(line_of(f, rows[f]))
    print(line_of("total", tot))
    print(f"({left_out} mutants of the run are listed equivalent now, and left out)")
    return 0


def line_of(name, r):
    live = r["KILLED"] + r["SURVIVED"]
    score = f"{100 * r['KILLED'] / live:.0f}%" if live else "-"
    return (f"{name:30} {live + r['STILLBORN']:>5} {r['KILLED']:>7} {r['SURVIVED']:>9} "
            f"{r['STILLBORN']:>10} {score:>7}")


if __name__ == "__main__":
    sys.exit(main())
