/* SPDX-License-Identifier: MIT */
/* A 1D stencil: out[i] = sum over j = -r..r of w[j + r] * in[i + j], with in[]
 * read as 0 outside [0, n). Every variant adds the terms in the order j = -r..r with fma, so all
 * of them give the same bits (and a CPU loop of fmaf gives them too).
 *   naive     one output per work-item, 2r + 1 loads from global memory
 *   shared    the textbook version: the group's STENCIL_BLOCK inputs and their 2r halo staged
 *             in local memory (zeros outside [0, n), where the textbook's reads out of bounds),
 *             the weights too
 *   register  V consecutive outputs per work-item from a window of inputs in registers, loaded
 *             as float4s: HALO + V + HALO floats around them, with HALO = 4 and V = STENCIL_VEC
 *             (register4, radius <= 4) or HALO = 16 and V = STENCIL_R16_VEC (register16,
 *             radius <= 16), the weights in registers too; a grid-stride loop over a grid sized
 *             by the compute units
 *
 * Tunables (-D options from the manifest, per tuning set in src/duet_tunables.h; fallbacks
 * below are the defaults):
 *   STENCIL_BLOCK   work-items per work-group, >= 64                  (256)
 *   STENCIL_VEC         register4: outputs per work-item, a multiple of 4  (8)
 *   STENCIL_R16_VEC     register16: the same                               (8)
 *   STENCIL_MIN_BLOCKS  register: work-groups per compute unit its registers must allow; the
 *                       backend's -cl-nv-maxrregcount on NVIDIA, unused here; 0 none  (0)
 *   STENCIL_PER_CU, STENCIL_R16_PER_CU  register4, register16: work-groups per compute unit
 *                       (the core's)
 *   STENCIL_AUTO        the variant AUTO takes (the core's)
 * Fixed: the largest radius, 16 (DUET_STENCIL_MAX_RADIUS). Assumes a STENCIL_BLOCK x 1
 * work-group and radius <= the kernel's HALO. */
#ifndef STENCIL_BLOCK
#define STENCIL_BLOCK 256
#endif
#ifndef STENCIL_VEC
#define STENCIL_VEC 8
#endif
#ifndef STENCIL_R16_VEC
#define STENCIL_R16_VEC 8
#endif
#define STENCIL_WIDEST (STENCIL_VEC > STENCIL_R16_VEC ? STENCIL_VEC : STENCIL_R16_VEC)
#define STENCIL_MAX_RADIUS 16

#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_stencil_naive)
__kernel BLOCK(STENCIL_BLOCK, 1) void duet_stencil_naive(idx_t n, int r,
                                                         __global const float *restrict w,
                                                         __global const float *restrict in,
                                                         __global float *restrict out) {
  const idx_t i = (idx_t)get_group_id(0) * STENCIL_BLOCK + get_local_id(0);
  if (i >= n) return;
  float acc = 0.0f;
  for (int j = -r; j <= r; j++) {
    const idx_t p = i + j;
    acc = fma(w[j + r], p >= 0 && p < n ? in[p] : 0.0f, acc);
  }
  out[i] = acc;
}
#endif

#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_stencil_shared)
__kernel BLOCK(STENCIL_BLOCK, 1) void duet_stencil_shared(idx_t n, int r,
                                                          __global const float *restrict w,
                                                          __global const float *restrict in,
                                                          __global float *restrict out) {
  __local float tile[STENCIL_BLOCK + 2 * STENCIL_MAX_RADIUS];
  __local float ws[2 * STENCIL_MAX_RADIUS + 1];
  const int tid = get_local_id(0);
  const idx_t start = (idx_t)get_group_id(0) * STENCIL_BLOCK;
  for (int t = tid; t < STENCIL_BLOCK + 2 * r; t += STENCIL_BLOCK) {
    const idx_t p = start - r + t;
    tile[t] = p >= 0 && p < n ? in[p] : 0.0f;
  }
  if (tid <= 2 * r) ws[tid] = w[tid];
  barrier(CLK_LOCAL_MEM_FENCE);
  const idx_t i = start + tid;
  if (i >= n) return;
  float acc = 0.0f;
  for (int j = 0; j <= 2 * r; j++) acc = fma(ws[j], tile[tid + j], acc);
  out[i] = acc;
}
#endif

