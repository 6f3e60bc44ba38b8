# duet-bench gemm --suite before and after (issue 22): each shape's ratio to the vendor, the
# vendor's median over AUTO's (above 1: AUTO is faster), a series per backend and run: CUDA and
# OpenCL against cuBLAS (an OpenCL line's cuBLAS is the same shape's CUDA row, the same GPU), and
# OpenCL against CLBlast. From the CSV files of two runs (`duet-bench gemm --suite --backend all
# --save FILE`; .ci/device-validate.sh's suite stage with SUITE_TAG=before, then after):
#   gnuplot -e "before='before.csv'; after='after.csv'; out='docs/results/suite.png'" \
#     docs/results/suite.gp
# Give after='' (or before='') to draw one run. Columns are found by name in the CSV's header.
if (!exists("before")) before = 'before.csv'
if (!exists("after")) after = 'after.csv'
if (!exists("out")) out = 'suite.png'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
  set terminal pngcairo noenhanced size 1500,760
} else {
  set terminal png noenhanced size 1500,760
}
set output out
set datafile separator ','
set datafile missing ''
set key outside right top autotitle columnheader
set title "duet-bench gemm --suite: the vendor's median over AUTO's, per shape (above 1: AUTO is faster)"
set ylabel 'vendor / AUTO'
set logscale y 2
set grid ytics
set bmargin 15
set xtics rotate by 90 right font ',8'
set offsets 0.5, 0.5, 0, 0
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc rgb 'black'
set arrow 2 from graph 0, first 0.85 to graph 1, first 0.85 nohead dt 2 lc rgb 'red'
# a backend's ratio on its own lines, NaN on the other backend's
on(b, col) = strcol('backend') eq b ? column(col) : NaN
# one run's three series: FILE, its name, its point type, its dash type
series(f, run, pt, dt) = \
  sprintf("'%s' using 1:(on('cuda', 'vs_cublas')):xtic(2) with linespoints lc rgb '#1f77b4' pt %d dt %d title 'cuda / cuBLAS, %s', ", f, pt, dt, run) . \
  sprintf("'%s' using 1:(on('opencl', 'vs_cublas')) with linespoints lc rgb '#d62728' pt %d dt %d title 'opencl / cuBLAS, %s', ", f, pt, dt, run) . \
  sprintf("'%s' using 1:(on('opencl', 'vs_clblast')) with linespoints lc rgb '#2ca02c' pt %d dt %d title 'opencl / CLBlast, %s', ", f, pt, dt, run)
cmd = (before ne '' ? series(before, 'before', 6, 2) : '') . (after ne '' ? series(after, 'after', 7, 1) : '')
eval 'plot ' . cmd[1:strlen(cmd) - 2]
