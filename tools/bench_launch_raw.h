/* SPDX-License-Identifier: MIT */
/* The launch command's two launches of one copy kernel (bench_launch_raw.c): raw through the
 * vendor API, and through duet_launch. */
#ifndef DUET_BENCH_LAUNCH_RAW_H
#define DUET_BENCH_LAUNCH_RAW_H

#include "bench.h"

typedef struct bench_launch_pair bench_launch_pair;
/* Opens both on the copy job's set 0 (its buffers set up): NULL when out of host memory. Each
 * that cannot open says why in raw_err or user_err (len bytes each), else leaves it empty. */
bench_launch_pair *bench_launch_pair_open(bench_job *job, char *raw_err, char *user_err,
                                          size_t len);
void bench_launch_pair_close(bench_launch_pair *p);
/* The launch functions of the two rows: job->raw is the pair. */
int bench_launch_raw(bench_job *job, const bench_row_def *row, int set);
int bench_launch_user(bench_job *job, const bench_row_def *row, int set);

#endif
