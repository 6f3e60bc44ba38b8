/* SPDX-License-Identifier: MIT */
/**
 * @file duet_kernel.h
 * @brief The kernel dialect: one kernel source that is valid OpenCL C 1.2 and valid CUDA C++.
 *
 * duet_program_create() compiles a kernel source for a context's device: through the OpenCL
 * compiler (clBuildProgram) on an OpenCL context, through NVRTC on a CUDA context. This header
 * makes one source valid for both. duet puts it in front of every source it compiles, so a
 * source needs no include; a source may still say `#include <duet_kernel.h>` (or with quotes),
 * for its editor or for a compiler of its own, and duet then blanks that line out (the header is
 * already there).
 *
 * @par A kernel in the dialect
 * @code
 * DUET_KERNEL void scale(DUET_GLOBAL float *DUET_RESTRICT x, float a, int n
 *                        DUET_SHARED_PARAM(float, tile)) {
 *   DUET_SHARED_BIND(float, tile);
 *   const unsigned t = DUET_THREAD_IDX(0);
 *   const size_t i = DUET_GLOBAL_IDX(0);
 *   tile[t] = i < (size_t)n ? x[i] : 0.0f;
 *   DUET_BARRIER();
 *   if (i < (size_t)n) x[i] = a * tile[t];
 * }
 * @endcode
 * It runs with duet_launch(prog, "scale", grid, block, block[0] * sizeof(float), args, 3):
 * CUDA's `<<<grid, block, shared_bytes>>>`; on OpenCL, global = grid x block, local = block, and
 * the shared bytes become the `__local` argument that #DUET_SHARED_PARAM declares.
 *
 * @par Rules that keep a source portable
 * - Write C: no templates, classes or references (CUDA would take them, OpenCL would not); no
 *   pointers to pointers in parameters.
 * - Scalar parameters are `int`, `unsigned int`, `float` or #DUET_I64 (64 bits on both), passed
 *   by duet_arg_i32(), duet_arg_f32() and duet_arg_i64(); buffers are #DUET_GLOBAL pointers,
 *   passed by duet_arg_buf().
 * - Vector types `float2`, `float4`, `int2`, `int4` exist on both, but only their components
 *   (`.x`, `.y`, `.z`, `.w`) are portable: CUDA has no vector arithmetic. Build them with
 *   #DUET_MAKE_FLOAT4 etc., load and store them with #DUET_LOAD4 and #DUET_STORE4.
 * - Names beginning with `duet__` or `DUET__` are the header's own.
 * - The compiler's own macro tells the backend apart where it must: #DUET_OPENCL or #DUET_CUDA
 *   is defined to 1.
 */
#ifndef DUET_KERNEL_H
#define DUET_KERNEL_H

#if defined(DUET_DOXYGEN)
/* The documentation's view: each name once, with what it becomes on either backend. */
/** Defined to 1 when the source is compiled as OpenCL C (absent under CUDA). */
#define DUET_OPENCL 1
/** Defined to 1 when the source is compiled as CUDA C++ by NVRTC (absent under OpenCL). */
#define DUET_CUDA 1
/** Marks a kernel, the entry point duet_launch() names: `__kernel` / `extern "C" __global__`
 * (unmangled, so that its name is the one in the source). */
#define DUET_KERNEL
/** A helper function callable from kernels: nothing / `static __device__ __forceinline__`. */
#define DUET_DEVICE_FN
/** Global (device) memory, for pointer parameters: `__global` / nothing. */
#define DUET_GLOBAL
/** A fixed-size array shared by the block, declared at the kernel's top level:
 * `__local` / `__shared__`. */
#define DUET_SHARED
/** No aliasing through this pointer: `restrict` / `__restrict__`. */
#define DUET_RESTRICT
/** A 64-bit signed integer, the type of a duet_arg_i64() parameter: `long` / `long long`. */
#define DUET_I64 long
/**
 * The dynamic shared-memory pointer, as the kernel's last parameter, written after the one
 * before it without a comma: `int n DUET_SHARED_PARAM(float, tile)`. OpenCL: `, __local T *name`,
 * set by duet_launch() to its shared bytes. CUDA: nothing (see #DUET_SHARED_BIND).
 * @param T the element type.
 * @param name the pointer's name.
 */
