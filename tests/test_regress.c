/* SPDX-License-Identifier: MIT */
/* Wrong results that returned DUET_OK, and refusals where a right answer was possible (issue
 * 23), each pinned by a case that failed before its fix:
 *   - stream-K where a tile's groups have empty ranges between them (fewer k iterations than
 *     groups): 5 x 5 x 9 with GEMM_FAST_BIG_PCT=1 on 5 compute units, then 64^3 on the same
 *     context, whose flags the first call must not have left dirty; and flags that a launch
 *     which failed half-way left behind (the DUET_TEST_STALE_FLAGS hook);
 *   - split-K's alpha applied once, to the sum (fast's small tile, skinny, skinny-dot, GEMV), and
 *     GEMV's slices summed to the same bits on every call;
 *   - AUTO on a device limited to 128 work-items, and with fast's group failing to build;
 *   - DUET_TUNE values that break a rule of the tuning database (one case per rule), and
 *     DUET_TUNE's numbers parsed digits only, as DUET_DEVICE's.
 * PoCL takes its compute units from POCL_MAX_PTHREAD_COUNT when it starts, so this program sets
 * it to 5 before anything touches OpenCL (it overrides the caller's value). On other devices the
 * cases whose plan the device does not take say SKIP. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duet_launch.h"
#include "harness.h"

typedef float (*fill_fn)(size_t i, uint64_t seed);

static float fill_random(size_t i, uint64_t seed) {
  return harness_random_unit(harness_hash(seed, i));
}

typedef struct {
  duet_gemm_variant v;
  duet_trans ta, tb;
  size_t m, n, k;
  float alpha, beta;
  fill_fn fill_a, fill_b; /* NULL: random */
  const char *want;       /* a kernel the plan must launch (else SKIP), or NULL; see plan_has */
  int want_status;
} gemm_call;

/* Whether the call's plan launches a kernel whose "group:name" contains `want` (duet__describe
 * records it without running anything), so that "gemm_fast:" names the big tile's kernels alone;
 * the plan's kernels, each so written, go into `names`. */
static int plan_has(duet_ctx *ctx, const gemm_call *g, duet_buf *a, size_t lda, duet_buf *b,
                    size_t ldb, duet_buf *c, char *names, size_t n) {
  duet__description d;
  duet__describe(ctx, &d);
  int st = duet_sgemm(ctx, g->v, g->ta, g->tb, g->m, g->n, g->k, g->alpha, a, lda, b, ldb, g->beta,
                      c, g->n);
  duet__describe(ctx, NULL);
  int found = 0;
  names[0] = '\0';
  for (unsigned i = 0; !st && i < d.n; i++) {
    char step[160];
    snprintf(step, sizeof step, "%s:%s", duet__groups[d.step[i].kernel->group].name,
             d.step[i].kernel->name);
    found |= strstr(step, g->want) != NULL;
    size_t used = strlen(names);
    snprintf(names + used, n - used, "%s%s", used ? " " : "", step);
  }
  return found;
}

