/* duet_copy: a coalesced 2D copy, the bandwidth reference for the transposes; and duet_scale,
 * C = beta * C in the same geometry, for sgemm's k == 0 and alpha == 0 cases.
 *
 * Tunables (defaults from src/duet_tunables.h):
 *   TRANSPOSE_TILE  side of the square tile one block moves            (32)
 *   TRANSPOSE_ROWS  rows of threads in a block; each thread moves
 *                   TRANSPOSE_TILE / TRANSPOSE_ROWS elements           (8)
 * It uses the transposes' geometry so that copy and transpose differ only in the access pattern.
 * Assumes nothing about divisibility: any rows, cols and ld >= cols. */
#include "common.cuh"

#ifndef TRANSPOSE_TILE
#define TRANSPOSE_TILE DUET_TRANSPOSE_TILE
#endif
#ifndef TRANSPOSE_ROWS
#define TRANSPOSE_ROWS DUET_TRANSPOSE_ROWS
#endif

/* copy and scale visit the same elements and differ only in what they store there. */
template <int SCALE>
__device__ __forceinline__ void copy_geometry(idx_t rows, idx_t cols, const float *__restrict__ in,
                                              idx_t ld_in, float *__restrict__ out, idx_t ld_out,
                                              float beta) {
  const idx_t col = (idx_t)blockIdx.x * TRANSPOSE_TILE + threadIdx.x;
  FOR_EACH_TILE_Y(tile, rows, TRANSPOSE_TILE) {
    if (col >= cols) continue;
#pragma unroll
    for (int j = 0; j < TRANSPOSE_TILE; j += TRANSPOSE_ROWS) {
      const idx_t row = tile * TRANSPOSE_TILE + threadIdx.y + j;
      if (row >= rows) continue;
      if (SCALE)
        store_c(out, row * ld_out + col, 0.0f, 0.0f, beta);
      else
        out[row * ld_out + col] = in[row * ld_in + col];
    }
  }
}

__global__ void duet_copy(idx_t rows, idx_t cols, const float *__restrict__ in, idx_t ld_in,
                          float *__restrict__ out, idx_t ld_out) {
  copy_geometry<0>(rows, cols, in, ld_in, out, ld_out, 0.0f);
}

/* scale: C = beta * C over m x n, for k == 0 or alpha == 0, in the copy geometry.
 * beta == 0 stores zeros without reading C. */
__global__ void duet_scale(idx_t rows, idx_t cols, float beta, float *__restrict__ c, idx_t ldc) {
  copy_geometry<1>(rows, cols, 0, 0, c, ldc, beta);
}

extern "C" const duet__cu_kernel duet__cu_copy_kernels[] = {
    {"duet_copy", (const void *)duet_copy},
    {"duet_scale", (const void *)duet_scale},
    {0, 0},
};
