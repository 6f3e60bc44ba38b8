/* SPDX-License-Identifier: MIT */
/* CLBlast on duet's OpenCL buffers and queue. CLBlast takes row-major layouts directly. The
 * library is opened at run time; it brings its own libOpenCL.so.1, the ICD loader duet opened. */
#include "config.h"

#define CL_TARGET_OPENCL_VERSION 120
#include <clblast_c.h>

#include <stdio.h>
#include <stdlib.h>

#include "dl_table.h"
#include "peer.h"

#define CLBLAST_FUNCTIONS(X) \
  X(CLBlastSgemm)            \
  X(CLBlastSomatcopy)        \
  X(CLBlastSaxpy)            \
  X(CLBlastSsum)             \
  X(CLBlastClearCache)

static struct {
#define MEMBER(name) __typeof__(name) *name;
  CLBLAST_FUNCTIONS(MEMBER)
#undef MEMBER
} clblast;

int peer_clblast_load(char *err, size_t len) {
  static peer_lib lib;
#define SLOT(name) DUET__DL_SLOT(clblast, name)
  static const char *const names[] = {CLBLAST_FUNCTIONS(DUET__DL_NAME)};
  void *const slots[] = {CLBLAST_FUNCTIONS(SLOT)};
#undef SLOT
  return peer_dl_load(&lib, "DUET_BENCH_CLBLAST_LIBRARY", DUET_CLBLAST_SONAME, names, slots,
                      sizeof names / sizeof names[0], err, len);
}

struct peer_clblast {
  cl_command_queue queue;
};

static int fail(char *err, size_t len, const char *call, CLBlastStatusCode s) {
  snprintf(err, len, "%s failed: CLBlast status %d", call, (int)s);
  return -1;
}

int peer_clblast_open(duet_ctx *ctx, peer_clblast **out, char *err, size_t len) {
  *out = NULL;
  if (peer_clblast_load(err, len)) return -1;
  peer_clblast *p = calloc(1, sizeof *p);
  if (!p) {
    snprintf(err, len, "out of host memory");
    return -1;
  }
  p->queue = (cl_command_queue)duet_ctx_native_queue(ctx);
  *out = p;
  return 0;
}

/* CLBlast keeps its compiled kernels in a process-wide cache that holds on to the OpenCL context;
 * emptying it lets duet release the context. The queue itself is duet's. */
void peer_clblast_close(peer_clblast *p) {
  if (!p) return;
  clblast.CLBlastClearCache();
  free(p);
}

int peer_clblast_sgemm(peer_clblast *p, const peer_gemm *g, const duet_buf *a, const duet_buf *b,
                       duet_buf *c, char *err, size_t len) {
  CLBlastStatusCode s =
      clblast.CLBlastSgemm(CLBlastLayoutRowMajor, g->ta ? CLBlastTransposeYes : CLBlastTransposeNo,
                           g->tb ? CLBlastTransposeYes : CLBlastTransposeNo, g->m, g->n, g->k, 1.0f,
                           (cl_mem)duet_buf_native(a), 0, g->lda, (cl_mem)duet_buf_native(b), 0,
                           g->ldb, 0.0f, (cl_mem)duet_buf_native(c), 0, g->ldc, &p->queue, NULL);
  return s == CLBlastSuccess ? 0 : fail(err, len, "CLBlastSgemm", s);
}

int peer_clblast_transpose(peer_clblast *p, size_t rows, size_t cols, const duet_buf *in,
                           duet_buf *out, char *err, size_t len) {
  CLBlastStatusCode s = clblast.CLBlastSomatcopy(
      CLBlastLayoutRowMajor, CLBlastTransposeYes, rows, cols, 1.0f, (cl_mem)duet_buf_native(in), 0,
      cols, (cl_mem)duet_buf_native(out), 0, rows, &p->queue, NULL);
  return s == CLBlastSuccess ? 0 : fail(err, len, "CLBlastSomatcopy", s);
}

int peer_clblast_axpy(peer_clblast *p, size_t n, const duet_buf *x, duet_buf *y, char *err,
                      size_t len) {
  CLBlastStatusCode s = clblast.CLBlastSaxpy(n, 1.0f, (cl_mem)duet_buf_native(x), 0, 1,
                                             (cl_mem)duet_buf_native(y), 0, 1, &p->queue, NULL);
  return s == CLBlastSuccess ? 0 : fail(err, len, "CLBlastSaxpy", s);
}

int peer_clblast_sum(peer_clblast *p, size_t n, const duet_buf *x, duet_buf *out, char *err,
                     size_t len) {
  CLBlastStatusCode s = clblast.CLBlastSsum(n, (cl_mem)duet_buf_native(out), 0,
                                            (cl_mem)duet_buf_native(x), 0, 1, &p->queue, NULL);
  return s == CLBlastSuccess ? 0 : fail(err, len, "CLBlastSsum", s);
}
