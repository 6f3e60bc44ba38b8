/* SPDX-License-Identifier: MIT */
/* Transposes: out (cols x rows) = in^T (rows x cols), out-of-place.
 *
 * Tunables (values per tuning set in src/duet_tunables.h; one instantiation per set; defaults):
 *   TRANSPOSE_TILE  side of the square tile one block moves            (32)
 *   TRANSPOSE_BAND  tiled variants: tile columns per band of the block order (32)
 *   TRANSPOSE_ROWS  rows of threads in a block; the tiled variants move
 *                   TRANSPOSE_TILE / TRANSPOSE_ROWS elements per thread (8)
 *   TRANSPOSE_PADDED_TILE, TRANSPOSE_PADDED_ROWS  the same two for padded (32, 8)
 *   TRANSPOSE_PADDED_BAND  padded's TRANSPOSE_BAND (32)
 *   TRANSPOSE_VEC   padded: 1 loads float4s along the rows of `in` where it can (0)
 *   TRANSPOSE_TALL_TILE  padded-tall: rows of `in` per tile, the length of its pieces of the
 *                   rows of `out` (128); its tiles are TRANSPOSE_TILE columns wide
 *   TRANSPOSE_TALL_ROWS  padded-tall: rows of threads in a block (8)
 *   TRANSPOSE_REG_X, TRANSPOSE_REG_Y  register: its block, REG_X x REG_Y threads, each moving a
 *                   4 x 4 block (8, 32)
 * Shared memory (dynamic): coalesced TILE*TILE floats, padded PADDED_TILE*(PADDED_TILE+1)
 * floats, padded-tall (TALL_TILE+8)*(TILE+1) floats.
 * No variant assumes divisibility: edges are guarded, any rows, cols and ld work. */
#include <stdint.h>

#include "common.cuh"

/* What each instantiation assumes: its tile, its block (bx x by) and its shared memory. */
template <int S>
using naive_cfg = tile_rows_cfg<S>;
/* The resident blocks per SM asked of the compiler (__launch_bounds__) for a cap of `regs`
 * registers per thread. */
constexpr int blocks_for_regs(int threads, int regs) {
  return 65536 / (threads * regs) > 1 ? 65536 / (threads * regs) : 1;
}
/* The staged kernels ask for 24 registers and 2 per element a thread moves: 32 for 4 (32 x 32
 * tiles of 32 x 8 threads, 8 blocks of 256 per SM), 40 for 8 (64 x 64 tiles of 64 x 8 threads, 3
 * blocks of 512): the fastest caps on the H100 (docs/results/tuning-notes.md). */
template <int TILE_, int ROWS_, int PAD_, int VEC_, int BAND_>
struct staged_cfg {
  static constexpr int TILE = TILE_, ROWS = ROWS_, PAD = PAD_, VEC = VEC_, BAND = BAND_;
  static constexpr unsigned bx = TILE, by = ROWS;
  static constexpr size_t smem = (size_t)TILE * (TILE + PAD) * sizeof(float);
  static constexpr int min_blocks = blocks_for_regs(TILE * ROWS, 24 + 2 * (TILE / ROWS));
};
template <int S>
struct coalesced_cfg
    : staged_cfg<TUN(S, TRANSPOSE_TILE), TUN(S, TRANSPOSE_ROWS), 0, 0, TUN(S, TRANSPOSE_BAND)> {};
template <int S>
struct padded_cfg : staged_cfg<TUN(S, TRANSPOSE_PADDED_TILE), TUN(S, TRANSPOSE_PADDED_ROWS), 1,
                               TUN(S, TRANSPOSE_VEC), TUN(S, TRANSPOSE_PADDED_BAND)> {};
/* padded-tall: TILE columns by TALL_TILE rows of `in`, and 8 rows more for its shift. It asks
 * for 48 registers where the block has 8 rows of threads or more, no cap otherwise: enough for
 * the nvidia-sm80 set's 17 rows per thread without spills (docs/results/tuning-notes.md). */
template <int S>
struct padded_tall_cfg {
  static constexpr int COLS = TUN(S, TRANSPOSE_TILE), TALL = TUN(S, TRANSPOSE_TALL_TILE),
                       ROWS = TUN(S, TRANSPOSE_TALL_ROWS);
  static constexpr unsigned bx = COLS, by = ROWS;
  static constexpr size_t smem = (size_t)(TALL + 8) * (COLS + 1) * sizeof(float);
  static constexpr int min_blocks = ROWS >= 8 ? blocks_for_regs(COLS * ROWS, 48) : 1;
};

