/* SPDX-License-Identifier: MIT */
/* Every bad argument: the documented status, a fresh last_error, no buffer touched, and a
 * context that still computes correctly afterwards. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
enum { R = 20, C = 13, M = 5, N = 6, K = 7, WATCH_MAX = 24, HOST_WATCH = 8 };
/* (WRAP - 1) * 4 and WRAP * sizeof(float) are both 2^64 + small: size arithmetic that wraps
 * instead of failing describes a matrix of a few bytes, which every small buffer holds. */
#define WRAP (SIZE_MAX / 4 + 2)

typedef struct {
  const harness_dev *dev;
  duet_ctx *ctx, *ctx2; /* ctx2: a second context on the same device */
  harness_mat *watch[WATCH_MAX];
  size_t n_watch;
  const float *host_watch; /* HOST_WATCH floats of -1 that a rejected read must not touch */
  harness_rng rng;
} fixture;

/* Before each bad call, a known failure is left on the context(s) where the call must record
 * its own; a last_error that still reads the same shows the call recorded nothing. A NULL site
 * is the thread's record for failures without a context. */
typedef struct {
  const duet_ctx *site[2];
  char was[2][256];
} planted;

/* Two kinds of planted failure: a call that fails just like the first leaves the same text,
 * and is then repeated over the second. */
static void plant(planted *p, const duet_ctx *a, const duet_ctx *b, int kind) {
  p->site[0] = a;
  p->site[1] = b;
  for (int i = 0; i < 2; i++) {
    int n;
    if (p->site[i] && !kind)
      duet_ctx_info(p->site[i], NULL);
    else if (p->site[i])
      duet_event_create((duet_ctx *)p->site[i], NULL);
    else
      duet_device_count(kind ? (duet_backend)99 : DUET_BACKEND_AUTO, &n);
    snprintf(p->was[i], sizeof p->was[i], "%s", duet_ctx_last_error(p->site[i]));
  }
}

static int fresh(const planted *p) {
  int any = 0;
  for (int i = 0; i < 2; i++) {
    const char *now = duet_ctx_last_error(p->site[i]);
    any |= *now && strncmp(now, p->was[i], sizeof p->was[i] - 1) != 0;
  }
  return any;
}

static void judge(fixture *f, harness_case *c, const planted *p, int want, int status) {
  harness_expect_status(c, status, want, p->site[0], "the call");
  if (want != DUET_OK)
    harness_expect(c, fresh(p), "last_error was not set: \"%s\"", duet_ctx_last_error(p->site[0]));
  char name[32];
  for (size_t i = 0; i < f->n_watch; i++) {
    snprintf(name, sizeof name, "buffer %zu", i);
    harness_mat_check_unchanged(c, f->watch[i], name);
  }
  for (int i = 0; f->host_watch && i < HOST_WATCH; i++)
    harness_expect(c, f->host_watch[i] == -1.0f, "host dst[%d] was written", i);
}

#define REJECT2(f, want, site_a, site_b, call, ...) \
  do {                                              \
    harness_case c_;                                \
    planted p_;                                     \
    harness_case_begin(&c_, (f)->dev, __VA_ARGS__); \
    plant(&p_, site_a, site_b, 0);                  \
    int st_ = (call);                               \
    if ((want) != DUET_OK && !fresh(&p_)) {         \
      plant(&p_, site_a, site_b, 1);                \
      st_ = (call);                                 \
    }                                               \
    judge(f, &c_, &p_, want, st_);                  \
    harness_case_end(&c_);                          \
  } while (0)
#define REJECT(f, want, site, call, ...) REJECT2(f, want, site, site, call, __VA_ARGS__)

/* Adds a matrix of random contents to those that every bad call must leave alone; len 0 means
 * the usual span + tail. It is listed even when it failed, so that unwatch() frees it. */
static int watch(fixture *f, harness_mat *m, duet_ctx *ctx, size_t rows, size_t cols, size_t ld,
                 size_t len) {
  int st = len ? harness_mat_init_len(m, ctx, rows, cols, ld, len)
               : harness_mat_init(m, ctx, rows, cols, ld);
  if (!st) st = harness_mat_fill(m, HARNESS_FILL_BITS, &f->rng);
  f->watch[f->n_watch++] = m;
  if (!st) return 1;
  harness_case c;
  harness_case_begin(&c, f->dev, "fixture %zux%zu ld=%zu", rows, cols, ld);
  harness_expect_status(&c, st, DUET_OK, ctx, "harness_mat_init");
  harness_case_end(&c);
  return 0;
}

static void unwatch(fixture *f, size_t n0) {
  while (f->n_watch > n0) harness_mat_free(f->watch[--f->n_watch]);
}