#define DUET_SHARED_PARAM(T, name)
/**
 * The first statement of a kernel with #DUET_SHARED_PARAM, with the same arguments. CUDA:
 * declares `T *name` pointing to the launch's dynamic shared memory (`extern __shared__`,
 * aligned to 16 bytes). OpenCL: nothing (the parameter is the pointer).
 * @param T the element type.
 * @param name the pointer's name.
 */
#define DUET_SHARED_BIND(T, name)
/** Waits for the whole block, and orders its shared and global memory accesses:
 * `barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)` / `__syncthreads()`. */
#define DUET_BARRIER()
/** Orders the calling thread's global memory accesses for the whole device: those before it are
 * seen by every other block before those after it (publishing a result that another block
 * reads once a ticket or flag says it is there; a block's threads still need #DUET_BARRIER).
 * `mem_fence(CLK_GLOBAL_MEM_FENCE)`, which NVIDIA's OpenCL compiles to a fence of the work-group
 * alone, followed there by PTX's device fence `membar.gl` / `__threadfence()`. */
#define DUET_GLOBAL_FENCE()
/** The thread's index in its block along dimension d (0, 1 or 2), an `unsigned int`:
 * `get_local_id(d)` / `threadIdx`.
 * @param d the dimension, a constant. */
#define DUET_THREAD_IDX(d)
/** The block's index in the grid along d, an `unsigned int`: `get_group_id(d)` / `blockIdx`.
 * @param d the dimension, a constant. */
#define DUET_BLOCK_IDX(d)
/** Threads per block along d, an `unsigned int`: `get_local_size(d)` / `blockDim`.
 * @param d the dimension, a constant. */
#define DUET_BLOCK_DIM(d)
/** Blocks in the grid along d, an `unsigned int`: `get_num_groups(d)` / `gridDim`.
 * @param d the dimension, a constant. */
#define DUET_GRID_DIM(d)
/** The thread's index in the whole launch along d, a `size_t`: `get_global_id(d)` /
 * `blockIdx * blockDim + threadIdx`.
 * @param d the dimension, a constant. */
#define DUET_GLOBAL_IDX(d)
/** Threads in the whole launch along d, a `size_t`: `get_global_size(d)` / `gridDim * blockDim`.
 * @param d the dimension, a constant. */
#define DUET_GLOBAL_SIZE(d)
/** A float4 from its components: `(float4)(a, b, c, d)` / `make_float4(a, b, c, d)`.
 * @param a x. @param b y. @param c z. @param d w. */
#define DUET_MAKE_FLOAT4(a, b, c, d)
/** A float2 from its components.
 * @param a x. @param b y. */
#define DUET_MAKE_FLOAT2(a, b)
/** An int4 from its components.
 * @param a x. @param b y. @param c z. @param d w. */
#define DUET_MAKE_INT4(a, b, c, d)
/** An int2 from its components.
 * @param a x. @param b y. */
#define DUET_MAKE_INT2(a, b)
/** Elements 4i..4i+3 of p (a float or int pointer) as a float4 or int4: `vload4(i, p)` / a
 * 16-byte load. p + 4i must be 16-byte aligned (CUDA requires it; OpenCL does not).
 * @param i the index in vectors. @param p the pointer. */
#define DUET_LOAD4(i, p)
/** Stores float4 or int4 v at elements 4i..4i+3 of p, aligned as for #DUET_LOAD4.
 * @param v the vector. @param i the index in vectors. @param p the pointer. */
#define DUET_STORE4(v, i, p)
/** Elements 2i, 2i+1 of p as a float2 or int2 (8-byte aligned).
 * @param i the index in vectors. @param p the pointer. */
#define DUET_LOAD2(i, p)
/** Stores float2 or int2 v at elements 2i, 2i+1 of p (8-byte aligned).
 * @param v the vector. @param i the index in vectors. @param p the pointer. */
#define DUET_STORE2(v, i, p)
/**
 * Defined to 1 where the device has sub-group (warp) shuffles: CUDA; NVIDIA's OpenCL (through
 * inline PTX, when duet compiles for an NVIDIA device it defines DUET_NVIDIA); an OpenCL device
 * with cl_khr_subgroup_shuffle and cl_khr_subgroup_shuffle_relative. Undefined elsewhere
 * (PoCL's CPU device, for one): the source then takes another path, e.g. shared memory.
 * Shuffles need every thread of the sub-group to take part, and a block whose size is a
 * multiple of #DUET_SUBGROUP_SIZE.
 */
#define DUET_HAVE_SHUFFLE 1
/** Threads in a sub-group (warp) where #DUET_HAVE_SHUFFLE: 32 on NVIDIA; the device's sub-group
 * size elsewhere. 1 where there are no shuffles. */
