/* SPDX-License-Identifier: MIT */
/* SGEMM skinny: a strip of C a few rows or columns thin, as fast's plans cut them (src/gemm.c).
 * Row-major C = alpha * op(A) * op(B) + beta * C, op(A) m x k, op(B) k x n.
 * Written once for both backends in the dialect of src/duet_kernel.h and kernels_cl/builtin.h
 * (which says how each backend builds it). Its own group, so that a program of a few lines is
 * built for it on OpenCL, not gemm_fast's (docs/results/tuning-notes.md: what those builds cost).
 *
 * Tunables (values per tuning set in src/duet_tunables.h; -D options on OpenCL, one
 * instantiation per set on CUDA):
 *   GEMM_SKINNY_S  the most rows (or columns) of C the strip may have (4 in every set)
 * Fixed: skinny 64 x 4 threads per block (SKINNY_LX x SKINNY_KG), 256 outputs along the strip;
 * skinny-dot 32 x 8 threads (DOT_LX x DOT_RY), 8 outputs along the strip, k in chunks of 512.
 * Shared memory (dynamic; on OpenCL the last, __local argument): skinny SKINNY_KG *
 * GEMM_SKINNY_S * 256 floats, skinny-dot GEMM_SKINNY_S * 512. */
#ifndef GEMM_SKINNY_S
#error "GEMM_SKINNY_S comes from the tuning set: -D on OpenCL, kernels_cu/gemm_skinny.cu on CUDA"
#endif

/* The thin side of a strip is S <= GEMM_SKINNY_S rows (thin_rows, which the plan sets where
 * m <= GEMM_SKINNY_S and !tb: C's rows are a few rows of op(A) times B, read along n) or else
 * columns (n <= GEMM_SKINNY_S and ta: op(A) is A^T, read along m); call the long side L (n, or m)
 * and the operand read along it v: C(s, l) = sum_p u(s, p) v(p, l), u the thin operand. A strip is
 * a matrix-vector product, bound by reading v once; the tiled kernels reload the thin operand
 * through shared memory for every BK step and keep few loads in flight
 * (docs/results/tuning-notes.md: what the small tile made of a 1 x 4097 strip). Block: 64 x
 * SKINNY_KG threads over 256 outputs along L, each thread 4 of them (a float4 of v where ld and
 * alignment allow) for every thin row, and k index ty, ty + SKINNY_KG, ...; the SKINNY_KG partial
 * sums meet in shared memory (SKINNY_KG * GEMM_SKINNY_S
 * * 256 floats). 1D grid of ceil(L / 256) blocks; grid dimension 2 is split-K slices (splitk_slice
 * in kernels_cl/builtin.h, slices of any length). Any m, n, k, ld. fast's argument list
 * (FAST_PARAMS), so that a strip's plan can take it in place of the small tile, then the plan's
 * orientation; m_read and n_read are not needed (it reads inside m x k and k x n only). */
#define SKINNY_LX 64
#define SKINNY_LT (4 * SKINNY_LX)
#define SKINNY_KG 4

/* A strip's operands, named by orientation: S thin rows (C's rows) or else S thin columns, the
 * long side L, the operand v that runs along L (row l of v is v + l * ldv along k when read
 * across k; along L it is v's row p) and the thin one u, and C: C(s, l) = sum_p u(s, p) v(l, p),
 * u(s, p) = u[s * us + p * up], C(s, l) = c[s * cs + l * cl]. */
typedef struct {
  idx_t S, L;
  DUET_GLOBAL const float *v;
  idx_t ldv;
  DUET_GLOBAL const float *u;
  idx_t us, up, cs, cl;
} strip_view;
INLINE_FN strip_view strip_of(bool thin_rows, int ta, int tb, idx_t m, idx_t n,
                              DUET_GLOBAL const float *a, idx_t lda, DUET_GLOBAL const float *b,
                              idx_t ldb, idx_t ldc) {
  strip_view w;
  w.S = thin_rows ? m : n;
  w.L = thin_rows ? n : m;
  w.v = thin_rows ? b : a;
  w.ldv = thin_rows ? ldb : lda;
  w.u = thin_rows ? a : b;
  w.us = thin_rows ? (ta ? 1 : lda) : (tb ? ldb : 1);
  w.up = thin_rows ? (ta ? lda : 1) : (tb ? 1 : ldb);
  w.cs = thin_rows ? ldc : 1;
  w.cl = thin_rows ? 1 : ldc;
  return w;
}

