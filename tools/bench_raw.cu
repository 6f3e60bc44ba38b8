/* SPDX-License-Identifier: MIT */
/* The CUDA half of the baseline (bench_raw.h): the minimal copy kernel below, compiled into
 * duet-bench and launched with cudaLaunchKernel, the same call duet's CUDA backend makes, on
 * duet's stream. */
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
  dim3 grid, block;
  long long rows, cols, ld_in, ld_out;
  const float *in;
  float *out;
  void *argv[6]; /* the addresses of the six above, as cudaLaunchKernel takes them */
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

extern "C" int bench_raw_cuda_open(duet_ctx *ctx, const duet_buf *in, duet_buf *out, size_t rows,
                                   size_t cols, const unsigned block[2], bench_raw **raw, char *err,
                                   size_t len) {
  bench_raw *r = *raw = raw_new(ctx, err, len);
  if (!r) return -1;
  r->block = dim3(block[0], block[1], 1);
  r->grid = dim3((unsigned)((cols + block[0] - 1) / block[0]),
                 (unsigned)((rows + block[0] - 1) / block[0]), 1);
  r->rows = (long long)rows;
  r->cols = r->ld_in = r->ld_out = (long long)cols;
  r->in = (const float *)duet_buf_native(in);
  r->out = (float *)duet_buf_native(out);
  void *argv[6] = {&r->rows, &r->cols, &r->in, &r->ld_in, &r->out, &r->ld_out};
  memcpy(r->argv, argv, sizeof argv);
  return 0;
}

extern "C" int bench_raw_cuda_launch(bench_raw *r, char *err, size_t len) {
  cudaError_t e =
      cudaLaunchKernel((const void *)bench_raw_copy, r->grid, r->block, r->argv, 0, r->stream);
  return e == cudaSuccess ? 0 : fail(err, len, "cudaLaunchKernel", e);
}

extern "C" void bench_raw_cuda_close(bench_raw *r) { free(r); }