/* ---- transpose and copy ---------------------------------------------------------------------- */
static void move_errors(fixture *f, int v /* -1: copy */) {
  const int copy = v < 0;
  const size_t orows = copy ? R : C, ocols = copy ? C : R, ldi = C + 2, ldo = ocols + 1;
  harness_mat in, out, in_small, out_small, sq, in2, out2;
  const size_t n0 = f->n_watch;
  int ok = watch(f, &in, f->ctx, R, C, ldi, 0) & watch(f, &out, f->ctx, orows, ocols, ldo, 0) &
           watch(f, &in_small, f->ctx, R, C, ldi, harness_span(R, C, ldi) - 1) &
           watch(f, &out_small, f->ctx, orows, ocols, ldo, harness_span(orows, ocols, ldo) - 1) &
           watch(f, &sq, f->ctx, R, R, R, 0);
  if (f->ctx2)
    ok &= watch(f, &in2, f->ctx2, R, C, ldi, 0) & watch(f, &out2, f->ctx2, orows, ocols, ldo, 0);
  if (!ok) {
    unwatch(f, n0);
    return;
  }

  const char *rt = copy ? "copy" : "transpose", *vn = copy ? "-" : duet_transpose_variant_name(v);
  duet_ctx *x = f->ctx;
  /* One call shape for both routines; the variant is ignored by copy. */
#define MOVE(ctx, rows, cols, i, li, o, lo)                    \
  (copy ? duet_copy(ctx, rows, cols, (i).buf, li, (o).buf, lo) \
        : duet_transpose(ctx, (duet_transpose_variant)v, rows, cols, (i).buf, li, (o).buf, lo))
  REJECT(f, DUET_EINVAL, NULL, MOVE(NULL, R, C, in, ldi, out, ldo), "%s %s ctx=NULL", rt, vn);
  const harness_mat none = {0}; /* its buf is NULL */
  REJECT(f, DUET_EINVAL, x, MOVE(x, R, C, none, ldi, out, ldo), "%s %s in=NULL", rt, vn);
  REJECT(f, DUET_EINVAL, x, MOVE(x, R, C, in, ldi, none, ldo), "%s %s out=NULL", rt, vn);
  REJECT(f, DUET_EINVAL, x, MOVE(x, R, C, in, C - 1, out, ldo), "%s %s ld_in<cols", rt, vn);
  REJECT(f, DUET_EINVAL, x, MOVE(x, R, C, in, 0, out, ldo), "%s %s ld_in=0", rt, vn);
  REJECT(f, DUET_EINVAL, x, MOVE(x, R, C, in, ldi, out, ocols - 1), "%s %s ld_out<%s", rt, vn,
         copy ? "cols" : "rows");
  REJECT(f, DUET_EINVAL, x, MOVE(x, R, C, in_small, ldi, out, ldo), "%s %s in-too-small", rt, vn);
  REJECT(f, DUET_EINVAL, x, MOVE(x, R, C, in, ldi, out_small, ldo), "%s %s out-too-small", rt, vn);
  REJECT(f, DUET_EINVAL, x, MOVE(x, SIZE_MAX / 2, 4, in, SIZE_MAX / 2, out, SIZE_MAX / 2),
         "%s %s overflow huge", rt, vn);
  REJECT(f, DUET_EINVAL, x, MOVE(x, WRAP, 1, in, 4, out, copy ? 4 : WRAP),
         "%s %s overflow rows*ld-wraps", rt, vn);
  REJECT(f, DUET_EINVAL, x, MOVE(x, 1, WRAP, in, WRAP, out, copy ? WRAP : 4),
         "%s %s overflow bytes-wrap", rt, vn);
  REJECT(f, DUET_EINVAL, x, MOVE(x, R, R, sq, R, sq, R), "%s %s in==out", rt, vn);
  if (f->ctx2) {
    REJECT(f, DUET_EINVAL, x, MOVE(x, R, C, in2, ldi, out, ldo), "%s %s in-of-other-ctx", rt, vn);
    REJECT(f, DUET_EINVAL, x, MOVE(x, R, C, in, ldi, out2, ldo), "%s %s out-of-other-ctx", rt, vn);
  }
  REJECT(f, DUET_OK, x, MOVE(x, 0, C, in, ldi, out, ldo), "%s %s rows=0 no-op", rt, vn);
  REJECT(f, DUET_OK, x, MOVE(x, R, 0, in, ldi, out, ldo), "%s %s cols=0 no-op", rt, vn);
#undef MOVE
  unwatch(f, n0);
}

static void variant_errors(fixture *f) {
  harness_mat in, out;
  const size_t n0 = f->n_watch;
  int ok = watch(f, &in, f->ctx, R, C, C, 0) & watch(f, &out, f->ctx, C, R, R, 0);
  static const int bad[] = {99, -1};
  for (size_t i = 0; ok && i < COUNT(bad); i++) {
    REJECT(f, DUET_EINVAL, f->ctx,
           duet_transpose(f->ctx, (duet_transpose_variant)bad[i], R, C, in.buf, C, out.buf, R),
           "transpose variant=%d", bad[i]);
    REJECT(f, DUET_EINVAL, NULL,
           duet_transpose(NULL, (duet_transpose_variant)bad[i], R, C, in.buf, C, out.buf, R),
           "transpose variant=%d ctx=NULL", bad[i]);
  }
  unwatch(f, n0);
}

/* ---- vector add, reduction, stencil -----------------------------------------------------------
 */
