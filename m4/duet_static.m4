# SPDX-License-Identifier: MIT
# DUET_CHECK_STATIC_API: whether libduet.a can be made to expose the duet_ API alone, as
# libduet.so does. Hidden visibility decides what a shared library exports, but in an archive
# every object's internal duet__ symbols stay global: a program linking libduet.a statically
# could collide with them, or call them. The archive is therefore relinked as one relocatable
# object (ld -r) whose strong global symbols other than duet_[a-z]* are made local (objcopy
# --localize-symbols), the regex libduet.so exports by. Weak symbols (COMDAT copies such as the
# C++ runtime's DW.ref.__gxx_personality_v0) stay as they are: a local copy of a COMDAT group's
# symbol could point into a section the final link discards. The whole pipeline is tried here
# on a small object compiled with $CC $CFLAGS (which fails under -flto's slim objects, for one);
# where any step fails, libduet.a keeps every object as it is, and the summary says why.
# Sets the conditional DUET_STATIC_API and duet_static_api_line.
AC_DEFUN([DUET_CHECK_STATIC_API], [
  AC_REQUIRE([LT_INIT])
  AC_CHECK_TOOL([OBJCOPY], [objcopy], [no])
  duet_static_api=no
  AS_IF([test "x$enable_static" != xyes], [duet_static_api_line="no static library"],
        [test "x$OBJCOPY" = xno], [duet_static_api_line="every object's globals (no objcopy)"],
  [
    AC_MSG_CHECKING([whether ld -r and objcopy can keep libduet.a to the duet_ API])
    duet_dir=conftest.static
    rm -rf $duet_dir && mkdir $duet_dir
    cat >$duet_dir/a.c <<_DUET_EOF
__attribute__((visibility("hidden"))) int duet__inner(int x) { return x + 1; }
int duet_outer(int x) { return duet__inner(x) * 2; }
_DUET_EOF
    AS_IF([$CC $CPPFLAGS $CFLAGS -fvisibility=hidden -c -o $duet_dir/a.o $duet_dir/a.c >&AS_MESSAGE_LOG_FD 2>&1 &&
           $AR cr $duet_dir/liba.a $duet_dir/a.o >&AS_MESSAGE_LOG_FD 2>&1 &&
           $LD -r -o $duet_dir/all.o --whole-archive $duet_dir/liba.a --no-whole-archive >&AS_MESSAGE_LOG_FD 2>&1 &&
           $NM -g --defined-only $duet_dir/all.o 2>&AS_MESSAGE_LOG_FD |
             $AWK '$(NF-1) !~ /^[[VWvw]]$/ && $NF !~ /^duet_[[a-z]]/ {print $NF}' >$duet_dir/local.syms &&
           grep duet__inner $duet_dir/local.syms >/dev/null &&
           $OBJCOPY --localize-symbols=$duet_dir/local.syms $duet_dir/all.o >&AS_MESSAGE_LOG_FD 2>&1 &&
           $NM -g --defined-only $duet_dir/all.o 2>&AS_MESSAGE_LOG_FD | grep ' duet_outer$' >/dev/null &&
           ! $NM -g --defined-only $duet_dir/all.o 2>&AS_MESSAGE_LOG_FD | grep duet__inner >/dev/null],
          [duet_static_api=yes
           duet_static_api_line="the duet_ API alone (ld -r, $OBJCOPY --localize-symbols)"],
          [duet_static_api_line="every object's globals (ld -r or objcopy failed: see config.log)"])
    rm -rf $duet_dir
    AC_MSG_RESULT([$duet_static_api])
  ])
  AM_CONDITIONAL([DUET_STATIC_API], [test "$duet_static_api" = yes])
])
