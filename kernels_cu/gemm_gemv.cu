/* SPDX-License-Identifier: MIT */
/* SGEMV (a row or a column of C) for CUDA: kernels_cl/gemm_gemv.cl, written once for both
 * backends, compiled here once per tuning set (kernels_cl/builtin.h says how), and the registry's
 * rows for it. */
#include <stdint.h>

#include "common.cuh"
#include "duet_kernel.h"
#include "builtin.h"

/* The tunables the source reads, as the set DUET_SET's compile-time constants. */
#define GEMV_THREADS TUN_CONST(DUET_SET, GEMV_THREADS)
#define GEMV_LX TUN_CONST(DUET_SET, GEMV_LX)
#define GEMV_DOT_LANES TUN_CONST(DUET_SET, GEMV_DOT_LANES)
#define GEMV_UNROLL TUN_CONST(DUET_SET, GEMV_UNROLL)
#define GEMV_SYNC_ROWS TUN_CONST(DUET_SET, GEMV_SYNC_ROWS)

#define PER_SET_SOURCE "gemm_gemv.cl"
#define PER_SET_SUFFIX
#include "every_set.inc"
#undef PER_SET_SUFFIX
#undef PER_SET_SOURCE

/* What each instantiation assumes: a 1D block of GEMV_THREADS, static shared memory only. */
#define GEMV_ROW(S, NAME) \
  {#NAME, S, (const void *)set##S::NAME, (unsigned)TUN(S, GEMV_THREADS), 1, 0},
#define GEMV_ROWS(S, ...) GEMV_ROW(S, duet_sgemv) GEMV_ROW(S, duet_sgemv_dot)

extern "C" const duet__cu_kernel DUET__CU_TABLE(GEMM_GEMV)[] = {DUET__FOR_EACH_SET(GEMV_ROWS, )
                                                                    DUET_CU_END};
