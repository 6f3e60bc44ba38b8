/* SPDX-License-Identifier: MIT */
/* Your own kernel, one source for CUDA and OpenCL: the course's vector add (c = a + b, one
 * element per thread), written in duet_kernel.h's dialect and run on every device of every
 * backend, checked against the CPU. Build outside the tree, with each_device.h beside it, with
 *   cc vector_add.c $(pkg-config --cflags --libs duet)
 * Exits 0 when every device got it right, 1 when one did not, 77 when there is no device. */
#include <duet.h>
#include <stdio.h>
#include <stdlib.h>

#include "each_device.h"

static const char source[] =
    "DUET_KERNEL void vec_add(DUET_GLOBAL const float *a, DUET_GLOBAL const float *b,\n"
    "                         DUET_GLOBAL float *c, int n) {\n"
    "  const size_t i = DUET_GLOBAL_IDX(0);\n"
    "  if (i < (size_t)n) c[i] = a[i] + b[i];\n"
    "}\n";

enum { N = 256 * 1024 + 17 };

/* Runs the kernel on ctx; returns the number of wrong elements, or -1 when duet failed. */
static int run(duet_ctx *ctx) {
  static float a[N], b[N], c[N];
  for (int i = 0; i < N; i++) a[i] = (float)i, b[i] = 0.5f * (float)(N - i);
  duet_program *prog = NULL;
  duet_buf *da = NULL, *db = NULL, *dc = NULL;
  int wrong = -1;
  if (!duet_program_create(ctx, source, NULL, &prog) && !duet_buf_create(ctx, sizeof a, &da) &&
      !duet_buf_create(ctx, sizeof b, &db) && !duet_buf_create(ctx, sizeof c, &dc) &&
      !duet_buf_write(da, 0, a, sizeof a) && !duet_buf_write(db, 0, b, sizeof b)) {
    const unsigned block[3] = {256, 1, 1};
    const size_t grid[3] = {(N + 255) / 256, 1, 1}; /* the last block is partial */
    const duet_arg args[] = {duet_arg_buf(da), duet_arg_buf(db), duet_arg_buf(dc), duet_arg_i32(N)};
    if (!duet_launch(prog, "vec_add", grid, block, 0, args, 4) &&
        !duet_buf_read(dc, 0, c, sizeof c)) {
      wrong = 0;
      for (int i = 0; i < N; i++) wrong += c[i] != a[i] + b[i];
    }
  }
  if (wrong < 0) fprintf(stderr, "  duet: %s\n", duet_ctx_last_error(ctx));
  duet_buf_destroy(da);
  duet_buf_destroy(db);
  duet_buf_destroy(dc);
  duet_program_destroy(prog);
  return wrong;
}

int main(void) {
  char what[128];
  snprintf(what, sizeof what, "vector add of %d floats", N);
  return each_device("vector_add", what, run);
}
