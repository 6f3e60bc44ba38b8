/* Helpers shared by the CUDA kernels; kernels_cl/common.cl holds their OpenCL twins. */
#ifndef DUET_CU_COMMON_CUH
#define DUET_CU_COMMON_CUH

#include "duet_tunables.h"
#include "registry.h"

/* 64-bit indices throughout: rows * ld passes 2^31 for large matrices. */
typedef long long idx_t;

/* Tiles along y are walked in a grid-stride loop because gridDim.y is capped at 65535
 * (DUET_MAX_GRID_Y). The bound depends only on blockIdx.y, so every thread of a block runs the
 * same iterations and barriers inside the loop are reached by all of them. */
#define FOR_EACH_TILE_Y(t, extent, tile) \
  for (idx_t t = blockIdx.y; t * (idx_t)(tile) < (extent); t += gridDim.y)

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
