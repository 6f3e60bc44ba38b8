/* SPDX-License-Identifier: MIT */
/* The two launches of one kernel that `duet-bench launch` measures duet's calls against: the
 * baseline, a minimal copy kernel with duet_copy's parameters enqueued raw through the vendor
 * API (bench_raw.h), and the same kernel's source in duet's kernel dialect, compiled with
 * duet_program_create and enqueued with duet_launch, the public user-kernel API. Both run on the
 * copy job's set 0, in duet_copy's geometry; neither reaches into the library. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_launch_raw.h"
#include "bench_util.h"
#include "bench_raw.h"

/* The baseline's source as a duet program: the kernels of bench_raw.cu and bench_raw_cl.c. */
static const char user_source[] =
    "DUET_KERNEL void bench_raw_copy(DUET_I64 rows, DUET_I64 cols,\n"
    "                                DUET_GLOBAL const float *DUET_RESTRICT in, DUET_I64 ld_in,\n"
    "                                DUET_GLOBAL float *DUET_RESTRICT out, DUET_I64 ld_out) {\n"
    "  const DUET_I64 c = (DUET_I64)DUET_GLOBAL_IDX(0);\n"
    "  for (DUET_I64 r = (DUET_I64)DUET_GLOBAL_IDX(1); r < rows && c < cols;\n"
    "       r += (DUET_I64)DUET_GLOBAL_SIZE(1))\n"
    "    out[r * ld_out + c] = in[r * ld_in + c];\n"
    "}\n";

/* A backend's half of bench_raw.h. */
typedef struct {
  duet_backend id;
  int (*open)(duet_ctx *ctx, const duet_buf *in, duet_buf *out, size_t rows, size_t cols,
              const unsigned block[2], bench_raw **raw, char *err, size_t len);
  int (*launch)(bench_raw *raw, char *err, size_t len);
  void (*close)(bench_raw *raw);
} raw_backend;

static const raw_backend backends[] = {
#ifdef DUET_HAVE_CUDA
    {DUET_BACKEND_CUDA, bench_raw_cuda_open, bench_raw_cuda_launch, bench_raw_cuda_close},
#endif
#ifdef DUET_HAVE_OPENCL
    {DUET_BACKEND_OPENCL, bench_raw_cl_open, bench_raw_cl_launch, bench_raw_cl_close},
#endif
    {DUET_BACKEND_AUTO, NULL, NULL, NULL}};

struct bench_launch_pair {
  const raw_backend *backend;
  bench_raw *raw;
  duet_program *prog;
  size_t grid[3];
  unsigned block[3];
  duet_arg args[6];
};

/* duet_copy's block, TRANSPOSE_TILE x TRANSPOSE_ROWS threads, in the context's tuning set: the
 * baseline then runs the same block on the device. */
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

bench_launch_pair *bench_launch_pair_open(bench_job *job, char *raw_err, char *user_err,
                                          size_t len) {
  const bench_size s = job->host->size;
  duet_ctx *ctx = job->dev->ctx;
  raw_err[0] = user_err[0] = '\0';
  bench_launch_pair *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  for (const raw_backend *b = backends; b->launch; b++)
    if (b->id == job->dev->backend) p->backend = b;
  copy_block(ctx, p->block);
  p->block[2] = 1;
  p->grid[0] = (s.n + p->block[0] - 1) / p->block[0];
  p->grid[1] = (s.m + p->block[0] - 1) / p->block[0];
  p->grid[2] = 1;
  const duet_arg args[6] = {duet_arg_i64((long long)s.m), duet_arg_i64((long long)s.n),
                            duet_arg_buf(job->a[0]),      duet_arg_i64((long long)s.n),
                            duet_arg_buf(job->out[0]),    duet_arg_i64((long long)s.n)};
  memcpy(p->args, args, sizeof args);
  const int st = duet_program_create(ctx, user_source, NULL, &p->prog);
  if (st)
    snprintf(user_err, len, "duet_program_create: %s: %s", duet_status_name(st),
             duet_ctx_last_error(ctx));
  /* The raw open makes (CUDA) the device current for the launches: it goes last. */
  if (!p->backend)
    snprintf(raw_err, len, "no raw launch for this backend");
  else if (p->backend->open(ctx, job->a[0], job->out[0], s.m, s.n, p->block, &p->raw, raw_err, len))
    p->raw = NULL;
  return p;
}

int bench_launch_raw(bench_job *job, const bench_row_def *row, int set) {
  (void)row;
  (void)set; /* its arguments are set once: set 0's */
  bench_launch_pair *p = job->raw;
  return p->backend->launch(p->raw, job->err, sizeof job->err);
}

int bench_launch_user(bench_job *job, const bench_row_def *row, int set) {
  (void)row;
  (void)set;
  bench_launch_pair *p = job->raw;
  int st = duet_launch(p->prog, "bench_raw_copy", p->grid, p->block, 0, p->args, 6);
  return st ? bench_duet_error(job, st, "duet_launch") : 0;
}

void bench_launch_pair_close(bench_launch_pair *p) {
  if (!p) return;
  if (p->raw) p->backend->close(p->raw);
  duet_program_destroy(p->prog);
  free(p);
}
