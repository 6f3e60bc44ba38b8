/* SPDX-License-Identifier: MIT */
/* A block's host data (random inputs) and the CPU reference every row is checked against. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_util.h"
#include "bench_verify.h"

/* Uniform in [-1, 1) with 24 random bits: never all zeros, exactly representable. */
void bench_fill_random(float *dst, size_t n, uint64_t seed, int set, int which) {
  uint64_t st = seed ^ (0x51ed2701u * (uint64_t)(2 * set + which + 1));
  bench_splitmix(&st);
  for (size_t i = 0; i < n; i++)
    dst[i] = (float)(bench_splitmix(&st) >> 40) * (2.0f / 16777216.0f) - 1.0f;
}

/* op(X), rows x cols, as a packed row-major copy: X is stored rows x cols (cols x rows when t)
 * with leading dimension ld. A plain operand is returned as it is, not copied; NULL when out of
 * memory. */
static const float *packed_op(const float *x, size_t rows, size_t cols, size_t ld, int t) {
  if (!t && ld == cols) return x;
  float *p = malloc(rows * cols * sizeof *p);
  if (!p) return NULL;
  for (size_t i = 0; i < rows; i++)
    for (size_t j = 0; j < cols; j++) p[i * cols + j] = t ? x[j * ld + i] : x[i * ld + j];
  return p;
}

static double dot(const bench_size s, const float *a, const float *b, size_t i, size_t j) {
  double sum = 0;
  for (size_t p = 0; p < s.k; p++) sum += (double)a[i * s.k + p] * (double)b[p * s.n + j];
  return sum;
}

/* The i-p-j order streams rows of B and of the reference: a cache-friendly full product of the
 * packed op(A) (a) and op(B) (b). */
static void full_reference(bench_host *h, const float *a, const float *b) {
  size_t m = h->size.m, n = h->size.n, k = h->size.k;
  h->nref = m * n;
  h->ref = calloc(m * n, sizeof *h->ref);
  if (!h->ref) return;
  for (size_t i = 0; i < m; i++) {
    double *row = h->ref + i * n;
    for (size_t p = 0; p < k; p++) {
      double aip = a[i * k + p];
      const float *brow = b + p * n;
      for (size_t j = 0; j < n; j++) row[j] += aip * brow[j];
    }
  }
}

/* The four corners, where edge handling goes wrong first, then deterministic random elements. */
static void sampled_reference(bench_host *h, const float *a, const float *b) {
  size_t m = h->size.m, n = h->size.n;
  h->sampled = 1;
  h->nref = BENCH_SAMPLES;
  h->idx = malloc(BENCH_SAMPLES * sizeof *h->idx);
  h->ref = malloc(BENCH_SAMPLES * sizeof *h->ref);
  if (!h->idx || !h->ref) return;
  const size_t corners[4] = {0, n - 1, (m - 1) * n, m * n - 1};
  uint64_t st = h->seed ^ 0x5a3b1e5u;
  for (size_t s = 0; s < BENCH_SAMPLES; s++) {
    size_t e = s < 4 ? corners[s] : (size_t)(bench_splitmix(&st) % (m * n));
    h->idx[s] = e;
    h->ref[s] = dot(h->size, a, b, e / n, e % n);
  }
}

void bench_host_elems(bench_routine r, bench_size s, size_t *a, size_t *b, size_t *out) {
  if (r == BENCH_GEMM) { /* as stored: rows of leading dimension each */
    *a = (s.ta ? s.k : s.m) * bench_lda(s);
    *b = (s.tb ? s.n : s.k) * bench_ldb(s);
    *out = s.m * bench_ldc(s);
    return;
  }
  /* reduce's out holds n floats too, for its copy reference; the sum goes to out[0] */
  *a = *out = s.m * s.n;
  *b = r == BENCH_VADD ? s.m * s.n : 0;
}

/* Whether the gemm reference is every element (else BENCH_SAMPLES of them). */
static int full_gemm_reference(bench_size s) {
  return s.m * s.n <= BENCH_SAMPLES || ((uint64_t)s.m * s.n * s.k <= BENCH_FULL_VERIFY_MACS &&
                                        s.m * s.n <= BENCH_FULL_VERIFY_ELEMS);
}

