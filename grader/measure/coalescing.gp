# coalescing.gp: the two plots of lesson 2 from the TSV of coalescing.cu.
#
#   gnuplot -e "tsv='build/measure/coalescing.tsv'; outdir='build/measure'" \
#           grader/measure/coalescing.gp
#
# writes <outdir>/lesson2-offset.png and <outdir>/lesson2-stride.png. The
# titles carry the GPU name and the date from the TSV's "# gpu:" and
# "# date:" lines, so a plot always says where and when it was measured.

if (!exists("tsv"))    tsv = 'build/measure/coalescing.tsv'
if (!exists("outdir")) outdir = 'build/measure'

gpu  = system("sed -n 's/^# gpu: //p' '" . tsv . "' | head -n 1")
date = system("sed -n 's/^# date: //p' '" . tsv . "' | head -n 1")
if (strlen(gpu) == 0)  gpu = 'unknown GPU'
if (strlen(date) == 0) date = 'unknown date'

set datafile separator "\t"
set datafile commentschars "#"
set terminal pngcairo size 1000,600 font ",12"
set grid
set key off
set ylabel "effective bandwidth (GB/s)"
set yrange [0:*]

# Rows whose first column is not the wanted kind become NaN and are skipped;
# the header row ("kind ...") is skipped the same way.
is(k) = (strcol(1) eq k)

set output outdir . '/lesson2-offset.png'
set title sprintf("Copy with a misalignment offset\n%s, %s", gpu, date)
set xlabel "offset (float elements)"
set xrange [-0.5:32.5]
set xtics 0,4,32
plot tsv using 2:(is("offset") ? $3 : NaN) with linespoints lw 2 pt 7

set output outdir . '/lesson2-stride.png'
set title sprintf("Copy with a stride\n%s, %s", gpu, date)
set xlabel "stride (float elements)"
set xrange [0.5:32.5]
set xtics 1,1,32
set mxtics 1
plot tsv using 2:(is("stride") ? $3 : NaN) with linespoints lw 2 pt 7

unset output
