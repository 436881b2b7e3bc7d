#!/usr/bin/env python3
"""l11b_placements.py OUTDIR: lesson 11b's reference solution with its L2
prefetch moved to each place in the loop body (issue 26: a learner's
top-of-loop prefetch was SLOW, the reference's place PASS). Writes
OUTDIR/p<k>/lesson11/short_ring.cu for k = 0..5:
  p0 before the wait, p1 after the wait, p2 after the read of the slot,
  p3 after the copy (before the commit), p4 after the commit (the
  reference), p5 after the work (end of the loop body).
Run by run-r5b.sh; each is graded three times on the GPU."""
import os, sys

src = open(os.path.join(os.path.dirname(__file__), "../../../../solutions/lesson11/short_ring.cu")).read()
pre = "        if (issues && i < last_l2)\n            prefetch_l2(&chunk[i + L2DIST * BLOCKDIMX]);\n"
assert pre in src
body = src.replace(pre, "")
anchors = [
    "        __pipeline_wait_prior(PDIST - 1);\n",          # p0: insert before
    "        __pipeline_wait_prior(PDIST - 1);\n",          # p1: after
    "        const double x = SLOT(k);\n",                  # p2: after
    "sizeof(double));\n        __pipeline_commit();\n",   # p3: between copy and commit
    "        __pipeline_commit();\n        acc",            # p4: after commit
    "        acc += work(x);\n",                            # p5: after
]
for k, a in enumerate(anchors):
    # the loop's copy of the anchor is the last one in the file
    at = body.rindex(a)
    if k == 0:
        out = body[:at] + pre + body[at:]
    elif k == 3:
        cut = at + len("sizeof(double));\n")
        out = body[:cut] + pre + body[cut:]
    elif k == 4:
        cut = at + len("        __pipeline_commit();\n")
        out = body[:cut] + pre + body[cut:]
    else:
        out = body[:at + len(a)] + pre + body[at + len(a):]
    d = os.path.join(sys.argv[1], f"p{k}", "lesson11")
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "short_ring.cu"), "w").write(out)
