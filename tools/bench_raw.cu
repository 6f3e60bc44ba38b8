/* SPDX-License-Identifier: MIT */
/* The CUDA half of the raw launches (bench_raw.h): kernels compiled into duet-bench, launched
 * with cudaLaunchKernel, the same call duet's CUDA backend makes, on duet's stream: the minimal
 * copy kernel below, or the bench's copy of the kernel a duet call launches
 * (bench_raw_kernels.cu). */
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_runtime.h>

#include "bench_raw.h"

/* duet_copy's parameter list, so that both launches pass the same bytes of arguments. */
__global__ void bench_raw_copy(long long rows, long long cols, const float *__restrict__ in,
                               long long ld_in, float *__restrict__ out, long long ld_out) {
  const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  for (long long r = (long long)blockIdx.y * blockDim.y + threadIdx.y; r < rows && c < cols;
       r += (long long)gridDim.y * blockDim.y)
    out[r * ld_out + c] = in[r * ld_in + c];
}

struct bench_raw {
  cudaStream_t stream;
  const void *fn;
  dim3 grid, block;
  size_t shared_bytes;
  duet__arg args[DUET__MAX_ARGS];
  void *argv[DUET__MAX_ARGS]; /* &args[i].u, as cudaLaunchKernel takes them */
};

static int fail(char *err, size_t len, const char *call, cudaError_t e) {
  snprintf(err, len, "%s failed: %s", call, cudaGetErrorString(e));
  return -1;
}

/* A launch on the context's stream, its device made current; NULL with err filled. */
static bench_raw *raw_new(duet_ctx *ctx, char *err, size_t len) {
  cudaError_t e = cudaSetDevice(duet_ctx_device(ctx));
  if (e != cudaSuccess) {
    fail(err, len, "cudaSetDevice", e);
    return NULL;
  }
  bench_raw *r = (bench_raw *)calloc(1, sizeof *r);
  if (!r) {
    snprintf(err, len, "out of host memory");
    return NULL;
  }
  r->stream = (cudaStream_t)duet_ctx_native_queue(ctx);
  return r;
}

static void set_args(bench_raw *r, const duet__arg *args, unsigned n) {
  for (unsigned i = 0; i < n; i++) {
    r->args[i] = args[i];
    r->argv[i] = &r->args[i].u;
  }
}

extern "C" int bench_raw_cuda_open(duet_ctx *ctx, const duet_buf *in, duet_buf *out, size_t rows,
                                   size_t cols, const unsigned block[2], bench_raw **raw, char *err,
                                   size_t len) {
  bench_raw *r = *raw = raw_new(ctx, err, len);
  if (!r) return -1;
  r->fn = (const void *)bench_raw_copy;
  r->block = dim3(block[0], block[1], 1);
  r->grid = dim3((unsigned)((cols + block[0] - 1) / block[0]),
                 (unsigned)((rows + block[0] - 1) / block[0]), 1);
  duet__arg args[6];
  bench_raw_copy_args(in, out, rows, cols, args);
  set_args(r, args, 6);
  return 0;
}

/* The index of the context's tuning set, as the kernels were instantiated over them. */
static int tuning_set(const duet_ctx *ctx) {
  const char *name;
  for (int i = 0; (name = duet_tuning_set_name(i)) != NULL; i++)
    if (std::strcmp(name, duet_ctx_tuning(ctx)) == 0) return i;
  return -1;
}

extern "C" int bench_raw_cuda_open_same(duet_ctx *ctx, const duet__described *d, bench_raw **raw,
                                        char *err, size_t len) {
  *raw = NULL;
  unsigned block[2];
  size_t shared;
  const int set = tuning_set(ctx);
  const void *fn = bench_raw_cuda_kernel(d->kernel->name, set, block, &shared);
  if (!fn) {
    snprintf(err, len, "duet-bench has no copy of %s for tuning set %s", d->kernel->name,
             duet_ctx_tuning(ctx));
    return 1;
  }
  if (block[0] != d->launch.block[0] || block[1] != d->launch.block[1] ||
      shared != d->launch.shared_bytes) {
    snprintf(err, len,
             "duet-bench's %s was compiled for %ux%u blocks with %zu shared bytes, but duet "
             "launches %ux%u with %zu",
             d->kernel->name, block[0], block[1], shared, d->launch.block[0], d->launch.block[1],
             d->launch.shared_bytes);
    return -1;
  }
  bench_raw *r = raw_new(ctx, err, len);
  if (!r) return -1;
  /* Beyond 48 KiB a kernel must opt in, as duet's backend does for its own copy. */
  cudaError_t e = cudaSuccess;
  if (shared > 48 * 1024)
    e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared);
  if (e != cudaSuccess) {
    free(r);
    return fail(err, len, "cudaFuncSetAttribute", e);
  }
  r->fn = fn;
  r->grid =
      dim3((unsigned)d->launch.grid[0], (unsigned)d->launch.grid[1], (unsigned)d->launch.grid[2]);
  r->block = dim3(d->launch.block[0], d->launch.block[1], d->launch.block[2]);
  r->shared_bytes = d->launch.shared_bytes;
  set_args(r, d->args, d->nargs);
  *raw = r;
  return 0;
}

extern "C" int bench_raw_cuda_launch(bench_raw *r, char *err, size_t len) {
  cudaError_t e = cudaLaunchKernel(r->fn, r->grid, r->block, r->argv, r->shared_bytes, r->stream);
  return e == cudaSuccess ? 0 : fail(err, len, "cudaLaunchKernel", e);
}

extern "C" void bench_raw_cuda_close(bench_raw *r) { free(r); }
