/* SPDX-License-Identifier: MIT */
/* duet_vector_add: c = a + b over n floats, with float4 loads and stores in a
 * grid-stride loop over a grid sized by the compute units (src/vector.c), then the last n % 4
 * elements one per work-item. c may be a or b: every element is read before it is written, by
 * the same work-item, so the pointers carry no restrict.
 *
 * Tunables (-D options from the manifest, per tuning set in src/duet_tunables.h; fallbacks
 * below are the defaults):
 *   VADD_BLOCK   work-items per work-group                             (256)
 *   VADD_PER_CU  work-groups per compute unit in the grid (the core's, not the kernel's)
 * Assumes a VADD_BLOCK x 1 work-group. */
#ifndef VADD_BLOCK
#define VADD_BLOCK 256
#endif

__kernel BLOCK(VADD_BLOCK, 1) void duet_vector_add(idx_t n, __global const float *a,
                                                   __global const float *b, __global float *c) {
  const idx_t first = (idx_t)get_group_id(0) * VADD_BLOCK + get_local_id(0);
  const idx_t stride = (idx_t)get_num_groups(0) * VADD_BLOCK, n4 = n / 4;
  /* float4 pointers, not vload4/vstore4, which may assume only 4-byte alignment and which
   * NVIDIA's compiler makes four scalar accesses; buffers start on 16 bytes. */
  __global const float4 *a4 = (__global const float4 *)a, *b4 = (__global const float4 *)b;
  __global float4 *c4 = (__global float4 *)c;
  for (idx_t i = first; i < n4; i += stride) c4[i] = a4[i] + b4[i];
  for (idx_t i = n4 * 4 + first; i < n; i += stride) c[i] = a[i] + b[i];
}
