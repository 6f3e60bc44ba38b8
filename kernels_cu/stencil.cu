/* SPDX-License-Identifier: MIT */
/* A 1D stencil: out[i] = sum over j = -r..r of w[j + r] * in[i + j], with in[]
 * read as 0 outside [0, n). Every variant adds the terms in the order j = -r..r with fmaf, so all
 * of them give the same bits (and a CPU loop of fmaf gives them too).
 *   naive     one output per thread, 2r + 1 loads from global memory
 *   shared    the textbook version: the block's STENCIL_BLOCK inputs and their 2r halo staged
 *             in shared memory (zeros outside [0, n), where the textbook's reads out of bounds),
 *             the weights too
 *   register  V consecutive outputs per thread from a window of inputs in registers, the
 *             weights in registers too, over a grid-stride loop on a grid sized by the compute
 *             units. register4 (radius <= 4, V = STENCIL_VEC) loads its window of 4 + V + 4
 *             floats as float4s from global memory. register16 (radius <= 16, V =
 *             STENCIL_R16_VEC) stages each block's tile of STENCIL_R16_BLOCK * V outputs and its
 *             2 * 16 halo in shared memory first: a window of 16 + V + 16 floats is too wide to
 *             load from global memory V floats apart per thread, where every float4 load costs
 *             the L1 twice or more the wavefronts of a dense one. The tile is laid out by
 *             residue mod V (tile word x at (x % V) * ROW + x / V, ROW = block + 32 / V), so a
 *             window's word j is one row for the whole warp (thread t reads (j % V) * ROW + t + j
 *             / V: no bank conflicts), and the staging stores are conflict-free too. The next
 *             tile's float4s are loaded into registers while this tile's sums run.
 *
 * Tunables (values per tuning set in src/duet_tunables.h; one instantiation per set):
 *   STENCIL_BLOCK   threads per block of naive, shared, register4, >= 64  (default 256)
 *   STENCIL_VEC         register4: outputs per thread, a multiple of 4  (default 8)
 *   STENCIL_R16_BLOCK   register16: threads per block, a multiple of 32 (default 128)
 *   STENCIL_R16_VEC     register16: outputs per thread, 4, 8, 16 or 32  (default 8)
 *   STENCIL_MIN_BLOCKS  OpenCL only (NVIDIA's -cl-nv-maxrregcount, register4): nvcc gets
 *                       __launch_bounds__(block) alone, since any minimum there, 1 included,
 *                       made nvcc spend more registers (docs/results/tuning-notes.md)
 *   STENCIL_PER_CU, STENCIL_R16_PER_CU  register4, register16: blocks per compute unit (the
 *                       core's)
 *   STENCIL_AUTO        the variant AUTO takes (the core's)
 * Fixed: the largest radius, 16 (DUET_STENCIL_MAX_RADIUS). Assumes a block x 1 block, radius <=
 * the kernel's halo, and buffers that start on 16 bytes. */
#include "common.cuh"

#define STENCIL_MAX_RADIUS 16

template <int S>
struct stencil_cfg {
  static constexpr int B = TUN(S, STENCIL_BLOCK), V4 = TUN(S, STENCIL_VEC);
  static constexpr unsigned bx = B, by = 1;
  static constexpr size_t smem = 0;
  static_assert(B >= 2 * STENCIL_MAX_RADIUS + 1, "STENCIL_BLOCK: a thread per weight");
  static_assert(V4 % 4 == 0, "STENCIL_VEC: a multiple of 4");
};

