/* SPDX-License-Identifier: MIT */
/* fast's scalar twins for CUDA (gemm_fast_scalar, gemm_fast_small_scalar ...
 * gemm_fast_flat_scalar): the same kernels with their operands loaded in the scalar layout
 * (GEMM_FAST_SCALAR in kernels_cl/gemm_fast.cl), which the plan takes where an operand's ld is not
 * a multiple of 4 (src/gemm_plan.c, with_scalar_twins). gemm_fast.inc says how. */
#define GEMM_FAST_SCALAR 1
#define FAST_FLAVOR _sc
#define FAST_GROUP_FLAVOR _SC
#include "gemm_fast.inc"
