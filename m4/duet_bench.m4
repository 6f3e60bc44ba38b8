# SPDX-License-Identifier: MIT
# DUET_CHECK_BENCH_INTERNALS: --enable-bench-internals builds duet-bench's `kernels` command,
# which reads what the compiler made of each of the library's own kernels through libduet's
# internals (duet__kernel_attrs_get): duet-bench then links the library's objects
# (libduet_core.la) instead of libduet.so, which exports the duet_ API alone. Off by default,
# so that the installed bench uses nothing but the public API. Sets the AM_CONDITIONAL and
# AC_DEFINE DUET_BENCH_INTERNALS.
AC_DEFUN([DUET_CHECK_BENCH_INTERNALS], [
  AC_ARG_ENABLE([bench-internals],
    [AS_HELP_STRING([--enable-bench-internals],
      [build duet-bench's kernels command, linking duet-bench with libduet's internals])],
    [], [enable_bench_internals=no])
  AS_IF([test "x$enable_bench_internals" = xyes],
    [AC_DEFINE([DUET_BENCH_INTERNALS], [1],
               [Define to 1 if duet-bench links libduet's internals (its kernels command).])])
  AM_CONDITIONAL([DUET_BENCH_INTERNALS], [test "x$enable_bench_internals" = xyes])
])
