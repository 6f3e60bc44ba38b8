# SPDX-License-Identifier: MIT
# duet-bench's own test: its command line and output formats on tiny sizes (tests/local.mk, which
# defines TESTS, is included before this file). It runs tools/duet-bench, which `make check`
# builds first as part of `all`.
TESTS += tests/test_bench.sh
EXTRA_DIST += tests/test_bench.sh
# The version --version must print.
AM_TESTS_ENVIRONMENT += PACKAGE_VERSION='$(PACKAGE_VERSION)'; export PACKAGE_VERSION;
# Whether duet-bench has its kernels command (configure --enable-bench-internals).
if DUET_BENCH_INTERNALS
AM_TESTS_ENVIRONMENT += DUET_BENCH_INTERNALS=1; export DUET_BENCH_INTERNALS;
endif