#define DUET_SUBGROUP_SIZE
/** The thread's lane in its sub-group, an `unsigned int` (0 where there are no shuffles). */
#define DUET_SUBGROUP_LANE()
/** Float v from the lane `delta` above this one: `__shfl_down_sync` / `sub_group_shuffle_down`
 * (where that lane is past the last: its own v on NVIDIA, undefined with OpenCL's sub-groups).
 * Only where #DUET_HAVE_SHUFFLE.
 * @param v the value. @param delta the distance. */
#define DUET_SHUFFLE_DOWN(v, delta)
/** Float v from lane `lane ^ mask`: `__shfl_xor_sync` / `sub_group_shuffle_xor`. Only where
 * #DUET_HAVE_SHUFFLE.
 * @param v the value. @param mask the lanes' xor. */
#define DUET_SHUFFLE_XOR(v, mask)
/** Float v from lane `lane`: `__shfl_sync` / `sub_group_shuffle`. Only where #DUET_HAVE_SHUFFLE.
 * @param v the value. @param lane the lane to read. */
#define DUET_SHUFFLE(v, lane)
/** #DUET_SHUFFLE_DOWN for an int (OpenCL C 1.2 has no overloading of its own functions).
 * @param v the value. @param delta the distance. */
#define DUET_SHUFFLE_DOWN_INT(v, delta)
/** #DUET_SHUFFLE_XOR for an int.
 * @param v the value. @param mask the lanes' xor. */
#define DUET_SHUFFLE_XOR_INT(v, mask)
/** #DUET_SHUFFLE for an int.
 * @param v the value. @param lane the lane to read. */
#define DUET_SHUFFLE_INT(v, lane)
/** Adds v to the int at global or shared address p atomically and returns the old value:
 * `atomic_add` / `atomicAdd`.
 * @param p the address. @param v the addend. */
#define DUET_ATOMIC_ADD_INT(p, v)
/** Adds v to the float at global address p atomically and returns the old value: a
 * compare-and-swap loop on OpenCL 1.2 (which has no float atomics) / `atomicAdd`.
 * @param p a #DUET_GLOBAL float pointer. @param v the addend. */
#define DUET_ATOMIC_ADD_FLOAT(p, v)

#elif defined(__OPENCL_VERSION__)
/* ---- OpenCL C 1.2 ------------------------------------------------------------------------ */
#define DUET_OPENCL 1
#define DUET_KERNEL __kernel
#define DUET_DEVICE_FN
#define DUET_GLOBAL __global
#define DUET_SHARED __local
#define DUET_RESTRICT restrict
#define DUET_I64 long
#define DUET_SHARED_PARAM(T, name) , __local T *name
#define DUET_SHARED_BIND(T, name)
#define DUET_BARRIER() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#if defined(DUET_NVIDIA)
/* OpenCL 1.2's mem_fence orders one work-item's accesses; LLVM's libclc compiles it for NVIDIA
 * targets to membar.cta, the work-group's fence, so the device's membar.gl follows it. */
inline void duet__membar_gl(void) { asm volatile("membar.gl;" ::: "memory"); }
#define DUET_GLOBAL_FENCE() (mem_fence(CLK_GLOBAL_MEM_FENCE), duet__membar_gl())
#else
#define DUET_GLOBAL_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif
#define DUET_THREAD_IDX(d) ((uint)get_local_id(d))
#define DUET_BLOCK_IDX(d) ((uint)get_group_id(d))
#define DUET_BLOCK_DIM(d) ((uint)get_local_size(d))
#define DUET_GRID_DIM(d) ((uint)get_num_groups(d))
#define DUET_GLOBAL_IDX(d) get_global_id(d)
#define DUET_GLOBAL_SIZE(d) get_global_size(d)
#define DUET_MAKE_FLOAT4(a, b, c, d) ((float4)((a), (b), (c), (d)))
#define DUET_MAKE_FLOAT2(a, b) ((float2)((a), (b)))
#define DUET_MAKE_INT4(a, b, c, d) ((int4)((a), (b), (c), (d)))
#define DUET_MAKE_INT2(a, b) ((int2)((a), (b)))
#define DUET_LOAD4(i, p) vload4((i), (p))
#define DUET_STORE4(v, i, p) vstore4((v), (i), (p))
#define DUET_LOAD2(i, p) vload2((i), (p))
#define DUET_STORE2(v, i, p) vstore2((v), (i), (p))
#define DUET_ATOMIC_ADD_INT(p, v) atomic_add((p), (v))
/* OpenCL 1.2 has no float atomics: swap in the sum until no other thread got in between. */
inline float duet__atomic_add_float(volatile __global float *p, float v) {
  volatile __global int *bits = (volatile __global int *)p;
  int old = *bits, seen;
  while ((seen = atomic_cmpxchg(bits, old, as_int(as_float(old) + v))) != old) old = seen;
  return as_float(old);
}
#define DUET_ATOMIC_ADD_FLOAT(p, v) duet__atomic_add_float((p), (v))
#if defined(DUET_NVIDIA)
/* NVIDIA's OpenCL has no sub-group extension, but compiles inline PTX: the warp's own
 * shuffles, with every lane taking part. A warp is 32 consecutive linear local ids, as in
 * CUDA. */
