/* SPDX-License-Identifier: MIT */
/* The baseline of `duet-bench launch`: a minimal copy kernel with duet_copy's parameters,
 * enqueued straight through the vendor API (cudaLaunchKernel, clEnqueueNDRangeKernel) on duet's
 * own queue and buffers (duet_ctx_native_queue, duet_buf_native), its arguments set once at
 * open, as a hand-written caller would. The difference between a duet call and it is what the
 * call costs the host beyond the smallest launch.
 *
 * Each backend's half is its own file, compiled only with that backend: bench_raw.cu by nvcc,
 * bench_raw_cl.c against the OpenCL headers. Calls return 0, or -1 with a message in err. The
 * copy is rows x cols, packed (ld = cols), in duet_copy's geometry: blocks of block[0] x
 * block[1] threads, each block a block[0]-square tile, each thread one column of it (a
 * grid-stride loop over rows), so that the device does the same small job. Only duet.h's API is
 * used. */
#ifndef DUET_BENCH_RAW_H
#define DUET_BENCH_RAW_H

#include <stddef.h>

#include "duet.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_raw bench_raw;

/* CUDA: makes the context's device current; it must stay current for the launches. */
int bench_raw_cuda_open(duet_ctx *ctx, const duet_buf *in, duet_buf *out, size_t rows, size_t cols,
                        const unsigned block[2], bench_raw **raw, char *err, size_t len);
int bench_raw_cuda_launch(bench_raw *raw, char *err, size_t len);
void bench_raw_cuda_close(bench_raw *raw);

/* OpenCL: the kernel is built in the context of duet's queue, for the queue's device. */
int bench_raw_cl_open(duet_ctx *ctx, const duet_buf *in, duet_buf *out, size_t rows, size_t cols,
                      const unsigned block[2], bench_raw **raw, char *err, size_t len);
int bench_raw_cl_launch(bench_raw *raw, char *err, size_t len);
void bench_raw_cl_close(bench_raw *raw);

#ifdef __cplusplus
}
#endif
#endif