/* One sgemm with tight lds, checked element by element (harness_sgemm_element_ok). */
static void run_gemm(const harness_dev *dev, duet_ctx *ctx, const gemm_call *g) {
  harness_case c;
  harness_case_begin(&c, dev, "sgemm %s %c%c m=%zu n=%zu k=%zu alpha=%g beta=%g%s%s",
                     duet_gemm_variant_name(g->v), g->ta ? 'T' : 'N', g->tb ? 'T' : 'N', g->m, g->n,
                     g->k, g->alpha, g->beta, g->want ? " plan " : "", g->want ? g->want : "");
  const size_t ar = g->ta ? g->k : g->m, ac = g->ta ? g->m : g->k;
  const size_t br = g->tb ? g->n : g->k, bc = g->tb ? g->k : g->n;
  const size_t na = ar * ac, nb = br * bc, nc = g->m * g->n;
  float *ha = malloc(na * sizeof *ha), *hb = malloc(nb * sizeof *hb);
  float *hc = malloc(nc * sizeof *hc), *got = malloc(nc * sizeof *got);
  duet_buf *a = NULL, *b = NULL, *cb = NULL;
  if (!harness_expect(&c, ha && hb && hc && got, "no host memory")) goto done;
  for (size_t i = 0; i < na; i++) ha[i] = (g->fill_a ? g->fill_a : fill_random)(i, c.seed);
  for (size_t i = 0; i < nb; i++) hb[i] = (g->fill_b ? g->fill_b : fill_random)(i, c.seed + 1);
  for (size_t i = 0; i < nc; i++) hc[i] = g->beta == 0.0f ? NAN : fill_random(i, c.seed + 2);
  int st = duet_buf_create(ctx, na * sizeof *ha, &a);
  if (!st) st = duet_buf_create(ctx, nb * sizeof *hb, &b);
  if (!st) st = duet_buf_create(ctx, nc * sizeof *hc, &cb);
  if (!st) st = duet_buf_write(a, 0, ha, na * sizeof *ha);
  if (!st) st = duet_buf_write(b, 0, hb, nb * sizeof *hb);
  if (!st) st = duet_buf_write(cb, 0, hc, nc * sizeof *hc);
  if (!harness_expect_status(&c, st, DUET_OK, ctx, "setup")) goto done;
  char names[512];
  if (g->want && !plan_has(ctx, g, a, ac, b, bc, cb, names, sizeof names)) {
    harness_case_skip(&c, "this device's plan is not %s here: %s", g->want, names);
    goto freed;
  }
  st = duet_sgemm(ctx, g->v, g->ta, g->tb, g->m, g->n, g->k, g->alpha, a, ac, b, bc, g->beta, cb,
                  g->n);
  if (!st) st = duet_finish(ctx);
  if (!harness_expect_status(&c, st, g->want_status, ctx, "duet_sgemm") || st) goto done;
  if (!harness_expect_status(&c, duet_buf_read(cb, 0, got, nc * sizeof *got), DUET_OK, ctx,
                             "duet_buf_read"))
    goto done;
  size_t bad = 0;
  for (size_t i = 0; i < g->m; i++)
    for (size_t j = 0; j < g->n; j++) {
      double sum = 0, mag = 0;
      for (size_t p = 0; p < g->k; p++) {
        const double x = (double)(g->ta ? ha[p * ac + i] : ha[i * ac + p]) *
                         (g->tb ? hb[j * bc + p] : hb[p * bc + j]);
        sum += x;
        mag += fabs(x);
      }
      const float c0 = hc[i * g->n + j], out = got[i * g->n + j];
      if (!harness_sgemm_element_ok(sum, mag, g->k, g->alpha, g->beta, c0, out, 1e-5) && !bad++)
        harness_case_fail(&c, "C(%zu,%zu) = %.9g, want %g * %.9g + %g * %.9g", i, j, out, g->alpha,
                          sum, g->beta, c0);
    }
  harness_expect(&c, !bad, "%zu of %zu elements wrong", bad, nc);
done:
  harness_case_end(&c);
freed:
  duet_buf_destroy(a);
  duet_buf_destroy(b);
  duet_buf_destroy(cb);
  free(ha);
  free(hb);
  free(hc);
  free(got);
}

static int create_with(duet_ctx **ctx, const harness_dev *dev, const char *name,
                       const char *value) {
  return harness_create_with_env(ctx, name, value, dev->backend, dev->device);
}

/* A context with one environment variable set while it is created, labelled with it. */
static int make_ctx(const harness_dev *dev, harness_dev *d, const char *name, const char *value) {
  harness_case c;
  *d = *dev;
  harness_case_begin(&c, dev, "duet_ctx_create %s=%s", name, value);
  int ok = harness_expect_status(&c, create_with(&d->ctx, dev, name, value), DUET_OK, NULL,
                                 "duet_ctx_create");
  harness_case_end(&c);
  snprintf(d->label, sizeof d->label, "%.40s@%.20s", dev->label, value);
  return ok;
}

#define FAST DUET_GEMM_FAST
#define NN DUET_NO_TRANS, DUET_NO_TRANS

/* Stream-K with empty groups, then calls on the same context that share its flags. 5 x 129 x 9
 * makes the same case on a device of 100 to 200 units (2 tiles of 128 columns, 4 iterations). */
