/* SPDX-License-Identifier: MIT */
/* What duet's own kernels written once (gemm_fast.cl and gemm_skinny.cl) need beyond the public
 * dialect of src/duet_kernel.h, in the manner of CLBlast's opencl_to_cuda.h: a few names with one
 * meaning and a line per backend, then the helpers the GEMM kernels share, written once.
 *
 * How a kernel written once is built:
 *   OpenCL: every built-in program is duet_kernel.h, kernels_cl/common.cl, this file and the
 *     group's file (backends/opencl.c), each kernel compiled alone (-DDUET_KERNEL_ONLY
 *     -DDUET_WANT_<name>) with the tuning set's values as -D options (src/tuning.c).
 *   CUDA: kernels_cu/<group>.cu includes kernels_cu/common.cuh, this file, and then the group's
 *     file once per tuning set through kernels_cu/per_set.inc, inside namespace set<S>, with each
 *     tunable the file uses defined as that set's compile-time constant (TUN(DUET_SET, NAME));
 *     nvcc compiles them ahead of time, and kernels_cu/registry.h's table finds them by name and
 *     set.
 * Either way a tunable is a compile-time constant, so loops over it unroll and arrays sized by
 * it live in registers, as in the hand-kept twins these files replaced. Helpers the course
 * kernels also use (store_c, band_tile, row_of_op, ...) stay in kernels_cl/common.cl and
 * kernels_cu/common.cuh, which keep them with one call syntax on both backends. */
#ifndef DUET_BUILTIN_H
#define DUET_BUILTIN_H

/* No #include here: the program cache keys only sources without one (src/cache.c). OpenCL
 * prepends duet_kernel.h; CUDA's files include it (and <stdint.h>) before this one. */
#ifndef DUET_KERNEL_H
#error "src/duet_kernel.h comes first"
#endif

#if defined(DUET_OPENCL)
/* A helper function: OpenCL C 1.2's inline, as the twins had it. */
#define INLINE_FN inline
/* The block a kernel is compiled for: x by y work-items, exactly (the backend checks the launch
 * against it). CUDA can state a register budget as a minimum of resident blocks; OpenCL cannot
 * (NVIDIA's compiler sizes registers from reqd_work_group_size alone). */
#define KERNEL_BLOCK(x, y) __attribute__((reqd_work_group_size((x), (y), 1)))
#define KERNEL_BLOCK_MIN(x, y, min_blocks) KERNEL_BLOCK(x, y)
/* A barrier over the block's shared (local) memory only: duet_kernel.h's DUET_BARRIER also
 * fences global memory, which the GEMM kernels do not need between their tile steps. */
#define LOCAL_BARRIER() barrier(CLK_LOCAL_MEM_FENCE)
/* A pointer of a given address space to a float4, for the 16-byte loads and stores. (A cast,
 * not vload4: NVIDIA's OpenCL compiles vload4 on global memory to four scalar loads.) */
#define GLOBAL_FLOAT4(p) (*(__global float4 *)(p))
#define GLOBAL_CONST_FLOAT4(p) (*(__global const float4 *)(p))
#define LOCAL_FLOAT4(p) (*(__local float4 *)(p))
#define LOCAL_CONST_FLOAT4(p) (*(__local const float4 *)(p))
/* A pointer into the block's shared memory, for helpers that take one. */
#define SHARED_PTR __local
#define ATOMIC_CAS_INT(p, cmp, v) atomic_cmpxchg((p), (cmp), (v))
#define ATOMIC_XCHG_INT(p, v) atomic_xchg((p), (v))
/* OpenCL has no launch that overlaps the one before it: see CUDA's below. */
#define AFTER_PRIOR_LAUNCH() ((void)0)

#elif defined(DUET_CUDA)
/* Built-in kernels are C++ functions inside namespace set<S> (one per tuning set), found through
 * the registry's function pointers, not by name: extern "C" would make the sets' kernels one
 * symbol. */
#undef DUET_KERNEL
#define DUET_KERNEL __global__
#define INLINE_FN static __device__ __forceinline__
#define KERNEL_BLOCK(x, y) __launch_bounds__((x) * (y))
#define KERNEL_BLOCK_MIN(x, y, min_blocks) __launch_bounds__((x) * (y), (min_blocks))
/* A register cap of n a thread, for a kernel whose blocks never run more threads than fit it
 * (nvcc takes it without a __launch_bounds__, so without the block size). __maxnreg__ came with
 * CUDA 12.4; an older nvcc builds the kernel uncapped (correct, and slower where it is used). */
