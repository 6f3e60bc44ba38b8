/* SPDX-License-Identifier: MIT */
/* The overlap, plan and kernels commands (bench_overlap.c, bench_plan.c, bench_kernels.c). */
#ifndef DUET_BENCH_COMMANDS_H
#define DUET_BENCH_COMMANDS_H

#include "bench.h"

/* overlap: the data in this many chunks, dealt to this many queues of a family. */
#define BENCH_OVERLAP_CHUNKS 16
#define BENCH_OVERLAP_QUEUES 3
/* Each command on the opened devices; returns the exit status. */
int bench_overlap(const bench_opts *o, bench_dev *devs, int ndev);
/* plan: duet_sgemm_plan's text for one shape per device and variant (bench_plan.c); the check
 * returns nonzero for a sweep or a --variant that is no duet_sgemm variant. */
int bench_plan(const bench_opts *o, bench_dev *devs, int ndev);
int bench_plan_check(const bench_opts *o);
/* Built with --enable-bench-internals only (bench_opts.c refuses the command without). */
#ifdef DUET_BENCH_INTERNALS
int bench_kernels(const bench_opts *o, bench_dev *devs, int ndev);
#else
static inline int bench_kernels(const bench_opts *o, bench_dev *devs, int ndev) {
  (void)o;
  (void)devs;
  (void)ndev;
  return 2;
}
#endif

#endif
