/* SPDX-License-Identifier: MIT */
/* SGEMM, row-major: C = alpha * op(A) * op(B) + beta * C, op(A) m x k, op(B) k x n.
 *
 * Tunables (-D options from the manifest, per tuning set in src/duet_tunables.h; fallbacks
 * below are the defaults):
 *   GEMM_SIMPLE_X, GEMM_SIMPLE_Y  work-group of the naive and coalesced kernels (32, 8)
 *   GEMM_TILE                     tile side and work-group side of the tiled kernel (32)
 *   GEMM_REG_BM, GEMM_REG_BN      tile of C per work-group of the register kernel (64, 64)
 *   GEMM_REG_BK                   k depth of one step through local memory (8)
 *   GEMM_REG_TM, GEMM_REG_TN      outputs per work-item of the register kernel, rows x columns
 *                                 (4, 4)
 * Work-groups: register (GEMM_REG_BN / GEMM_REG_TN) x (GEMM_REG_BM / GEMM_REG_TM) work-items.
 * Local memory (the last, __local argument): tiled 2 * GEMM_TILE * GEMM_TILE floats; register
 * (GEMM_REG_BM + GEMM_REG_BN) * GEMM_REG_BK floats.
 * No kernel assumes divisibility: any m, n, k >= 1 and any ld. k == 0 and alpha == 0 never
 * reach these kernels (the core launches duet_scale of copy.cl instead: A and B are not read). */
#ifndef GEMM_SIMPLE_X
#define GEMM_SIMPLE_X 32
#endif
#ifndef GEMM_SIMPLE_Y
#define GEMM_SIMPLE_Y 8
#endif
#ifndef GEMM_TILE
#define GEMM_TILE 32
#endif
#ifndef GEMM_REG_BM
#define GEMM_REG_BM 64
#endif
#ifndef GEMM_REG_BN
#define GEMM_REG_BN 64
#endif
#ifndef GEMM_REG_BK
#define GEMM_REG_BK 8
#endif
#ifndef GEMM_REG_TM
#define GEMM_REG_TM 4
#endif
#ifndef GEMM_REG_TN
#define GEMM_REG_TN 4
#endif

/* One element of C from a full dot product over k, read straight from global memory. */
inline void dot_one(int ta, int tb, idx_t i, idx_t j, idx_t k, float alpha,
                    __global const float *restrict a, idx_t lda, __global const float *restrict b,
                    idx_t ldb, float beta, __global float *restrict c, idx_t ldc) {
  const operand ar = row_of_op(ta, i, lda), bc = col_of_op(tb, j, ldb);
  float acc = 0.0f;
  for (idx_t p = 0; p < k; p++) acc += a[ar.base + p * ar.step] * b[bc.base + p * bc.step];
  store_c(c, i * ldc + j, alpha, acc, beta);
}

/* One work-item per element of C. x_walks_rows picks which of C's axes the NDRange's x axis (and
 * so the 32 consecutive work-items of a warp) runs along; it is the only difference between the
 * naive and the coalesced kernel. */
inline void gemm_per_element(const bool x_walks_rows, int ta, int tb, idx_t m, idx_t n, idx_t k,
                             float alpha, __global const float *restrict a, idx_t lda,
                             __global const float *restrict b, idx_t ldb, float beta,
                             __global float *restrict c, idx_t ldc) {
  const idx_t x = (idx_t)get_group_id(0) * GEMM_SIMPLE_X + get_local_id(0);
  FOR_EACH_TILE_Y(tile, x_walks_rows ? n : m, GEMM_SIMPLE_Y) {
    const idx_t y = tile * GEMM_SIMPLE_Y + (idx_t)get_local_id(1);
    const idx_t i = x_walks_rows ? x : y, j = x_walks_rows ? y : x;
    if (i < m && j < n) dot_one(ta, tb, i, j, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
}

/* naive: the textbook first mapping, work-item x along the rows of C. The 32 work-items of a warp
 * take 32 consecutive rows i with the same column j, so for NN each load of A and each store of C
 * is strided by lda/ldc (32 memory segments per warp access) and B is a broadcast: kept as the slow
 * reference that shows what uncoalesced access costs. */
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemm_naive)
__kernel BLOCK(GEMM_SIMPLE_X, GEMM_SIMPLE_Y) void duet_sgemm_naive(duet__gemm_scalars s,
                                                                   __global const float *restrict a,
                                                                   __global const float *restrict b,
                                                                   __global float *restrict c) {
  gemm_per_element(true, GEMM_SCALARS_AROUND(s, a, b, c));
}
#endif

/* coalesced: naive's index mapping flipped, x along the columns of C: a warp takes 32 consecutive
 * columns j of one row i, so for NN the loads of B and the stores of C are coalesced and A is a
 * broadcast. Every operand is still re-read from global memory (L1/L2) k times. */
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemm_coalesced)
__kernel BLOCK(GEMM_SIMPLE_X,
               GEMM_SIMPLE_Y) void duet_sgemm_coalesced(duet__gemm_scalars s,
                                                        __global const float *restrict a,
                                                        __global const float *restrict b,
                                                        __global float *restrict c) {
  gemm_per_element(false, GEMM_SCALARS_AROUND(s, a, b, c));
}
#endif

