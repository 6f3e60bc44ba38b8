/* SPDX-License-Identifier: MIT */
/* A seeded random loop over transpose, copy and sgemm: random shapes, leading dimensions,
 * variants (every sgemm variant), transposes, alpha and beta (extremes among them: inf, 3e38,
 * NaN, 0 with NaN in C) and buffer sizes, some of them wrong on purpose (too small a buffer, an
 * ld below the columns, an unknown variant, a NULL or aliased buffer). A model of the argument
 * rules, written here independently of the library, says which calls must be refused; every
 * refused call must leave every buffer as it was, and every accepted call is checked against the
 * CPU: moves bit for bit, sgemm to the harness's tolerance, and nothing outside the output's
 * elements may change. vector add, the reduction and the stencil get the same treatment (random
 * n, variants, radii, short buffers and aliasing; vadd's c may be its a). It runs for
 * DUET_FUZZ_SECONDS per device (default 10); DUET_TEST_SEED
 * repeats a run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"

typedef struct {
  duet_buf *buf;
  size_t len; /* floats */
  float *host, *got;
} fbuf;

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static size_t pick(harness_rng *r, size_t n) { return (size_t)(harness_rng_next(r) % n); }

/* Mostly small, sometimes 0 or 1, sometimes past a tile edge. */
static size_t extent(harness_rng *r) {
  static const size_t edges[] = {0, 1, 31, 32, 33, 63, 64, 65, 127, 129};
  return pick(r, 4) == 0 ? edges[pick(r, 10)] : 1 + pick(r, 80);
}

/* ld >= cols usually, sometimes one short (refused), sometimes far past. */
static size_t leading(harness_rng *r, size_t cols) {
  switch (pick(r, 8)) {
    case 0: return cols ? cols - 1 : 0;
    case 1: return cols + 1 + pick(r, 200);
    default: return cols + pick(r, 5);
  }
}

static size_t span_of(size_t rows, size_t cols, size_t ld) {
  return rows && cols ? (rows - 1) * ld + cols : 0;
}

/* A buffer for a matrix of `span` floats: usually with a tail, sometimes exact, sometimes one
 * short (refused unless the matrix is empty). */
static int make(fbuf *b, duet_ctx *ctx, size_t span, harness_rng *r) {
  size_t len = span + (pick(r, 3) == 0 ? 0 : 1 + pick(r, 9));
  if (span && pick(r, 10) == 0) len = span - 1;
  if (!len) len = 1;
  b->len = len;
  b->host = malloc(len * sizeof(float));
  b->got = malloc(len * sizeof(float));
  if (!b->host || !b->got) return DUET_ENOMEM;
  for (size_t i = 0; i < len; i++) b->host[i] = harness_random_unit(harness_rng_next(r));
  int st = duet_buf_create(ctx, len * sizeof(float), &b->buf);
  return st ? st : duet_buf_write(b->buf, 0, b->host, len * sizeof(float));
}

static void drop(fbuf *b) {
  duet_buf_destroy(b->buf);
  free(b->host);
  free(b->got);
  memset(b, 0, sizeof *b);
}

/* Reads b back; fails c unless every float outside `out` (rows x cols with ld, NULL: all of
 * them) is bit-identical to what was written. */
static int unchanged_outside(harness_case *c, fbuf *b, size_t rows, size_t cols, size_t ld,
                             const char *name) {
  if (!harness_expect_status(c, duet_buf_read(b->buf, 0, b->got, b->len * sizeof(float)), DUET_OK,
                             NULL, "duet_buf_read"))
    return 0;
  for (size_t i = 0; i < b->len; i++) {
    int inside = rows && cols && i < span_of(rows, cols, ld) && i % ld < cols;
    if (!inside && harness_bits_of(b->got[i]) != harness_bits_of(b->host[i]))
      return harness_expect(c, 0, "%s: float %zu outside the output changed", name, i);
  }
  return 1;
}

typedef struct {
  unsigned calls, accepted;
} tally;

