# SPDX-License-Identifier: MIT
# duet-bench: the benchmark CLI, installed as `duet-bench`. Its peers (cuBLAS, CLBlast) are opened
# at run time (dlopen), never linked, so that the bench starts on any machine; each builds as its
# own convenience library so that its include path stays on its own files: the CUDA toolkit's
# CL/cl.h would shadow the system one.
bin_PROGRAMS = tools/duet-bench
# Each bench_X.c declares what it offers the others in bench_X.h; bench.h holds the shared types.
tools_duet_bench_SOURCES = tools/bench.h tools/peer.h tools/bench_main.c \
	tools/bench_opts.c tools/bench_opts.h tools/bench_rows.c tools/bench_rows.h \
	tools/bench_run.c tools/bench_run.h tools/bench_verify.c tools/bench_verify.h \
	tools/bench_cpu.c tools/bench_cpu.h tools/bench_output.c tools/bench_output.h \
	tools/bench_format.c tools/bench_format.h tools/bench_fit.c tools/bench_fit.h tools/bench_plot.c tools/bench_plot.h \
	tools/bench_util.c tools/bench_util.h tools/bench_launch.c tools/bench_launch.h \
	tools/bench_launch_raw.c tools/bench_launch_raw.h tools/bench_launch_output.c tools/bench_plan.c \
	tools/bench_raw.h tools/peer_dl.c tools/bench_kernel.c tools/bench_kernel.h \
	tools/bench_overlap.c tools/bench_commands.h tools/bench_suite.c tools/bench_suite.h \
	tools/bench_suite_output.c tools/bench_suite_plot.c \
	backends/dl_table.c backends/dl_table.h
tools_duet_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/backends
# duet-bench keeps to duet.h's API and links libduet.so, except with --enable-bench-internals
# (m4/duet_bench.m4): its kernels command reads the library's internals.
if DUET_BENCH_INTERNALS
tools_duet_bench_SOURCES += tools/bench_kernels.c
tools_duet_bench_LDADD = libduet_core.la $(DL_LIBS)
else
EXTRA_DIST += tools/bench_kernels.c
tools_duet_bench_LDADD = libduet.la $(DL_LIBS)
endif

if DUET_HAVE_CUBLAS
noinst_LTLIBRARIES += tools/libpeer_cublas.la
tools_libpeer_cublas_la_SOURCES = tools/peer_cublas.c
tools_libpeer_cublas_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/backends $(CUDA_CPPFLAGS)
tools_duet_bench_LDADD += tools/libpeer_cublas.la $(CUDA_LDFLAGS) $(CUDA_LIBS)
endif

if DUET_HAVE_CLBLAST
noinst_LTLIBRARIES += tools/libpeer_clblast.la
tools_libpeer_clblast_la_SOURCES = tools/peer_clblast.c
tools_libpeer_clblast_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/backends $(CLBLAST_CFLAGS) \
	$(OPENCL_CFLAGS)
tools_duet_bench_LDADD += tools/libpeer_clblast.la
endif

# The raw launch that `duet-bench launch` compares duet's calls with, one half per backend. The
# CUDA half is a baseline copy kernel (bench_raw.cu), compiled by the .cu.lo rule of Makefile.am
# (which sees no per-target flags and tracks no dependencies: hence the lines naming what they
# include).
EXTRA_DIST += tools/bench_raw.cu tools/peer_cub.cu
if DUET_HAVE_CUDA
noinst_LTLIBRARIES += tools/libbench_raw_cuda.la
tools_libbench_raw_cuda_la_SOURCES =
tools_libbench_raw_cuda_la_LIBADD = tools/bench_raw.lo tools/peer_cub.lo
tools_libbench_raw_cuda_la_DEPENDENCIES = tools/bench_raw.lo tools/peer_cub.lo
tools/peer_cub.lo: $(srcdir)/src/duet.h
tools/bench_raw.lo: $(srcdir)/tools/bench_raw.h $(srcdir)/src/duet.h
CLEANFILES += tools/bench_raw.lo tools/bench_raw.o tools/peer_cub.lo tools/peer_cub.o
tools_duet_bench_LDADD += tools/libbench_raw_cuda.la $(CUDA_LDFLAGS) $(CUDA_LIBS)
endif

if DUET_HAVE_OPENCL
noinst_LTLIBRARIES += tools/libbench_raw_cl.la
# libduet's OpenCL loader is hidden inside it: the raw launch compiles its own copy (and the
# bench its own backends/dl_table.c, above).
tools_libbench_raw_cl_la_SOURCES = tools/bench_raw_cl.c backends/opencl_loader.c \
	backends/opencl_loader.h
tools_libbench_raw_cl_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/backends $(OPENCL_CFLAGS)
tools_duet_bench_LDADD += tools/libbench_raw_cl.la $(OPENCL_LIBS)
endif

tools_duet_bench_LDADD += -lm

# duet-coldstart: a fresh process's context and first fast sgemm with the program cache cold,
# warm and off (docs/results/cache.md). Built, not installed.
noinst_PROGRAMS += tools/duet-coldstart
tools_duet_coldstart_SOURCES = tools/coldstart.c
tools_duet_coldstart_LDADD = libduet.la -lm

# duet-sweep: variants of the course kernels (tools/sweep_kernels.h) built through the
# user-kernel API and timed beside duet's routines, and --dump of the disk cache's binaries:
# .ci/device-validate.sh's sweep stage. Built, not installed.
noinst_PROGRAMS += tools/duet-sweep
tools_duet_sweep_SOURCES = tools/sweep.c tools/sweep_kernels.h
tools_duet_sweep_LDADD = libduet.la -lm
