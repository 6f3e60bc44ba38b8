# SPDX-License-Identifier: MIT
# DUET_SUMMARY: what configure decided, printed last.
AC_DEFUN([DUET_SUMMARY], [
  AS_IF([test "$duet_cuda_happy" = yes],
        [duet_cuda_line="yes ($NVCC, $CUDA_ARCH)"], [duet_cuda_line="no ($duet_cuda_why)"])
  AS_IF([test "$duet_opencl_happy" = yes],
        [duet_opencl_line="yes (headers from $duet_opencl_from; libOpenCL.so.1 opened at run time)"],
        [duet_opencl_line="no ($duet_opencl_why)"])
  AS_IF([test "x$with_peers" = xno], [duet_peers_line="disabled by --without-peers"],
        [duet_peers_line="cuBLAS: $duet_cublas_line, CLBlast: $duet_clblast_line (each opened at run time)"])
  AS_IF([test "x$enable_bench_internals" = xyes],
        [duet_internals_line="yes (duet-bench kernels; duet-bench links libduet's objects)"],
        [duet_internals_line="no (duet-bench uses the public API alone)"])
  cat <<_DUET_EOF

duet $PACKAGE_VERSION configured
  CUDA backend:    $duet_cuda_line
  OpenCL backend:  $duet_opencl_line
  bench peers:     $duet_peers_line
  bench internals: $duet_internals_line
  libduet.a:       $duet_static_api_line
  C compiler:      $CC $CFLAGS
  prefix:          $prefix
_DUET_EOF
])