#define DUET_HAVE_SHUFFLE 1
#define DUET_SUBGROUP_SIZE 32
inline uint duet__lane(void) {
  uint lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}
/* shfl.sync's c operand: 0x1f, the whole warp as one segment, for down, bfly and idx. */
#define DUET__PTX_SHFL(mode, T, c)                                       \
  inline T duet__shfl_##mode##_##T(T v, uint b) {                        \
    T r;                                                                 \
    asm volatile("shfl.sync." #mode ".b32 %0, %1, %2, 0x1f, 0xffffffff;" \
                 : "=" c(r)                                              \
                 : c(v), "r"(b));                                        \
    return r;                                                            \
  }
DUET__PTX_SHFL(down, float, "f")
DUET__PTX_SHFL(down, int, "r")
DUET__PTX_SHFL(bfly, float, "f")
DUET__PTX_SHFL(bfly, int, "r")
DUET__PTX_SHFL(idx, float, "f")
DUET__PTX_SHFL(idx, int, "r")
#define DUET_SUBGROUP_LANE() duet__lane()
#define DUET_SHUFFLE_DOWN(v, delta) duet__shfl_down_float((v), (delta))
#define DUET_SHUFFLE_XOR(v, mask) duet__shfl_bfly_float((v), (mask))
#define DUET_SHUFFLE(v, lane) duet__shfl_idx_float((v), (lane))
#define DUET_SHUFFLE_DOWN_INT(v, delta) duet__shfl_down_int((v), (delta))
#define DUET_SHUFFLE_XOR_INT(v, mask) duet__shfl_bfly_int((v), (mask))
#define DUET_SHUFFLE_INT(v, lane) duet__shfl_idx_int((v), (lane))
#elif defined(cl_khr_subgroup_shuffle) && defined(cl_khr_subgroup_shuffle_relative)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_shuffle : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_shuffle_relative : enable
#define DUET_HAVE_SHUFFLE 1
#define DUET_SUBGROUP_SIZE get_max_sub_group_size()
#define DUET_SUBGROUP_LANE() get_sub_group_local_id()
#define DUET_SHUFFLE_DOWN(v, delta) sub_group_shuffle_down((float)(v), (delta))
#define DUET_SHUFFLE_XOR(v, mask) sub_group_shuffle_xor((float)(v), (mask))
#define DUET_SHUFFLE(v, lane) sub_group_shuffle((float)(v), (lane))
#define DUET_SHUFFLE_DOWN_INT(v, delta) sub_group_shuffle_down((int)(v), (delta))
#define DUET_SHUFFLE_XOR_INT(v, mask) sub_group_shuffle_xor((int)(v), (mask))
#define DUET_SHUFFLE_INT(v, lane) sub_group_shuffle((int)(v), (lane))
#else
#define DUET_SUBGROUP_SIZE 1
#define DUET_SUBGROUP_LANE() 0u
#endif

#elif defined(__CUDACC__) || defined(__CUDACC_RTC__)
/* ---- CUDA C++ (NVRTC) -------------------------------------------------------------------- */
#define DUET_CUDA 1
#define DUET_KERNEL extern "C" __global__
#define DUET_DEVICE_FN static __device__ __forceinline__
#define DUET_GLOBAL
#define DUET_SHARED __shared__
#define DUET_RESTRICT __restrict__
#define DUET_I64 long long
#define DUET_SHARED_PARAM(T, name)
/* One name and type for every kernel's dynamic shared memory: CUDA refuses two extern
 * __shared__ arrays of one name with different types in one program. */
