# transfers.gp: the two plots of lesson 14 from the TSV of transfers.cu (or
# of the probe grader/measure/probes/l14_transfers.cu, which prints the same
# rows).
#
#   gnuplot -e "tsv='build/measure/transfers.tsv'; outdir='build/measure'" \
#           grader/measure/transfers.gp
#
# writes <outdir>/lesson14-bandwidth.png (copy bandwidth against copy size,
# pageable and pinned, both directions) and <outdir>/lesson14-overlap.png
# (time for data in, kernel, data out: serial against streams). The titles
# carry the GPU and the date from the TSV's "# gpu:" and "# date:" lines.

if (!exists("tsv"))    tsv = 'build/measure/transfers.tsv'
if (!exists("outdir")) outdir = 'build/measure'

gpu  = system("sed -n 's/^# gpu: //p' '" . tsv . "' | head -n 1")
date = system("sed -n 's/^# date: //p' '" . tsv . "' | head -n 1")
if (strlen(gpu) == 0)  gpu = 'unknown GPU'
if (strlen(date) == 0) date = 'unknown date'

set datafile separator "\t"
set terminal pngcairo size 1000,600 font ",12" noenhanced
set grid

# ---- copy bandwidth against size ----
# One series per direction and memory: rows "l14 bw DIR MEM BYTES - ms GBps -".
bw(dir, mem) = sprintf("< awk -F'\t' '$1 == \"l14\" && $2 == \"bw\" && $3 == \"%s\" && $4 == \"%s\" && $8 != \"-\" {print $5 \"\t\" $8}' '%s' | sort -n", dir, mem, tsv)

set output outdir . '/lesson14-bandwidth.png'
set title sprintf("cudaMemcpy between host and device\n%s, %s", gpu, date)
set xlabel "bytes per copy"
set ylabel "bandwidth (GB/s)"
set logscale x 2
set format x "%.0b%B"
set yrange [0:*]
set key top left
plot bw("H2D", "pinned")   using 1:2 with linespoints lw 2 pt 7 title "host to device, pinned", \
     bw("D2H", "pinned")   using 1:2 with linespoints lw 2 pt 5 title "device to host, pinned", \
     bw("H2D", "pageable") using 1:2 with linespoints lw 2 pt 6 dt 2 title "host to device, pageable", \
     bw("D2H", "pageable") using 1:2 with linespoints lw 2 pt 4 dt 2 title "device to host, pageable"
unset logscale x
set format x "%g"

# ---- overlap ----
# One bar group per configuration, one bar per kernel weight W (the first W
# is a copy-like kernel, the second one about as long as the input's copy).
# awk turns the rows "l14 overlap CONFIG MEM W STREAMS ms GBps check" into
# "label <tab> ms at the first W <tab> ms at the second W".
ov = sprintf("< awk -F'\t' '$1 == \"l14\" && $2 == \"overlap\" && $7 != \"FAIL\" { \
    w = $5; if (!(w in seenw)) { seenw[w] = 1; ws[++nw] = w } \
    l = ($3 == \"serial\" ? \"serial, \" $4 : $6 \" streams, \" $4); \
    if (!(l in seenl)) { seenl[l] = 1; ls[++nl] = l } ms[l, w] = $7 } \
    END { for (i = 1; i <= nl; i++) print ls[i] \"\t\" ms[ls[i], ws[1]] \"\t\" ms[ls[i], ws[2]] }' '%s'", tsv)
w1 = system("awk -F'\t' '$1 == \"l14\" && $2 == \"overlap\" {print $5; exit}' '" . tsv . "'")
w2 = system("awk -F'\t' '$1 == \"l14\" && $2 == \"overlap\" { if (f == \"\") f = $5; else if ($5 != f) { print $5; exit } }' '" . tsv . "'")

set output outdir . '/lesson14-overlap.png'
set title sprintf("Data in, kernel, data out (%s MiB each way): serial against streams\n%s, %s", \
    system("awk -F'\t' '$1 == \"l14\" && $2 == \"bw\" {b = $5} END {printf \"%d\", b / 1048576}' '" . tsv . "'"), gpu, date)
set xlabel ""
set ylabel "time (ms), lower is better"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -25 scale 0
# Headroom above the tallest bar for the key, so no bar hides it whatever
# the heights (the tallest may be any configuration on another machine).
stats ov using 2 nooutput
top = STATS_max
stats ov using 3 nooutput
top = STATS_max > top ? STATS_max : top
set key inside top center vertical Left reverse
set yrange [0:1.3 * top]
plot ov using 2:xtic(1) title sprintf("kernel: %s multiply-add per element (a copy)", w1), \
     ''  using 3 title sprintf("kernel: %s multiply-adds per element", w2)

unset output
