/* SPDX-License-Identifier: MIT */
/* SGEMM skinny: a strip of C a few rows or columns thin, as fast's plans cut them (src/gemm.c).
 * Row-major C = alpha * op(A) * op(B) + beta * C, op(A) m x k, op(B) k x n.
 * kernels_cl/gemm_skinny.cl holds the OpenCL twin. Its own group, so that a program of a few
 * lines is built for it on OpenCL (gemm_fast.cl's build takes NVIDIA's compiler about 24 s).
 *
 * Tunables (values per tuning set in src/duet_tunables.h; one instantiation per set):
 *   GEMM_SKINNY_S  the most rows (or columns) of C the strip may have (4)
 * Fixed: skinny 64 x 4 threads per block (SKINNY_LX x SKINNY_KG), 256 outputs along the strip;
 * skinny-dot 32 x 8 threads (DOT_LX x DOT_RY), 8 outputs along the strip, k in chunks of 512.
 * Shared memory (dynamic): skinny SKINNY_KG * GEMM_SKINNY_S * 256 floats, skinny-dot
 * GEMM_SKINNY_S * 512. */
#include <stdint.h>

#include "common.cuh"

/* The thin side of a strip is S <= SMAX rows (m <= SMAX and !tb: C's rows are a few rows of
 * op(A) times B, read along n) or else columns (n <= SMAX and ta: op(A) is A^T, read along m);
 * call the long side L (n, or m) and the operand read along it v: C(s, l) = sum_p u(s, p) v(p, l),
 * u the thin operand. A strip is a matrix-vector product, bound by reading v once; the tiled
 * kernels reload the thin operand through shared memory for every BK step and keep few loads in
 * flight (the H100: 1 x 4097 x 4097 at a third of cuBLAS's speed).
 * Block: 64 x KG threads (blockDim.x = 64, blockDim.y = KG) over 256 outputs along L, each
 * thread 4 of them (a float4 of v where ld and alignment allow) for every thin row, and k
 * index ty, ty + KG, ...; the KG partial sums meet in shared memory (KG * SMAX * 256 floats).
 * 1D grid of ceil(L / 256) blocks; gridDim.z split-K slices (splitk_slice in common.cuh, slices
 * of any length). Any m, n, k, ld. */
constexpr int SKINNY_LX = 64, SKINNY_LT = 4 * SKINNY_LX, SKINNY_KG = 4;
template <int SMAX, int KG>
__host__ __device__ constexpr size_t sgemm_skinny_smem() {
  return (size_t)KG * SMAX * SKINNY_LT * sizeof(float);
}

/* A strip's operands, named by orientation: S thin rows (C's rows) or else S thin columns, the
 * long side L, the operand v that runs along L (row l of v is v + l * ldv along k when read
 * across k; along L it is v's row p) and the thin one u, and C: C(s, l) = sum_p u(s, p) v(l, p),
 * u(s, p) = u[s * us + p * up], C(s, l) = c[s * cs + l * cl]. */
