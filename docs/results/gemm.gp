# duet-bench throughput plot: gnuplot docs/results/gemm.gp
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
  set terminal pngcairo noenhanced size 1100,380
} else {
  set terminal png noenhanced size 1100,380
}
set output 'docs/results/gemm.png'
set multiplot layout 1,1
set key outside right top
set grid
set logscale y
set xlabel 'size'
set title 'gemm'
set ylabel 'GFLOP/s'
set xrange [-0.3:5.3]
set autoscale y
plot 'docs/results/gemm.dat' index 0 using 1:3:xtic(2) with linespoints title 'cuda:0 naive', \
     '' index 1 using 1:3:xtic(2) with linespoints title 'cuda:0 coalesced', \
     '' index 2 using 1:3:xtic(2) with linespoints title 'cuda:0 tiled', \
     '' index 3 using 1:3:xtic(2) with linespoints title 'cuda:0 register', \
     '' index 4 using 1:3:xtic(2) with linespoints title 'cuda:0 fast', \
     '' index 5 using 1:3:xtic(2) with linespoints title 'cuda:0 cublas', \
     '' index 6 using 1:3:xtic(2) with linespoints title 'cuda:0 cublas-tf32', \
     '' index 7 using 1:3:xtic(2) with linespoints title 'opencl:0 naive', \
     '' index 8 using 1:3:xtic(2) with linespoints title 'opencl:0 coalesced', \
     '' index 9 using 1:3:xtic(2) with linespoints title 'opencl:0 tiled', \
     '' index 10 using 1:3:xtic(2) with linespoints title 'opencl:0 register', \
     '' index 11 using 1:3:xtic(2) with linespoints title 'opencl:0 fast', \
     '' index 12 using 1:3:xtic(2) with linespoints title 'opencl:0 clblast'
unset multiplot
