/* SPDX-License-Identifier: MIT */
/* Transposes: out (cols x rows) = in^T (rows x cols), out-of-place.
 *
 * Tunables (values per tuning set in src/duet_tunables.h; one instantiation per set; defaults):
 *   TRANSPOSE_TILE  side of the square tile one block moves            (32)
 *   TRANSPOSE_BAND  tiled variants: tile columns per band of the block order (32)
 *   TRANSPOSE_ROWS  rows of threads in a block; the tiled variants move
 *                   TRANSPOSE_TILE / TRANSPOSE_ROWS elements per thread (8)
 *   TRANSPOSE_WIDE_TILE, TRANSPOSE_WIDE_ROWS  the same two for padded-wide (64, 16)
 * Shared memory (dynamic): coalesced TILE*TILE floats, padded TILE*(TILE+1) floats,
 * padded-wide WIDE_TILE*(WIDE_TILE+1) floats.
 * No variant assumes divisibility: edges are guarded, any rows, cols and ld work. */
#include "common.cuh"

/* What each instantiation assumes: its tile, its block (bx x by) and its shared memory. */
template <int S>
using naive_cfg = tile_rows_cfg<S>;
template <int TILE_, int ROWS_, int PAD_>
struct staged_cfg {
  static constexpr int TILE = TILE_, ROWS = ROWS_, PAD = PAD_;
  static constexpr unsigned bx = TILE, by = ROWS;
  static constexpr size_t smem = (size_t)TILE * (TILE + PAD) * sizeof(float);
};
template <int S>
struct coalesced_cfg : staged_cfg<TUN(S, TRANSPOSE_TILE), TUN(S, TRANSPOSE_ROWS), 0> {};
template <int S>
struct padded_cfg : staged_cfg<TUN(S, TRANSPOSE_TILE), TUN(S, TRANSPOSE_ROWS), 1> {};
template <int S>
struct padded_wide_cfg : staged_cfg<TUN(S, TRANSPOSE_WIDE_TILE), TUN(S, TRANSPOSE_WIDE_ROWS), 1> {};

/* naive: one element per thread, a TILE x ROWS block over a TILE x ROWS patch of `in`.
 * Reads are coalesced (a warp reads 32 consecutive floats of one row); writes are strided by
 * ld_out (a warp writes 32 floats in 32 different rows of out), so each store touches its own
 * memory segment and the write side caps the bandwidth. */
template <int S>
__global__ void duet_transpose_naive(idx_t rows, idx_t cols, const float *__restrict__ in,
                                     idx_t ld_in, float *__restrict__ out, idx_t ld_out) {
  using C = naive_cfg<S>;
  const idx_t col = (idx_t)blockIdx.x * C::TILE + threadIdx.x;
  FOR_EACH_TILE_Y(tile, rows, C::ROWS) {
    const idx_t row = tile * C::ROWS + threadIdx.y;
    if (row < rows && col < cols) out[col * ld_out + row] = in[row * ld_in + col];
  }
}

/* Shared by coalesced (PAD 0), padded and padded-wide (PAD 1): the block stages a TILE x TILE
 * tile in shared memory, reading rows of `in` and writing rows of `out`, so both global sides
 * are coalesced. The write phase reads a column of the tile: with PAD 0 the 32 lanes of a warp
 * hit addresses TILE floats apart, all in one bank, a 32-way conflict; PAD 1 staggers rows by
 * one bank. */
template <int TILE, int ROWS, int PAD, int BAND>
__device__ __forceinline__ void transpose_tiled(idx_t rows, idx_t cols,
                                                const float *__restrict__ in, idx_t ld_in,
                                                float *__restrict__ out, idx_t ld_out) {
  extern __shared__ float tile_mem[];
  const int stride = TILE + PAD;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const tile_xy t = band_order(BAND);
  const idx_t col0 = (idx_t)t.x * TILE;
  const int n_cols = tile_span(cols, col0, TILE);
  /* This thread's slots: row ty of the tile while loading, column ty while storing. */
  float *const put = tile_mem + ty * stride + tx;
  const float *const get = tile_mem + tx * stride + ty;
  /* Passes of gridDim.y tile rows; the bound is the same for every block, and a block whose tile
   * lies below the matrix skips the pass as a whole, so no thread misses a barrier. */
  for (idx_t pass = 0; pass * TILE < rows; pass += gridDim.y) {
    const idx_t row0 = (pass + t.y) * TILE;
    if (row0 >= rows) continue;
    const int n_rows = tile_span(rows, row0, TILE);
    /* One base pointer per side, and 32-bit edge guards: this keeps the kernel at 32 registers
     * (for padded, 8 blocks of 256 threads per SM) with all TILE/ROWS loads of a thread in
     * flight at once. */
    const float *src = in + (row0 + ty) * ld_in + (col0 + tx);
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS)
      if (ty + j < n_rows && tx < n_cols) put[j * stride] = src[j * ld_in];
    __syncthreads();
    float *dst = out + (col0 + ty) * ld_out + (row0 + tx);
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS)
      if (ty + j < n_cols && tx < n_rows) dst[j * ld_out] = get[j];
    /* The next tile overwrites tile_mem: wait until every thread has read this one. */
    __syncthreads();
  }
}

/* One kernel per staged variant, each an instantiation of transpose_tiled with its cfg. */
#define STAGED_KERNEL(name, cfg)                                                                \
  template <int S>                                                                              \
  __global__ void name(idx_t rows, idx_t cols, const float *__restrict__ in, idx_t ld_in,       \
                       float *__restrict__ out, idx_t ld_out) {                                 \
    transpose_tiled<cfg<S>::TILE, cfg<S>::ROWS, cfg<S>::PAD, TUN(S, TRANSPOSE_BAND)>(           \
        rows, cols, in, ld_in, out, ld_out);                                                    \
  }

/* coalesced: TILE x TILE shared tile, no padding (bank conflicts on the column read). */
STAGED_KERNEL(duet_transpose_coalesced, coalesced_cfg)
/* padded: the same with the tile padded to [TILE][TILE+1], conflict-free. */
STAGED_KERNEL(duet_transpose_padded, padded_cfg)
/* padded-wide: padded with WIDE_TILE x WIDE_TILE tiles. When rows of `out` start off 128-byte
 * boundaries, each warp's 32-float store straddles five 32-byte sectors, two of them written in
 * part, and those partial writes cost the most; a 64-float row piece has half as many per float.
 * Assumes nothing about divisibility, like the others; AUTO picks it when ld_out is unaligned. */
STAGED_KERNEL(duet_transpose_padded_wide, padded_wide_cfg)

extern "C" const duet__cu_kernel DUET__CU_TABLE(TRANSPOSE)[] = {
    DUET_CU_KERNEL(duet_transpose_naive, naive_cfg)
    DUET_CU_KERNEL(duet_transpose_coalesced, coalesced_cfg)
    DUET_CU_KERNEL(duet_transpose_padded, padded_cfg)
    DUET_CU_KERNEL(duet_transpose_padded_wide, padded_wide_cfg)
    DUET_CU_END};