struct strip_view {
  idx_t S, L;
  const float *v;
  idx_t ldv;
  const float *u;
  idx_t us, up, cs, cl;
};
__device__ __forceinline__ strip_view strip_of(bool thin_rows, int ta, int tb, idx_t m, idx_t n,
                                               const float *a, idx_t lda, const float *b, idx_t ldb,
                                               idx_t ldc) {
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

template <int SMAX, int KG>
__device__ __forceinline__ void sgemm_skinny_body(int ta, int tb, idx_t m, idx_t n, idx_t k,
                                                  float alpha, const float *__restrict__ a,
                                                  idx_t lda, const float *__restrict__ b, idx_t ldb,
                                                  float beta, float *__restrict__ c, idx_t ldc,
                                                  float *smem) {
  const strip_view w = strip_of(!tb && m <= SMAX, ta, tb, m, n, a, lda, b, ldb, ldc);
  const idx_t S = w.S, L = w.L, ldv = w.ldv, us = w.us, up = w.up, cs = w.cs, cl = w.cl;
  const float *__restrict__ v = w.v;
  const float *__restrict__ u = w.u;
  const k_range ks = splitk_slice(k, 1, m, ldc, c, alpha, beta);
  const idx_t kbeg = ks.beg, kend = ks.end;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const idx_t l = (idx_t)blockIdx.x * SKINNY_LT + 4 * tx;
  const int e = (int)max((idx_t)0, min((idx_t)4, L - l)); /* this thread's outputs along L */
  const bool vec = e == 4 && (ldv & 3) == 0 && (((uintptr_t)(v + l)) & 15) == 0;
  float acc[SMAX][4];
#pragma unroll
  for (int s = 0; s < SMAX; s++)
#pragma unroll
    for (int j = 0; j < 4; j++) acc[s][j] = 0.0f;
  /* Four k indices per step, so that four loads of v are in flight at once. */
  auto load_v = [&](idx_t p) {
    const float *src = v + p * ldv + l;
    float4 x;
    if (vec) {
      x = *reinterpret_cast<const float4 *>(src);
    } else {
      x.x = e > 0 ? src[0] : 0.0f;
      x.y = e > 1 ? src[1] : 0.0f;
      x.z = e > 2 ? src[2] : 0.0f;
      x.w = e > 3 ? src[3] : 0.0f;
    }
    return x;
  };
  auto mac = [&](idx_t p, float4 x) {
#pragma unroll
    for (int s = 0; s < SMAX; s++)
      if (s < S) {
        const float w = u[s * us + p * up];
        acc[s][0] = fmaf(w, x.x, acc[s][0]);
        acc[s][1] = fmaf(w, x.y, acc[s][1]);
        acc[s][2] = fmaf(w, x.z, acc[s][2]);
        acc[s][3] = fmaf(w, x.w, acc[s][3]);
      }
  };
  idx_t p = kbeg + ty;
  for (; p + 3 * KG < kend; p += 4 * KG) {
    float4 x[4];
#pragma unroll
    for (int q = 0; q < 4; q++) x[q] = load_v(p + q * KG);
#pragma unroll
    for (int q = 0; q < 4; q++) mac(p + q * KG, x[q]);
  }
  for (; p < kend; p += KG) mac(p, load_v(p));

  /* The KG partial sums of each output, added in k-group order. */
#pragma unroll
  for (int s = 0; s < SMAX; s++)
#pragma unroll
    for (int j = 0; j < 4; j++) smem[(ty * SMAX + s) * SKINNY_LT + 4 * tx + j] = acc[s][j];
  __syncthreads();
  for (int o = ty * SKINNY_LX + tx; o < SMAX * SKINNY_LT; o += KG * SKINNY_LX) {
    const int s = o / SKINNY_LT, j = o % SKINNY_LT;
    const idx_t lo = (idx_t)blockIdx.x * SKINNY_LT + j;
    if (s >= S || lo >= L) continue;
    float sum = 0.0f;
    for (int g = 0; g < KG; g++) sum += smem[(g * SMAX + s) * SKINNY_LT + j];
    store_c(c, s * cs + lo * cl, alpha, sum, beta);
  }
}

/* skinny takes fast's argument list, so that a strip's plan can take it in place of the small
 * tile; m_read and n_read are not needed (it reads inside m x k and k x n only). */
template <int S>
struct skinny_cfg {
  static constexpr int SMAX = TUN(S, GEMM_SKINNY_S), KG = SKINNY_KG;
  static constexpr unsigned bx = SKINNY_LX, by = KG;
  static constexpr size_t smem = sgemm_skinny_smem<SMAX, KG>();
};
template <int S>
__global__ void __launch_bounds__(SKINNY_LX *SKINNY_KG)
    duet_sgemm_skinny(int ta, int tb, idx_t m, idx_t n, idx_t k, float alpha,
                      const float *__restrict__ a, idx_t a_off, idx_t lda,
                      const float *__restrict__ b, idx_t b_off, idx_t ldb, float beta,
                      float *__restrict__ c, idx_t c_off, idx_t ldc, idx_t, idx_t) {
  using C = skinny_cfg<S>;
  extern __shared__ float smem[];
  sgemm_skinny_body<C::SMAX, C::KG>(ta, tb, m, n, k, alpha, a + a_off, lda, b + b_off, ldb, beta,
                                    c + c_off, ldc, smem);
}

/* skinny-dot: the strips whose long operand is read across k, which skinny cannot take: S <=
 * SMAX columns with A not transposed (C(l, s) = row l of A . column s of op(B)), or else rows
 * with B transposed (C(s, l) = row s of op(A) . row l of B). Row l of that operand v is
 * contiguous along k, so each output is a dot product: a warp per l, DOT_RY of them per block,
 * its lanes reading float4s of the row (where ld and alignment allow) while the thin operand's
 * DOT_KC-wide chunk waits in shared memory for all of them; the lanes' partial sums meet in the
 * same shared memory at the end. 1D grid of ceil(L / DOT_RY) blocks; gridDim.z split-K slices
 * (splitk_slice, whole float4s). */
constexpr int DOT_LX = 32, DOT_RY = 8, DOT_KC = 512;
template <int SMAX>
__host__ __device__ constexpr size_t sgemm_dot_smem() {
  return (size_t)SMAX * DOT_KC * sizeof(float); /* >= DOT_RY * SMAX * DOT_LX for the sums */
}

template <int SMAX>
__device__ __forceinline__ void sgemm_dot_body(int ta, int tb, idx_t m, idx_t n, idx_t k,
                                               float alpha, const float *__restrict__ a, idx_t lda,
                                               const float *__restrict__ b, idx_t ldb, float beta,
                                               float *__restrict__ c, idx_t ldc, float *smem) {
  /* thin columns where A is read along its rows, else thin rows (B^T) */
  const strip_view w = strip_of(!(!ta && n <= SMAX), ta, tb, m, n, a, lda, b, ldb, ldc);
  const idx_t S = w.S, L = w.L, ldv = w.ldv, us = w.us, up = w.up, cs = w.cs, cl = w.cl;
  const float *__restrict__ v = w.v;
  const float *__restrict__ u = w.u;
  const k_range ks = splitk_slice(k, 4, m, ldc, c, alpha, beta);
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * DOT_LX + tx;
  const idx_t l = (idx_t)blockIdx.x * DOT_RY + ty;
  const bool live = l < L;
  const float *__restrict__ row = v + (live ? l : 0) * ldv;
  const bool vec = ((ldv & 3) | ((uintptr_t)v & 15)) == 0; /* slices start on whole float4s */
  float acc[SMAX];
#pragma unroll
  for (int s = 0; s < SMAX; s++) acc[s] = 0.0f;
  for (idx_t p0 = ks.beg; p0 < ks.end; p0 += DOT_KC) {
    const int kl = (int)min((idx_t)DOT_KC, ks.end - p0);
    /* u's chunk, zero past S and k */
    const float *__restrict__ uc = u + p0 * up;
#pragma unroll 1
    for (int s = 0; s < SMAX; s++)
      for (int q = tid; q < DOT_KC; q += DOT_LX * DOT_RY)
        smem[s * DOT_KC + q] = s < S && q < kl ? uc[s * us + q * up] : 0.0f;
    __syncthreads();
    if (live) {
      float4 x[DOT_KC / (4 * DOT_LX)];
#pragma unroll
      for (int j = 0; j < DOT_KC / (4 * DOT_LX); j++) {
        const int q = 4 * tx + j * 4 * DOT_LX;
        const float *src = row + p0 + q;
        if (vec && q + 4 <= kl) {
          x[j] = *reinterpret_cast<const float4 *>(src);
        } else {
          x[j].x = q < kl ? src[0] : 0.0f;
          x[j].y = q + 1 < kl ? src[1] : 0.0f;
          x[j].z = q + 2 < kl ? src[2] : 0.0f;
          x[j].w = q + 3 < kl ? src[3] : 0.0f;
        }
      }
#pragma unroll
      for (int j = 0; j < DOT_KC / (4 * DOT_LX); j++) {
        const int q = 4 * tx + j * 4 * DOT_LX;
#pragma unroll
        for (int s = 0; s < SMAX; s++) {
          const float4 w = *reinterpret_cast<const float4 *>(smem + s * DOT_KC + q);
          acc[s] =
              fmaf(x[j].x, w.x, fmaf(x[j].y, w.y, fmaf(x[j].z, w.z, fmaf(x[j].w, w.w, acc[s]))));
        }
      }
    }
    __syncthreads(); /* the next chunk overwrites u's */
  }
  /* The DOT_LX lanes' partial sums of each output, added in lane order. */
#pragma unroll
  for (int s = 0; s < SMAX; s++) smem[(ty * SMAX + s) * DOT_LX + tx] = acc[s];
  __syncthreads();
  if (live && tx < S) {
    float sum = 0.0f;
    for (int i = 0; i < DOT_LX; i++) sum += smem[(ty * SMAX + tx) * DOT_LX + i];
    store_c(c, tx * cs + l * cl, alpha, sum, beta);
  }
}

template <int S>
struct skinny_dot_cfg {
  static constexpr int SMAX = TUN(S, GEMM_SKINNY_S);
  static constexpr unsigned bx = DOT_LX, by = DOT_RY;
  static constexpr size_t smem = sgemm_dot_smem<SMAX>();
};
template <int S>
__global__ void __launch_bounds__(DOT_LX *DOT_RY)
    duet_sgemm_skinny_dot(int ta, int tb, idx_t m, idx_t n, idx_t k, float alpha,
                          const float *__restrict__ a, idx_t a_off, idx_t lda,
                          const float *__restrict__ b, idx_t b_off, idx_t ldb, float beta,
                          float *__restrict__ c, idx_t c_off, idx_t ldc, idx_t, idx_t) {
  using C = skinny_dot_cfg<S>;
  extern __shared__ float smem[];
  sgemm_dot_body<C::SMAX>(ta, tb, m, n, k, alpha, a + a_off, lda, b + b_off, ldb, beta, c + c_off,
                          ldc, smem);
}

extern "C" const duet__cu_kernel DUET__CU_TABLE(GEMM_SKINNY)[] = {
    DUET_CU_KERNEL(duet_sgemm_skinny, skinny_cfg)
    DUET_CU_KERNEL(duet_sgemm_skinny_dot, skinny_dot_cfg)
    DUET_CU_END};
