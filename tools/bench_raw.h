/* SPDX-License-Identifier: MIT */
/* The raw launches of `duet-bench launch`, straight through the vendor API (cudaLaunchKernel,
 * clEnqueueNDRangeKernel) on duet's own queue and buffers, with their arguments set once at
 * open, as a hand-written caller would:
 * - the baseline: a minimal copy kernel with duet_copy's parameters. The difference between a
 *   duet call and it is what the call costs the host beyond the smallest launch.
 * - the same kernel as a duet call: the one launch that duet__describe reported for the call
 *   (src/duet_launch.h), its kernel, geometry and arguments. The difference between the call and
 *   it is duet's own host work; what is left of the difference to the baseline is the driver's,
 *   for a larger kernel.
 *
 * Each backend's half is its own file, compiled only with that backend: bench_raw.cu by nvcc
 * (with bench_raw_kernels.cu, the bench's own copy of duet's kernels), bench_raw_cl.c against
 * the OpenCL headers. Calls return 0, or -1 with a message in err. The baseline copy is
 * rows x cols, packed (ld = cols), in duet_copy's geometry: blocks of block[0] x block[1]
 * threads, each block a block[0]-square tile, each thread one column of it (a grid-stride loop
 * over rows), so that the device does the same small job. */
#ifndef DUET_BENCH_RAW_H
#define DUET_BENCH_RAW_H

#include <stddef.h>

#include "duet.h"
#include "duet_launch.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_raw bench_raw;

/* The baseline's arguments, duet_copy's: rows, cols, in, ld_in, out, ld_out (packed). */
#define BENCH_RAW_COPY_SIG "llmlml"
static inline void bench_raw_copy_args(const duet_buf *in, duet_buf *out, size_t rows, size_t cols,
                                       duet__arg args[6]) {
  for (int i = 0; i < 6; i++) {
    args[i].kind = BENCH_RAW_COPY_SIG[i] == 'm' ? DUET__ARG_MEM : DUET__ARG_I64;
    args[i].u.i64 = (long long)cols;
  }
  args[0].u.i64 = (long long)rows;
  args[2].u.mem = duet_buf_native(in);
  args[4].u.mem = duet_buf_native(out);
}

/* CUDA: makes the context's device current; it must stay current for the launches. */
int bench_raw_cuda_open(duet_ctx *ctx, const duet_buf *in, duet_buf *out, size_t rows, size_t cols,
                        const unsigned block[2], bench_raw **raw, char *err, size_t len);
/* The bench's copy of kernel d->kernel for the context's tuning set; 1 (err says why) where the
 * bench has none. */
int bench_raw_cuda_open_same(duet_ctx *ctx, const duet__described *d, bench_raw **raw, char *err,
                             size_t len);
int bench_raw_cuda_launch(bench_raw *raw, char *err, size_t len);
void bench_raw_cuda_close(bench_raw *raw);
/* bench_raw_kernels.cu: the bench's copy of duet's CUDA kernel `name` of tuning set `set`, with
 * the block and shared bytes it was compiled for; NULL where the bench has none. */
const void *bench_raw_cuda_kernel(const char *name, int set, unsigned block[2],
                                  size_t *shared_bytes);

/* OpenCL: the baseline is built in the context of duet's queue, for the queue's device; the
 * same kernel is created from the program duet built it in (duet__described.native). */
int bench_raw_cl_open(duet_ctx *ctx, const duet_buf *in, duet_buf *out, size_t rows, size_t cols,
                      const unsigned block[2], bench_raw **raw, char *err, size_t len);
int bench_raw_cl_open_same(duet_ctx *ctx, const duet__described *d, bench_raw **raw, char *err,
                           size_t len);
int bench_raw_cl_launch(bench_raw *raw, char *err, size_t len);
void bench_raw_cl_close(bench_raw *raw);

#ifdef __cplusplus
}
#endif
#endif