/* register: REG_X x REG_Y threads, no shared memory. */
template <int S>
struct register_cfg {
  static constexpr int X = TUN(S, TRANSPOSE_REG_X), Y = TUN(S, TRANSPOSE_REG_Y);
  static constexpr unsigned bx = X, by = Y;
  static constexpr size_t smem = 0;
};

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

/* Shared by coalesced (PAD 0) and padded (PAD 1): the block stages a TILE x TILE tile in shared
 * memory, reading rows of `in` and writing rows of `out`, so both global sides are coalesced.
 * The write phase reads a column of the tile: with PAD 0 the 32 lanes of a warp hit addresses
 * TILE floats apart, all in one bank, a 32-way conflict; PAD 1 staggers rows by one bank.
 * VEC 1 (padded): a whole tile of an `in` whose ld and pointer allow it is loaded in float4s,
 * thread t taking float4 t % (TILE/4) of row t / (TILE/4), 4 * ROWS rows a pass, and written to
 * the shared tile in scalars at banks (row + 4 * (t % (TILE/4)) + k) % 32: with TILE 32 a warp
 * reads 4 rows of 128 bytes and its banks are distinct, with TILE 64 it reads 2 rows of 256 bytes
 * and they meet in pairs. Edge tiles and unaligned `in` load in scalars. The stores stay
 * scalar: on the H100, float4 stores along rows of `out` wrote more L2 sectors and ran slower
 * (docs/results/tuning-notes.md). */
template <int TILE, int ROWS, int PAD, int BAND, int VEC>
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
  /* The float4 loads' shape; VEC needs whole passes of 4 * ROWS rows. */
  constexpr int Q = TILE / 4, VPASSES = TILE / (4 * ROWS);
  constexpr bool CAN_VEC = VEC && TILE % (4 * ROWS) == 0;
  const int tid = ty * TILE + tx, vr = tid / Q, vc = tid % Q * 4;
  const bool vec_in = CAN_VEC && n_cols == TILE && (ld_in % 4 | (uintptr_t)in % 16) == 0;
  /* Passes of gridDim.y tile rows; the bound is the same for every block, and a block whose tile
   * lies below the matrix skips the pass as a whole, so no thread misses a barrier. */
  for (idx_t pass = 0; pass * TILE < rows; pass += gridDim.y) {
    const idx_t row0 = (pass + t.y) * TILE;
    if (row0 >= rows) continue;
    const int n_rows = tile_span(rows, row0, TILE);
    if (vec_in && n_rows == TILE) {
      const float *src = in + (row0 + vr) * ld_in + (col0 + vc);
      float *vput = tile_mem + vr * stride + vc;
#pragma unroll
      for (int j = 0; j < VPASSES; j++) {
        const float4 v = *reinterpret_cast<const float4 *>(src + (idx_t)(j * 4 * ROWS) * ld_in);
        float *p = vput + j * 4 * ROWS * stride;
        p[0] = v.x;
        p[1] = v.y;
        p[2] = v.z;
        p[3] = v.w;
      }
    } else {
      /* One base pointer per side, and 32-bit edge guards: this keeps the kernel at 32
       * registers for 32 x 32 tiles (8 blocks of 256 threads per SM) with all TILE/ROWS loads
       * of a thread in flight at once. */
      const float *src = in + (row0 + ty) * ld_in + (col0 + tx);
#pragma unroll
      for (int j = 0; j < TILE; j += ROWS)
        if (ty + j < n_rows && tx < n_cols) put[j * stride] = src[j * ld_in];
    }
    __syncthreads();
    float *dst = out + (col0 + ty) * ld_out + (row0 + tx);
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS)
      if (ty + j < n_cols && tx < n_rows) dst[j * ld_out] = get[j];
    /* The next tile overwrites tile_mem: wait until every thread has read this one. */
    __syncthreads();
  }
}

