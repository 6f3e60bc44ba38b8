# SPDX-License-Identifier: MIT
# Tests, included by the top-level Makefile.am: one harness library that every program links,
# built by `make check` alone, and the programs below, run by automake's parallel driver (exit 77 =
# SKIP). Each prints one line per case and a final "harness: N passed, N failed, N skipped"
# that CI sums over tests/*.log.
# Headers come from the global AM_CPPFLAGS (-I$(top_srcdir)/src).

check_LIBRARIES = %reldir%/libharness.a
%canon_reldir%_libharness_a_SOURCES = %reldir%/harness.h %reldir%/harness.c \
	%reldir%/matrix.c %reldir%/case_move.c %reldir%/case_sgemm.c \
	%reldir%/zygote.h %reldir%/zygote.c

check_PROGRAMS = %reldir%/test_api %reldir%/test_transpose %reldir%/test_gemm \
	%reldir%/test_errors %reldir%/test_manifest %reldir%/test_threads %reldir%/test_fuzz \
	%reldir%/test_loader %reldir%/test_queues %reldir%/test_program %reldir%/test_regress %reldir%/test_course \
	%reldir%/test_cache %reldir%/test_cubin_params %reldir%/test_nvidia_jit %reldir%/test_plan \
	%reldir%/test_streamk %reldir%/test_overlap
# shuffle_once's tickets under many launches (REDUCE_ONE_PASS)
check_PROGRAMS += %reldir%/test_reduce_once
TESTS = $(check_PROGRAMS)
# every kernel of a source the CUDA backend may launch to overlap the launch before it waits for
# that launch (AFTER_PRIOR_LAUNCH, src/manifest.h's after_prior)
TESTS += %reldir%/test_after_prior.sh
EXTRA_DIST += %reldir%/test_after_prior.sh
# Each test program runs in its own process under a time limit: a hung kernel fails that
# program, not the whole run.
LOG_COMPILER = $(SHELL) $(top_srcdir)/tests/time-limit.sh
# No test writes the user's program cache (~/.cache/duet): the cache is off unless a test
# points DUET_CACHE_DIR at a directory of its own (test_cache).
AM_TESTS_ENVIRONMENT = DUET_CACHE_DIR=off; export DUET_CACHE_DIR;
EXTRA_DIST += tests/time-limit.sh

