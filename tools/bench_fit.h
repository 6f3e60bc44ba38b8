/* SPDX-License-Identifier: MIT */
/* Whether a block fits this machine, asked before anything of it is allocated (bench_fit.c). */
#ifndef DUET_BENCH_FIT_H
#define DUET_BENCH_FIT_H

#include "bench.h"

/* A block may take at most this share of the machine's physical memory. */
#define BENCH_HOST_SHARE 0.9

/* 0 where the block's host memory (bench_host_bytes) fits, and one input set of it fits each
 * device that runs it; else -1 with the block, what it needs and what there is in why. */
int bench_fit_host(bench_routine r, bench_size s, int verify, char *why, size_t len);
int bench_fit_device(bench_routine r, bench_size s, const bench_dev *dev, char *why, size_t len);

#endif
