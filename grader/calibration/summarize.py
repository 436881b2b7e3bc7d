#!/usr/bin/env python3
"""summarize.py DIR DATE [NOTES]: the calibration table (markdown) from a device run's
repeat/sol-*.json and repeat/stub-*.json, as tests/gpu/device-run.sh writes
them; NOTES, a markdown file, is appended. Maintainers' tool; the course itself never needs it."""
import json,glob,statistics as st,collections
import sys
D=sys.argv[1]
runs=sorted(glob.glob(D+'/sol-*.json'),key=lambda p:int(p.split('-')[-1].split('.')[0]))
stubs=[json.load(open(p))['exercises'] for p in sorted(glob.glob(D+'/stub-*.json'))]
rows=collections.OrderedDict()
for p in runs:
    for e in json.load(open(p))['exercises']:
        rows.setdefault((e['lesson'],e['name']),[]).append(e)
copy=[e['copy_gbps'] for es in rows.values() for e in es if e.get('copy_gbps')]
out=[]
out.append("# Calibration: NVIDIA H100 80GB HBM3, "+sys.argv[2]+"\n")
out.append("Measured through the device tool on one NVIDIA H100 80GB HBM3 (driver 580.159.04,\n"
"compute capability 9.0, 132 SMs, 50 MB L2), clocks as found. Each row: ten consecutive\n"
"`build/grader check all --solutions` runs (`repeat/sol-*.json`), and "+str(len(stubs))+" gradings of the\n"
"untouched stubs (`repeat/stub-*.json`). Times are medians of interleaved launches with the L2\n"
"flushed before each; the bar is computed in each run from that run's reference.\n")
out.append(f"Copy bandwidth measured by the grader (device-to-device copy, read + write): "
           f"{min(copy):.0f}-{max(copy):.0f} GB/s over {len(copy)} measurements.\n")
out.append("| exercise | baseline ms | solution ms | solution speedup | bar (kind) | solution verdicts | untouched stub |")
out.append("| --- | ---: | ---: | ---: | --- | --- | --- |")
def rng(v,fmt):
    # fmt is "PREFIX{:spec}SUFFIX": show one number, or "a-b" inside one prefix/suffix
    pre,rest=fmt.split("{",1); spec,suf=rest.split("}",1)
    a,b=("{"+spec+"}").format(min(v)),("{"+spec+"}").format(max(v))
    return pre+(a if a==b else a+"-"+b)+suf
for (l,n),es in rows.items():
    kind=es[0]['bar_kind']
    b=st.median(e['baseline_ms'] for e in es); s=st.median(e['solution_ms'] for e in es)
    sp=rng([e['solution_speedup'] for e in es],"{:.2f}x")
    if kind=='speedup': bar=rng([e['bar'] for e in es],">= {:.2f}x")+" speedup"
    elif kind=='bandwidth': bar=rng([100*e['bar']/e['copy_gbps'] for e in es],">= {:.0f}%")+" of copy bw (solution "+rng([100*e['measure']/e['copy_gbps'] for e in es],"{:.0f}%")+")"
    else: bar=rng([e['bar'] for e in es],"<= {:.2f}x")+" the reference's time (solution "+rng([e['measure'] for e in es],"{:.3f}x")+")"
    v=collections.Counter(e['outcome'] for e in es)
    verd=", ".join(f"{k} {c}/{len(es)}" for k,c in v.items())
    if es[0]['demo']: verd+=" (demo: expected to fail)"
    st_out=[]
    for sr in stubs:
        for e in sr:
            if (e['lesson'],e['name'])==(l,n):
                m=e.get('measure')
                if m is None: st_out.append(e['outcome'])
                elif kind=='bandwidth': st_out.append(f"{e['outcome']} ({100*m/e['copy_gbps']:.0f}% bw)")
                elif kind=='speedup': st_out.append(f"{e['outcome']} ({m:.2f}x)")
                else: st_out.append(f"{e['outcome']} ({m:.2f}x ref time)")
    # The stub's verdicts, each distinct one with how many runs gave it.
    sc=collections.Counter(o.split(" (")[0] for o in st_out)
    ms=[o.split(" (",1)[1].rstrip(")") for o in st_out if " (" in o]
    stub_txt="; ".join(f"{k} {c}/{len(st_out)}" for k,c in sc.items())
    if ms: stub_txt+=" ("+(ms[0] if len(set(ms))==1 else min(ms)+" to "+max(ms))+")"
    out.append(f"| lesson{l}/{n} | {b:.3f} | {s:.3f} | {sp} | {bar} | {verd} | {stub_txt} |")
if len(sys.argv) > 3:
    out.append("\n"+open(sys.argv[3]).read())
print("\n".join(out))
