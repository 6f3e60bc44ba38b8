/* SPDX-License-Identifier: MIT */
/* The course routines on every device: vector add, every reduction and every stencil variant
 * against the CPU, with guarded outputs, aliasing, edge sizes, NaN and infinities, the
 * reductions' reproducibility and error bound, 2^31 + 5 elements in the large tier, and every
 * bad argument. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define BIG (((size_t)1 << 31) + 5) /* past 2^31: 32-bit indices wrap */

static const size_t sizes[] = {1,   2,   3,   4,    5,    7,     31,
                               255, 256, 257, 1000, 4099, 65537, (1u << 20) + 7};
static const duet_reduce_variant reduces[] = {DUET_REDUCE_AUTO, DUET_REDUCE_NAIVE,
                                              DUET_REDUCE_SEQUENTIAL, DUET_REDUCE_SHUFFLE,
                                              DUET_REDUCE_ATOMIC};
static const duet_stencil_variant stencils[] = {DUET_STENCIL_AUTO, DUET_STENCIL_NAIVE,
                                                DUET_STENCIL_SHARED, DUET_STENCIL_REGISTER};
static const unsigned radii[] = {0, 1, 3, 4, 5, 16};

/* A guarded vector of n floats: a 1 x n matrix, with the harness's tail guards. */
static int vec_init(harness_case *c, harness_mat *m, const harness_dev *dev, size_t n) {
  int status = harness_mat_init(m, dev->ctx, 1, n, n ? n : 1);
  return harness_expect_status(c, status, DUET_OK, dev->ctx, "creating a vector");
}
static int vec_write(harness_case *c, harness_mat *m) {
  int status = duet_buf_write(m->buf, 0, m->host, m->len * sizeof(float));
  return harness_expect_status(c, status, DUET_OK, m->ctx, "duet_buf_write");
}
/* Fills the n elements with fill(i), the tail with the guard, and writes it. */
static int vec_fill(harness_case *c, harness_mat *m, float (*fill)(size_t i, uint64_t key),
                    uint64_t key) {
  const float guard = harness_float_of(m->guard);
#pragma omp parallel for schedule(static) if (m->len >= HARNESS_OMP_MIN)
  for (size_t i = 0; i < m->len; i++) m->host[i] = i < m->cols ? fill(i, key) : guard;
  return vec_write(c, m);
}
static float fill_unit(size_t i, uint64_t key) { return harness_random_unit(harness_hash(key, i)); }
/* Small integers: every partial sum of up to 2^21 of them is exact in float. */
static float fill_int(size_t i, uint64_t key) {
  return (float)((int)(harness_hash(key, i) % 17) - 8);
}
/* Sparse ones, and ones past 2^31: a sum that is exact, and wrong if an index wraps. */
static float fill_sparse(size_t i, uint64_t key) {
  (void)key;
  return i % (1u << 20) == 0 || i >= (size_t)1 << 31 ? 1.0f : 0.0f;
}

static int same(float a, float b) {
  return harness_bits_of(a) == harness_bits_of(b) || (isnan(a) && isnan(b));
}

/* Reads m back, checks its guards, and compares its n elements with want(i) bit for bit. */
static void check_vec(harness_case *c, const harness_mat *m, const char *name,
                      float (*want)(const void *ctx, size_t i), const void *wctx, size_t sample) {
  float *got = malloc(m->len * sizeof(float));
  if (!harness_expect(c, got != NULL, "no host memory")) return;
  int status = harness_mat_read(m, got);
  if (harness_expect_status(c, status, DUET_OK, m->ctx, "duet_buf_read")) {
    harness_mat_check_guards(c, m, got, name);
    size_t bad = 0, first = SIZE_MAX;
#pragma omp parallel for schedule(static) reduction(+ : bad) reduction(min : first) \
    if (m->cols >= HARNESS_OMP_MIN)
    for (size_t i = 0; i < m->cols; i++) {
      /* the large tier samples: both ends, 2^31 +- 2^20, and every 4099th */
      const size_t far = (size_t)1 << 31, r = (size_t)1 << 20;
      if (sample && i > r && i + r < m->cols && (i + r < far || i > far + r) && i % 4099) continue;
      if (!same(got[i], want(wctx, i))) {
        bad++;
        if (i < first) first = i;
      }
    }
    if (bad)
      harness_case_fail(c, "%s: %zu of %zu wrong, first at %zu: %a, want %a", name, bad, m->cols,
                        first, got[first], want(wctx, first));
  }
  free(got);
}

