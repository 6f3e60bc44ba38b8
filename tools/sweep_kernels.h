/* SPDX-License-Identifier: MIT */
/* The kernels duet-sweep times (tools/sweep.c), in duet_kernel.h's dialect: one source per
 * routine, each variant a set of -D options, so that one run compares what NVIDIA's OpenCL
 * compiler and NVRTC make of the same choices. They compute what duet's own kernels compute
 * (kernels_cl/ and kernels_cu/), with the choice under test made a macro:
 *   SW_LD4        0: OpenCL's vload4, which may assume only 4-byte alignment; 1: a float4
 *                 pointer, 16-byte aligned (on CUDA both are the float4 pointer)
 *   SW_IDX32      index arithmetic in 32 bits instead of 64
 *   SW_WCONST     stencil: the weights in __constant memory (OpenCL; CUDA ignores it)
 *   SW_HALO, SW_V stencil: the register window's halo and outputs per work-item
 *   SW_MODE       vadd: 0 grid-stride, one float4 per step; 1 one float4 per work-item, no
 *                 loop; 2 grid-stride, two float4s per step; 3 one float per work-item;
 *                 reduce: 0 grid-stride (duet's), 1 each block a contiguous range of the array
 *   SW_U, SW_B    reduce: float4 loads in flight per step, work-items per block; the source
 *                 also holds sweep_reduce_once, both passes in one launch (duet's shuffle_once
 *                 without its epoch: the ticket counts back to 0)
 * (Names with a prefix: CUDA's headers and duet_kernel.h use V, U and B as template
 * parameters.) */
#ifndef DUET_SWEEP_KERNELS_H
#define DUET_SWEEP_KERNELS_H

#define SWEEP_COMMON                                                                       \
  "#include <duet_kernel.h>\n"                                                             \
  "#if SW_IDX32\n"                                                                         \
  "typedef int ix;\n"                                                                      \
  "#else\n"                                                                                \
  "typedef DUET_I64 ix;\n"                                                                 \
  "#endif\n"                                                                               \
  "#define F4(p, i) (((DUET_GLOBAL const float4 *)(p))[i])\n"                              \
  "#define F4W(p, i) (((DUET_GLOBAL float4 *)(p))[i])\n"                                   \
  "#if defined(DUET_OPENCL) && SW_LD4 == 0\n"                                              \
  "#define LOAD4(p, i) vload4((i), (p))\n"                                                 \
  "#define STORE4(v, p, i) vstore4((v), (i), (p))\n"                                       \
  "#else\n"                                                                                \
  "#define LOAD4(p, i) F4(p, i)\n"                                                         \
  "#define STORE4(v, p, i) (F4W(p, i) = (v))\n"                                            \
  "#endif\n"                                                                               \
  "#ifdef DUET_CUDA\n"                                                                     \
  "#define FMA fmaf\n"                                                                     \
  "#else\n"                                                                                \
  "#define FMA fma\n"                                                                      \
  "#endif\n"                                                                               \
  "#define GID ((ix)DUET_BLOCK_IDX(0) * (ix)DUET_BLOCK_DIM(0) + (ix)DUET_THREAD_IDX(0))\n" \
  "#define GSIZE ((ix)DUET_GRID_DIM(0) * (ix)DUET_BLOCK_DIM(0))\n"

/* A work-item's SW_V outputs from i0 on: the sums over its window win, each in the order
 * j = -r..r, then the stores: both stencil sources. */
#define SWEEP_SUMS                                                                    \
  "    float acc[SW_V];\n"                                                            \
  "#pragma unroll\n"                                                                  \
  "    for (int k = 0; k < SW_V; k++) acc[k] = 0.0f;\n"                               \
  "#pragma unroll\n"                                                                  \
  "    for (int j = 0; j <= 2 * SW_HALO; j++)\n"                                      \
  "      if (j >= SW_HALO - r && j <= SW_HALO + r) {\n"                               \
  "#pragma unroll\n"                                                                  \
  "        for (int k = 0; k < SW_V; k++) acc[k] = FMA(wz[j], win[j + k], acc[k]);\n" \
  "      }\n"                                                                         \
  "    if (i0 + SW_V <= n) {\n"                                                       \
  "#pragma unroll\n"                                                                  \
  "      for (int k = 0; k < SW_V; k += 4) {\n"                                       \
  "        float4 o;\n"                                                               \
  "        o.x = acc[k]; o.y = acc[k + 1]; o.z = acc[k + 2]; o.w = acc[k + 3];\n"     \
  "        STORE4(o, out, (i0 + k) / 4);\n"                                           \
  "      }\n"                                                                         \
  "    } else {\n"                                                                    \
  "#pragma unroll\n"                                                                  \
  "      for (int k = 0; k < SW_V; k++)\n"                                            \
  "        if (i0 + k < n) out[i0 + k] = acc[k];\n"                                   \
  "    }\n"

