/* SPDX-License-Identifier: MIT */
/* duet's CUDA kernels of the groups that `duet-bench launch` replays, compiled again into
 * duet-bench from the same files, with the same templates and nvcc flags. libduet links its own
 * copy of the static CUDA runtime, and a kernel is launchable only through the runtime that
 * registered it: the bench's cudaLaunchKernel needs kernels of its own. Their tables get the
 * bench's names (kernels_cu/registry.h). The fast groups are left out: gemm_fast.cu alone takes
 * over a minute to compile, and a 1 x 1 sgemm runs the coalesced kernel of gemm.cu. */
#define DUET__CU_TABLE(group) bench_raw_kernels_##group
#include "copy.cu"
#include "gemm.cu"
#include "transpose.cu"

#include <cstring>

#include "bench_raw.h"

extern "C" const void *bench_raw_cuda_kernel(const char *name, int set, unsigned block[2],
                                             size_t *shared_bytes) {
  static const duet__cu_kernel *const tables[] = {DUET__CU_TABLE(COPY), DUET__CU_TABLE(TRANSPOSE),
                                                  DUET__CU_TABLE(GEMM)};
  for (const duet__cu_kernel *t : tables)
    for (const duet__cu_kernel *r = t; r->name; r++)
      if (r->set == set && std::strcmp(r->name, name) == 0) {
        block[0] = r->block_x;
        block[1] = r->block_y;
        *shared_bytes = r->shared_bytes;
        return r->fn;
      }
  return nullptr;
}
