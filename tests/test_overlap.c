/* SPDX-License-Identifier: MIT */
/* Launches that overlap the launch before them (LAUNCH_OVERLAP: CUDA's programmatic stream
 * serialization, compute capability 9.0 and later; src/launch.c decides, kernels_cl/builtin.h's
 * AFTER_PRIOR_LAUNCH waits):
 *   - which launches of a call are marked to overlap (duet__describe): on CUDA from compute
 *     capability 9.0 every launch of a GEMM group written once and no other, none with
 *     DUET_TUNE=LAUNCH_OVERLAP=0, none on OpenCL;
 *   - chains of GEMM calls enqueued without a wait between them, each reading the C of the call
 *     before it (a read after a write) and the last overwriting the A that the first read (a
 *     write after a read), at shapes whose plans take the pack, split-K's reduction, the
 *     cluster kernel, GEMV and skinny, so that a kernel that touched memory before the launch
 *     before it had finished would give a wrong element. Each C is checked against the CPU's
 *     product of the A that call was given (the host's, or the one before it as read back). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duet_launch.h"
#include "harness.h"

/* The compute capability's major number in the context's version string ("CUDA 13.0, sm_90"),
 * 0 where it names none. */
static int sm_major(const harness_dev *dev) {
  const char *sm = strstr(dev->info.version, "sm_");
  return sm ? atoi(sm + 3) / 10 : 0;
}

/* The launches of one AUTO sgemm of m x n x k (tight lds), as duet__describe records them. */
static int describe_sgemm(duet_ctx *ctx, size_t m, size_t n, size_t k, duet__description *d) {
  duet_buf *a = NULL, *b = NULL, *c = NULL;
  int st = duet_buf_create(ctx, m * k * sizeof(float), &a);
  if (!st) st = duet_buf_create(ctx, k * n * sizeof(float), &b);
  if (!st) st = duet_buf_create(ctx, m * n * sizeof(float), &c);
  if (!st) {
    duet__describe(ctx, d);
    st = duet_sgemm(ctx, DUET_GEMM_AUTO, DUET_NO_TRANS, DUET_NO_TRANS, m, n, k, 1.0f, a, k, b, n,
                    0.0f, c, n);
    duet__describe(ctx, NULL);
  }
  duet_buf_destroy(a);
  duet_buf_destroy(b);
  duet_buf_destroy(c);
  return st;
}

/* Every launch of the call overlaps where its group waits for the launch before it (`on`), and
 * none does where not. */
static void check_marks(const harness_dev *dev, duet_ctx *ctx, const char *tune, int on, size_t m,
                        size_t n, size_t k) {
  harness_case c;
  harness_case_begin(&c, dev, "overlap marks %s sgemm auto m=%zu n=%zu k=%zu", tune, m, n, k);
  duet__description d;
  if (!harness_expect_status(&c, describe_sgemm(ctx, m, n, k, &d), DUET_OK, ctx, "describe"))
    goto done;
  for (unsigned i = 0; i < d.n; i++) {
    const int after_prior = duet__groups[d.step[i].kernel->group].after_prior;
    const int want = on && after_prior;
    if (!harness_expect(&c, d.step[i].launch.overlap == want,
                        "launch %u (%s, group %s) overlap %d, want %d", i, d.step[i].kernel->name,
                        duet__groups[d.step[i].kernel->group].name, d.step[i].launch.overlap, want))
      break;
  }
done:
  harness_case_end(&c);
}

/* The transpose, a course kernel, never overlaps. */
static void check_transpose(const harness_dev *dev, duet_ctx *ctx) {
  harness_case c;
  harness_case_begin(&c, dev, "overlap marks transpose padded 64 x 64");
  duet_buf *in = NULL, *out = NULL;
  duet__description d;
  int st = duet_buf_create(ctx, 64 * 64 * sizeof(float), &in);
  if (!st) st = duet_buf_create(ctx, 64 * 64 * sizeof(float), &out);
  if (!st) {
    duet__describe(ctx, &d);
    st = duet_transpose(ctx, DUET_TRANSPOSE_PADDED, 64, 64, in, 64, out, 64);
    duet__describe(ctx, NULL);
  }
  if (harness_expect_status(&c, st, DUET_OK, ctx, "describe"))
    for (unsigned i = 0; i < d.n; i++)
      harness_expect(&c, !d.step[i].launch.overlap, "launch %u (%s) overlaps", i,
                     d.step[i].kernel->name);
  duet_buf_destroy(in);
  duet_buf_destroy(out);
  harness_case_end(&c);
}

