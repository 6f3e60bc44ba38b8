/* SPDX-License-Identifier: MIT */
/* Device matrices with guard values in their ld padding and past their end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

size_t harness_span(size_t rows, size_t cols, size_t ld) {
  if (rows == 0 || cols == 0) return 0;
  size_t span;
  if (__builtin_mul_overflow(rows - 1, ld, &span) || __builtin_add_overflow(span, cols, &span))
    return SIZE_MAX;
  return span;
}

int harness_mat_init_len(harness_mat *m, duet_ctx *ctx, size_t rows, size_t cols, size_t ld,
                         size_t len) {
  static uint32_t serial;
  memset(m, 0, sizeof *m);
  m->ctx = ctx;
  m->rows = rows;
  m->cols = cols;
  m->ld = ld;
  m->span = harness_span(rows, cols, ld);
  m->len = len;
  /* A negative quiet NaN whose payload names the matrix: no kernel computes it by accident. */
  m->guard = 0xfff00000u | (++serial & 0xfffffu);
  if (len > SIZE_MAX / sizeof(float) || !(m->host = malloc(len * sizeof(float))))
    return DUET_ENOMEM;
  return duet_buf_create(ctx, len * sizeof(float), &m->buf);
}

int harness_mat_init(harness_mat *m, duet_ctx *ctx, size_t rows, size_t cols, size_t ld) {
  size_t span = harness_span(rows, cols, ld);
  if (span > SIZE_MAX - HARNESS_TAIL) return DUET_ENOMEM;
  return harness_mat_init_len(m, ctx, rows, cols, ld, span + HARNESS_TAIL);
}

void harness_mat_free(harness_mat *m) {
  duet_buf_destroy(m->buf);
  free(m->host);
  memset(m, 0, sizeof *m);
}

#define DO_PRAGMA(x) _Pragma(#x)

/* Runs body for every float index i of m's buffer, with is_elem telling matrix elements from
 * padding and tail. Row by row, because a division per element costs seconds at 2^31, and rows
 * in parallel (OpenMP, with the given extra clauses), because the 2^31-element cases would
 * otherwise spend most of their time here. */
#define FOR_EACH_FLOAT(m, i, is_elem, clauses, body)                                  \
  do {                                                                                \
    const size_t end_ = (m)->len < (m)->span ? (m)->len : (m)->span, ld_ = (m)->ld;   \
    const size_t full_ = end_ ? end_ / ld_ + (end_ % ld_ != 0) : 0;                   \
    const size_t nrows_ = (m)->rows < full_ ? (m)->rows : full_;                      \
    DO_PRAGMA(omp parallel for schedule(static) clauses)                              \
    for (size_t r_ = 0; r_ < nrows_; r_++) {                                          \
      const size_t base_ = r_ * ld_, stop_ = end_ - base_ < ld_ ? end_ : base_ + ld_; \
      for (size_t i = base_; i < stop_; i++) {                                        \
        const int is_elem = i - base_ < (m)->cols;                                    \
        body;                                                                         \
      }                                                                               \
    }                                                                                 \
    for (size_t i = end_; i < (m)->len; i++) {                                        \
      const int is_elem = 0;                                                          \
      body;                                                                           \
    }                                                                                 \
  } while (0)

int harness_mat_fill(harness_mat *m, harness_fill how, harness_rng *r) {
  const float guard = harness_float_of(m->guard), poison = harness_float_of(HARNESS_POISON_BITS);
  const uint64_t key = harness_rng_next(r);
  float *h = m->host;
  switch (how) {
    case HARNESS_FILL_UNIT:
      FOR_EACH_FLOAT(m, i, e, , h[i] = e ? harness_random_unit(harness_hash(key, i)) : guard);
      break;
    case HARNESS_FILL_BITS:
      FOR_EACH_FLOAT(m, i, e, , h[i] = e ? harness_random_float(harness_hash(key, i)) : guard);
      break;
    case HARNESS_FILL_POISON: FOR_EACH_FLOAT(m, i, e, , h[i] = e ? poison : guard); break;
  }
  return duet_buf_write(m->buf, 0, h, m->len * sizeof(float));
}

int harness_mat_read(const harness_mat *m, float *dst) {
  return duet_buf_read(m->buf, 0, dst, m->len * sizeof(float));
}

/* Describes float index i of m as "(row r, col c)" or "tail +t". */
static void where(const harness_mat *m, size_t i, char *out, size_t n) {
  if (i >= m->span)
    snprintf(out, n, "tail +%zu", i - m->span);
  else
    snprintf(out, n, "row %zu col %zu", i / m->ld, i % m->ld);
}

int harness_mat_check_guards(harness_case *c, const harness_mat *m, const float *got,
                             const char *name) {
  size_t bad = 0, first = SIZE_MAX;
  FOR_EACH_FLOAT(m, i, e, reduction(+ : bad) reduction(min : first),
                 if (!e && harness_bits_of(got[i]) != m->guard) {
                   bad++;
                   if (i < first) first = i;
                 });
  if (!bad) return 1;
  char at[64];
  where(m, first, at, sizeof at);
  harness_case_fail(
      c, "%s: %zu guard floats overwritten, first at index %zu (%s): 0x%08x, want 0x%08x", name,
      bad, first, at, (unsigned)harness_bits_of(got[first]), (unsigned)m->guard);
  return 0;
}

int harness_mat_check_unchanged(harness_case *c, const harness_mat *m, const char *name) {
  float *got = malloc(m->len * sizeof(float));
  if (!harness_expect(c, got != NULL, "%s: no host memory to read it back", name)) return 0;
  int status = harness_mat_read(m, got);
  int ok = harness_expect_status(c, status, DUET_OK, m->ctx, "duet_buf_read");
  size_t bad = 0, first = SIZE_MAX;
#pragma omp parallel for schedule(static) reduction(+ : bad) reduction(min : first) \
    if (m->len >= HARNESS_OMP_MIN)
  for (size_t i = 0; i < (ok ? m->len : 0); i++)
    if (harness_bits_of(got[i]) != harness_bits_of(m->host[i])) {
      bad++;
      if (i < first) first = i;
    }
  if (bad) {
    char at[64];
    where(m, first, at, sizeof at);
    harness_case_fail(c,
                      "%s changed: %zu of %zu floats, first at index %zu (%s): 0x%08x, was 0x%08x",
                      name, bad, m->len, first, at, (unsigned)harness_bits_of(got[first]),
                      (unsigned)harness_bits_of(m->host[first]));
  }
  free(got);
  return ok && !bad;
}
