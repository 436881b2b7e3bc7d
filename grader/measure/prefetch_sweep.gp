# prefetch_sweep.gp: speedup over the plain loop against the prefetch
# distance, one line per variant, from the TSV that
# `grader check ... --sweep PDIST=...` prints (lessons 5 to 10).
#
# Variables (all optional, set with -e before the script name):
#   in    the TSV (default build/sweep.tsv)
#   out   the PNG to write (default prefetch-sweep.png)
#   ttl   the plot's title
#   col   the column to plot (default 4, "speedup": the graded kernel's speedup;
#         run the sweep with --solutions so that this is the reference kernel,
#         and the demo's own kernel for a demo row)
#
# Rows whose first field is not a whole number (the "# seed" comment and the
# header) are skipped, and so are rows with no speedup (an exercise that did
# not run). A variant with a single row (lesson 5, whose distance is fixed at
# four registers) is drawn as a single point.
#
# The two figures of lesson 10, on the GPU, from the course's top folder. All
# variants run at four blocks per SM, where the bank conflicts cost time:
#
#   make grader
#   S="--solutions --set BLOCKS_PER_SM=4 --sweep PDIST=2,4,6,8,12,16"
#   build/grader check lesson6 lesson7 $S >  build/sweep-unpadded.tsv
#   build/grader check lesson8 lesson9 $S | awk -F'\t' '$1 ~ /^[0-9]+$/' >> build/sweep-unpadded.tsv
#   build/grader check lesson5 --solutions --set BLOCKS_PER_SM=4 --sweep BLOCKDIMX=128 \
#       | awk -F'\t' -v OFS='\t' '$1 ~ /^[0-9]+$/ {$1 = 4; print}' >> build/sweep-unpadded.tsv
#   build/grader check lesson10 --solutions --sweep PDIST=2,4,6,8,12,16 > build/sweep-padded.tsv
#   build/grader check lesson6 lesson8 $S --set PADDING=1 | awk -F'\t' -v OFS='\t' \
#       '$1 ~ /^[0-9]+$/ {$2 = $2 "+padded"; print}' >> build/sweep-padded.tsv
#   awk -F'\t' '$2 == "lesson7/rolling_regs" || $2 == "lesson9/rolling_async"' \
#       build/sweep-unpadded.tsv >> build/sweep-padded.tsv
#   gnuplot -e "in='build/sweep-unpadded.tsv'; out='lessons/figures/prefetch-sweep.png'; \
#       ttl='Prefetch variants, no padding (H100, 4 blocks of 128 threads per SM)'" \
#       grader/measure/prefetch_sweep.gp
#   gnuplot -e "in='build/sweep-padded.tsv'; out='lessons/figures/prefetch-sweep-padded.png'; \
#       ttl='Padded and index-major buffers (H100, 4 blocks of 128 threads per SM)'" \
#       grader/measure/prefetch_sweep.gp
#
# Lesson 5 has no PDIST (its batch is four named registers): the third
# command grades it once and files its row under PDIST 4. Lesson 10's padded
# kernel runs with its default PADDING 1, an odd stride for every even PDIST.
#
# `make sweep-data` (grader/measure/measure.mk) runs the same commands. The
# course's copies in lessons/figures/, NVIDIA H100 80GB HBM3, 2026-11-23:
# prefetch-sweep.png from grader/calibration/h100-2026-11-23/prefetch-sweep.tsv
# (the first session, all six PDIST); prefetch-sweep-padded.png from
# grader/calibration/h100-2026-11-23-c/measure/prefetch-sweep-padded.tsv
# (`make sweep-data SWEEP_PDIST=4,8,16`, with the padded lessons 6 and 8),
# drawn with
#   ttl='Padded (lessons 6, 8, 10a) and index-major (10b) buffers at PDIST 4, 8 and 16 only'
#       . "\n" . '(4 blocks of 128 threads per SM; lessons 7 and 9 unpadded, for comparison)'

if (!exists("in")) in = 'build/sweep.tsv'
if (!exists("out")) out = 'prefetch-sweep.png'
if (!exists("ttl")) ttl = 'Prefetch variants on this GPU'
if (!exists("col")) col = 4

# The exercise ids of the sweep, named as the lessons name the variants.
label(s) = \
    s eq "lesson5/batched_regs"   ? "batched, registers (lesson 5)" : \
    s eq "lesson6/batched_smem"   ? "batched, shared memory (lesson 6)" : \
    s eq "lesson7/rolling_direct" ? "rolling, register array, direct (lesson 7 demo)" : \
    s eq "lesson7/rolling_regs"   ? "rolling, registers, unrolled (lesson 7)" : \
    s eq "lesson8/rolling_smem"   ? "rolling, shared memory (lesson 8)" : \
    s eq "lesson9/rolling_async"  ? "rolling, shared, async (lesson 9)" : \
    s eq "lesson10/padded"        ? "rolling, shared, async, padded (10a)" : \
    s eq "lesson6/batched_smem+padded" ? "batched, shared memory, padded (lesson 6)" : \
    s eq "lesson8/rolling_smem+padded" ? "rolling, shared memory, padded (lesson 8)" : \
    s eq "lesson10/index_major"   ? "rolling, shared, async, index-major (10b)" : s

set terminal pngcairo size 1200,600 font ",11" noenhanced
set output out
# Where and when: the GPU from the rows, the date from the "# date:" line.
gpu = system(sprintf("awk -F'\t' '$1 ~ /^[0-9]+$/ {print $9; exit}' '%s'", in))
date = system(sprintf("sed -n 's/^# date: //p' '%s' | head -n 1", in))
set title ttl . "\n" . gpu . ", " . date
set xlabel "prefetch distance PDIST (elements per thread)"
set ylabel "speedup over the plain loop"
set key outside right top vertical Left reverse
set grid
set xtics (1, 2, 4, 6, 8, 12, 16)
set xrange [0.5:16.5]
set yrange [0:*]

# The variants, in the order they first appear in the file.
rows = sprintf("awk -F'\t' '$1 ~ /^[0-9]+$/ && $%d > 0' '%s'", col, in)
names = system(rows . " | cut -f2 | awk '!seen[$0]++'")
n = words(names)
if (n == 0) print sprintf("prefetch_sweep.gp: no data rows in %s", in); exit

data(k) = sprintf("< %s | awk -F'\t' -v v='%s' '$2 == v' | sort -t'\t' -k1,1n", \
                  rows, word(names, k))

plot for [k=1:n] data(k) using 1:col with linespoints lw 2 pt (k+5) ps 1.3 \
         title label(word(names, k)), \
     1 with lines dt 2 lw 1.5 lc rgb "black" title "plain loop (baseline)"