static void course_errors(fixture *f) {
  enum { NV = 100 };
  harness_mat a, b, out, small, a2;
  const size_t n0 = f->n_watch;
  int ok = watch(f, &a, f->ctx, 1, NV, NV, 0) & watch(f, &b, f->ctx, 1, NV, NV, 0) &
           watch(f, &out, f->ctx, 1, NV, NV, 0) & watch(f, &small, f->ctx, 1, NV, NV, NV - 1);
  if (f->ctx2) ok &= watch(f, &a2, f->ctx2, 1, NV, NV, 0);
  if (!ok) {
    unwatch(f, n0);
    return;
  }
  duet_ctx *x = f->ctx;
  const float w[2 * DUET_STENCIL_MAX_RADIUS + 1] = {0.25f, 0.5f, 0.25f};
  const size_t huge = SIZE_MAX / 2;
  REJECT(f, DUET_EINVAL, NULL, duet_vector_add(NULL, NV, a.buf, b.buf, out.buf), "vadd ctx=NULL");
  REJECT(f, DUET_EINVAL, x, duet_vector_add(x, NV, NULL, b.buf, out.buf), "vadd a=NULL");
  REJECT(f, DUET_EINVAL, x, duet_vector_add(x, NV, a.buf, NULL, out.buf), "vadd b=NULL");
  REJECT(f, DUET_EINVAL, x, duet_vector_add(x, NV, a.buf, b.buf, NULL), "vadd c=NULL");
  REJECT(f, DUET_EINVAL, x, duet_vector_add(x, NV, small.buf, b.buf, out.buf), "vadd a-too-small");
  REJECT(f, DUET_EINVAL, x, duet_vector_add(x, NV, a.buf, b.buf, small.buf), "vadd c-too-small");
  REJECT(f, DUET_EINVAL, x, duet_vector_add(x, huge, a.buf, b.buf, out.buf), "vadd n huge");
  REJECT(f, DUET_OK, x, duet_vector_add(x, 0, a.buf, b.buf, out.buf), "vadd n=0 no-op");
  static const int bad_variants[] = {5, 99, -1};
  for (size_t i = 0; i < COUNT(bad_variants); i++) {
    REJECT(f, DUET_EINVAL, x,
           duet_reduce_sum(x, (duet_reduce_variant)bad_variants[i], NV, a.buf, out.buf),
           "reduce variant=%d", bad_variants[i]);
    REJECT(
        f, DUET_EINVAL, x,
        duet_stencil_1d(x, (duet_stencil_variant)(bad_variants[i] - 1), NV, 1, w, a.buf, out.buf),
        "stencil variant=%d", bad_variants[i] - 1);
  }
  REJECT(f, DUET_EINVAL, NULL, duet_reduce_sum(NULL, DUET_REDUCE_AUTO, NV, a.buf, out.buf),
         "reduce ctx=NULL");
  REJECT(f, DUET_EINVAL, x, duet_reduce_sum(x, DUET_REDUCE_AUTO, NV, NULL, out.buf),
         "reduce in=NULL");
  REJECT(f, DUET_EINVAL, x, duet_reduce_sum(x, DUET_REDUCE_AUTO, NV, a.buf, NULL),
         "reduce out=NULL");
  REJECT(f, DUET_EINVAL, x, duet_reduce_sum(x, DUET_REDUCE_SHUFFLE, NV, small.buf, out.buf),
         "reduce in-too-small");
  REJECT(f, DUET_EINVAL, x, duet_reduce_sum(x, DUET_REDUCE_NAIVE, huge, a.buf, out.buf),
         "reduce n huge");
  REJECT(f, DUET_EINVAL, x, duet_reduce_sum(x, DUET_REDUCE_ATOMIC, NV, out.buf, out.buf),
         "reduce in==out");
  REJECT(f, DUET_EINVAL, NULL, duet_stencil_1d(NULL, DUET_STENCIL_AUTO, NV, 1, w, a.buf, out.buf),
         "stencil ctx=NULL");
  REJECT(f, DUET_EINVAL, x,
         duet_stencil_1d(x, DUET_STENCIL_AUTO, NV, DUET_STENCIL_MAX_RADIUS + 1, w, a.buf, out.buf),
         "stencil radius=max+1");
  REJECT(f, DUET_EINVAL, x, duet_stencil_1d(x, DUET_STENCIL_AUTO, NV, 1, NULL, a.buf, out.buf),
         "stencil weights=NULL");
  REJECT(f, DUET_EINVAL, x, duet_stencil_1d(x, DUET_STENCIL_NAIVE, NV, 1, w, NULL, out.buf),
         "stencil in=NULL");
  REJECT(f, DUET_EINVAL, x, duet_stencil_1d(x, DUET_STENCIL_SHARED, NV, 1, w, a.buf, small.buf),
         "stencil out-too-small");
  REJECT(f, DUET_EINVAL, x, duet_stencil_1d(x, DUET_STENCIL_REGISTER, NV, 1, w, out.buf, out.buf),
         "stencil in==out");
  REJECT(f, DUET_OK, x, duet_stencil_1d(x, DUET_STENCIL_AUTO, 0, 1, w, a.buf, out.buf),
         "stencil n=0 no-op");
  if (f->ctx2) {
    REJECT(f, DUET_EINVAL, x, duet_vector_add(x, NV, a.buf, a2.buf, out.buf),
           "vadd b-of-other-ctx");
    REJECT(f, DUET_EINVAL, x, duet_reduce_sum(x, DUET_REDUCE_AUTO, NV, a2.buf, out.buf),
           "reduce in-of-other-ctx");
    REJECT(f, DUET_EINVAL, x, duet_stencil_1d(x, DUET_STENCIL_AUTO, NV, 1, w, a2.buf, out.buf),
           "stencil in-of-other-ctx");
  }
  unwatch(f, n0);
}

/* ---- sgemm ----------------------------------------------------------------------------------- */
/* Stored shapes: A is M x K (K x M when ta), B is K x N (N x K when tb), C is M x N. */
static size_t a_rows(int ta) { return ta ? K : M; }
static size_t a_cols(int ta) { return ta ? M : K; }
static size_t b_rows(int tb) { return tb ? N : K; }
static size_t b_cols(int tb) { return tb ? K : N; }

#define GEMM(ctx, v, ta, tb, m, n, k, a, lda, b, ldb, c, ldc) \
  duet_sgemm(ctx, v, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.5f, c, ldc)