/* tiled: a GEMM_TILE x GEMM_TILE work-group computes the same-sized tile of C, one element per
 * work-item, stepping through k one pair of tiles at a time. Each element of A and B fetched
 * from global memory is then used GEMM_TILE times from local memory. Partial tiles at the edges
 * are zero-filled, so the inner product needs no bounds check, and work-items outside C still
 * load and reach both barriers: an early return here would leave the work-group waiting at the
 * barrier (a barrier that some work-items of a work-group skip is undefined behaviour; in
 * practice a hang or a wrong tile). */
inline void sgemm_tiled_body(int ta, int tb, idx_t m, idx_t n, idx_t k, float alpha,
                             __global const float *restrict a, idx_t lda,
                             __global const float *restrict b, idx_t ldb, float beta,
                             __global float *restrict c, idx_t ldc, __local float *smem) {
  __local float *as = smem, *bs = smem + GEMM_TILE * GEMM_TILE;
  const int tx = get_local_id(0), ty = get_local_id(1);
  const idx_t j = (idx_t)get_group_id(0) * GEMM_TILE + tx;
  FOR_EACH_TILE_Y(tile, m, GEMM_TILE) {
    const idx_t i = tile * GEMM_TILE + ty;
    const operand ar = row_of_op(ta, i, lda), bc = col_of_op(tb, j, ldb);
    float acc = 0.0f;
    for (idx_t p0 = 0; p0 < k; p0 += GEMM_TILE) {
      as[ty * GEMM_TILE + tx] = (i < m && p0 + tx < k) ? a[ar.base + (p0 + tx) * ar.step] : 0.0f;
      bs[ty * GEMM_TILE + tx] = (p0 + ty < k && j < n) ? b[bc.base + (p0 + ty) * bc.step] : 0.0f;
      barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
      for (int p = 0; p < GEMM_TILE; p++) acc += as[ty * GEMM_TILE + p] * bs[p * GEMM_TILE + tx];
      /* The next step overwrites both tiles: wait until every work-item is done with them. */
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (i < m && j < n) store_c(c, i * ldc + j, alpha, acc, beta);
  }
}
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemm_tiled)
__kernel BLOCK(GEMM_TILE, GEMM_TILE) void duet_sgemm_tiled(duet__gemm_scalars s,
                                                           __global const float *restrict a,
                                                           __global const float *restrict b,
                                                           __global float *restrict c,
                                                           __local float *smem) {
  sgemm_tiled_body(GEMM_SCALARS_AROUND(s, a, b, c), smem);
}
#endif

/* register: 2D register blocking, the step after tiling: a GEMM_REG_BM x GEMM_REG_BN tile of C
 * per work-group, each work-item a GEMM_REG_TM x GEMM_REG_TN micro-tile in registers, fed from
 * GEMM_REG_BK-deep tiles of A and B in local memory. */
#define REG_NX (GEMM_REG_BN / GEMM_REG_TN)
#define REG_NY (GEMM_REG_BM / GEMM_REG_TM)
#define REG_NT (REG_NX * REG_NY)
#if (GEMM_REG_BM * GEMM_REG_BK) % REG_NT || (GEMM_REG_BK * GEMM_REG_BN) % REG_NT
#error "register: each work-item must load whole shares of the tiles"
#endif