/* transpose (v >= 0) or copy (v < 0). */
static void fuzz_move(harness_case *c, duet_ctx *ctx, harness_rng *r, tally *t) {
  const int copy = pick(r, 4) == 0;
  const int last = DUET_TRANSPOSE_REGISTER; /* the last variant; last + 1: unknown */
  const int v = copy ? -1 : (int)pick(r, last + 2) - (pick(r, 20) == 0 ? last + 2 : 0);
  const size_t rows = extent(r), cols = extent(r);
  const size_t orows = copy ? rows : cols, ocols = copy ? cols : rows;
  const size_t ld_in = leading(r, cols), ld_out = leading(r, ocols);
  fbuf in = {0}, out = {0};
  if (!harness_expect_status(c, make(&in, ctx, span_of(rows, cols, ld_in), r), DUET_OK, ctx,
                             "setup") ||
      !harness_expect_status(c, make(&out, ctx, span_of(orows, ocols, ld_out), r), DUET_OK, ctx,
                             "setup")) {
    drop(&in);
    drop(&out);
    return;
  }
  const int alias = pick(r, 30) == 0, null_in = pick(r, 40) == 0;
  duet_buf *pin = null_in ? NULL : alias ? out.buf : in.buf;
  /* The model: what the library must refuse. */
  int ok = (copy || (v >= 0 && v <= last)) && !null_in && !alias && ld_in >= cols &&
           ld_out >= ocols && span_of(rows, cols, ld_in) <= (alias ? out.len : in.len) &&
           span_of(orows, ocols, ld_out) <= out.len;
  int st = copy ? duet_copy(ctx, rows, cols, pin, ld_in, out.buf, ld_out)
                : duet_transpose(ctx, (duet_transpose_variant)v, rows, cols, pin, ld_in, out.buf,
                                 ld_out);
  if (!st) st = duet_finish(ctx);
  t->calls++;
  harness_expect(c, st == (ok ? DUET_OK : DUET_EINVAL),
                 "%s v=%d %zux%zu ld %zu/%zu bufs %zu/%zu%s%s: %s, want %s (%s)",
                 copy ? "copy" : "transpose", v, rows, cols, ld_in, ld_out, in.len, out.len,
                 alias ? " aliased" : "", null_in ? " in=NULL" : "", duet_status_name(st),
                 ok ? "DUET_OK" : "DUET_EINVAL", duet_ctx_last_error(ctx));
  t->accepted += st == DUET_OK;
  if (st == DUET_OK || st == DUET_EINVAL) {
    unchanged_outside(c, &in, 0, 0, 1, "in");
    if (unchanged_outside(c, &out, st ? 0 : orows, ocols, ld_out, "out") && !st)
      for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++) {
          float want = in.host[i * ld_in + j];
          float got = copy ? out.got[i * ld_out + j] : out.got[j * ld_out + i];
          if (harness_bits_of(got) != harness_bits_of(want)) {
            harness_expect(c, 0, "%s v=%d %zux%zu: element (%zu,%zu) is wrong",
                           copy ? "copy" : "transpose", v, rows, cols, i, j);
            i = rows;
            break;
          }
        }
  }
  drop(&in);
  drop(&out);
}

/* alpha or beta: usually `usual`, one call in five an extreme (BLAS's rules for them are
 * harness_sgemm_element_ok's). */
static float scalar(harness_rng *r, float usual) {
  static const float extremes[] = {INFINITY, -INFINITY, 3e38f, -3e38f, NAN, 0.0f, 1.0f};
  return pick(r, 5) == 0 ? extremes[pick(r, sizeof extremes / sizeof extremes[0])] : usual;
}