double bench_host_bytes(bench_routine r, bench_size s, int verify) {
  size_t a, b, out;
  bench_host_elems(r, s, &a, &b, &out);
  /* the inputs, a job's result and poison, the scratch of the other input sets (the larger
   * input), and the CPU baselines' output */
  double bytes = 4.0 * ((double)a + (double)b + 3.0 * (double)out + (double)(a > b ? a : b));
  if (verify && r == BENCH_GEMM) {
    bytes += full_gemm_reference(s) ? 8.0 * (double)out : 16.0 * BENCH_SAMPLES;
    /* packed copies of op(A) and op(B) while the reference is computed */
    if (!bench_size_plain(s)) bytes += 4.0 * ((double)s.m * s.k + (double)s.k * s.n);
  }
  return bytes;
}

int bench_host_init(bench_host *h, bench_routine r, bench_size s, uint64_t seed, int verify) {
  memset(h, 0, sizeof *h);
  h->routine = r;
  h->size = s;
  h->seed = seed ^ ((uint64_t)r << 56) ^ (s.m * 0x9e37u) ^ (s.n << 20) ^ (s.k << 40);
  bench_host_elems(r, s, &h->a_elems, &h->b_elems, &h->out_elems);
  h->a = malloc(h->a_elems * sizeof(float));
  h->b = h->b_elems ? malloc(h->b_elems * sizeof(float)) : NULL;
  if (!h->a || (h->b_elems && !h->b)) return -1;
  bench_fill_random(h->a, h->a_elems, h->seed, 0, 0);
  if (h->b) bench_fill_random(h->b, h->b_elems, h->seed, 0, 1);
  if (r == BENCH_REDUCE && verify) { /* the sum and the sum of magnitudes, in double */
    h->nref = 2;
    h->ref = calloc(2, sizeof *h->ref);
    if (!h->ref) return -1;
    for (size_t i = 0; i < h->a_elems; i++) {
      h->ref[0] += h->a[i];
      h->ref[1] += fabs(h->a[i]);
    }
  }
  if (r == BENCH_GEMM && verify) {
    const float *a = packed_op(h->a, s.m, s.k, bench_lda(s), s.ta);
    const float *b = packed_op(h->b, s.k, s.n, bench_ldb(s), s.tb);
    if (a && b) {
      if (full_gemm_reference(s))
        full_reference(h, a, b);
      else
        sampled_reference(h, a, b);
    }
    if (a != h->a) free((float *)a);
    if (b != h->b) free((float *)b);
    if (!a || !b || !h->ref || (h->sampled && !h->idx)) return -1;
  }
  return 0;
}

void bench_host_free(bench_host *h) {
  free(h->a);
  free(h->b);
  free(h->idx);
  free(h->ref);
  memset(h, 0, sizeof *h);
}

/* Outside C's n columns (ldc > n) the output must still hold the poison (NaN) written before
 * the run: the count of elements that do not. */
static size_t written_outside(const bench_host *h, const float *out) {
  const size_t n = h->size.n, ldc = bench_ldc(h->size);
  size_t bad = 0;
  for (size_t i = 0; i < h->size.m && ldc > n; i++)
    for (size_t j = n; j < ldc; j++) bad += !isnan(out[i * ldc + j]);
  return bad;
}

static void verify_gemm(const bench_host *h, const float *out, double tol, bench_result *res) {
  const size_t n = h->size.n, ldc = bench_ldc(h->size);
  double num = 0, den = 0;
  for (size_t s = 0; s < h->nref; s++) {
    size_t e = h->idx ? h->idx[s] : s;
    double d = (double)out[e / n * ldc + e % n] - h->ref[s];
    num += d * d;
    den += h->ref[s] * h->ref[s];
  }
  res->sampled = h->sampled;
  res->tol = tol;
  res->error = den > 0 ? sqrt(num / den) : sqrt(num);
  const size_t outside = written_outside(h, out);
  /* Written so that a NaN error fails. */
  if (res->error <= tol && !outside) {
    res->verdict = BENCH_V_YES;
  } else if (outside) {
    res->verdict = BENCH_V_NO;
    snprintf(res->note, sizeof res->note,
             "%zu elements written between column n = %zu and ldc = %zu", outside, n, ldc);
  } else {
    res->verdict = BENCH_V_NO;
    snprintf(res->note, sizeof res->note, "relative error %.3g > %.0e%s", res->error, tol,
             h->sampled ? " on sampled elements" : "");
  }
}

