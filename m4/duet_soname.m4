# SPDX-License-Identifier: MIT
# DUET_SONAME(VARIABLE, NAME, DIRS): the soname of libNAME.so, from the first of DIRS (or the
# compiler's own search path) that has it, e.g. libcublas.so.13 for the CUDA toolkit found, so
# that duet-bench dlopens the version it was compiled against. Read from the library's SONAME
# with objdump, else from where the development symlink points; empty when neither says.
AC_DEFUN([DUET_SONAME], [
  AC_REQUIRE([DUET_PROG_OBJDUMP])
  AC_MSG_CHECKING([for the soname of lib$2])
  $1=
  for duet_so_dir in $3 ""; do
    AS_IF([test -n "$duet_so_dir"], [duet_so_file="$duet_so_dir/lib$2.so"],
          [duet_so_file=`$CC $CFLAGS $LDFLAGS -print-file-name=lib$2.so 2>/dev/null`])
    test -f "$duet_so_file" || continue
    $1=`$OBJDUMP -p "$duet_so_file" 2>/dev/null | sed -n 's/^ *SONAME *//p'`
    AS_IF([test -z "$$1" && test -L "$duet_so_file"],
          [$1=`readlink "$duet_so_file"`; $1=`basename "$$1"`])
    test -n "$$1" && break
  done
  AC_MSG_RESULT([${$1:-not found}])
])

AC_DEFUN([DUET_PROG_OBJDUMP], [AC_CHECK_TOOL([OBJDUMP], [objdump], [false])])
