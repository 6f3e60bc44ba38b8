/* SPDX-License-Identifier: MIT */
/* Running a block's rows on a device or the CPU (bench_run.c). */
#ifndef DUET_BENCH_RUN_H
#define DUET_BENCH_RUN_H

#include "bench.h"

/* Runs every selected row of this device on the block; appends one result per row. */
int bench_run_device(const bench_opts *o, bench_dev *dev, const bench_host *h, bench_results *out);
int bench_run_cpu(const bench_opts *o, const bench_host *h, bench_results *out);
/* How many rows bench_run_device and bench_run_cpu will add for a block of this size. */
int bench_device_rows(const bench_opts *o, const bench_dev *dev, bench_routine r, bench_size s);
int bench_cpu_rows(const bench_opts *o, bench_routine r, bench_size s);
/* A job's buffers (every input set uploaded) and nev events; on failure job->err says why. */
int bench_job_setup(bench_job *job, int nev);
void bench_job_free(bench_job *job);
/* One untimed run of the row on set 0, its output checked unless --no-verify: sets res's
 * verdict (and error, tol, note); a failed call returns its status with job->err filled. */
int bench_job_verify(bench_job *job, const bench_row_def *row, bench_result *res);
/* Whether the CPU baselines run at this block's size (BENCH_CPU_GEMM_MACS, BENCH_CPU_MOVE_ELEMS).
 */
int bench_cpu_sensible(const bench_host *h);

#endif
