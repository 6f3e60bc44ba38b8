/* SPDX-License-Identifier: MIT */
/* Partials published between blocks under load: stream-K's, split-K summed in its one launch
 * (stream-K at the tiny tile) and GEMV's k slices (tickets); many launches of each shape on one
 * context, the data changing
 * from one launch to the next (two A matrices in turn), every element of every launch checked
 * exactly (small integers, so any sum is exact in float). A partial read before its publisher
 * finished writing it, or a count that let a tile's summing group start early, leaves the
 * previous launch's values or a missing term in C. Before the per-work-item stamps
 * (docs/correctness.md, "stream-K's publish"), PoCL with 32 compute units gave a wrong C in
 * nearly every 64 x 64 x 512 launch, and 64^3 over 5 to 16 units in 1 to 15 launches of 1000
 * under load.
 * PoCL takes its compute units from POCL_MAX_PTHREAD_COUNT when it starts, so this program sets
 * it to 32 (more threads than the machine has cores, so that groups are preempted mid-publish)
 * before anything touches OpenCL; DUET_TUNE makes every shape's plan stream-K
 * (GEMM_FAST_BIG_PCT=1, GEMM_FAST_STREAMK_PCT=1) or sums split-K in the launch
 * (GEMM_SPLITK_FUSE=8), and gives sgemv-dot two outputs a warp (GEMV_DOT_LANES=16, OpenCL alone:
 * CUDA's kernels are compiled with the set's 32; an H200 gave one wrong 1 x 4096 x 4096 B^T so,
 * docs/results/h200.md, nineteenth session). A case whose plan a device does not take says SKIP.
 * DUET_TEST_STREAMK_REPEAT=N runs N times the launches (a longer stress on a GPU). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duet_launch.h"
#include "harness.h"

typedef struct {
  duet_trans ta, tb;
  size_t m, n, k;
  int launches;
} shape;

/* Small integers in [-3, 3]: every product and sum below is exact in float. */
static void fill(float *x, size_t len, uint64_t seed) {
  for (size_t i = 0; i < len; i++) x[i] = (float)(int)(harness_hash(seed, i) % 7) - 3.0f;
}

static void reference(const shape *s, const float *a, const float *b, float *c) {
  for (size_t i = 0; i < s->m; i++)
    for (size_t j = 0; j < s->n; j++) {
      float sum = 0.0f;
      for (size_t p = 0; p < s->k; p++)
        sum += (s->ta ? a[p * s->m + i] : a[i * s->k + p]) *
               (s->tb ? b[j * s->k + p] : b[p * s->n + j]);
      c[i * s->n + j] = sum;
    }
}

/* Whether the call's plan launches a kernel whose name has `kernel` (duet__describe runs
 * nothing). */
static int plans_kernel(duet_ctx *ctx, const char *kernel, const shape *s, duet_buf *a, duet_buf *b,
                        duet_buf *c) {
  duet__description d;
  duet__describe(ctx, &d);
  int st = duet_sgemm(ctx, DUET_GEMM_FAST, s->ta, s->tb, s->m, s->n, s->k, 1.0f, a,
                      s->ta ? s->m : s->k, b, s->tb ? s->k : s->n, 0.0f, c, s->n);
  duet__describe(ctx, NULL);
  int found = 0;
  for (unsigned i = 0; !st && i < d.n; i++) found |= strstr(d.step[i].kernel->name, kernel) != NULL;
  return found;
}

static void run_shape(const harness_dev *dev, duet_ctx *ctx, const char *kernel, const shape *s) {
  harness_case c;
  const char *repeat = getenv("DUET_TEST_STREAMK_REPEAT");
  const int launches = s->launches * (repeat && atoi(repeat) > 0 ? atoi(repeat) : 1);
  harness_case_begin(&c, dev, "%s %c%c m=%zu n=%zu k=%zu x%d launches", kernel, s->ta ? 'T' : 'N',
                     s->tb ? 'T' : 'N', s->m, s->n, s->k, launches);
  const size_t na = s->m * s->k, nb = s->k * s->n, nc = s->m * s->n;
  float *ha[2] = {malloc(na * sizeof(float)), malloc(na * sizeof(float))};
  float *want[2] = {malloc(nc * sizeof(float)), malloc(nc * sizeof(float))};
  float *hb = malloc(nb * sizeof(float)), *got = malloc(nc * sizeof(float));
  duet_buf *a[2] = {NULL, NULL}, *b = NULL, *cb = NULL;
  if (!harness_expect(&c, ha[0] && ha[1] && want[0] && want[1] && hb && got, "no host memory"))
    goto done;
  fill(hb, nb, c.seed + 2);
  int st = duet_buf_create(ctx, nb * sizeof(float), &b);
  if (!st) st = duet_buf_write(b, 0, hb, nb * sizeof(float));
  if (!st) st = duet_buf_create(ctx, nc * sizeof(float), &cb);
  for (int v = 0; v < 2; v++) {
    fill(ha[v], na, c.seed + (uint64_t)v);
    reference(s, ha[v], hb, want[v]);
    if (!st) st = duet_buf_create(ctx, na * sizeof(float), &a[v]);
    if (!st) st = duet_buf_write(a[v], 0, ha[v], na * sizeof(float));
  }
  if (!harness_expect_status(&c, st, DUET_OK, ctx, "setup")) goto done;
  if (!plans_kernel(ctx, kernel, s, a[0], b, cb)) {
    harness_case_skip(&c, "this device's plan for the shape launches no %s kernel", kernel);
    goto freed;
  }
  int wrong = 0;
  for (int l = 0; l < launches && !c.failed; l++) {
    const int v = l & 1;
    st = duet_sgemm(ctx, DUET_GEMM_FAST, s->ta, s->tb, s->m, s->n, s->k, 1.0f, a[v],
                    s->ta ? s->m : s->k, b, s->tb ? s->k : s->n, 0.0f, cb, s->n);
    if (!st) st = duet_finish(ctx);
    if (!st) st = duet_buf_read(cb, 0, got, nc * sizeof(float));
    if (!harness_expect_status(&c, st, DUET_OK, ctx, "duet_sgemm")) break;
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < nc; i++)
      if (got[i] != want[v][i] && !bad++) first = i;
    if (bad && !wrong++)
      harness_case_fail(&c, "launch %d: %zu of %zu elements wrong, C(%zu,%zu) = %g, want %g", l,
                        bad, nc, first / s->n, first % s->n, got[first], want[v][first]);
  }
  harness_expect(&c, !wrong, "a wrong C in %d launches", wrong);