static void fuzz_sgemm(harness_case *c, duet_ctx *ctx, harness_rng *r, tally *t) {
  const int v = (int)pick(r, 6) + (pick(r, 25) == 0 ? 9 : 0); /* 9..14: unknown */
  const int ta = (int)pick(r, 2), tb = pick(r, 30) == 0 ? 2 : (int)pick(r, 2);
  const size_t m = extent(r), n = extent(r), k = pick(r, 10) == 0 ? 0 : extent(r);
  const float alpha = scalar(r, pick(r, 10) == 0 ? 0.0f : 1.5f);
  const float beta = scalar(r, pick(r, 3) == 0 ? 0.0f : -0.5f);
  const size_t ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
  const size_t lda = leading(r, ac), ldb = leading(r, bc), ldc = leading(r, n);
  fbuf a = {0}, b = {0}, cc = {0};
  if (!harness_expect_status(c, make(&a, ctx, span_of(ar, ac, lda), r), DUET_OK, ctx, "setup") ||
      !harness_expect_status(c, make(&b, ctx, span_of(br, bc, ldb), r), DUET_OK, ctx, "setup") ||
      !harness_expect_status(c, make(&cc, ctx, span_of(m, n, ldc), r), DUET_OK, ctx, "setup")) {
    drop(&a);
    drop(&b);
    drop(&cc);
    return;
  }
  if (beta == 0.0f) { /* C must not be read: NaN there must not reach the result */
    for (size_t i = 0; i < cc.len; i++) cc.host[i] = NAN;
    if (!harness_expect_status(c, duet_buf_write(cc.buf, 0, cc.host, cc.len * sizeof(float)),
                               DUET_OK, ctx, "setup")) {
      drop(&a);
      drop(&b);
      drop(&cc);
      return;
    }
  }
  const int alias = pick(r, 30) == 0;
  duet_buf *pb = alias ? cc.buf : b.buf;
  int ok = v <= 5 && tb <= 1 && !alias && lda >= ac && ldb >= bc && ldc >= n &&
           span_of(ar, ac, lda) <= a.len && span_of(br, bc, ldb) <= (alias ? cc.len : b.len) &&
           span_of(m, n, ldc) <= cc.len;
  int st = duet_sgemm(ctx, (duet_gemm_variant)v, (duet_trans)ta, (duet_trans)tb, m, n, k, alpha,
                      a.buf, lda, pb, ldb, beta, cc.buf, ldc);
  if (!st) st = duet_finish(ctx);
  t->calls++;
  harness_expect(c, st == (ok ? DUET_OK : DUET_EINVAL),
                 "sgemm v=%d %c%c m=%zu n=%zu k=%zu ld %zu/%zu/%zu%s: %s, want %s (%s)", v,
                 ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, lda, ldb, ldc, alias ? " aliased" : "",
                 duet_status_name(st), ok ? "DUET_OK" : "DUET_EINVAL", duet_ctx_last_error(ctx));
  t->accepted += st == DUET_OK;
  if (st == DUET_OK || st == DUET_EINVAL) {
    unchanged_outside(c, &a, 0, 0, 1, "a");
    unchanged_outside(c, &b, 0, 0, 1, "b");
    if (unchanged_outside(c, &cc, st ? 0 : m, n, ldc, "c") && !st)
      for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
          double ref = 0, mag = 0;
          for (size_t p = 0; p < k; p++) {
            double x = (double)(ta ? a.host[p * lda + i] : a.host[i * lda + p]) *
                       (tb ? b.host[j * ldb + p] : b.host[p * ldb + j]);
            ref += x;
            mag += fabs(x);
          }
          const float c0 = cc.host[i * ldc + j], got = cc.got[i * ldc + j];
          if (!harness_sgemm_element_ok(ref, mag, k, alpha, beta, c0, got, 1e-5)) {
            harness_expect(c, 0,
                           "sgemm v=%d %c%c m=%zu n=%zu k=%zu alpha=%g beta=%g: C(%zu,%zu) = "
                           "%.9g, want alpha * %.9g + beta * %.9g",
                           v, ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, alpha, beta, i, j, got, ref,
                           c0);
            i = m;
            break;
          }
        }
  }
  drop(&a);
  drop(&b);
  drop(&cc);
}

/* Output i of the stencil as the library computes it: j = -r..r, one fmaf each, from 0. */
static float stencil_at(const float *in, size_t n, unsigned r, size_t i) {
  float acc = 0.0f;
  for (unsigned j = 0; j <= 2 * r; j++) {
    const size_t q = i + j; /* in[i + j - r], shifted by r */
    acc = fmaf((float)(j + 1) / 8.0f, q >= r && q - r < n ? in[q - r] : 0.0f, acc);
  }
  return acc;
}

