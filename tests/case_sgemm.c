/* SPDX-License-Identifier: MIT */
/* One sgemm case against a CPU reference that accumulates in double. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "harness.h"

/* On ||C - Cref||_F / ||Cmag||_F, where Cmag = |alpha| |op(A)| |op(B)| + |beta| |C0| bounds
 * |Cref| element by element. Relative to ||Cref|| alone, a correct float GEMM fails whenever a
 * short dot product cancels: with m = n = 1 and k = 7, a GPU's FMA order gives 2e-5. */
#define TOLERANCE 1e-5

typedef struct {
  duet_trans ta, tb;
  size_t m, n, k;
  float alpha, beta;
} gemm_shape;

/* The values float arithmetic may give for a term t = x * y known to within e: t itself, or
 * inf of its sign where it may pass FLT_MAX. Returns how many (1 or 2). */
static int term_values(double t, double e, double out[2]) {
  out[0] = t;
  if (isinf(t) || isnan(t) || fabs(t) + e < FLT_MAX) return 1;
  out[1] = t > 0 ? INFINITY : -INFINITY;
  return 2;
}

int harness_sgemm_element_ok(double sum, double mag, size_t k, float alpha, float beta, float c0,
                             float got, double tol) {
  const int scaled = k == 0 || alpha == 0.0f; /* C = beta * C0: A and B are not read */
  if ((!scaled && isnan(alpha)) || (beta != 0.0f && isnan(beta))) return isnan(got);
  if (!scaled && isinf(alpha) && fabs(sum) <= tol * mag) return 1; /* the float sum's sign */
  const double ab = scaled ? 0.0 : (double)alpha * sum, cb = beta == 0.0f ? 0.0 : (double)beta * c0;
  const double eab = scaled ? 0.0 : fabs((double)alpha) * tol * mag, ecb = tol * fabs(cb);
  double x[2], y[2];
  const int nx = term_values(ab, eab, x), ny = term_values(cb, ecb, y);
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++) {
      const double r = x[i] + y[j];
      if (isnan(r) ? isnan(got) : isinf(r) ? got == r : 0) return 1;
      if (isinf(r) || isnan(r)) continue;
      /* finite: close to it, or past FLT_MAX where its error bound reaches that far */
      if (fabs(got - r) <= eab + ecb + 1e-30) return 1;
      if (isinf(got) && (got > 0) == (r > 0) && fabs(r) + eab + ecb >= FLT_MAX) return 1;
    }
  return 0;
}

/* ref (m x n, tight) = alpha * op(A) op(B) + beta * C0, where C0 is c->host, and mag (m x n)
 * is Cmag. The i-p-j order streams rows of B, into rows of double accumulators. */
static int reference(const gemm_shape *g, const harness_mat *a, const harness_mat *b,
                     const harness_mat *c, double *ref, double *mag) {
  const float *bp = b->host;
  size_t ldb = b->ld;
  float *packed = NULL;
  if (g->tb == DUET_TRANS) { /* repack op(B) so that the inner loop still streams */
    if (!(packed = malloc(g->k * g->n * sizeof *packed + 1))) return 0;
    for (size_t p = 0; p < g->k; p++)
      for (size_t j = 0; j < g->n; j++) packed[p * g->n + j] = b->host[j * b->ld + p];
    bp = packed;
    ldb = g->n;
  }
  /* Rows are independent; the large tier's 2048^3 reference is most of its run time. */
#pragma omp parallel for schedule(dynamic, 8) if (g->m * g->n * g->k >= HARNESS_OMP_MIN)
  for (size_t i = 0; i < g->m; i++) {
    double *row = ref + i * g->n, *abs_row = mag + i * g->n;
    for (size_t j = 0; j < g->n; j++) row[j] = abs_row[j] = 0.0;
    for (size_t p = 0; p < g->k; p++) {
      double av = g->ta == DUET_TRANS ? a->host[p * a->ld + i] : a->host[i * a->ld + p];
      const float *brow = bp + p * ldb;
      for (size_t j = 0; j < g->n; j++) {
        row[j] += av * brow[j];
        abs_row[j] += fabs(av * brow[j]);
      }
    }
    const float *c0 = c->host + i * c->ld;
    const double alpha = g->alpha, beta = g->beta;
    for (size_t j = 0; j < g->n; j++) {
      double scaled_c = beta != 0.0 ? beta * c0[j] : 0.0; /* beta == 0: C0 is NaN, unread */
      row[j] = alpha * row[j] + scaled_c;
      abs_row[j] = fabs(alpha) * abs_row[j] + fabs(scaled_c);
    }
  }
  free(packed);
  return 1;
}

