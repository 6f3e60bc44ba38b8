/* SPDX-License-Identifier: MIT */
/* Helpers shared by the CUDA kernels; kernels_cl/common.cl holds their OpenCL twins. */
#ifndef DUET_CU_COMMON_CUH
#define DUET_CU_COMMON_CUH

#include "duet_tunables.h"
#include "registry.h"

/* 64-bit indices throughout: rows * ld passes 2^31 for large matrices. */
typedef long long idx_t;

/* The simple sgemm kernels take their scalars as one duet__gemm_scalars s (src/manifest.h says
 * why) and hand them on in BLAS order around the matrices a, b and c. */
#define GEMM_SCALARS_AROUND(s, a, b, c) \
  (s).ta, (s).tb, (s).m, (s).n, (s).k, (s).alpha, a, (s).lda, b, (s).ldb, (s).beta, c, (s).ldc

/* The tuning database of src/duet_tunables.h as a compile-time table: a kernel template over a
 * set index S reads its tunables with TUN(S, NAME), so each instantiation is compiled with
 * exactly the values that the core sizes its launches with. */
constexpr int duet_tun_table[DUET__T_COUNT][DUET__SET_COUNT] = {
#define DUET__TUN_ROW(name, ...) {__VA_ARGS__},
    DUET__TUNABLES(DUET__TUN_ROW)
#undef DUET__TUN_ROW
};
#define TUN(S, name) (duet_tun_table[DUET__T_##name][(S)])
/* The same as a constant that device code may read anywhere (the table is a host array, which
 * device code may read only where the compiler folds it): the tunables of the kernels written
 * once (kernels_cl/builtin.h). */
template <int V>
struct duet_tun_const {
  static constexpr int value = V;
};
#define TUN_CONST(S, name) (duet_tun_const<TUN(S, name)>::value)

/* The block of copy, scale and the naive transpose: TRANSPOSE_TILE x TRANSPOSE_ROWS threads and
 * no shared memory. */
template <int S>
struct tile_rows_cfg {
  static constexpr int TILE = TUN(S, TRANSPOSE_TILE), ROWS = TUN(S, TRANSPOSE_ROWS);
  static constexpr unsigned bx = TILE, by = ROWS;
  static constexpr size_t smem = 0;
};

/* Registry rows for kernel template K over every tuning set. CFG<S> states what the
 * instantiation assumes: its block (bx, by) and dynamic shared bytes (smem). */
#define DUET_CU_ROW(S, K, CFG) {#K, S, (const void *)K<S>, CFG<S>::bx, CFG<S>::by, CFG<S>::smem},
#define DUET_CU_KERNEL(K, CFG) DUET__FOR_EACH_SET(DUET_CU_ROW, K, CFG)
#define DUET_CU_END \
  { 0, 0, 0, 0, 0, 0 }

/* Tiles along y are walked in a grid-stride loop because gridDim.y is capped at 65535 (the core
 * caps the grid at the device's maxGridSize, src/launch.c). The bound depends only on
 * blockIdx.y, so every thread of a block runs the same iterations and barriers inside the loop are
 * reached by all of them. */
#define FOR_EACH_TILE_Y(t, extent, tile) \
  for (idx_t t = blockIdx.y; t * (idx_t)(tile) < (extent); t += gridDim.y)

/* Tile coordinates of this block in band order (the tunable TRANSPOSE_BAND, src/duet_tunables.h):
 * a bijection of the gridDim.x x gridDim.y grid onto itself that walks `band` tile columns at a
 * time, so that the tiles in flight at once stay neighbours.
 * 32-bit on purpose: 64-bit division here cost the tiled transposes 8 registers, and with them
 * two resident blocks per SM. The core refuses grids of 2^32 blocks or more (src/launch.c). */
struct tile_xy {
  unsigned x, y;
};
/* Tile `id` of a w x h grid of tiles in band order. */
__device__ __forceinline__ tile_xy band_tile(unsigned id, unsigned w, unsigned h, unsigned band) {
  const unsigned per_band = band * h;
  const unsigned first = id / per_band * band, in_band = id % per_band;
  const unsigned width = min(w - first, band); /* the last band may be narrower */
  tile_xy t = {first + in_band % width, in_band / width};
  return t;
}
__device__ __forceinline__ tile_xy band_order(unsigned band) {
  return band_tile(blockIdx.y * gridDim.x + blockIdx.x, gridDim.x, gridDim.y, band);
}

/* How much of a TILE x TILE tile that starts at `start` lies inside `extent`, as an int, so
 * that edge guards are 32-bit compares. */
__device__ __forceinline__ int tile_span(idx_t extent, idx_t start, int tile) {
  return extent - start < tile ? (int)(extent - start) : tile;
}

/* Element (r, c) of op(X) for a row-major X with leading dimension ld, as base + c * step:
 * the transpose becomes index arithmetic, and the inner loops carry no branch. */
struct operand {
  idx_t base, step;
};
__device__ __forceinline__ operand row_of_op(int trans, idx_t r, idx_t ld) {
  operand o = {trans ? r : r * ld, trans ? ld : 1};
  return o;
}
__device__ __forceinline__ operand col_of_op(int trans, idx_t c, idx_t ld) {
  operand o = {trans ? c * ld : c, trans ? 1 : ld};
  return o;
}

/* BLAS beta: with beta == 0, C is not read, so NaN or garbage there cannot leak. */
__device__ __forceinline__ void store_c(float *c, idx_t at, float alpha, float acc, float beta) {
  c[at] = beta == 0.0f ? alpha * acc : alpha * acc + beta * c[at];
}

#endif