static void stream_k(const harness_dev *dev, void *user) {
  (void)user;
  harness_dev d;
  if (!make_ctx(dev, &d, "DUET_TUNE", "GEMM_FAST_BIG_PCT=1")) return;
  printf("      %u compute units\n", dev->info.compute_units);
  const gemm_call calls[] = {
      {FAST, NN, 5, 5, 9, 1.0f, 0.0f, NULL, NULL, "_sk_", DUET_OK},
      {FAST, NN, 64, 64, 64, 1.0f, 0.0f, NULL, NULL, NULL, DUET_OK},
      {FAST, NN, 5, 129, 9, 1.0f, 0.0f, NULL, NULL, "_sk_", DUET_OK},
      {FAST, NN, 5, 129, 9, 1.0f, 0.0f, NULL, NULL, "_sk_", DUET_OK},
      {FAST, NN, 64, 64, 64, 1.0f, 0.0f, NULL, NULL, NULL, DUET_OK},
      {FAST, DUET_TRANS, DUET_TRANS, 5, 5, 9, 2.5f, -0.5f, NULL, NULL, "_sk_", DUET_OK},
      {FAST, DUET_TRANS, DUET_TRANS, 5, 129, 9, 2.5f, -0.5f, NULL, NULL, "_sk_", DUET_OK},
  };
  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) run_gemm(&d, d.ctx, &calls[i]);
  duet_ctx_destroy(d.ctx);
}

/* Flags that a launch which failed half-way left behind, in the arena before the first stream-K
 * call: counts that would make every group sum at once were they taken for this call's. */
static void stale_flags(const harness_dev *dev, void *user) {
  (void)user;
  harness_dev d;
  if (!make_ctx(dev, &d, "DUET_TUNE", "GEMM_FAST_BIG_PCT=1")) return;
  setenv("DUET_TEST_STALE_FLAGS", "1", 1);
  const gemm_call calls[] = {
      {FAST, NN, 64, 64, 64, 1.0f, 0.0f, NULL, NULL, "_sk_", DUET_OK},
      {FAST, NN, 5, 129, 9, 1.0f, 0.0f, NULL, NULL, "_sk_", DUET_OK},
  };
  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) run_gemm(&d, d.ctx, &calls[i]);
  unsetenv("DUET_TEST_STALE_FLAGS");
  duet_ctx_destroy(d.ctx);
}

/* A's first half of k sums to 1.5, its second to -1: alpha = 3e38 overflows on the first half
 * alone, not on the whole (0.5, C = 1.5e38). */
static float halves(size_t i, uint64_t seed) {
  (void)seed;
  return i < 64 ? 1.5f / 64 : -1.0f / 64;
}
static float ones(size_t i, uint64_t seed) {
  (void)i;
  (void)seed;
  return 1.0f;
}

/* The same over k = 512 (GEMV slices k at no less than GEMV_SPLIT_MIN_K, 256 on the cpu set). */
static float halves512(size_t i, uint64_t seed) {
  (void)seed;
  return i < 256 ? 1.5f / 256 : -1.0f / 256;
}

/* Split-K applies alpha and beta once, to the sum of the slices. */
static void split_k(const harness_dev *dev, void *user) {
  (void)user;
  const gemm_call calls[] = {
      /* GEMV, GEMV-dot: a 1 x 1 product in k slices, summed in its one launch */
      {FAST, DUET_TRANS, DUET_NO_TRANS, 1, 1, 512, 3e38f, 0.0f, halves512, ones, "sgemv", DUET_OK},
      {FAST, NN, 1, 1, 512, 3e38f, 0.0f, halves512, ones, "sgemv_dot", DUET_OK},
      {FAST, NN, 1, 1, 512, 3e38f, 0.5f, halves512, ones, "sgemv_dot", DUET_OK},
      {DUET_GEMM_TILED, NN, 1, 1, 512, 3e38f, 0.0f, halves512, ones, NULL, DUET_OK},
      /* the small tile split along k: slices of either sign */
      {FAST, NN, 40, 50, 1030, INFINITY, 0.0f, NULL, NULL, "splitk_reduce", DUET_OK},
      {FAST, NN, 40, 50, 1030, 3e38f, 3e38f, NULL, NULL, "splitk_reduce", DUET_OK},
      {DUET_GEMM_TILED, NN, 40, 50, 1030, INFINITY, 0.0f, NULL, NULL, NULL, DUET_OK},
  };
  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) run_gemm(dev, dev->ctx, &calls[i]);
  /* skinny, then skinny-dot, each split along k: a row of C is theirs without GEMV (and
   * skinny-dot's on every set, the cpu set's GEMM_FAST_SKINNY_DOT 0 too) */
  harness_dev d;
  if (!make_ctx(dev, &d, "DUET_TUNE", "GEMM_FAST_GEMV=0,GEMM_FAST_SKINNY_DOT=1")) return;
  const gemm_call thin[] = {
      {FAST, NN, 1, 1, 128, 3e38f, 0.0f, halves, ones, "skinny", DUET_OK},
      {FAST, DUET_NO_TRANS, DUET_TRANS, 1, 1, 128, 3e38f, 0.0f, halves, ones, "skinny_dot",
       DUET_OK},
      {FAST, NN, 1, 1, 128, 3e38f, 0.5f, halves, ones, "skinny", DUET_OK},
  };
  for (size_t i = 0; i < sizeof thin / sizeof thin[0]; i++) run_gemm(&d, d.ctx, &thin[i]);
  duet_ctx_destroy(d.ctx);
}

