/* SPDX-License-Identifier: MIT */
/* SGEMM register and fast, and the split-K reduction: the __global__ entry points over the
 * device bodies of gemm_fast.cuh, one instantiation per tuning set, for two groups: gemm_fast
 * (register, fast at the GEMM_FAST_ tile, the reduction) and gemm_fast_small (fast at the
 * GEMM_FAST_SMALL_ tile), as kernels_cl/gemm_fast.cl serves both through renamed -D options.
 *
 * Tunables (values per tuning set in src/duet_tunables.h; what each must satisfy is in
 * gemm_fast.cuh's banner): GEMM_REG_BM, _BN, _BK, _TM, _TN; GEMM_FAST_BM, _BN, _BK, _WM, _WN,
 * _TM, _TN, _BAND and the same for GEMM_FAST_SMALL_; TRANSPOSE_TILE, _ROWS for the reduction.
 * Shared memory (dynamic): register (BM + BN) * BK floats; fast 2 * BK * (BM + BN + 8) floats
 * + 16 bytes. */
#include "common.cuh"
#include "gemm_fast.cuh"

template <int S>
struct register_cfg {
  static constexpr int BM = TUN(S, GEMM_REG_BM), BN = TUN(S, GEMM_REG_BN), BK = TUN(S, GEMM_REG_BK),
                       TM = TUN(S, GEMM_REG_TM), TN = TUN(S, GEMM_REG_TN);
  static constexpr unsigned bx = BN / TN, by = BM / TM;
  static constexpr size_t smem = sgemm_register_smem<BM, BN, BK, TM, TN>();
};