inline void sgemm_register_body(int ta, int tb, idx_t m, idx_t n, idx_t k, float alpha,
                                __global const float *restrict a, idx_t lda,
                                __global const float *restrict b, idx_t ldb, float beta,
                                __global float *restrict c, idx_t ldc, __local float *smem) {
  const int BM = GEMM_REG_BM, BN = GEMM_REG_BN, BK = GEMM_REG_BK, TM = GEMM_REG_TM,
            TN = GEMM_REG_TN;
  __local float *as = smem; /* BM x BK, row-major: as[r * BK + p] = op(A)(m0 + r, p0 + p) */
  __local float *bs =
      smem + BM * BK; /* BK x BN, row-major: bs[p * BN + q] = op(B)(p0 + p, n0 + q) */
  const int tx = get_local_id(0), ty = get_local_id(1), t = ty * REG_NX + tx;
  const idx_t n0 = (idx_t)get_group_id(0) * BN;
  FOR_EACH_TILE_Y(tile, m, GEMM_REG_BM) {
    const idx_t m0 = tile * BM;
    float acc[GEMM_REG_TM][GEMM_REG_TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
      for (int j = 0; j < TN; j++) acc[i][j] = 0.0f;

    for (idx_t p0 = 0; p0 < k; p0 += BK) {
      /* All work-items copy the two tiles; consecutive work-items take consecutive elements of
       * the dimension that is contiguous in memory (k for A, m for A^T), so the loads coalesce.
       * Elements outside the matrices become zeros. */
#pragma unroll
      for (int l = 0; l < GEMM_REG_BM * GEMM_REG_BK / REG_NT; l++) {
        const int e = t + l * REG_NT;
        const int r = ta ? e % BM : e / BK, p = ta ? e / BM : e % BK;
        const operand ar = row_of_op(ta, m0 + r, lda);
        as[r * BK + p] = (m0 + r < m && p0 + p < k) ? a[ar.base + (p0 + p) * ar.step] : 0.0f;
      }
#pragma unroll
      for (int l = 0; l < GEMM_REG_BK * GEMM_REG_BN / REG_NT; l++) {
        const int e = t + l * REG_NT;
        const int p = tb ? e % BK : e / BN, q = tb ? e / BK : e % BN;
        const operand bc = col_of_op(tb, n0 + q, ldb);
        bs[p * BN + q] = (p0 + p < k && n0 + q < n) ? b[bc.base + (p0 + p) * bc.step] : 0.0f;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      /* Each work-item: TM values of A and TN values of B per step p give TM * TN products. */
#pragma unroll
      for (int p = 0; p < BK; p++) {
        float af[GEMM_REG_TM], bf[GEMM_REG_TN];
#pragma unroll
        for (int i = 0; i < TM; i++) af[i] = as[(ty * TM + i) * BK + p];
#pragma unroll
        for (int j = 0; j < TN; j++) bf[j] = bs[p * BN + tx * TN + j];
#pragma unroll
        for (int i = 0; i < TM; i++)
#pragma unroll
          for (int j = 0; j < TN; j++) acc[i][j] += af[i] * bf[j];
      }
      /* The next step overwrites both tiles: wait until every work-item is done with them. */
      barrier(CLK_LOCAL_MEM_FENCE);
    }
#pragma unroll
    for (int i = 0; i < TM; i++) {
      const idx_t row = m0 + ty * TM + i;
#pragma unroll
      for (int j = 0; j < TN; j++) {
        const idx_t col = n0 + tx * TN + j;
        if (row < m && col < n) store_c(c, row * ldc + col, alpha, acc[i][j], beta);
      }
    }
  }
}

#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemm_register)
__kernel __attribute__((reqd_work_group_size(REG_NX, REG_NY, 1))) void duet_sgemm_register(
    duet__gemm_scalars s, __global const float *restrict a, __global const float *restrict b,
    __global float *restrict c, __local float *smem) {
  sgemm_register_body(GEMM_SCALARS_AROUND(s, a, b, c), smem);
}
#endif
