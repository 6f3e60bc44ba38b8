/* SPDX-License-Identifier: MIT */
/* Host data of a block and its check against the CPU reference (bench_verify.c). */
#ifndef DUET_BENCH_VERIFY_H
#define DUET_BENCH_VERIFY_H

#include "bench.h"

/* The elements of a block's inputs a and b and of its output. */
void bench_host_elems(bench_routine r, bench_size s, size_t *a, size_t *b, size_t *out);
/* The host memory a block takes at most while it runs: its inputs, reference and the buffers
 * its jobs and CPU baselines read results into. */
double bench_host_bytes(bench_routine r, bench_size s, int verify);
int bench_host_init(bench_host *h, bench_routine r, bench_size s, uint64_t seed, int verify);
void bench_host_free(bench_host *h);
/* Fills set `set` of the inputs (set 0 equals h->a / h->b). */
void bench_fill_random(float *dst, size_t n, uint64_t seed, int set, int which);
/* Compares out with the reference; sets verdict, error, tol and note of res. */
void bench_verify(const bench_host *h, const bench_row_def *row, const float *out,
                  bench_result *res);

#endif