static void gemm_shape_errors(fixture *f, int ta, int tb) {
  harness_mat a, b, c, a_small, b_small;
  const size_t n0 = f->n_watch, lda = a_cols(ta), ldb = b_cols(tb);
  int ok = watch(f, &a, f->ctx, a_rows(ta), a_cols(ta), lda, 0) &
           watch(f, &b, f->ctx, b_rows(tb), b_cols(tb), ldb, 0) & watch(f, &c, f->ctx, M, N, N, 0) &
           watch(f, &a_small, f->ctx, a_rows(ta), a_cols(ta), lda,
                 harness_span(a_rows(ta), a_cols(ta), lda) - 1) &
           watch(f, &b_small, f->ctx, b_rows(tb), b_cols(tb), ldb,
                 harness_span(b_rows(tb), b_cols(tb), ldb) - 1);
  duet_ctx *x = f->ctx;
  const duet_gemm_variant v = DUET_GEMM_AUTO;
  const char *t = ta ? (tb ? "TT" : "TN") : (tb ? "NT" : "NN");
  if (ok) {
    REJECT(f, DUET_EINVAL, x, GEMM(x, v, ta, tb, M, N, K, a.buf, lda - 1, b.buf, ldb, c.buf, N),
           "sgemm %s lda<%s", t, ta ? "m" : "k");
    REJECT(f, DUET_EINVAL, x, GEMM(x, v, ta, tb, M, N, K, a.buf, lda, b.buf, ldb - 1, c.buf, N),
           "sgemm %s ldb<%s", t, tb ? "k" : "n");
    REJECT(f, DUET_EINVAL, x, GEMM(x, v, ta, tb, M, N, K, a_small.buf, lda, b.buf, ldb, c.buf, N),
           "sgemm %s a-too-small", t);
    REJECT(f, DUET_EINVAL, x, GEMM(x, v, ta, tb, M, N, K, a.buf, lda, b_small.buf, ldb, c.buf, N),
           "sgemm %s b-too-small", t);
  }
  unwatch(f, n0);
}

static void gemm_errors(fixture *f) {
  harness_mat a, b, c, c_small, big, a2, b2, c2;
  const size_t n0 = f->n_watch;
  int ok = watch(f, &a, f->ctx, M, K, K, 0) & watch(f, &b, f->ctx, K, N, N, 0) &
           watch(f, &c, f->ctx, M, N, N, 0) &
           watch(f, &c_small, f->ctx, M, N, N, harness_span(M, N, N) - 1) &
           watch(f, &big, f->ctx, 16, 16, 16, 0);
  if (f->ctx2)
    ok &= watch(f, &a2, f->ctx2, M, K, K, 0) & watch(f, &b2, f->ctx2, K, N, N, 0) &
          watch(f, &c2, f->ctx2, M, N, N, 0);
  duet_ctx *x = f->ctx;
  const duet_gemm_variant v = DUET_GEMM_AUTO;
  const duet_trans n = DUET_NO_TRANS;
  if (ok) {
    REJECT(f, DUET_EINVAL, NULL, GEMM(NULL, v, n, n, M, N, K, a.buf, K, b.buf, N, c.buf, N),
           "sgemm ctx=NULL");
    REJECT(f, DUET_EINVAL, x, GEMM(x, v, n, n, M, N, K, NULL, K, b.buf, N, c.buf, N),
           "sgemm a=NULL");
    REJECT(f, DUET_EINVAL, x, GEMM(x, v, n, n, M, N, K, a.buf, K, NULL, N, c.buf, N),
           "sgemm b=NULL");
    REJECT(f, DUET_EINVAL, x, GEMM(x, v, n, n, M, N, K, a.buf, K, b.buf, N, NULL, N),
           "sgemm c=NULL");
    REJECT(f, DUET_EINVAL, x, GEMM(x, v, n, n, M, N, K, a.buf, K, b.buf, N, c.buf, N - 1),
           "sgemm ldc<n");
    REJECT(f, DUET_EINVAL, x, GEMM(x, v, n, n, M, N, K, a.buf, K, b.buf, N, c_small.buf, N),
           "sgemm c-too-small");
    REJECT(f, DUET_EINVAL, x, GEMM(x, v, n, n, SIZE_MAX / 2, N, K, a.buf, K, b.buf, N, c.buf, N),
           "sgemm overflow huge-m");
    REJECT(f, DUET_EINVAL, x, GEMM(x, v, n, n, WRAP, 1, 1, a.buf, 4, b.buf, 1, c.buf, 4),
           "sgemm overflow m-wraps");
    REJECT(f, DUET_EINVAL, x, GEMM(x, v, n, n, 1, WRAP, 1, a.buf, 1, b.buf, WRAP, c.buf, WRAP),
           "sgemm overflow n-wraps");
    REJECT(f, DUET_EINVAL, x, GEMM(x, v, n, n, 1, 1, WRAP, a.buf, WRAP, b.buf, 4, c.buf, 1),
           "sgemm overflow k-wraps");
    REJECT(f, DUET_EINVAL, x, GEMM(x, v, n, n, M, N, K, a.buf, K, b.buf, N, c.buf, SIZE_MAX / 2),
           "sgemm overflow huge-ldc");
    /* big holds every operand's shape, so only the aliasing is wrong. */
    REJECT(f, DUET_EINVAL, x, GEMM(x, v, n, n, M, N, K, big.buf, K, b.buf, N, big.buf, N),
           "sgemm c==a");
    REJECT(f, DUET_EINVAL, x, GEMM(x, v, n, n, M, N, K, a.buf, K, big.buf, N, big.buf, N),
           "sgemm c==b");
    static const int bad_variant[] = {99, -1}, bad_trans[] = {2, -1};
    for (size_t i = 0; i < 2; i++) {
      duet_gemm_variant bv = (duet_gemm_variant)bad_variant[i];
      duet_trans bt = (duet_trans)bad_trans[i];
      REJECT(f, DUET_EINVAL, x, GEMM(x, bv, n, n, M, N, K, a.buf, K, b.buf, N, c.buf, N),
             "sgemm variant=%d", (int)bv);
      REJECT(f, DUET_EINVAL, x, GEMM(x, v, bt, n, M, N, K, a.buf, K, b.buf, N, c.buf, N),
             "sgemm ta=%d", (int)bt);
      REJECT(f, DUET_EINVAL, x, GEMM(x, v, n, bt, M, N, K, a.buf, K, b.buf, N, c.buf, N),
             "sgemm tb=%d", (int)bt);
    }
    if (f->ctx2) {
      REJECT(f, DUET_EINVAL, x, GEMM(x, v, n, n, M, N, K, a2.buf, K, b.buf, N, c.buf, N),
             "sgemm a-of-other-ctx");
      REJECT(f, DUET_EINVAL, x, GEMM(x, v, n, n, M, N, K, a.buf, K, b2.buf, N, c.buf, N),
             "sgemm b-of-other-ctx");
      REJECT(f, DUET_EINVAL, x, GEMM(x, v, n, n, M, N, K, a.buf, K, b.buf, N, c2.buf, N),
             "sgemm c-of-other-ctx");
    }
    REJECT(f, DUET_OK, x, GEMM(x, v, n, n, 0, N, K, a.buf, K, b.buf, N, c.buf, N),
           "sgemm m=0 no-op");
    REJECT(f, DUET_OK, x, GEMM(x, v, n, n, M, 0, K, a.buf, K, b.buf, N, c.buf, N),
           "sgemm n=0 no-op");
  }
  unwatch(f, n0);
  for (int t = 0; t < 4; t++) gemm_shape_errors(f, t >> 1, t & 1);
}