/* ---- vector add ------------------------------------------------------------------------------ */
typedef struct {
  const float *a, *b;
} sum2;
static float want_add(const void *p, size_t i) {
  const sum2 *s = p;
  return s->a[i] + s->b[i];
}

/* alias: 0 distinct, 1 c = a, 2 c = b, 3 a = b = c. special: NaN and infinities in a. */
static void run_vadd(const harness_dev *dev, harness_rng *rng, size_t n, int alias, int special,
                     int large) {
  static const char *aliases[] = {"distinct", "c=a", "c=b", "a=b=c"};
  harness_case c;
  harness_case_begin(&c, dev, "vector_add n=%zu %s%s", n, aliases[alias],
                     special ? " nan/inf" : "");
  harness_rng seeded = harness_rng_make(c.seed); /* DUET_TEST_SEED repeats it */
  rng = &seeded;
  harness_mat a, b, out;
  memset(&b, 0, sizeof b);
  memset(&out, 0, sizeof out);
  if (vec_init(&c, &a, dev, n) && (alias == 3 || vec_init(&c, &b, dev, n)) &&
      (alias || vec_init(&c, &out, dev, n)) &&
      vec_fill(&c, &a, large ? fill_int : fill_unit, harness_rng_next(rng)) &&
      (alias == 3 || vec_fill(&c, &b, large ? fill_int : fill_unit, harness_rng_next(rng))) &&
      (alias || harness_mat_fill(&out, HARNESS_FILL_POISON, rng) == DUET_OK)) {
    harness_mat *pb = alias == 3 ? &a : &b, *pc = alias == 0 ? &out : alias == 2 ? &b : &a;
    if (special && n >= 4) {
      a.host[0] = INFINITY;
      a.host[1] = -INFINITY;
      a.host[2] = NAN;
      pb->host[1] = alias == 3 ? -INFINITY : INFINITY; /* -inf + inf = NaN */
      vec_write(&c, &a);
      if (pb != &a) vec_write(&c, pb);
    }
    /* the expected sums, copied before c overwrites an input (only then: 2^31 floats each) */
    float *wa = alias ? malloc(n * sizeof(float)) : a.host;
    float *wb = alias ? malloc(n * sizeof(float)) : pb->host;
    if (harness_expect(&c, wa && wb, "no host memory")) {
      if (alias) {
        memcpy(wa, a.host, n * sizeof(float));
        memcpy(wb, pb->host, n * sizeof(float));
      }
      int status = duet_vector_add(dev->ctx, n, a.buf, pb->buf, pc->buf);
      if (harness_expect_status(&c, status, DUET_OK, dev->ctx, "duet_vector_add")) {
        const sum2 s = {wa, wb};
        check_vec(&c, pc, "c", want_add, &s, large);
      }
    }
    if (alias) {
      free(wa);
      free(wb);
    }
  }
  harness_mat_free(&a);
  harness_mat_free(&b);
  harness_mat_free(&out);
  harness_case_end(&c);
}

/* ---- reduction ------------------------------------------------------------------------------- */
/* One sum into a guarded one-float out; *got its value. */
static int reduce_once(harness_case *c, const harness_dev *dev, duet_reduce_variant v, size_t n,
                       const harness_mat *in, harness_mat *out, float *got) {
  float back[1 + HARNESS_TAIL];
  if (harness_mat_fill(out, HARNESS_FILL_POISON, &(harness_rng){{1, 2, 3, 4}}) != DUET_OK)
    return harness_expect(c, 0, "writing out");
  int status = duet_reduce_sum(dev->ctx, v, n, in->buf, out->buf);
  if (!harness_expect_status(c, status, DUET_OK, dev->ctx, "duet_reduce_sum")) return 0;
  status = harness_mat_read(out, back);
  if (!harness_expect_status(c, status, DUET_OK, dev->ctx, "duet_buf_read")) return 0;
  harness_mat_check_guards(c, out, back, "out");
  *got = back[0];
  return 1;
}

