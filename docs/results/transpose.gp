# duet-bench throughput plot: gnuplot docs/results/transpose.gp
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
  set terminal pngcairo noenhanced size 1100,380
} else {
  set terminal png noenhanced size 1100,380
}
set output 'docs/results/transpose.png'
set multiplot layout 1,1
set key outside right top
set grid
set logscale y
set xlabel 'size'
set title 'transpose'
set ylabel 'GB/s'
set xrange [-0.3:4.3]
set autoscale y
plot 'docs/results/transpose.dat' index 0 using 1:3:xtic(2) with linespoints title 'cuda:0 naive', \
     '' index 1 using 1:3:xtic(2) with linespoints title 'cuda:0 coalesced', \
     '' index 2 using 1:3:xtic(2) with linespoints title 'cuda:0 padded', \
     '' index 3 using 1:3:xtic(2) with linespoints title 'cuda:0 padded-wide', \
     '' index 4 using 1:3:xtic(2) with linespoints title 'cuda:0 buf_copy (ref)', \
     '' index 5 using 1:3:xtic(2) with linespoints title 'cuda:0 cublas-geam', \
     '' index 6 using 1:3:xtic(2) with linespoints title 'opencl:0 naive', \
     '' index 7 using 1:3:xtic(2) with linespoints title 'opencl:0 coalesced', \
     '' index 8 using 1:3:xtic(2) with linespoints title 'opencl:0 padded', \
     '' index 9 using 1:3:xtic(2) with linespoints title 'opencl:0 padded-wide', \
     '' index 10 using 1:3:xtic(2) with linespoints title 'opencl:0 buf_copy (ref)', \
     '' index 11 using 1:3:xtic(2) with linespoints title 'opencl:0 clblast'
unset multiplot