static const size_t mark_shapes[][3] = {
    {997, 997, 997},   /* both operands packed, then fast */
    {512, 512, 512},   /* split-K: the cluster kernel on CUDA, the tiny tile's on OpenCL */
    {256, 256, 16384}, /* split-K and its reduction */
    {1, 1024, 1024},   /* GEMV */
    {4, 1024, 1024},   /* skinny */
};

static void marks(const harness_dev *dev, void *user) {
  (void)user;
  /* whether this device overlaps: CUDA from compute capability 9.0, with code compiled for it
   * (the compiler's record of sgemv's code says; older PTX JIT-compiled lacks the wait) */
  int on = dev->backend == DUET_BACKEND_CUDA && sm_major(dev) >= 9;
  if (on) {
    duet__kernel_attrs a;
    if (duet__kernel_attrs_get(dev->ctx, DUET__K_SGEMV, &a) == DUET_OK && a.code_version < 90) {
      harness_case c;
      harness_case_begin(&c, dev, "overlap marks on compute capability %d", sm_major(dev));
      harness_case_skip(&c,
                        "this build's GEMM code is from PTX %d, without the wait: nothing "
                        "overlaps",
                        a.code_version);
      on = 0;
    }
  }
  for (size_t i = 0; i < sizeof mark_shapes / sizeof mark_shapes[0]; i++)
    check_marks(dev, dev->ctx, "default", on, mark_shapes[i][0], mark_shapes[i][1],
                mark_shapes[i][2]);
  check_transpose(dev, dev->ctx);
  duet_ctx *off = NULL;
  harness_case c;
  harness_case_begin(&c, dev, "context with DUET_TUNE=LAUNCH_OVERLAP=0");
  const int st =
      harness_create_with_env(&off, "DUET_TUNE", "LAUNCH_OVERLAP=0", dev->backend, dev->device);
  harness_expect_status(&c, st, DUET_OK, off, "duet_ctx_create");
  harness_case_end(&c);
  if (st) return;
  for (size_t i = 0; i < sizeof mark_shapes / sizeof mark_shapes[0]; i++)
    check_marks(dev, off, "LAUNCH_OVERLAP=0", 0, mark_shapes[i][0], mark_shapes[i][1],
                mark_shapes[i][2]);
  duet_ctx_destroy(off);
}

/* ---- chains ------------------------------------------------------------------------------ */

/* A chain of X_{i+1} = alpha * X_i * B (X_i m x n, B n x n, alpha 1 / sqrt(n) to keep the
 * magnitudes), three calls enqueued back to back: X_1 and X_2 into buffers of their own, X_3
 * into X_0's. */
typedef struct {
  size_t m, n;
  const char *why;
} chain_shape;

static const chain_shape chains[] = {
    {997, 997, "both operands packed (ld 997), fast after"},
    {512, 512, "split-K: the cluster kernel (CUDA) or the tiny tile's fused slices (OpenCL)"},
    {64, 64, "one launch of the tiny tile"},
    {1, 2048, "GEMV"},
    {4, 2048, "skinny"},
    {200, 40, "thin C"},
};

/* C(i, j) against the CPU's alpha * X B, X m x n and B n x n (row-major, tight). */
static size_t check_product(harness_case *c, const char *what, const float *x, const float *b,
                            const float *got, size_t m, size_t n, float alpha) {
  size_t bad = 0;
  for (size_t i = 0; i < m; i++)
    for (size_t j = 0; j < n; j++) {
      double sum = 0, mag = 0;
      for (size_t p = 0; p < n; p++) {
        const double t = (double)x[i * n + p] * b[p * n + j];
        sum += t;
        mag += fabs(t);
      }
      const float out = got[i * n + j];
      if (!harness_sgemm_element_ok(sum, mag, n, alpha, 0.0f, 0.0f, out, 1e-5) && !bad++)
        harness_case_fail(c, "%s(%zu,%zu) = %.9g, want %g * %.9g", what, i, j, out, alpha, sum);
    }
  return bad;
}

