#!/usr/bin/env bash
# probe-new-lessons.sh: the GPU experiments that decide the design of lessons
# 11-14, the padded forms of lessons 6 and 8, and how much of lesson 7's lead
# over lesson 9 is registers and how much interleaved exp() chains.
#
#   bash grader/measure/probe-new-lessons.sh OUTDIR
#
# From the course's top folder, on a machine with an NVIDIA GPU of compute
# capability 9.0 (H100) and nvcc (CUDA_HOME, default /usr/local/cuda). About
# a minute: compiling (in parallel) takes about 10 s, every probe a few
# seconds; each has a time limit, 4 minutes in all if every one of them hung.
# Each probe is a standalone program in grader/measure/probes/ (its header says
# what it measures and what its columns mean); each runs in its own process
# under a time limit, so one that fails or hangs costs only its own rows.
#
# Writes to OUTDIR (at most 7 files):
#   l11.tsv    L2 prefetch on the model loop            (probes/l11_l2_prefetch.cu)
#   l12.tsv    bulk copies against lesson 9's ring      (probes/l12_bulk_copy.cu)
#   l13.tsv    constant memory and the read-only path   (probes/l13_constant.cu)
#   l14.tsv    pageable/pinned copies, overlap          (probes/l14_transfers.cu)
#   rings.tsv  serial vs interleaved rings; padded lessons 6, 8, 9 (probes/rings.cu)
#   log.txt    the GPU, compiler output, every probe's stderr, exit status and time
#   summary.txt the table printed at the end
set -u
OUT=${1:?usage: bash grader/measure/probe-new-lessons.sh OUTDIR}
mkdir -p "$OUT" || exit 1
OUT=$(cd "$OUT" && pwd)
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC=$CUDA_HOME/bin/nvcc
SRC=grader/measure/probes
BIN=build/probes
LOG=$OUT/log.txt
mkdir -p "$BIN"
: > "$LOG"
for f in l11.tsv l12.tsv l13.tsv l14.tsv rings.tsv summary.txt; do : > "$OUT/$f"; done

say() { echo "$*" | tee -a "$LOG"; }

say "# probe-new-lessons.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
{ command -v nvidia-smi >/dev/null &&
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
    --format=csv 2>&1; } >> "$LOG"
"$NVCC" --version 2>&1 | tail -n 2 >> "$LOG"

# Compile all probes at once; a probe that does not compile is reported and
# skipped, the others still run.
declare -A built
for p in l11_l2_prefetch:l11 l12_bulk_copy:l12 l13_constant:l13 l14_transfers:l14 rings:rings; do
  src=${p%%:*} exe=${p##*:}
  ( "$NVCC" -O3 -std=c++17 -arch=sm_90 -o "$BIN/$exe" "$SRC/$src.cu" > "$BIN/$exe.cc.log" 2>&1
    echo $? > "$BIN/$exe.cc.rc" ) &
done
wait
for exe in l11 l12 l13 l14 rings; do
  rc=$(cat "$BIN/$exe.cc.rc" 2>/dev/null || echo 1)
  if [ "$rc" = 0 ]; then built[$exe]=1; else built[$exe]=0; fi
  say "compile $exe: exit $rc"
  cat "$BIN/$exe.cc.log" >> "$LOG"
done

# run NAME TSV LIMIT ARGS...: one probe process, rows appended to TSV.
run() {
  local exe=$1 tsv=$2 limit=$3
  shift 3
  if [ "${built[$exe]}" != 1 ]; then
    say "run $exe $*: SKIPPED (did not compile)"
    echo "# $exe $*: skipped, did not compile (log.txt)" >> "$OUT/$tsv"
    return
  fi
  local t0=$(date +%s%N)
  timeout -k 5 "$limit" "$BIN/$exe" "$@" >> "$OUT/$tsv" 2>> "$LOG"
  local rc=$?
  local t=$(( ($(date +%s%N) - t0) / 1000000 ))
  case $rc in
    0) say "run $exe $*: ok (${t} ms)";;
    124|137) say "run $exe $*: TIMED OUT after ${limit}s (rows so far kept)"
             echo "# $exe $*: timed out after ${limit}s" >> "$OUT/$tsv";;
    *) say "run $exe $*: exit $rc (${t} ms; see log.txt)"
       echo "# $exe $*: exit $rc" >> "$OUT/$tsv";;
  esac
}

# Safe probes first; the mbarrier protocols of l12 last. Each takes a few
# seconds; the limits (4 minutes if every probe hung) are generous.
run rings rings.tsv 30 serial
run rings rings.tsv 30 padded
run l11 l11.tsv 30
run l13 l13.tsv 30
run l14 l14.tsv 45
run l12 l12.tsv 20 ref
run l12 l12.tsv 20 ptx_fe
run l12 l12.tsv 20 cccl_fe
run l12 l12.tsv 20 cccl_sync

