/* SPDX-License-Identifier: MIT */
/* duet_vector_add: c = a + b over n floats, with float4 loads and stores in a
 * grid-stride loop over a grid sized by the compute units (src/vector.c), then the last n % 4
 * elements one per thread. c may be a or b: every element is read before it is written, by the
 * same thread, so the pointers carry no __restrict__.
 *
 * Tunables (values per tuning set in src/duet_tunables.h; one instantiation per set):
 *   VADD_BLOCK   threads per block                                     (default 256)
 *   VADD_PER_CU  blocks per compute unit in the grid (the core's, not the kernel's)
 * Assumes a VADD_BLOCK x 1 block and buffers that start on 16 bytes (every duet buffer does). */
#include "common.cuh"

template <int S>
struct vadd_cfg {
  static constexpr int B = TUN(S, VADD_BLOCK);
  static constexpr unsigned bx = B, by = 1;
  static constexpr size_t smem = 0;
};

template <int S>
__global__ void __launch_bounds__(vadd_cfg<S>::B)
    duet_vector_add(idx_t n, const float *a, const float *b, float *c) {
  const idx_t first = (idx_t)blockIdx.x * vadd_cfg<S>::B + threadIdx.x;
  const idx_t stride = (idx_t)gridDim.x * vadd_cfg<S>::B, n4 = n / 4;
  const float4 *a4 = (const float4 *)a, *b4 = (const float4 *)b;
  float4 *c4 = (float4 *)c;
  for (idx_t i = first; i < n4; i += stride) {
    const float4 x = a4[i], y = b4[i];
    c4[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
  for (idx_t i = n4 * 4 + first; i < n; i += stride) c[i] = a[i] + b[i];
}

extern "C" const duet__cu_kernel DUET__CU_TABLE(VECTOR)[] = {
    DUET_CU_KERNEL(duet_vector_add, vadd_cfg) DUET_CU_END};
