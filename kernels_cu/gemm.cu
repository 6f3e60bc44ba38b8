/* SPDX-License-Identifier: MIT */
/* SGEMM, row-major: C = alpha * op(A) * op(B) + beta * C, op(A) m x k, op(B) k x n.
 *
 * Tunables (values per tuning set in src/duet_tunables.h; one instantiation per set; defaults):
 *   GEMM_SIMPLE_X, GEMM_SIMPLE_Y  block of the naive and coalesced kernels   (32, 8)
 *   GEMM_TILE                     tile side and block side of the tiled kernel (32)
 *   GEMM_REG_BM, _BN, _BK, _TM, _TN  register: tile of C per block, k depth of a step, outputs
 *                                 per thread (64, 64, 8, 4, 4)
 * Shared memory (dynamic): tiled 2 * GEMM_TILE * GEMM_TILE floats; register (GEMM_REG_BM +
 * GEMM_REG_BN) * GEMM_REG_BK; the others none.
 * No kernel assumes divisibility: any m, n, k >= 1 and any ld. k == 0 and alpha == 0 never
 * reach these kernels (the core launches duet_scale of copy.cu instead: A and B are not read). */
#include "common.cuh"

/* What each instantiation assumes: its block (bx x by) and its shared memory. */
template <int S>
struct simple_cfg {
  static constexpr int X = TUN(S, GEMM_SIMPLE_X), Y = TUN(S, GEMM_SIMPLE_Y);
  static constexpr unsigned bx = X, by = Y;
  static constexpr size_t smem = 0;
};
template <int S>
struct tiled_cfg {
  static constexpr int TILE = TUN(S, GEMM_TILE);
  static constexpr unsigned bx = TILE, by = TILE;
  static constexpr size_t smem = 2 * (size_t)TILE * TILE * sizeof(float);
  static_assert(TILE * TILE <= 1024, "a GEMM_TILE^2 block exceeds CUDA's 1024 threads");
};

/* One element of C from a full dot product over k, read straight from global memory. */
__device__ __forceinline__ void dot_one(int ta, int tb, idx_t i, idx_t j, idx_t k, float alpha,
                                        const float *__restrict__ a, idx_t lda,
                                        const float *__restrict__ b, idx_t ldb, float beta,
                                        float *__restrict__ c, idx_t ldc) {
  const operand ar = row_of_op(ta, i, lda), bc = col_of_op(tb, j, ldb);
  float acc = 0.0f;
  for (idx_t p = 0; p < k; p++) acc += a[ar.base + p * ar.step] * b[bc.base + p * bc.step];
  store_c(c, i * ldc + j, alpha, acc, beta);
}

/* One thread per element of C. X_WALKS_ROWS picks which of C's axes the grid's x axis (and so
 * the 32 consecutive threads of a warp) runs along; it is the only difference between the naive
 * and the coalesced kernel. */
