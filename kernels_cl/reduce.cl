/* SPDX-License-Identifier: MIT */
/* The float sum in the classic sequence of block reductions, from the interleaved tree in local
 * memory to warp shuffles, plus a variant that adds each work-group's sum atomically. Each
 * kernel but shuffle_once is one pass: work-group b sums its part of in[0, n) into out[b];
 * src/reduce.c chains passes until one value is left, so every result comes from a fixed tree
 * that depends only on n, the variant and the tuning set. Atomic adds its work-groups' sums into
 * out[0] in whatever order they finish: its last bits vary from run to run.
 *   naive         one element per work-item, interleaved addressing: the divergent tid % (2s)
 *                 test
 *   sequential    sequential addressing (no bank conflicts), two elements added during the load
 *   shuffle       a grid-stride loop of REDUCE_UNROLL float4 loads per work-item and step, then
 *                 the sub-groups' sum where the device has sub-groups (DUET_SUBGROUPS, from the
 *                 backend), NVIDIA's shfl.sync through inline PTX (DUET_NVIDIA), else a tree in
 *                 local memory; then once more across the sub-groups' (warps') sums
 *   shuffle_once  shuffle's two passes in one launch: each work-group writes its sum and takes
 *                 a ticket; the group that draws the last sums the groups' sums in group order,
 *                 as shuffle's second pass does, so the bits are those of the two passes
 *   atomic        shuffle's first pass, then one compare-and-swap float add per group into out[0]
 *
 * Tunables (-D options from the manifest, per tuning set in src/duet_tunables.h; fallbacks
 * below are the defaults):
 *   REDUCE_BLOCK     work-items per work-group, a power of two >= 64   (256)
 *   REDUCE_UNROLL    shuffle, atomic: float4 loads in flight per step  (4)
 *   REDUCE_PER_CU    shuffle, atomic: work-groups per compute unit in the first pass (the core's)
 *   REDUCE_ONE_PASS  shuffle runs as shuffle_once (the core's)
 * Assumes a REDUCE_BLOCK x 1 work-group (and NVIDIA's warp of 32 under DUET_NVIDIA). */
#ifndef REDUCE_BLOCK
#define REDUCE_BLOCK 256
#endif
#ifndef REDUCE_UNROLL
#define REDUCE_UNROLL 4
#endif
#if defined(DUET_SUBGROUPS) && DUET_SUBGROUPS == 1
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif

#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_reduce_naive)
__kernel BLOCK(REDUCE_BLOCK, 1) void duet_reduce_naive(idx_t n, __global const float *restrict in,
                                                       __global float *restrict out) {
  __local float s[REDUCE_BLOCK];
  const uint tid = get_local_id(0);
  const idx_t i = (idx_t)get_group_id(0) * REDUCE_BLOCK + tid;
  s[tid] = i < n ? in[i] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = 1; d < REDUCE_BLOCK; d *= 2) {
    if (tid % (2 * d) == 0) s[tid] += s[tid + d];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) out[get_group_id(0)] = s[0];
}
#endif

#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_reduce_sequential)
__kernel BLOCK(REDUCE_BLOCK, 1) void duet_reduce_sequential(idx_t n,
                                                            __global const float *restrict in,
                                                            __global float *restrict out) {
  __local float s[REDUCE_BLOCK];
  const uint tid = get_local_id(0);
  const idx_t i = (idx_t)get_group_id(0) * 2 * REDUCE_BLOCK + tid;
  float x = i < n ? in[i] : 0.0f;
  if (i + REDUCE_BLOCK < n) x += in[i + REDUCE_BLOCK];
  s[tid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = REDUCE_BLOCK / 2; d > 0; d /= 2) {
    if (tid < d) s[tid] += s[tid + d];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) out[get_group_id(0)] = s[0];
}
#endif

/* The work-group's sum of every work-item's x, in work-item 0; `s` holds REDUCE_BLOCK floats. */
#ifdef DUET_SUBGROUPS
inline float group_sum(float x, __local float *s) {
  x = sub_group_reduce_add(x);
  if (get_sub_group_local_id() == 0) s[get_sub_group_id()] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  x = 0.0f;
  if (get_local_id(0) == 0)
    for (uint g = 0; g < get_num_sub_groups(); g++) x += s[g];
  return x;
}
#elif defined(DUET_NVIDIA)
/* A warp's sum by shuffles down, as in CUDA, through PTX's shfl.sync (OpenCL C has no shuffle on
 * NVIDIA): after it, lane 0 holds it. */
