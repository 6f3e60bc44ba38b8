/* SPDX-License-Identifier: MIT */
/* Helpers shared by the OpenCL kernels; kernels_cu/common.cuh holds their CUDA twins.
 * OpenCL C 1.2 only (NVIDIA's OpenCL compiler is 1.2). Every kernel group's program is
 * src/duet_kernel.h, this file, kernels_cl/builtin.h and the group's own file (copy.cl,
 * transpose.cl, gemm.cl, ..., or gemm_fast.cl / gemm_skinny.cl, written once for both backends).
 * Every kernel declares reqd_work_group_size from its tunables: the compiler can then size its
 * barriers and registers for the block, and the backend checks the core's launch against it. */

#ifdef DUET_TEST_BREAK
#error "this kernel group was broken on purpose by DUET_TEST_BREAK_GROUPS (a test hook)"
#endif
#ifdef DUET_TEST_WARN
/* The test hook DUET_TEST_WARN_GROUPS: a warning (an unused expression) that PoCL and NVIDIA
 * both give; NVIDIA takes #warning for an error. */
inline int duet_test_warns(int x) {
  x + 1;
  return x;
}
#endif

/* The backend builds each kernel as its own program, with -DDUET_KERNEL_ONLY -DDUET_WANT_<name>:
 * every kernel of a file sits inside
 *   #if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_<name>)
 * so that a cold call compiles only the kernel it runs (NVIDIA's compiler takes seconds per
 * fast kernel), and the file without those options is every kernel, as before. */

#define BLOCK(x, y) __attribute__((reqd_work_group_size((x), (y), 1)))

/* 64-bit indices throughout: rows * ld passes 2^31 for large matrices. */
typedef long idx_t;

/* The scalars of the simple sgemm kernels as one argument: src/manifest.h's duet__gemm_scalars,
 * field for field (it says why). The kernels hand them on in BLAS order around the matrices a, b
 * and c. */
typedef struct {
  long m, n, k, lda, ldb, ldc;
  float alpha, beta;
  int ta, tb;
} duet__gemm_scalars;
#define GEMM_SCALARS_AROUND(s, a, b, c) \
  (s).ta, (s).tb, (s).m, (s).n, (s).k, (s).alpha, a, (s).lda, b, (s).ldb, (s).beta, c, (s).ldc

/* Tiles along y are walked in a grid-stride loop because CUDA caps gridDim.y at 65535 and both
 * backends launch the same geometry. The bound depends only on the group id, so every work-item
 * of a work-group runs the same iterations and barriers inside the loop are reached by all. */
#define FOR_EACH_TILE_Y(t, extent, tile) \
  for (idx_t t = get_group_id(1); t * (idx_t)(tile) < (extent); t += get_num_groups(1))

/* Tile coordinates of this work-group in band order (the tunable TRANSPOSE_BAND,
 * src/duet_tunables.h): a bijection of the get_num_groups(0) x get_num_groups(1) grid onto itself
 * that walks `band` tile columns at a time, so that the tiles in flight at once stay
 * neighbours. 32-bit on purpose: 64-bit division here cost the tiled transposes 8 registers on
 * NVIDIA, and with them two resident work-groups per SM. The core refuses grids of 2^32 groups
 * or more (src/launch.c). */
typedef struct {
  uint x, y;
} tile_xy;
/* Tile `id` of a w x h grid of tiles in band order. */
inline tile_xy band_tile(uint id, uint w, uint h, uint band) {
  const uint per_band = band * h;
  const uint first = id / per_band * band, in_band = id % per_band;
  const uint width = min(w - first, band); /* the last band may be narrower */
  tile_xy t = {first + in_band % width, in_band / width};
  return t;
}
inline tile_xy band_order(uint band) {
  return band_tile((uint)get_group_id(1) * get_num_groups(0) + (uint)get_group_id(0),
                   get_num_groups(0), get_num_groups(1), band);
}

/* How much of a TILE x TILE tile that starts at `start` lies inside `extent`, as an int, so
 * that edge guards are 32-bit compares. */
inline int tile_span(idx_t extent, idx_t start, int tile) {
  return extent - start < tile ? (int)(extent - start) : tile;
}

/* Element (r, c) of op(X) for a row-major X with leading dimension ld, as base + c * step:
 * the transpose becomes index arithmetic, and the inner loops carry no branch. */
typedef struct {
  idx_t base, step;
} operand;
inline operand row_of_op(int trans, idx_t r, idx_t ld) {
  operand o = {trans ? r : r * ld, trans ? ld : 1};
  return o;
}
inline operand col_of_op(int trans, idx_t c, idx_t ld) {
  operand o = {trans ? c * ld : c, trans ? 1 : ld};
  return o;
}

/* BLAS beta: with beta == 0, C is not read, so NaN or garbage there cannot leak. */
inline void store_c(__global float *c, idx_t at, float alpha, float acc, float beta) {
  c[at] = beta == 0.0f ? alpha * acc : alpha * acc + beta * c[at];
}