/* Four inputs from p on (a multiple of 4), zeros outside [0, n): both stencil sources. */
#define SWEEP_LD4Z                                                                        \
  "DUET_DEVICE_FN float4 ld4z(DUET_GLOBAL const float *DUET_RESTRICT in, ix n, ix p) {\n" \
  "  if (p >= 0 && p + 4 <= n) return LOAD4(in, p / 4);\n"                                \
  "  float4 v;\n"                                                                         \
  "  v.x = p >= 0 && p < n ? in[p] : 0.0f;\n"                                             \
  "  v.y = p + 1 >= 0 && p + 1 < n ? in[p + 1] : 0.0f;\n"                                 \
  "  v.z = p + 2 >= 0 && p + 2 < n ? in[p + 2] : 0.0f;\n"                                 \
  "  v.w = p + 3 >= 0 && p + 3 < n ? in[p + 3] : 0.0f;\n"                                 \
  "  return v;\n"                                                                         \
  "}\n"

/* out[i] = sum over j = -r..r of w[j + r] * in[i + j], in[] 0 outside [0, n): duet's register
 * stencil, its window sized for SW_HALO as CUDA's template does. */
static const char sweep_stencil_src[] = SWEEP_COMMON
    "#if SW_WCONST && defined(DUET_OPENCL)\n"
    "#define WQ __constant\n"
    "#else\n"
    "#define WQ DUET_GLOBAL const\n"
    "#endif\n" SWEEP_LD4Z
    "DUET_KERNEL void sweep_stencil(DUET_I64 n64, int r, WQ float *DUET_RESTRICT w,\n"
    "                               DUET_GLOBAL const float *DUET_RESTRICT in,\n"
    "                               DUET_GLOBAL float *DUET_RESTRICT out) {\n"
    "  const ix n = (ix)n64;\n"
    "  float wz[2 * SW_HALO + 1];\n"
    "#pragma unroll\n"
    "  for (int j = 0; j <= 2 * SW_HALO; j++)\n"
    "    wz[j] = j >= SW_HALO - r && j <= SW_HALO + r ? w[j - SW_HALO + r] : 0.0f;\n"
    "  const ix chunks = (n + SW_V - 1) / SW_V;\n"
    "  for (ix c = GID; c < chunks; c += GSIZE) {\n"
    "    const ix i0 = c * SW_V;\n"
    "    float win[SW_V + 2 * SW_HALO];\n"
    "#pragma unroll\n"
    "    for (int q = 0; q < (SW_V + 2 * SW_HALO) / 4; q++) {\n"
    "      const float4 v = ld4z(in, n, i0 - SW_HALO + 4 * q);\n"
    "      win[4 * q] = v.x;\n"
    "      win[4 * q + 1] = v.y;\n"
    "      win[4 * q + 2] = v.z;\n"
    "      win[4 * q + 3] = v.w;\n"
    "    }\n" SWEEP_SUMS
    "  }\n"
    "}\n";

/* The same sum with the block's inputs staged in shared memory (SW_STAGED): a tile of SW_B * SW_V
 * outputs and its halo, loaded once as float4s, laid out by residue mod SW_V (word x at
 * (x % SW_V) * ROW + x / SW_V), so that a work-item's window of consecutive words reads, at each
 * step, 32 consecutive words across the warp: no bank conflicts, where float4 loads from global
 * memory SW_V floats apart cost the L1 two or more wavefronts each. ROW = SW_B + 32 / SW_V keeps
 * the staging stores conflict-free too. SW_PF: the next tile's float4s are loaded into registers
 * before this tile's sums. */
