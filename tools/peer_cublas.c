/* SPDX-License-Identifier: MIT */
/* cuBLAS on duet's CUDA buffers and stream. duet is row-major and cuBLAS column-major: a
 * row-major matrix is its own transpose seen column-major, so row-major C = A*B is computed as
 * column-major C^T = B^T * A^T (operands swapped, m and n swapped) and nothing is copied. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "dl_table.h"
#include "peer.h"

/* Each name may be a macro of cublas_v2.h (cublasCreate is cublasCreate_v2): the table's members
 * and the symbols looked up are the names after expansion, the ones the library exports. */
#define CUBLAS_FUNCTIONS(X) \
  X(cublasCreate)           \
  X(cublasDestroy)          \
  X(cublasSetStream)        \
  X(cublasSetMathMode)      \
  X(cublasSgemm)            \
  X(cublasSgeam)            \
  X(cublasSaxpy)            \
  X(cublasGetStatusName)

static struct {
#define MEMBER(name) __typeof__(name) *name;
  CUBLAS_FUNCTIONS(MEMBER)
#undef MEMBER
} cublas;

int peer_cublas_load(char *err, size_t len) {
  static peer_lib lib;
#define SLOT(name) DUET__DL_SLOT(cublas, name)
  static const char *const names[] = {CUBLAS_FUNCTIONS(DUET__DL_NAME)};
  void *const slots[] = {CUBLAS_FUNCTIONS(SLOT)};
#undef SLOT
  return peer_dl_load(&lib, "DUET_BENCH_CUBLAS_LIBRARY", DUET_CUBLAS_SONAME, names, slots,
                      sizeof names / sizeof names[0], err, len);
}

struct peer_cublas {
  cublasHandle_t handle;
  int device;
};

static int fail(char *err, size_t len, const char *call, cublasStatus_t s) {
  snprintf(err, len, "%s failed: %s (%d)", call, cublas.cublasGetStatusName(s), (int)s);
  return -1;
}

static int fits_int(size_t a, size_t b, size_t c, char *err, size_t len) {
  if (a <= INT_MAX && b <= INT_MAX && c <= INT_MAX) return 1;
  snprintf(err, len, "cuBLAS takes int dimensions: %zu x %zu x %zu is too large", a, b, c);
  return 0;
}

/* A handle belongs to the device that was current when it was made, and must be used with that
 * device current; duet makes its own device current before each of its calls, so with several
 * devices the current one may be another context's. */
static int use_device(int device, char *err, size_t len) {
  cudaError_t ce = cudaSetDevice(device);
  if (ce == cudaSuccess) return 0;
  snprintf(err, len, "cudaSetDevice(%d) failed: %s", device, cudaGetErrorString(ce));
  return -1;
}

int peer_cublas_open(duet_ctx *ctx, peer_cublas **out, char *err, size_t len) {
  *out = NULL;
  if (peer_cublas_load(err, len)) return -1;
  if (use_device(duet_ctx_device(ctx), err, len)) return -1;
  peer_cublas *p = calloc(1, sizeof *p);
  if (!p) {
    snprintf(err, len, "out of host memory");
    return -1;
  }
  p->device = duet_ctx_device(ctx);
  cublasStatus_t s = cublas.cublasCreate(&p->handle);
  if (s != CUBLAS_STATUS_SUCCESS) {
    free(p);
    return fail(err, len, "cublasCreate", s);
  }
  s = cublas.cublasSetStream(p->handle, (cudaStream_t)duet_ctx_native_queue(ctx));
  if (s != CUBLAS_STATUS_SUCCESS) {
    peer_cublas_close(p);
    return fail(err, len, "cublasSetStream", s);
  }
  *out = p;
  return 0;
}

void peer_cublas_close(peer_cublas *p) {
  if (!p) return;
  cudaSetDevice(p->device);
  cublas.cublasDestroy(p->handle);
  free(p);
}

/* Column-major, a row-major operand stored untransposed is already op(X)^T, and one stored
 * transposed is op(X): hence op = T for a transposed operand, and the leading dimensions pass
 * through unchanged. */
int peer_cublas_sgemm(peer_cublas *p, int tf32, const peer_gemm *g, const duet_buf *a,
                      const duet_buf *b, duet_buf *c, char *err, size_t len) {
  if (!fits_int(g->m, g->n, g->k, err, len) || !fits_int(g->lda, g->ldb, g->ldc, err, len) ||
      use_device(p->device, err, len))
    return -1;
  /* Pedantic math keeps every product in FP32, like duet's kernels; TF32 is a separate row. */
  cublasStatus_t s =
      cublas.cublasSetMathMode(p->handle, tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_PEDANTIC_MATH);
  if (s != CUBLAS_STATUS_SUCCESS) return fail(err, len, "cublasSetMathMode", s);
  const float alpha = 1.0f, beta = 0.0f;
  s = cublas.cublasSgemm(p->handle, g->tb ? CUBLAS_OP_T : CUBLAS_OP_N,
                         g->ta ? CUBLAS_OP_T : CUBLAS_OP_N, (int)g->n, (int)g->m, (int)g->k, &alpha,
                         (const float *)duet_buf_native(b), (int)g->ldb,
                         (const float *)duet_buf_native(a), (int)g->lda, &beta,
                         (float *)duet_buf_native(c), (int)g->ldc);
  return s == CUBLAS_STATUS_SUCCESS ? 0 : fail(err, len, "cublasSgemm", s);
}

int peer_cublas_transpose(peer_cublas *p, size_t rows, size_t cols, const duet_buf *in,
                          duet_buf *out, char *err, size_t len) {
  if (!fits_int(rows, cols, 1, err, len) || use_device(p->device, err, len)) return -1;
  cublasStatus_t s = cublas.cublasSetMathMode(p->handle, CUBLAS_PEDANTIC_MATH);
  if (s != CUBLAS_STATUS_SUCCESS) return fail(err, len, "cublasSetMathMode", s);
  /* Column-major, `in` is cols x rows (ld cols) and `out` rows x cols (ld rows): out = in^T.
   * With beta = 0, B is not read; passing C as B with ldb == ldc and no transpose is the
   * in-place form cuBLAS documents as valid. */
  const float alpha = 1.0f, beta = 0.0f;
  float *o = (float *)duet_buf_native(out);
  s = cublas.cublasSgeam(p->handle, CUBLAS_OP_T, CUBLAS_OP_N, (int)rows, (int)cols, &alpha,
                         (const float *)duet_buf_native(in), (int)cols, &beta, o, (int)rows, o,
                         (int)rows);
  return s == CUBLAS_STATUS_SUCCESS ? 0 : fail(err, len, "cublasSgeam", s);
}

int peer_cublas_axpy(peer_cublas *p, size_t n, const duet_buf *x, duet_buf *y, char *err,
                     size_t len) {
  if (!fits_int(n, 1, 1, err, len) || use_device(p->device, err, len)) return -1;
  const float alpha = 1.0f;
  cublasStatus_t s =
      cublas.cublasSaxpy(p->handle, (int)n, &alpha, (const float *)duet_buf_native(x), 1,
                         (float *)duet_buf_native(y), 1);
  return s == CUBLAS_STATUS_SUCCESS ? 0 : fail(err, len, "cublasSaxpy", s);
}