/* ---- buffers, events, contexts --------------------------------------------------------------- */
static void buffer_errors(fixture *f) {
  harness_mat m, m2, big;
  const size_t n0 = f->n_watch;
  int ok = watch(f, &m, f->ctx, 1, 64, 64, 0) & watch(f, &big, f->ctx, 1, 128, 128, 0);
  if (f->ctx2) ok &= watch(f, &m2, f->ctx2, 1, 64, 64, 0);
  duet_ctx *x = f->ctx;
  duet_buf *buf = m.buf, *none = NULL;
  const size_t size = m.len * sizeof(float);
  float src[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const struct {
    size_t offset, bytes;
  } outside[] = {{size - 3, 4}, {size + 1, 0}, {size, 1}, {SIZE_MAX, 8}, {8, SIZE_MAX - 4}};
  for (size_t i = 0; ok && i < COUNT(outside); i++) {
    size_t off = outside[i].offset, n = outside[i].bytes;
    REJECT(f, DUET_EINVAL, x, duet_buf_write(buf, off, src, n),
           "duet_buf_write offset=%zu bytes=%zu", off, n);
    float dst[HOST_WATCH] = {-1, -1, -1, -1, -1, -1, -1, -1};
    f->host_watch = dst;
    REJECT(f, DUET_EINVAL, x, duet_buf_read(buf, off, dst, n), "duet_buf_read offset=%zu bytes=%zu",
           off, n);
    f->host_watch = NULL;
  }
  if (ok) {
    REJECT(f, DUET_EINVAL, NULL, duet_buf_write(NULL, 0, src, 4), "duet_buf_write buf=NULL");
    REJECT(f, DUET_EINVAL, NULL, duet_buf_read(NULL, 0, src, 4), "duet_buf_read buf=NULL");
    REJECT(f, DUET_EINVAL, x, duet_buf_write(buf, 0, NULL, 4), "duet_buf_write src=NULL");
    REJECT(f, DUET_EINVAL, x, duet_buf_read(buf, 0, NULL, 4), "duet_buf_read dst=NULL");
    REJECT(f, DUET_EINVAL, x, duet_buf_copy(buf, NULL, 4), "duet_buf_copy src=NULL");
    REJECT(f, DUET_EINVAL, x, duet_buf_copy(NULL, buf, 4), "duet_buf_copy dst=NULL");
    REJECT(f, DUET_EINVAL, x, duet_buf_copy(big.buf, buf, size + 4), "duet_buf_copy bytes>src");
    REJECT(f, DUET_EINVAL, x, duet_buf_copy(buf, big.buf, size + 4), "duet_buf_copy bytes>dst");
    REJECT(f, DUET_EINVAL, NULL, duet_buf_create(NULL, 16, &none), "duet_buf_create ctx=NULL");
    REJECT(f, DUET_EINVAL, x, duet_buf_create(x, 16, NULL), "duet_buf_create buf=NULL");
    /* More than any device holds: refused at creation, not at the first kernel. */
    REJECT(f, DUET_ENOMEM, x, duet_buf_create(x, (size_t)1 << 62, &none),
           "duet_buf_create bytes=2^62");
    REJECT(f, DUET_ENOMEM, x, duet_buf_create(x, f->dev->info.global_mem_bytes + 4096, &none),
           "duet_buf_create bytes=device memory + 4 KiB");
    {
      duet_buf *kept = (duet_buf *)&f; /* bad input writes nothing */
      REJECT(f, DUET_EINVAL, x, duet_buf_create(x, 0, &kept), "duet_buf_create bytes=0");
      harness_case c;
      harness_case_begin(&c, f->dev, "duet_buf_create bytes=0 leaves buf alone");
      harness_expect(&c, kept == (duet_buf *)&f, "bad input wrote %p into buf", (void *)kept);
      harness_case_end(&c);
    }
  }
  /* Which of the two contexts records the failure is not specified: either will do. */
  if (ok && f->ctx2) {
    REJECT2(f, DUET_EINVAL, x, f->ctx2, duet_buf_copy(buf, m2.buf, 16),
            "duet_buf_copy src-of-other-ctx");
    REJECT2(f, DUET_EINVAL, x, f->ctx2, duet_buf_copy(m2.buf, buf, 16),
            "duet_buf_copy dst-of-other-ctx");
  }
  duet_buf_destroy(none);
  unwatch(f, n0);
}

/* A setup step that must work for the checks after it to mean anything. */
static int setup(fixture *f, int status, const char *what) {
  if (status == DUET_OK) return 1;
  harness_case c;
  harness_case_begin(&c, f->dev, "setup %s", what);
  harness_expect_status(&c, status, DUET_OK, f->ctx, what);
  harness_case_end(&c);
  return 0;
}

static void event_errors(fixture *f) {
  duet_ctx *x = f->ctx;
  duet_event *a = NULL, *b = NULL, *other = NULL, *none = NULL;
  float ms = -1;
  if (!setup(f, duet_event_create(x, &a), "duet_event_create") ||
      !setup(f, duet_event_create(x, &b), "duet_event_create"))
    goto done;
  REJECT(f, DUET_EINVAL, x, duet_event_elapsed_ms(a, b, &ms),
         "duet_event_elapsed_ms none-recorded");
  if (!setup(f, duet_event_record(a), "duet_event_record")) goto done;
  REJECT(f, DUET_EINVAL, x, duet_event_elapsed_ms(a, b, &ms),
         "duet_event_elapsed_ms end-unrecorded");
  REJECT(f, DUET_EINVAL, x, duet_event_elapsed_ms(b, a, &ms),
         "duet_event_elapsed_ms start-unrecorded");
  if (!setup(f, duet_event_record(b), "duet_event_record")) goto done;
  REJECT(f, DUET_EINVAL, x, duet_event_elapsed_ms(a, b, NULL), "duet_event_elapsed_ms ms=NULL");
  /* With start NULL, end's context may hold the failure. */
  REJECT2(f, DUET_EINVAL, NULL, x, duet_event_elapsed_ms(NULL, b, &ms),
          "duet_event_elapsed_ms start=NULL");
  REJECT(f, DUET_EINVAL, NULL, duet_event_record(NULL), "duet_event_record ev=NULL");
  REJECT(f, DUET_EINVAL, NULL, duet_event_create(NULL, &none), "duet_event_create ctx=NULL");
  REJECT(f, DUET_EINVAL, x, duet_event_create(x, NULL), "duet_event_create ev=NULL");
  if (f->ctx2 && setup(f, duet_event_create(f->ctx2, &other), "duet_event_create") &&
      setup(f, duet_event_record(other), "duet_event_record"))
    REJECT2(f, DUET_EINVAL, x, f->ctx2, duet_event_elapsed_ms(a, other, &ms),
            "duet_event_elapsed_ms other-ctx");
done:
  duet_event_destroy(a);
  duet_event_destroy(b);
  duet_event_destroy(other);
  duet_event_destroy(none);
}

/* duet_host_free returns nothing: what it recorded says whether it refused. */
static int host_free_status(duet_ctx *ctx, void *ptr) {
  char was[256];
  snprintf(was, sizeof was, "%s", duet_ctx_last_error(ctx));
  duet_host_free(ctx, ptr);
  const char *now = duet_ctx_last_error(ctx);
  return strcmp(now, was) != 0 && strncmp(now, "duet_host_free", 14) == 0 ? DUET_EINVAL : DUET_OK;
}

/* Families (duet_ctx_create_shared), the enqueued copies, event waits and pinned memory. ctx2 is
 * of another family; a member of ctx's family is accepted wherever ctx is. */
static void queue_errors(fixture *f) {
  duet_ctx *x = f->ctx, *member = NULL, *none = (duet_ctx *)f;
  harness_mat m, m2;
  const size_t n0 = f->n_watch;
  duet_event *unrecorded = NULL, *other = NULL;
  void *pin = NULL, *pin2 = NULL, *kept = (void *)f;
  int ok = setup(f, duet_ctx_create_shared(&member, x), "duet_ctx_create_shared") &&
           watch(f, &m, member, 1, 64, 64, 0) &&
           setup(f, duet_event_create(member, &unrecorded), "duet_event_create") &&
           setup(f, duet_host_alloc(x, 256, &pin), "duet_host_alloc");
  if (ok && f->ctx2)
    ok = watch(f, &m2, f->ctx2, 1, 64, 64, 0) &&
         setup(f, duet_event_create(f->ctx2, &other), "duet_event_create") &&
         setup(f, duet_event_record(other), "duet_event_record") &&
         setup(f, duet_host_alloc(f->ctx2, 256, &pin2), "duet_host_alloc");
  if (!ok) goto done;
  REJECT(f, DUET_EINVAL, NULL, duet_ctx_create_shared(NULL, x), "duet_ctx_create_shared ctx=NULL");
  REJECT(f, DUET_EINVAL, NULL, duet_ctx_create_shared(&none, NULL),
         "duet_ctx_create_shared parent=NULL");
  harness_case c;
  harness_case_begin(&c, f->dev, "duet_ctx_create_shared parent=NULL leaves ctx NULL");
  harness_expect(&c, none == NULL, "*ctx is not NULL after a failure");
  harness_case_end(&c);

  duet_buf *buf = m.buf;
  const size_t size = m.len * sizeof(float);
  const struct {
    size_t offset, bytes;
  } outside[] = {{size - 3, 4}, {size + 1, 0}, {size, 1}, {SIZE_MAX, 8}, {8, SIZE_MAX - 4}};
  float src[HOST_WATCH] = {1, 2, 3, 4, 5, 6, 7, 8};
  float dst[HOST_WATCH] = {-1, -1, -1, -1, -1, -1, -1, -1};
  f->host_watch = dst;
  for (size_t i = 0; i < COUNT(outside); i++) {
    size_t off = outside[i].offset, n = outside[i].bytes;
    REJECT(f, DUET_EINVAL, x, duet_buf_write_async(x, buf, off, src, n),
           "duet_buf_write_async offset=%zu bytes=%zu", off, n);
    REJECT(f, DUET_EINVAL, x, duet_buf_read_async(x, buf, off, dst, n),
           "duet_buf_read_async offset=%zu bytes=%zu", off, n);
  }
  REJECT(f, DUET_EINVAL, NULL, duet_buf_write_async(NULL, buf, 0, src, 4),
         "duet_buf_write_async ctx=NULL");
  REJECT(f, DUET_EINVAL, NULL, duet_buf_read_async(NULL, buf, 0, dst, 4),
         "duet_buf_read_async ctx=NULL");
  REJECT(f, DUET_EINVAL, x, duet_buf_write_async(x, NULL, 0, src, 4),
         "duet_buf_write_async buf=NULL");
  REJECT(f, DUET_EINVAL, x, duet_buf_read_async(x, NULL, 0, dst, 4),
         "duet_buf_read_async buf=NULL");
  REJECT(f, DUET_EINVAL, x, duet_buf_write_async(x, buf, 0, NULL, 4),
         "duet_buf_write_async src=NULL");
  REJECT(f, DUET_EINVAL, x, duet_buf_read_async(x, buf, 0, NULL, 4),
         "duet_buf_read_async dst=NULL");
  if (f->ctx2) {
    REJECT(f, DUET_EINVAL, x, duet_buf_write_async(x, m2.buf, 0, src, 4),
           "duet_buf_write_async buf-of-other-family");
    REJECT(f, DUET_EINVAL, f->ctx2, duet_buf_read_async(f->ctx2, buf, 0, dst, 4),
           "duet_buf_read_async buf-of-other-family");
  }
  f->host_watch = NULL;
  REJECT(f, DUET_OK, x, duet_buf_write_async(x, buf, 0, NULL, 0), "duet_buf_write_async bytes=0");

  REJECT(f, DUET_EINVAL, NULL, duet_event_wait(NULL, unrecorded), "duet_event_wait ctx=NULL");
  REJECT(f, DUET_EINVAL, x, duet_event_wait(x, NULL), "duet_event_wait ev=NULL");
  REJECT(f, DUET_EINVAL, x, duet_event_wait(x, unrecorded), "duet_event_wait ev-unrecorded");
  if (f->ctx2)
    REJECT(f, DUET_EINVAL, x, duet_event_wait(x, other), "duet_event_wait ev-of-other-family");

  REJECT(f, DUET_EINVAL, NULL, duet_host_alloc(NULL, 16, &kept), "duet_host_alloc ctx=NULL");
  REJECT(f, DUET_EINVAL, x, duet_host_alloc(x, 16, NULL), "duet_host_alloc ptr=NULL");
  REJECT(f, DUET_EINVAL, x, duet_host_alloc(x, 0, &kept), "duet_host_alloc bytes=0");
  REJECT(f, DUET_ENOMEM, x, duet_host_alloc(x, (size_t)1 << 62, &kept),
         "duet_host_alloc bytes=2^62");
  harness_case_begin(&c, f->dev, "duet_host_alloc failures leave ptr alone");
  harness_expect(&c, kept == (void *)f, "a failure wrote %p into ptr", kept);
  harness_case_end(&c);
  REJECT(f, DUET_EINVAL, x, host_free_status(x, src), "duet_host_free ptr-not-pinned");
  REJECT(f, DUET_EINVAL, x, host_free_status(x, (char *)pin + 4), "duet_host_free ptr-inside");
  if (f->ctx2)
    REJECT(f, DUET_EINVAL, x, host_free_status(x, pin2), "duet_host_free ptr-of-other-family");
  REJECT(f, DUET_OK, member, host_free_status(member, pin), "duet_host_free through a member");
  REJECT(f, DUET_EINVAL, member, host_free_status(member, pin), "duet_host_free twice");
  pin = NULL;
done:
  duet_host_free(x, pin);
  if (f->ctx2) duet_host_free(f->ctx2, pin2);
  duet_event_destroy(unrecorded);
  duet_event_destroy(other);
  unwatch(f, n0);
  duet_ctx_destroy(member);
}

static void ctx_errors(fixture *f) {
  duet_ctx *made = (duet_ctx *)f; /* a failure must set it to NULL */
  duet_device_info info;
  int n = -1;
  REJECT(f, DUET_EINVAL, NULL, duet_ctx_create(NULL, f->dev->backend, 0),
         "duet_ctx_create ctx=NULL");
  REJECT(f, DUET_EINVAL, NULL, duet_ctx_create(&made, (duet_backend)99, 0),
         "duet_ctx_create backend=99");
  harness_case c;
  harness_case_begin(&c, f->dev, "duet_ctx_create backend=99 leaves ctx NULL");
  harness_expect(&c, made == NULL, "*ctx is not NULL after a failure");
  harness_case_end(&c);
  if (made && made != (duet_ctx *)f) duet_ctx_destroy(made);
  REJECT(f, DUET_EINVAL, NULL, duet_ctx_info(NULL, &info), "duet_ctx_info ctx=NULL");
  REJECT(f, DUET_EINVAL, f->ctx, duet_ctx_info(f->ctx, NULL), "duet_ctx_info info=NULL");
  REJECT(f, DUET_EINVAL, NULL, duet_finish(NULL), "duet_finish ctx=NULL");
  REJECT(f, DUET_EINVAL, NULL, duet_device_count(DUET_BACKEND_AUTO, &n), "duet_device_count auto");
  REJECT(f, DUET_EINVAL, NULL, duet_device_count((duet_backend)99, &n),
         "duet_device_count backend=99");
  REJECT(f, DUET_EINVAL, NULL, duet_device_count(f->dev->backend, NULL),
         "duet_device_count count=NULL");
}

static void host_checks(void) {
  harness_case c;
  harness_case_begin(&c, NULL, "duet_strerror unknown codes");
  static const int codes[] = {1, -8, -1000, 0x7fffffff, -0x7fffffff - 1};
  for (size_t i = 0; i < COUNT(codes); i++)
    harness_expect(&c, duet_strerror(codes[i]) != NULL, "duet_strerror(%d) is NULL", codes[i]);
  harness_case_end(&c);
  harness_case_begin(&c, NULL, "duet_ctx_last_error NULL");
  harness_expect(&c, duet_ctx_last_error(NULL) != NULL, "duet_ctx_last_error(NULL) is NULL");
  harness_case_end(&c);
}

/* A plan whose scratch cannot be allocated fails with DUET_ENOMEM naming it, runs nothing, and
 * leaves the context usable: the same call computes once memory allows (DUET_TEST_ARENA_LIMIT
 * stands for a full device). 40 x 50 x 1030 is fast's small tile split along k on any device of
 * two or more compute units (tests/test_plan.c), its slices summed by the reduction on a context
 * that sums none through clusters (GEMM_SPLITK_CLUSTER=0: a device with clusters needs no
 * workspace for it). */
static void scratch_errors(const harness_dev *dev) {
  harness_case c;
  harness_case_begin(&c, dev, "duet_sgemm fast without its split-K workspace");
  if (dev->info.compute_units < 2) {
    harness_case_skip(&c, "one compute unit: the shape takes no split-K here");
    return;
  }
  duet_ctx *ctx = NULL;
  duet_buf *a = NULL, *b = NULL, *cc = NULL;
  harness_env saved = harness_env_set("DUET_TUNE", "GEMM_SPLITK_CLUSTER=0");
  int st = duet_ctx_create(&ctx, dev->backend, dev->device);
  harness_env_restore(&saved);
  if (!st) st = duet_buf_create(ctx, 40 * 1030 * sizeof(float), &a);
  if (!st) st = duet_buf_create(ctx, 1030 * 50 * sizeof(float), &b);
  if (!st) st = duet_buf_create(ctx, 40 * 50 * sizeof(float), &cc);
  if (harness_expect_status(&c, st, DUET_OK, ctx, "setup")) {
    char plan[2048];
    st = duet_sgemm_plan(ctx, DUET_GEMM_FAST, DUET_NO_TRANS, DUET_NO_TRANS, 40, 50, 1030, 1030, 50,
                         plan, sizeof plan);
    harness_expect_status(&c, st, DUET_OK, ctx, "duet_sgemm_plan");
    harness_expect(&c, strstr(plan, "duet_sgemm_splitk_reduce") != NULL,
                   "the plan has no split-K workspace: %s", plan);
    setenv("DUET_TEST_ARENA_LIMIT", "1", 1);
    st = duet_sgemm(ctx, DUET_GEMM_FAST, DUET_NO_TRANS, DUET_NO_TRANS, 40, 50, 1030, 1.0f, a, 1030,
                    b, 50, 0.0f, cc, 50);
    unsetenv("DUET_TEST_ARENA_LIMIT");
    harness_expect_status(&c, st, DUET_ENOMEM, ctx, "duet_sgemm");
    harness_expect(&c, strstr(duet_ctx_last_error(ctx), "split-K") != NULL,
                   "last_error does not say which scratch: \"%s\"", duet_ctx_last_error(ctx));
    harness_expect_status(&c, duet_finish(ctx), DUET_OK, ctx, "duet_finish after the refusal");
  }
  duet_buf_destroy(a);
  duet_buf_destroy(b);
  duet_buf_destroy(cc);
  harness_case_end(&c);
  if (ctx) {
    harness_dev d = *dev;
    d.ctx = ctx;
    harness_run_sgemm(&d, DUET_GEMM_FAST, DUET_NO_TRANS, DUET_NO_TRANS, 40, 50, 1030, 1.0f, 0.5f,
                      0);
    duet_ctx_destroy(ctx);
  }
}

static void run(const harness_dev *dev, void *user) {
  (void)user;
  fixture f;
  memset(&f, 0, sizeof f);
  f.dev = dev;
  f.ctx = dev->ctx;
  harness_case c;
  harness_case_begin(&c, dev, "duet_ctx_create second-context");
  f.rng = harness_rng_make(c.seed);
  harness_expect_status(&c, duet_ctx_create(&f.ctx2, dev->backend, dev->device), DUET_OK, NULL,
                        "duet_ctx_create");
  harness_case_end(&c);
  static const duet_transpose_variant variants[] = {
      DUET_TRANSPOSE_AUTO,   DUET_TRANSPOSE_NAIVE,       DUET_TRANSPOSE_COALESCED,
      DUET_TRANSPOSE_PADDED, DUET_TRANSPOSE_PADDED_TALL, DUET_TRANSPOSE_REGISTER};
  for (size_t i = 0; i < COUNT(variants); i++) move_errors(&f, (int)variants[i]);
  move_errors(&f, -1);
  variant_errors(&f);
  course_errors(&f);
  gemm_errors(&f);
  buffer_errors(&f);
  event_errors(&f);
  queue_errors(&f);
  ctx_errors(&f);
  duet_ctx_destroy(f.ctx2);
  scratch_errors(dev);
  /* After every rejection the context must still compute, exactly. */
  harness_run_move(dev, DUET_TRANSPOSE_AUTO, 33, 31, 3, 17);
  harness_run_move(dev, HARNESS_COPY, 33, 31, 3, 17);
  harness_run_sgemm(dev, DUET_GEMM_AUTO, DUET_TRANS, DUET_NO_TRANS, 17, 31, 33, 2.5f, -0.5f, 1);
}

int main(void) {
  harness_init("test_errors");
  host_checks();
  harness_for_each_ctx(run, NULL);
  return harness_end();
}
