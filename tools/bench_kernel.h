/* SPDX-License-Identifier: MIT */
/* The kernel command: a kernel of the user's own (bench_kernel.c). */
#ifndef DUET_BENCH_KERNEL_H
#define DUET_BENCH_KERNEL_H

#include "bench.h"

/* The kernel command's options (codes below), its checks and source (2: bad usage), its run. */
enum {
  BENCH_OPT_GRID = 512,
  BENCH_OPT_BLOCK,
  BENCH_OPT_SHARED,
  BENCH_OPT_BYTES,
  BENCH_OPT_ARG,
  BENCH_OPT_OPTIONS
};
int bench_kernel_option(int c, const char *arg, bench_opts *o);
int bench_kernel_check(bench_opts *o, const char *file, const char *name);
/* Whether any of the kernel command's options was given. */
int bench_kernel_given(const bench_opts *o);
int bench_kernel(const bench_opts *o, bench_dev *devs, int ndev);

#endif