done:
  harness_case_end(&c);
freed:
  for (int v = 0; v < 2; v++) {
    duet_buf_destroy(a[v]);
    free(ha[v]);
    free(want[v]);
  }
  duet_buf_destroy(b);
  duet_buf_destroy(cb);
  free(hb);
  free(got);
}

/* The shapes on a context created with DUET_TUNE=tune, each checked to launch a kernel whose
 * name has `kernel`; SKIP where the backend refuses the values (CUDA, a kernel's tunable). */
static void stress_with(const harness_dev *dev, const char *tune, const char *kernel,
                        const shape *shapes, size_t n) {
  harness_case c;
  duet_ctx *ctx = NULL;
  harness_case_begin(&c, dev, "duet_ctx_create DUET_TUNE=%s", tune);
  const int st = harness_create_with_env(&ctx, "DUET_TUNE", tune, dev->backend, dev->device);
  if (st == DUET_EUNSUPPORTED && dev->backend == DUET_BACKEND_CUDA) {
    harness_case_skip(&c, "CUDA's kernels are compiled ahead of time with the set's values");
    return;
  }
  const int ok = harness_expect_status(&c, st, DUET_OK, NULL, "duet_ctx_create");
  harness_case_end(&c);
  if (!ok) return;
  for (size_t i = 0; i < n; i++) run_shape(dev, ctx, kernel, &shapes[i]);
  duet_ctx_destroy(ctx);
}

#define N_ DUET_NO_TRANS
#define T_ DUET_TRANS
static void stress(const harness_dev *dev, void *user) {
  (void)user;
  printf("      %u compute units\n", dev->info.compute_units);
  /* One tile shared by every unit (64 iterations on a CPU's 64 x 64 tile); one tile of 8
   * iterations, fewer than the units; several tiles with ragged edges; one GPU tile of 512
   * iterations (256 x 128 on the H100: every one of 132 units shares it). NN only: each transposed
   * form is a kernel of its own, which PoCL would build for tens of seconds more (test_regress
   * and test_gemm check them). */
  const shape stream_k[] = {
      {N_, N_, 64, 64, 512, 300},
      {N_, N_, 64, 64, 64, 400},
      {N_, N_, 130, 129, 200, 100},
      {N_, N_, 256, 128, 4096, 20},
  };
  stress_with(dev, "GEMM_FAST_BIG_PCT=1,GEMM_FAST_STREAMK_PCT=1", "_sk_", stream_k,
              sizeof stream_k / sizeof stream_k[0]);
  /* split-K of the tiny tile summed in its one launch: 4 tiles in 8 slices, 15 ragged tiles in 2
   * (32 PoCL units); on the H200's OpenCL (132 units) 6 ragged tiles in 8 slices, 20 ragged
   * tiles in 6 and 64 tiles in 8, where the first two shapes split k too finely to fuse (its
   * CUDA plans fuse 512^3 alone) */
  const shape fused[] = {
      {N_, N_, 64, 64, 4096, 200},  {N_, N_, 130, 70, 1000, 200}, {N_, N_, 130, 70, 600, 200},
      {N_, N_, 300, 200, 700, 100}, {N_, N_, 512, 512, 512, 50},
  };
  stress_with(dev, "GEMM_SPLITK_FUSE=8", "_sk_", fused, sizeof fused / sizeof fused[0]);
  /* GEMV's k slices, summed by the last to take each output's ticket: sgemv along a row, and
   * sgemv-dot with two outputs a warp on the shapes of the H200's wrong result */
  const shape gemv[] = {
      {N_, N_, 1, 700, 4100, 200},
      {N_, N_, 1, 4096, 4096, 50},
  };
  stress_with(dev, "GEMV_SPLIT_MIN_K=128", "sgemv", gemv, sizeof gemv / sizeof gemv[0]);
  const shape gemv_dot[] = {
      {N_, T_, 1, 5, 4100, 200},
      {N_, T_, 1, 4096, 4096, 50},
      {N_, N_, 4096, 1, 4096, 50},
  };
  stress_with(dev, "GEMV_THREADS=256,GEMV_DOT_LANES=16,GEMV_UNROLL=8,GEMV_SPLIT_PER_CU=2",
              "sgemv_dot", gemv_dot, sizeof gemv_dot / sizeof gemv_dot[0]);
}

int main(void) {
  setenv("POCL_MAX_PTHREAD_COUNT", "32", 1);
  harness_init("test_streamk");
  harness_for_each_ctx(stress, NULL);
  return harness_end();
}