static const char sweep_stencil_staged_src[] = SWEEP_COMMON
    "#define T_OUT (SW_B * SW_V)\n"
    "#define T_IN (T_OUT + 2 * SW_HALO)\n"
    "#define ROW (SW_B + 32 / SW_V)\n"
    "#define NQ ((T_IN / 4 + SW_B - 1) / SW_B)\n"
    "#define WIN (SW_V + 2 * SW_HALO)\n" SWEEP_LD4Z
    "DUET_KERNEL void sweep_stencil(DUET_I64 n64, int r, DUET_GLOBAL const float *DUET_RESTRICT "
    "w,\n"
    "                               DUET_GLOBAL const float *DUET_RESTRICT in,\n"
    "                               DUET_GLOBAL float *DUET_RESTRICT out) {\n"
    "  DUET_SHARED float tile[SW_V * ROW];\n"
    "  const ix n = (ix)n64;\n"
    "  const int t = (int)DUET_THREAD_IDX(0);\n"
    "  float wz[2 * SW_HALO + 1];\n"
    "#pragma unroll\n"
    "  for (int j = 0; j <= 2 * SW_HALO; j++)\n"
    "    wz[j] = j >= SW_HALO - r && j <= SW_HALO + r ? w[j - SW_HALO + r] : 0.0f;\n"
    "  const ix tiles = (n + T_OUT - 1) / T_OUT;\n"
    "  float4 pf[NQ];\n"
    "  ix tl = (ix)DUET_BLOCK_IDX(0);\n"
    "#if SW_PF\n"
    "#pragma unroll\n"
    "  for (int q = 0; q < NQ; q++) {\n"
    "    const int x4 = t + q * SW_B;\n"
    "    pf[q] = x4 < T_IN / 4 && tl < tiles ? ld4z(in, n, tl * T_OUT - SW_HALO + 4 * x4)\n"
    "                                        : DUET_MAKE_FLOAT4(0.0f, 0.0f, 0.0f, 0.0f);\n"
    "  }\n"
    "#endif\n"
    "  for (; tl < tiles; tl += (ix)DUET_GRID_DIM(0)) {\n"
    "    DUET_BARRIER();\n"
    "#pragma unroll\n"
    "    for (int q = 0; q < NQ; q++) {\n"
    "      const int x4 = t + q * SW_B, x = 4 * x4;\n"
    "#if !SW_PF\n"
    "      pf[q] = x4 < T_IN / 4 ? ld4z(in, n, tl * T_OUT - SW_HALO + x)\n"
    "                            : DUET_MAKE_FLOAT4(0.0f, 0.0f, 0.0f, 0.0f);\n"
    "#endif\n"
    "      if (x4 < T_IN / 4) {\n"
    "        tile[(x % SW_V) * ROW + x / SW_V] = pf[q].x;\n"
    "        tile[((x + 1) % SW_V) * ROW + (x + 1) / SW_V] = pf[q].y;\n"
    "        tile[((x + 2) % SW_V) * ROW + (x + 2) / SW_V] = pf[q].z;\n"
    "        tile[((x + 3) % SW_V) * ROW + (x + 3) / SW_V] = pf[q].w;\n"
    "      }\n"
    "    }\n"
    "    DUET_BARRIER();\n"
    "#if SW_PF\n"
    "    const ix nt = tl + (ix)DUET_GRID_DIM(0);\n"
    "#pragma unroll\n"
    "    for (int q = 0; q < NQ; q++) {\n"
    "      const int x4 = t + q * SW_B;\n"
    "      pf[q] = x4 < T_IN / 4 && nt < tiles ? ld4z(in, n, nt * T_OUT - SW_HALO + 4 * x4)\n"
    "                                          : DUET_MAKE_FLOAT4(0.0f, 0.0f, 0.0f, 0.0f);\n"
    "    }\n"
    "#endif\n"
    "    float win[WIN];\n"
    "#pragma unroll\n"
    "    for (int j = 0; j < WIN; j++) win[j] = tile[(j % SW_V) * ROW + t + j / SW_V];\n"
    "    const ix i0 = tl * T_OUT + (ix)t * SW_V;\n" SWEEP_SUMS
    "  }\n"
    "}\n";

