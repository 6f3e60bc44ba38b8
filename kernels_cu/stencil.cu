/* SPDX-License-Identifier: MIT */
/* A 1D stencil: out[i] = sum over j = -r..r of w[j + r] * in[i + j], with in[]
 * read as 0 outside [0, n). Every variant adds the terms in the order j = -r..r with fmaf, so all
 * of them give the same bits (and a CPU loop of fmaf gives them too).
 *   naive     one output per thread, 2r + 1 loads from global memory
 *   shared    the textbook version: the block's STENCIL_BLOCK inputs and their 2r halo staged
 *             in shared memory (zeros outside [0, n), where the textbook's reads out of bounds),
 *             the weights too
 *   register  V consecutive outputs per thread from a window of inputs in registers, loaded as
 *             float4s: HALO + V + HALO floats around them, with HALO = 4 and V = STENCIL_VEC
 *             (register4, radius <= 4) or HALO = 16 and V = STENCIL_R16_VEC (register16,
 *             radius <= 16), the weights in registers too; a grid-stride loop over a grid sized
 *             by the compute units
 *
 * Tunables (values per tuning set in src/duet_tunables.h; one instantiation per set):
 *   STENCIL_BLOCK   threads per block, >= 64                          (default 256)
 *   STENCIL_VEC         register4: outputs per thread, a multiple of 4  (default 8)
 *   STENCIL_R16_VEC     register16: the same                            (default 8)
 *   STENCIL_MIN_BLOCKS  OpenCL only (NVIDIA's -cl-nv-maxrregcount): nvcc gets
 *                       __launch_bounds__(STENCIL_BLOCK) alone, since any minimum there, 1
 *                       included, made nvcc spend more registers on the radius-16 window and
 *                       cost it 0.92 -> 0.72-0.76 of the copy on the H100 (tenth session)
 *   STENCIL_PER_CU, STENCIL_R16_PER_CU  register4, register16: blocks per compute unit (the
 *                       core's)
 *   STENCIL_AUTO        the variant AUTO takes (the core's)
 * Fixed: the largest radius, 16 (DUET_STENCIL_MAX_RADIUS). Assumes a STENCIL_BLOCK x 1 block,
 * radius <= the kernel's HALO, and buffers that start on 16 bytes. */
#include "common.cuh"

#define STENCIL_MAX_RADIUS 16

template <int S>
struct stencil_cfg {
  static constexpr int B = TUN(S, STENCIL_BLOCK), V4 = TUN(S, STENCIL_VEC),
                       V16 = TUN(S, STENCIL_R16_VEC);
  static constexpr unsigned bx = B, by = 1;
  static constexpr size_t smem = 0;
  static_assert(B >= 2 * STENCIL_MAX_RADIUS + 1, "STENCIL_BLOCK: a thread per weight");
  static_assert(V4 % 4 == 0 && V16 % 4 == 0, "STENCIL_VEC, STENCIL_R16_VEC: multiples of 4");
};

template <int S>
__global__ void __launch_bounds__(stencil_cfg<S>::B)
    duet_stencil_naive(idx_t n, int r, const float *__restrict__ w, const float *__restrict__ in,
                       float *__restrict__ out) {
  const idx_t i = (idx_t)blockIdx.x * stencil_cfg<S>::B + threadIdx.x;
  if (i >= n) return;
  float acc = 0.0f;
  for (int j = -r; j <= r; j++) {
    const idx_t p = i + j;
    acc = fmaf(w[j + r], p >= 0 && p < n ? in[p] : 0.0f, acc);
  }
  out[i] = acc;
}

template <int S>
__global__ void __launch_bounds__(stencil_cfg<S>::B)
    duet_stencil_shared(idx_t n, int r, const float *__restrict__ w, const float *__restrict__ in,
                        float *__restrict__ out) {
  constexpr int B = stencil_cfg<S>::B;
  __shared__ float tile[B + 2 * STENCIL_MAX_RADIUS];
  __shared__ float ws[2 * STENCIL_MAX_RADIUS + 1];
  const int tid = threadIdx.x;
  const idx_t start = (idx_t)blockIdx.x * B;
  for (int t = tid; t < B + 2 * r; t += B) {
    const idx_t p = start - r + t;
    tile[t] = p >= 0 && p < n ? in[p] : 0.0f;
  }
  if (tid <= 2 * r) ws[tid] = w[tid];
  __syncthreads();
  const idx_t i = start + tid;
  if (i >= n) return;
  float acc = 0.0f;
  for (int j = 0; j <= 2 * r; j++) acc = fmaf(ws[j], tile[tid + j], acc);
  out[i] = acc;
}

