/* SPDX-License-Identifier: MIT */
/* fast's groups for CUDA (gemm_fast, gemm_fast_small ... gemm_fast_flat): gemm_fast.inc says
 * how. */
#define FAST_FLAVOR
#define FAST_GROUP_FLAVOR
#include "gemm_fast.inc"
