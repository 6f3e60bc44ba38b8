/* SPDX-License-Identifier: MIT */
/* A 1D stencil: out[i] = sum over j = -r..r of w[j + r] * in[i + j], with in[]
 * read as 0 outside [0, n). Every variant adds the terms in the order j = -r..r with fma, so all
 * of them give the same bits (and a CPU loop of fmaf gives them too).
 *   naive     one output per work-item, 2r + 1 loads from global memory
 *   shared    the textbook version: the group's STENCIL_BLOCK inputs and their 2r halo staged
 *             in local memory (zeros outside [0, n), where the textbook's reads out of bounds),
 *             the weights too
 *   register  V consecutive outputs per work-item from a window of inputs in registers, the
 *             weights in registers too, over a grid-stride loop on a grid sized by the compute
 *             units. register4 (radius <= 4, V = STENCIL_VEC) loads its window of 4 + V + 4
 *             floats as float4s from global memory. register16 (radius <= 16, V =
 *             STENCIL_R16_VEC) stages each work-group's tile of STENCIL_R16_BLOCK * V outputs and
 *             its 2 * 16 halo in local memory first: a window of 16 + V + 16 floats is too wide
 *             to load from global memory V floats apart per work-item, where every float4 load
 *             costs the L1 twice or more the wavefronts of a dense one. The tile is laid out by
 *             residue mod V (tile word x at (x % V) * ROW + x / V, ROW = group + 32 / V), so a
 *             window's word j is one row for the whole warp (work-item t reads (j % V) * ROW + t
 *             + j / V: no bank conflicts), and the staging stores are conflict-free too. The
 *             next tile's float4s are loaded into registers while this tile's sums run.
 *
 * Tunables (-D options from the manifest, per tuning set in src/duet_tunables.h; fallbacks
 * below are the defaults):
 *   STENCIL_BLOCK   work-items per work-group of naive, shared, register4, >= 64  (256)
 *   STENCIL_VEC         register4: outputs per work-item, a multiple of 4  (8)
 *   STENCIL_R16_BLOCK   register16: work-items per work-group, a multiple of 32  (128)
 *   STENCIL_R16_VEC     register16: outputs per work-item, 4, 8, 16 or 32  (8)
 *   STENCIL_MIN_BLOCKS  register4: work-groups per compute unit its registers must allow; the
 *                       backend's -cl-nv-maxrregcount on NVIDIA, unused here; 0 none  (0)
 *   STENCIL_PER_CU, STENCIL_R16_PER_CU  register4, register16: work-groups per compute unit
 *                       (the core's)
 *   STENCIL_AUTO        the variant AUTO takes (the core's)
 * Fixed: the largest radius, 16 (DUET_STENCIL_MAX_RADIUS). Assumes a work-group of the
 * kernel's block x 1 and radius <= the kernel's halo. */
#ifndef STENCIL_BLOCK
#define STENCIL_BLOCK 256
#endif
#ifndef STENCIL_VEC
#define STENCIL_VEC 8
#endif
#ifndef STENCIL_R16_BLOCK
#define STENCIL_R16_BLOCK 128
#endif
#ifndef STENCIL_R16_VEC
#define STENCIL_R16_VEC 8
#endif
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

/* The register window of register4: every loop runs to a bound known at compile time, so that
 * every index into win, wz and acc is a constant and they stay in registers; the radius only
 * decides which of the unrolled terms run (all work-items alike). register16 writes the same
 * weights, sums and stores out again: a helper taking the private arrays by pointer, tried for
 * both, put register16's window in local memory (clang 15's NVPTX build of this file: 315 local
 * accesses, none written out), and the CUDA twin stays written out alike, to diff line by line. */
#define HALO4 4
inline void stencil_window4(idx_t n, int r, __global const float *restrict w,
                            __global const float *restrict in, __global float *restrict out) {
  float wz[2 * HALO4 + 1];
#pragma unroll
  for (int j = 0; j <= 2 * HALO4; j++)
    wz[j] = j >= HALO4 - r && j <= HALO4 + r ? w[j - HALO4 + r] : 0.0f;
  const idx_t chunks = (n + STENCIL_VEC - 1) / STENCIL_VEC;
  const idx_t stride = (idx_t)get_num_groups(0) * STENCIL_BLOCK;
  for (idx_t c = (idx_t)get_group_id(0) * STENCIL_BLOCK + get_local_id(0); c < chunks;
       c += stride) {
    const idx_t i0 = c * STENCIL_VEC;
    float win[STENCIL_VEC + 2 * HALO4];
#pragma unroll
    for (int q = 0; q < (STENCIL_VEC + 2 * HALO4) / 4; q++) {
      const float4 v = load4_or_zero(in, n, i0 - HALO4 + 4 * q);
      win[4 * q] = v.x;
      win[4 * q + 1] = v.y;
      win[4 * q + 2] = v.z;
      win[4 * q + 3] = v.w;
    }
    float acc[STENCIL_VEC];
#pragma unroll
    for (int k = 0; k < STENCIL_VEC; k++) acc[k] = 0.0f;
#pragma unroll
    for (int j = 0; j <= 2 * HALO4; j++)
      if (j >= HALO4 - r && j <= HALO4 + r) {
#pragma unroll
        for (int k = 0; k < STENCIL_VEC; k++) acc[k] = fma(wz[j], win[j + k], acc[k]);
      }
    if (i0 + STENCIL_VEC <= n) {
#pragma unroll
      for (int k = 0; k < STENCIL_VEC; k += 4)
        *(__global float4 *)(out + i0 + k) = (float4)(acc[k], acc[k + 1], acc[k + 2], acc[k + 3]);
    } else {
#pragma unroll
      for (int k = 0; k < STENCIL_VEC; k++)
        if (i0 + k < n) out[i0 + k] = acc[k];
    }
  }
}