/* k == 0 or alpha == 0: A and B hold NaN and must not be read, so C is exactly beta * C0. */
static void check_scaled(harness_case *hc, const gemm_shape *g, const harness_mat *c,
                         const float *got) {
  size_t bad = 0, bi = 0, bj = 0;
  float bgot = 0, bwant = 0;
  for (size_t i = 0; i < g->m; i++)
    for (size_t j = 0; j < g->n; j++) {
      float want = g->beta == 0.0f ? 0.0f : g->beta * c->host[i * c->ld + j];
      float x = got[i * c->ld + j];
      if (x != want && !bad++) bi = i, bj = j, bgot = x, bwant = want;
    }
  harness_expect(hc, !bad,
                 "%zu elements are not exactly beta*C; first C(%zu,%zu) = %.9g, want %.9g", bad, bi,
                 bj, bgot, bwant);
}

static void check_close(harness_case *hc, const gemm_shape *g, const harness_mat *c,
                        const float *got, const double *ref, const double *mag) {
  double err2 = 0, ref2 = 0, mag2 = 0, max_err = 0;
  size_t at = 0;
  for (size_t i = 0; i < g->m; i++)
    for (size_t j = 0; j < g->n; j++) {
      double r = ref[i * g->n + j], e = fabs(got[i * c->ld + j] - r);
      err2 += e * e;
      ref2 += r * r;
      mag2 += mag[i * g->n + j] * mag[i * g->n + j];
      if (e > max_err) max_err = e, at = i * g->n + j;
    }
  /* An all-zero Cmag has no scale to be relative to: then only exact zeros pass. */
  double rel = mag2 > 0 ? sqrt(err2 / mag2) : (err2 > 0 ? INFINITY : 0);
  size_t i = at / g->n, j = at % g->n;
  harness_expect(hc, rel <= TOLERANCE,
                 "Frobenius error %.3g of ||Cmag|| > %g (%.3g of ||Cref||); max |error| %.3g at "
                 "C(%zu,%zu): got %.9g, want %.9g",
                 rel, TOLERANCE, ref2 > 0 ? sqrt(err2 / ref2) : INFINITY, max_err, i, j,
                 got[i * c->ld + j], ref[at]);
}

static void check_no_nan(harness_case *hc, const harness_mat *c, const float *got) {
  size_t nans = 0, first = 0;
  for (size_t i = 0; i < c->rows; i++)
    for (size_t j = 0; j < c->cols; j++)
      if (isnan(got[i * c->ld + j]) && !nans++) first = i * c->ld + j;
  harness_expect(hc, !nans, "%zu elements of C are NaN, first C(%zu,%zu)", nans,
                 first / (c->ld ? c->ld : 1), first % (c->ld ? c->ld : 1));
}

