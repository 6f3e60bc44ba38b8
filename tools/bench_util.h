/* SPDX-License-Identifier: MIT */
/* Clocks, statistics, progress lines, allocation, errors (bench_util.c). */
#ifndef DUET_BENCH_UTIL_H
#define DUET_BENCH_UTIL_H

#include "bench.h"

double bench_now_ms(void); /* monotonic */
uint64_t bench_splitmix(uint64_t *state);
/* Sorts v in place; median, min and max of n > 0 values. */
void bench_stats(double *v, int n, double *med, double *min, double *max);
void bench_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Clears the progress line (a terminal's; lines written elsewhere stay). */
void bench_progress_done(void);
/* The run has `rows` rows of `work` in all (bench_work per row): progress lines then show the
 * row and the time left. */
void bench_progress_plan(int rows, double work);
void bench_progress_row_done(double work);
bench_result *bench_results_add(bench_results *rs);
void *bench_xmalloc(size_t bytes); /* exits with a message when out of memory */
/* Puts the failed duet call and the context's last error into job->err; returns status. */
int bench_duet_error(bench_job *job, int status, const char *call);

#endif