#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_stencil_register4)
__kernel BLOCK(STENCIL_BLOCK, 1) void duet_stencil_register4(idx_t n, int r,
                                                             __global const float *restrict w,
                                                             __global const float *restrict in,
                                                             __global float *restrict out) {
  stencil_window4(n, r, w, in, out);
}
#endif

/* register16's tile: R16_T_OUT outputs and their halo (R16_T_IN floats), laid out by residue
 * mod STENCIL_R16_VEC in rows of R16_ROW; R16_NQ float4s a work-item to stage it. */
#define R16_H STENCIL_MAX_RADIUS
#define R16_V STENCIL_R16_VEC
#define R16_B STENCIL_R16_BLOCK
#define R16_T_OUT (R16_B * R16_V)
#define R16_T_IN (R16_T_OUT + 2 * R16_H)
#define R16_ROW (R16_B + 32 / R16_V)
#define R16_NQ ((R16_T_IN / 4 + R16_B - 1) / R16_B)

/* Four inputs of a tile from in + base + p on (p a multiple of 4), where [lo, hi) are the
 * tile's offsets inside [0, n) and the others read as 0. 32-bit offsets: 64-bit arithmetic per
 * load cost the radius-16 window 4% (docs/results/h200.md). */
inline float4 tile_load4(__global const float *restrict in, idx_t base, int lo, int hi, int p) {
  if (p >= lo && p + 4 <= hi) return *(__global const float4 *)(in + base + p);
  return (float4)(p >= lo && p < hi ? in[base + p] : 0.0f,
                  p + 1 >= lo && p + 1 < hi ? in[base + p + 1] : 0.0f,
                  p + 2 >= lo && p + 2 < hi ? in[base + p + 2] : 0.0f,
                  p + 3 >= lo && p + 3 < hi ? in[base + p + 3] : 0.0f);
}

/* Tile tl's inputs (its outputs and their halo) into this work-item's q[], zeros past the
 * grid. */
inline void tile_fetch(float4 *q, __global const float *restrict in, idx_t n, idx_t tl, idx_t tiles,
                       int t) {
  const idx_t base = tl * R16_T_OUT - R16_H;
  const int lo = base < 0 ? (int)-base : 0, hi = n - base < R16_T_IN ? (int)(n - base) : R16_T_IN;
#pragma unroll
  for (int i = 0; i < R16_NQ; i++) {
    const int x4 = t + i * R16_B;
    q[i] = x4 < R16_T_IN / 4 && tl < tiles ? tile_load4(in, base, lo, hi, 4 * x4) : (float4)(0.0f);
  }
}

#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_stencil_register16)
__kernel BLOCK(R16_B, 1) void duet_stencil_register16(idx_t n, int r,
                                                      __global const float *restrict w,
                                                      __global const float *restrict in,
                                                      __global float *restrict out) {
  __local float tile[R16_V * R16_ROW];
  const int t = get_local_id(0);
  float wz[2 * R16_H + 1];
#pragma unroll
  for (int j = 0; j <= 2 * R16_H; j++)
    wz[j] = j >= R16_H - r && j <= R16_H + r ? w[j - R16_H + r] : 0.0f;
  const idx_t tiles = (n + R16_T_OUT - 1) / R16_T_OUT;
  float4 q[R16_NQ];
  idx_t tl = get_group_id(0);
  tile_fetch(q, in, n, tl, tiles, t);
  for (; tl < tiles; tl += get_num_groups(0)) {
    barrier(CLK_LOCAL_MEM_FENCE); /* every window of the previous tile is read */
#pragma unroll
    for (int i = 0; i < R16_NQ; i++) {
      const int x = 4 * (t + i * R16_B);
      if (x < R16_T_IN) {
        __local float *d = tile + (x % R16_V) * R16_ROW + x / R16_V;
        d[0] = q[i].x;
        d[R16_ROW] = q[i].y;
        d[2 * R16_ROW] = q[i].z;
        d[3 * R16_ROW] = q[i].w;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    tile_fetch(q, in, n, tl + get_num_groups(0), tiles, t);
    float win[R16_V + 2 * R16_H];
#pragma unroll
    for (int j = 0; j < R16_V + 2 * R16_H; j++)
      win[j] = tile[(j % R16_V) * R16_ROW + t + j / R16_V];
    float acc[R16_V];
#pragma unroll
    for (int k = 0; k < R16_V; k++) acc[k] = 0.0f;
#pragma unroll
    for (int j = 0; j <= 2 * R16_H; j++)
      if (j >= R16_H - r && j <= R16_H + r) {
#pragma unroll
        for (int k = 0; k < R16_V; k++) acc[k] = fma(wz[j], win[j + k], acc[k]);
      }
    const idx_t i0 = tl * R16_T_OUT + (idx_t)t * R16_V;
    if (i0 + R16_V <= n) {
#pragma unroll
      for (int k = 0; k < R16_V; k += 4)
        *(__global float4 *)(out + i0 + k) = (float4)(acc[k], acc[k + 1], acc[k + 2], acc[k + 3]);
    } else {
#pragma unroll
      for (int k = 0; k < R16_V; k++)
        if (i0 + k < n) out[i0 + k] = acc[k];
    }
  }
}
#endif