/* Four inputs from p on, zeros outside [0, n); p is a multiple of 4. Loaded through a float4
 * pointer, not vload4, which may assume only 4-byte alignment and which NVIDIA's compiler makes
 * four scalar loads (in starts on 16 bytes, as every buffer does). */
inline float4 load4_or_zero(__global const float *restrict in, idx_t n, idx_t p) {
  if (p >= 0 && p + 4 <= n) return *(__global const float4 *)(in + p);
  return (float4)(p >= 0 && p < n ? in[p] : 0.0f, p + 1 >= 0 && p + 1 < n ? in[p + 1] : 0.0f,
                  p + 2 >= 0 && p + 2 < n ? in[p + 2] : 0.0f,
                  p + 3 >= 0 && p + 3 < n ? in[p + 3] : 0.0f);
}

/* The register window: every loop runs to a bound known at compile time, so that every index
 * into win, wz and acc is a constant and they stay in registers; `halo` and `vec` are constants
 * in both kernels, so their tests fold away once this is inlined, and the radius only decides
 * which of the unrolled terms run (all work-items alike). */
inline void stencil_window(const int halo, const int vec, idx_t n, int r,
                           __global const float *restrict w, __global const float *restrict in,
                           __global float *restrict out) {
  float wz[2 * STENCIL_MAX_RADIUS + 1];
#pragma unroll
  for (int j = 0; j <= 2 * STENCIL_MAX_RADIUS; j++)
    wz[j] = j <= 2 * halo && j >= halo - r && j <= halo + r ? w[j - halo + r] : 0.0f;
  const idx_t chunks = (n + vec - 1) / vec;
  const idx_t stride = (idx_t)get_num_groups(0) * STENCIL_BLOCK;
  for (idx_t c = (idx_t)get_group_id(0) * STENCIL_BLOCK + get_local_id(0); c < chunks;
       c += stride) {
    const idx_t i0 = c * vec;
    float win[STENCIL_WIDEST + 2 * STENCIL_MAX_RADIUS];
#pragma unroll
    for (int q = 0; q < (STENCIL_WIDEST + 2 * STENCIL_MAX_RADIUS) / 4; q++) {
      const float4 v =
          q < (vec + 2 * halo) / 4 ? load4_or_zero(in, n, i0 - halo + 4 * q) : (float4)(0.0f);
      win[4 * q] = v.x;
      win[4 * q + 1] = v.y;
      win[4 * q + 2] = v.z;
      win[4 * q + 3] = v.w;
    }
    float acc[STENCIL_WIDEST];
#pragma unroll
    for (int k = 0; k < STENCIL_WIDEST; k++) acc[k] = 0.0f;
#pragma unroll
    for (int j = 0; j <= 2 * STENCIL_MAX_RADIUS; j++)
      if (j <= 2 * halo && j >= halo - r && j <= halo + r) {
#pragma unroll
        for (int k = 0; k < STENCIL_WIDEST; k++)
          if (k < vec) acc[k] = fma(wz[j], win[j + k], acc[k]);
      }
    if (i0 + vec <= n) {
#pragma unroll
      for (int k = 0; k < STENCIL_WIDEST; k += 4)
        if (k < vec)
          *(__global float4 *)(out + i0 + k) = (float4)(acc[k], acc[k + 1], acc[k + 2], acc[k + 3]);
    } else {
#pragma unroll
      for (int k = 0; k < STENCIL_WIDEST; k++)
        if (k < vec && i0 + k < n) out[i0 + k] = acc[k];
    }
  }
}

#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_stencil_register4)
__kernel BLOCK(STENCIL_BLOCK, 1) void duet_stencil_register4(idx_t n, int r,
                                                             __global const float *restrict w,
                                                             __global const float *restrict in,
                                                             __global float *restrict out) {
  stencil_window(4, STENCIL_VEC, n, r, w, in, out);
}
#endif

#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_stencil_register16)
__kernel BLOCK(STENCIL_BLOCK, 1) void duet_stencil_register16(idx_t n, int r,
                                                              __global const float *restrict w,
                                                              __global const float *restrict in,
                                                              __global float *restrict out) {
  stencil_window(STENCIL_MAX_RADIUS, STENCIL_R16_VEC, n, r, w, in, out);
}
#endif
