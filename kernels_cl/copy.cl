/* SPDX-License-Identifier: MIT */
/* duet_copy: a coalesced 2D copy, the bandwidth reference for the transposes; and duet_scale,
 * C = beta * C in the same geometry, for sgemm's k == 0 and alpha == 0 cases.
 *
 * Tunables (-D options from the manifest, per tuning set in src/duet_tunables.h; fallbacks
 * below are the defaults):
 *   TRANSPOSE_TILE  side of the square tile one work-group moves       (32)
 *   TRANSPOSE_ROWS  rows of work-items in a work-group; each moves
 *                   TRANSPOSE_TILE / TRANSPOSE_ROWS elements           (8)
 * It uses the transposes' geometry so that copy and transpose differ only in the access pattern.
 * Assumes nothing about divisibility: any rows, cols and ld >= cols. */
#ifndef TRANSPOSE_TILE
#define TRANSPOSE_TILE 32
#endif
#ifndef TRANSPOSE_ROWS
#define TRANSPOSE_ROWS 8
#endif

/* copy and scale visit the same elements and differ only in what they store there. */
inline void copy_geometry(const int scale, idx_t rows, idx_t cols,
                          __global const float *restrict in, idx_t ld_in,
                          __global float *restrict out, idx_t ld_out, float beta) {
  const idx_t col = (idx_t)get_group_id(0) * TRANSPOSE_TILE + get_local_id(0);
  FOR_EACH_TILE_Y(tile, rows, TRANSPOSE_TILE) {
    if (col >= cols) continue;
#pragma unroll
    for (int j = 0; j < TRANSPOSE_TILE; j += TRANSPOSE_ROWS) {
      const idx_t row = tile * TRANSPOSE_TILE + (idx_t)get_local_id(1) + j;
      if (row >= rows) continue;
      if (scale)
        store_c(out, row * ld_out + col, 0.0f, 0.0f, beta);
      else
        out[row * ld_out + col] = in[row * ld_in + col];
    }
  }
}

#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_copy)
__kernel BLOCK(TRANSPOSE_TILE,
               TRANSPOSE_ROWS) void duet_copy(idx_t rows, idx_t cols,
                                              __global const float *restrict in, idx_t ld_in,
                                              __global float *restrict out, idx_t ld_out) {
  copy_geometry(0, rows, cols, in, ld_in, out, ld_out, 0.0f);
}
#endif

/* scale: C = beta * C over m x n, for k == 0 or alpha == 0, in the copy geometry.
 * beta == 0 stores zeros without reading C. */
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_scale)
__kernel BLOCK(TRANSPOSE_TILE, TRANSPOSE_ROWS) void duet_scale(idx_t rows, idx_t cols, float beta,
                                                               __global float *restrict c,
                                                               idx_t ldc) {
  copy_geometry(1, rows, cols, 0, 0, c, ldc, beta);
}
#endif