/* This thread's 4 elements of v's row p from l on, e of which exist. */
INLINE_FN float4 skinny_load(DUET_GLOBAL const float *DUET_RESTRICT v, idx_t ldv, idx_t p, idx_t l,
                             int e, bool vec) {
  DUET_GLOBAL const float *src = v + p * ldv + l;
  if (vec) return GLOBAL_CONST_FLOAT4(src);
  return DUET_MAKE_FLOAT4(e > 0 ? src[0] : 0.0f, e > 1 ? src[1] : 0.0f, e > 2 ? src[2] : 0.0f,
                          e > 3 ? src[3] : 0.0f);
}
INLINE_FN void skinny_mac(DUET_GLOBAL const float *DUET_RESTRICT u, idx_t us, idx_t up, idx_t S,
                          idx_t p, float4 x, float acc[GEMM_SKINNY_S][4]) {
#pragma unroll
  for (int s = 0; s < GEMM_SKINNY_S; s++)
    if (s < S) {
      const float w = u[s * us + p * up];
      acc[s][0] = fma(w, x.x, acc[s][0]);
      acc[s][1] = fma(w, x.y, acc[s][1]);
      acc[s][2] = fma(w, x.z, acc[s][2]);
      acc[s][3] = fma(w, x.w, acc[s][3]);
    }
}

#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemm_skinny)
DUET_KERNEL KERNEL_BLOCK(SKINNY_LX, SKINNY_KG) /* thin_rows: the plan's orientation */
    void duet_sgemm_skinny(FAST_PARAMS, int thin_rows DUET_SHARED_PARAM(float, smem)) {
  AFTER_PRIOR_LAUNCH();
  DUET_SHARED_BIND(float, smem);
  FAST_APPLY_OFFSETS();
  const strip_view w = strip_of(thin_rows, ta, tb, m, n, a, lda, b, ldb, ldc);
  const idx_t S = w.S, L = w.L, ldv = w.ldv, us = w.us, up = w.up, cs = w.cs, cl = w.cl;
  DUET_GLOBAL const float *DUET_RESTRICT v = w.v;
  DUET_GLOBAL const float *DUET_RESTRICT u = w.u;
  const k_range ks = splitk_slice(k, 1, m, ldc, &c, &alpha, &beta);
  const idx_t kbeg = ks.beg, kend = ks.end;
  const int tx = DUET_THREAD_IDX(0), ty = DUET_THREAD_IDX(1);
  const idx_t l = (idx_t)DUET_BLOCK_IDX(0) * SKINNY_LT + 4 * tx;
  const int e = (int)max((idx_t)0, min((idx_t)4, L - l)); /* this thread's outputs along L */
  const bool vec = e == 4 && vec4_rows(v + l, ldv);
  float acc[GEMM_SKINNY_S][4];
#pragma unroll
  for (int s = 0; s < GEMM_SKINNY_S; s++)
#pragma unroll
    for (int j = 0; j < 4; j++) acc[s][j] = 0.0f;
  /* Four k indices per step, so that four loads of v are in flight at once. */
  idx_t p = kbeg + ty;
  for (; p + 3 * SKINNY_KG < kend; p += 4 * SKINNY_KG) {
    float4 x[4];
#pragma unroll
    for (int q = 0; q < 4; q++) x[q] = skinny_load(v, ldv, p + q * SKINNY_KG, l, e, vec);
#pragma unroll
    for (int q = 0; q < 4; q++) skinny_mac(u, us, up, S, p + q * SKINNY_KG, x[q], acc);
  }
  for (; p < kend; p += SKINNY_KG)
    skinny_mac(u, us, up, S, p, skinny_load(v, ldv, p, l, e, vec), acc);

    /* The SKINNY_KG partial sums of each output, added in k-group order. */
#pragma unroll
  for (int s = 0; s < GEMM_SKINNY_S; s++)
#pragma unroll
    for (int j = 0; j < 4; j++) smem[(ty * GEMM_SKINNY_S + s) * SKINNY_LT + 4 * tx + j] = acc[s][j];
  LOCAL_BARRIER();
  for (int o = ty * SKINNY_LX + tx; o < GEMM_SKINNY_S * SKINNY_LT; o += SKINNY_KG * SKINNY_LX) {
    const int s = o / SKINNY_LT, j = o % SKINNY_LT;
    const idx_t lo = (idx_t)DUET_BLOCK_IDX(0) * SKINNY_LT + j;
    if (s >= S || lo >= L) continue;
    float sum = 0.0f;
    for (int g = 0; g < SKINNY_KG; g++) sum += smem[(g * GEMM_SKINNY_S + s) * SKINNY_LT + j];
    store_c(c, s * cs + lo * cl, alpha, sum, beta);
  }
}
#endif

