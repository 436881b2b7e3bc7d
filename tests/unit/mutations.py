#!/usr/bin/env python3
"""mutations.py: does the CPU suite catch a broken grading rule?

    python3 tests/unit/mutations.py          every mutation
    python3 tests/unit/mutations.py 3 8      only mutations 3 and 8

Each mutation breaks one rule of the grading pipeline in the source (skips
the poison, shifts a guard scan by a byte, flips the verdict, stops rotating
the timing sets, ...), rebuilds the unit tests, runs the pipeline, cheats
and limits suites, and says which tests failed: every mutation must be
CAUGHT. The source is restored after each one (also on Ctrl-C), and the
tests are rebuilt from it at the end. Takes a few minutes; not part of
make test, since it edits and rebuilds the tree. Run it after changing
grade_*.c, buffers.c or the tests of test_pipeline.c / test_cheats.c.
"""
import os, subprocess, sys
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
M = [
 ("skip the poison fill", "grader/grade/grade_run.c", "    dev_set_poison(g->D, d, I);\n", ""),
 ("poison only untimed launches", "grader/grade/grade_run.c", "    dev_set_poison(g->D, d, I);\n", "    if (!timed)\n        dev_set_poison(g->D, d, I);\n"),
 ("guard scan starts one byte late", "grader/grade/buffers.c", "for (size_t i = 0; i < GUARD_BYTES; i++) {", "for (size_t i = 1; i < GUARD_BYTES; i++) {"),
 ("guard scan ends one byte early", "grader/grade/buffers.c", "for (size_t i = 0; i < GUARD_BYTES; i++) {", "for (size_t i = 0; i < GUARD_BYTES - 1; i++) {"),
 ("after-guard read one byte further", "grader/grade/buffers.c", "D->download(g, (char *)a->ptr + a->bytes, GUARD_BYTES);", "D->download(g, (char *)a->ptr + a->bytes + 1, GUARD_BYTES - 1);"),
 ("before-guard offset off by one", "grader/grade/buffers.c", "dmg.offset = at - GUARD_BYTES;", "dmg.offset = at - GUARD_BYTES + 1;"),
 ("flip the final verdict", "grader/grade/grade_time.c", "g->r->clears_bar = g->ex->bar == BAR_NONE || clears;", "g->r->clears_bar = g->ex->bar == BAR_NONE || !clears;"),
 ("flip the plain rule (>= to <)", "grader/grade/grade_time.c", "m->measure >= m->bar : m->measure <= m->bar", "m->measure < m->bar : m->measure <= m->bar"),
 ("no rotation of input sets", "grader/grade/grade_time.c", "int s = S->n % N_SETS;", "int s = 0;"),
 ("verify only the first timing set", "grader/grade/grade_time.c", "    for (int j = 0; j < N_VARIANTS; j++)\n        for (int s = 0; s < N_SETS; s++) {", "    for (int j = 0; j < N_VARIANTS; j++)\n        for (int s = 0; s < 1; s++) {"),
 ("no input check after correctness runs", "grader/grade/grade_run.c", "            check_inputs(g, v, &I, &d, when);\n", ""),
 ("no input check after timing", "grader/grade/grade_time.c", "        check_inputs(g, V_STUDENT, &T->I[s], &T->d[V_STUDENT][s], when[s]);\n", ""),
 ("no input check at all", "grader/grade/buffers.c", "            if (!memcmp(got, want, n))\n                continue;", "            continue;"),
 ("remove the floor", "grader/grade/grade_time.c", "    check_physical_floor(g, bytes, m.ms[V_STUDENT]);\n", ""),
 ("floor a thousand times too low", "grader/grade/grade_verdict.c", "if (!(ms < floor))", "if (!(ms < floor * 1e-3))"),
 ("constants uploaded once only", "grader/grade/grade_run.c", "        g->D->upload(at, C->data, C->bytes);", "        static int once;\n        if (!once++)\n            g->D->upload(at, C->data, C->bytes);"),
 ("no remeasuring near the bar", "grader/grade/grade_time.c", "        if (v != 0 || g->r->remeasured >= EXTRA_MEASURES", "        if (1 || g->r->remeasured >= EXTRA_MEASURES"),
 ("floor without FLOOR_MARGIN", "grader/core/stats.c", "(copy_gbps * 1e9 * FLOOR_MARGIN)", "(copy_gbps * 1e9)"),
 ("no guard check after timing", "grader/grade/grade_time.c", "            check_guards(g, v, &T->I[s], &T->d[v][s], when[s]);\n", ""),
]
sel = sys.argv[1:]
missed = 0
for i,(name,f,old,new) in enumerate(M):
    if sel and str(i) not in sel: continue
    src = open(f).read()
    if old not in src:
        print(f"[{i}] {name}: STALE: {f} no longer has the text it changes; update the list")
        missed += 1
        continue
    open(f,'w').write(src.replace(old,new,1))
    try:
        b = subprocess.run("make -s build/tests/unit_tests 2>&1", shell=True, capture_output=True, text=True)
        if b.returncode:
            print(f"[{i}] {name}: BUILD FAILED\n{b.stdout[-800:]}")
            missed += 1
            continue
        out = ""
        for s in ("pipeline","cheats","limits"):
            r = subprocess.run(f"CK_RUN_SUITE={s} build/tests/unit_tests", shell=True, capture_output=True, text=True)
            out += r.stdout
        fails = [l.split(':')[4] if l.count(':')>=5 else l for l in out.splitlines() if ':F:' in l or ':E:' in l]
        print(f"[{i}] {name}: {'CAUGHT by ' + ', '.join(fails) if fails else 'NOT CAUGHT'}")
        missed += not fails
    finally:
        open(f,'w').write(src)
subprocess.run("make -s build/tests/unit_tests", shell=True)
sys.exit(1 if missed else 0)
