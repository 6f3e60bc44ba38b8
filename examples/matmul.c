/* SPDX-License-Identifier: MIT */
/* Your own kernel, one source for CUDA and OpenCL: the course's tiled matrix multiply,
 * C = A * B (row-major, any m, n, k), TILE x TILE tiles of A and B staged through fixed-size
 * shared arrays (DUET_SHARED) between barriers, TILE a -D option; run on every device of every
 * backend and checked against a double-precision CPU product. Build outside the tree, with
 * each_device.h beside it, with
 *   cc matmul.c $(pkg-config --cflags --libs duet) -lm
 * Exits 0 when every device got it right, 1 when one did not, 77 when there is no device. */
#include <duet.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "each_device.h"

static const char source[] =
    "DUET_KERNEL void matmul(DUET_GLOBAL const float *DUET_RESTRICT a,\n"
    "                        DUET_GLOBAL const float *DUET_RESTRICT b,\n"
    "                        DUET_GLOBAL float *DUET_RESTRICT c, int m, int n, int k) {\n"
    "  DUET_SHARED float as[TILE][TILE];\n"
    "  DUET_SHARED float bs[TILE][TILE + 1]; /* padded: a column read hits every bank once */\n"
    "  const int tx = (int)DUET_THREAD_IDX(0), ty = (int)DUET_THREAD_IDX(1);\n"
    "  const int col = (int)DUET_BLOCK_IDX(0) * TILE + tx, row = (int)DUET_BLOCK_IDX(1) * TILE + "
    "ty;\n"
    "  float sum = 0.0f;\n"
    "  for (int t = 0; t < k; t += TILE) {\n"
    "    as[ty][tx] = row < m && t + tx < k ? a[(size_t)row * k + t + tx] : 0.0f;\n"
    "    bs[ty][tx] = t + ty < k && col < n ? b[(size_t)(t + ty) * n + col] : 0.0f;\n"
    "    DUET_BARRIER();\n"
    "    for (int i = 0; i < TILE; i++) sum += as[ty][i] * bs[i][tx];\n"
    "    DUET_BARRIER();\n"
    "  }\n"
    "  if (row < m && col < n) c[(size_t)row * n + col] = sum;\n"
    "}\n";

enum { M = 300, N = 200, K = 257, TILE = 16 };

/* Runs the kernel on ctx; returns the number of wrong elements, or -1 when duet failed. */
static int run(duet_ctx *ctx) {
  static float a[M * K], b[K * N], c[M * N];
  for (int i = 0; i < M * K; i++) a[i] = (float)rand() / RAND_MAX - 0.5f;
  for (int i = 0; i < K * N; i++) b[i] = (float)rand() / RAND_MAX - 0.5f;
  duet_program *prog = NULL;
  duet_buf *da = NULL, *db = NULL, *dc = NULL;
  int wrong = -1;
  char options[32];
  snprintf(options, sizeof options, "-DTILE=%d", TILE);
  if (!duet_program_create(ctx, source, options, &prog) && !duet_buf_create(ctx, sizeof a, &da) &&
      !duet_buf_create(ctx, sizeof b, &db) && !duet_buf_create(ctx, sizeof c, &dc) &&
      !duet_buf_write(da, 0, a, sizeof a) && !duet_buf_write(db, 0, b, sizeof b)) {
    const unsigned block[3] = {TILE, TILE, 1};
    const size_t grid[3] = {(N + TILE - 1) / TILE, (M + TILE - 1) / TILE, 1};
    const duet_arg args[] = {duet_arg_buf(da), duet_arg_buf(db), duet_arg_buf(dc),
                             duet_arg_i32(M),  duet_arg_i32(N),  duet_arg_i32(K)};
    if (!duet_launch(prog, "matmul", grid, block, 0, args, 6) &&
        !duet_buf_read(dc, 0, c, sizeof c)) {
      wrong = 0;
      for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
          double want = 0, scale = 0;
          for (int p = 0; p < K; p++) {
            want += (double)a[i * K + p] * b[p * N + j];
            scale += fabs((double)a[i * K + p] * b[p * N + j]);
          }
          /* float accumulation of K terms: within a few K ulps of their magnitudes' sum */
          wrong += fabs(c[i * N + j] - want) > 4.0 * K * 1.2e-7 * scale + 1e-30;
        }
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
  snprintf(what, sizeof what, "%dx%dx%d tiled matrix multiply, %dx%d tiles", M, N, K, TILE, TILE);
  return each_device("matmul", what, run);
}
