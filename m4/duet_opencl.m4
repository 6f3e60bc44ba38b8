# SPDX-License-Identifier: MIT
# DUET_CHECK_OPENCL: the optional OpenCL backend. It needs only the headers (CL/cl.h) and dlopen
# at build time: the ICD loader (libOpenCL.so.1) is opened at run time, so libduet never links it.
# --with-opencl[=DIR] requires it (DIR: a prefix with include/CL/cl.h), --without-opencl turns it
# off, and by default it is built when <CL/cl.h> is found (with pkg-config OpenCL's flags if
# that module exists).
# Sets duet_opencl_happy, AC_DEFINE DUET_HAVE_OPENCL, AM_CONDITIONAL DUET_HAVE_OPENCL, and
# substitutes OPENCL_CFLAGS and OPENCL_LIBS (what the backend links: only dlopen's library).
AC_DEFUN([DUET_CHECK_OPENCL], [
  AC_REQUIRE([DUET_CHECK_DLOPEN])
  AC_ARG_WITH([opencl],
    [AS_HELP_STRING([--with-opencl@<:@=DIR@:>@],
      [build the OpenCL backend, from the headers under DIR if given (default: if found)])],
    [], [with_opencl=check])

  duet_opencl_happy=no
  duet_opencl_why=
  duet_opencl_from=
  OPENCL_CFLAGS=
  AS_IF([test "x$with_opencl" != xno], [
    AS_CASE([$with_opencl],
      [yes|check], [
        PKG_CHECK_EXISTS([OpenCL],
          [OPENCL_CFLAGS=`$PKG_CONFIG --cflags OpenCL`; duet_opencl_from="pkg-config OpenCL"],
          [duet_opencl_from="the system"])],
      [
        # The system headers would be found anyway: insist that the given prefix is real.
        AS_IF([test -d "$with_opencl"], [], [AC_MSG_ERROR([--with-opencl=$with_opencl: no such directory])])
        AS_IF([test -f "$with_opencl/include/CL/cl.h"], [],
              [AC_MSG_ERROR([--with-opencl=$with_opencl: no include/CL/cl.h there])])
        OPENCL_CFLAGS="-I$with_opencl/include"
        duet_opencl_from="$with_opencl"
      ])
    duet_save_CPPFLAGS=$CPPFLAGS
    CPPFLAGS="$OPENCL_CFLAGS -DCL_TARGET_OPENCL_VERSION=120 $CPPFLAGS"
    AC_CHECK_HEADER([CL/cl.h],
      [AS_IF([test "$duet_dlopen_happy" = yes], [duet_opencl_happy=yes],
             [duet_opencl_why="no dlopen to open the OpenCL loader with"])],
      [duet_opencl_why="no CL/cl.h"])
    CPPFLAGS=$duet_save_CPPFLAGS
    AS_IF([test "$duet_opencl_happy" != yes && test "x$with_opencl" != xcheck],
          [AC_MSG_ERROR([the OpenCL backend was requested but cannot be built: $duet_opencl_why])])
  ], [duet_opencl_why="disabled by --without-opencl"])

  AS_IF([test "$duet_opencl_happy" = yes],
        [AC_DEFINE([DUET_HAVE_OPENCL], [1], [Define to 1 to build the OpenCL backend.])
         OPENCL_LIBS=$DL_LIBS],
        [OPENCL_CFLAGS=; OPENCL_LIBS=])
  AC_SUBST([OPENCL_CFLAGS])
  AC_SUBST([OPENCL_LIBS])
  AM_CONDITIONAL([DUET_HAVE_OPENCL], [test "$duet_opencl_happy" = yes])
])