/* The big tile's fast kernels with two transpose bodies (a kernel's own and its partner's, both
 * transposes the other way round) and with four, picked by ta and tb (OpenCL's GEMM_FAST_BODIES;
 * CUDA builds four, or one alone, ahead of time, and test_gemm covers those), and with and
 * without the edge loads (OpenCL's GEMM_FAST_EDGE_LOADS; CUDA's big tile has none): each
 * transpose pair through its own kernel, a tile and a half of rows. GEMM_FAST_BIG_PCT=1,
 * GEMM_FAST_BIG_FILL_PCT=0 and GEMM_FAST_STREAMK_PCT=0 send these small shapes (k above every
 * set's GEMM_FAST_SHALLOW_K) to the big tile's kernels alone (the plan must name its group). */
static void big_tile_builds(const harness_dev *dev, void *user) {
  (void)user;
#define BIG_ALONE ",GEMM_FAST_BIG_PCT=1,GEMM_FAST_BIG_FILL_PCT=0,GEMM_FAST_STREAMK_PCT=0"
  static const char *const specs[] = {
      "GEMM_FAST_BODIES=2" BIG_ALONE, "GEMM_FAST_BODIES=4" BIG_ALONE,
      "GEMM_FAST_EDGE_LOADS=0" BIG_ALONE, "GEMM_FAST_EDGE_LOADS=1" BIG_ALONE};
#undef BIG_ALONE
  if (dev->backend != DUET_BACKEND_OPENCL) {
    harness_case c;
    harness_case_begin(&c, dev,
                       "sgemm fast with GEMM_FAST_BODIES=2 and 4, GEMM_FAST_EDGE_LOADS=0 and 1");
    harness_case_skip(&c, "OpenCL's tunables: CUDA compiles its big tile ahead of time");
    harness_case_end(&c);
    return;
  }
  for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
    harness_dev d;
    if (!make_ctx(dev, &d, "DUET_TUNE", specs[s])) continue;
    const gemm_call calls[] = {
        {FAST, NN, 70, 90, 300, 1.5f, 0.5f, NULL, NULL, "gemm_fast:duet_sgemm_fast_nn", DUET_OK},
        {FAST, DUET_NO_TRANS, DUET_TRANS, 70, 90, 300, 1.5f, 0.5f, NULL, NULL,
         "gemm_fast:duet_sgemm_fast_nt", DUET_OK},
        {FAST, DUET_TRANS, DUET_NO_TRANS, 70, 90, 300, 1.5f, 0.5f, NULL, NULL,
         "gemm_fast:duet_sgemm_fast_tn", DUET_OK},
        {FAST, DUET_TRANS, DUET_TRANS, 70, 90, 300, 1.5f, 0.5f, NULL, NULL,
         "gemm_fast:duet_sgemm_fast_tt", DUET_OK},
    };
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) run_gemm(&d, d.ctx, &calls[i]);
    duet_ctx_destroy(d.ctx);
  }
}

/* GEMV's k slices are added in slice order by whichever thread finishes an output last, so that
 * repeated calls give the same bits (PoCL, with 5 units here, preempts groups mid-launch). Each
 * shape is a row or a column whose plan on this device is split; SKIP where it is not. */
