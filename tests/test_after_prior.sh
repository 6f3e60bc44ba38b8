#!/bin/sh
# SPDX-License-Identifier: MIT
# Every kernel of a group that src/manifest.h marks after_prior (DUET__GROUPS' last column: the
# GEMM sources written once) waits for the launch before it. The CUDA backend launches those
# kernels to overlap that launch (compute capability 9.0, duet__launch.overlap), so a kernel
# added to one of their sources without AFTER_PRIOR_LAUNCH(); as its first statement could read
# or write memory the launch before it still uses. Checked per source: as many
# AFTER_PRIOR_LAUNCH(); statements as kernel definitions (DUET_KERNEL outside #define and #undef
# lines), and no source of a group not so marked uses it.
set -u
top=${top_srcdir:-$(dirname "$0")/..}
manifest=$top/src/manifest.h
[ -r "$manifest" ] || { echo "test_after_prior: no $manifest"; exit 99; }
passed=0
failed=0
# the sources of the marked and of the unmarked groups, one name a line, from X(ID, "name",
# "source", from, to, after_prior, define) rows (DUET__GROUPS and DUET__FAST_GROUPS, whose rows
# may run over continued lines: joined first)
sources() {
  sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$manifest" | tr -s ' ' |
    grep -o 'X([A-Z_#]*, *"[a-z_]*"[^,]*, *"[a-z_]*", *[^,]*, *[^,]*, *[01], *[^)]*)' |
    sed -n 's/^X([^,]*, *"[a-z_]*"[^,]*, *"\([a-z_]*\)", *[^,]*, *[^,]*, *\([01]\),.*/\2 \1/p' |
    awk -v want="$1" '$1 == want { print $2 }' | sort -u
}
check() { # SOURCE WANT_WAITS(yes|no)
  file=$top/kernels_cl/$1.cl
  if [ ! -r "$file" ]; then
    echo "FAIL: $1: no $file"
    failed=$((failed + 1))
    return
  fi
  kernels=$(grep -v '^[[:space:]]*#[[:space:]]*\(define\|undef\)' "$file" | grep -o '\bDUET_KERNEL\b' | wc -l)
  waits=$(grep -o 'AFTER_PRIOR_LAUNCH();' "$file" | wc -l)
  if [ "$2" = yes ] && [ "$kernels" -gt 0 ] && [ "$kernels" -eq "$waits" ]; then
    echo "PASS: $1: $kernels kernel definitions, each with AFTER_PRIOR_LAUNCH();"
    passed=$((passed + 1))
  elif [ "$2" = no ] && [ "$waits" -eq 0 ]; then
    echo "PASS: $1: not marked after_prior, no AFTER_PRIOR_LAUNCH();"
    passed=$((passed + 1))
  else
    echo "FAIL: $1: after_prior $2, $kernels kernel definitions, $waits AFTER_PRIOR_LAUNCH();"
    failed=$((failed + 1))
  fi
}
marked=$(sources 1)
unmarked=$(sources 0)
if [ -z "$marked" ] || [ -z "$unmarked" ]; then
  echo "FAIL: could not read DUET__GROUPS' after_prior column from $manifest"
  failed=$((failed + 1))
fi
for s in $marked; do check "$s" yes; done
for s in $unmarked; do
  # a source that serves a marked group too was checked above
  case " $(echo $marked) " in *" $s "*) continue ;; esac
  check "$s" no
done
echo "harness: $passed passed, $failed failed, 0 skipped"
[ "$failed" -eq 0 ]
