/* SPDX-License-Identifier: MIT */
/* One transpose or copy case, checked bit for bit against the CPU. */
#include <math.h>
#include <string.h>

#include "harness.h"

/* Inputs beyond this are not read back to prove them unchanged: it would double host memory
 * for the 2^31-element case, and the small tier already proves that kernels leave `in` alone. */
#define RECHECK_INPUT_MAX ((size_t)1 << 26)

typedef struct {
  size_t bad, first_out, first_r, first_c; /* first in output order */
  float got, want;
  double max_err;
} diff;

/* Folds d into `into`: counts add, the first mismatch in output order wins, and the max error
 * stays NaN once a NaN is seen. */
static void merge(diff *into, const diff *d) {
  if (!d->bad) return;
  if (!into->bad || d->first_out < into->first_out) {
    into->first_out = d->first_out;
    into->first_r = d->first_r;
    into->first_c = d->first_c;
    into->got = d->got;
    into->want = d->want;
  }
  into->bad += d->bad;
  if (isnan(d->max_err) || d->max_err > into->max_err) into->max_err = d->max_err;
}

static void compare_at(diff *d, float got, float want, size_t out_index, size_t r, size_t c) {
  if (harness_bits_of(got) == harness_bits_of(want)) return;
  const diff one = {1, out_index, r, c, got, want, fabs((double)got - (double)want)};
  merge(d, &one);
}

/* Walks the input in 64 x 64 blocks so that the transposed reads of `out` stay in cache, bands
 * of 64 rows in parallel: at 2^31 elements a serial walk is most of a case's time. */
static diff compare(const harness_mat *in, const float *out, size_t ld_out, int transposed) {
  diff all;
  memset(&all, 0, sizeof all);
  const size_t B = 64;
#pragma omp parallel if (in->rows * in->cols >= HARNESS_OMP_MIN)
  {
    diff d;
    memset(&d, 0, sizeof d);
#pragma omp for schedule(dynamic, 16)
    for (size_t r0 = 0; r0 < in->rows; r0 += B)
      for (size_t c0 = 0; c0 < in->cols; c0 += B)
        for (size_t r = r0; r < r0 + B && r < in->rows; r++)
          for (size_t c = c0; c < c0 + B && c < in->cols; c++) {
            size_t o = transposed ? c * ld_out + r : r * ld_out + c;
            compare_at(&d, out[o], in->host[r * in->ld + c], o, r, c);
          }
#pragma omp critical
    merge(&all, &d);
  }
  return all;
}

const duet_transpose_variant harness_moves[] = {DUET_TRANSPOSE_NAIVE,
                                                DUET_TRANSPOSE_COALESCED,
                                                DUET_TRANSPOSE_PADDED,
                                                DUET_TRANSPOSE_PADDED_TALL,
                                                DUET_TRANSPOSE_REGISTER,
                                                DUET_TRANSPOSE_AUTO,
                                                HARNESS_COPY};
_Static_assert(sizeof harness_moves / sizeof harness_moves[0] == HARNESS_MOVES,
               "HARNESS_MOVES counts harness_moves");

int harness_run_move(const harness_dev *dev, duet_transpose_variant v, size_t rows, size_t cols,
                     size_t pad_in, size_t pad_out) {
  int copy = v == HARNESS_COPY;
  size_t out_rows = copy ? rows : cols, out_cols = copy ? cols : rows;
  size_t ld_in = cols + pad_in, ld_out = out_cols + pad_out;
  harness_case c;
  harness_case_begin(&c, dev, "%s %s %zux%zu ld_in=%zu ld_out=%zu", copy ? "copy" : "transpose",
                     copy ? "-" : duet_transpose_variant_name(v), rows, cols, ld_in, ld_out);
  double bytes = ((double)harness_span(rows, cols, ld_in) +
                  (double)harness_span(out_rows, out_cols, ld_out) + 2 * HARNESS_TAIL) *
                 sizeof(float);
  char why[160];
  if (!harness_fits(dev, bytes, bytes, why, sizeof why)) {
    harness_case_skip(&c, "%s", why);
    return 1;
  }
  harness_rng rng = harness_rng_make(c.seed);
  harness_mat in = {0}, out = {0}; /* zeroed matrices are safe to free */
  int status = harness_mat_init(&in, dev->ctx, rows, cols, ld_in);
  if (!status) status = harness_mat_init(&out, dev->ctx, out_rows, out_cols, ld_out);
  if (status) {
    /* Only a device that cannot hold a giant case may skip it; a small one must always fit. */
    if (status == DUET_ENOMEM && bytes > (double)(1u << 30))
      harness_case_skip(&c, "allocation refused: %s", duet_ctx_last_error(dev->ctx));
    else
      harness_expect_status(&c, status, DUET_OK, dev->ctx, "harness_mat_init");
    harness_mat_free(&in);
    harness_mat_free(&out);
    return c.failed ? harness_case_end(&c) : 1;
  }
  status = harness_mat_fill(&in, HARNESS_FILL_BITS, &rng);
  if (harness_expect_status(&c, status, DUET_OK, dev->ctx, "duet_buf_write in")) {
    status = harness_mat_fill(&out, HARNESS_FILL_POISON, &rng);
    harness_expect_status(&c, status, DUET_OK, dev->ctx, "duet_buf_write out");
  }
  if (!c.failed) {
    status = copy ? duet_copy(dev->ctx, rows, cols, in.buf, ld_in, out.buf, ld_out)
                  : duet_transpose(dev->ctx, v, rows, cols, in.buf, ld_in, out.buf, ld_out);
    harness_expect_status(&c, status, DUET_OK, dev->ctx, copy ? "duet_copy" : "duet_transpose");
    harness_expect_status(&c, duet_finish(dev->ctx), DUET_OK, dev->ctx, "duet_finish");
  }
  /* out's host copy is no longer needed as written: its guards live in out.guard. */
  if (!c.failed && harness_expect_status(&c, harness_mat_read(&out, out.host), DUET_OK, dev->ctx,
                                         "duet_buf_read out")) {
    diff d = compare(&in, out.host, ld_out, !copy);
    if (d.bad)
      harness_case_fail(&c,
                        "%zu of %zu elements differ, max error %g; first in out order: in(%zu,%zu) "
                        "came out 0x%08x (%.9g), want 0x%08x (%.9g)",
                        d.bad, rows * cols, d.max_err, d.first_r, d.first_c,
                        (unsigned)harness_bits_of(d.got), d.got, (unsigned)harness_bits_of(d.want),
                        d.want);
    harness_mat_check_guards(&c, &out, out.host, "out");
    if (in.len <= RECHECK_INPUT_MAX) harness_mat_check_unchanged(&c, &in, "in");
  }
  harness_mat_free(&in);
  harness_mat_free(&out);
  return harness_case_end(&c);
}