static void gemv_bits(const harness_dev *dev, void *user) {
  (void)user;
  static const struct {
    duet_trans ta, tb;
    size_t m, n, k;
  } shapes[] = {{DUET_NO_TRANS, DUET_NO_TRANS, 1, 300, 20000},
                {DUET_NO_TRANS, DUET_NO_TRANS, 33, 1, 60000}};
  enum { CALLS = 50 };
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    const duet_trans ta = shapes[s].ta, tb = shapes[s].tb;
    const size_t m = shapes[s].m, n = shapes[s].n, k = shapes[s].k;
    harness_case c;
    harness_case_begin(&c, dev,
                       "sgemm fast %zu x %zu x %zu: GEMV in k slices, the same bits on %d calls", m,
                       n, k, CALLS);
    char text[2048];
    const size_t lda = ta ? m : k, ldb = tb ? k : n;
    if (duet_sgemm_plan(dev->ctx, DUET_GEMM_FAST, ta, tb, m, n, k, lda, ldb, text, sizeof text) ||
        !strstr(text, "summed in order")) {
      harness_case_skip(&c, "this device's plan is no GEMV in k slices: %s", text);
      continue;
    }
    harness_mat a = {0}, b = {0}, cm = {0};
    harness_rng rng = harness_rng_make(c.seed);
    int st = harness_mat_init(&a, dev->ctx, ta ? k : m, ta ? m : k, lda);
    if (!st) st = harness_mat_init(&b, dev->ctx, tb ? n : k, tb ? k : n, ldb);
    if (!st) st = harness_mat_init(&cm, dev->ctx, m, n, n);
    if (!st) st = harness_mat_fill(&a, HARNESS_FILL_UNIT, &rng);
    if (!st) st = harness_mat_fill(&b, HARNESS_FILL_UNIT, &rng);
    float *first = malloc(cm.len * sizeof *first), *got = malloc(cm.len * sizeof *got);
    if (harness_expect_status(&c, st, DUET_OK, dev->ctx, "harness_mat_init") &&
        harness_expect(&c, first && got, "no host memory")) {
      int differ = 0;
      for (int i = 0; i < CALLS && !c.failed; i++) {
        st = duet_sgemm(dev->ctx, DUET_GEMM_FAST, ta, tb, m, n, k, 1.0f, a.buf, lda, b.buf, ldb,
                        0.0f, cm.buf, n);
        if (!harness_expect_status(&c, st, DUET_OK, dev->ctx, "duet_sgemm") ||
            !harness_expect_status(&c, harness_mat_read(&cm, i ? got : first), DUET_OK, dev->ctx,
                                   "duet_buf_read"))
          break;
        differ += i && memcmp(got, first, cm.len * sizeof *got) != 0;
      }
      harness_expect(&c, differ == 0, "%d of %d calls gave other bits than the first", differ,
                     CALLS - 1);
    }
    free(first);
    free(got);
    harness_mat_free(&a);
    harness_mat_free(&b);
    harness_mat_free(&cm);
    harness_case_end(&c);
  }
}

/* AUTO's shapes that GEMV (m or n 1), skinny and skinny-dot (thin strips) would take with 256
 * work-items, on a device limited to 128 (DUET_TEST_MAX_BLOCK_THREADS, with the cpu set): another
 * variant computes them. */
static const gemm_call thin[] = {
    {DUET_GEMM_AUTO, NN, 1, 300, 255, 2.5f, -0.5f, NULL, NULL, NULL, DUET_OK},
    {DUET_GEMM_AUTO, NN, 3, 700, 301, 2.5f, -0.5f, NULL, NULL, NULL, DUET_OK},
    {DUET_GEMM_AUTO, DUET_TRANS, DUET_NO_TRANS, 255, 1, 300, 1.0f, 0.0f, NULL, NULL, NULL, DUET_OK},
    {DUET_GEMM_AUTO, DUET_NO_TRANS, DUET_TRANS, 521, 2, 130, 1.0f, 0.0f, NULL, NULL, NULL, DUET_OK},
    {DUET_GEMM_AUTO, NN, 1, 1, 7, 1.0f, 0.0f, NULL, NULL, NULL, DUET_OK},
    {DUET_GEMM_AUTO, NN, 129, 67, 77, 2.5f, -0.5f, NULL, NULL, NULL, DUET_OK},
    /* fast alone: its plan keeps a tile where skinny cannot run */
    {FAST, NN, 3, 700, 301, 2.5f, -0.5f, NULL, NULL, NULL, DUET_OK},
    {FAST, DUET_NO_TRANS, DUET_TRANS, 521, 2, 130, 1.0f, 0.0f, NULL, NULL, NULL, DUET_OK},
};

static void auto_small_blocks(const harness_dev *dev, void *user) {
  (void)user;
  harness_dev d;
  /* The cpu set on every device: register's and fast's blocks of 64 fit under the limit (the
   * nvidia-sm80 set has no variant of fewer than 256 threads). */
  harness_env saved = harness_env_set("DUET_TUNING", "cpu");
  const int made = make_ctx(dev, &d, "DUET_TEST_MAX_BLOCK_THREADS", "128");
  harness_env_restore(&saved);
  if (!made) return;
  for (size_t i = 0; i < sizeof thin / sizeof thin[0]; i++) run_gemm(&d, d.ctx, &thin[i]);
  duet_ctx_destroy(d.ctx);
}