typedef enum { R_INT, R_UNIT, R_NAN, R_INF, R_SPARSE } reduce_data;

static void run_reduce(const harness_dev *dev, harness_rng *rng, duet_reduce_variant v, size_t n,
                       reduce_data data, harness_mat *in, harness_mat *out) {
  static const char *names[] = {"int", "unit", "nan", "inf", "sparse"};
  harness_case c;
  harness_case_begin(&c, dev, "reduce_sum %s n=%zu %s", duet_reduce_variant_name(v), n,
                     names[data]);
  harness_rng seeded = harness_rng_make(c.seed); /* DUET_TEST_SEED repeats it */
  rng = &seeded;
  float (*fill)(size_t, uint64_t) = data == R_SPARSE ? fill_sparse
                                    : data == R_INT  ? fill_int
                                                     : fill_unit;
  if (!vec_fill(&c, in, fill, harness_rng_next(rng))) return (void)harness_case_end(&c);
  if ((data == R_NAN || data == R_INF) && n > 0) {
    in->host[n / 2] = data == R_NAN ? NAN : INFINITY;
    if (!vec_write(&c, in)) return (void)harness_case_end(&c);
  }
  double ref = 0.0, mag = 0.0;
#pragma omp parallel for reduction(+ : ref, mag) if (n >= HARNESS_OMP_MIN)
  for (size_t i = 0; i < n; i++) {
    ref += in->host[i];
    mag += fabs(in->host[i]);
  }
  float got = 0.0f, again = 0.0f;
  if (reduce_once(&c, dev, v, n, in, out, &got)) {
    if (data == R_NAN)
      harness_expect(&c, isnan(got), "sum %a, want NaN", got);
    else if (data == R_INF)
      harness_expect(&c, got == INFINITY, "sum %a, want +inf", got);
    else if (data == R_INT || data == R_SPARSE || n == 0)
      harness_expect(&c, got == (float)ref && (n || harness_bits_of(got) == 0),
                     "sum %a, want exactly %a", got, (float)ref);
    else /* any order of n - 1 additions errs by at most (n - 1) u sum|x| */
      harness_expect(&c, fabs(got - ref) <= (double)n * 0x1p-24 * mag, "sum %a, double %a (%g)",
                     got, ref, fabs(got - ref) / mag);
    if (v != DUET_REDUCE_ATOMIC && reduce_once(&c, dev, v, n, in, out, &again))
      harness_expect(&c, harness_bits_of(got) == harness_bits_of(again),
                     "not reproducible: %a, then %a", got, again);
  }
  harness_case_end(&c);
}

static void reduce_all(const harness_dev *dev, harness_rng *rng, size_t n, int large) {
  harness_case c;
  harness_case_begin(&c, dev, "reduce_sum buffers n=%zu", n);
  harness_rng seeded = harness_rng_make(c.seed); /* DUET_TEST_SEED repeats it */
  rng = &seeded;
  harness_mat in, out;
  int ok = vec_init(&c, &in, dev, n) && vec_init(&c, &out, dev, 1);
  if (!ok) {
    harness_case_end(&c);
  } else {
    for (size_t i = 0; i < COUNT(reduces); i++) {
      if (large) {
        run_reduce(dev, rng, reduces[i], n, R_SPARSE, &in, &out);
        continue;
      }
      run_reduce(dev, rng, reduces[i], n, R_UNIT, &in, &out);
      if (n <= (1u << 21)) run_reduce(dev, rng, reduces[i], n, R_INT, &in, &out);
      if (n == 1000) {
        run_reduce(dev, rng, reduces[i], n, R_NAN, &in, &out);
        run_reduce(dev, rng, reduces[i], n, R_INF, &in, &out);
      }
    }
  }
  harness_mat_free(&in);
  harness_mat_free(&out);
}