template <int S>
struct stencil16_cfg {
  static constexpr int B = TUN(S, STENCIL_R16_BLOCK), V = TUN(S, STENCIL_R16_VEC),
                       H = STENCIL_MAX_RADIUS, T_OUT = B * V, T_IN = T_OUT + 2 * H,
                       ROW = B + 32 / V, NQ = (T_IN / 4 + B - 1) / B;
  static constexpr unsigned bx = B, by = 1;
  static constexpr size_t smem = 0;
  static_assert(V % 4 == 0 && 32 % V == 0, "STENCIL_R16_VEC: 4, 8, 16 or 32");
  static_assert(B % 32 == 0, "STENCIL_R16_BLOCK: a multiple of 32");
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
 * in registers; the radius only decides which of the unrolled terms run (all threads alike).
 * register16 writes the same weights, sums and stores out again, as the OpenCL twin must (see
 * there), so that the two files diff line by line. */
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

/* Four inputs of a tile from in + base + p on (p a multiple of 4), where [lo, hi) are the
 * tile's offsets inside [0, n) and the others read as 0. 32-bit offsets: 64-bit arithmetic per
 * load cost the radius-16 window 4% (docs/results/h200.md). */
__device__ __forceinline__ float4 tile_load4(const float *__restrict__ in, idx_t base, int lo,
                                             int hi, int p) {
  if (p >= lo && p + 4 <= hi) return *(const float4 *)(in + base + p);
  float4 v;
  v.x = p >= lo && p < hi ? in[base + p] : 0.0f;
  v.y = p + 1 >= lo && p + 1 < hi ? in[base + p + 1] : 0.0f;
  v.z = p + 2 >= lo && p + 2 < hi ? in[base + p + 2] : 0.0f;
  v.w = p + 3 >= lo && p + 3 < hi ? in[base + p + 3] : 0.0f;
  return v;
}

/* Tile tl's inputs (its outputs and their halo) into this thread's q[], zeros past the grid. */
template <class C>
__device__ __forceinline__ void tile_fetch(float4 *q, const float *__restrict__ in, idx_t n,
                                           idx_t tl, idx_t tiles, int t) {
  const idx_t base = tl * C::T_OUT - C::H;
  const int lo = base < 0 ? (int)-base : 0, hi = n - base < C::T_IN ? (int)(n - base) : C::T_IN;
#pragma unroll
  for (int i = 0; i < C::NQ; i++) {
    const int x4 = t + i * C::B;
    q[i] = x4 < C::T_IN / 4 && tl < tiles ? tile_load4(in, base, lo, hi, 4 * x4)
                                          : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  }
}

template <int S>
__global__ void __launch_bounds__(stencil16_cfg<S>::B)
    duet_stencil_register16(idx_t n, int r, const float *__restrict__ w,
                            const float *__restrict__ in, float *__restrict__ out) {
  using C = stencil16_cfg<S>;
  constexpr int H = C::H, V = C::V, W = V + 2 * H;
  __shared__ float tile[V * C::ROW];
  const int t = threadIdx.x;
  float wz[2 * H + 1];
#pragma unroll
  for (int j = 0; j <= 2 * H; j++) wz[j] = j >= H - r && j <= H + r ? w[j - H + r] : 0.0f;
  const idx_t tiles = (n + C::T_OUT - 1) / C::T_OUT;
  float4 q[C::NQ];
  idx_t tl = blockIdx.x;
  tile_fetch<C>(q, in, n, tl, tiles, t);
  for (; tl < tiles; tl += gridDim.x) {
    __syncthreads(); /* every window of the previous tile is read */
#pragma unroll
    for (int i = 0; i < C::NQ; i++) {
      const int x = 4 * (t + i * C::B);
      if (x < C::T_IN) {
        float *d = tile + (x % V) * C::ROW + x / V;
        d[0] = q[i].x;
        d[C::ROW] = q[i].y;
        d[2 * C::ROW] = q[i].z;
        d[3 * C::ROW] = q[i].w;
      }
    }
    __syncthreads();
    tile_fetch<C>(q, in, n, tl + gridDim.x, tiles, t);
    float win[W];
#pragma unroll
    for (int j = 0; j < W; j++) win[j] = tile[(j % V) * C::ROW + t + j / V];
    float acc[V];
#pragma unroll
    for (int k = 0; k < V; k++) acc[k] = 0.0f;
#pragma unroll
    for (int j = 0; j <= 2 * H; j++)
      if (j >= H - r && j <= H + r) {
#pragma unroll
        for (int k = 0; k < V; k++) acc[k] = fmaf(wz[j], win[j + k], acc[k]);
      }
    const idx_t i0 = tl * C::T_OUT + (idx_t)t * V;
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

/* One row per kernel: each expands to rows that end in commas clang-format cannot see. */
// clang-format off
extern "C" const duet__cu_kernel DUET__CU_TABLE(STENCIL)[] = {
    DUET_CU_KERNEL(duet_stencil_naive, stencil_cfg)
    DUET_CU_KERNEL(duet_stencil_shared, stencil_cfg)
    DUET_CU_KERNEL(duet_stencil_register4, stencil_cfg)
    DUET_CU_KERNEL(duet_stencil_register16, stencil16_cfg)
    DUET_CU_END};
// clang-format on