/* AUTO with fast's groups (register, fast at its eight tiles, stream-K) failing to build: tiled
 * computes it (a thin C, 129 x 17, among the calls). The hook is OpenCL's (the CUDA kernels are
 * built ahead of time). */
static void auto_broken_group(const harness_dev *dev, void *user) {
  (void)user;
  static const char groups[] =
      "gemm_fast,gemm_fast_small,gemm_fast_tiny,gemm_fast_tall,gemm_fast_wide,gemm_fast_mid,"
      "gemm_fast_narrow,gemm_fast_flat";
  if (dev->backend != DUET_BACKEND_OPENCL) {
    harness_case c;
    harness_case_begin(&c, dev, "sgemm auto with DUET_TEST_BREAK_GROUPS=%s", groups);
    harness_case_skip(&c, "the hook breaks OpenCL builds only");
    return;
  }
  harness_dev d;
  if (!make_ctx(dev, &d, "DUET_TEST_BREAK_GROUPS", groups)) return;
  setenv("DUET_TEST_BREAK_GROUPS", groups, 1); /* read when a group builds */
  const gemm_call calls[] = {
      {DUET_GEMM_AUTO, NN, 129, 67, 77, 2.5f, -0.5f, NULL, NULL, NULL, DUET_OK},
      {DUET_GEMM_AUTO, NN, 129, 17, 770, 2.5f, -0.5f, NULL, NULL, NULL, DUET_OK},
      {DUET_GEMM_AUTO, NN, 17, 129, 770, 1.0f, 0.0f, NULL, NULL, NULL, DUET_OK},
      {DUET_GEMM_AUTO, NN, 64, 64, 64, 1.0f, 0.0f, NULL, NULL, NULL, DUET_OK},
      {FAST, NN, 64, 64, 64, 1.0f, 0.0f, NULL, NULL, NULL, DUET_EBUILD},
  };
  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) run_gemm(&d, d.ctx, &calls[i]);
  unsetenv("DUET_TEST_BREAK_GROUPS");
  duet_ctx_destroy(d.ctx);
}

/* DUET_TUNE values that built, ran and returned DUET_OK with a wrong C before the rules next to
 * the database's rows: one per rule, each breaking that rule alone (on the cpu set and the
 * others), refused at context creation with the rule's name. The kernels' values are OpenCL's
 * to override (CUDA compiles its sets ahead of time; the library's build checks those sets
 * against the rules). */
