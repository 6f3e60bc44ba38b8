/* SPDX-License-Identifier: MIT */
/* The float sum in the classic sequence of block reductions, from the interleaved tree in shared
 * memory to warp shuffles, plus a variant that adds each block's sum atomically. Each
 * kernel but shuffle_once is one pass: block b sums its part of in[0, n) into out[b];
 * src/reduce.c chains passes until one value is left, so every result comes from a fixed tree
 * that depends only on n, the variant and the tuning set. Atomic adds its blocks' sums into
 * out[0] in whatever order they finish: its last bits vary from run to run.
 *   naive         one element per thread, interleaved addressing: the divergent tid % (2s) test
 *   sequential    sequential addressing (no bank conflicts), two elements added during the load
 *   shuffle       a grid-stride loop of REDUCE_UNROLL float4 loads per thread and step, then
 *                 __shfl_down_sync within each warp and once more across the warps' sums
 *   shuffle_once  shuffle's two passes in one launch: each block writes its sum and takes a
 *                 ticket; the block that draws the last sums the blocks' sums in block order,
 *                 as shuffle's second pass does, so the bits are those of the two passes
 *   atomic        shuffle's first pass, then one atomicAdd per block into out[0]
 *
 * Tunables (values per tuning set in src/duet_tunables.h; one instantiation per set):
 *   REDUCE_BLOCK     threads per block, a power of two >= 64           (default 256)
 *   REDUCE_UNROLL    shuffle, atomic: float4 loads in flight per step  (default 4)
 *   REDUCE_PER_CU    shuffle, atomic: blocks per compute unit in the first pass (the core's)
 *   REDUCE_ONE_PASS  shuffle runs as shuffle_once (the core's)
 * Assumes a REDUCE_BLOCK x 1 block, a warp of 32, and buffers that start on 16 bytes. */
#include "common.cuh"

template <int S>
struct reduce_cfg {
  static constexpr int B = TUN(S, REDUCE_BLOCK), U = TUN(S, REDUCE_UNROLL);
  static constexpr unsigned bx = B, by = 1;
  static constexpr size_t smem = 0;
  static_assert(B >= 64 && (B & (B - 1)) == 0, "REDUCE_BLOCK: a power of two >= 64");
};

