# duet-bench throughput plot: gnuplot docs/results/copy.gp
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
  set terminal pngcairo noenhanced size 1100,380
} else {
  set terminal png noenhanced size 1100,380
}
set output 'docs/results/copy.png'
set multiplot layout 1,1
set key outside right top
set grid
set logscale y
set xlabel 'size'
set title 'copy'
set ylabel 'GB/s'
set xrange [-0.3:4.3]
set autoscale y
plot 'docs/results/copy.dat' index 0 using 1:3:xtic(2) with linespoints title 'cuda:0 copy', \
     '' index 1 using 1:3:xtic(2) with linespoints title 'cuda:0 buf_copy (ref)', \
     '' index 2 using 1:3:xtic(2) with linespoints title 'opencl:0 copy', \
     '' index 3 using 1:3:xtic(2) with linespoints title 'opencl:0 buf_copy (ref)'
unset multiplot