/* c = a + b over n floats. */
static const char sweep_vadd_src[] = SWEEP_COMMON
    "#if SW_MODE != 3\n"
    "DUET_DEVICE_FN float4 add4(float4 a, float4 b) {\n"
    "  float4 c;\n"
    "  c.x = a.x + b.x; c.y = a.y + b.y; c.z = a.z + b.z; c.w = a.w + b.w;\n"
    "  return c;\n"
    "}\n"
    "#endif\n"
    "DUET_KERNEL void sweep_vadd(DUET_I64 n64, DUET_GLOBAL const float *a,\n"
    "                            DUET_GLOBAL const float *b, DUET_GLOBAL float *c) {\n"
    "  const ix n = (ix)n64, n4 = n / 4, first = GID, stride = GSIZE;\n"
    "#if SW_MODE == 3\n"
    "  (void)n4;\n"
    "  (void)stride;\n"
    "  if (first < n) c[first] = a[first] + b[first];\n"
    "#else\n"
    "#if SW_MODE == 0\n"
    "  for (ix i = first; i < n4; i += stride) STORE4(add4(LOAD4(a, i), LOAD4(b, i)), c, i);\n"
    "#elif SW_MODE == 1\n"
    "  if (first < n4) STORE4(add4(LOAD4(a, first), LOAD4(b, first)), c, first);\n"
    "#else\n"
    "  ix i = first;\n"
    "  for (; i + stride < n4; i += 2 * stride) {\n"
    "    const float4 a0 = LOAD4(a, i), b0 = LOAD4(b, i);\n"
    "    const float4 a1 = LOAD4(a, i + stride), b1 = LOAD4(b, i + stride);\n"
    "    STORE4(add4(a0, b0), c, i);\n"
    "    STORE4(add4(a1, b1), c, i + stride);\n"
    "  }\n"
    "  if (i < n4) STORE4(add4(LOAD4(a, i), LOAD4(b, i)), c, i);\n"
    "#endif\n"
    "  for (ix i = n4 * 4 + first; i < n; i += stride) c[i] = a[i] + b[i];\n"
    "#endif\n"
    "}\n";

/* One pass of the sum: block b writes the sum of its part of in[0, n) to out[b]. Warp shuffles
 * where the dialect has 32-lane ones (CUDA, NVIDIA's OpenCL), a tree in shared memory
 * elsewhere. */
