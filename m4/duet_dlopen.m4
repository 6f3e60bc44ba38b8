# SPDX-License-Identifier: MIT
# DUET_CHECK_DLOPEN: where dlopen lives (libc from glibc 2.34, else -ldl). The OpenCL backend
# opens the ICD loader with it, and duet-bench its peers, so that neither links them.
# Sets duet_dlopen_happy and substitutes DL_LIBS (empty when libc has dlopen); LIBS is untouched,
# so that only what needs dlopen links it and duet.pc can list it.
AC_DEFUN([DUET_CHECK_DLOPEN], [
  duet_save_LIBS=$LIBS
  AC_SEARCH_LIBS([dlopen], [dl], [duet_dlopen_happy=yes], [duet_dlopen_happy=no])
  LIBS=$duet_save_LIBS
  AS_CASE([$ac_cv_search_dlopen],
    [no|"none required"], [DL_LIBS=],
    [DL_LIBS=$ac_cv_search_dlopen])
  AC_SUBST([DL_LIBS])
])
