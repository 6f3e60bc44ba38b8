/* SPDX-License-Identifier: MIT */
/* SGEMM fast, its stream-K kernels and the split-K reduction for CUDA: kernels_cl/gemm_fast.cl,
 * written once for both backends, compiled here once per tuning set and tile (kernels_cl/builtin.h
 * says how), and the registry's rows for them, for eight groups: gemm_fast (fast at the GEMM_FAST_
 * tile, the stream-K kernels, the reduction), gemm_fast_tiny (fast and stream-K at the
 * GEMM_FAST_TINY_ tile), gemm_fast_small, _tall, _wide, _mid, _narrow and _flat (fast at the
 * GEMM_FAST_SMALL_, _TALL_, _WIDE_, _MID_, _NARROW_ and _FLAT_ tiles), as the OpenCL programs serve
 * them through renamed -D options. The small and tiny tiles' groups take the cluster kernels
 * (duet_sgemm_fast_cs_*), which only CUDA builds. */
#include <stdint.h>

#include "common.cuh"
#include "duet_kernel.h"
#include "builtin.h"

/* The tunables the source reads, as the compile-time constants of set DUET_SET, the fast ones
 * from the tile FAST_PREFIX names (GEMM_FAST_, GEMM_FAST_SMALL_, ...). */
#define FAST_CAT2(a, b) a##b
#define FAST_CAT(a, b) FAST_CAT2(a, b)
#define FAST_TUN(x) TUN_CONST(DUET_SET, FAST_CAT(FAST_PREFIX, x))
#define GEMM_FAST_BM FAST_TUN(BM)
#define GEMM_FAST_BN FAST_TUN(BN)
#define GEMM_FAST_BK FAST_TUN(BK)
#define GEMM_FAST_WM FAST_TUN(WM)
#define GEMM_FAST_WN FAST_TUN(WN)
#define GEMM_FAST_TM FAST_TUN(TM)
#define GEMM_FAST_TN FAST_TUN(TN)
#define GEMM_FAST_BAND FAST_TUN(BAND)
#define GEMM_SPLITK_REDUCE_TILE TUN_CONST(DUET_SET, GEMM_SPLITK_REDUCE_TILE)
#define GEMM_SPLITK_REDUCE_ROWS TUN_CONST(DUET_SET, GEMM_SPLITK_REDUCE_ROWS)

/* Each set: namespace set<S>, the big tile's kernels (fast, stream-K, the reduction);
 * set<S>_tiny, fast and stream-K at that tile; _small, _tall, _wide, _mid, _narrow and _flat, fast
 * alone (as the gemm_fast_small ... gemm_fast_flat groups' OpenCL programs build them). fast is its
 * _nn kernel alone at each tile: on CUDA it holds the four transpose bodies and serves the four
 * names, but at the big tile nn and tn have their own, duet_sgemm_fast_nn_alone and _tn_alone
 * (FAST_ALONE in gemm_fast.cl, the registry below). */
#define PER_SET_SOURCE "gemm_fast.cl"
#define DUET_KERNEL_ONLY
#define DUET_WANT_duet_sgemm_fast_nn
#define DUET_WANT_duet_sgemm_fast_sk_nn
#define DUET_WANT_duet_sgemm_fast_sk_nt
#define DUET_WANT_duet_sgemm_fast_sk_tn
#define DUET_WANT_duet_sgemm_fast_sk_tt
#define DUET_WANT_duet_sgemm_splitk_reduce
/* the big tile, with fast's nn and tn bodies alone beside (FAST_ALONE in gemm_fast.cl) */
#define DUET_WANT_duet_sgemm_fast_nn_alone
#define DUET_WANT_duet_sgemm_fast_tn_alone
#define FAST_PREFIX GEMM_FAST_
#define PER_SET_SUFFIX
#define FAST_EDGE_LOADS 0 /* gemm_fast.cl says why */
#include "every_set.inc"
#undef FAST_EDGE_LOADS
#undef PER_SET_SUFFIX
#undef FAST_PREFIX
#undef DUET_WANT_duet_sgemm_fast_nn_alone
#undef DUET_WANT_duet_sgemm_fast_tn_alone
#undef DUET_WANT_duet_sgemm_fast_sk_nn
#undef DUET_WANT_duet_sgemm_fast_sk_nt
#undef DUET_WANT_duet_sgemm_fast_sk_tn
#undef DUET_WANT_duet_sgemm_fast_sk_tt
#undef DUET_WANT_duet_sgemm_splitk_reduce

/* the small and tiny tiles take the cluster kernels (split-K summed through a cluster's shared
 * memory, compute capability 9.0) */
