#!/usr/bin/env python3
"""ncu_counts_table.py: Nsight Compute's memory counts against the PTX
simulator's, kernel by kernel (issue 28 item 3; tests/gpu/ncu-counts-run.sh).

    ncu_counts_table.py SIM_TXT NCU_CSV [--max-diffs=N]

SIM_TXT: lines "### lessonN/name" then the simulator's "sim-counts VARIANT
SIZE metric=value ..." lines (grader profile-one --no-gpu --profile-sim-size).
NCU_CSV: "### lessonN/name" then ncu's --csv log of the same launches, one
per variant in the order baseline, student (the stub), solution (IDs 0, 1, 2).

Prints every differing cell with both numbers (at most N with
--max-diffs), then one table, last: a row per kernel, a column per count,
each cell "same" when ncu and the simulator agree, else ncu/sim as a ratio
("x1.25"), "-" where neither counted anything, "?" where ncu gave no value;
then how many counts are the same. Exit status 0 (the table is the result).

    ncu_counts_table.py --selftest    the table of a made-up pair of files
"""
import csv
import io
import sys

VARIANTS = ["baseline", "student", "solution"]
SHOWN = ["stub", "baseline", "solution"]   # the row labels, in the order printed

# (column head, metric); the metric names are Nsight Compute's.
COLUMNS = [
    ("ld sect", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("ld req", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    ("st sect", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
    ("st req", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
    # no "cpa sect" column (l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts):
    # ncu 2025.3.1 does not know that metric and counts LDGSTS's global reads
    # in the "ld" columns, as the simulator's totals do (grade/profile.c)
    ("sh ld wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
    ("sh ld cf", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
    ("sh st wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
    ("sh st cf", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
    ("sh ld ins", "smsp__inst_executed_op_shared_ld.sum"),
]


def sections(text):
    """{"lessonN/name": [lines]} from a file of '### lessonN/name' sections."""
    out, cur = {}, None
    for line in text.splitlines():
        if line.startswith("### "):
            cur = line[4:].strip()
            out.setdefault(cur, [])
        elif cur is not None:
            out[cur].append(line)
    return out


def read_sim(lines):
    """{variant: {metric: value}}, and the size simulated."""
    got, size = {}, None
    for line in lines:
        w = line.split()
        if len(w) < 3 or w[0] != "sim-counts":
            continue
        size = w[2]
        got[w[1]] = {k: float(v) for k, v in (x.split("=", 1) for x in w[3:])}
    return got, size


def read_ncu(lines):
    """{variant: {metric: value}} from ncu's CSV (ID 0, 1, 2 = VARIANTS)."""
    rows = [l for l in lines if l.startswith('"')]
    got = {}
    header = None
    for r in csv.reader(io.StringIO("\n".join(rows))):
        if r and r[0] == "ID":
            header = r
            continue
        if not r or not r[0].isdigit():
            continue
        i = int(r[0])
        if i >= len(VARIANTS):
            continue
        if header and "Metric Name" in header:
            name, value = r[header.index("Metric Name")], r[header.index("Metric Value")]
        else:
            name, value = r[-3], r[-1]
        try:
            v = float(value.replace(",", ""))
        except ValueError:
            continue
        got.setdefault(VARIANTS[i], {})[name] = v
    return got


def cell(n, s):
    """One count: "same", "xR" (ncu/sim), "-" (neither counted any), "?"
    (ncu gave no value, the simulator counted some), "no sim", "sim 0"."""
    if n is None and s is None:
        return "-"
    if n is None:
        return "-" if s == 0 else "?"
    if s is None:
        return "-" if n == 0 else "no sim"
    if n == s:
        return "-" if n == 0 else "same"
    if s == 0:
        return "sim 0"
    return "x%.2f" % (n / s)


def table(sim_text, ncu_text, max_diffs=None):
    sims, ncus = sections(sim_text), sections(ncu_text)
    names = sorted(set(sims) | set(ncus),
                   key=lambda e: (int(e.split("/")[0][6:]), e) if e.startswith("lesson") else (99, e))
    heads = [h for h, _ in COLUMNS]
    rows, diffs = [], []
    for e in names:
        sim, size = read_sim(sims.get(e, []))
        ncu = read_ncu(ncus.get(e, []))
        for label in SHOWN:
            v = "student" if label == "stub" else label
            s, n = sim.get(v), ncu.get(v)
            cells = []
            for h, m in COLUMNS:
                sv = s.get(m) if s else None
                nv = n.get(m) if n else None
                c = cell(nv, sv) if (s or n) else "not run"
                cells.append(c)
                if c not in ("same", "-", "not run"):
                    diffs.append("%s %s %s: ncu %s, sim %s" % (e, label, m,
                                 "?" if nv is None else "%.0f" % nv,
                                 "?" if sv is None else "%.0f" % sv))
            rows.append(["%s %s" % (e, label), size or "?"] + cells)
    w = [max(len(x) for x in col) for col in zip(["kernel", "size"] + heads, *rows)]
    line = lambda r: " ".join(x.ljust(w[0]) if i == 0 else x.rjust(w[i]) for i, x in enumerate(r))
    out = []
    if diffs:
        shown = diffs if max_diffs is None else diffs[:max_diffs]
        out.append("Where they differ:")
        out += ["  " + d for d in shown]
        if len(shown) < len(diffs):
            out.append("  ... and %d more (table.txt lists them all)" % (len(diffs) - len(shown)))
    out.append("Memory counts, Nsight Compute against the PTX simulator, one launch each "
               "at the exercise's largest sim size (same: equal; xR: ncu/sim):")
    out.append(line(["kernel", "size"] + heads))
    out += [line(r) for r in rows]
    same = sum(r[2:].count("same") for r in rows)
    counted = sum(len([c for c in r[2:] if c not in ("-", "not run")]) for r in rows)
    out.append("%d of %d counts the same" % (same, counted))
    return "\n".join(out) + "\n"


SELFTEST_SIM = """### lesson2/mapping
sim-counts baseline 777 l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum=100 l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum=25
sim-counts student 777 l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum=800 l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum=25
sim-counts solution 777 l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum=100 l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum=25 l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum=0
"""
SELFTEST_NCU = '''### lesson2/mapping
==PROF== Connected to process 1
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"
"0","1","grader","h","k","1","7","(256, 1, 1)","(4, 1, 1)","0","9.0","Command line profiler metrics","l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum","sector","100"
"0","1","grader","h","k","1","7","(256, 1, 1)","(4, 1, 1)","0","9.0","Command line profiler metrics","l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum","request","25"
"1","1","grader","h","k","1","7","(256, 1, 1)","(4, 1, 1)","0","9.0","Command line profiler metrics","l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum","sector","1,000"
"1","1","grader","h","k","1","7","(256, 1, 1)","(4, 1, 1)","0","9.0","Command line profiler metrics","l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum","request","25"
"2","1","grader","h","k","1","7","(256, 1, 1)","(4, 1, 1)","0","9.0","Command line profiler metrics","l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum","sector","100"
"2","1","grader","h","k","1","7","(256, 1, 1)","(4, 1, 1)","0","9.0","Command line profiler metrics","l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum","request","25"
'''


def selftest():
    t = table(SELFTEST_SIM, SELFTEST_NCU)
    sys.stdout.write(t)
    rows = {l.split()[1]: l for l in t.splitlines() if l.startswith("lesson2/mapping")}
    ok = ("same" in rows["baseline"] and "x1.25" in rows["stub"] and
          "lesson2/mapping stub l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum: ncu 1000, sim 800"
          in t and "4 of 4 counts the same" not in t and "5 of 6 counts the same" in t)
    print("selftest:", "ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1:] == ["--selftest"]:
        sys.exit(selftest())
    args = [a for a in sys.argv[1:] if not a.startswith("--max-diffs=")]
    most = [int(a.split("=")[1]) for a in sys.argv[1:] if a.startswith("--max-diffs=")]
    if len(args) != 2:
        sys.exit(__doc__)
    sys.stdout.write(table(open(args[0]).read(), open(args[1]).read(),
                           most[0] if most else None))