/* The fast kernel's shape from the tunables that start with P (GEMM_FAST_ or GEMM_FAST_SMALL_). */
#define FAST_CFG(NAME, P)                                                                    \
  template <int S>                                                                           \
  struct NAME {                                                                              \
    static constexpr int BM = TUN(S, P##BM), BN = TUN(S, P##BN), BK = TUN(S, P##BK),         \
                         WM = TUN(S, P##WM), WN = TUN(S, P##WN), TM = TUN(S, P##TM),         \
                         TN = TUN(S, P##TN), BAND = TUN(S, P##BAND);                         \
    static constexpr unsigned bx = sgemm_fast_threads<BM, BN, BK, WM, WN, TM, TN>(), by = 1; \
    static constexpr size_t smem = sgemm_fast_smem<BM, BN, BK, WM, WN, TM, TN>();            \
    static constexpr int min_blocks = sgemm_fast_min_blocks<BM, BN, BK, WM, WN, TM, TN>();   \
  };
FAST_CFG(fast_cfg, GEMM_FAST_)
FAST_CFG(fast_small_cfg, GEMM_FAST_SMALL_)

template <int S>
__global__ void __launch_bounds__(register_cfg<S>::bx *register_cfg<S>::by)
    duet_sgemm_register(duet__gemm_scalars s, const float *__restrict__ a,
                        const float *__restrict__ b, float *__restrict__ c) {
  using C = register_cfg<S>;
  extern __shared__ float smem[];
  sgemm_register_body<C::BM, C::BN, C::BK, C::TM, C::TN>(GEMM_SCALARS_AROUND(s, a, b, c), smem);
}

/* fast works on the matrices that start a_off, b_off and c_off floats into their buffers, as the
 * OpenCL twin must (a piece of C for the core's strip plans), and may read m_read >= m rows of
 * op(A) and n_read >= n columns of op(B) (duet_fast::mac_tile). The register cap that
 * __launch_bounds__ derives from min_blocks is what keeps the big tile's 16 x 8 accumulators at 253
 * registers without spills (H100, cuobjdump --res-usage). */
template <int S, template <int> class CFG>
__global__ void __launch_bounds__(CFG<S>::bx, CFG<S>::min_blocks)
    duet_sgemm_fast(int ta, int tb, idx_t m, idx_t n, idx_t k, float alpha,
                    const float *__restrict__ a, idx_t a_off, idx_t lda,
                    const float *__restrict__ b, idx_t b_off, idx_t ldb, float beta,
                    float *__restrict__ c, idx_t c_off, idx_t ldc, idx_t m_read, idx_t n_read) {
  using C = CFG<S>;
  extern __shared__ float smem[];
  sgemm_fast_body<C::BM, C::BN, C::BK, C::WM, C::WN, C::TM, C::TN, C::BAND>(
      ta, tb, m, n, k, alpha, a + a_off, lda, b + b_off, ldb, beta, c + c_off, ldc, m_read, n_read,
      smem);
}

/* fast over a stream-K grid: `units` stream-K blocks at the end of a 1D grid, `work` their
 * partial products, `flags` their tickets and stamps, units_epoch the units in its low 32 bits and
 * the call's epoch above (duet_fast::fast_stream_k). The big tile only. One kernel per transpose
 * combination, KA = !ta and KB = tb (tile_loader's KCONT), named for it in the registry (ta and tb,
 * passed so that every fast kernel takes one argument list, must be the name's): in one function
 * for all four, the stream-K kernel ran 5% slower at 2048 on the H100 (same k loop in the SASS,
 * more spilled registers around it). */
template <int S, bool KA, bool KB>
__global__ void __launch_bounds__(fast_cfg<S>::bx, fast_cfg<S>::min_blocks)
    duet_sgemm_fast_sk(int, int, idx_t m, idx_t n, idx_t k, float alpha,
                       const float *__restrict__ a, idx_t a_off, idx_t lda,
                       const float *__restrict__ b, idx_t b_off, idx_t ldb, float beta,
                       float *__restrict__ c, idx_t c_off, idx_t ldc, idx_t m_read, idx_t n_read,
                       idx_t units_epoch, float *work, int *flags) {
  using C = fast_cfg<S>;
  extern __shared__ float smem[];
  duet_fast::fast_stream_k<C::BM, C::BN, C::BK, C::WM, C::WN, C::TM, C::TN, C::BAND, KA, KB>(
      m, n, k, alpha, a + a_off, lda, b + b_off, ldb, beta, c + c_off, ldc, m_read, n_read, smem,
      (unsigned)(units_epoch & 0xffffffff), (int)(units_epoch >> 32), work, flags);
}

template <int S>
__global__ void duet_sgemm_splitk_reduce(idx_t m, idx_t n, int splits,
                                         const float *__restrict__ work, float alpha, float beta,
                                         float *__restrict__ c, idx_t c_off, idx_t ldc) {
  sgemm_splitk_reduce_body(m, n, splits, work, alpha, beta, c + c_off, ldc);
}

/* Both groups name their fast kernel duet_sgemm_fast, as the OpenCL programs do. */
#define FAST_ROW(S, CFG)                                                 \
  {"duet_sgemm_fast", S,          (const void *)duet_sgemm_fast<S, CFG>, \
   CFG<S>::bx,        CFG<S>::by, CFG<S>::smem},

/* The stream-K kernels, one per transpose combination, named for it as in kernels_cl/. */
#define SK_ROW(S, OPS, KA, KB)                  \
  {"duet_sgemm_fast_sk_" #OPS,                  \
   S,                                           \
   (const void *)duet_sgemm_fast_sk<S, KA, KB>, \
   fast_cfg<S>::bx,                             \
   fast_cfg<S>::by,                             \
   fast_cfg<S>::smem},
#define SK_ROWS(S, ...)      \
  SK_ROW(S, nn, true, false) \
  SK_ROW(S, nt, true, true) SK_ROW(S, tn, false, false) SK_ROW(S, tt, false, true)

// clang-format off
extern "C" const duet__cu_kernel DUET__CU_TABLE(GEMM_FAST)[] = {
    DUET_CU_KERNEL(duet_sgemm_register, register_cfg)
    DUET__FOR_EACH_SET(FAST_ROW, fast_cfg)
    DUET__FOR_EACH_SET(SK_ROWS, )
    DUET_CU_KERNEL(duet_sgemm_splitk_reduce, tile_rows_cfg)
    DUET_CU_END};
// clang-format on

extern "C" const duet__cu_kernel DUET__CU_TABLE(GEMM_FAST_SMALL)[] = {
    DUET__FOR_EACH_SET(FAST_ROW, fast_small_cfg) DUET_CU_END};