template <int S>
__global__ void __launch_bounds__(reduce_cfg<S>::B)
    duet_reduce_naive(idx_t n, const float *__restrict__ in, float *__restrict__ out) {
  constexpr int B = reduce_cfg<S>::B;
  __shared__ float s[B];
  const unsigned tid = threadIdx.x;
  const idx_t i = (idx_t)blockIdx.x * B + tid;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned d = 1; d < B; d *= 2) {
    if (tid % (2 * d) == 0) s[tid] += s[tid + d];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

template <int S>
__global__ void __launch_bounds__(reduce_cfg<S>::B)
    duet_reduce_sequential(idx_t n, const float *__restrict__ in, float *__restrict__ out) {
  constexpr int B = reduce_cfg<S>::B;
  __shared__ float s[B];
  const unsigned tid = threadIdx.x;
  const idx_t i = (idx_t)blockIdx.x * 2 * B + tid;
  float x = i < n ? in[i] : 0.0f;
  if (i + B < n) x += in[i + B];
  s[tid] = x;
  __syncthreads();
  for (unsigned d = B / 2; d > 0; d /= 2) {
    if (tid < d) s[tid] += s[tid + d];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

/* A warp's sum by shuffles down, halving the distance each step: after it, lane 0 holds it. */
__device__ __forceinline__ float warp_sum(float x) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) x += __shfl_down_sync(0xffffffffu, x, o);
  return x;
}

/* The block's sum of every thread's x, in thread 0: each warp's, then the warps' sums. */
template <int S>
__device__ __forceinline__ float block_sum(float x) {
  constexpr int B = reduce_cfg<S>::B;
  __shared__ float warps[B / 32];
  const unsigned tid = threadIdx.x;
  x = warp_sum(x);
  if (tid % 32 == 0) warps[tid / 32] = x;
  __syncthreads();
  if (tid < 32) x = warp_sum(tid < B / 32 ? warps[tid] : 0.0f);
  return x;
}

/* Shuffle's first pass: the block's sum of its share of in[0, n), in thread 0. */
template <int S>
__device__ __forceinline__ float shuffle_block_sum(idx_t n, const float *__restrict__ in) {
  constexpr int B = reduce_cfg<S>::B, U = reduce_cfg<S>::U;
  const unsigned tid = threadIdx.x;
  const idx_t first = (idx_t)blockIdx.x * B + tid, stride = (idx_t)gridDim.x * B, n4 = n / 4;
  const float4 *in4 = (const float4 *)in;
  float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  idx_t i = first;
  for (; i + (U - 1) * stride < n4; i += U * stride) {
    float4 v[U];
#pragma unroll
    for (int u = 0; u < U; u++) v[u] = in4[i + u * stride];
#pragma unroll
    for (int u = 0; u < U; u++) {
      acc.x += v[u].x;
      acc.y += v[u].y;
      acc.z += v[u].z;
      acc.w += v[u].w;
    }
  }
  for (; i < n4; i += stride) {
    const float4 v = in4[i];
    acc.x += v.x;
    acc.y += v.y;
    acc.z += v.z;
    acc.w += v.w;
  }
  float x = (acc.x + acc.y) + (acc.z + acc.w);
  if (first < n - n4 * 4) x += in[n4 * 4 + first];
  return block_sum<S>(x);
}

template <int S>
__global__ void __launch_bounds__(reduce_cfg<S>::B)
    duet_reduce_shuffle(idx_t n, const float *__restrict__ in, float *__restrict__ out) {
  const float x = shuffle_block_sum<S>(n, in);
  if (threadIdx.x == 0) out[blockIdx.x] = x;
}

/* The ticket word of shuffle_once: the tickets taken in the low REDUCE_TICKET_COUNT bits, the
 * launch's epoch (1..REDUCE_EPOCHS, from src/reduce.c) above them. */
#define REDUCE_TICKET_COUNT 0xfffffu
#define REDUCE_TICKET_EPOCH 0x100000u
#define REDUCE_EPOCHS 0x7ff

/* Block b's ticket, 0 for the first block to take one. A word tagged with another epoch (left
 * by a launch that did not finish, or zero as allocated) counts as none taken: the first block
 * to see one swaps in this epoch's word with its own ticket, and a block that added to the old
 * word before that takes a ticket again. One atomic add where the last launch finished. */
__device__ __forceinline__ unsigned take_ticket(unsigned *ticket, unsigned epoch) {
  unsigned cur = atomicAdd(ticket, 1u);
  if (cur / REDUCE_TICKET_EPOCH == epoch) return cur & REDUCE_TICKET_COUNT;
  for (cur++;;) {
    const unsigned seen = atomicCAS(ticket, cur, epoch * REDUCE_TICKET_EPOCH + 1u);
    if (seen == cur) return 0;
    if (seen / REDUCE_TICKET_EPOCH == epoch) return atomicAdd(ticket, 1u) & REDUCE_TICKET_COUNT;
    cur = seen;
  }
}

/* The sum of the blocks' sums part[0, blocks), in the last block: shuffle's second pass (one
 * block over them, float4 by float4 per thread, the same additions in the same order), each
 * value read past the caches, since other blocks wrote it during this launch. */
template <int S>
__device__ __forceinline__ float sum_of_parts(unsigned blocks, const volatile float *part) {
  constexpr int B = reduce_cfg<S>::B;
  const unsigned tid = threadIdx.x, n4 = blocks / 4;
  float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  for (unsigned i = tid; i < n4; i += B) {
    acc.x += part[4 * i];
    acc.y += part[4 * i + 1];
    acc.z += part[4 * i + 2];
    acc.w += part[4 * i + 3];
  }
  float x = (acc.x + acc.y) + (acc.z + acc.w);
  if (tid < blocks - n4 * 4) x += part[n4 * 4 + tid];
  return block_sum<S>(x);
}

/* part: gridDim.x floats; ticket: one word, kept between launches (the core's arena). Thread 0
 * of each block writes the block's sum, fences, and takes the ticket itself, so its own fence
 * orders its own store before the ticket that publishes it. */
template <int S>
__global__ void __launch_bounds__(reduce_cfg<S>::B)
    duet_reduce_shuffle_once(idx_t n, const float *__restrict__ in, float *__restrict__ out,
                             float *part, unsigned *ticket, int epoch) {
  __shared__ int last;
  const float x = shuffle_block_sum<S>(n, in);
  if (threadIdx.x == 0) {
    part[blockIdx.x] = x;
    __threadfence();
    last = take_ticket(ticket, (unsigned)epoch) == gridDim.x - 1;
    if (last) __threadfence();
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  const float sum = sum_of_parts<S>(gridDim.x, part);
  if (threadIdx.x == 0) {
    out[0] = sum;
    /* the next launch's epoch, as src/reduce.c counts them: one atomic add for each block */
    atomicExch(ticket, (unsigned)(epoch % REDUCE_EPOCHS + 1) * REDUCE_TICKET_EPOCH);
  }
}

template <int S>
__global__ void __launch_bounds__(reduce_cfg<S>::B)
    duet_reduce_atomic(idx_t n, const float *__restrict__ in, float *__restrict__ out) {
  const float x = shuffle_block_sum<S>(n, in);
  if (threadIdx.x == 0) atomicAdd(out, x);
}

/* One row per kernel: each expands to rows that end in commas clang-format cannot see. */
// clang-format off
extern "C" const duet__cu_kernel DUET__CU_TABLE(REDUCE)[] = {
    DUET_CU_KERNEL(duet_reduce_naive, reduce_cfg)
    DUET_CU_KERNEL(duet_reduce_sequential, reduce_cfg)
    DUET_CU_KERNEL(duet_reduce_shuffle, reduce_cfg)
    DUET_CU_KERNEL(duet_reduce_shuffle_once, reduce_cfg)
    DUET_CU_KERNEL(duet_reduce_atomic, reduce_cfg)
    DUET_CU_END};
// clang-format on
