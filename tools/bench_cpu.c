/* SPDX-License-Identifier: MIT */
/* The CPU baselines a matrix-multiply course starts from, single-threaded, in float like the
 * kernels: the naive triple loop and the loop over SBLK x SBLK blocks (cache blocking). Unlike
 * the usual classroom version, the blocked loops also handle the leftovers when SBLK does not
 * divide the size. */
#include "config.h"

#include <string.h>

#include "bench.h"
#include "bench_cpu.h"

#define SBLK 32

static size_t min_sz(size_t a, size_t b) { return a < b ? a : b; }

void bench_cpu_gemm_simple(const bench_host *h, float *c) {
  size_t m = h->size.m, n = h->size.n, k = h->size.k;
  for (size_t i = 0; i < m; i++)
    for (size_t j = 0; j < n; j++) {
      float sum = 0.0f;
      for (size_t p = 0; p < k; p++) sum += h->a[i * k + p] * h->b[p * n + j];
      c[i * n + j] = sum;
    }
}

void bench_cpu_gemm_blocked(const bench_host *h, float *c) {
  size_t m = h->size.m, n = h->size.n, k = h->size.k;
  memset(c, 0, m * n * sizeof *c);
  for (size_t i = 0; i < m; i += SBLK)
    for (size_t j = 0; j < n; j += SBLK)
      for (size_t p = 0; p < k; p += SBLK) {
        size_t ie = min_sz(i + SBLK, m), je = min_sz(j + SBLK, n), pe = min_sz(p + SBLK, k);
        for (size_t bi = i; bi < ie; bi++)
          for (size_t bj = j; bj < je; bj++) {
            float sum = 0.0f;
            for (size_t bp = p; bp < pe; bp++) sum += h->a[bi * k + bp] * h->b[bp * n + bj];
            c[bi * n + bj] += sum;
          }
      }
}

void bench_cpu_transpose_simple(const bench_host *h, float *out) {
  size_t rows = h->size.m, cols = h->size.n;
  for (size_t i = 0; i < rows; i++)
    for (size_t j = 0; j < cols; j++) out[j * rows + i] = h->a[i * cols + j];
}

void bench_cpu_transpose_blocked(const bench_host *h, float *out) {
  size_t rows = h->size.m, cols = h->size.n;
  for (size_t i = 0; i < rows; i += SBLK)
    for (size_t j = 0; j < cols; j += SBLK) {
      size_t ie = min_sz(i + SBLK, rows), je = min_sz(j + SBLK, cols);
      for (size_t bi = i; bi < ie; bi++)
        for (size_t bj = j; bj < je; bj++) out[bj * rows + bi] = h->a[bi * cols + bj];
    }
}
