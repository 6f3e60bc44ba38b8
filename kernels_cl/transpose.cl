/* SPDX-License-Identifier: MIT */
/* Transposes: out (cols x rows) = in^T (rows x cols), out-of-place.
 *
 * Tunables (-D options from the manifest, per tuning set in src/duet_tunables.h; fallbacks
 * below are the defaults):
 *   TRANSPOSE_TILE  side of the square tile one work-group moves       (32)
 *   TRANSPOSE_BAND  tiled variants: tile columns per band of the block order (32)
 *   TRANSPOSE_ROWS  rows of work-items in a work-group; the tiled variants
 *                   move TRANSPOSE_TILE / TRANSPOSE_ROWS elements each (8)
 *   TRANSPOSE_WIDE_TILE, TRANSPOSE_WIDE_ROWS  the same two for padded-wide (64, 16)
 * Local memory (the last, __local argument): coalesced TILE*TILE floats, padded TILE*(TILE+1),
 * padded-wide WIDE_TILE*(WIDE_TILE+1).
 * No variant assumes divisibility: edges are guarded, any rows, cols and ld work. */
#ifndef TRANSPOSE_TILE
#define TRANSPOSE_TILE 32
#endif
#ifndef TRANSPOSE_BAND
#define TRANSPOSE_BAND 32
#endif
#ifndef TRANSPOSE_ROWS
#define TRANSPOSE_ROWS 8
#endif
#ifndef TRANSPOSE_WIDE_TILE
#define TRANSPOSE_WIDE_TILE 64
#endif
#ifndef TRANSPOSE_WIDE_ROWS
#define TRANSPOSE_WIDE_ROWS 16
#endif

/* naive: one element per work-item, a TILE x ROWS work-group over a TILE x ROWS patch of `in`.
 * Reads are coalesced (a warp reads 32 consecutive floats of one row); writes are strided by
 * ld_out (a warp writes 32 floats in 32 different rows of out), so each store touches its own
 * memory segment and the write side caps the bandwidth. */
__kernel BLOCK(TRANSPOSE_TILE, TRANSPOSE_ROWS) void duet_transpose_naive(idx_t rows, idx_t cols, __global const float *restrict in,
                                   idx_t ld_in, __global float *restrict out, idx_t ld_out) {
  const idx_t col = (idx_t)get_group_id(0) * TRANSPOSE_TILE + get_local_id(0);
  FOR_EACH_TILE_Y(tile, rows, TRANSPOSE_ROWS) {
    const idx_t row = tile * TRANSPOSE_ROWS + (idx_t)get_local_id(1);
    if (row < rows && col < cols) out[col * ld_out + row] = in[row * ld_in + col];
  }
}

/* Shared by coalesced (pad 0), padded and padded-wide (pad 1): the work-group stages a
 * tile x tile tile in local memory, reading rows of `in` and writing rows of `out`, so both
 * global sides are coalesced. The write phase reads a column of the tile: with pad 0 the 32 lanes
 * of a warp hit addresses tile floats apart, all in one bank, a 32-way conflict; pad 1 staggers
 * rows by one bank. tile, rows_per and pad are constants at every call, so once inlined the
 * loops unroll by themselves; an unroll pragma here would be read before inlining, and PoCL
 * warns that it cannot honour it. */
inline void transpose_tiled(const int tile, const int rows_per, const int pad, idx_t rows,
                            idx_t cols, __global const float *restrict in, idx_t ld_in,
                            __global float *restrict out, idx_t ld_out, __local float *tile_mem) {
  const int stride = tile + pad;
  const int tx = get_local_id(0), ty = get_local_id(1);
  const tile_xy t = band_order(TRANSPOSE_BAND);
  const idx_t col0 = (idx_t)t.x * tile;
  const int n_cols = tile_span(cols, col0, tile);
  /* This work-item's slots: row ty of the tile while loading, column ty while storing. */
  __local float *const put = tile_mem + ty * stride + tx;
  __local const float *const get = tile_mem + tx * stride + ty;
  /* Passes of num_groups(1) tile rows; the bound is the same for every work-group, and one whose
   * tile lies below the matrix skips the pass as a whole, so no work-item misses a barrier. */
  for (idx_t pass = 0; pass * tile < rows; pass += get_num_groups(1)) {
    const idx_t row0 = (pass + t.y) * tile;
    if (row0 >= rows) continue;
    const int n_rows = tile_span(rows, row0, tile);
    /* One base pointer per side, and 32-bit edge guards: this keeps the kernel at 32 registers
     * (for padded, 8 groups of 256 work-items per SM) with all tile/rows_per loads of a
     * work-item in flight at once. */
    __global const float *src = in + (row0 + ty) * ld_in + (col0 + tx);
    for (int j = 0; j < tile; j += rows_per)
      if (ty + j < n_rows && tx < n_cols) put[j * stride] = src[j * ld_in];
    barrier(CLK_LOCAL_MEM_FENCE);
    __global float *dst = out + (col0 + ty) * ld_out + (row0 + tx);
    for (int j = 0; j < tile; j += rows_per)
      if (ty + j < n_cols && tx < n_rows) dst[j * ld_out] = get[j];
    /* The next tile overwrites tile_mem: wait until every work-item has read this one. */
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

/* coalesced: TILE x TILE local tile, no padding (bank conflicts on the column read). */
__kernel BLOCK(TRANSPOSE_TILE, TRANSPOSE_ROWS) void duet_transpose_coalesced(idx_t rows, idx_t cols, __global const float *restrict in,
                                       idx_t ld_in, __global float *restrict out, idx_t ld_out,
                                       __local float *tile_mem) {
  transpose_tiled(TRANSPOSE_TILE, TRANSPOSE_ROWS, 0, rows, cols, in, ld_in, out, ld_out,
                  tile_mem);
}

/* padded: the same with the tile padded to [TILE][TILE+1], conflict-free. */
__kernel BLOCK(TRANSPOSE_TILE, TRANSPOSE_ROWS) void duet_transpose_padded(idx_t rows, idx_t cols, __global const float *restrict in,
                                    idx_t ld_in, __global float *restrict out, idx_t ld_out,
                                    __local float *tile_mem) {
  transpose_tiled(TRANSPOSE_TILE, TRANSPOSE_ROWS, 1, rows, cols, in, ld_in, out, ld_out,
                  tile_mem);
}

/* padded-wide: padded with WIDE_TILE x WIDE_TILE tiles. When rows of `out` start off 128-byte
 * boundaries, each warp's 32-float store straddles five 32-byte sectors, two of them written in
 * part, and those partial writes cost the most; a 64-float row piece has half as many per float.
 * Assumes nothing about divisibility, like the others; AUTO picks it when ld_out % 32 != 0. */
__kernel BLOCK(TRANSPOSE_WIDE_TILE, TRANSPOSE_WIDE_ROWS) void duet_transpose_padded_wide(idx_t rows, idx_t cols, __global const float *restrict in,
                                         idx_t ld_in, __global float *restrict out, idx_t ld_out,
                                         __local float *tile_mem) {
  transpose_tiled(TRANSPOSE_WIDE_TILE, TRANSPOSE_WIDE_ROWS, 1, rows, cols, in, ld_in, out, ld_out,
                  tile_mem);
}