/* ---- stencil --------------------------------------------------------------------------------- */
typedef struct {
  const float *in, *w;
  size_t n;
  unsigned r;
} stencil_ref;
/* The kernels' order: j = -r..r, one fmaf each, from 0. */
static float want_stencil(const void *p, size_t i) {
  const stencil_ref *s = p;
  float acc = 0.0f;
  for (long j = -(long)s->r; j <= (long)s->r; j++) {
    const long q = (long)i + j;
    acc = fmaf(s->w[j + s->r], q >= 0 && (size_t)q < s->n ? s->in[q] : 0.0f, acc);
  }
  return acc;
}

static void run_stencil(const harness_dev *dev, harness_rng *rng, duet_stencil_variant v, size_t n,
                        unsigned r, int special, harness_mat *in, harness_mat *out, int large) {
  harness_case c;
  harness_case_begin(&c, dev, "stencil_1d %s n=%zu r=%u%s", duet_stencil_variant_name(v), n, r,
                     special ? " nan/inf" : "");
  harness_rng seeded = harness_rng_make(c.seed); /* DUET_TEST_SEED repeats it */
  rng = &seeded;
  float w[2 * DUET_STENCIL_MAX_RADIUS + 1];
  for (unsigned j = 0; j <= 2 * r; j++)
    w[j] = large ? (float)(j % 3 + 1) : harness_random_unit(harness_rng_next(rng));
  if (vec_fill(&c, in, large ? fill_int : fill_unit, harness_rng_next(rng)) &&
      harness_mat_fill(out, HARNESS_FILL_POISON, rng) == DUET_OK) {
    if (special && n > 40) {
      in->host[3] = INFINITY;
      in->host[n - 2] = NAN;
      in->host[n / 2] = -INFINITY;
      vec_write(&c, in);
    }
    const stencil_ref s = {in->host, w, n, r};
    int status = duet_stencil_1d(dev->ctx, v, n, r, w, in->buf, out->buf);
    /* the weights were copied: the host array may change at once */
    for (unsigned j = 0; j <= 2 * r; j++) w[j] = -w[j];
    for (unsigned j = 0; j <= 2 * r; j++) w[j] = -w[j];
    if (harness_expect_status(&c, status, DUET_OK, dev->ctx, "duet_stencil_1d")) {
      harness_mat_check_unchanged(&c, in, "in");
      check_vec(&c, out, "out", want_stencil, &s, large);
    }
  }
  harness_case_end(&c);
}

/* Weights that change from call to call, and back: each call must use its own. */
static void run_stencil_weights(const harness_dev *dev, harness_rng *rng, harness_mat *in,
                                harness_mat *out) {
  harness_case c;
  harness_case_begin(&c, dev, "stencil_1d weights change between calls n=%zu", in->cols);
  harness_rng seeded = harness_rng_make(c.seed); /* DUET_TEST_SEED repeats it */
  rng = &seeded;
  float w1[7] = {1, 2, 3, 4, 5, 6, 7}, w2[7] = {-1, 0.5f, 0, 2, 0, 0.5f, -1};
  const float *ws[] = {w1, w2, w1};
  const unsigned rs[] = {3, 3, 2};
  vec_fill(&c, in, fill_unit, harness_rng_next(rng));
  for (size_t k = 0; k < COUNT(ws) && !c.failed; k++) {
    int status =
        duet_stencil_1d(dev->ctx, DUET_STENCIL_AUTO, in->cols, rs[k], ws[k], in->buf, out->buf);
    if (!harness_expect_status(&c, status, DUET_OK, dev->ctx, "duet_stencil_1d")) break;
    const stencil_ref s = {in->host, ws[k], in->cols, rs[k]};
    check_vec(&c, out, "out", want_stencil, &s, 0);
  }
  harness_case_end(&c);
}

