/* SPDX-License-Identifier: MIT */
/* How the CUDA backend finds the kernels nvcc compiled: each kernels_cu/<group>.cu exports one
 * table per group it serves, duet__cu_kernels_<GROUP>, with a row per kernel and tuning set,
 * ended by a NULL name.
 * A row also says which block and shared memory that instantiation assumes, so that the backend
 * can refuse a manifest whose geometry disagrees with the compiled kernel. */
#ifndef DUET_CU_REGISTRY_H
#define DUET_CU_REGISTRY_H

#include <stddef.h>

#include "manifest.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const char *name; /* as in the manifest and kernels_cl/ */
  int set;          /* the tuning set whose values it was instantiated with */
  const void *fn;   /* the host stub, for cudaLaunchKernel */
  unsigned block_x, block_y;
  size_t shared_bytes;
} duet__cu_kernel;

/* The table of a group's kernels, e.g. DUET__CU_TABLE(TRANSPOSE) is duet__cu_kernels_TRANSPOSE. */
#define DUET__CU_TABLE(group) duet__cu_kernels_##group
#define DUET__CU_DECLARE(group, ...) extern const duet__cu_kernel DUET__CU_TABLE(group)[];
DUET__GROUPS(DUET__CU_DECLARE)
#undef DUET__CU_DECLARE

#ifdef __cplusplus
}
#endif
#endif
