#!/usr/bin/env python3
"""latency_table.py: the bytes-in-flight table of tests/gpu/latency-run.sh.

    python3 tests/gpu/latency_table.py sol-1.json [sol-2.json ...] -- stub-1.json [...]

Reads the grader's JSON reports of the latency-bound lessons (the reference
solutions, then the untouched stubs, each graded one or more times) and
prints, per exercise and version: the outcome(s), the effective bandwidth
(median over the runs), its share of the copy bandwidth, the bytes in
flight per SM it sustained (bandwidth x latency / SMs, as the report
shows it), what the copy bandwidth needs, and what the lesson 1 model
predicts from the code's structure:

    bytes in flight per SM = threads resident per SM x bytes each thread
                             asks to have in flight (the loads it issues
                             before it needs the first), over the share of
                             the traffic that is reads;
    bandwidth              = min(copy bandwidth, that x SMs / latency).

The per-thread figures are read off the kernels (see BYTES_PER_THREAD); a
measured bandwidth far below the model means the kernel does not really
keep those loads in flight (a ring in local memory, a store that waits for
its load), far above it means the model's latency is too long for it
(loads that hit L2).
"""
import json
import statistics
import sys


def knob(rec, name, default=None):
    return rec.get("knobs", {}).get(name, default)


def threads_per_sm(rec):
    """Threads resident per SM during the timed launch."""
    lesson = rec["lesson"]
    if lesson == 1:
        res = (rec.get("resources") or {}).get("student") or {}
        block = knob(rec, "BLOCKDIMX", 256)          # register_hog: 256
        return res.get("blocks_per_sm", 0) * block
    if lesson == 4:
        return 256                                   # one 256-thread block per SM
    return knob(rec, "BLOCKDIMX", 128) * knob(rec, "BLOCKS_PER_SM", 1)


def bytes_per_thread(rec, run):
    """Bytes each thread asks to have in flight: (stub, solution)."""
    p = knob(rec, "PDIST", 1)
    l2 = knob(rec, "L2DIST", 0)
    table = {
        "shared_hog": (4, 4),                        # one float per thread
        "register_hog": (4, 4),
        "unroll": (4, 4 * knob(rec, "UNROLL", 8)),
        "vector_loads": (4, 16),                     # one float4
        "batched_regs": (8, 32),                     # a batch of 4 doubles
        "batched_smem": (8, 8 * p),
        # the ring in local memory: each load waits for its st.local, one at a time
        "rolling_direct": (8, 8),
        "rolling_regs": (8, 8 * p),
        # synchronous loads into shared memory: each store waits for its load,
        # so the ring never has a refill in flight (lesson 8)
        "rolling_smem": (8, 8),
        # the stub's ring is filled by synchronous loads: one at a time
        "rolling_async": (8, 8 * p),
        "padded": (8 * p, 8 * p),                    # the stub's ring is asynchronous
        "index_major": (8 * p, 8 * p),
        "l2_prefetch": (8, 8 * (1 + l2)),            # the load and L2DIST prefetches
        "short_ring": (8 * p, 8 * (p + l2)),
        "bulk_ring": (8 * 8, 8 * knob(rec, "STAGES", 4) * knob(rec, "STAGE_ITERS", 4)),
    }
    pair = table.get(rec["name"])
    if pair is None:
        return None
    return pair[1] if run == "sol" else pair[0]


def read_share(rec):
    """Reads over all bytes moved: lesson 1's kernels write as much as they read."""
    return 0.5 if rec["lesson"] == 1 else 1.0


def load(paths):
    recs = []
    for path in paths:
        try:
            with open(path) as f:
                recs.extend(json.load(f)["exercises"])
        except (OSError, ValueError, KeyError) as e:
            print(f"# {path}: not read ({e})")
    return recs


def kb(x):
    return "-" if x is None else f"{x / 1024:.1f}K"


