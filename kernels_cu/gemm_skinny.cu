/* SPDX-License-Identifier: MIT */
/* SGEMM skinny and skinny-dot for CUDA: kernels_cl/gemm_skinny.cl, written once for both backends,
 * compiled here once per tuning set (kernels_cl/builtin.h says how), and the registry's rows for
 * them. */
#include <stdint.h>

#include "common.cuh"
#include "duet_kernel.h"
#include "builtin.h"

/* The tunables the source reads, as the set DUET_SET's compile-time constants. */
#define GEMM_SKINNY_S TUN_CONST(DUET_SET, GEMM_SKINNY_S)

#define PER_SET_SOURCE "gemm_skinny.cl"
#define PER_SET_SUFFIX
#include "every_set.inc"
#undef PER_SET_SUFFIX
#undef PER_SET_SOURCE

/* What each instantiation assumes, for the backend to check the manifest's launches against. */
#define SKINNY_ROW(S, ...)                  \
  {"duet_sgemm_skinny",                     \
   S,                                       \
   (const void *)set##S::duet_sgemm_skinny, \
   SKINNY_LX,                               \
   SKINNY_KG,                               \
   (size_t)SKINNY_KG * TUN(S, GEMM_SKINNY_S) * SKINNY_LT * sizeof(float)},
#define SKINNY_DOT_ROW(S, ...)                  \
  {"duet_sgemm_skinny_dot",                     \
   S,                                           \
   (const void *)set##S::duet_sgemm_skinny_dot, \
   DOT_LX,                                      \
   DOT_RY,                                      \
   (size_t)TUN(S, GEMM_SKINNY_S) * DOT_KC * sizeof(float)},

extern "C" const duet__cu_kernel DUET__CU_TABLE(GEMM_SKINNY)[] = {
    DUET__FOR_EACH_SET(SKINNY_ROW, ) DUET__FOR_EACH_SET(SKINNY_DOT_ROW, ) DUET_CU_END};