template <int SX, int SY, bool X_WALKS_ROWS>
__device__ __forceinline__ void gemm_per_element(int ta, int tb, idx_t m, idx_t n, idx_t k,
                                                 float alpha, const float *__restrict__ a,
                                                 idx_t lda, const float *__restrict__ b, idx_t ldb,
                                                 float beta, float *__restrict__ c, idx_t ldc) {
  const idx_t x = (idx_t)blockIdx.x * SX + threadIdx.x;
  FOR_EACH_TILE_Y(tile, X_WALKS_ROWS ? n : m, SY) {
    const idx_t y = tile * SY + threadIdx.y;
    const idx_t i = X_WALKS_ROWS ? x : y, j = X_WALKS_ROWS ? y : x;
    if (i < m && j < n) dot_one(ta, tb, i, j, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
}

/* naive: the textbook first mapping, thread x along the rows of C. The 32 threads of a warp take 32
 * consecutive rows i with the same column j, so for NN each load of A and each store of C is
 * strided by lda/ldc (32 memory segments per warp access) and B is a broadcast: kept as the slow
 * reference that shows what uncoalesced access costs. */
template <int S>
__global__ void duet_sgemm_naive(duet__gemm_scalars s, const float *__restrict__ a,
                                 const float *__restrict__ b, float *__restrict__ c) {
  gemm_per_element<simple_cfg<S>::X, simple_cfg<S>::Y, true>(GEMM_SCALARS_AROUND(s, a, b, c));
}

/* coalesced: naive's index mapping flipped, x along the columns of C: a warp takes 32 consecutive
 * columns j of one row i, so for NN the loads of B and the stores of C are coalesced and A is a
 * broadcast. Every operand is still re-read from global memory (L1/L2) k times. */
template <int S>
__global__ void duet_sgemm_coalesced(duet__gemm_scalars s, const float *__restrict__ a,
                                     const float *__restrict__ b, float *__restrict__ c) {
  gemm_per_element<simple_cfg<S>::X, simple_cfg<S>::Y, false>(GEMM_SCALARS_AROUND(s, a, b, c));
}

/* tiled: a GEMM_TILE x GEMM_TILE block computes the same-sized tile of C, one element per
 * thread, stepping through k one pair of tiles at a time. Each element of A and B fetched from
 * global memory is then used GEMM_TILE times from shared memory. Partial tiles at the edges are
 * zero-filled, so the inner product needs no bounds check, and threads outside C still load and
 * reach both barriers: an early return here would leave the block waiting at __syncthreads
 * (a barrier that some threads of a block skip is undefined behaviour; in practice a hang or a
 * wrong tile). */
template <int GEMM_TILE>
__device__ __forceinline__ void sgemm_tiled_body(int ta, int tb, idx_t m, idx_t n, idx_t k,
                                                 float alpha, const float *__restrict__ a,
                                                 idx_t lda, const float *__restrict__ b, idx_t ldb,
                                                 float beta, float *__restrict__ c, idx_t ldc) {
  extern __shared__ float smem[];
  float *as = smem, *bs = smem + GEMM_TILE * GEMM_TILE;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const idx_t j = (idx_t)blockIdx.x * GEMM_TILE + tx;
  FOR_EACH_TILE_Y(tile, m, GEMM_TILE) {
    const idx_t i = tile * GEMM_TILE + ty;
    const operand ar = row_of_op(ta, i, lda), bc = col_of_op(tb, j, ldb);
    float acc = 0.0f;
    for (idx_t p0 = 0; p0 < k; p0 += GEMM_TILE) {
      as[ty * GEMM_TILE + tx] = (i < m && p0 + tx < k) ? a[ar.base + (p0 + tx) * ar.step] : 0.0f;
      bs[ty * GEMM_TILE + tx] = (p0 + ty < k && j < n) ? b[bc.base + (p0 + ty) * bc.step] : 0.0f;
      __syncthreads();
#pragma unroll
      for (int p = 0; p < GEMM_TILE; p++) acc += as[ty * GEMM_TILE + p] * bs[p * GEMM_TILE + tx];
      /* The next step overwrites both tiles: wait until every thread is done with them. */
      __syncthreads();
    }
    if (i < m && j < n) store_c(c, i * ldc + j, alpha, acc, beta);
  }
}
template <int S>
__global__ void duet_sgemm_tiled(duet__gemm_scalars s, const float *__restrict__ a,
                                 const float *__restrict__ b, float *__restrict__ c) {
  sgemm_tiled_body<tiled_cfg<S>::TILE>(GEMM_SCALARS_AROUND(s, a, b, c));
}

/* register: 2D register blocking, the step after tiling: a BM x BN tile of C per block of
 * (BN/TN) x (BM/TM) threads (blockDim.x = BN/TN), each thread a TM x TN micro-tile in registers,
 * fed from BK-deep tiles of A and B in shared memory ((BM + BN) * BK floats, dynamic). Needs
 * BM * BK and BK * BN to be multiples of the thread count. */
/* Dynamic shared memory in bytes: an A tile of BM x BK and a B tile of BK x BN floats. */
template <int BM, int BN, int BK, int TM, int TN>
__host__ __device__ constexpr size_t sgemm_register_smem() {
  return (size_t)(BM + BN) * BK * sizeof(float);
}

template <int BM, int BN, int BK, int TM, int TN>
__device__ __forceinline__ void sgemm_register_body(int ta, int tb, idx_t m, idx_t n, idx_t k,
                                                    float alpha, const float *__restrict__ a,
                                                    idx_t lda, const float *__restrict__ b,
                                                    idx_t ldb, float beta, float *__restrict__ c,
                                                    idx_t ldc, float *smem) {
  constexpr int NX = BN / TN, NY = BM / TM, NT = NX * NY;
  static_assert(BM % TM == 0 && BN % TN == 0, "the micro-tile must divide the tile");
  static_assert((BM * BK) % NT == 0 && (BK * BN) % NT == 0, "each thread loads whole shares");
  float *as = smem;           /* BM x BK, row-major: as[r * BK + p] = op(A)(m0 + r, p0 + p) */
  float *bs = smem + BM * BK; /* BK x BN, row-major: bs[p * BN + q] = op(B)(p0 + p, n0 + q) */
  const int tx = threadIdx.x, ty = threadIdx.y, t = ty * NX + tx;
  const idx_t n0 = (idx_t)blockIdx.x * BN;
  FOR_EACH_TILE_Y(tile, m, BM) {
    const idx_t m0 = tile * BM;
    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
      for (int j = 0; j < TN; j++) acc[i][j] = 0.0f;

    for (idx_t p0 = 0; p0 < k; p0 += BK) {
      /* All threads copy the two tiles; consecutive threads take consecutive elements of the
       * dimension that is contiguous in memory (k for A, m for A^T), so the loads coalesce.
       * Elements outside the matrices become zeros. */
#pragma unroll
      for (int l = 0; l < BM * BK / NT; l++) {
        const int e = t + l * NT;
        const int r = ta ? e % BM : e / BK, p = ta ? e / BM : e % BK;
        const operand ar = row_of_op(ta, m0 + r, lda);
        as[r * BK + p] = (m0 + r < m && p0 + p < k) ? a[ar.base + (p0 + p) * ar.step] : 0.0f;
      }
#pragma unroll
      for (int l = 0; l < BK * BN / NT; l++) {
        const int e = t + l * NT;
        const int p = tb ? e % BK : e / BN, q = tb ? e / BK : e % BN;
        const operand bc = col_of_op(tb, n0 + q, ldb);
        bs[p * BN + q] = (p0 + p < k && n0 + q < n) ? b[bc.base + (p0 + p) * bc.step] : 0.0f;
      }
      __syncthreads();
      /* Each thread: TM values of A and TN values of B per step p give TM * TN products. */
#pragma unroll
      for (int p = 0; p < BK; p++) {
        float af[TM], bf[TN];
#pragma unroll
        for (int i = 0; i < TM; i++) af[i] = as[(ty * TM + i) * BK + p];
#pragma unroll
        for (int j = 0; j < TN; j++) bf[j] = bs[p * BN + tx * TN + j];
#pragma unroll
        for (int i = 0; i < TM; i++)
#pragma unroll
          for (int j = 0; j < TN; j++) acc[i][j] += af[i] * bf[j];
      }
      /* The next step overwrites both tiles: wait until every thread is done with them. */
      __syncthreads();
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

template <int S>
struct register_cfg {
  static constexpr int BM = TUN(S, GEMM_REG_BM), BN = TUN(S, GEMM_REG_BN), BK = TUN(S, GEMM_REG_BK),
                       TM = TUN(S, GEMM_REG_TM), TN = TUN(S, GEMM_REG_TN);
  static constexpr unsigned bx = BN / TN, by = BM / TM;
  static constexpr size_t smem = sgemm_register_smem<BM, BN, BK, TM, TN>();
};

template <int S>
__global__ void __launch_bounds__(register_cfg<S>::bx *register_cfg<S>::by)
    duet_sgemm_register(duet__gemm_scalars s, const float *__restrict__ a,
                        const float *__restrict__ b, float *__restrict__ c) {
  using C = register_cfg<S>;
  extern __shared__ float smem[];
  sgemm_register_body<C::BM, C::BN, C::BK, C::TM, C::TN>(GEMM_SCALARS_AROUND(s, a, b, c), smem);
}

/* One row per kernel: each expands to rows that end in commas clang-format cannot see. */
// clang-format off
extern "C" const duet__cu_kernel DUET__CU_TABLE(GEMM)[] = {
    DUET_CU_KERNEL(duet_sgemm_naive, simple_cfg)
    DUET_CU_KERNEL(duet_sgemm_coalesced, simple_cfg)
    DUET_CU_KERNEL(duet_sgemm_tiled, tiled_cfg)
    DUET_CU_KERNEL(duet_sgemm_register, register_cfg)
    DUET_CU_END};
// clang-format on