/* vadd, reduce or stencil: random n, variant, radius, buffer sizes and aliasing. */
static void fuzz_vector(harness_case *c, duet_ctx *ctx, harness_rng *r, tally *t) {
  const int routine = (int)pick(r, 3); /* 0 vadd, 1 reduce, 2 stencil */
  const size_t n = pick(r, 8) == 0 ? 1000 + pick(r, 5000) : extent(r);
  const int v = (int)pick(r, routine == 1 ? 5 : 4) + (pick(r, 20) == 0 ? 5 : 0); /* bad: >= 5 */
  const unsigned radius = (unsigned)pick(r, DUET_STENCIL_MAX_RADIUS + 2);        /* 17: refused */
  fbuf a = {0}, b = {0}, out = {0};
  if (!harness_expect_status(c, make(&a, ctx, n, r), DUET_OK, ctx, "setup") ||
      !harness_expect_status(c, make(&b, ctx, n, r), DUET_OK, ctx, "setup") ||
      !harness_expect_status(c, make(&out, ctx, routine == 1 ? 1 : n, r), DUET_OK, ctx, "setup")) {
    drop(&a);
    drop(&b);
    drop(&out);
    return;
  }
  const int alias = pick(r, 10) == 0, null_in = pick(r, 40) == 0;
  duet_buf *pa = null_in ? NULL : alias ? out.buf : a.buf;
  fbuf *in = alias ? &out : &a; /* what the call reads as a (or in) */
  float w[2 * DUET_STENCIL_MAX_RADIUS + 3];
  for (unsigned j = 0; j < sizeof w / sizeof w[0]; j++) w[j] = (float)(j + 1) / 8.0f;
  int ok = !null_in && n <= in->len;
  int st;
  if (routine == 0) {                      /* c may be a */
    ok = ok && n <= b.len && n <= out.len; /* no variant */
    st = duet_vector_add(ctx, n, pa, b.buf, out.buf);
  } else if (routine == 1) {
    ok = ok && v < 5 && !alias && out.len >= 1;
    st = duet_reduce_sum(ctx, (duet_reduce_variant)v, n, pa, out.buf);
  } else {
    ok = ok && v < 4 && !alias && radius <= DUET_STENCIL_MAX_RADIUS && n <= out.len;
    st = duet_stencil_1d(ctx, (duet_stencil_variant)v, n, radius, w, pa, out.buf);
  }
  if (!st) st = duet_finish(ctx);
  t->calls++;
  static const char *const names[] = {"vadd", "reduce", "stencil"};
  harness_expect(c, st == (ok ? DUET_OK : DUET_EINVAL),
                 "%s v=%d n=%zu r=%u bufs %zu/%zu/%zu%s%s: %s, want %s (%s)", names[routine], v, n,
                 radius, a.len, b.len, out.len, alias ? " aliased" : "", null_in ? " in=NULL" : "",
                 duet_status_name(st), ok ? "DUET_OK" : "DUET_EINVAL", duet_ctx_last_error(ctx));
  t->accepted += st == DUET_OK;
  const size_t written = st ? 0 : routine == 1 ? 1 : n;
  if ((st == DUET_OK || st == DUET_EINVAL) && (alias || unchanged_outside(c, &a, 0, 0, 1, "a")) &&
      unchanged_outside(c, &b, 0, 0, 1, "b") &&
      unchanged_outside(c, &out, 1, written, written ? written : 1, "out") && !st) {
    const float *x = in->host;
    if (routine == 1) {
      double sum = 0, mag = 0;
      for (size_t i = 0; i < n; i++) {
        sum += x[i];
        mag += fabs(x[i]);
      }
      harness_expect(c, fabs(out.got[0] - sum) <= (double)n * 0x1p-24 * mag,
                     "reduce v=%d n=%zu: %a, double %a", v, n, out.got[0], sum);
    } else {
      for (size_t i = 0; i < n; i++) {
        const float want = routine == 0 ? x[i] + b.host[i] : stencil_at(x, n, radius, i);
        if (harness_bits_of(out.got[i]) != harness_bits_of(want)) {
          harness_expect(c, 0, "%s v=%d n=%zu r=%u%s: element %zu is %a, want %a", names[routine],
                         v, n, radius, alias ? " aliased" : "", i, out.got[i], want);
          break;
        }
      }
    }
  }
  drop(&a);
  drop(&b);
  drop(&out);
}

static void run(const harness_dev *dev, void *user) {
  const double seconds = *(const double *)user;
  static const char *const names[] = {"transpose and copy", "sgemm",
                                      "vector add, reduction and stencil"};
  for (int routine = 0; routine < 3; routine++) {
    harness_case c;
    harness_case_begin(&c, dev, "fuzz %s for %.0f s", names[routine], seconds / 3);
    harness_rng r = harness_rng_make(c.seed);
    tally t = {0, 0};
    const double stop = now_s() + seconds / 3;
    /* At least 20 calls: the first ones build the OpenCL kernels, which can take the whole time
     * on a busy machine (NVIDIA, five test programs at once: one call in 5 s). */
    while ((now_s() < stop || t.calls < 20) && !c.failed) {
      if (routine == 2)
        fuzz_vector(&c, dev->ctx, &r, &t);
      else if (routine)
        fuzz_sgemm(&c, dev->ctx, &r, &t);
      else
        fuzz_move(&c, dev->ctx, &r, &t);
    }
    printf("      %u calls, %u accepted and checked, %u refused%s\n", t.calls, t.accepted,
           t.calls - t.accepted, c.failed ? " (stopped at the first failure)" : "");
    harness_expect(&c, t.accepted > 0 && t.accepted < t.calls,
                   "the loop must make calls of both kinds: %u of %u accepted", t.accepted,
                   t.calls);
    harness_case_end(&c);
  }
}

int main(void) {
  harness_init("test_fuzz");
  const char *s = getenv("DUET_FUZZ_SECONDS");
  double seconds = s && atof(s) > 0 ? atof(s) : 10.0;
  harness_for_each_ctx(run, &seconds);
  return harness_end();
}
