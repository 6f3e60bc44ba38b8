/* SPDX-License-Identifier: MIT */
/* Transposes: out (cols x rows) = in^T (rows x cols), out-of-place.
 *
 * Tunables (-D options from the manifest, per tuning set in src/duet_tunables.h; fallbacks
 * below are the defaults):
 *   TRANSPOSE_TILE  side of the square tile one work-group moves       (32)
 *   TRANSPOSE_BAND  tiled variants: tile columns per band of the block order (32)
 *   TRANSPOSE_ROWS  rows of work-items in a work-group; the tiled variants
 *                   move TRANSPOSE_TILE / TRANSPOSE_ROWS elements each (8)
 *   TRANSPOSE_PADDED_TILE, TRANSPOSE_PADDED_ROWS  the same two for padded (32, 8)
 *   TRANSPOSE_PADDED_BAND  padded's TRANSPOSE_BAND (32)
 *   TRANSPOSE_VEC   padded: 1 loads float4s along the rows of `in` where it can (0)
 *   TRANSPOSE_TALL_TILE  padded-tall: rows of `in` per tile, the length of its pieces of the
 *                   rows of `out` (128); its tiles are TRANSPOSE_TILE columns wide
 *   TRANSPOSE_TALL_ROWS  padded-tall: rows of work-items in a work-group (8)
 *   TRANSPOSE_REG_X, TRANSPOSE_REG_Y  register: its work-group, REG_X x REG_Y work-items, each
 *                   moving a 4 x 4 block (8, 32)
 * Local memory (the last, __local argument): coalesced TILE*TILE floats, padded
 * PADDED_TILE*(PADDED_TILE+1), padded-tall (TALL_TILE+8)*(TILE+1).
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
#ifndef TRANSPOSE_PADDED_TILE
#define TRANSPOSE_PADDED_TILE 32
#endif
#ifndef TRANSPOSE_PADDED_ROWS
#define TRANSPOSE_PADDED_ROWS 8
#endif
#ifndef TRANSPOSE_PADDED_BAND
#define TRANSPOSE_PADDED_BAND 32
#endif
#ifndef TRANSPOSE_VEC
#define TRANSPOSE_VEC 0
#endif
#ifndef TRANSPOSE_TALL_TILE
#define TRANSPOSE_TALL_TILE 128
#endif
#ifndef TRANSPOSE_TALL_ROWS
#define TRANSPOSE_TALL_ROWS 8
#endif
#ifndef TRANSPOSE_REG_X
#define TRANSPOSE_REG_X 8
#endif
#ifndef TRANSPOSE_REG_Y
#define TRANSPOSE_REG_Y 32
#endif

/* naive: one element per work-item, a TILE x ROWS work-group over a TILE x ROWS patch of `in`.
 * Reads are coalesced (a warp reads 32 consecutive floats of one row); writes are strided by
 * ld_out (a warp writes 32 floats in 32 different rows of out), so each store touches its own
 * memory segment and the write side caps the bandwidth. */
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_transpose_naive)
__kernel BLOCK(TRANSPOSE_TILE,
               TRANSPOSE_ROWS) void duet_transpose_naive(idx_t rows, idx_t cols,
                                                         __global const float *restrict in,
                                                         idx_t ld_in, __global float *restrict out,
                                                         idx_t ld_out) {
  const idx_t col = (idx_t)get_group_id(0) * TRANSPOSE_TILE + get_local_id(0);
  FOR_EACH_TILE_Y(tile, rows, TRANSPOSE_ROWS) {
    const idx_t row = tile * TRANSPOSE_ROWS + (idx_t)get_local_id(1);
    if (row < rows && col < cols) out[col * ld_out + row] = in[row * ld_in + col];
  }
}
#endif