static void stencil_all(const harness_dev *dev, harness_rng *rng, size_t n, int large) {
  harness_case c;
  harness_case_begin(&c, dev, "stencil_1d buffers n=%zu", n);
  harness_rng seeded = harness_rng_make(c.seed); /* DUET_TEST_SEED repeats it */
  rng = &seeded;
  harness_mat in, out;
  if (!vec_init(&c, &in, dev, n) || !vec_init(&c, &out, dev, n)) {
    harness_case_end(&c);
  } else {
    for (size_t i = 0; i < COUNT(stencils); i++)
      for (size_t k = 0; k < COUNT(radii); k++) {
        /* large: every variant at radius 3, AUTO at 16 (the time of make check on the H100) */
        if (large && radii[k] != 3 && (radii[k] != 16 || stencils[i] != DUET_STENCIL_AUTO))
          continue;
        run_stencil(dev, rng, stencils[i], n, radii[k], 0, &in, &out, large);
        if (n == 4099) run_stencil(dev, rng, stencils[i], n, radii[k], 1, &in, &out, 0);
      }
    if (n == 4099) run_stencil_weights(dev, rng, &in, &out);
  }
  harness_mat_free(&in);
  harness_mat_free(&out);
}

/* ---- n == 0, names, bad arguments ------------------------------------------------------------ */
static void run_empty(const harness_dev *dev, harness_rng *rng) {
  harness_case c;
  harness_case_begin(&c, dev, "vector_add and stencil_1d n=0 write nothing");
  harness_rng seeded = harness_rng_make(c.seed); /* DUET_TEST_SEED repeats it */
  rng = &seeded;
  harness_mat a, out;
  const float w[33] = {1};
  if (vec_init(&c, &a, dev, 4) && vec_init(&c, &out, dev, 4) &&
      harness_mat_fill(&a, HARNESS_FILL_UNIT, rng) == DUET_OK &&
      harness_mat_fill(&out, HARNESS_FILL_POISON, rng) == DUET_OK) {
    harness_expect_status(&c, duet_vector_add(dev->ctx, 0, a.buf, a.buf, out.buf), DUET_OK,
                          dev->ctx, "duet_vector_add");
    for (size_t i = 0; i < COUNT(stencils); i++)
      harness_expect_status(&c, duet_stencil_1d(dev->ctx, stencils[i], 0, 16, w, a.buf, out.buf),
                            DUET_OK, dev->ctx, "duet_stencil_1d");
    harness_mat_check_unchanged(&c, &out, "out");
  }
  harness_mat_free(&a);
  harness_mat_free(&out);
  harness_case_end(&c);
}

static void run_names(void) {
  harness_case c;
  harness_case_begin(&c, NULL, "reduce and stencil variant names and parse");
  for (size_t i = 0; i < COUNT(reduces); i++) {
    duet_reduce_variant v = (duet_reduce_variant)99;
    const char *name = duet_reduce_variant_name(reduces[i]);
    harness_expect(&c, name && !duet_reduce_variant_parse(name, &v) && v == reduces[i],
                   "reduce variant %d: name %s parses to %d", (int)reduces[i], name, (int)v);
  }
  for (size_t i = 0; i < COUNT(stencils); i++) {
    duet_stencil_variant v = (duet_stencil_variant)99;
    const char *name = duet_stencil_variant_name(stencils[i]);
    harness_expect(&c, name && !duet_stencil_variant_parse(name, &v) && v == stencils[i],
                   "stencil variant %d: name %s parses to %d", (int)stencils[i], name, (int)v);
  }
  duet_reduce_variant rv = DUET_REDUCE_NAIVE;
  duet_stencil_variant sv = DUET_STENCIL_NAIVE;
  harness_expect(&c,
                 !duet_reduce_variant_name((duet_reduce_variant)5) &&
                     !duet_reduce_variant_name((duet_reduce_variant)-1) &&
                     !duet_stencil_variant_name((duet_stencil_variant)4),
                 "a name for an unknown variant");
  harness_expect(&c,
                 duet_reduce_variant_parse("fast", &rv) == DUET_EINVAL &&
                     duet_reduce_variant_parse(NULL, &rv) == DUET_EINVAL &&
                     duet_reduce_variant_parse("auto", NULL) == DUET_EINVAL &&
                     rv == DUET_REDUCE_NAIVE,
                 "reduce parse of a bad name or NULL");
  harness_expect(&c,
                 duet_stencil_variant_parse("tiled", &sv) == DUET_EINVAL &&
                     duet_stencil_variant_parse(NULL, &sv) == DUET_EINVAL &&
                     duet_stencil_variant_parse("auto", NULL) == DUET_EINVAL &&
                     sv == DUET_STENCIL_NAIVE,
                 "stencil parse of a bad name or NULL");
  harness_case_end(&c);
}