/* skinny-dot: the strips whose long operand is read across k, which skinny cannot take: S <=
 * GEMM_SKINNY_S columns with A not transposed (C(l, s) = row l of A . column s of op(B)), or else
 * rows with B transposed (C(s, l) = row s of op(A) . row l of B). Row l of that operand v is
 * contiguous along k, so each output is a dot product: a warp per l, DOT_RY of them per block,
 * its lanes reading float4s of the row (where ld and alignment allow) while the thin operand's
 * DOT_KC-wide chunk waits in shared memory for all of them; the lanes' partial sums meet in the
 * same shared memory at the end (GEMM_SKINNY_S * DOT_KC floats, >= DOT_RY * GEMM_SKINNY_S *
 * DOT_LX). 1D grid of ceil(L / DOT_RY) blocks; grid dimension 2 is split-K slices
 * (splitk_slice, whole float4s). skinny's arguments: thin_rows, the plan's orientation, is 0
 * for thin columns with A not transposed, 1 for thin rows with B transposed. */
#define DOT_LX 32
#define DOT_RY 8
#define DOT_KC 512

#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemm_skinny_dot)
DUET_KERNEL KERNEL_BLOCK(DOT_LX, DOT_RY) /* thin_rows: the plan's orientation */
    void duet_sgemm_skinny_dot(FAST_PARAMS, int thin_rows DUET_SHARED_PARAM(float, smem)) {
  AFTER_PRIOR_LAUNCH();
  DUET_SHARED_BIND(float, smem);
  FAST_APPLY_OFFSETS();
  const strip_view w = strip_of(thin_rows, ta, tb, m, n, a, lda, b, ldb, ldc);
  const idx_t S = w.S, L = w.L, ldv = w.ldv, us = w.us, up = w.up, cs = w.cs, cl = w.cl;
  DUET_GLOBAL const float *DUET_RESTRICT v = w.v;
  DUET_GLOBAL const float *DUET_RESTRICT u = w.u;
  const k_range ks = splitk_slice(k, 4, m, ldc, &c, &alpha, &beta);
  const int tx = DUET_THREAD_IDX(0), ty = DUET_THREAD_IDX(1), tid = ty * DOT_LX + tx;
  const idx_t l = (idx_t)DUET_BLOCK_IDX(0) * DOT_RY + ty;
  const bool live = l < L;
  DUET_GLOBAL const float *DUET_RESTRICT row = v + (live ? l : 0) * ldv;
  const bool vec = vec4_rows(v, ldv); /* slices start on whole float4s */
  float acc[GEMM_SKINNY_S];
#pragma unroll
  for (int s = 0; s < GEMM_SKINNY_S; s++) acc[s] = 0.0f;
  for (idx_t p0 = ks.beg; p0 < ks.end; p0 += DOT_KC) {
    const int kl = (int)min((idx_t)DOT_KC, ks.end - p0);
    /* u's chunk, zero past S and k */
    DUET_GLOBAL const float *DUET_RESTRICT uc = u + p0 * up;
#pragma unroll 1
    for (int s = 0; s < GEMM_SKINNY_S; s++)
      for (int q = tid; q < DOT_KC; q += DOT_LX * DOT_RY)
        smem[s * DOT_KC + q] = s < S && q < kl ? uc[s * us + q * up] : 0.0f;
    LOCAL_BARRIER();
    if (live) {
      float4 x[DOT_KC / (4 * DOT_LX)];
#pragma unroll
      for (int j = 0; j < DOT_KC / (4 * DOT_LX); j++) {
        const int q = 4 * tx + j * 4 * DOT_LX;
        DUET_GLOBAL const float *src = row + p0 + q;
        if (vec && q + 4 <= kl)
          x[j] = GLOBAL_CONST_FLOAT4(src);
        else
          x[j] = DUET_MAKE_FLOAT4(q < kl ? src[0] : 0.0f, q + 1 < kl ? src[1] : 0.0f,
                                  q + 2 < kl ? src[2] : 0.0f, q + 3 < kl ? src[3] : 0.0f);
      }
#pragma unroll
      for (int j = 0; j < DOT_KC / (4 * DOT_LX); j++) {
        const int q = 4 * tx + j * 4 * DOT_LX;
#pragma unroll
        for (int s = 0; s < GEMM_SKINNY_S; s++) {
          const float4 w = DUET_LOAD4(0, smem + s * DOT_KC + q);
          acc[s] = fma(x[j].x, w.x, fma(x[j].y, w.y, fma(x[j].z, w.z, fma(x[j].w, w.w, acc[s]))));
        }
      }
    }
    LOCAL_BARRIER(); /* the next chunk overwrites u's */
  }
  /* The DOT_LX lanes' partial sums of each output, added in lane order. */
#pragma unroll
  for (int s = 0; s < GEMM_SKINNY_S; s++) smem[(ty * GEMM_SKINNY_S + s) * DOT_LX + tx] = acc[s];
  LOCAL_BARRIER();
  if (live && tx < S) {
    float sum = 0.0f;
    for (int i = 0; i < DOT_LX; i++) sum += smem[(ty * GEMM_SKINNY_S + tx) * DOT_LX + i];
    store_c(c, tx * cs + l * cl, alpha, sum, beta);
  }
}
#endif
