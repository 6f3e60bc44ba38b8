# SPDX-License-Identifier: MIT
# DUET_CHECK_PEERS: libraries the bench compares against, never dependencies of libduet, and not
# linked into duet-bench either: it compiles against their headers and dlopens them by the soname
# found here, so that it starts on machines without them. cuBLAS comes with the CUDA toolkit
# (needs the CUDA backend); CLBlast through pkg-config (needs the OpenCL backend). Each needs its
# header, dlopen, and a library to read the soname from. --without-peers turns both off.
# Sets AM_CONDITIONALs DUET_HAVE_CUBLAS / DUET_HAVE_CLBLAST, AC_DEFINEs DUET_CUBLAS_SONAME /
# DUET_CLBLAST_SONAME, and substitutes CLBLAST_CFLAGS.
AC_DEFUN([DUET_CHECK_PEERS], [
  AC_REQUIRE([DUET_CHECK_DLOPEN])
  AC_ARG_WITH([peers],
    [AS_HELP_STRING([--without-peers], [do not build cuBLAS or CLBlast support into duet-bench])],
    [], [with_peers=check])
  duet_cublas_happy=no
  duet_clblast_happy=no
  duet_cublas_line=no
  duet_clblast_line=no
  AS_IF([test "x$with_peers" != xno && test "$duet_dlopen_happy" = yes], [
    AS_IF([test "$duet_cuda_happy" = yes], [
      duet_save_CPPFLAGS=$CPPFLAGS
      CPPFLAGS="$CPPFLAGS $CUDA_CPPFLAGS"
      AC_CHECK_HEADER([cublas_v2.h], [
        DUET_SONAME([duet_cublas_soname], [cublas], [$duet_cuda_libdir])
        AS_IF([test -n "$duet_cublas_soname"], [duet_cublas_happy=yes],
              [duet_cublas_line="no (no libcublas.so in $duet_cuda_libdir)"])])
      CPPFLAGS=$duet_save_CPPFLAGS
    ])
    AS_IF([test "$duet_opencl_happy" = yes], [
      PKG_CHECK_MODULES([CLBLAST], [clblast], [
        duet_save_CPPFLAGS=$CPPFLAGS
        CPPFLAGS="$CPPFLAGS $CLBLAST_CFLAGS $OPENCL_CFLAGS -DCL_TARGET_OPENCL_VERSION=120"
        AC_CHECK_HEADER([clblast_c.h], [
          duet_clblast_dirs="`$PKG_CONFIG --variable=libdir clblast` `echo " $CLBLAST_LIBS" | sed -n 's/.* -L *\([[^ ]]*\).*/\1/p'`"
          DUET_SONAME([duet_clblast_soname], [clblast], [$duet_clblast_dirs])
          AS_IF([test -n "$duet_clblast_soname"], [duet_clblast_happy=yes],
                [duet_clblast_line="no (no libclblast.so found)"])])
        CPPFLAGS=$duet_save_CPPFLAGS], [:])
    ])
  ])
  AS_IF([test "$duet_cublas_happy" = yes], [
    duet_cublas_line="yes ($duet_cublas_soname)"
    AC_DEFINE([DUET_HAVE_CUBLAS], [1], [Define to 1 if duet-bench compares with cuBLAS.])
    AC_DEFINE_UNQUOTED([DUET_CUBLAS_SONAME], ["$duet_cublas_soname"],
                       [The cuBLAS library duet-bench opens at run time.])])
  AS_IF([test "$duet_clblast_happy" = yes], [
    duet_clblast_line="yes ($duet_clblast_soname)"
    AC_DEFINE([DUET_HAVE_CLBLAST], [1], [Define to 1 if duet-bench compares with CLBlast.])
    AC_DEFINE_UNQUOTED([DUET_CLBLAST_SONAME], ["$duet_clblast_soname"],
                       [The CLBlast library duet-bench opens at run time.])])
  AC_SUBST([CLBLAST_CFLAGS])
  AM_CONDITIONAL([DUET_HAVE_CUBLAS], [test "$duet_cublas_happy" = yes])
  AM_CONDITIONAL([DUET_HAVE_CLBLAST], [test "$duet_clblast_happy" = yes])
])