/* Each bad call: DUET_EINVAL, out untouched, and the context still computes afterwards. */
static void run_bad(const harness_dev *dev, harness_rng *rng) {
  harness_case c;
  harness_case_begin(&c, dev, "vector_add, reduce_sum, stencil_1d bad arguments");
  harness_rng seeded = harness_rng_make(c.seed); /* DUET_TEST_SEED repeats it */
  rng = &seeded;
  harness_mat a, small, out;
  duet_ctx *other = NULL;
  duet_buf *foreign = NULL;
  const float w[33] = {0.5f, 1, 0.5f};
  if (vec_init(&c, &a, dev, 100) && vec_init(&c, &small, dev, 10) && vec_init(&c, &out, dev, 100) &&
      harness_mat_fill(&a, HARNESS_FILL_UNIT, rng) == DUET_OK &&
      harness_mat_fill(&small, HARNESS_FILL_UNIT, rng) == DUET_OK &&
      harness_mat_fill(&out, HARNESS_FILL_POISON, rng) == DUET_OK &&
      harness_expect_status(&c, duet_ctx_create(&other, dev->backend, dev->device), DUET_OK, NULL,
                            "duet_ctx_create") &&
      harness_expect_status(&c, duet_buf_create(other, 400, &foreign), DUET_OK, other,
                            "duet_buf_create")) {
    duet_ctx *x = dev->ctx;
    const size_t big = (size_t)-1 / 2;
    const struct {
      const char *what;
      int status;
    } calls[] = {
        {"vadd NULL ctx", duet_vector_add(NULL, 10, a.buf, a.buf, out.buf)},
        {"vadd NULL a", duet_vector_add(x, 10, NULL, a.buf, out.buf)},
        {"vadd NULL b", duet_vector_add(x, 10, a.buf, NULL, out.buf)},
        {"vadd NULL c", duet_vector_add(x, 10, a.buf, a.buf, NULL)},
        {"vadd small a", duet_vector_add(x, 100, small.buf, a.buf, out.buf)},
        {"vadd small c", duet_vector_add(x, 100, a.buf, a.buf, small.buf)},
        {"vadd huge n", duet_vector_add(x, big, a.buf, a.buf, out.buf)},
        {"vadd foreign", duet_vector_add(x, 10, a.buf, foreign, out.buf)},
        {"reduce NULL ctx", duet_reduce_sum(NULL, DUET_REDUCE_AUTO, 10, a.buf, out.buf)},
        {"reduce variant", duet_reduce_sum(x, (duet_reduce_variant)5, 10, a.buf, out.buf)},
        {"reduce variant -1", duet_reduce_sum(x, (duet_reduce_variant)-1, 10, a.buf, out.buf)},
        {"reduce NULL in", duet_reduce_sum(x, DUET_REDUCE_AUTO, 10, NULL, out.buf)},
        {"reduce NULL out", duet_reduce_sum(x, DUET_REDUCE_AUTO, 10, a.buf, NULL)},
        {"reduce small in", duet_reduce_sum(x, DUET_REDUCE_AUTO, 100, small.buf, out.buf)},
        {"reduce huge n", duet_reduce_sum(x, DUET_REDUCE_SHUFFLE, big, a.buf, out.buf)},
        {"reduce in == out", duet_reduce_sum(x, DUET_REDUCE_AUTO, 10, out.buf, out.buf)},
        {"reduce foreign out", duet_reduce_sum(x, DUET_REDUCE_AUTO, 10, a.buf, foreign)},
        {"stencil NULL ctx", duet_stencil_1d(NULL, DUET_STENCIL_AUTO, 10, 1, w, a.buf, out.buf)},
        {"stencil variant", duet_stencil_1d(x, (duet_stencil_variant)4, 10, 1, w, a.buf, out.buf)},
        {"stencil radius",
         duet_stencil_1d(x, DUET_STENCIL_AUTO, 10, DUET_STENCIL_MAX_RADIUS + 1, w, a.buf, out.buf)},
        {"stencil NULL weights",
         duet_stencil_1d(x, DUET_STENCIL_AUTO, 10, 1, NULL, a.buf, out.buf)},
        {"stencil NULL in", duet_stencil_1d(x, DUET_STENCIL_AUTO, 10, 1, w, NULL, out.buf)},
        {"stencil NULL out", duet_stencil_1d(x, DUET_STENCIL_AUTO, 10, 1, w, a.buf, NULL)},
        {"stencil small out", duet_stencil_1d(x, DUET_STENCIL_SHARED, 100, 1, w, a.buf, small.buf)},
        {"stencil in == out", duet_stencil_1d(x, DUET_STENCIL_NAIVE, 10, 1, w, out.buf, out.buf)},
        {"stencil foreign in", duet_stencil_1d(x, DUET_STENCIL_AUTO, 10, 1, w, foreign, out.buf)},
    };
    for (size_t i = 0; i < COUNT(calls); i++)
      harness_expect(&c, calls[i].status == DUET_EINVAL, "%s: %s, want DUET_EINVAL", calls[i].what,
                     duet_status_name(calls[i].status));
    harness_expect(&c, *duet_ctx_last_error(x) != '\0', "no last error on the context");
    harness_mat_check_unchanged(&c, &out, "out");
    harness_mat_check_unchanged(&c, &small, "small");
    /* the context still works */
    harness_expect_status(&c, duet_stencil_1d(x, DUET_STENCIL_AUTO, 100, 1, w, a.buf, out.buf),
                          DUET_OK, x, "duet_stencil_1d after the bad calls");
    const stencil_ref s = {a.host, w, 100, 1};
    check_vec(&c, &out, "out", want_stencil, &s, 0);
  }
  duet_buf_destroy(foreign);
  duet_ctx_destroy(other);
  harness_mat_free(&a);
  harness_mat_free(&small);
  harness_mat_free(&out);
  harness_case_end(&c);
}