static const struct {
  const char *spec, *rule;
} broken[] = {
    {"TRANSPOSE_ROWS=12", "TRANSPOSE_ROWS"},
    {"TRANSPOSE_PADDED_ROWS=5", "TRANSPOSE_PADDED_ROWS"},
    {"GEMM_REG_BM=30", "GEMM_REG_TM"},
    {"GEMM_REG_BK=7", "GEMM_REG_BK"},
    {"GEMM_FAST_TM=12,GEMM_FAST_TN=4", "GEMM_FAST_WM"},
    {"GEMM_FAST_BK=6", "GEMM_FAST_TM"},
    {"GEMM_FAST_WM=32,GEMM_FAST_TM=8,GEMM_FAST_WN=32,GEMM_FAST_TN=8", "GEMM_FAST_WN"},
    {"GEMM_FAST_BM=80,GEMM_FAST_WM=32,GEMM_FAST_TM=8", "GEMM_FAST_BM"},
    {"GEMM_FAST_BM=256,GEMM_FAST_WM=256,GEMM_FAST_TM=16,GEMM_FAST_BN=16,GEMM_FAST_WN=16",
     "GEMM_FAST_BN"},
    {"GEMM_FAST_BM=96,GEMM_FAST_WM=32,GEMM_FAST_TM=8,GEMM_FAST_BN=64,GEMM_FAST_WN=64,GEMM_FAST_TN="
     "8,GEMM_FAST_BK=8",
     "GEMM_FAST_BK"},
    {"GEMM_FAST_BODIES=3", "GEMM_FAST_BODIES"},
    {"GEMM_FAST_SMALL_TM=12,GEMM_FAST_SMALL_TN=4", "GEMM_FAST_SMALL_WM"},
    {"GEMM_FAST_SMALL_BK=6", "GEMM_FAST_SMALL_TM"},
    {"GEMM_FAST_SMALL_WM=32,GEMM_FAST_SMALL_TM=8,GEMM_FAST_SMALL_WN=32,GEMM_FAST_SMALL_TN=8",
     "GEMM_FAST_SMALL_WN"},
    {"GEMM_FAST_SMALL_BM=80,GEMM_FAST_SMALL_WM=32,GEMM_FAST_SMALL_TM=8", "GEMM_FAST_SMALL_BM"},
    {"GEMM_FAST_SMALL_BM=256,GEMM_FAST_SMALL_WM=256,GEMM_FAST_SMALL_TM=16,GEMM_FAST_SMALL_BN=16,"
     "GEMM_FAST_SMALL_WN=16",
     "GEMM_FAST_SMALL_BN"},
    {"GEMM_FAST_SMALL_BM=96,GEMM_FAST_SMALL_WM=32,GEMM_FAST_SMALL_TM=8,GEMM_FAST_SMALL_BN=64,GEMM_"
     "FAST_SMALL_WN=64,GEMM_FAST_SMALL_TN=8,GEMM_FAST_SMALL_BK=8",
     "GEMM_FAST_SMALL_BK"},
    {"GEMM_SKINNY_S=33", "GEMM_SKINNY_S"},
    {"REDUCE_BLOCK=96", "REDUCE_BLOCK"},
    {"REDUCE_BLOCK=32", "REDUCE_BLOCK"},
    {"STENCIL_BLOCK=32", "STENCIL_BLOCK"},
    {"STENCIL_VEC=6", "STENCIL_VEC"},
    {"STENCIL_R16_VEC=6", "STENCIL_R16_VEC"},
    {"REDUCE_ONE_PASS=2", "REDUCE_ONE_PASS"},
    {"STENCIL_MIN_BLOCKS=17", "STENCIL_MIN_BLOCKS"},
    {"QUEUE_FLUSH=3", "QUEUE_FLUSH"},
    {"GEMV_THREADS=48", "GEMV_THREADS"},
    {"GEMV_LX=24", "GEMV_LX"},
    {"GEMV_DOT_LANES=12", "GEMV_DOT_LANES"},
    {"GEMV_UNROLL=17", "GEMV_UNROLL"},
    {"GEMV_SYNC_ROWS=65", "GEMV_SYNC_ROWS"},
};

static void tunable_rules(const harness_dev *dev, void *user) {
  (void)user;
  for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
    harness_case c;
    harness_case_begin(&c, dev, "duet_ctx_create DUET_TUNE=%s breaks %s", broken[i].spec,
                       broken[i].rule);
    if (dev->backend != DUET_BACKEND_OPENCL) {
      harness_case_skip(&c, "only OpenCL takes kernel values from DUET_TUNE");
      continue;
    }
    duet_ctx *ctx = NULL;
    char want[96];
    snprintf(want, sizeof want, "break the rule %s: ", broken[i].rule);
    if (harness_expect_status(&c, create_with(&ctx, dev, "DUET_TUNE", broken[i].spec), DUET_EINVAL,
                              NULL, "duet_ctx_create"))
      harness_expect(&c, strstr(duet_ctx_last_error(NULL), want) != NULL,
                     "the error does not name the rule (want \"%s\"): %s", want,
                     duet_ctx_last_error(NULL));
    harness_expect(&c, ctx == NULL, "a context was returned");
    harness_case_end(&c);
  }
}

/* DUET_TUNE's values are digits only, as DUET_DEVICE's: strtol's blanks and signs are refused;
 * the same values written plainly are taken (a value equal to the default's set keeps every
 * rule). */