/* padded-tall: for an `out` whose rows start off 32-byte sectors (ld_out % 8 != 0). A block
 * moves TALL rows by COLS columns of `in` (COLS x ROWS threads). For row j of `out` it writes
 * the TALL elements that start at the first sector boundary at or after the tile's first row,
 * b_j < 8 elements on, so that each warp's 32-float store covers 4 whole sectors instead of
 * straddling 5 and writing 2 of them in part; the block of the first tile row also writes the
 * b_j elements before. For that it loads TALL + 8 rows (TALL where `out` is aligned: then it is
 * padded with tall tiles). b_j depends only on the address of row j, so every block of a
 * column of tiles agrees on it and the pieces cover each row of `out` once.
 * Stores: thread (tx, ty) writes elements tx, tx + COLS, ... of rows ty, ty + ROWS, ... of the
 * tile's piece of `out`, reading a column of the padded tile (banks (row + j) % 32: distinct). */
template <int COLS, int TALL, int ROWS, int BAND>
__device__ __forceinline__ void transpose_tall(idx_t rows, idx_t cols, const float *__restrict__ in,
                                               idx_t ld_in, float *__restrict__ out, idx_t ld_out) {
  extern __shared__ float tile_mem[];
  constexpr int stride = COLS + 1, LOADED = TALL + 8;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const tile_xy t = band_order(BAND);
  const idx_t col0 = (idx_t)t.x * COLS;
  const int n_cols = tile_span(cols, col0, COLS);
  const bool shift = (ld_out % 8 | (uintptr_t)out % 32) != 0;
  for (idx_t pass = 0; pass * TALL < rows; pass += gridDim.y) {
    const idx_t row0 = (pass + t.y) * TALL;
    if (row0 >= rows) continue;
    /* rows of `in` from row0 that exist, up to the LOADED the shifted pieces may need */
    const int n_rows = tile_span(rows, row0, LOADED);
    const int n_load = shift ? n_rows : min(n_rows, TALL);
    const float *src = in + (row0 + ty) * ld_in + (col0 + tx);
#pragma unroll
    for (int j = 0; j < LOADED; j += ROWS)
      if (ty + j < n_load && tx < n_cols) tile_mem[(ty + j) * stride + tx] = src[j * ld_in];
    __syncthreads();
#pragma unroll
    for (int m = 0; m < COLS; m += ROWS) {
      const int c = ty + m; /* the tile's column: a row of out */
      if (c < n_cols) {
        float *orow = out + (col0 + c) * ld_out;
        const int b = shift ? (int)((0u - (unsigned)((uintptr_t)orow / sizeof(float))) % 8u) : 0;
#pragma unroll
        for (int e = 0; e < TALL; e += COLS) {
          const int r = b + e + tx;
          if ((TALL % COLS == 0 || e + tx < TALL) && r < n_rows)
            orow[row0 + r] = tile_mem[r * stride + c];
        }
        if (row0 == 0)
          for (int r = tx; r < b && r < n_rows; r += COLS) orow[r] = tile_mem[r * stride + c];
      }
    }
    __syncthreads();
  }
}

/* One kernel per staged variant, each an instantiation of transpose_tiled with its cfg. */
#define STAGED_KERNEL(name, cfg)                                                         \
  template <int S>                                                                       \
  __global__ void __launch_bounds__(cfg<S>::bx *cfg<S>::by, cfg<S>::min_blocks)          \
      name(idx_t rows, idx_t cols, const float *__restrict__ in, idx_t ld_in,            \
           float *__restrict__ out, idx_t ld_out) {                                      \
    transpose_tiled<cfg<S>::TILE, cfg<S>::ROWS, cfg<S>::PAD, cfg<S>::BAND, cfg<S>::VEC>( \
        rows, cols, in, ld_in, out, ld_out);                                             \
  }

/* coalesced: TILE x TILE shared tile, no padding (bank conflicts on the column read). */
STAGED_KERNEL(duet_transpose_coalesced, coalesced_cfg)
/* padded: the same at PADDED_TILE x PADDED_ROWS with the tile padded to [TILE][TILE+1],
 * conflict-free, and float4 loads where TRANSPOSE_VEC says. */
STAGED_KERNEL(duet_transpose_padded, padded_cfg)

/* padded-tall: see transpose_tall. AUTO picks it when ld_out is unaligned. */
template <int S>
__global__ void __launch_bounds__(padded_tall_cfg<S>::bx *padded_tall_cfg<S>::by,
                                  padded_tall_cfg<S>::min_blocks)
    duet_transpose_padded_tall(idx_t rows, idx_t cols, const float *__restrict__ in, idx_t ld_in,
                               float *__restrict__ out, idx_t ld_out) {
  using C = padded_tall_cfg<S>;
  transpose_tall<C::COLS, C::TALL, C::ROWS, TUN(S, TRANSPOSE_BAND)>(rows, cols, in, ld_in, out,
                                                                    ld_out);
}

