/* SPDX-License-Identifier: MIT */
/* CUB's DeviceReduce::Sum on duet's CUDA buffers and stream: the reduction's vendor peer. CUB
 * ships with the CUDA toolkit as headers, so this is compiled with the bench's CUDA half rather
 * than opened at run time. Its temporary storage is allocated once per device and size and kept,
 * as duet keeps its partial sums in the context's arena. */
#include <stdio.h>

#include <cub/device/device_reduce.cuh>

#include "duet.h"

namespace {
struct scratch {
  void *mem = nullptr;
  size_t bytes = 0;
  int device = -1;
} tmp;

int fail(char *err, size_t len, const char *call, cudaError_t e) {
  snprintf(err, len, "%s failed: %s", call, cudaGetErrorString(e));
  return -1;
}
}  // namespace

/* out[0] = the sum of in[0, n), enqueued on ctx's stream; 0, or -1 with the reason in err. */
extern "C" int peer_cub_sum(duet_ctx *ctx, size_t n, const duet_buf *in, duet_buf *out, char *err,
                            size_t len) {
  const int device = duet_ctx_device(ctx);
  cudaError_t e = cudaSetDevice(device);
  if (e != cudaSuccess) return fail(err, len, "cudaSetDevice", e);
  cudaStream_t stream = (cudaStream_t)duet_ctx_native_queue(ctx);
  const float *x = (const float *)duet_buf_native(in);
  float *y = (float *)duet_buf_native(out);
  const long long items = (long long)n;
  size_t need = 0;
  if ((e = cub::DeviceReduce::Sum(nullptr, need, x, y, items, stream)) != cudaSuccess)
    return fail(err, len, "cub::DeviceReduce::Sum (size query)", e);
  if (need > tmp.bytes || device != tmp.device) {
    if (tmp.mem) {
      cudaSetDevice(tmp.device);
      cudaDeviceSynchronize(); /* the old storage may still be in use */
      cudaFree(tmp.mem);
      cudaSetDevice(device);
    }
    tmp = scratch();
    if ((e = cudaMalloc(&tmp.mem, need ? need : 1)) != cudaSuccess)
      return fail(err, len, "cudaMalloc (CUB's temporary storage)", e);
    tmp.bytes = need;
    tmp.device = device;
  }
  if ((e = cub::DeviceReduce::Sum(tmp.mem, need, x, y, items, stream)) != cudaSuccess)
    return fail(err, len, "cub::DeviceReduce::Sum", e);
  return 0;
}