def med(xs):
    xs = [x for x in xs if isinstance(x, (int, float))]
    return statistics.median(xs) if xs else None


def rows(recs, run):
    by = {}
    for r in recs:
        by.setdefault((r["lesson"], r["name"]), []).append(r)
    out = []
    for (lesson, name), rs in sorted(by.items()):
        r0 = rs[0]
        gbps = med([r.get("student_gbps") for r in rs])
        copy = med([r.get("copy_gbps") for r in rs])
        lat = med([r.get("latency_ns") for r in rs])
        sms = r0.get("sm_count") or 0
        have = med([r.get("in_flight_bytes_per_sm") for r in rs])
        need = med([r.get("in_flight_needed_per_sm") for r in rs])
        share = med([r.get("in_flight_share") for r in rs])
        bpt = bytes_per_thread(r0, run)
        model = model_gbps = None
        if bpt is not None and lat and sms and copy:
            model = threads_per_sm(r0) * bpt / read_share(r0)
            model_gbps = min(copy, model * sms / lat)
        outcomes = ",".join(sorted({r["outcome"] for r in rs}))
        out.append({
            "id": f"lesson{lesson}/{name}", "run": run, "outcomes": outcomes,
            "gbps": gbps, "pct": 100 * gbps / copy if gbps and copy else None,
            "have": have, "need": need, "share": share,
            "model": model, "model_gbps": model_gbps,
            "ratio": gbps / model_gbps if gbps and model_gbps else None,
        })
    return out


def fmt(x, spec, none="-"):
    return none if x is None else format(x, spec)


def main(argv):
    if "--" in argv:
        cut = argv.index("--")
        sol, stub = argv[:cut], argv[cut + 1:]
    else:
        sol, stub = argv, []
    recs_sol, recs_stub = load(sol), load(stub)
    everything = recs_sol + recs_stub
    lats = [r["latency_ns"] for r in everything if isinstance(r.get("latency_ns"), (int, float))]
    copies = [r["copy_gbps"] for r in everything if isinstance(r.get("copy_gbps"), (int, float))]
    gpu = next((r.get("gpu") for r in everything if r.get("gpu")), "?")
    sms = next((r.get("sm_count") for r in everything if r.get("sm_count")), 0)
    print(f"GPU: {gpu}, {sms} SMs")
    if lats:
        print(f"Latency (the grader's pointer chase, one per graded exercise, n={len(lats)}): "
              f"median {statistics.median(lats):.0f} ns, min {min(lats):.0f}, max {max(lats):.0f}")
    else:
        print("Latency: none measured (no latency_ns in the reports)")
    if copies:
        print(f"Copy bandwidth (n={len(copies)}): median {statistics.median(copies):.0f} GB/s, "
              f"min {min(copies):.0f}, max {max(copies):.0f}")
    if lats and copies and sms:
        need = statistics.median(copies) * statistics.median(lats) / sms
        print(f"Full bandwidth needs {need / 1024:.1f} KB in flight per SM "
              f"({statistics.median(copies):.0f} GB/s x {statistics.median(lats):.0f} ns / {sms})")
    print()
    head = ("exercise", "run", "outcome", "GB/s", "%bw", "flight/SM", "needed", "share",
            "model/SM", "modelGB/s", "meas/model")
    print("%-24s %-4s %-13s %6s %4s %9s %7s %5s %8s %9s %10s" % head)
    for r in rows(recs_sol, "sol") + rows(recs_stub, "stub"):
        print("%-24s %-4s %-13s %6s %4s %9s %7s %5s %8s %9s %10s" % (
            r["id"], r["run"], r["outcomes"][:13], fmt(r["gbps"], ".0f"),
            fmt(r["pct"], ".0f"), kb(r["have"]), kb(r["need"]),
            fmt(None if r["share"] is None else 100 * r["share"], ".0f"),
            kb(r["model"]), fmt(r["model_gbps"], ".0f"), fmt(r["ratio"], ".2f")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