static void run(harness_case *hc, const harness_dev *dev, duet_gemm_variant v, const gemm_shape *g,
                harness_mat *a, harness_mat *b, harness_mat *c) {
  harness_rng rng = harness_rng_make(hc->seed);
  int skip_ab = g->k == 0 || g->alpha == 0.0f;
  harness_fill ab = skip_ab ? HARNESS_FILL_POISON : HARNESS_FILL_UNIT;
  int st = harness_mat_fill(a, ab, &rng);
  if (!st) st = harness_mat_fill(b, ab, &rng);
  if (!st)
    st = harness_mat_fill(c, g->beta == 0.0f ? HARNESS_FILL_POISON : HARNESS_FILL_UNIT, &rng);
  if (!harness_expect_status(hc, st, DUET_OK, dev->ctx, "duet_buf_write")) return;
  double *ref = skip_ab ? NULL : malloc(2 * g->m * g->n * sizeof *ref + 1); /* ref, then Cmag */
  float *got = malloc(c->len * sizeof *got);
  if (harness_expect(hc, got && (skip_ab || ref), "no host memory for the reference") &&
      harness_expect(hc, skip_ab || reference(g, a, b, c, ref, ref + g->m * g->n),
                     "no host memory to repack B")) {
    st = duet_sgemm(dev->ctx, v, g->ta, g->tb, g->m, g->n, g->k, g->alpha, a->buf, a->ld, b->buf,
                    b->ld, g->beta, c->buf, c->ld);
    harness_expect_status(hc, st, DUET_OK, dev->ctx, "duet_sgemm");
    harness_expect_status(hc, duet_finish(dev->ctx), DUET_OK, dev->ctx, "duet_finish");
    if (!hc->failed &&
        harness_expect_status(hc, harness_mat_read(c, got), DUET_OK, dev->ctx, "duet_buf_read")) {
      check_no_nan(hc, c, got);
      if (skip_ab)
        check_scaled(hc, g, c, got);
      else if (g->m && g->n)
        check_close(hc, g, c, got, ref, ref + g->m * g->n);
      harness_mat_check_guards(hc, c, got, "c");
      harness_mat_check_unchanged(hc, a, "a");
      harness_mat_check_unchanged(hc, b, "b");
    }
  }
  free(ref);
  free(got);
}

int harness_run_sgemm(const harness_dev *dev, duet_gemm_variant v, duet_trans ta, duet_trans tb,
                      size_t m, size_t n, size_t k, float alpha, float beta, int padded) {
  gemm_shape g = {ta, tb, m, n, k, alpha, beta};
  size_t ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
  size_t lda = ac + (padded ? 3 : 0), ldb = bc + (padded ? 5 : 0), ldc = n + (padded ? 17 : 0);
  harness_case hc;
  harness_case_begin(&hc, dev,
                     "sgemm %s %c%c m=%zu n=%zu k=%zu lda=%zu ldb=%zu ldc=%zu alpha=%g beta=%g%s",
                     duet_gemm_variant_name(v), ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, lda, ldb,
                     ldc, alpha, beta, k == 0 || alpha == 0.0f ? " ab=nan" : "");
  double span = (double)harness_span(ar, ac, lda) + (double)harness_span(br, bc, ldb) +
                (double)harness_span(m, n, ldc) + 3 * HARNESS_TAIL;
  char why[160];
  /* Host: the three matrices, C read back, reference and Cmag in double, a repacked B. */
  if (!harness_fits(dev, span * 4, span * 4 + (double)m * n * 20 + (double)k * n * 4, why,
                    sizeof why)) {
    harness_case_skip(&hc, "%s", why);
    return 1;
  }
  harness_mat a = {0}, b = {0}, c = {0}; /* zeroed matrices are safe to free */
  int st = harness_mat_init(&a, dev->ctx, ar, ac, lda);
  if (!st) st = harness_mat_init(&b, dev->ctx, br, bc, ldb);
  if (!st) st = harness_mat_init(&c, dev->ctx, m, n, ldc);
  if (harness_expect_status(&hc, st, DUET_OK, dev->ctx, "harness_mat_init"))
    run(&hc, dev, v, &g, &a, &b, &c);
  harness_mat_free(&a);
  harness_mat_free(&b);
  harness_mat_free(&c);
  return harness_case_end(&hc);
}
