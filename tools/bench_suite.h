/* SPDX-License-Identifier: MIT */
/* gemm --suite: the shapes a user moving from cuBLAS multiplies, each compared with the vendor
 * (bench_suite.c), and their table, CSV, JSON and plot (bench_suite_output.c). */
#ifndef DUET_BENCH_SUITE_H
#define DUET_BENCH_SUITE_H

#include "bench.h"

/* The rows the suite runs unless --variant says otherwise: AUTO, duet's own variants (naive only
 * up to BENCH_SUITE_NAIVE_MACS multiply-adds) and the vendors. */
#define BENCH_SUITE_VARIANTS "auto,fast,register,tiled,coalesced,naive,cublas,clblast"
#define BENCH_SUITE_NAIVE_MACS (1ull << 28)
/* Another row is "faster than AUTO" when its median is below this share of AUTO's: medians of
 * the same kernel, run twice, differ by a percent or two. */
#define BENCH_SUITE_SLOWER 0.97
/* Below this share of the vendor's speed a shape misses issue 22's target. */
#define BENCH_SUITE_TARGET 0.85

/* The suite's sizes for routine r on a device of that type (the CPU's scaled down so that it
 * runs in a minute or two on PoCL): gemm's shapes, and copy's sizes, the bandwidth reference of
 * the shapes with m = 1 or n = 1 (one per size of their matrix). Returns the count (0 for other
 * routines). Under the test hook (o->suite_scale > 1) every device gets the CPU's list with
 * dimensions above 16 divided by the scale. */
int bench_suite_sizes(const bench_opts *o, bench_routine r, int is_cpu, bench_size *out);
/* How many gemm shapes the suite has for a device of that type. */
int bench_suite_count(int is_cpu);
/* Whether the suite runs this row at size s (naive only where it is cheap). */
int bench_suite_row_runs(const bench_opts *o, const bench_row_def *row, bench_size s);

/* One shape on one device, from one block's rows. Times are medians in ms; a ratio is the other
 * row's time over AUTO's (above 1: AUTO is faster); NaN where a row is missing or not timed. */
typedef struct {
  bench_size size;
  const char *backend, *device_name;
  int device;
  double auto_ms, best_ms, tiled_ms, cublas_ms, clblast_ms;
  const char *best; /* the fastest of duet's own variants, NULL when none was timed */
  const char *pick; /* the variant AUTO runs, "" where unknown */
  const char *plan; /* its plan on one line (bench_result.plan), "" where unknown */
  double vs_cublas, vs_clblast, vs_best, vs_tiled;
  double gbps;           /* m = 1 or n = 1: the bytes of A, B and C over AUTO's time; else NaN */
  double copy_gbps;      /* buf_copy's GB/s on the same device at copy_size, NaN without */
  bench_size copy_size;  /* the copy as near as the suite has it to this line's matrix in bytes */
  double vs_copy;        /* gbps over copy_gbps */
  bench_verdict verdict; /* the worst of the shape's rows on this device */
  const char *note;      /* the first failed row's variant and note, or "" */
  const char *note_variant;
  const bench_result *rows; /* the device's rows of the block */
  size_t nrows;
} bench_suite_line;

/* The lines of one gemm block r[0..n), one per device, into out (at most cap); the count. For a
 * GPU without cuBLAS (OpenCL), cublas_ms and vs_cublas are the block's CUDA cuBLAS row's, that
 * of a device of the same name if there is one. vs_copy is NaN: bench_suite_copy fills it. */
size_t bench_suite_lines(const bench_result *r, size_t n, bench_suite_line *out, size_t cap);
/* Sets line->copy_gbps, copy_size and vs_copy from the buf_copy row of the line's device in all
 * whose size is nearest to the matrix the line reads (m = 1: B; n = 1: A). */
void bench_suite_copy(bench_suite_line *line, const bench_results *all);
/* Every gemm line of the run, in order; *n their count. Freed by the caller. */
bench_suite_line *bench_suite_all_lines(const bench_results *all, size_t *n);

/* Output (bench_suite_output.c): the table streams shape by shape; CSV and JSON come at the end,
 * on stdout with --csv or --json and into FILE.csv and FILE.json with --save FILE. */
void bench_suite_begin(const bench_opts *o, bench_dev *devs, int ndev);
void bench_suite_block(const bench_opts *o, const bench_result *r, size_t n);
/* The summary per device, the files; nonzero when a file could not be written. */
int bench_suite_end(const bench_opts *o, bench_dev *devs, int ndev, const bench_results *all);
/* The plot: each shape's ratio to the vendor, a series per device and vendor (bench_plot.c). */
int bench_suite_plot(const char *png, const bench_results *all);

#endif
