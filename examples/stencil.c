/* SPDX-License-Identifier: MIT */
/* Your own kernel, one source for CUDA and OpenCL: the course's 1D stencil, out[i] = the sum of
 * in[i - R .. i + R], each block staging its elements and a halo of R on either side in shared
 * memory (dynamic: DUET_SHARED_PARAM), run on every device of every backend and checked
 * against the CPU. R is a -D option. Build outside the tree, with each_device.h beside it, with
 *   cc stencil.c $(pkg-config --cflags --libs duet)
 * Exits 0 when every device got it right, 1 when one did not, 77 when there is no device. */
#include <duet.h>
#include <stdio.h>
#include <stdlib.h>

#include "each_device.h"

static const char source[] =
    "#include <duet_kernel.h>\n"
    "/* in holds n + 2R floats: out[i] reads in[i .. i + 2R]. */\n"
    "DUET_KERNEL void stencil(DUET_GLOBAL const float *in, DUET_GLOBAL float *out, int n\n"
    "                         DUET_SHARED_PARAM(float, tile)) {\n"
    "  DUET_SHARED_BIND(float, tile);\n"
    "  const unsigned t = DUET_THREAD_IDX(0), nb = DUET_BLOCK_DIM(0);\n"
    "  const size_t start = (size_t)DUET_BLOCK_IDX(0) * nb, i = start + t;\n"
    "  /* The last block may be partial: its right halo follows its last element. */\n"
    "  const unsigned count = start + nb <= (size_t)n ? nb : (unsigned)((size_t)n - start);\n"
    "  if (t < count) tile[t + R] = in[i + R];\n"
    "  if (t < R) {\n"
    "    tile[t] = in[start + t];\n"
    "    tile[count + R + t] = in[start + count + R + t];\n"
    "  }\n"
    "  DUET_BARRIER();\n"
    "  if (i >= (size_t)n) return;\n"
    "  float sum = 0.0f;\n"
    "  for (int o = -R; o <= R; o++) sum += tile[(int)t + R + o];\n"
    "  out[i] = sum;\n"
    "}\n";

enum { R = 3, N = 1000 * 1000 + 3, BLOCK = 256 };

/* Runs the kernel on ctx; returns the number of wrong elements, or -1 when duet failed. */
static int run(duet_ctx *ctx) {
  static float in[N + 2 * R], out[N];
  for (int i = 0; i < N + 2 * R; i++) in[i] = (float)(i % 17) - 8.0f; /* small integers: exact */
  duet_program *prog = NULL;
  duet_buf *din = NULL, *dout = NULL;
  int wrong = -1;
  char options[32];
  snprintf(options, sizeof options, "-DR=%d", R);
  if (!duet_program_create(ctx, source, options, &prog) && !duet_buf_create(ctx, sizeof in, &din) &&
      !duet_buf_create(ctx, sizeof out, &dout) && !duet_buf_write(din, 0, in, sizeof in)) {
    const unsigned block[3] = {BLOCK, 1, 1};
    const size_t grid[3] = {(N + BLOCK - 1) / BLOCK, 1, 1};
    const duet_arg args[] = {duet_arg_buf(din), duet_arg_buf(dout), duet_arg_i32(N)};
    if (!duet_launch(prog, "stencil", grid, block, (BLOCK + 2 * R) * sizeof(float), args, 3) &&
        !duet_buf_read(dout, 0, out, sizeof out)) {
      wrong = 0;
      for (int i = 0; i < N; i++) {
        float want = 0.0f;
        for (int o = 0; o <= 2 * R; o++) want += in[i + o];
        wrong += out[i] != want;
      }
    }
  }
  if (wrong < 0) fprintf(stderr, "  duet: %s\n", duet_ctx_last_error(ctx));
  duet_buf_destroy(din);
  duet_buf_destroy(dout);
  duet_program_destroy(prog);
  return wrong;
}

int main(void) {
  char what[128];
  snprintf(what, sizeof what, "1D stencil, radius %d, of %d floats", R, N);
  return each_device("stencil", what, run);
}