#if __CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 4)
#define KERNEL_MAX_REGS(n) __maxnreg__(n)
#else
#define KERNEL_MAX_REGS(n)
#endif
#define LOCAL_BARRIER() __syncthreads()
#define GLOBAL_FLOAT4(p) (*reinterpret_cast<float4 *>(p))
#define GLOBAL_CONST_FLOAT4(p) (*reinterpret_cast<const float4 *>(p))
#define LOCAL_FLOAT4(p) (*reinterpret_cast<float4 *>(p))
#define LOCAL_CONST_FLOAT4(p) (*reinterpret_cast<const float4 *>(p))
#define SHARED_PTR
#define ATOMIC_CAS_INT(p, cmp, v) atomicCAS((p), (cmp), (v))
#define ATOMIC_XCHG_INT(p, v) atomicExch((p), (v))
/* AFTER_PRIOR_LAUNCH is the first statement of every kernel written once. The CUDA backend may
 * launch these kernels with programmatic stream serialization (compute capability 9.0;
 * duet__launch.overlap, decided in src/launch.c): the launch's blocks may then be placed before
 * the launch ahead of it on the stream has finished. griddepcontrol.wait holds them until that
 * launch has finished and its writes are visible, so nothing the kernel reads or writes can race
 * it. No kernel gives griddepcontrol.launch_dependents: each block's exit lets the next launch
 * be placed, so its waiting blocks never share a unit with blocks still computing (given at a
 * kernel's start, or after fast's last loads, it ran the cluster kernels and sgemv slower:
 * docs/results/h200.md, twenty-eighth session). A no-op in a launch without the attribute, and
 * absent before sm_90. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define AFTER_PRIOR_LAUNCH() asm volatile("griddepcontrol.wait;" ::: "memory")
#else
#define AFTER_PRIOR_LAUNCH() ((void)0)
#endif

#else
#error "kernels_cl/builtin.h follows src/duet_kernel.h"
#endif

/* A condition on compile-time values (tunables) that must hold, as C99 and C++ both take it: an
 * array of negative size names the condition in the compiler's error. */
#define STATIC_CHECK(cond, name) typedef char static_check_##name[(cond) ? 1 : -1]

/* fast's argument list, which every GEMM kernel written once takes (fast, stream-K, skinny,
 * skinny-dot; a kernel that needs more appends them), so that a plan can hand a piece of C to
 * any of them: the transposes, the shape, alpha, each matrix with its offset in floats into its
 * buffer (a piece of C, as the core's strip plans take; OpenCL 1.2 cannot offset a buffer on the
 * host without sub-buffer alignment rules) and its ld, beta, and m_read >= m rows of op(A) and
 * n_read >= n columns of op(B) that may be read. FAST_SIG in src/manifest.c spells it for the
 * core. FAST_APPLY_OFFSETS() moves each matrix to its offset, first thing in the kernel. */
#define FAST_PARAMS                                                                 \
  int ta, int tb, idx_t m, idx_t n, idx_t k, float alpha,                           \
      DUET_GLOBAL const float *DUET_RESTRICT a, idx_t a_off, idx_t lda,             \
      DUET_GLOBAL const float *DUET_RESTRICT b, idx_t b_off, idx_t ldb, float beta, \
      DUET_GLOBAL float *DUET_RESTRICT c, idx_t c_off, idx_t ldc, idx_t m_read, idx_t n_read
#define FAST_APPLY_OFFSETS() \
  do {                       \
    a += a_off;              \
    b += b_off;              \
    c += c_off;              \
  } while (0)

/* Split-K, where the grid has slices along dimension 2: slice z takes k in [beg, end) =
 * [z * kc, min(k, (z + 1) * kc)), kc = ceil(k / slices) rounded up to a multiple of `step`, and
 * writes its partial product into its own m x ldc slab of the workspace, so *c moves there,
 * *alpha becomes 1 and *beta 0: the reduction applies alpha and beta once, to the whole sum, as
 * BLAS does (alpha = 3e38 on each slice overflows where it does not on the sum, and alpha = inf
 * makes inf - inf of slices of either sign). With one slice: all of k, and c, alpha and beta as
 * they are. */
