/* SPDX-License-Identifier: MIT */
/* The raw rows of `duet-bench launch`: the baseline, and for each duet call the same kernel,
 * which the call is first asked to describe rather than run (duet__describe), each opened
 * through its backend's half of bench_raw.h. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "bench_raw.h"

/* A backend's half of bench_raw.h. */
struct bench_raw_backend {
  duet_backend id;
  int (*open_copy)(duet_ctx *ctx, const duet_buf *in, duet_buf *out, size_t rows, size_t cols,
                   const unsigned block[2], bench_raw **raw, char *err, size_t len);
  int (*open_same)(duet_ctx *ctx, const duet__described *d, bench_raw **raw, char *err, size_t len);
  int (*launch)(bench_raw *raw, char *err, size_t len);
  void (*close)(bench_raw *raw);
};

static const struct bench_raw_backend backends[] = {
#ifdef DUET_HAVE_CUDA
    {DUET_BACKEND_CUDA, bench_raw_cuda_open, bench_raw_cuda_open_same, bench_raw_cuda_launch,
     bench_raw_cuda_close},
#endif
#ifdef DUET_HAVE_OPENCL
    {DUET_BACKEND_OPENCL, bench_raw_cl_open, bench_raw_cl_open_same, bench_raw_cl_launch,
     bench_raw_cl_close},
#endif
    {DUET_BACKEND_AUTO, NULL, NULL, NULL, NULL}};

/* Sets raw's backend, the job's; 0, or -1 where it has no raw launch. */
static int find_backend(bench_job *job, bench_raw_launch *raw) {
  memset(raw, 0, sizeof *raw);
  for (const struct bench_raw_backend *b = backends; b->launch; b++)
    if (b->id == job->dev->backend) raw->backend = b;
  if (raw->backend) return 0;
  snprintf(job->err, sizeof job->err, "no raw launch for this backend");
  return -1;
}

int bench_launch_raw(bench_job *job, const bench_row_def *row, int set) {
  (void)set; /* a raw launch has its buffers set once: set 0's */
  bench_raw_launch *raw = (bench_raw_launch *)job->raw + row->variant;
  return raw->backend->launch(raw->handle, job->err, sizeof job->err);
}

/* duet_copy's block, TRANSPOSE_TILE x TRANSPOSE_ROWS threads (src/manifest.c), in the context's
 * tuning set: the baseline then runs the same block on the device. */
static void copy_block(const duet_ctx *ctx, unsigned block[2]) {
  const char *name;
  int v;
  block[0] = 32;
  block[1] = 8;
  for (int i = 0; duet_ctx_tunable(ctx, i, &name, &v) == DUET_OK; i++) {
    if (strcmp(name, "TRANSPOSE_TILE") == 0) block[0] = (unsigned)v;
    if (strcmp(name, "TRANSPOSE_ROWS") == 0) block[1] = (unsigned)v;
  }
}

int bench_launch_raw_copy(bench_job *job, bench_raw_launch *raw) {
  const bench_size s = job->host->size;
  unsigned block[2];
  if (find_backend(job, raw)) return -1;
  copy_block(job->dev->ctx, block);
  return raw->backend->open_copy(job->dev->ctx, job->a[0], job->out[0], s.m, s.n, block,
                                 &raw->handle, job->err, sizeof job->err);
}

/* The names of the described launches, joined by '+'. */
static void kernel_names(const duet__description *d, char *kernel, size_t len) {
  size_t at = 0;
  kernel[0] = '\0';
  for (unsigned i = 0; i < d->n && at < len; i++) {
    int n = snprintf(kernel + at, len - at, "%s%s", i ? "+" : "", d->step[i].kernel->name);
    if (n < 0) break;
    at += (size_t)n;
  }
}

int bench_launch_raw_same(bench_job *job, const bench_row_def *row, bench_raw_launch *raw,
                          char *kernel, size_t len) {
  duet_ctx *ctx = job->dev->ctx;
  duet__description d;
  kernel[0] = '\0';
  if (find_backend(job, raw)) return -1;
  duet__describe(ctx, &d);
  int st = row->launch(job, row, 0);
  duet__describe(ctx, NULL);
  if (st) return -1; /* job->err says why */
  kernel_names(&d, kernel, len);
  if (d.n != 1) {
    if (d.n)
      snprintf(job->err, sizeof job->err, "the call enqueues %u launches, not one", d.n);
    else
      snprintf(job->err, sizeof job->err, "the call enqueues nothing");
    return 1;
  }
  return raw->backend->open_same(ctx, &d.step[0], &raw->handle, job->err, sizeof job->err);
}

void bench_launch_raw_close(bench_raw_launch *raw) {
  if (raw->handle) raw->backend->close(raw->handle);
  raw->handle = NULL;
}
