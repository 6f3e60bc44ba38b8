/* SPDX-License-Identifier: MIT */
/* The libraries duet-bench compares against. Each runs on duet's own buffers and in duet's own
 * queue (through duet_buf_native and duet_ctx_native_queue), so duet's events time it exactly as
 * they time duet's kernels. All calls only enqueue; they return 0, or -1 with a message in err.
 * Layouts are duet's: row-major; the transposes and copies take packed matrices (ld = the number
 * of columns), sgemm the transposes and leading dimensions of peer_gemm. */
#ifndef DUET_BENCH_PEER_H
#define DUET_BENCH_PEER_H

#include <stddef.h>

#include "duet.h"

/* Peers are opened at run time (peer_dl.c), once: the library $env names, else soname, and
 * names[i] resolved into the function pointer at slots[i]. 0, or -1 with the file and dlerror()
 * in err when it cannot be opened or lacks a name; the same answer on every call. */
typedef struct {
  int tried;
  char error[512];
} peer_lib;
int peer_dl_load(peer_lib *lib, const char *env, const char *soname, const char *const *names,
                 void *const *slots, size_t n, char *err, size_t len);
/* The names and slots: DUET__DL_NAME and DUET__DL_SLOT of backends/dl_table.h. */

/* A row-major sgemm's shape, as duet_sgemm takes it: C (m x n, ldc) = op(A) (m x k) op(B)
 * (k x n); A is stored m x k (k x m when ta) with leading dimension lda, B likewise. */
typedef struct {
  int ta, tb;
  size_t m, n, k, lda, ldb, ldc;
} peer_gemm;

#ifdef DUET_HAVE_CUBLAS
/* Opens cuBLAS (DUET_CUBLAS_SONAME, or $DUET_BENCH_CUBLAS_LIBRARY) on the first call and
 * resolves its functions; 0, or -1 with the reason in err, the same on every call. Every other
 * peer_cublas_ call needs it to have succeeded. */
int peer_cublas_load(char *err, size_t len);
typedef struct peer_cublas peer_cublas;
int peer_cublas_open(duet_ctx *ctx, peer_cublas **out, char *err, size_t len);
void peer_cublas_close(peer_cublas *p);
/* C = op(A) op(B) in FP32, without TF32 unless tf32. */
int peer_cublas_sgemm(peer_cublas *p, int tf32, const peer_gemm *g, const duet_buf *a,
                      const duet_buf *b, duet_buf *c, char *err, size_t len);
/* out (cols x rows) = in^T (rows x cols), with cublasSgeam. */
int peer_cublas_transpose(peer_cublas *p, size_t rows, size_t cols, const duet_buf *in,
                          duet_buf *out, char *err, size_t len);
/* y += x over n floats (cublasSaxpy, alpha 1): reads two arrays and writes one, like vadd. */
int peer_cublas_axpy(peer_cublas *p, size_t n, const duet_buf *x, duet_buf *y, char *err,
                     size_t len);
#endif

#ifdef DUET_HAVE_CUDA
/* CUB's DeviceReduce::Sum (tools/peer_cub.cu, compiled in with the CUDA half): out[0] = the sum
 * of in[0, n). */
int peer_cub_sum(duet_ctx *ctx, size_t n, const duet_buf *in, duet_buf *out, char *err, size_t len);
#endif

#ifdef DUET_HAVE_CLBLAST
/* As peer_cublas_load: DUET_CLBLAST_SONAME, or $DUET_BENCH_CLBLAST_LIBRARY. */
int peer_clblast_load(char *err, size_t len);
typedef struct peer_clblast peer_clblast;
int peer_clblast_open(duet_ctx *ctx, peer_clblast **out, char *err, size_t len);
void peer_clblast_close(peer_clblast *p);
int peer_clblast_sgemm(peer_clblast *p, const peer_gemm *g, const duet_buf *a, const duet_buf *b,
                       duet_buf *c, char *err, size_t len);
/* With CLBlastSomatcopy. */
int peer_clblast_transpose(peer_clblast *p, size_t rows, size_t cols, const duet_buf *in,
                           duet_buf *out, char *err, size_t len);
/* y += x over n floats (CLBlastSaxpy, alpha 1). */
int peer_clblast_axpy(peer_clblast *p, size_t n, const duet_buf *x, duet_buf *y, char *err,
                      size_t len);
/* out[0] = the sum of x[0, n) (CLBlastSsum). */
int peer_clblast_sum(peer_clblast *p, size_t n, const duet_buf *x, duet_buf *out, char *err,
                     size_t len);
#endif

#endif