typedef struct {
  idx_t beg, end;
} k_range;
/* The k slice's length: ceil(k / slices) rounded up to a multiple of step. */
#define SLICE_LEN(k, slices, step) ((((k) + (slices)-1) / (slices) + (step)-1) / (step) * (step))
INLINE_FN k_range splitk_slice(idx_t k, int step, idx_t m, idx_t ldc,
                               DUET_GLOBAL float *DUET_RESTRICT *c, float *alpha, float *beta) {
  const int slices = (int)DUET_GRID_DIM(2);
  k_range r = {0, k};
  if (slices > 1) {
    const idx_t kc = SLICE_LEN(k, slices, step);
    r.beg = min(k, (idx_t)DUET_BLOCK_IDX(2) * kc);
    r.end = min(k, r.beg + kc);
    *c += (idx_t)DUET_BLOCK_IDX(2) * m * ldc;
    *alpha = 1.0f;
    *beta = 0.0f;
  }
  return r;
}
/* This block's k slice alone, as splitk_slice cuts it (C, alpha and beta untouched). */
INLINE_FN k_range k_slice(idx_t k, int step) {
  const int slices = (int)DUET_GRID_DIM(2);
  k_range r = {0, k};
  if (slices > 1) {
    const idx_t kc = SLICE_LEN(k, slices, step);
    r.beg = min(k, (idx_t)DUET_BLOCK_IDX(2) * kc);
    r.end = min(k, r.beg + kc);
  }
  return r;
}

/* Whether a matrix at p with leading dimension ld takes 16-byte loads and stores: its base on a
 * 16-byte boundary and ld a multiple of 4, so that every row starts on one. */
INLINE_FN bool vec4_rows(DUET_GLOBAL const float *p, idx_t ld) {
  return (ld & 3) == 0 && ((uintptr_t)p & 15) == 0;
}

/* Partial sums one block writes and another reads during the same launch (GEMV's k slices): a
 * cached copy must not serve the read, so CUDA stores and loads them in L2 only (__stcg,
 * __ldcg) and OpenCL (C 1.2 has no cache operators) reads them through volatile pointers. */
#if defined(DUET_CUDA)
#define CROSS_STORE(p, v) __stcg((p), (v))
#define CROSS_STORE4(p, v) __stcg((p), (v))
#define CROSS_LOAD(p) __ldcg(p)
#define CROSS_LOAD4(p) __ldcg(p)
#define TICKET_READ(p) (*(volatile int *)(p))
#else
#define CROSS_STORE(p, v) (*(p) = (v))
#define CROSS_STORE4(p, v) (*(p) = (v))
#define CROSS_LOAD(p) (*(volatile __global const float *)(p))
#define CROSS_LOAD4(p) (*(volatile __global const float4 *)(p))
/* OpenCL C 1.2 has no atomic load: an atomic add of 0 */
#define TICKET_READ(p) atomic_add((p), 0)
#endif
/* A ticket counter shared by a launch's blocks: the tickets taken below TICKET_EPOCH, the
 * launch's epoch (1..2047, src/gemm.c's SK_EPOCHS) above. epoch_ticket returns how many were
 * taken before this one, a counter of another epoch counting as zero, so that one a failed
 * launch left behind cannot poison a later call (the core zeroes the counters before an epoch
 * comes round again). Taken after the thread's own stores and fence, it publishes them to the
 * thread that takes the last ticket, which fences before it reads. */
#define TICKET_EPOCH 0x100000
INLINE_FN int epoch_ticket(DUET_GLOBAL int *flag, int epoch) {
  /* A word of another epoch is taken over by compare-and-swap, by the first to arrive; every
   * other ticket is one atomic add. A swap retried by every block at once costs a round trip per
   * block and rival (H100: 0.5 ms for 528 slices of one output). */
  int old = TICKET_READ(flag);
  while (old / TICKET_EPOCH != epoch) {
    const int seen = ATOMIC_CAS_INT(flag, old, epoch * TICKET_EPOCH + 1);
    if (seen == old) return 0;
    old = seen;
  }
  return DUET_ATOMIC_ADD_INT(flag, 1) - epoch * TICKET_EPOCH;
}

#endif