/* Bit-exact: a transpose or copy moves values and must not change a single bit. */
static void verify_move(const bench_host *h, int transposed, const float *out, bench_result *res) {
  size_t rows = h->size.m, cols = h->size.n, bad = 0, first_r = 0, first_c = 0;
  float got = 0, want = 0;
  for (size_t i = 0; i < rows; i++)
    for (size_t j = 0; j < cols; j++) {
      const float *o = transposed ? &out[j * rows + i] : &out[i * cols + j];
      if (memcmp(o, &h->a[i * cols + j], sizeof(float)) != 0 && bad++ == 0) {
        first_r = transposed ? j : i;
        first_c = transposed ? i : j;
        got = *o;
        want = h->a[i * cols + j];
      }
    }
  res->tol = 0;
  res->error = NAN;
  res->verdict = bad ? BENCH_V_NO : BENCH_V_YES;
  if (bad)
    snprintf(res->note, sizeof res->note,
             "%zu of %zu elements differ, first at (%zu,%zu): %g, not %g", bad, rows * cols,
             first_r, first_c, (double)got, (double)want);
}

static void verify_reduce(const bench_host *h, const float *out, bench_result *res) {
  res->tol = BENCH_REDUCE_TOL;
  res->error = h->ref[1] > 0 ? fabs(out[0] - h->ref[0]) / h->ref[1] : fabs(out[0] - h->ref[0]);
  res->verdict = res->error <= BENCH_REDUCE_TOL ? BENCH_V_YES : BENCH_V_NO;
  if (res->verdict == BENCH_V_NO)
    snprintf(res->note, sizeof res->note, "sum %.9g, double %.9g: %.3g of sum |x| > %.0e",
             (double)out[0], h->ref[0], res->error, BENCH_REDUCE_TOL);
}

/* Output i of the stencil as duet computes it: j = -r..r, one fmaf each, from 0. */
static float stencil_at(const float *in, size_t n, unsigned r, size_t i) {
  float acc = 0.0f;
  for (unsigned j = 0; j <= 2 * r; j++) {
    const size_t q = i + j; /* in[i + j - r], shifted by r to stay unsigned */
    acc = fmaf(bench_stencil_weight(r, j), q >= r && q - r < n ? in[q - r] : 0.0f, acc);
  }
  return acc;
}

/* vadd and stencil: bit-exact against the CPU, at every output or (a large stencil) at both
 * ends and random samples. */
static void verify_elementwise(const bench_host *h, const bench_row_def *row, const float *out,
                               bench_result *res) {
  const size_t n = h->out_elems;
  const unsigned r = (unsigned)row->variant >> 8;
  const int sampled = row->check == BENCH_CHECK_STENCIL &&
                      (double)n * (2 * r + 1) > (double)BENCH_STENCIL_FULL_MACS &&
                      n > 2 * BENCH_SAMPLES;
  uint64_t st = h->seed ^ 0x57e9c11u;
  size_t bad = 0, first = 0, count = sampled ? 3 * BENCH_SAMPLES : n;
  float got = 0, want = 0;
  for (size_t s = 0; s < count; s++) {
    const size_t i = !sampled                ? s
                     : s < BENCH_SAMPLES     ? s
                     : s < 2 * BENCH_SAMPLES ? n - 2 * BENCH_SAMPLES + s
                                             : (size_t)(bench_splitmix(&st) % n);
    const float w = row->check == BENCH_CHECK_VADD ? h->a[i] + h->b[i] : stencil_at(h->a, n, r, i);
    if (memcmp(&out[i], &w, sizeof w) != 0 && bad++ == 0) {
      first = i;
      got = out[i];
      want = w;
    }
  }
  res->sampled = sampled;
  res->tol = 0;
  res->error = NAN;
  res->verdict = bad ? BENCH_V_NO : BENCH_V_YES;
  if (bad)
    snprintf(res->note, sizeof res->note, "%zu of %zu elements differ, first at %zu: %g, not %g",
             bad, count, first, (double)got, (double)want);
}

void bench_verify(const bench_host *h, const bench_row_def *row, const float *out,
                  bench_result *res) {
  switch (row->check) {
    case BENCH_CHECK_REDUCE: verify_reduce(h, out, res); break;
    case BENCH_CHECK_VADD:
    case BENCH_CHECK_STENCIL: verify_elementwise(h, row, out, res); break;
    case BENCH_CHECK_NONE:
      res->verdict = BENCH_V_SKIPPED;
      snprintf(res->note, sizeof res->note,
               "in place (y += x): a bandwidth reference, not checked");
      break;
    case BENCH_CHECK_GEMM: verify_gemm(h, out, row->tol, res); break;
    case BENCH_CHECK_TRANSPOSE: verify_move(h, 1, out, res); break;
    case BENCH_CHECK_COPY: verify_move(h, 0, out, res); break;
  }
}