/* Four inputs from p on, zeros outside [0, n); p is a multiple of 4. */
__device__ __forceinline__ float4 load4_or_zero(const float *__restrict__ in, idx_t n, idx_t p) {
  if (p >= 0 && p + 4 <= n) return *(const float4 *)(in + p);
  float4 v;
  v.x = p >= 0 && p < n ? in[p] : 0.0f;
  v.y = p + 1 >= 0 && p + 1 < n ? in[p + 1] : 0.0f;
  v.z = p + 2 >= 0 && p + 2 < n ? in[p + 2] : 0.0f;
  v.w = p + 3 >= 0 && p + 3 < n ? in[p + 3] : 0.0f;
  return v;
}

/* The register window: every index into win, wz and acc is known at compile time, so they stay
 * in registers; the radius only decides which of the unrolled terms run (all threads alike). */
template <int S, int HALO, int V>
__device__ __forceinline__ void stencil_window(idx_t n, int r, const float *__restrict__ w,
                                               const float *__restrict__ in,
                                               float *__restrict__ out) {
  constexpr int B = stencil_cfg<S>::B, W = V + 2 * HALO;
  static_assert(HALO % 4 == 0, "the window's float4s start on multiples of 4");
  float wz[2 * HALO + 1];
#pragma unroll
  for (int j = 0; j <= 2 * HALO; j++)
    wz[j] = j >= HALO - r && j <= HALO + r ? w[j - HALO + r] : 0.0f;
  const idx_t chunks = (n + V - 1) / V, stride = (idx_t)gridDim.x * B;
  for (idx_t c = (idx_t)blockIdx.x * B + threadIdx.x; c < chunks; c += stride) {
    const idx_t i0 = c * V;
    float win[W];
#pragma unroll
    for (int q = 0; q < W / 4; q++) {
      const float4 v = load4_or_zero(in, n, i0 - HALO + 4 * q);
      win[4 * q] = v.x;
      win[4 * q + 1] = v.y;
      win[4 * q + 2] = v.z;
      win[4 * q + 3] = v.w;
    }
    float acc[V];
#pragma unroll
    for (int k = 0; k < V; k++) acc[k] = 0.0f;
#pragma unroll
    for (int j = 0; j <= 2 * HALO; j++)
      if (j >= HALO - r && j <= HALO + r) {
#pragma unroll
        for (int k = 0; k < V; k++) acc[k] = fmaf(wz[j], win[j + k], acc[k]);
      }
    if (i0 + V <= n) {
#pragma unroll
      for (int k = 0; k < V; k += 4)
        *(float4 *)(out + i0 + k) = make_float4(acc[k], acc[k + 1], acc[k + 2], acc[k + 3]);
    } else {
#pragma unroll
      for (int k = 0; k < V; k++)
        if (i0 + k < n) out[i0 + k] = acc[k];
    }
  }
}

template <int S>
__global__ void __launch_bounds__(stencil_cfg<S>::B)
    duet_stencil_register4(idx_t n, int r, const float *__restrict__ w,
                           const float *__restrict__ in, float *__restrict__ out) {
  stencil_window<S, 4, stencil_cfg<S>::V4>(n, r, w, in, out);
}

template <int S>
__global__ void __launch_bounds__(stencil_cfg<S>::B)
    duet_stencil_register16(idx_t n, int r, const float *__restrict__ w,
                            const float *__restrict__ in, float *__restrict__ out) {
  stencil_window<S, STENCIL_MAX_RADIUS, stencil_cfg<S>::V16>(n, r, w, in, out);
}

/* One row per kernel: each expands to rows that end in commas clang-format cannot see. */
// clang-format off
extern "C" const duet__cu_kernel DUET__CU_TABLE(STENCIL)[] = {
    DUET_CU_KERNEL(duet_stencil_naive, stencil_cfg)
    DUET_CU_KERNEL(duet_stencil_shared, stencil_cfg)
    DUET_CU_KERNEL(duet_stencil_register4, stencil_cfg)
    DUET_CU_KERNEL(duet_stencil_register16, stencil_cfg)
    DUET_CU_END};
// clang-format on
