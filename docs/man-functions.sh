#!/bin/sh
# SPDX-License-Identifier: MIT
# man-functions.sh MANDIR: gives every function of duet.h a man page of its own. Doxygen's
# MAN_LINKS pages for functions are one line, `.so man3/duet.h.3`, so `man duet_sgemm` opened
# the whole header's page; this writes MANDIR/NAME.3 for each function documented in
# MANDIR/duet.h.3 instead: its prototype, its documentation (what is checked, what is returned)
# and a pointer back to duet.h(3). Run by the api/stamp rule of docs/local.mk after doxygen.
set -eu
dir=$1
page=$dir/duet.h.3
[ -f "$page" ] || { echo "$0: no $page" >&2; exit 1; }
th=$(sed -n '1{s/^\.TH "duet\.h" 3 //;s/ *\\".*//;p;}' "$page")
awk -v dir="$dir" -v th="$th" '
  function flush() {
    if (name == "") return
    out = dir "/" name ".3"
    printf ".TH \"%s\" 3 %s\n.ad l\n.nh\n.SH NAME\n%s \\- %s\n", name, th, name, brief > out
    printf ".SH SYNOPSIS\n.nf\n\\fC#include <duet.h>\\fP\n.sp\n%s;\n.fi\n", proto > out
    printf ".SH DESCRIPTION\n%s", body > out
    printf ".SH \"SEE ALSO\"\n.BR duet.h (3)\n" > out
    close(out)
    name = ""
  }
  /^\.SH "Function Documentation"/ { funcs = 1; next }
  funcs && /^\.SH/ { flush(); funcs = 0; next }
  funcs && /^\.SS "/ {
    flush()
    proto = substr($0, 6, length($0) - 6)
    name = proto
    sub(/ *\(.*/, "", name)
    sub(/.*[ *]/, "", name)
    body = ""
    brief = ""
    next
  }
  funcs && name != "" {
    if (brief == "" && $0 !~ /^\./ && $0 != "") {
      brief = $0
      sub(/\\&\. .*/, "", brief)
      sub(/\\&\.? *$/, "", brief)
    }
    body = body $0 "\n"
  }
  END { flush() }
' "$page"
