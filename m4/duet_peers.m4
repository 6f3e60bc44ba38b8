# SPDX-License-Identifier: MIT
# DUET_CHECK_PEERS: libraries the bench compares against, never dependencies of libduet.
# cuBLAS comes with the CUDA toolkit (needs the CUDA backend); CLBlast through pkg-config (needs
# the OpenCL backend). --without-peers turns both off.
# Sets AM_CONDITIONALs DUET_HAVE_CUBLAS / DUET_HAVE_CLBLAST and substitutes CUBLAS_LIBS and
# CLBLAST_CFLAGS / CLBLAST_LIBS.
AC_DEFUN([DUET_CHECK_PEERS], [
  AC_ARG_WITH([peers],
    [AS_HELP_STRING([--without-peers], [do not link cuBLAS or CLBlast into duet-bench])],
    [], [with_peers=check])
  duet_cublas_happy=no
  duet_clblast_happy=no
  AS_IF([test "x$with_peers" != xno], [
    AS_IF([test "$duet_cuda_happy" = yes], [
      duet_save_CPPFLAGS=$CPPFLAGS; duet_save_LDFLAGS=$LDFLAGS; duet_save_LIBS=$LIBS
      CPPFLAGS="$CPPFLAGS $CUDA_CPPFLAGS"; LDFLAGS="$LDFLAGS $CUDA_LDFLAGS"
      LIBS="-lcublas $CUDA_LIBS $LIBS"
      AC_MSG_CHECKING([for cuBLAS])
      AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <cublas_v2.h>]],
                                      [[cublasHandle_t h; return (int)cublasCreate(&h);]])],
        [AC_MSG_RESULT([yes]); duet_cublas_happy=yes; CUBLAS_LIBS=-lcublas],
        [AC_MSG_RESULT([no])])
      CPPFLAGS=$duet_save_CPPFLAGS; LDFLAGS=$duet_save_LDFLAGS; LIBS=$duet_save_LIBS
    ])
    AS_IF([test "$duet_opencl_happy" = yes],
          [PKG_CHECK_MODULES([CLBLAST], [clblast], [duet_clblast_happy=yes], [duet_clblast_happy=no])])
  ])
  AS_IF([test "$duet_cublas_happy" = yes],
        [AC_DEFINE([DUET_HAVE_CUBLAS], [1], [Define to 1 if duet-bench compares with cuBLAS.])])
  AS_IF([test "$duet_clblast_happy" = yes],
        [AC_DEFINE([DUET_HAVE_CLBLAST], [1], [Define to 1 if duet-bench compares with CLBlast.])])
  AC_SUBST([CUBLAS_LIBS])
  AM_CONDITIONAL([DUET_HAVE_CUBLAS], [test "$duet_cublas_happy" = yes])
  AM_CONDITIONAL([DUET_HAVE_CLBLAST], [test "$duet_clblast_happy" = yes])
])
