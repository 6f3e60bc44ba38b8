/* SPDX-License-Identifier: MIT */
/* Your own kernel, one source for CUDA and OpenCL: a block reduction. Each thread sums a
 * grid-stride slice, each sub-group (warp) sums its threads with shuffles where the device has
 * them (DUET_HAVE_SHUFFLE; else a tree in shared memory), and each block writes its partial sum
 * and adds it to the total with a float atomic. Run on every device of every backend and checked
 * against a double-precision CPU sum. Build outside the tree, with each_device.h beside it, with
 *   cc reduce.c $(pkg-config --cflags --libs duet) -lm
 * Exits 0 when every device got it right, 1 when one did not, 77 when there is no device. */
#include <duet.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "each_device.h"

static const char source[] =
    "DUET_KERNEL void block_sum(DUET_GLOBAL const float *in, DUET_I64 n,\n"
    "                           DUET_GLOBAL float *partial, DUET_GLOBAL float *total\n"
    "                           DUET_SHARED_PARAM(float, sums)) {\n"
    "  DUET_SHARED_BIND(float, sums);\n"
    "  const unsigned t = DUET_THREAD_IDX(0), nb = DUET_BLOCK_DIM(0);\n"
    "  float v = 0.0f;\n"
    "  for (size_t i = DUET_GLOBAL_IDX(0); i < (size_t)n; i += DUET_GLOBAL_SIZE(0)) v += in[i];\n"
    "#ifdef DUET_HAVE_SHUFFLE\n"
    "  /* Each sub-group's sum lands in its lane 0, then in sums[its index]. */\n"
    "  const unsigned width = DUET_SUBGROUP_SIZE;\n"
    "  for (unsigned d = width / 2; d > 0; d /= 2) v += DUET_SHUFFLE_DOWN(v, d);\n"
    "  if (DUET_SUBGROUP_LANE() == 0) sums[t / width] = v;\n"
    "  DUET_BARRIER();\n"
    "  if (t < width) {\n"
    "    v = t < nb / width ? sums[t] : 0.0f;\n"
    "    for (unsigned d = width / 2; d > 0; d /= 2) v += DUET_SHUFFLE_DOWN(v, d);\n"
    "  }\n"
    "#else\n"
    "  sums[t] = v;\n"
    "  DUET_BARRIER();\n"
    "  for (unsigned s = nb / 2; s > 0; s /= 2) {\n"
    "    if (t < s) sums[t] += sums[t + s];\n"
    "    DUET_BARRIER();\n"
    "  }\n"
    "  v = sums[0];\n"
    "#endif\n"
    "  if (t == 0) {\n"
    "    partial[DUET_BLOCK_IDX(0)] = v;\n"
    "    DUET_ATOMIC_ADD_FLOAT(total, v);\n"
    "  }\n"
    "}\n";

/* Blocks of 256 (a power of two, a multiple of every sub-group width, and at most the square of
 * the narrowest one: 16), 120 of them. */
enum { N = 3 * 1000 * 1000 + 7, BLOCK = 256, BLOCKS = 120 };

/* Runs the kernel on ctx; returns the number of wrong sums, or -1 when duet failed. */
static int run(duet_ctx *ctx) {
  static float in[N], partial[BLOCKS];
  float total = 0.0f;
  double want = 0, scale = 0;
  for (int i = 0; i < N; i++) {
    in[i] = (float)rand() / RAND_MAX - 0.25f;
    want += in[i];
    scale += fabs(in[i]);
  }
  duet_program *prog = NULL;
  duet_buf *din = NULL, *dpartial = NULL, *dtotal = NULL;
  int wrong = -1;
  if (!duet_program_create(ctx, source, NULL, &prog) && !duet_buf_create(ctx, sizeof in, &din) &&
      !duet_buf_create(ctx, sizeof partial, &dpartial) &&
      !duet_buf_create(ctx, sizeof total, &dtotal) && !duet_buf_write(din, 0, in, sizeof in) &&
      !duet_buf_write(dtotal, 0, &total, sizeof total)) {
    const unsigned block[3] = {BLOCK, 1, 1};
    const size_t grid[3] = {BLOCKS, 1, 1};
    const duet_arg args[] = {duet_arg_buf(din), duet_arg_i64(N), duet_arg_buf(dpartial),
                             duet_arg_buf(dtotal)};
    if (!duet_launch(prog, "block_sum", grid, block, BLOCK * sizeof(float), args, 4) &&
        !duet_buf_read(dpartial, 0, partial, sizeof partial) &&
        !duet_buf_read(dtotal, 0, &total, sizeof total)) {
      double sum = 0;
      for (int b = 0; b < BLOCKS; b++) sum += partial[b];
      /* float rounding: each thread adds N / (BLOCK * BLOCKS) terms in a row, a block's tree
       * and the atomic total add at most BLOCK + BLOCKS more; each addition is off by half an
       * ulp of at most the magnitudes' sum. */
      const double tol = ((double)N / (BLOCK * BLOCKS) + BLOCK + BLOCKS) * 6e-8 * scale;
      wrong = (fabs(sum - want) > tol) + (fabs(total - want) > tol);
      if (wrong)
        fprintf(stderr, "  sum of partials %.3f, atomic total %.3f, CPU %.3f (tolerance %.3f)\n",
                sum, total, want, tol);
    }
  }
  if (wrong < 0) fprintf(stderr, "  duet: %s\n", duet_ctx_last_error(ctx));
  duet_buf_destroy(din);
  duet_buf_destroy(dpartial);
  duet_buf_destroy(dtotal);
  duet_program_destroy(prog);
  return wrong;
}

int main(void) {
  char what[128];
  snprintf(what, sizeof what, "sum of %d floats in %d blocks", N, BLOCKS);
  return each_device("reduce", what, run);
}