# ---- summary ----
# Portable awk (mawk or gawk): keys are kept in the order they first appear.
# Model rows: probe variant bps pdist dist ms speedup GBps check regs local smem
summary() {
  echo "== probe summary: $(sed -n 's/^# gpu: //p' "$OUT"/*.tsv 2>/dev/null | head -n 1)"
  echo "rows with a wrong result (BAD) or a failed launch (FAIL), if any:"
  cat "$OUT"/*.tsv | grep -v '^#' | grep -E 'BAD|FAIL|NOCOPY' | head -n 20
  echo
  echo "-- serial vs interleaved: speedup over the plain loop (bps = blocks per SM)"
  awk -F'\t' '$1 == "serial" { c = $3 " " $4; if (!(c in seen)) { seen[c] = 1; ord[++n] = c }; s[c, $2] = $7 }
    END { printf "%-9s %8s %8s %8s %8s %8s %8s %8s\n", "bps PDIST", "regs7", "r7serial", "r7ctrl",
            "async9", "a10b", "a10b_unr", "a10bunrS";
          for (j = 1; j <= n; j++) { c = ord[j];
            printf "%-9s %8s %8s %8s %8s %8s %8s %8s\n", c, s[c, "regs7_interleaved"], s[c, "regs7_serial"],
              s[c, "regs7_control"], s[c, "async9"], s[c, "async10b"], s[c, "async10b_unrolled"],
              s[c, "async10b_unrolled_serial"] } }' "$OUT/rings.tsv"
  echo
  echo "-- padded lessons 6, 8, 9: speedup with PADDING 0 / 1 / the blog rule (2^k+1)"
  awk -F'\t' '$1 == "padded" { c = $3 " " $4; if (!(c in seen)) { seen[c] = 1; ord[++n] = c }; s[c, $2, $5] = $7 }
    END { printf "%-9s %-20s %-20s %-20s\n", "bps PDIST", "batched6", "rolling8", "async9";
          for (j = 1; j <= n; j++) { c = ord[j]; split(c, cp, " "); r = cp[2] == 6 ? 3 : cp[2] == 12 ? 5 : 1;
            line = sprintf("%-9s", c);
            split("batched6 rolling8 async9", vs, " ");
            for (v = 1; v <= 3; v++) line = line sprintf(" %-20s", s[c, vs[v], 0] "/" s[c, vs[v], 1] "/" s[c, vs[v], r]);
            print line } }' "$OUT/rings.tsv"
  echo
  echo "-- lesson 11: L2 prefetch, best speedup over the plain loop per variant (D = iterations ahead)"
  awk -F'\t' '$1 == "model" && $2 == "plain" && !($3 in plain) { plain[$3] = $6 }
    $1 == "l11" && $7 != "-" { v = $3 " " $2; if ($2 ~ /^ring|^regs/) v = v " P=" $4;
      if (!(v in best)) { ord[++n] = v; best[v] = -1 }
      if ($7 + 0 > best[v] + 0) { best[v] = $7; arg[v] = $5 } }
    END { for (b in plain) printf "   plain loop at bps %s: %s ms\n", b, plain[b];
          printf "   %-34s %7s %5s\n", "bps variant", "speedup", "D";
          for (j = 1; j <= n; j++) printf "   %-34s %7s %5s\n", ord[j], best[ord[j]], arg[ord[j]] }' "$OUT/l11.tsv"
  echo
  echo "-- lesson 12: bulk copies, best speedup over the plain loop (at P/SI)"
  awk -F'\t' '$1 == "l12" && $7 != "-" { v = $3 " " $2; if (!(v in best)) { ord[++n] = v; best[v] = -1 }
      if ($7 + 0 > best[v] + 0) { best[v] = $7; arg[v] = $4 "/" $5 } }
    END { for (j = 1; j <= n; j++) printf "   bps %-28s %6s at P/SI=%s\n", ord[j], best[ord[j]], arg[ord[j]] }' "$OUT/l12.tsv"
  echo
  echo "-- lesson 13: speedup over the global-pointer mode (global ms in the first column)"
  awk -F'\t' '$1 == "l13" { k = $2 " " $4; if (!(k in seen)) { seen[k] = 1; ord[++n] = k }; s[k, $3] = $6; if ($3 == "global") g[k] = $5 }
    END { printf "   %-22s %8s %8s %8s %8s %8s\n", "kernel param", "global", "const", "restrict", "ldg", "smem";
          for (j = 1; j <= n; j++) { k = ord[j];
            printf "   %-22s %8s %8s %8s %8s %8s\n", k, g[k], s[k, "const"], s[k, "restrict"], s[k, "ldg"], s[k, "smem"] } }' "$OUT/l13.tsv"
  echo
  echo "-- lesson 14: copies (GB/s) and overlap (ms for 256 MiB in, kernel, 256 MiB out)"
  awk -F'\t' '$1 == "l14" && $2 == "bw" && ($5 == 268435456 || $5 == 65536) { printf "   %s %-10s %9s bytes  %s GB/s\n", $3, $4, $5, $8 }
    $1 == "l14" && $2 != "bw" { printf "   %-8s %-7s %-8s W=%-6s streams=%-3s %s ms  %s\n", $2, $3, $4, $5, $6, $7, $9 }' "$OUT/l14.tsv"
}
summary > "$OUT/summary.txt" 2>> "$LOG"
cat "$OUT/summary.txt"
say "# done $(date -u '+%H:%M:%S UTC'); files in $OUT: $(ls "$OUT" | tr '\n' ' ')"
