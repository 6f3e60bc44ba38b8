/* SPDX-License-Identifier: MIT */
/* duet_copy: a coalesced 2D copy, the bandwidth reference for the transposes; and duet_scale,
 * C = beta * C in the same geometry, for sgemm's k == 0 and alpha == 0 cases.
 *
 * Tunables (values per tuning set in src/duet_tunables.h; one instantiation per set):
 *   TRANSPOSE_TILE  side of the square tile one block moves            (default 32)
 *   TRANSPOSE_ROWS  rows of threads in a block; each thread moves
 *                   TRANSPOSE_TILE / TRANSPOSE_ROWS elements           (default 8)
 * It uses the transposes' geometry so that copy and transpose differ only in the access pattern.
 * Assumes a TILE x ROWS block, and nothing about divisibility: any rows, cols and ld >= cols. */
#include "common.cuh"

template <int S>
using copy_cfg = tile_rows_cfg<S>;

/* copy and scale visit the same elements and differ only in what they store there. */
template <int TILE, int ROWS, int SCALE>
__device__ __forceinline__ void copy_geometry(idx_t rows, idx_t cols, const float *__restrict__ in,
                                              idx_t ld_in, float *__restrict__ out, idx_t ld_out,
                                              float beta) {
  const idx_t col = (idx_t)blockIdx.x * TILE + threadIdx.x;
  FOR_EACH_TILE_Y(tile, rows, TILE) {
    if (col >= cols) continue;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS) {
      const idx_t row = tile * TILE + threadIdx.y + j;
      if (row >= rows) continue;
      if (SCALE)
        store_c(out, row * ld_out + col, 0.0f, 0.0f, beta);
      else
        out[row * ld_out + col] = in[row * ld_in + col];
    }
  }
}

template <int S>
__global__ void duet_copy(idx_t rows, idx_t cols, const float *__restrict__ in, idx_t ld_in,
                          float *__restrict__ out, idx_t ld_out) {
  copy_geometry<copy_cfg<S>::TILE, copy_cfg<S>::ROWS, 0>(rows, cols, in, ld_in, out, ld_out, 0.0f);
}

/* scale: C = beta * C over m x n, for k == 0 or alpha == 0, in the copy geometry.
 * beta == 0 stores zeros without reading C. */
template <int S>
__global__ void duet_scale(idx_t rows, idx_t cols, float beta, float *__restrict__ c, idx_t ldc) {
  copy_geometry<copy_cfg<S>::TILE, copy_cfg<S>::ROWS, 1>(rows, cols, 0, 0, c, ldc, beta);
}

extern "C" const duet__cu_kernel DUET__CU_TABLE(COPY)[] = {
    DUET_CU_KERNEL(duet_copy, copy_cfg) DUET_CU_KERNEL(duet_scale, copy_cfg) DUET_CU_END};