/* Shared by coalesced (pad 0) and padded (pad 1): the work-group stages a tile x tile tile in
 * local memory, reading rows of `in` and writing rows of `out`, so both global sides are
 * coalesced. The write phase reads a column of the tile: with pad 0 the 32 lanes of a warp hit
 * addresses tile floats apart, all in one bank, a 32-way conflict; pad 1 staggers rows by one
 * bank. vec 1 (padded): a whole tile of an `in` whose ld and pointer allow it is loaded in
 * float4s, work-item t taking float4 t % (tile/4) of row t / (tile/4), 4 * rows_per rows a pass,
 * and written to the local tile in scalars at banks (row + 4 * (t % (tile/4)) + k) % 32: with
 * tile 32 a warp reads 4 rows of 128 bytes and its banks are distinct, with tile 64 it reads 2
 * rows of 256 bytes and they meet in pairs. Edge tiles and unaligned `in` load in scalars. The
 * stores stay scalar: on the H100, float4 stores along rows of `out` wrote more L2 sectors and
 * ran slower (docs/results/tuning-notes.md).
 * tile, rows_per, pad, band and vec are constants at every call, so once inlined the loops
 * unroll by themselves; an unroll pragma here would be read before inlining, and PoCL warns that
 * it cannot honour it. */
inline void transpose_tiled(const int tile, const int rows_per, const int pad, const int band,
                            const int vec, idx_t rows, idx_t cols,
                            __global const float *restrict in, idx_t ld_in,
                            __global float *restrict out, idx_t ld_out, __local float *tile_mem) {
  const int stride = tile + pad;
  const int tx = get_local_id(0), ty = get_local_id(1);
  const tile_xy t = band_order(band);
  const idx_t col0 = (idx_t)t.x * tile;
  const int n_cols = tile_span(cols, col0, tile);
  /* This work-item's slots: row ty of the tile while loading, column ty while storing. */
  __local float *const put = tile_mem + ty * stride + tx;
  __local const float *const get = tile_mem + tx * stride + ty;
  /* The float4 loads' shape; vec needs whole passes of 4 * rows_per rows. */
  const int q = tile / 4, tid = ty * tile + tx, vr = tid / q, vc = tid % q * 4;
  const bool vec_in =
      vec && tile % (4 * rows_per) == 0 && n_cols == tile && (ld_in % 4 | (size_t)in % 16) == 0;
  /* Passes of num_groups(1) tile rows; the bound is the same for every work-group, and one whose
   * tile lies below the matrix skips the pass as a whole, so no work-item misses a barrier. */
  for (idx_t pass = 0; pass * tile < rows; pass += get_num_groups(1)) {
    const idx_t row0 = (pass + t.y) * tile;
    if (row0 >= rows) continue;
    const int n_rows = tile_span(rows, row0, tile);
    if (vec_in && n_rows == tile) {
      /* a cast, not vload4: NVIDIA compiles vload4 to four scalar loads */
      __global const float *src = in + (row0 + vr) * ld_in + (col0 + vc);
      __local float *vput = tile_mem + vr * stride + vc;
      for (int j = 0; j < tile / (4 * rows_per); j++) {
        const float4 v = *(__global const float4 *)(src + (idx_t)(j * 4 * rows_per) * ld_in);
        __local float *p = vput + j * 4 * rows_per * stride;
        p[0] = v.x;
        p[1] = v.y;
        p[2] = v.z;
        p[3] = v.w;
      }
    } else {
      /* One base pointer per side, and 32-bit edge guards: this keeps the kernel at 32
       * registers for 32 x 32 tiles (8 groups of 256 work-items per SM) with all tile/rows_per
       * loads of a work-item in flight at once. */
      __global const float *src = in + (row0 + ty) * ld_in + (col0 + tx);
      for (int j = 0; j < tile; j += rows_per)
        if (ty + j < n_rows && tx < n_cols) put[j * stride] = src[j * ld_in];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    __global float *dst = out + (col0 + ty) * ld_out + (row0 + tx);
    for (int j = 0; j < tile; j += rows_per)
      if (ty + j < n_cols && tx < n_rows) dst[j * ld_out] = get[j];
    /* The next tile overwrites tile_mem: wait until every work-item has read this one. */
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

/* padded-tall: for an `out` whose rows start off 32-byte sectors (ld_out % 8 != 0). A
 * work-group moves tall rows by cols_per columns of `in` (cols_per x rows_per work-items). For
 * row j of `out` it writes the tall elements that start at the first sector boundary at or after
 * the tile's first row, b_j < 8 elements on, so that each warp's 32-float store covers 4 whole
 * sectors instead of straddling 5 and writing 2 of them in part; the work-group of the first
 * tile row also writes the b_j elements before. For that it loads tall + 8 rows (tall where
 * `out` is aligned: then it is padded with tall tiles). b_j depends only on the address of row
 * j, so every work-group of a column of tiles agrees on it and the pieces cover each row of
 * `out` once. Stores: work-item (tx, ty) writes elements tx, tx + cols_per, ... of rows ty,
 * ty + rows_per, ... of the tile's piece of `out`, reading a column of the padded tile (banks
 * (row + j) % 32: distinct). */
inline void transpose_tall(const int cols_per, const int tall, const int rows_per, idx_t rows,
                           idx_t cols, __global const float *restrict in, idx_t ld_in,
                           __global float *restrict out, idx_t ld_out, __local float *tile_mem) {
  const int stride = cols_per + 1, loaded = tall + 8;
  const int tx = get_local_id(0), ty = get_local_id(1);
  const tile_xy t = band_order(TRANSPOSE_BAND);
  const idx_t col0 = (idx_t)t.x * cols_per;
  const int n_cols = tile_span(cols, col0, cols_per);
  const bool shift = (ld_out % 8 | (size_t)out % 32) != 0;
  for (idx_t pass = 0; pass * tall < rows; pass += get_num_groups(1)) {
    const idx_t row0 = (pass + t.y) * tall;
    if (row0 >= rows) continue;
    /* rows of `in` from row0 that exist, up to the loaded the shifted pieces may need */
    const int n_rows = tile_span(rows, row0, loaded);
    const int n_load = shift ? n_rows : min(n_rows, tall);
    __global const float *src = in + (row0 + ty) * ld_in + (col0 + tx);
    for (int j = 0; j < loaded; j += rows_per)
      if (ty + j < n_load && tx < n_cols) tile_mem[(ty + j) * stride + tx] = src[j * ld_in];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int m = 0; m < cols_per; m += rows_per) {
      const int c = ty + m; /* the tile's column: a row of out */
      if (c < n_cols) {
        __global float *orow = out + (col0 + c) * ld_out;
        const int b = shift ? (int)((0u - (uint)((size_t)orow / sizeof(float))) % 8u) : 0;
        for (int e = 0; e < tall; e += cols_per) {
          const int r = b + e + tx;
          if ((tall % cols_per == 0 || e + tx < tall) && r < n_rows)
            orow[row0 + r] = tile_mem[r * stride + c];
        }
        if (row0 == 0)
          for (int r = tx; r < b && r < n_rows; r += cols_per) orow[r] = tile_mem[r * stride + c];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

/* coalesced: TILE x TILE local tile, no padding (bank conflicts on the column read). */
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_transpose_coalesced)
__kernel BLOCK(TRANSPOSE_TILE, TRANSPOSE_ROWS) void duet_transpose_coalesced(
    idx_t rows, idx_t cols, __global const float *restrict in, idx_t ld_in,
    __global float *restrict out, idx_t ld_out, __local float *tile_mem) {
  transpose_tiled(TRANSPOSE_TILE, TRANSPOSE_ROWS, 0, TRANSPOSE_BAND, 0, rows, cols, in, ld_in, out,
                  ld_out, tile_mem);
}
#endif

/* padded: the same at PADDED_TILE x PADDED_ROWS with the tile padded to [TILE][TILE+1],
 * conflict-free, and float4 loads where TRANSPOSE_VEC says. */
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_transpose_padded)
__kernel BLOCK(TRANSPOSE_PADDED_TILE, TRANSPOSE_PADDED_ROWS) void duet_transpose_padded(
    idx_t rows, idx_t cols, __global const float *restrict in, idx_t ld_in,
    __global float *restrict out, idx_t ld_out, __local float *tile_mem) {
  transpose_tiled(TRANSPOSE_PADDED_TILE, TRANSPOSE_PADDED_ROWS, 1, TRANSPOSE_PADDED_BAND,
                  TRANSPOSE_VEC, rows, cols, in, ld_in, out, ld_out, tile_mem);
}
#endif

/* padded-tall: see transpose_tall. AUTO picks it when ld_out is unaligned. */
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_transpose_padded_tall)
__kernel BLOCK(TRANSPOSE_TILE, TRANSPOSE_TALL_ROWS) void duet_transpose_padded_tall(
    idx_t rows, idx_t cols, __global const float *restrict in, idx_t ld_in,
    __global float *restrict out, idx_t ld_out, __local float *tile_mem) {
  transpose_tall(TRANSPOSE_TILE, TRANSPOSE_TALL_TILE, TRANSPOSE_TALL_ROWS, rows, cols, in, ld_in,
                 out, ld_out, tile_mem);
}
#endif

/* register's 4 floats at p: one float4 where vec says p is 16-byte aligned */
inline float4 reg_load4(const bool vec, __global const float *restrict p) {
  return vec ? *(__global const float4 *)p : (float4)(p[0], p[1], p[2], p[3]);
}
inline void reg_store4(const bool vec, __global float *restrict p, const float4 v) {
  if (vec) {
    *(__global float4 *)p = v;
  } else {
    p[0] = v.x;
    p[1] = v.y;
    p[2] = v.z;
    p[3] = v.w;
  }
}

/* register's 4 x 4 block at src (rows of `in`) into dst (rows of `out`) */
inline void reg_block(const bool vin, const bool vout, __global const float *restrict src,
                      idx_t ld_in, __global float *restrict dst, idx_t ld_out) {
  const float4 a = reg_load4(vin, src), b = reg_load4(vin, src + ld_in),
               d = reg_load4(vin, src + 2 * ld_in), e = reg_load4(vin, src + 3 * ld_in);
  reg_store4(vout, dst, (float4)(a.x, b.x, d.x, e.x));
  reg_store4(vout, dst + ld_out, (float4)(a.y, b.y, d.y, e.y));
  reg_store4(vout, dst + 2 * ld_out, (float4)(a.z, b.z, d.z, e.z));
  reg_store4(vout, dst + 3 * ld_out, (float4)(a.w, b.w, d.w, e.w));
}

/* register: no local memory; each work-item moves a 4 x 4 block in registers, four rows of `in`
 * read and four rows of `out` written, float4s on each side whose ld is a multiple of 4 and
 * whose pointer is 16-byte aligned (else four floats; the two sides' choice is the same for the
 * whole call, and each pair of them has its own copy of the block), edge blocks one float at a
 * time. A CPU's OpenCL (PoCL) runs a work-group's work-items as loops it can vectorize, with no
 * barrier between the loads and the stores: there it runs 6-8x faster than padded, whose two
 * phases meet at barriers (docs/results/tuning-notes.md). On a GPU a warp of 8 x 4 work-items
 * (REG_X 8) reads 128 bytes of each of its 16 rows of `in` and writes 64 of each of its 32 rows
 * of `out`. */
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_transpose_register)
__kernel BLOCK(TRANSPOSE_REG_X, TRANSPOSE_REG_Y) void duet_transpose_register(
    idx_t rows, idx_t cols, __global const float *restrict in, idx_t ld_in,
    __global float *restrict out, idx_t ld_out) {
  const idx_t c = ((idx_t)get_group_id(0) * TRANSPOSE_REG_X + get_local_id(0)) * 4;
  const bool vin = (ld_in % 4 | (size_t)in % 16) == 0;
  const bool vout = (ld_out % 4 | (size_t)out % 16) == 0;
  FOR_EACH_TILE_Y(tile, rows, 4 * TRANSPOSE_REG_Y) {
    const idx_t r = (tile * TRANSPOSE_REG_Y + get_local_id(1)) * 4;
    if (r + 4 <= rows && c + 4 <= cols) {
      __global const float *src = in + r * ld_in + c;
      __global float *dst = out + c * ld_out + r;
      if (vin && vout)
        reg_block(true, true, src, ld_in, dst, ld_out);
      else if (vin)
        reg_block(true, false, src, ld_in, dst, ld_out);
      else if (vout)
        reg_block(false, true, src, ld_in, dst, ld_out);
      else
        reg_block(false, false, src, ld_in, dst, ld_out);
    } else {
      for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
          if (r + i < rows && c + j < cols)
            out[(c + j) * ld_out + r + i] = in[(r + i) * ld_in + c + j];
    }
  }
}
#endif
