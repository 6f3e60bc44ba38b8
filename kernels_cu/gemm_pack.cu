/* SPDX-License-Identifier: MIT */
/* The packing of fast's operands for CUDA: kernels_cl/gemm_pack.cl, written once for both
 * backends, compiled here once per tuning set (kernels_cl/builtin.h says how), and the
 * registry's rows for it. */
#include <stdint.h>

#include "common.cuh"
#include "duet_kernel.h"
#include "builtin.h"

/* The tunables the source reads, as the set DUET_SET's compile-time constants. */
#define TRANSPOSE_TILE TUN_CONST(DUET_SET, TRANSPOSE_TILE)
#define TRANSPOSE_ROWS TUN_CONST(DUET_SET, TRANSPOSE_ROWS)

#define PER_SET_SOURCE "gemm_pack.cl"
#define PER_SET_SUFFIX
#include "every_set.inc"
#undef PER_SET_SUFFIX
#undef PER_SET_SOURCE

/* What each instantiation assumes: a TILE x ROWS block, no shared memory. */
#define PACK_ROWS(S, ...)                 \
  {"duet_sgemm_pack",                     \
   S,                                     \
   (const void *)set##S::duet_sgemm_pack, \
   (unsigned)TUN(S, TRANSPOSE_TILE),      \
   (unsigned)TUN(S, TRANSPOSE_ROWS),      \
   0},

extern "C" const duet__cu_kernel DUET__CU_TABLE(GEMM_PACK)[] = {DUET__FOR_EACH_SET(PACK_ROWS, )
                                                                    DUET_CU_END};