%canon_reldir%_libharness_a_CFLAGS = $(AM_CFLAGS) $(OPENMP_CFLAGS)
%canon_reldir%_test_api_LDFLAGS = $(OPENMP_CFLAGS)
%canon_reldir%_test_transpose_LDFLAGS = $(OPENMP_CFLAGS)
%canon_reldir%_test_gemm_LDFLAGS = $(OPENMP_CFLAGS)
%canon_reldir%_test_errors_LDFLAGS = $(OPENMP_CFLAGS)
%canon_reldir%_test_manifest_LDFLAGS = $(OPENMP_CFLAGS)
%canon_reldir%_test_threads_LDFLAGS = $(OPENMP_CFLAGS) -pthread
%canon_reldir%_test_fuzz_LDFLAGS = $(OPENMP_CFLAGS)
%canon_reldir%_harness_ldadd = %reldir%/libharness.a $(top_builddir)/libduet.la -lm
# For the tests that read a call's plan (duet__describe): the library's objects, not libduet.so,
# which exports the duet_ API alone.
%canon_reldir%_internal_ldadd = %reldir%/libharness.a $(top_builddir)/libduet_core.la -lm
%canon_reldir%_test_api_LDADD = $(%canon_reldir%_harness_ldadd)
%canon_reldir%_test_transpose_LDADD = $(%canon_reldir%_harness_ldadd)
%canon_reldir%_test_gemm_LDADD = $(%canon_reldir%_harness_ldadd)
%canon_reldir%_test_errors_LDADD = $(%canon_reldir%_harness_ldadd)
%canon_reldir%_test_manifest_LDADD = $(%canon_reldir%_harness_ldadd)
%canon_reldir%_test_threads_LDADD = $(%canon_reldir%_harness_ldadd)
%canon_reldir%_test_fuzz_LDADD = $(%canon_reldir%_harness_ldadd)
%canon_reldir%_test_loader_LDFLAGS = $(OPENMP_CFLAGS)
%canon_reldir%_test_loader_LDADD = $(%canon_reldir%_harness_ldadd)
%canon_reldir%_test_queues_LDFLAGS = $(OPENMP_CFLAGS)
%canon_reldir%_test_queues_LDADD = $(%canon_reldir%_internal_ldadd)
%canon_reldir%_test_program_LDFLAGS = $(OPENMP_CFLAGS)
%canon_reldir%_test_program_LDADD = $(%canon_reldir%_harness_ldadd)
%canon_reldir%_test_regress_LDFLAGS = $(OPENMP_CFLAGS)
%canon_reldir%_test_regress_LDADD = $(%canon_reldir%_internal_ldadd)
%canon_reldir%_test_overlap_LDFLAGS = $(OPENMP_CFLAGS)
%canon_reldir%_test_overlap_LDADD = $(%canon_reldir%_internal_ldadd)
%canon_reldir%_test_streamk_LDFLAGS = $(OPENMP_CFLAGS)
%canon_reldir%_test_streamk_LDADD = $(%canon_reldir%_internal_ldadd)
%canon_reldir%_test_reduce_once_LDFLAGS = $(OPENMP_CFLAGS)
%canon_reldir%_test_reduce_once_LDADD = $(%canon_reldir%_internal_ldadd)
%canon_reldir%_test_course_LDFLAGS = $(OPENMP_CFLAGS)
%canon_reldir%_test_course_LDADD = $(%canon_reldir%_harness_ldadd)
%canon_reldir%_test_course_CFLAGS = $(AM_CFLAGS) $(OPENMP_CFLAGS)
%canon_reldir%_test_cache_LDFLAGS = $(OPENMP_CFLAGS)
%canon_reldir%_test_cache_LDADD = $(%canon_reldir%_harness_ldadd)
# The CUBIN parser alone, on the host: it needs neither CUDA nor a GPU, so it runs in CI.
%canon_reldir%_test_cubin_params_SOURCES = %reldir%/test_cubin_params.c backends/cubin_params.c \
	backends/cubin_params.h
%canon_reldir%_test_cubin_params_LDFLAGS = $(OPENMP_CFLAGS)
%canon_reldir%_test_cubin_params_LDADD = $(%canon_reldir%_harness_ldadd)
# PTX to CUBIN through libcuda's JIT alone: it fails cleanly in CI (no driver), assembles on a
# GPU machine.
%canon_reldir%_test_nvidia_jit_SOURCES = %reldir%/test_nvidia_jit.c backends/nvidia_jit.c \
	backends/nvidia_jit.h backends/dl_table.c backends/dl_table.h
%canon_reldir%_test_nvidia_jit_LDFLAGS = $(OPENMP_CFLAGS)
%canon_reldir%_test_nvidia_jit_LDADD = $(%canon_reldir%_harness_ldadd) $(DL_LIBS)
# The GEMM plan alone, on the host, on fabricated devices (src/gemm_plan.c through the library's
# objects): it runs in CI without a GPU.
%canon_reldir%_test_plan_LDFLAGS = $(OPENMP_CFLAGS)
%canon_reldir%_test_plan_LDADD = $(%canon_reldir%_internal_ldadd)

# The examples of kernels of your own (examples/*.c, each one source run on every device and
# checked against the CPU) run as tests too: on PoCL in CI. They exit 0, 1 or 77 and print one
# line per device, not the harness's lines.
DUET_KERNEL_EXAMPLES = examples/vector_add examples/stencil examples/matmul examples/reduce
check_PROGRAMS += $(DUET_KERNEL_EXAMPLES)
# Their shared loop over the devices (an outside build copies it beside them).
EXTRA_DIST += examples/each_device.h
examples_vector_add_LDADD = $(top_builddir)/libduet.la
examples_stencil_LDADD = $(top_builddir)/libduet.la
examples_matmul_LDADD = $(top_builddir)/libduet.la -lm
examples_reduce_LDADD = $(top_builddir)/libduet.la -lm