static void skip_large(const harness_dev *dev, const char *what) {
  harness_case c;
  harness_case_begin(&c, dev, "%s n=%zu", what, BIG);
  harness_case_skip(&c, "%s", dev->large_why);
}

static void run(const harness_dev *dev, void *user) {
  (void)user;
  harness_rng rng = harness_rng_make(0); /* each case seeds its own from the run's seed */
  for (size_t i = 0; i < COUNT(sizes); i++) {
    for (int alias = 0; alias < 4; alias++) run_vadd(dev, &rng, sizes[i], alias, 0, 0);
    reduce_all(dev, &rng, sizes[i], 0);
    stencil_all(dev, &rng, sizes[i], 0);
  }
  run_vadd(dev, &rng, 1000, 0, 1, 0);
  run_vadd(dev, &rng, 1000, 3, 1, 0);
  reduce_all(dev, &rng, 0, 0);
  reduce_all(dev, &rng, (1u << 24) + 3, 0); /* shuffle's grid-stride loop, several steps */
  run_empty(dev, &rng);
  run_bad(dev, &rng);
  char why[256];
  /* three vectors of 2^31 + 5 floats on the device, their copies on the host */
  if (!dev->large || !harness_fits(dev, 3.0 * 4 * BIG, 6.0 * 4 * BIG, why, sizeof why)) {
    skip_large(dev, "vector_add");
    skip_large(dev, "reduce_sum all");
    skip_large(dev, "stencil_1d all");
    return;
  }
  run_vadd(dev, &rng, BIG, 0, 0, 1);
  reduce_all(dev, &rng, BIG, 1);
  stencil_all(dev, &rng, BIG, 1);
}

int main(void) {
  harness_init("test_course");
  run_names();
  harness_for_each_ctx(run, NULL);
  return harness_end();
}
