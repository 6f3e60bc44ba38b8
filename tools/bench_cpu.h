/* SPDX-License-Identifier: MIT */
/* The CPU baselines (bench_cpu.c). */
#ifndef DUET_BENCH_CPU_H
#define DUET_BENCH_CPU_H

#include "bench_verify.h"

void bench_cpu_gemm_simple(const bench_host *h, float *out);
void bench_cpu_gemm_blocked(const bench_host *h, float *out);
void bench_cpu_transpose_simple(const bench_host *h, float *out);
void bench_cpu_transpose_blocked(const bench_host *h, float *out);

#endif
