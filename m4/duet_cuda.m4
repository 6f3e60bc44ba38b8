# SPDX-License-Identifier: MIT
# DUET_CHECK_CUDA: the optional CUDA backend.
# --with-cuda[=DIR] requires it (DIR: the toolkit root), --without-cuda turns it off, and by
# default it is built when nvcc, the headers and the static runtime are found.
# Sets duet_cuda_happy, AC_DEFINE DUET_HAVE_CUDA, AM_CONDITIONAL DUET_HAVE_CUDA, and substitutes
# NVCC, CUDA_ARCH, CUDA_CPPFLAGS, CUDA_LDFLAGS and CUDA_LIBS.
AC_DEFUN([DUET_CHECK_CUDA], [
  AC_ARG_WITH([cuda],
    [AS_HELP_STRING([--with-cuda@<:@=DIR@:>@],
      [build the CUDA backend, from the toolkit in DIR if given (default: if found)])],
    [], [with_cuda=check])
  AC_ARG_VAR([NVCC], [the CUDA compiler])
  AC_ARG_VAR([NVCCFLAGS], [extra flags for nvcc])
  AC_ARG_VAR([CUDA_ARCH],
    [nvcc code generation (default: SASS for sm_80 and sm_90, PTX for compute_75 so newer GPUs JIT)])
  : ${CUDA_ARCH="-gencode=arch=compute_90,code=sm_90 -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_75,code=compute_75"}

  duet_cuda_happy=no
  duet_cuda_why=
  AS_IF([test "x$with_cuda" != xno], [
    duet_cuda_path=$PATH:/usr/local/cuda/bin
    AS_CASE([$with_cuda],
      [yes|check], [],
      [AS_IF([test -d "$with_cuda"], [duet_cuda_path=$with_cuda/bin],
             [AC_MSG_ERROR([--with-cuda=$with_cuda: no such directory])])])
    AC_PATH_PROG([NVCC], [nvcc], [], [$duet_cuda_path])
    AS_IF([test -z "$NVCC"], [duet_cuda_why="nvcc not found"], [
      duet_cuda_home=`dirname "$NVCC"`
      duet_cuda_home=`dirname "$duet_cuda_home"`
      AS_CASE([$with_cuda], [yes|check], [], [duet_cuda_home=$with_cuda])
      duet_cuda_libdir=
      for d in lib64 lib targets/x86_64-linux/lib targets/sbsa-linux/lib; do
        AS_IF([test -z "$duet_cuda_libdir" && test -f "$duet_cuda_home/$d/libcudart_static.a"],
              [duet_cuda_libdir=$duet_cuda_home/$d])
      done
      AS_IF([test ! -f "$duet_cuda_home/include/cuda_runtime_api.h"],
            [duet_cuda_why="no cuda_runtime_api.h in $duet_cuda_home/include"],
            [test -z "$duet_cuda_libdir"],
            [duet_cuda_why="no libcudart_static.a under $duet_cuda_home"])
    ])
    AS_IF([test -z "$duet_cuda_why"], [
      AC_MSG_CHECKING([whether $NVCC compiles a kernel for $CUDA_ARCH])
      cat > conftest.cu <<_DUET_EOF
__global__ void duet_probe(float *x) { x@<:@threadIdx.x@:>@ = 1.0f; }
_DUET_EOF
      AS_IF([$NVCC $CUDA_ARCH $NVCCFLAGS -c conftest.cu -o conftest.$OBJEXT >&AS_MESSAGE_LOG_FD 2>&1],
            [AC_MSG_RESULT([yes])],
            [AC_MSG_RESULT([no]); duet_cuda_why="$NVCC cannot compile for $CUDA_ARCH (see config.log)"])
      rm -f conftest.cu conftest.$OBJEXT
    ])
    AS_IF([test -z "$duet_cuda_why"], [
      # The static runtime keeps libduet.so loadable where no toolkit is installed; it needs
      # the C++ runtime and these system libraries at link time.
      CUDA_CPPFLAGS="-I$duet_cuda_home/include"
      CUDA_LDFLAGS="-L$duet_cuda_libdir"
      CUDA_LIBS="-lcudart_static -lstdc++ -ldl -lrt -lpthread"
      duet_save_CPPFLAGS=$CPPFLAGS; duet_save_LDFLAGS=$LDFLAGS; duet_save_LIBS=$LIBS
      CPPFLAGS="$CPPFLAGS $CUDA_CPPFLAGS"; LDFLAGS="$LDFLAGS $CUDA_LDFLAGS"; LIBS="$CUDA_LIBS $LIBS"
      AC_MSG_CHECKING([whether a C program links against the static CUDA runtime])
      AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <cuda_runtime_api.h>]],
                                      [[int n; return (int)cudaGetDeviceCount(&n);]])],
        [AC_MSG_RESULT([yes]); duet_cuda_happy=yes],
        [AC_MSG_RESULT([no]); duet_cuda_why="cannot link -lcudart_static (see config.log)"])
      CPPFLAGS=$duet_save_CPPFLAGS; LDFLAGS=$duet_save_LDFLAGS; LIBS=$duet_save_LIBS
    ])
    AS_IF([test "$duet_cuda_happy" != yes && test "x$with_cuda" != xcheck],
          [AC_MSG_ERROR([the CUDA backend was requested but cannot be built: $duet_cuda_why])])
  ], [duet_cuda_why="disabled by --without-cuda"])

  AS_IF([test "$duet_cuda_happy" = yes],
        [AC_DEFINE([DUET_HAVE_CUDA], [1], [Define to 1 to build the CUDA backend.])])
  # libtool's compile mode for .cu objects: one PIC object for both libraries when shared ones
  # are built, else one non-PIC object (-shared would make libtool refuse a static-only build).
  AS_IF([test "x$enable_shared" = xno], [DUET_LT_CU_MODE=-static], [DUET_LT_CU_MODE=-shared])
  AC_SUBST([DUET_LT_CU_MODE])
  AC_SUBST([CUDA_ARCH])
  AC_SUBST([CUDA_CPPFLAGS])
  AC_SUBST([CUDA_LDFLAGS])
  AC_SUBST([CUDA_LIBS])
  AM_CONDITIONAL([DUET_HAVE_CUDA], [test "$duet_cuda_happy" = yes])
])
