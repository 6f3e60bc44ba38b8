/* SPDX-License-Identifier: MIT */
/* What one kernel launch is: the description the core hands to a backend, and the record of a
 * call's launches that duet__describe hands to the tests that check which kernels a call plans.
 * Plain C with no config.h, so that nvcc can include it too. Names with duet__ are internal:
 * nothing here is installed or exported from libduet.so; programs that use it link the
 * library's objects (libduet_core.la). */
#ifndef DUET_LAUNCH_H
#define DUET_LAUNCH_H

#include <stddef.h>

#include "duet.h"
#include "manifest.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One launch, described once: CUDA maps it to <<<grid, block, shared_bytes>>> (and a cluster
 * dimension), OpenCL to global = grid * block, local = block, plus a __local argument of
 * shared_bytes. */
typedef struct {
  size_t grid[3];
  unsigned block[3];
  size_t shared_bytes;
  unsigned cluster_z; /* above 1: blocks (x, y, 0 .. cluster_z - 1) form a thread-block cluster
                         (CUDA's cluster dimension 1 x 1 x cluster_z); OpenCL has none */
  int overlap; /* 1: its blocks may be placed while the launch before it on the queue finishes
                  (CUDA's programmatic stream serialization); the kernel waits for that launch in
                  its first statement */
} duet__launch;

/* Kernel arguments, passed in the kernel's parameter order. A __local/shared scratch argument
 * is not listed: the backend derives it from duet__launch.shared_bytes and the signature. */
typedef enum {
  DUET__ARG_MEM,
  DUET__ARG_I64,
  DUET__ARG_I32,
  DUET__ARG_F32,
  DUET__ARG_GEMM
} duet__arg_kind;
typedef struct {
  duet__arg_kind kind;
  union {
    void *mem; /* a backend buffer handle (CUDA device pointer, OpenCL cl_mem) */
    long long i64;
    int i32;
    float f32;
    duet__gemm_scalars gemm;
  } u;
} duet__arg;

/* The most launches one call makes and argument list the core takes (fast's stream-K
 * kernels take 21; src/launch.c codes a list's kinds in 3 bits each of 64). */
#define DUET__MAX_STEPS 8
#define DUET__MAX_ARGS 21

/* One launch of a call, as it would have been enqueued. */
typedef struct {
  const duet__kernel_desc *kernel; /* its manifest row: name, group, signature */
  duet__launch launch;
  duet__arg args[DUET__MAX_ARGS];
  unsigned nargs;
} duet__described;

typedef struct {
  duet__described step[DUET__MAX_STEPS];
  unsigned n;
} duet__description;

/* While `into` is set (NULL unsets it), each routine called on ctx checks its arguments and
 * loads its kernels as usual, then records its launches into `into` (n counts them) instead of
 * enqueueing them: the call returns DUET_OK having run nothing. */
void duet__describe(duet_ctx *ctx, duet__description *into);

/* What the compiler made of one kernel on a context, for duet-bench's `kernels` command; -1 (or
 * a negative occupancy) where the backend cannot tell. */
typedef struct {
  const duet__kernel_desc *kernel; /* its manifest row */
  const char *group;               /* the row's group (one name may be built in several) */
  unsigned block_x, block_y;       /* the block it is launched with */
  size_t shared_bytes;             /* the launch's dynamic shared (OpenCL __local argument) bytes */
  long static_shared_bytes;        /* shared/local memory the kernel declares itself */
  int registers;                   /* per thread (CUDA) */
  long private_bytes;              /* per thread: CUDA local memory (spills), OpenCL private */
  unsigned max_threads;            /* the most threads a block of this kernel may have */
  int blocks_per_unit;             /* resident blocks per multiprocessor, from the occupancy API */
  double occupancy;                /* resident warps / the multiprocessor's maximum, 0 to 1 */
  int code_version; /* CUDA: the PTX architecture its code was compiled from (90: sm_90) */
} duet__kernel_attrs;

/* Loads kernel k (0 <= k < DUET__K_COUNT; OpenCL builds its group) on ctx and describes it.
 * DUET_OK, or the load's failure (DUET_EBUILD where the kernel is not built for the context's
 * tuning set), with out->kernel set; DUET_EINVAL for a bad k or NULL. */
int duet__kernel_attrs_get(duet_ctx *ctx, int k, duet__kernel_attrs *out);

#ifdef __cplusplus
}
#endif
#endif