inline float warp_sum(float x) {
  for (uint o = 16; o > 0; o /= 2) {
    uint y;
    asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;"
                 : "=r"(y)
                 : "r"(as_uint(x)), "r"(o));
    x += as_float(y);
  }
  return x;
}
inline float group_sum(float x, __local float *s) {
  const uint tid = get_local_id(0);
  x = warp_sum(x);
  if (tid % 32 == 0) s[tid / 32] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tid < 32) x = warp_sum(tid < REDUCE_BLOCK / 32 ? s[tid] : 0.0f);
  return x;
}
#else
inline float group_sum(float x, __local float *s) {
  const uint tid = get_local_id(0);
  s[tid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = REDUCE_BLOCK / 2; d > 0; d /= 2) {
    if (tid < d) s[tid] += s[tid + d];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return s[0];
}
#endif

/* Shuffle's first pass: the work-group's sum of its share of in[0, n), in work-item 0. */
inline float shuffle_group_sum(idx_t n, __global const float *restrict in, __local float *s) {
  const idx_t first = (idx_t)get_group_id(0) * REDUCE_BLOCK + get_local_id(0);
  const idx_t stride = (idx_t)get_num_groups(0) * REDUCE_BLOCK, n4 = n / 4;
  /* A float4 pointer, not vload4, which may assume only 4-byte alignment and which NVIDIA's
   * compiler makes four scalar loads; buffers start on 16 bytes. */
  __global const float4 *restrict in4 = (__global const float4 *)in;
  float4 acc = (float4)(0.0f);
  idx_t i = first;
  for (; i + (REDUCE_UNROLL - 1) * stride < n4; i += REDUCE_UNROLL * stride) {
    float4 v[REDUCE_UNROLL];
#pragma unroll
    for (int u = 0; u < REDUCE_UNROLL; u++) v[u] = in4[i + u * stride];
#pragma unroll
    for (int u = 0; u < REDUCE_UNROLL; u++) acc += v[u];
  }
  for (; i < n4; i += stride) acc += in4[i];
  float x = (acc.x + acc.y) + (acc.z + acc.w);
  if (first < n - n4 * 4) x += in[n4 * 4 + first];
  return group_sum(x, s);
}

#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_reduce_shuffle)
__kernel BLOCK(REDUCE_BLOCK, 1) void duet_reduce_shuffle(idx_t n, __global const float *restrict in,
                                                         __global float *restrict out) {
  __local float s[REDUCE_BLOCK];
  const float x = shuffle_group_sum(n, in, s);
  if (get_local_id(0) == 0) out[get_group_id(0)] = x;
}
#endif

/* The ticket word of shuffle_once: the tickets taken in the low REDUCE_TICKET_COUNT bits, the
 * launch's epoch (1..REDUCE_EPOCHS, from src/reduce.c) above them. */
#define REDUCE_TICKET_COUNT 0xfffffu
#define REDUCE_TICKET_EPOCH 0x100000u
#define REDUCE_EPOCHS 0x7ff

/* Group b's ticket, 0 for the first group to take one. A word tagged with another epoch (left
 * by a launch that did not finish, or zero as allocated) counts as none taken: the first group
 * to see one swaps in this epoch's word with its own ticket, and a group that added to the old
 * word before that takes a ticket again. One atomic add where the last launch finished. */
inline uint take_ticket(volatile __global uint *ticket, uint epoch) {
  uint cur = atomic_add(ticket, 1u);
  if (cur / REDUCE_TICKET_EPOCH == epoch) return cur & REDUCE_TICKET_COUNT;
  for (cur++;;) {
    const uint seen = atomic_cmpxchg(ticket, cur, epoch * REDUCE_TICKET_EPOCH + 1u);
    if (seen == cur) return 0;
    if (seen / REDUCE_TICKET_EPOCH == epoch) return atomic_add(ticket, 1u) & REDUCE_TICKET_COUNT;
    cur = seen;
  }
}

/* The sum of the groups' sums part[0, blocks), in the last group: shuffle's second pass (one
 * group over them, float4 by float4 per work-item, the same additions in the same order), each
 * value read past the caches, since other groups wrote it during this launch. */
inline float sum_of_parts(uint blocks, volatile __global const float *part, __local float *s) {
  const uint tid = get_local_id(0), n4 = blocks / 4;
  float4 acc = (float4)(0.0f);
  for (uint i = tid; i < n4; i += REDUCE_BLOCK)
    acc += (float4)(part[4 * i], part[4 * i + 1], part[4 * i + 2], part[4 * i + 3]);
  float x = (acc.x + acc.y) + (acc.z + acc.w);
  if (tid < blocks - n4 * 4) x += part[n4 * 4 + tid];
  return group_sum(x, s);
}

/* part: as many floats as groups; ticket: one word, kept between launches (the core's arena).
 * Work-item 0 of each group writes the group's sum, fences (DUET_GLOBAL_FENCE, the dialect's
 * fence for the whole device, as the CUDA twin's __threadfence()), and takes the ticket itself:
 * OpenCL 1.2 orders a fence within one work-item only, so the store a ticket publishes must be
 * its taker's own. In the last group every work-item fences before it reads the sums. */
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_reduce_shuffle_once)
__kernel BLOCK(REDUCE_BLOCK,
               1) void duet_reduce_shuffle_once(idx_t n, __global const float *restrict in,
                                                __global float *restrict out, __global float *part,
                                                __global uint *ticket, int epoch) {
  __local float s[REDUCE_BLOCK];
  __local int last;
  const float x = shuffle_group_sum(n, in, s);
  if (get_local_id(0) == 0) {
    part[get_group_id(0)] = x;
    DUET_GLOBAL_FENCE();
    last = take_ticket(ticket, (uint)epoch) == (uint)get_num_groups(0) - 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (!last) return;
  DUET_GLOBAL_FENCE();
  const float sum = sum_of_parts((uint)get_num_groups(0), part, s);
  if (get_local_id(0) == 0) {
    out[0] = sum;
    /* the next launch's epoch, as src/reduce.c counts them: one atomic add for each group */
    atomic_xchg(ticket, (uint)(epoch % REDUCE_EPOCHS + 1) * REDUCE_TICKET_EPOCH);
  }
}
#endif

/* OpenCL 1.2 has no float atomics: add through a compare-and-swap on the bits. */
inline void atomic_add_float(volatile __global float *p, float x) {
  volatile __global int *q = (volatile __global int *)p;
  int seen = *q, expected;
  do {
    expected = seen;
    seen = atomic_cmpxchg(q, expected, as_int(as_float(expected) + x));
  } while (seen != expected);
}

#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_reduce_atomic)
__kernel BLOCK(REDUCE_BLOCK, 1) void duet_reduce_atomic(idx_t n, __global const float *restrict in,
                                                        __global float *restrict out) {
  __local float s[REDUCE_BLOCK];
  const float x = shuffle_group_sum(n, in, s);
  if (get_local_id(0) == 0) atomic_add_float(out, x);
}
#endif
