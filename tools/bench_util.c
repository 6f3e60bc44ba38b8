/* SPDX-License-Identifier: MIT */
/* Small helpers: clock, random numbers, statistics, progress, growing arrays. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

double bench_now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

uint64_t bench_splitmix(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

void bench_stats(double *v, int n, double *med, double *min, double *max) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  *min = v[0];
  *max = v[n - 1];
  *med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Progress overwrites one line of a terminal; redirected stderr gets none of it. */
static int progress_on = -1, progress_shown;

void bench_progress(const char *fmt, ...) {
  if (progress_on < 0) progress_on = isatty(STDERR_FILENO);
  if (!progress_on) return;
  va_list ap;
  va_start(ap, fmt);
  fputs("\r\033[K", stderr);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fflush(stderr);
  progress_shown = 1;
}

void bench_progress_done(void) {
  if (!progress_shown) return;
  fputs("\r\033[K", stderr);
  fflush(stderr);
  progress_shown = 0;
}

void *bench_xmalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    bench_progress_done();
    fprintf(stderr, "duet-bench: out of host memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}

bench_result *bench_results_add(bench_results *rs) {
  if (rs->n == rs->cap) {
    size_t cap = rs->cap ? 2 * rs->cap : 64;
    bench_result *r = realloc(rs->r, cap * sizeof *r);
    if (!r) {
      bench_progress_done();
      fprintf(stderr, "duet-bench: out of host memory\n");
      exit(1);
    }
    rs->r = r;
    rs->cap = cap;
  }
  bench_result *r = &rs->r[rs->n++];
  memset(r, 0, sizeof *r);
  return r;
}