#define DUET_WANT_duet_sgemm_fast_cs_nn
#define FAST_PREFIX GEMM_FAST_SMALL_
#define PER_SET_SUFFIX _small
#include "every_set.inc"
#undef PER_SET_SUFFIX
#undef FAST_PREFIX
/* the tiny tile takes stream-K's kernels too (split-K summed in its one launch) */
#define DUET_WANT_duet_sgemm_fast_sk_nn
#define DUET_WANT_duet_sgemm_fast_sk_nt
#define DUET_WANT_duet_sgemm_fast_sk_tn
#define DUET_WANT_duet_sgemm_fast_sk_tt
#define FAST_PREFIX GEMM_FAST_TINY_
#define PER_SET_SUFFIX _tiny
#include "every_set.inc"
#undef PER_SET_SUFFIX
#undef FAST_PREFIX
#undef DUET_WANT_duet_sgemm_fast_sk_nn
#undef DUET_WANT_duet_sgemm_fast_sk_nt
#undef DUET_WANT_duet_sgemm_fast_sk_tn
#undef DUET_WANT_duet_sgemm_fast_sk_tt
#undef DUET_WANT_duet_sgemm_fast_cs_nn
#define FAST_PREFIX GEMM_FAST_TALL_
#define PER_SET_SUFFIX _tall
#include "every_set.inc"
#undef PER_SET_SUFFIX
#undef FAST_PREFIX
#define FAST_PREFIX GEMM_FAST_WIDE_
#define PER_SET_SUFFIX _wide
#include "every_set.inc"
#undef PER_SET_SUFFIX
#undef FAST_PREFIX
#define FAST_PREFIX GEMM_FAST_MID_
#define PER_SET_SUFFIX _mid
#include "every_set.inc"
#undef PER_SET_SUFFIX
#undef FAST_PREFIX
#define FAST_PREFIX GEMM_FAST_NARROW_
#define PER_SET_SUFFIX _narrow
#include "every_set.inc"
#undef PER_SET_SUFFIX
#undef FAST_PREFIX
#define FAST_PREFIX GEMM_FAST_FLAT_
#define PER_SET_SUFFIX _flat
#include "every_set.inc"
#undef DUET_WANT_duet_sgemm_fast_nn
#undef DUET_KERNEL_ONLY
#undef PER_SET_SUFFIX
#undef FAST_PREFIX
#undef PER_SET_SOURCE

/* What each instantiation assumes, for the backend to check the manifest's launches against:
 * fast's block of 32 * (BM / WM) * (BN / WN) threads and its two padded buffers plus 16 bytes. */