/* register's 4 floats at p: one float4 where VEC says p is 16-byte aligned */
template <bool VEC>
__device__ __forceinline__ float4 reg_load4(const float *__restrict__ p) {
  return VEC ? *(const float4 *)p : make_float4(p[0], p[1], p[2], p[3]);
}
template <bool VEC>
__device__ __forceinline__ void reg_store4(float *__restrict__ p, float4 v) {
  if (VEC) {
    *(float4 *)p = v;
  } else {
    p[0] = v.x;
    p[1] = v.y;
    p[2] = v.z;
    p[3] = v.w;
  }
}
/* register's 4 x 4 block at src (rows of `in`) into dst (rows of `out`) */
template <bool VIN, bool VOUT>
__device__ __forceinline__ void reg_block(const float *__restrict__ src, idx_t ld_in,
                                          float *__restrict__ dst, idx_t ld_out) {
  const float4 a = reg_load4<VIN>(src), b = reg_load4<VIN>(src + ld_in),
               d = reg_load4<VIN>(src + 2 * ld_in), e = reg_load4<VIN>(src + 3 * ld_in);
  reg_store4<VOUT>(dst, make_float4(a.x, b.x, d.x, e.x));
  reg_store4<VOUT>(dst + ld_out, make_float4(a.y, b.y, d.y, e.y));
  reg_store4<VOUT>(dst + 2 * ld_out, make_float4(a.z, b.z, d.z, e.z));
  reg_store4<VOUT>(dst + 3 * ld_out, make_float4(a.w, b.w, d.w, e.w));
}

/* register: no shared memory; each thread moves a 4 x 4 block in registers, four rows of `in`
 * read and four rows of `out` written, float4s on each side whose ld is a multiple of 4 and whose
 * pointer is 16-byte aligned (else four floats); edge blocks one float at a time. A CPU's OpenCL
 * (PoCL) runs it 6-8x faster than padded (docs/results/tuning-notes.md). A warp of 8 x 4 threads
 * (REG_X 8) reads 128 bytes of each of its 16 rows of `in` and writes 64 of each of its 32 rows
 * of `out`. */
template <int S>
__global__ void __launch_bounds__(register_cfg<S>::bx *register_cfg<S>::by)
    duet_transpose_register(idx_t rows, idx_t cols, const float *__restrict__ in, idx_t ld_in,
                            float *__restrict__ out, idx_t ld_out) {
  using C = register_cfg<S>;
  const idx_t c = ((idx_t)blockIdx.x * C::X + threadIdx.x) * 4;
  const bool vin = (ld_in % 4 | (uintptr_t)in % 16) == 0;
  const bool vout = (ld_out % 4 | (uintptr_t)out % 16) == 0;
  FOR_EACH_TILE_Y(tile, rows, 4 * C::Y) {
    const idx_t r = (tile * C::Y + threadIdx.y) * 4;
    if (r + 4 <= rows && c + 4 <= cols) {
      const float *src = in + r * ld_in + c;
      float *dst = out + c * ld_out + r;
      if (vin && vout)
        reg_block<true, true>(src, ld_in, dst, ld_out);
      else if (vin)
        reg_block<true, false>(src, ld_in, dst, ld_out);
      else if (vout)
        reg_block<false, true>(src, ld_in, dst, ld_out);
      else
        reg_block<false, false>(src, ld_in, dst, ld_out);
    } else {
      for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
          if (r + i < rows && c + j < cols)
            out[(c + j) * ld_out + r + i] = in[(r + i) * ld_in + c + j];
    }
  }
}

/* One row per kernel: each expands to rows that end in commas clang-format cannot see. */
// clang-format off
extern "C" const duet__cu_kernel DUET__CU_TABLE(TRANSPOSE)[] = {
    DUET_CU_KERNEL(duet_transpose_naive, naive_cfg)
    DUET_CU_KERNEL(duet_transpose_coalesced, coalesced_cfg)
    DUET_CU_KERNEL(duet_transpose_padded, padded_cfg)
    DUET_CU_KERNEL(duet_transpose_padded_tall, padded_tall_cfg)
    DUET_CU_KERNEL(duet_transpose_register, register_cfg)
    DUET_CU_END};
// clang-format on