static const char sweep_reduce_src[] = SWEEP_COMMON
    "#ifdef DUET_CUDA\n"
    "#define SPTR\n"
    "#define FENCE() __threadfence()\n"
    "#else\n"
    "#define SPTR __local\n"
    "#define FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)\n"
    "#endif\n"
    "#if defined(DUET_HAVE_SHUFFLE) && (defined(DUET_CUDA) || defined(DUET_NVIDIA))\n"
    "DUET_DEVICE_FN float warp_sum(float x) {\n"
    "#pragma unroll\n"
    "  for (int o = 16; o > 0; o /= 2) x += DUET_SHUFFLE_DOWN(x, o);\n"
    "  return x;\n"
    "}\n"
    "DUET_DEVICE_FN float group_sum(float x, SPTR float *s) {\n"
    "  const unsigned tid = DUET_THREAD_IDX(0);\n"
    "  x = warp_sum(x);\n"
    "  if (tid % 32 == 0) s[tid / 32] = x;\n"
    "  DUET_BARRIER();\n"
    "  if (tid < 32) x = warp_sum(tid < SW_B / 32 ? s[tid] : 0.0f);\n"
    "  return x;\n"
    "}\n"
    "#else\n"
    "DUET_DEVICE_FN float group_sum(float x, SPTR float *s) {\n"
    "  const unsigned tid = DUET_THREAD_IDX(0);\n"
    "  s[tid] = x;\n"
    "  DUET_BARRIER();\n"
    "  for (unsigned d = SW_B / 2; d > 0; d /= 2) {\n"
    "    if (tid < d) s[tid] += s[tid + d];\n"
    "    DUET_BARRIER();\n"
    "  }\n"
    "  return s[0];\n"
    "}\n"
    "#endif\n"
    "/* The block's sum of its part of in[0, n), in thread 0. */\n"
    "DUET_DEVICE_FN float block_sum(DUET_I64 n64, DUET_GLOBAL const float *DUET_RESTRICT in,\n"
    "                               SPTR float *s) {\n"
    "  const ix n = (ix)n64, n4 = n / 4;\n"
    "#if SW_MODE == 0\n"
    "  const ix first = GID, stride = GSIZE, end = n4;\n"
    "#else\n"
    "  const ix per = (n4 + DUET_GRID_DIM(0) - 1) / DUET_GRID_DIM(0);\n"
    "  const ix lo = (ix)DUET_BLOCK_IDX(0) * per, first = lo + DUET_THREAD_IDX(0), stride = SW_B;\n"
    "  const ix end = lo + per < n4 ? lo + per : n4;\n"
    "#endif\n"
    "  float4 acc;\n"
    "  acc.x = acc.y = acc.z = acc.w = 0.0f;\n"
    "  ix i = first;\n"
    "  for (; i + (SW_U - 1) * stride < end; i += SW_U * stride) {\n"
    "    float4 v[SW_U];\n"
    "#pragma unroll\n"
    "    for (int u = 0; u < SW_U; u++) v[u] = LOAD4(in, i + u * stride);\n"
    "#pragma unroll\n"
    "    for (int u = 0; u < SW_U; u++) {\n"
    "      acc.x += v[u].x; acc.y += v[u].y; acc.z += v[u].z; acc.w += v[u].w;\n"
    "    }\n"
    "  }\n"
    "  for (; i < end; i += stride) {\n"
    "    const float4 v = LOAD4(in, i);\n"
    "    acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;\n"
    "  }\n"
    "  float x = (acc.x + acc.y) + (acc.z + acc.w);\n"
    "  const ix tail = GID;\n"
    "  if (tail < n - n4 * 4) x += in[n4 * 4 + tail];\n"
    "  return group_sum(x, s);\n"
    "}\n"
    "DUET_KERNEL void sweep_reduce(DUET_I64 n64, DUET_GLOBAL const float *DUET_RESTRICT in,\n"
    "                              DUET_GLOBAL float *DUET_RESTRICT out) {\n"
    "  DUET_SHARED float s[SW_B];\n"
    "  const float x = block_sum(n64, in, s);\n"
    "  if (DUET_THREAD_IDX(0) == 0) out[DUET_BLOCK_IDX(0)] = x;\n"
    "}\n"
    "/* Both passes in one launch, as duet's shuffle_once: each block's sum, a fence and a ticket\n"
    " * by thread 0; the last block sums the sums (ticket counts back to 0 for the next). */\n"
    "DUET_KERNEL void sweep_reduce_once(DUET_I64 n64, DUET_GLOBAL const float *DUET_RESTRICT in,\n"
    "                                   DUET_GLOBAL float *DUET_RESTRICT out,\n"
    "                                   DUET_GLOBAL float *part, DUET_GLOBAL int *ticket) {\n"
    "  DUET_SHARED float s[SW_B];\n"
    "  DUET_SHARED int last;\n"
    "  const unsigned tid = DUET_THREAD_IDX(0), groups = DUET_GRID_DIM(0);\n"
    "  float x = block_sum(n64, in, s);\n"
    "  if (tid == 0) {\n"
    "    part[DUET_BLOCK_IDX(0)] = x;\n"
    "    FENCE();\n"
    "    last = DUET_ATOMIC_ADD_INT(ticket, 1) == (int)groups - 1;\n"
    "  }\n"
    "  DUET_BARRIER();\n"
    "  if (!last) return;\n"
    "  FENCE();\n"
    "  x = 0.0f;\n"
    "  volatile DUET_GLOBAL const float *sums = part;\n"
    "  for (unsigned i = tid; i < groups; i += SW_B) x += sums[i];\n"
    "  x = group_sum(x, s);\n"
    "  if (tid == 0) {\n"
    "    out[0] = x;\n"
    "    DUET_ATOMIC_ADD_INT(ticket, -(int)groups);\n"
    "  }\n"
    "}\n";

#endif