#define FAST_THREADS(S, P) (32u * (TUN(S, P##BM) / TUN(S, P##WM)) * (TUN(S, P##BN) / TUN(S, P##WN)))
#define FAST_SMEM(S, P) \
  ((size_t)2 * TUN(S, P##BK) * (TUN(S, P##BM) + TUN(S, P##BN) + 8) * sizeof(float) + 16)
#define FAST_ROW(S, NS, P, NAME, FN) \
  {#NAME, S, (const void *)NS::FN, FAST_THREADS(S, P), 1, FAST_SMEM(S, P)},
/* the cluster kernels' shared memory: the larger of fast's buffers and a BM x BN partial product */
#define CS_PART(S, P) ((size_t)TUN(S, P##BM) * TUN(S, P##BN) * sizeof(float))
#define CS_SMEM(S, P) (CS_PART(S, P) > FAST_SMEM(S, P) ? CS_PART(S, P) : FAST_SMEM(S, P))
#define CS_ROW(S, NS, P, NAME) \
  {#NAME, S, (const void *)NS::NAME, FAST_THREADS(S, P), 1, CS_SMEM(S, P)},
#define CS_ROWS(S, NS, P)                 \
  CS_ROW(S, NS, P, duet_sgemm_fast_cs_nn) \
  CS_ROW(S, NS, P, duet_sgemm_fast_cs_nt) \
  CS_ROW(S, NS, P, duet_sgemm_fast_cs_tn) CS_ROW(S, NS, P, duet_sgemm_fast_cs_tt)
/* four kernels of one kind, one per transpose combination (NAME_nn ... NAME_tt), at one tile,
 * each its own function (FOUR_ROWS, stream-K) or all of them the _nn one (FOUR_NAMES, fast), but
 * at the big tile fast's nn and tn their _alone ones (BIG_NAMES) */
#define FOUR_ROWS(S, NS, P, NAME)          \
  FAST_ROW(S, NS, P, NAME##_nn, NAME##_nn) \
  FAST_ROW(S, NS, P, NAME##_nt, NAME##_nt) \
  FAST_ROW(S, NS, P, NAME##_tn, NAME##_tn) FAST_ROW(S, NS, P, NAME##_tt, NAME##_tt)
#define FOUR_NAMES(S, NS, P, NAME)         \
  FAST_ROW(S, NS, P, NAME##_nn, NAME##_nn) \
  FAST_ROW(S, NS, P, NAME##_nt, NAME##_nn) \
  FAST_ROW(S, NS, P, NAME##_tn, NAME##_nn) FAST_ROW(S, NS, P, NAME##_tt, NAME##_nn)
#define BIG_NAMES(S, NS, P, NAME)                \
  FAST_ROW(S, NS, P, NAME##_nn, NAME##_nn_alone) \
  FAST_ROW(S, NS, P, NAME##_nt, NAME##_nn)       \
  FAST_ROW(S, NS, P, NAME##_tn, NAME##_tn_alone) FAST_ROW(S, NS, P, NAME##_tt, NAME##_nn)
#define BIG_ROWS(S, ...)                                \
  BIG_NAMES(S, set##S, GEMM_FAST_, duet_sgemm_fast)     \
  FOUR_ROWS(S, set##S, GEMM_FAST_, duet_sgemm_fast_sk){ \
      "duet_sgemm_splitk_reduce",                       \
      S,                                                \
      (const void *)set##S::duet_sgemm_splitk_reduce,   \
      (unsigned)TUN(S, GEMM_SPLITK_REDUCE_TILE),        \
      (unsigned)TUN(S, GEMM_SPLITK_REDUCE_ROWS),        \
      0},
#define SMALL_ROWS(S, ...)                                         \
  FOUR_NAMES(S, set##S##_small, GEMM_FAST_SMALL_, duet_sgemm_fast) \
  CS_ROWS(S, set##S##_small, GEMM_FAST_SMALL_)
#define TINY_ROWS(S, ...)                                          \
  FOUR_NAMES(S, set##S##_tiny, GEMM_FAST_TINY_, duet_sgemm_fast)   \
  FOUR_ROWS(S, set##S##_tiny, GEMM_FAST_TINY_, duet_sgemm_fast_sk) \
  CS_ROWS(S, set##S##_tiny, GEMM_FAST_TINY_)
#define TALL_ROWS(S, ...) FOUR_NAMES(S, set##S##_tall, GEMM_FAST_TALL_, duet_sgemm_fast)
#define WIDE_ROWS(S, ...) FOUR_NAMES(S, set##S##_wide, GEMM_FAST_WIDE_, duet_sgemm_fast)
#define MID_ROWS(S, ...) FOUR_NAMES(S, set##S##_mid, GEMM_FAST_MID_, duet_sgemm_fast)
#define NARROW_ROWS(S, ...) FOUR_NAMES(S, set##S##_narrow, GEMM_FAST_NARROW_, duet_sgemm_fast)
#define FLAT_ROWS(S, ...) FOUR_NAMES(S, set##S##_flat, GEMM_FAST_FLAT_, duet_sgemm_fast)

extern "C" const duet__cu_kernel DUET__CU_TABLE(GEMM_FAST)[] = {DUET__FOR_EACH_SET(BIG_ROWS, )
                                                                    DUET_CU_END};
extern "C" const duet__cu_kernel DUET__CU_TABLE(GEMM_FAST_SMALL)[] = {
    DUET__FOR_EACH_SET(SMALL_ROWS, ) DUET_CU_END};
extern "C" const duet__cu_kernel DUET__CU_TABLE(GEMM_FAST_TINY)[] = {DUET__FOR_EACH_SET(TINY_ROWS, )
                                                                         DUET_CU_END};
extern "C" const duet__cu_kernel DUET__CU_TABLE(GEMM_FAST_TALL)[] = {DUET__FOR_EACH_SET(TALL_ROWS, )
                                                                         DUET_CU_END};
extern "C" const duet__cu_kernel DUET__CU_TABLE(GEMM_FAST_WIDE)[] = {DUET__FOR_EACH_SET(WIDE_ROWS, )
                                                                         DUET_CU_END};
extern "C" const duet__cu_kernel DUET__CU_TABLE(GEMM_FAST_MID)[] = {DUET__FOR_EACH_SET(MID_ROWS, )
                                                                        DUET_CU_END};
extern "C" const duet__cu_kernel DUET__CU_TABLE(GEMM_FAST_NARROW)[] = {
    DUET__FOR_EACH_SET(NARROW_ROWS, ) DUET_CU_END};
extern "C" const duet__cu_kernel DUET__CU_TABLE(GEMM_FAST_FLAT)[] = {DUET__FOR_EACH_SET(FLAT_ROWS, )
                                                                         DUET_CU_END};