static void tune_parsing(const harness_dev *dev, void *user) {
  (void)user;
  static const struct {
    const char *spec;
    int want;
  } specs[] = {
      {"GEMM_FAST_STREAMK_PCT= 5", DUET_EINVAL},
      {"GEMM_FAST_STREAMK_PCT=+5", DUET_EINVAL},
      {"GEMM_FAST_STREAMK_PCT=5 ", DUET_EINVAL},
      {"GEMM_FAST_STREAMK_PCT=-5", DUET_EINVAL},
      {"GEMM_FAST_STREAMK_PCT=0x5", DUET_EINVAL},
      {"GEMM_FAST_STREAMK_PCT=", DUET_EINVAL},
      {"GEMM_FAST_STREAMK_PCT=4097", DUET_EINVAL},
      {"GEMM_FAST_STREAMK_PCT=99999999999999999999", DUET_EINVAL},
      {"GEMM_FAST_STREAMK_PCT=5", DUET_OK},
      {"GEMM_FAST_STREAMK_PCT=05", DUET_OK},
      {"GEMM_FAST_STREAMK=5", DUET_OK}, /* its former name, deprecated */
  };
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    harness_case c;
    harness_case_begin(&c, dev, "duet_ctx_create DUET_TUNE='%s'", specs[i].spec);
    duet_ctx *ctx = NULL;
    harness_expect_status(&c, create_with(&ctx, dev, "DUET_TUNE", specs[i].spec), specs[i].want,
                          NULL, "duet_ctx_create");
    duet_ctx_destroy(ctx);
    harness_case_end(&c);
  }
  /* GEMM_FAST_STREAMK, GEMM_FAST_STREAMK_PCT's former name, still sets it */
  harness_case c;
  harness_case_begin(&c, dev, "duet_ctx_create DUET_TUNE=GEMM_FAST_STREAMK=7 (deprecated name)");
  duet_ctx *ctx = NULL;
  if (harness_expect_status(&c, create_with(&ctx, dev, "DUET_TUNE", "GEMM_FAST_STREAMK=7"), DUET_OK,
                            NULL, "duet_ctx_create")) {
    const char *name;
    int value, pct = -1, old = 0;
    for (int i = 0; duet_ctx_tunable(ctx, i, &name, &value) == DUET_OK; i++) {
      if (!strcmp(name, "GEMM_FAST_STREAMK_PCT")) pct = value;
      old |= !strcmp(name, "GEMM_FAST_STREAMK");
    }
    harness_expect(&c, pct == 7, "GEMM_FAST_STREAMK_PCT = %d, want 7", pct);
    harness_expect(&c, !old, "the context lists the former name GEMM_FAST_STREAMK");
  }
  duet_ctx_destroy(ctx);
  harness_case_end(&c);
}

/* The cluster kernels (thread-block clusters, CUDA on compute capability 9.0): where the device
 * has none (every OpenCL device), loading one fails with DUET_EUNSUPPORTED and says why, before
 * any build of its group, and the context stays usable; where it has them, each loads. (CI's
 * shared build ran duet-bench's kernels command into CL_INVALID_KERNEL_NAME before the core
 * refused them.) */
static void cluster_kernels(const harness_dev *dev, void *user) {
  (void)user;
  static const int ids[] = {DUET__K_SGEMM_FAST_SMALL_CS_NN, DUET__K_SGEMM_FAST_SMALL_CS_TT,
                            DUET__K_SGEMM_FAST_TINY_CS_NN, DUET__K_SGEMM_FAST_TINY_CS_TT};
  harness_case c;
  harness_case_begin(&c, dev, "the cluster kernels load, or are refused for want of clusters");
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
    duet__kernel_attrs a;
    const int st = duet__kernel_attrs_get(dev->ctx, ids[i], &a);
    if (st == DUET_OK) {
      harness_expect(&c, dev->backend == DUET_BACKEND_CUDA, "%s loaded on OpenCL", a.kernel->name);
      continue;
    }
    harness_expect(&c, st == DUET_EUNSUPPORTED, "%s: %s, want DUET_EUNSUPPORTED",
                   duet__manifest[ids[i]].name, duet_status_name(st));
    harness_expect(&c, strstr(duet_ctx_last_error(dev->ctx), "thread-block clusters") != NULL,
                   "last_error does not say why: \"%s\"", duet_ctx_last_error(dev->ctx));
  }
  const gemm_call after = {DUET_GEMM_AUTO, NN, 129, 67, 77, 2.5f, -0.5f, NULL, NULL, NULL, DUET_OK};
  harness_case_end(&c);
  run_gemm(dev, dev->ctx, &after);
}

int main(void) {
  setenv("POCL_MAX_PTHREAD_COUNT", "5", 1);
  harness_init("test_regress");
  harness_for_each_ctx(stream_k, NULL);
  harness_for_each_ctx(stale_flags, NULL);
  harness_for_each_ctx(split_k, NULL);
  harness_for_each_ctx(gemv_bits, NULL);
  harness_for_each_ctx(big_tile_builds, NULL);
  harness_for_each_ctx(auto_small_blocks, NULL);
  harness_for_each_ctx(auto_broken_group, NULL);
  harness_for_each_ctx(tunable_rules, NULL);
  harness_for_each_ctx(tune_parsing, NULL);
  harness_for_each_ctx(cluster_kernels, NULL);
  return harness_end();
}
