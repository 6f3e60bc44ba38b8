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
#include "bench_util.h"

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

/* Progress overwrites one line of a terminal; redirected stderr gets none of it, unless
 * $DUET_BENCH_PROGRESS=1 asks for it (then one line per update, for logs and tests; 0 turns it
 * off on a terminal too). Once the run's rows are known, each line starts with the row and an
 * estimate of the time left: the time so far per unit of work done (bench_work: n^3 for gemm,
 * n^2 for the others) times the work left, so that a sweep, which runs its smallest sizes
 * first, is not estimated as if its later rows were as short. */
static int progress_on = -1, progress_tty, progress_shown;
static int progress_rows, progress_done;
static double progress_t0, progress_work, progress_work_done;

static void progress_init(void) {
  const char *env = getenv("DUET_BENCH_PROGRESS");
  progress_tty = isatty(STDERR_FILENO);
  progress_on = env && *env ? strcmp(env, "0") != 0 : progress_tty;
}

void bench_progress_plan(int rows, double work) {
  progress_rows = rows;
  progress_done = 0;
  progress_work = work;
  progress_work_done = 0;
  progress_t0 = bench_now_ms();
}

void bench_progress_row_done(double work) {
  progress_done++;
  progress_work_done += work;
}

static void print_left(double ms) {
  long s = (long)(ms / 1000 + 0.5);
  if (s < 60)
    fprintf(stderr, "~%lds left", s);
  else if (s < 3600)
    fprintf(stderr, "~%ldm%02lds left", s / 60, s % 60);
  else
    fprintf(stderr, "~%ldh%02ldm left", s / 3600, s / 60 % 60);
}

void bench_progress(const char *fmt, ...) {
  if (progress_on < 0) progress_init();
  if (!progress_on) return;
  if (progress_tty) fputs("\r\033[K", stderr);
  if (progress_rows > 0) {
    int row = progress_done < progress_rows ? progress_done + 1 : progress_rows;
    fprintf(stderr, "[row %d of %d, ", row, progress_rows);
    if (progress_done > 0 && progress_work_done > 0)
      print_left((bench_now_ms() - progress_t0) / progress_work_done *
                 (progress_work > progress_work_done ? progress_work - progress_work_done : 0));
    else
      fputs("estimating time left", stderr);
    fputs("] ", stderr);
  }
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  if (!progress_tty) fputc('\n', stderr);
  fflush(stderr);
  progress_shown = progress_tty;
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

int bench_duet_error(bench_job *job, int status, const char *call) {
  snprintf(job->err, sizeof job->err, "%s: %s: %s", call, duet_status_name(status),
           duet_ctx_last_error(job->dev->ctx));
  return status;
}
