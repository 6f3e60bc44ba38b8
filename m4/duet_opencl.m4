# SPDX-License-Identifier: MIT
# DUET_CHECK_OPENCL: the optional OpenCL backend.
# --with-opencl[=DIR] requires it (DIR: a prefix with include/CL/cl.h and the libOpenCL loader),
# --without-opencl turns it off, and by default it is built when pkg-config's OpenCL module or
# a plain -lOpenCL with <CL/cl.h> is found.
# Sets duet_opencl_happy, AC_DEFINE DUET_HAVE_OPENCL, AM_CONDITIONAL DUET_HAVE_OPENCL, and
# substitutes OPENCL_CFLAGS and OPENCL_LIBS.
AC_DEFUN([DUET_CHECK_OPENCL], [
  AC_ARG_WITH([opencl],
    [AS_HELP_STRING([--with-opencl@<:@=DIR@:>@],
      [build the OpenCL backend, from headers and loader under DIR if given (default: if found)])],
    [], [with_opencl=check])

  duet_opencl_happy=no
  duet_opencl_why=
  duet_opencl_from=
  AS_IF([test "x$with_opencl" != xno], [
    AS_CASE([$with_opencl],
      [yes|check], [
        PKG_CHECK_MODULES([OPENCL], [OpenCL], [duet_opencl_from="pkg-config OpenCL"],
                          [OPENCL_CFLAGS=; OPENCL_LIBS=-lOpenCL; duet_opencl_from="-lOpenCL"])],
      [
        # The system headers would be found anyway: insist that the given prefix is real.
        AS_IF([test -d "$with_opencl"], [], [AC_MSG_ERROR([--with-opencl=$with_opencl: no such directory])])
        AS_IF([test -f "$with_opencl/include/CL/cl.h"], [],
              [AC_MSG_ERROR([--with-opencl=$with_opencl: no include/CL/cl.h there])])
        OPENCL_CFLAGS="-I$with_opencl/include"
        OPENCL_LIBS=-lOpenCL
        for d in lib64 lib lib/x86_64-linux-gnu lib/aarch64-linux-gnu; do
          AS_IF([test -d "$with_opencl/$d"], [OPENCL_LIBS="-L$with_opencl/$d $OPENCL_LIBS"; break])
        done
        duet_opencl_from="$with_opencl"
      ])
    duet_save_CPPFLAGS=$CPPFLAGS; duet_save_LIBS=$LIBS
    CPPFLAGS="$OPENCL_CFLAGS -DCL_TARGET_OPENCL_VERSION=120 $CPPFLAGS"; LIBS="$OPENCL_LIBS $LIBS"
    AC_CHECK_HEADER([CL/cl.h], [
      AC_MSG_CHECKING([for clGetPlatformIDs with $OPENCL_LIBS])
      AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <CL/cl.h>]],
                                      [[cl_uint n; return (int)clGetPlatformIDs(0, 0, &n);]])],
        [AC_MSG_RESULT([yes]); duet_opencl_happy=yes],
        [AC_MSG_RESULT([no]); duet_opencl_why="cannot link $OPENCL_LIBS"])
    ], [duet_opencl_why="no CL/cl.h"])
    CPPFLAGS=$duet_save_CPPFLAGS; LIBS=$duet_save_LIBS
    AS_IF([test "$duet_opencl_happy" != yes && test "x$with_opencl" != xcheck],
          [AC_MSG_ERROR([the OpenCL backend was requested but cannot be built: $duet_opencl_why])])
  ], [duet_opencl_why="disabled by --without-opencl"])

  AS_IF([test "$duet_opencl_happy" = yes],
        [AC_DEFINE([DUET_HAVE_OPENCL], [1], [Define to 1 to build the OpenCL backend.])],
        [OPENCL_CFLAGS=; OPENCL_LIBS=])
  AC_SUBST([OPENCL_CFLAGS])
  AC_SUBST([OPENCL_LIBS])
  AM_CONDITIONAL([DUET_HAVE_OPENCL], [test "$duet_opencl_happy" = yes])
])
