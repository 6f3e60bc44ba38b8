/* SPDX-License-Identifier: MIT */
/* The launch command (bench_launch.c) and its output (bench_launch_output.c). */
#ifndef DUET_BENCH_LAUNCH_H
#define DUET_BENCH_LAUNCH_H

#include "bench.h"

/* Without --reps / --warmup; the median of BENCH_LAUNCH_ROUNDS rounds is reported. */
#define BENCH_LAUNCH_CALLS 2000
#define BENCH_LAUNCH_WARMUP 200
#define BENCH_LAUNCH_ROUNDS 7
/* A row is flagged "backlog" when draining the queue after the calls added this much per call:
 * the device ran behind the host, and a full queue may have held the host back. */
#define BENCH_LAUNCH_BACKLOG 1.2

typedef struct {
  const char *backend;
  int device;
  char device_name[256];
  const char *call; /* "duet_copy", ... "duet_launch", or the raw API: "cudaLaunchKernel", ... */
  int raw;          /* the baseline: a launch through the vendor API */
  char kernel[128]; /* what the row enqueues: bench_raw_copy, or "" for duet's own calls */
  bench_routine routine; /* the shape: size.m x size.n, and size.k for gemm */
  bench_size size;
  bench_verdict verdict;
  int timed;
  int calls, rounds, warmup;
  /* us per call, medians over rounds: host clock around the enqueues alone (with the min and max
   * round), host clock to the end of the duet_finish after them, duet events around them */
  double host_us, host_min_us, host_max_us, finish_us, device_us;
  double above_raw_us; /* host_us - the baseline's host_us; NaN for the baseline or without it */
  int backlog;
  char note[512];
} bench_launch_result;
/* The launch command on the opened devices; returns the exit status. */
int bench_launch(const bench_opts *o, bench_dev *devs, int ndev);
/* bench_launch_output.c: table and CSV streamed per device, JSON at the end. */
void bench_launch_output_begin(const bench_opts *o, bench_dev *devs, int ndev);
void bench_launch_output_device(const bench_opts *o, const bench_launch_result *r, int n);
void bench_launch_output_end(const bench_opts *o, bench_dev *devs, int ndev,
                             const bench_launch_result *all, int n);

#endif
