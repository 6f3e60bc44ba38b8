/* SPDX-License-Identifier: MIT */
/* The block commands' output: table, CSV, JSON (bench_output.c). */
#ifndef DUET_BENCH_OUTPUT_H
#define DUET_BENCH_OUTPUT_H

#include "bench.h"

void bench_output_begin(const bench_opts *o, bench_dev *devs, int ndev);
/* Prints a finished block (table and CSV stream; JSON is printed at the end). */
void bench_output_block(const bench_opts *o, const bench_result *r, size_t n);
void bench_output_end(const bench_opts *o, bench_dev *devs, int ndev, const bench_results *all);

#endif