#define DUET_SHARED_BIND(T, name)                                       \
  extern __shared__ __align__(16) unsigned char duet__dynamic_shared[]; \
  T *name = (T *)duet__dynamic_shared
#define DUET_BARRIER() __syncthreads()
#define DUET_GLOBAL_FENCE() __threadfence()
/* A template, not two overloads (dim3, uint3): NVRTC warns of a static function left unused. */
template <typename V>
static __device__ __forceinline__ unsigned duet__pick(V v, int d) {
  return d == 0 ? v.x : d == 1 ? v.y : v.z;
}
#define DUET_THREAD_IDX(d) duet__pick(threadIdx, (d))
#define DUET_BLOCK_IDX(d) duet__pick(blockIdx, (d))
#define DUET_BLOCK_DIM(d) duet__pick(blockDim, (d))
#define DUET_GRID_DIM(d) duet__pick(gridDim, (d))
#define DUET_GLOBAL_IDX(d) ((size_t)DUET_BLOCK_IDX(d) * DUET_BLOCK_DIM(d) + DUET_THREAD_IDX(d))
#define DUET_GLOBAL_SIZE(d) ((size_t)DUET_GRID_DIM(d) * DUET_BLOCK_DIM(d))
#define DUET_MAKE_FLOAT4(a, b, c, d) make_float4((a), (b), (c), (d))
#define DUET_MAKE_FLOAT2(a, b) make_float2((a), (b))
#define DUET_MAKE_INT4(a, b, c, d) make_int4((a), (b), (c), (d))
#define DUET_MAKE_INT2(a, b) make_int2((a), (b))
/* vload/vstore's shape: the vector type follows the element type. */
template <typename T>
struct duet__vec;
template <>
struct duet__vec<float> {
  typedef float2 v2;
  typedef float4 v4;
};
template <>
struct duet__vec<int> {
  typedef int2 v2;
  typedef int4 v4;
};
template <typename T>
static __device__ __forceinline__ typename duet__vec<T>::v4 duet__load4(size_t i, const T *p) {
  return reinterpret_cast<const typename duet__vec<T>::v4 *>(p)[i];
}
template <typename T>
static __device__ __forceinline__ typename duet__vec<T>::v2 duet__load2(size_t i, const T *p) {
  return reinterpret_cast<const typename duet__vec<T>::v2 *>(p)[i];
}
template <typename T>
static __device__ __forceinline__ void duet__store4(typename duet__vec<T>::v4 v, size_t i, T *p) {
  reinterpret_cast<typename duet__vec<T>::v4 *>(p)[i] = v;
}
template <typename T>
static __device__ __forceinline__ void duet__store2(typename duet__vec<T>::v2 v, size_t i, T *p) {
  reinterpret_cast<typename duet__vec<T>::v2 *>(p)[i] = v;
}
#define DUET_LOAD4(i, p) duet__load4((i), (p))
#define DUET_STORE4(v, i, p) duet__store4((v), (i), (p))
#define DUET_LOAD2(i, p) duet__load2((i), (p))
#define DUET_STORE2(v, i, p) duet__store2((v), (i), (p))
#define DUET_ATOMIC_ADD_INT(p, v) atomicAdd((p), (v))
#define DUET_ATOMIC_ADD_FLOAT(p, v) atomicAdd((p), (v))
#define DUET_HAVE_SHUFFLE 1
#define DUET_SUBGROUP_SIZE 32
#define DUET_SUBGROUP_LANE() \
  (((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) & 31u)
#define DUET_SHUFFLE_DOWN(v, delta) __shfl_down_sync(0xffffffffu, (float)(v), (delta))
#define DUET_SHUFFLE_XOR(v, mask) __shfl_xor_sync(0xffffffffu, (float)(v), (mask))
#define DUET_SHUFFLE(v, lane) __shfl_sync(0xffffffffu, (float)(v), (lane))
#define DUET_SHUFFLE_DOWN_INT(v, delta) __shfl_down_sync(0xffffffffu, (int)(v), (delta))
#define DUET_SHUFFLE_XOR_INT(v, mask) __shfl_xor_sync(0xffffffffu, (int)(v), (mask))
#define DUET_SHUFFLE_INT(v, lane) __shfl_sync(0xffffffffu, (int)(v), (lane))

#else
#error "duet_kernel.h is for kernel sources compiled as OpenCL C or by NVRTC (CUDA C++)"
#endif

#endif /* DUET_KERNEL_H */
