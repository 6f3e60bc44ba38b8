# SPDX-License-Identifier: MIT
# DUET_CHECK_DOC: the API reference (doxygen, optional) and duet-bench(1) (help2man, maintainers).
# `make doc` builds the reference whenever doxygen was found; --enable-doc builds it as part of
# `make` and installs it (HTML under htmldir/api, man(3) pages), and then requires doxygen.
# duet-bench.1 ships in the tarball: help2man is needed only when its sources change, so it is a
# "missing" program, like autoconf.
# Sets AM_CONDITIONAL DUET_ENABLE_DOC, substitutes DOXYGEN and HELP2MAN, and configures Doxyfile.
AC_DEFUN([DUET_CHECK_DOC], [
  AC_ARG_ENABLE([doc],
    [AS_HELP_STRING([--enable-doc],
      [build the API reference (HTML and man(3) pages, needs doxygen) with make, and install it])],
    [], [enable_doc=no])
  AC_ARG_VAR([DOXYGEN], [doxygen, for make doc])
  AC_PATH_PROG([DOXYGEN], [doxygen])
  AS_IF([test "x$enable_doc" != xno && test -z "$DOXYGEN"],
        [AC_MSG_ERROR([--enable-doc needs doxygen (Debian: apt-get install doxygen)])])
  AM_CONDITIONAL([DUET_ENABLE_DOC], [test "x$enable_doc" != xno])
  AM_MISSING_PROG([HELP2MAN], [help2man])
  AC_CONFIG_FILES([Doxyfile:docs/Doxyfile.in])
])