static void run_chain(const harness_dev *dev, const chain_shape *s) {
  harness_case c;
  harness_case_begin(&c, dev, "overlap chain sgemm auto m=%zu n=%zu k=%zu x3 (%s)", s->m, s->n,
                     s->n, s->why);
  const size_t m = s->m, n = s->n, nx = m * n, nb = n * n;
  /* three m x n matrices and B on the device; on the host X_0 to X_3 and B, and room for one
   * m x n matrix more */
  char why[160];
  if (!harness_fits(dev, 4.0 * (3 * nx + nb), 4.0 * (5 * nx + nb), why, sizeof why)) {
    harness_case_skip(&c, "%s", why);
    return;
  }
  if (dev->info.type == DUET_DEVICE_CPU && (double)m * n * n > 3e7) {
    harness_case_skip(&c, "a CPU device computes it slowly; the overlap it checks is CUDA's");
    return;
  }
  const float alpha = 1.0f / sqrtf((float)n);
  float *x0 = malloc(nx * sizeof *x0), *hb = malloc(nb * sizeof *hb);
  float *x1 = malloc(nx * sizeof *x1), *x2 = malloc(nx * sizeof *x2), *x3 = malloc(nx * sizeof *x3);
  duet_buf *bx0 = NULL, *bx1 = NULL, *bx2 = NULL, *bb = NULL;
  duet_ctx *ctx = dev->ctx;
  if (!harness_expect(&c, x0 && hb && x1 && x2 && x3, "no host memory")) goto done;
  for (size_t i = 0; i < nx; i++) x0[i] = harness_random_unit(harness_hash(c.seed, i));
  for (size_t i = 0; i < nb; i++) hb[i] = harness_random_unit(harness_hash(c.seed + 1, i));
  int st = duet_buf_create(ctx, nx * sizeof(float), &bx0);
  if (!st) st = duet_buf_create(ctx, nx * sizeof(float), &bx1);
  if (!st) st = duet_buf_create(ctx, nx * sizeof(float), &bx2);
  if (!st) st = duet_buf_create(ctx, nb * sizeof(float), &bb);
  if (!st) st = duet_buf_write(bx0, 0, x0, nx * sizeof(float));
  if (!st) st = duet_buf_write(bb, 0, hb, nb * sizeof(float));
  if (!st) st = duet_finish(ctx);
  if (!harness_expect_status(&c, st, DUET_OK, ctx, "setup")) goto done;
  /* no wait between the three: each kernel's own wait is all that orders them */
  duet_buf *from[3] = {bx0, bx1, bx2}, *to[3] = {bx1, bx2, bx0};
  for (int i = 0; i < 3 && !st; i++)
    st = duet_sgemm(ctx, DUET_GEMM_AUTO, DUET_NO_TRANS, DUET_NO_TRANS, m, n, n, alpha, from[i], n,
                    bb, n, 0.0f, to[i], n);
  if (!st) st = duet_finish(ctx);
  if (!harness_expect_status(&c, st, DUET_OK, ctx, "duet_sgemm x3")) goto done;
  st = duet_buf_read(bx1, 0, x1, nx * sizeof(float));
  if (!st) st = duet_buf_read(bx2, 0, x2, nx * sizeof(float));
  if (!st) st = duet_buf_read(bx0, 0, x3, nx * sizeof(float));
  if (!harness_expect_status(&c, st, DUET_OK, ctx, "duet_buf_read")) goto done;
  /* X_1 from the host's X_0 (the third call overwrote its buffer: a write after the first
   * call's read), X_2 from X_1 and X_3 from X_2 as the device left them (reads after writes) */
  size_t bad = check_product(&c, "X1", x0, hb, x1, m, n, alpha);
  bad += check_product(&c, "X2", x1, hb, x2, m, n, alpha);
  bad += check_product(&c, "X3", x2, hb, x3, m, n, alpha);
  harness_expect(&c, !bad, "%zu of %zu elements wrong", bad, 3 * nx);
done:
  harness_case_end(&c);
  duet_buf_destroy(bx0);
  duet_buf_destroy(bx1);
  duet_buf_destroy(bx2);
  duet_buf_destroy(bb);
  free(x0);
  free(hb);
  free(x1);
  free(x2);
  free(x3);
}

static void chain_all(const harness_dev *dev, void *user) {
  (void)user;
  for (size_t i = 0; i < sizeof chains / sizeof chains[0]; i++) run_chain(dev, &chains[i]);
}

int main(void) {
  harness_init("test_overlap");
  harness_for_each_ctx(marks, NULL);
  harness_for_each_ctx(chain_all, NULL);
  return harness_end();
}
