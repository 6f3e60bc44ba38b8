#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs one test program under a time limit, so that a hung kernel fails that program alone and
# the rest of `make check` goes on. DUET_TEST_TIMEOUT sets the limit in seconds (default 900,
# well above the large tier's two minutes on an H100). timeout's 124 is a FAIL to automake.
# usage: time-limit.sh PROGRAM [ARGS...]
limit=${DUET_TEST_TIMEOUT:-900}
if command -v timeout >/dev/null 2>&1; then
  timeout --kill-after=10 "$limit" "$@"
  rc=$?
  [ $rc -eq 124 ] || [ $rc -eq 137 ] && echo "FAIL: $1 ran past its limit of $limit s (DUET_TEST_TIMEOUT)"
  exit $rc
fi
exec "$@"
