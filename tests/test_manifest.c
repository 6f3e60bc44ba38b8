/* SPDX-License-Identifier: MIT */
/* Kernels as data: every tuning set runs every kernel of the manifest correctly on every
 * backend, fast's plans steered onto each of theirs (big and small tile and stream-K for each
 * transpose pair, split-K, skinny and skinny-dot in both orientations; fast's scalar twins on the
 * device's own set); each backend refuses, at load, a compiled kernel whose block or shared
 * memory disagrees with the core's launch (CUDA through its registry rows, OpenCL through
 * reqd_work_group_size); DUET_TUNE retunes OpenCL; kernel groups build on first use, one at a
 * time, and a broken group fails only its own routines; DUET_OPENCL_WERROR=1 makes a build
 * warning a failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static int create_with(duet_ctx **ctx, const harness_dev *dev, const char *name,
                       const char *value) {
  return harness_create_with_env(ctx, name, value, dev->backend, dev->device);
}

static void check_set_names(void) {
  harness_case c;
  harness_case_begin(&c, NULL, "duet_tuning_set_name");
  int n = 0;
  while (duet_tuning_set_name(n)) n++;
  harness_expect(&c, n >= 3, "%d tuning sets; want default, a large-NVIDIA set and cpu", n);
  harness_expect(&c, duet_tuning_set_name(-1) == NULL, "set -1 has a name");
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      harness_expect(&c, strcmp(duet_tuning_set_name(i), duet_tuning_set_name(j)) != 0,
                     "sets %d and %d share the name %s", i, j, duet_tuning_set_name(i));
  harness_case_end(&c);
}

/* The context's tunables: named, unique, and within what a kernel can take. */
static void check_tunables(const harness_dev *dev, duet_ctx *ctx, const char *set) {
  harness_case c;
  harness_case_begin(&c, dev, "tunables of set %s", set);
  harness_expect(&c, strcmp(duet_ctx_tuning(ctx), set) == 0, "duet_ctx_tuning = %s",
                 duet_ctx_tuning(ctx));
  const char *name, *names[256]; /* at most 256 tunables */
  int value, n = 0;
  while (n < 256 && duet_ctx_tunable(ctx, n, &name, &value) == DUET_OK) {
    names[n] = name;
    harness_expect(&c, name && *name, "tunable %d has no name", n);
    const size_t len = name ? strlen(name) : 0; /* DUET_TUNE's bounds: 2^20 for a depth of k */
    const int most = len > 2 && !strcmp(name + len - 2, "_K") ? 1 << 20 : 4096;
    harness_expect(&c, value >= 0 && value <= most, "%s = %d", name, value);
    for (int j = 0; j < n; j++)
      harness_expect(&c, strcmp(names[j], name) != 0, "%s listed twice", name);
    n++;
  }
  harness_expect(&c, n > 0, "no tunables");
  harness_expect_status(&c, duet_ctx_tunable(ctx, n, &name, &value), DUET_EINVAL, ctx,
                        "duet_ctx_tunable past the last");
  /* src/tuning.c's refinements of nvidia-sm80 on OpenCL alone: transpose AUTO stays off
   * padded-tall, padded keeps band 8 where CUDA's takes 32, both stencil windows keep the set's
   * outputs a work-item and grids (the staged radius-16 window measured alike on both), a
   * shallow k keeps fast's big tile where CUDA's takes the small one, the tiny tile steps k
   * by 16 where CUDA's steps by 8, the plan weighs the mid tile where CUDA's does not,
   * split-K's second launch costs the plan 8 times CUDA's, the tiny tile sums up to 4 k
   * slices in its one launch where CUDA's launches the reduction, and an unaligned operand is
   * packed from 220 flops a copied byte where CUDA's packs from 200, and the mid and flat tiles
   * step k by 16 where CUDA's step by 8 and the thin mid tile has no floor on k where CUDA's
   * takes k of 8192 or more; on CUDA alone, the plan counts 2 mid (and flat) blocks
   * an SM where OpenCL's counts the set's 3; and one the set gives both backends alike, the
   * narrow tile's rate (a refinement before the twenty-first session). */
  static const struct {
    const char *name;
    int cuda, opencl;
  } refined[] = {{"TRANSPOSE_AUTO_ALIGN", 32, 0},
                 {"TRANSPOSE_PADDED_BAND", 32, 8},
                 {"STENCIL_R16_VEC", 8, 8},
                 {"STENCIL_VEC", 8, 8},
                 {"STENCIL_PER_CU", 2048, 2048},
                 {"STENCIL_R16_PER_CU", 32, 32},
                 {"GEMM_FAST_SHALLOW_K", 128, 0},
                 {"GEMM_FAST_TINY_BK", 8, 16},
                 {"GEMM_FAST_MID_PCT", 0, 110},
                 {"GEMM_SPLITK_LAUNCH", 8, 64},
                 {"GEMM_SPLITK_FUSE", 0, 4},
                 {"GEMM_FAST_NARROW_PCT", 80, 80},
                 {"GEMM_FAST_MID_BK", 8, 16},
                 {"GEMM_FAST_FLAT_BK", 8, 16},
                 {"GEMM_FAST_MID_PER_CU", 2, 3},
                 {"GEMM_FAST_MID_THIN_MIN_K", 8192, 0},
                 {"GEMM_PACK_MIN_INTENSITY", 128, 220},
                 {"GEMM_AUTO_TILED_MAX", 128, 168}};
  if (!strcmp(set, "nvidia-sm80"))
    for (int i = 0; duet_ctx_tunable(ctx, i, &name, &value) == DUET_OK; i++)
      for (size_t r = 0; r < sizeof refined / sizeof refined[0]; r++)
        if (!strcmp(name, refined[r].name)) {
          const int want =
              dev->backend == DUET_BACKEND_OPENCL ? refined[r].opencl : refined[r].cuda;
          harness_expect(&c, value == want, "%s = %d on %s, not %d", name, value,
                         duet_backend_name(dev->backend), want);
        }
  harness_case_end(&c);
}

/* Every kernel once: each transpose variant, the copy, each sgemm variant (and the scale kernel
 * that alpha == 0 takes), on small odd shapes with padded leading dimensions; padded and
 * padded-tall once more on shapes that reach their other paths. */
static void run_every_kernel(const harness_dev *dev) {
  for (size_t i = 0; i < HARNESS_MOVES; i++) harness_run_move(dev, harness_moves[i], 67, 45, 3, 1);
  /* Whole 64 x 64 tiles of an aligned in (padded's float4 loads where the set has them, beside
   * edge tiles), and padded-tall's shifted pieces over several of its tall tiles (ld_out 300). */
  harness_run_move(dev, DUET_TRANSPOSE_PADDED, 130, 132, 0, 0);
  harness_run_move(dev, DUET_TRANSPOSE_PADDED_TALL, 300, 260, 0, 0);
  /* register's four copies of its block (float4s on both sides, on `in`'s or `out`'s alone, on
   * neither: lds of multiples of 4 or not) and its edge blocks in the last rows and columns */
  harness_run_move(dev, DUET_TRANSPOSE_REGISTER, 258, 132, 0, 0);
  harness_run_move(dev, DUET_TRANSPOSE_REGISTER, 130, 68, 0, 0);
  harness_run_move(dev, DUET_TRANSPOSE_REGISTER, 132, 66, 0, 0);
  harness_run_move(dev, DUET_TRANSPOSE_REGISTER, 130, 66, 0, 0);
  static const duet_gemm_variant gv[] = {DUET_GEMM_NAIVE,    DUET_GEMM_COALESCED, DUET_GEMM_TILED,
                                         DUET_GEMM_REGISTER, DUET_GEMM_FAST,      DUET_GEMM_AUTO};
  for (size_t i = 0; i < sizeof gv / sizeof gv[0]; i++) {
    harness_run_sgemm(dev, gv[i], DUET_NO_TRANS, DUET_NO_TRANS, 37, 71, 45, 1.5f, 0.5f, 1);
    harness_run_sgemm(dev, gv[i], DUET_TRANS, DUET_TRANS, 70, 33, 19, -1.0f, 0.0f, 1);
  }
  harness_run_sgemm(dev, DUET_GEMM_AUTO, DUET_NO_TRANS, DUET_NO_TRANS, 20, 30, 40, 0.0f, 2.0f, 1);
  /* fast's split-K plan: one small tile and a long k (a device of two or more units splits it) */
  harness_run_sgemm(dev, DUET_GEMM_FAST, DUET_NO_TRANS, DUET_TRANS, 40, 50, 1030, 1.0f, 0.5f, 1);
}

/* A value of the context's tunables by name (-1: none of that name). */
static int tunable(duet_ctx *ctx, const char *want) {
  const char *name;
  int value;
  for (int i = 0; duet_ctx_tunable(ctx, i, &name, &value) == DUET_OK; i++)
    if (!strcmp(name, want)) return value;
  return -1;
}

/* A GEMM call that fast's plan may turn into the kernel a target wants. */
typedef struct {
  duet_trans ta, tb;
  size_t m, n, k;
  int padded;
} gemm_call;

/* Each of fast's kernels with the plan line that says it runs (every substring on one piece's
 * line of duet_sgemm_plan's text). */
typedef struct {
  const char *what, *has[2];
} target;

/* Whether one piece line of text has both substrings. */
static int plan_has(const char *text, const target *t) {
  for (const char *line = text; line && *line;
       line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
    const char *end = strchr(line, '\n');
    const size_t len = end ? (size_t)(end - line) : strlen(line);
    char one[1024];
    snprintf(one, sizeof one, "%.*s", (int)len, line);
    if (strstr(one, "piece ") && strstr(one, t->has[0]) && (!t->has[1] || strstr(one, t->has[1])))
      return 1;
  }
  return 0;
}

/* The scalar pass (reach_scalar_twins): every call padded, each of fast's targets its scalar twin
 * (the group's name suffixed _scalar), the other targets left out. */
static int scalar_pass;

/* Finds among calls the first whose plan on ctx reaches t and runs it, checked against the CPU;
 * SKIP where none does (a kernel whose block the device cannot take, a set without stream-K). */
static void reach(const harness_dev *dev, const target *t, const gemm_call *calls, size_t n) {
  char text[4096] = "", what[160], group[160];
  target twin = *t;
  if (scalar_pass) {
    if (strncmp(t->has[0], "duet_sgemm_fast", strlen("duet_sgemm_fast"))) return;
    const size_t len = strlen(t->has[0]);
    if (t->has[0][len - 1] == ',') { /* "... [gemm_fast_tiny," */
      snprintf(group, sizeof group, "%.*s_scalar,", (int)(len - 1), t->has[0]);
      twin.has[0] = group;
    } else {
      twin.has[1] = "_scalar,";
    }
    snprintf(what, sizeof what, "%s, scalar twin", t->what);
    twin.what = what;
  }
  for (size_t i = 0; i < n; i++) {
    const gemm_call *g = &calls[i];
    const int padded = g->padded || scalar_pass;
    const size_t lda = (g->ta ? g->m : g->k) + (padded ? 3 : 0);
    const size_t ldb = (g->tb ? g->k : g->n) + (padded ? 5 : 0);
    if (duet_sgemm_plan(dev->ctx, DUET_GEMM_FAST, g->ta, g->tb, g->m, g->n, g->k, lda, ldb, text,
                        sizeof text) != DUET_OK ||
        !plan_has(text, &twin))
      continue;
    printf("      %s: the next case's plan:\n%s", twin.what, text); /* which kernel it runs */
    harness_run_sgemm(dev, DUET_GEMM_FAST, g->ta, g->tb, g->m, g->n, g->k, 1.5f, 0.5f, padded);
    return;
  }
  harness_case c;
  harness_case_begin(&c, dev, "sgemm fast reaching %s", twin.what);
  harness_case_skip(&c, "no call tried takes it here; the last plan: %s", text);
}

/* The cluster kernels (split-K summed through a thread-block cluster's shared memory) at the
 * small and the tiny tile, for each transpose pair, on a context that weighs them: about one
 * block a unit in 2 slices (on 132 units, 8 x 8 small tiles of 1000 x 1016 x 1000, or 8 x 8 tiny
 * ones of 507 x 509 x 512), ragged and padded, then whole tiles. CUDA alone, on devices with
 * clusters (compute capability 9.0); elsewhere SKIP, saying so. */
static void reach_cluster_kernels(const harness_dev *dev) {
  duet_ctx *ctx = dev->ctx;
  static const char *const names[2][4][2] = {
      {{"duet_sgemm_fast_cs_nn of the small tile", "duet_sgemm_fast_cs_nn [gemm_fast_small,"},
       {"duet_sgemm_fast_cs_nt of the small tile", "duet_sgemm_fast_cs_nt [gemm_fast_small,"},
       {"duet_sgemm_fast_cs_tn of the small tile", "duet_sgemm_fast_cs_tn [gemm_fast_small,"},
       {"duet_sgemm_fast_cs_tt of the small tile", "duet_sgemm_fast_cs_tt [gemm_fast_small,"}},
      {{"duet_sgemm_fast_cs_nn of the tiny tile", "duet_sgemm_fast_cs_nn [gemm_fast_tiny,"},
       {"duet_sgemm_fast_cs_nt of the tiny tile", "duet_sgemm_fast_cs_nt [gemm_fast_tiny,"},
       {"duet_sgemm_fast_cs_tn of the tiny tile", "duet_sgemm_fast_cs_tn [gemm_fast_tiny,"},
       {"duet_sgemm_fast_cs_tt of the tiny tile", "duet_sgemm_fast_cs_tt [gemm_fast_tiny,"}}};
  if (dev->backend != DUET_BACKEND_CUDA) {
    if (scalar_pass) return; /* the first pass said why */
    for (int t = 0; t < 2; t++)
      for (int tr = 0; tr < 4; tr++) {
        harness_case c;
        harness_case_begin(&c, dev, "sgemm fast reaching %s", names[t][tr][0]);
        harness_case_skip(&c, "thread-block clusters are CUDA's (compute capability 9.0)");
      }
    return;
  }
  size_t side = 1; /* tiles a side: side^2 tiles in 2 slices fill about the units */
  const size_t units = dev->info.compute_units ? dev->info.compute_units : 1;
  while ((side + 1) * (side + 1) * 2 <= units) side++;
  const size_t sbm = (size_t)tunable(ctx, "GEMM_FAST_SMALL_BM");
  const size_t sbn = (size_t)tunable(ctx, "GEMM_FAST_SMALL_BN");
  const size_t tbm = (size_t)tunable(ctx, "GEMM_FAST_TINY_BM");
  const size_t tbn = (size_t)tunable(ctx, "GEMM_FAST_TINY_BN");
  for (int tr = 0; tr < 4; tr++) {
    const duet_trans ta = tr >> 1 ? DUET_TRANS : DUET_NO_TRANS;
    const duet_trans tb = tr & 1 ? DUET_TRANS : DUET_NO_TRANS;
    const gemm_call small[] = {{ta, tb, side * sbm - 24, side * sbn - 8, 1000, 1},
                               {ta, tb, side * sbm, side * sbn, 1024, 0}};
    const gemm_call tiny[] = {{ta, tb, side * tbm - 5, side * tbn - 3, 512, 1},
                              {ta, tb, side * tbm, side * tbn, 512, 0}};
    const target small_t = {names[0][tr][0], {names[0][tr][1], NULL}};
    const target tiny_t = {names[1][tr][0], {names[1][tr][1], NULL}};
    reach(dev, &small_t, small, sizeof small / sizeof small[0]);
    reach(dev, &tiny_t, tiny, sizeof tiny / sizeof tiny[0]);
  }
}

/* Every kernel of fast's plans: big, small, tiny, tall, wide, mid, narrow and flat tile for each
 * transpose pair (the small and tiny ones and split-K's reduction on plain, a context that sums
 * no slices in the launch or through clusters), skinny and skinny-dot in both orientations, GEMV
 * and GEMV-dot on a row and a column and in k slices, skinny-dot, the mid, narrow and flat tiles
 * and stream-K for each transpose pair (on sk, a context whose set plans them), split-K summed in
 * the launch, stream-K at the tiny tile, for each transpose pair (on fused, a context that sums
 * slices in the launch), and the cluster kernels (on clusters, a context that weighs them). The
 * calls are derived from the context's tiles and units, so that each reaches its kernel on any
 * device; duet_sgemm_plan says which one does. */
static void reach_fast_kernels(const harness_dev *dev, const harness_dev *sk,
                               const harness_dev *fused, const harness_dev *plain,
                               const harness_dev *clusters) {
  duet_ctx *ctx = dev->ctx;
  const size_t bm = (size_t)tunable(ctx, "GEMM_FAST_BM"), bn = (size_t)tunable(ctx, "GEMM_FAST_BN");
  const size_t sbm = (size_t)tunable(ctx, "GEMM_FAST_SMALL_BM");
  const size_t sbn = (size_t)tunable(ctx, "GEMM_FAST_SMALL_BN");
  const size_t units = dev->info.compute_units ? dev->info.compute_units : 1;
  const size_t tbm = (size_t)tunable(ctx, "GEMM_FAST_TINY_BM");
  const size_t tbn = (size_t)tunable(ctx, "GEMM_FAST_TINY_BN");
  const size_t lbm = (size_t)tunable(ctx, "GEMM_FAST_TALL_BM");
  const size_t lbn = (size_t)tunable(ctx, "GEMM_FAST_TALL_BN");
  const size_t wbm = (size_t)tunable(ctx, "GEMM_FAST_WIDE_BM");
  const size_t wbn = (size_t)tunable(ctx, "GEMM_FAST_WIDE_BN");
  const size_t nbm = (size_t)tunable(ctx, "GEMM_FAST_NARROW_BM");
  const size_t nbn = (size_t)tunable(ctx, "GEMM_FAST_NARROW_BN");
  const size_t fbm = (size_t)tunable(ctx, "GEMM_FAST_FLAT_BM");
  const size_t fbn = (size_t)tunable(ctx, "GEMM_FAST_FLAT_BN");
  const gemm_call split[] = {{DUET_NO_TRANS, DUET_TRANS, 40, 50, 1030, 1},
                             {DUET_NO_TRANS, DUET_NO_TRANS, 40, 50, 4100, 0}};
  const gemm_call skinny_rows[] = {{DUET_NO_TRANS, DUET_NO_TRANS, 2, 700, 301, 1},
                                   {DUET_NO_TRANS, DUET_NO_TRANS, 3, 700, 301, 0}};
  const gemm_call skinny_cols[] = {{DUET_TRANS, DUET_NO_TRANS, 700, 3, 301, 1}};
  const gemm_call dot_cols[] = {{DUET_NO_TRANS, DUET_NO_TRANS, 700, 2, 130, 1}};
  const gemm_call dot_rows[] = {{DUET_NO_TRANS, DUET_TRANS, 3, 700, 130, 1}};
  /* GEMV: a row or a column of C, each orientation on each side, then split along k */
  const gemm_call gemv_row[] = {{DUET_NO_TRANS, DUET_NO_TRANS, 1, 700, 301, 1}};
  const gemm_call gemv_col[] = {{DUET_TRANS, DUET_TRANS, 700, 1, 301, 1}};
  const gemm_call gemv_dot_row[] = {{DUET_TRANS, DUET_TRANS, 1, 700, 301, 1}};
  const gemm_call gemv_dot_col[] = {{DUET_NO_TRANS, DUET_NO_TRANS, 700, 1, 301, 1}};
  const gemm_call gemv_split[] = {{DUET_TRANS, DUET_NO_TRANS, 100, 1, 4100, 1}};
  const gemm_call gemv_dot_split[] = {{DUET_NO_TRANS, DUET_TRANS, 1, 5, 4100, 1}};
  const target t[] = {
      {"split-K", {"duet_sgemm_splitk_reduce", NULL}},
      {"skinny on thin rows", {"duet_sgemm_skinny [", "thin rows"}},
      {"skinny on thin columns", {"duet_sgemm_skinny [", "thin columns"}},
      {"skinny-dot on thin rows", {"duet_sgemm_skinny_dot", "thin rows"}},
      {"skinny-dot on thin columns", {"duet_sgemm_skinny_dot", "thin columns"}},
      {"sgemv on a row", {"duet_sgemv [", "thin rows"}},
      {"sgemv on a column", {"duet_sgemv [", "thin columns"}},
      {"sgemv-dot on a row", {"duet_sgemv_dot [", "thin rows"}},
      {"sgemv-dot on a column", {"duet_sgemv_dot [", "thin columns"}},
      {"sgemv in k slices", {"duet_sgemv [", "summed in order"}},
      {"sgemv-dot in k slices", {"duet_sgemv_dot [", "summed in order"}},
  };
  reach(plain, &t[0], split, sizeof split / sizeof split[0]);
  reach(dev, &t[1], skinny_rows, sizeof skinny_rows / sizeof skinny_rows[0]);
  reach(dev, &t[2], skinny_cols, 1);
  reach(sk, &t[3], dot_rows, 1); /* sk: where the set leaves skinny-dot's strips to the tiles */
  reach(sk, &t[4], dot_cols, 1);
  reach(dev, &t[5], gemv_row, 1);
  reach(dev, &t[6], gemv_col, 1);
  reach(dev, &t[7], gemv_dot_row, 1);
  reach(dev, &t[8], gemv_dot_col, 1);
  reach(dev, &t[9], gemv_split, 1);
  reach(dev, &t[10], gemv_dot_split, 1);
  /* the big, small and tiny tile's kernel of each transpose pair: whole waves of big tiles; one
   * small tile (the big tile's 75% of units needs two; on a GPU of many units the cost model
   * gives short k to the tiny tile: 8 x 8 small tiles with k = 512 take it there, in 4 slices on
   * 132 units, and one small tile with k = 16384 on 2), or a strip of a small tile a unit where
   * the mid tile takes fewer (GEMM_FAST_MID_PCT); half a tiny tile (the small tile's would be
   * three quarters padding) */
  static const char *const tile_names[8][4][2] = {
      {{"duet_sgemm_fast_nn", "duet_sgemm_fast_nn [gemm_fast,"},
       {"duet_sgemm_fast_nt", "duet_sgemm_fast_nt [gemm_fast,"},
       {"duet_sgemm_fast_tn", "duet_sgemm_fast_tn [gemm_fast,"},
       {"duet_sgemm_fast_tt", "duet_sgemm_fast_tt [gemm_fast,"}},
      {{"duet_sgemm_fast_nn of the small tile", "duet_sgemm_fast_nn [gemm_fast_small,"},
       {"duet_sgemm_fast_nt of the small tile", "duet_sgemm_fast_nt [gemm_fast_small,"},
       {"duet_sgemm_fast_tn of the small tile", "duet_sgemm_fast_tn [gemm_fast_small,"},
       {"duet_sgemm_fast_tt of the small tile", "duet_sgemm_fast_tt [gemm_fast_small,"}},
      {{"duet_sgemm_fast_nn of the tiny tile", "duet_sgemm_fast_nn [gemm_fast_tiny,"},
       {"duet_sgemm_fast_nt of the tiny tile", "duet_sgemm_fast_nt [gemm_fast_tiny,"},
       {"duet_sgemm_fast_tn of the tiny tile", "duet_sgemm_fast_tn [gemm_fast_tiny,"},
       {"duet_sgemm_fast_tt of the tiny tile", "duet_sgemm_fast_tt [gemm_fast_tiny,"}},
      {{"duet_sgemm_fast_nn of the tall tile", "duet_sgemm_fast_nn [gemm_fast_tall,"},
       {"duet_sgemm_fast_nt of the tall tile", "duet_sgemm_fast_nt [gemm_fast_tall,"},
       {"duet_sgemm_fast_tn of the tall tile", "duet_sgemm_fast_tn [gemm_fast_tall,"},
       {"duet_sgemm_fast_tt of the tall tile", "duet_sgemm_fast_tt [gemm_fast_tall,"}},
      {{"duet_sgemm_fast_nn of the wide tile", "duet_sgemm_fast_nn [gemm_fast_wide,"},
       {"duet_sgemm_fast_nt of the wide tile", "duet_sgemm_fast_nt [gemm_fast_wide,"},
       {"duet_sgemm_fast_tn of the wide tile", "duet_sgemm_fast_tn [gemm_fast_wide,"},
       {"duet_sgemm_fast_tt of the wide tile", "duet_sgemm_fast_tt [gemm_fast_wide,"}},
      {{"duet_sgemm_fast_nn of the mid tile", "duet_sgemm_fast_nn [gemm_fast_mid,"},
       {"duet_sgemm_fast_nt of the mid tile", "duet_sgemm_fast_nt [gemm_fast_mid,"},
       {"duet_sgemm_fast_tn of the mid tile", "duet_sgemm_fast_tn [gemm_fast_mid,"},
       {"duet_sgemm_fast_tt of the mid tile", "duet_sgemm_fast_tt [gemm_fast_mid,"}},
      {{"duet_sgemm_fast_nn of the narrow tile", "duet_sgemm_fast_nn [gemm_fast_narrow,"},
       {"duet_sgemm_fast_nt of the narrow tile", "duet_sgemm_fast_nt [gemm_fast_narrow,"},
       {"duet_sgemm_fast_tn of the narrow tile", "duet_sgemm_fast_tn [gemm_fast_narrow,"},
       {"duet_sgemm_fast_tt of the narrow tile", "duet_sgemm_fast_tt [gemm_fast_narrow,"}},
      {{"duet_sgemm_fast_nn of the flat tile", "duet_sgemm_fast_nn [gemm_fast_flat,"},
       {"duet_sgemm_fast_nt of the flat tile", "duet_sgemm_fast_nt [gemm_fast_flat,"},
       {"duet_sgemm_fast_tn of the flat tile", "duet_sgemm_fast_tn [gemm_fast_flat,"},
       {"duet_sgemm_fast_tt of the flat tile", "duet_sgemm_fast_tt [gemm_fast_flat,"}}};
  for (int tr = 0; tr < 4; tr++) {
    const duet_trans ta = tr >> 1 ? DUET_TRANS : DUET_NO_TRANS;
    const duet_trans tb = tr & 1 ? DUET_TRANS : DUET_NO_TRANS;
    const gemm_call big[] = {{ta, tb, units * bm - 1, bn - 3, 24, 1},
                             {ta, tb, 2 * units * bm - 1, bn - 3, 24, 1}};
    const gemm_call small[] = {{ta, tb, sbm - 1, sbn - 3, 24, 1},
                               {ta, tb, sbm / 2, sbn / 2, 24, 1},
                               {ta, tb, 8 * sbm, 8 * sbn, 512, 0},
                               {ta, tb, sbm, sbn, 16384, 0},
                               {ta, tb, sbm - 3, units * sbn, 4096, 0}};
    const gemm_call tiny[] = {{ta, tb, tbm / 2, tbn / 2, 24, 1},
                              {ta, tb, tbm / 2 + 1, tbn / 2 - 1, 24, 0}};
    /* C one tall tile wide (wide: high): deep k, split across the units, or many tiles where
     * C fills too little of the big tiles (a GPU's GEMM_FAST_BIG_FILL_PCT) */
    const gemm_call tall[] = {{ta, tb, lbm - 4, lbn, 4096, 1},
                              {ta, tb, lbm, lbn / 2 + 1, 4096, 0},
                              {ta, tb, 4 * units * lbm, lbn, 256, 0}};
    const gemm_call wide[] = {{ta, tb, wbm, wbn - 4, 4096, 1},
                              {ta, tb, wbm / 2 + 1, wbn, 4096, 0},
                              {ta, tb, wbm, 4 * units * wbn, 256, 0}};
    const target tall_t = {tile_names[3][tr][0], {tile_names[3][tr][1], NULL}};
    const target wide_t = {tile_names[4][tr][0], {tile_names[4][tr][1], NULL}};
    reach(dev, &tall_t, tall, sizeof tall / sizeof tall[0]);
    reach(dev, &wide_t, wide, sizeof wide / sizeof wide[0]);
    const target big_t = {tile_names[0][tr][0], {tile_names[0][tr][1], NULL}};
    const target small_t = {tile_names[1][tr][0], {tile_names[1][tr][1], NULL}};
    const target tiny_t = {tile_names[2][tr][0], {tile_names[2][tr][1], NULL}};
    reach(dev, &big_t, big, sizeof big / sizeof big[0]);
    reach(plain, &small_t, small, sizeof small / sizeof small[0]); /* plain: no clusters */
    reach(plain, &tiny_t, tiny, sizeof tiny / sizeof tiny[0]);
  }
  reach_cluster_kernels(clusters);
  /* the mid tile (on sk, a context of the same set that weighs it) of each transpose pair: one
   * small tile with a deep k (on few units), or 64 small tiles (on more than 64) */
  for (int tr = 0; tr < 4; tr++) {
    const duet_trans ta = tr >> 1 ? DUET_TRANS : DUET_NO_TRANS;
    const duet_trans tb = tr & 1 ? DUET_TRANS : DUET_NO_TRANS;
    const gemm_call mid[] = {{ta, tb, sbm - 3, sbn, 4096, 1},
                             {ta, tb, 8 * sbm, 8 * sbn - 5, 1024, 0}};
    const target mid_t = {tile_names[5][tr][0], {tile_names[5][tr][1], NULL}};
    reach(sk, &mid_t, mid, sizeof mid / sizeof mid[0]);
    /* the narrow tile (on sk too, GEMM_FAST_NARROW_PCT), as the tall one above */
    const gemm_call narrow[] = {{ta, tb, nbm - 4, nbn, 4096, 1},
                                {ta, tb, nbm, nbn / 2 + 1, 4096, 0},
                                {ta, tb, 4 * units * nbm, nbn, 256, 0}};
    const target narrow_t = {tile_names[6][tr][0], {tile_names[6][tr][1], NULL}};
    reach(sk, &narrow_t, narrow, sizeof narrow / sizeof narrow[0]);
    /* the flat tile (on sk too, GEMM_FAST_MID_THIN_PCT): C one flat tile high, ragged, then whole
     * tiles, at a deep k, then deeper than nvidia-sm80's GEMM_FAST_MID_THIN_MIN_K (8 tiles across
     * take it on 132 units too, in k slices: a small call under compute-sanitizer) */
    const gemm_call flat[] = {{ta, tb, fbm - 3, 8 * fbn + 5, 4096, 1},
                              {ta, tb, fbm, 16 * fbn, 4096, 0},
                              {ta, tb, fbm, 8 * fbn, 16384, 0}};
    const target flat_t = {tile_names[7][tr][0], {tile_names[7][tr][1], NULL}};
    reach(sk, &flat_t, flat, sizeof flat / sizeof flat[0]);
  }
  /* stream-K: from the fewest big tiles that take the big tile (75% of the units) up, whole
   * tiles under a wave or a wave with a quarter idle */
  static const char *const sk_names[4] = {"duet_sgemm_fast_sk_nn", "duet_sgemm_fast_sk_nt",
                                          "duet_sgemm_fast_sk_tn", "duet_sgemm_fast_sk_tt"};
  enum { MAX_SK_CALLS = 8 };
  for (int tr = 0; tr < 4; tr++) {
    gemm_call calls[MAX_SK_CALLS];
    size_t n = 0;
    const size_t first = (3 * units + 3) / 4;
    for (size_t tiles = first; n < MAX_SK_CALLS && tiles <= 2 * units + 1; tiles++)
      calls[n++] = (gemm_call){tr >> 1 ? DUET_TRANS : DUET_NO_TRANS,
                               tr & 1 ? DUET_TRANS : DUET_NO_TRANS,
                               tiles * bm,
                               bn,
                               24,
                               0};
    const target sk_t = {sk_names[tr], {sk_names[tr], NULL}};
    reach(sk, &sk_t, calls, n);
  }
  /* split-K summed in the launch (GEMM_SPLITK_FUSE): stream-K over all of the tiny tiles, a
   * block per tile and k slice: 4 x 4 to 8 x 8 tiles with k = 512 (in 4 to 8 slices on 132
   * units), or one with a deep k (in 2 slices on 2) */
  static const char *const fused_names[4][2] = {
      {"stream-K of the tiny tile", "duet_sgemm_fast_sk_nn [gemm_fast_tiny,"},
      {"stream-K of the tiny tile, B^T", "duet_sgemm_fast_sk_nt [gemm_fast_tiny,"},
      {"stream-K of the tiny tile, A^T", "duet_sgemm_fast_sk_tn [gemm_fast_tiny,"},
      {"stream-K of the tiny tile, both", "duet_sgemm_fast_sk_tt [gemm_fast_tiny,"}};
  for (int tr = 0; tr < 4; tr++) {
    const duet_trans ta = tr >> 1 ? DUET_TRANS : DUET_NO_TRANS;
    const duet_trans tb = tr & 1 ? DUET_TRANS : DUET_NO_TRANS;
    const gemm_call tiny[] = {{ta, tb, 8 * tbm, 8 * tbn, 512, 0},
                              {ta, tb, 4 * tbm - 5, 4 * tbn + 3, 512, 1},
                              {ta, tb, tbm / 2, tbn / 2 + 3, 4096, 1},
                              {ta, tb, 8 * tbm - 7, 8 * tbn + 5, 700, 1}};
    const target tiny_t = {fused_names[tr][0], {fused_names[tr][1], NULL}};
    reach(fused, &tiny_t, tiny, sizeof tiny / sizeof tiny[0]);
  }
}

/* A harness device on ctx whose label names the set, so that each case line says which. */
static harness_dev on_ctx(const harness_dev *dev, duet_ctx *ctx, const char *set) {
  harness_dev d = *dev;
  d.ctx = ctx;
  const char *name = strrchr(dev->label, ' ');
  snprintf(d.label, sizeof d.label, "%s dev%d %.20s@%s", duet_backend_name(dev->backend),
           dev->device, name ? name + 1 : "?", set);
  return d;
}

/* A context of set `set` with DUET_TUNE=spec (its leading comma dropped), or NULL for no spec
 * (or a failure, which its case reports). */
static duet_ctx *tuned_ctx(const harness_dev *dev, const char *set, const char *spec) {
  duet_ctx *ctx = NULL;
  if (!spec[0]) return NULL;
  harness_case c;
  harness_env saved = harness_env_set("DUET_TUNE", spec + 1);
  harness_case_begin(&c, dev, "duet_ctx_create DUET_TUNING=%s DUET_TUNE=%s", set, spec + 1);
  harness_expect_status(&c, create_with(&ctx, dev, "DUET_TUNING", set), DUET_OK, NULL,
                        "duet_ctx_create");
  harness_case_end(&c);
  harness_env_restore(&saved);
  return ctx;
}

/* duet_sgemm_pack: fast's copies of operands at an ld that is not a multiple of 4 (the harness's
 * padded lds: +3 for A, +5 for B), of A alone, B alone and both in one launch, on a context that
 * packs whatever the multiply's size. */
static void reach_pack(const harness_dev *dev, const char *set) {
  static const struct {
    duet_trans ta, tb;
    size_t m, n, k;
    int a, b;                                                     /* packed */
  } calls[] = {{DUET_TRANS, DUET_TRANS, 70, 33, 19, 1, 0},        /* lda 73, ldb 24 */
               {DUET_NO_TRANS, DUET_NO_TRANS, 41, 50, 33, 0, 1},  /* lda 36, ldb 55 */
               {DUET_NO_TRANS, DUET_NO_TRANS, 40, 50, 30, 1, 1}}; /* lda 33, ldb 55 */
  duet_ctx *ctx = tuned_ctx(dev, set, ",GEMM_PACK_MIN_INTENSITY=0");
  if (!ctx) return;
  const harness_dev d = on_ctx(dev, ctx, set);
  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
    const size_t m = calls[i].m, n = calls[i].n, k = calls[i].k;
    const size_t lda = (calls[i].ta ? m : k) + 3, ldb = (calls[i].tb ? k : n) + 5;
    char text[4096] = "";
    harness_case c;
    harness_case_begin(&c, &d, "fast's plan of %zu x %zu x %zu, lda %zu, ldb %zu: pack A %d, B %d",
                       m, n, k, lda, ldb, calls[i].a, calls[i].b);
    harness_expect_status(&c,
                          duet_sgemm_plan(ctx, DUET_GEMM_FAST, calls[i].ta, calls[i].tb, m, n, k,
                                          lda, ldb, text, sizeof text),
                          DUET_OK, ctx, "duet_sgemm_plan");
    harness_expect(&c, !strstr(text, "pack A:") == !calls[i].a, "A's packing: %s", text);
    harness_expect(&c, !strstr(text, "pack B:") == !calls[i].b, "B's packing: %s", text);
    harness_expect(&c, strstr(text, "duet_sgemm_pack") != NULL, "no duet_sgemm_pack: %s", text);
    harness_case_end(&c);
    harness_run_sgemm(&d, DUET_GEMM_FAST, calls[i].ta, calls[i].tb, m, n, k, 1.5f, 0.5f, 1);
  }
  duet_ctx_destroy(ctx);
}

/* reach_fast_kernels on its five contexts of set `set`, each with DUET_TUNE = prefix and its own
 * part: the set's (no part: d, the set's own context, where the prefix is empty too); sk, `spec`
 * (stream-K, the mid, narrow and flat tiles and skinny-dot where the set does not plan them: plan
 * tunables, so CUDA takes them too); fused, split-K summed in the launch (the set's where it sums
 * so, fuses); plain, no slices summed in the launch or through clusters (the small and tiny
 * tiles' own kernels and the reduction); clusters, a context that weighs the cluster kernels. A
 * context that fails to be made (its case says so) leaves d in its place. */
static void reach_on_contexts(const harness_dev *dev, const harness_dev *d, const char *set,
                              const char *prefix, const char *spec, int fuses) {
  const char *const part[5] = {"", spec, fuses ? "" : ",GEMM_SPLITK_FUSE=8",
                               ",GEMM_SPLITK_FUSE=0,GEMM_SPLITK_CLUSTER=0",
                               ",GEMM_SPLITK_CLUSTER=4"};
  duet_ctx *ctx[5] = {NULL};
  harness_dev on[5];
  for (int i = 0; i < 5; i++) {
    char full[512];
    snprintf(full, sizeof full, "%s%s", prefix, part[i]);
    ctx[i] = tuned_ctx(dev, set, full);
    on[i] = ctx[i] ? on_ctx(dev, ctx[i], set) : *d;
  }
  reach_fast_kernels(&on[0], &on[1], &on[2], &on[3], &on[4]);
  for (int i = 0; i < 5; i++) duet_ctx_destroy(ctx[i]);
}

static void check_sets(const harness_dev *dev) {
  for (int s = 0; duet_tuning_set_name(s); s++) {
    const char *set = duet_tuning_set_name(s);
    duet_ctx *ctx = NULL;
    harness_case c;
    harness_case_begin(&c, dev, "duet_ctx_create DUET_TUNING=%s", set);
    int ok = harness_expect_status(&c, create_with(&ctx, dev, "DUET_TUNING", set), DUET_OK, NULL,
                                   "duet_ctx_create");
    harness_case_end(&c);
    if (!ok) continue;
    check_tunables(dev, ctx, set);
    harness_dev d = on_ctx(dev, ctx, set);
    run_every_kernel(&d);
    /* stream-K, the mid, narrow and flat tiles and skinny-dot where the set does not plan them */
    char spec[256] = "";
    if (tunable(ctx, "GEMM_FAST_STREAMK_PCT") == 0) strcat(spec, ",GEMM_FAST_STREAMK_PCT=5");
    if (tunable(ctx, "GEMM_FAST_MID_PCT") == 0) strcat(spec, ",GEMM_FAST_MID_PCT=110");
    if (tunable(ctx, "GEMM_FAST_NARROW_PCT") == 0) strcat(spec, ",GEMM_FAST_NARROW_PCT=80");
    if (tunable(ctx, "GEMM_FAST_MID_THIN_PCT") == 0) strcat(spec, ",GEMM_FAST_MID_THIN_PCT=100");
    if (tunable(ctx, "GEMM_FAST_SKINNY_DOT") == 0) strcat(spec, ",GEMM_FAST_SKINNY_DOT=1");
    const int fuses = tunable(ctx, "GEMM_SPLITK_FUSE") > 0;
    reach_on_contexts(dev, &d, set, "", spec, fuses);
    reach_pack(dev, set);
    /* fast's scalar twins (nothing packed), on the device's own set alone: each set's pass builds
     * fast's kernels again (on PoCL, minutes), and the kernels are the same source as the first
     * pass's. scalar_pass: each target its twin, every call at unaligned lds. */
    if (!strcmp(set, duet_ctx_tuning(dev->ctx))) {
      scalar_pass = 1;
      reach_on_contexts(dev, &d, set, ",GEMM_FAST_SCALAR=1,GEMM_PACK_MIN_INTENSITY=4096", spec,
                        fuses);
      scalar_pass = 0;
    }
    duet_ctx_destroy(ctx);
  }
}

/* DUET_TUNE: OpenCL compiles the kernels with the overridden values and launches them with the
 * same; CUDA refuses it, its kernels being compiled ahead. TRANSPOSE_WIDE_ROWS is the name
 * TRANSPOSE_TALL_ROWS had in duet 0.1.0, still accepted. */
static void check_overrides(const harness_dev *dev) {
  static const char spec[] =
      "GEMM_TILE=8,TRANSPOSE_TILE=16,TRANSPOSE_ROWS=4,GEMM_SIMPLE_Y=2,TRANSPOSE_WIDE_ROWS=2";
  duet_ctx *ctx = NULL;
  harness_case c;
  harness_case_begin(&c, dev, "duet_ctx_create DUET_TUNE=%s", spec);
  int st = create_with(&ctx, dev, "DUET_TUNE", spec);
  if (dev->backend != DUET_BACKEND_OPENCL) {
    harness_expect_status(&c, st, DUET_EUNSUPPORTED, NULL, "duet_ctx_create");
    harness_case_end(&c);
    return;
  }
  if (harness_expect_status(&c, st, DUET_OK, NULL, "duet_ctx_create")) {
    const char *name;
    int value, seen = 0;
    for (int i = 0; duet_ctx_tunable(ctx, i, &name, &value) == DUET_OK; i++)
      if ((!strcmp(name, "GEMM_TILE") && value == 8) ||
          (!strcmp(name, "TRANSPOSE_TILE") && value == 16) ||
          (!strcmp(name, "TRANSPOSE_ROWS") && value == 4) ||
          (!strcmp(name, "GEMM_SIMPLE_Y") && value == 2) ||
          (!strcmp(name, "TRANSPOSE_TALL_ROWS") && value == 2))
        seen++;
    harness_expect(&c, seen == 5, "%d of the 5 overridden values reported", seen);
  }
  harness_case_end(&c);
  if (st) return;
  harness_dev d = on_ctx(dev, ctx, "tuned");
  run_every_kernel(&d);
  duet_ctx_destroy(ctx);
  static const char *const bad[] = {"GEMM_TILE", "GEMM_TILE=",   "GEMM_TILE=0",
                                    "NO_SUCH=4", "GEMM_TILE=4x", "GEMM_TILE=99999",
                                    ",",         "GEMM_TILE=8,,"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    harness_case_begin(&c, dev, "duet_ctx_create DUET_TUNE='%s'", bad[i]);
    ctx = (duet_ctx *)&c;
    harness_expect_status(&c, create_with(&ctx, dev, "DUET_TUNE", bad[i]), DUET_EINVAL, NULL,
                          "duet_ctx_create");
    harness_expect(&c, ctx == NULL, "*ctx is not NULL after a failure");
    harness_expect(&c, strstr(duet_ctx_last_error(NULL), "DUET_TUNE") != NULL,
                   "last_error does not name DUET_TUNE: \"%s\"", duet_ctx_last_error(NULL));
    harness_case_end(&c);
  }
}

/* A small transpose, copy or sgemm on fresh buffers; returns the status of the routine. */
static int try_routine(duet_ctx *ctx, const char *routine) {
  duet_buf *a = NULL, *b = NULL, *c = NULL;
  int st = duet_buf_create(ctx, 64 * sizeof(float), &a);
  if (!st) st = duet_buf_create(ctx, 64 * sizeof(float), &b);
  if (!st) st = duet_buf_create(ctx, 64 * sizeof(float), &c);
  if (!st) {
    if (!strcmp(routine, "transpose"))
      st = duet_transpose(ctx, DUET_TRANSPOSE_PADDED, 8, 8, a, 8, b, 8);
    else if (!strcmp(routine, "copy"))
      st = duet_copy(ctx, 8, 8, a, 8, b, 8);
    else
      st = duet_sgemm(ctx, DUET_GEMM_TILED, DUET_NO_TRANS, DUET_NO_TRANS, 8, 8, 8, 1.0f, a, 8, b, 8,
                      0.0f, c, 8);
  }
  if (!st) st = duet_finish(ctx);
  duet_buf_destroy(a);
  duet_buf_destroy(b);
  duet_buf_destroy(c);
  return st;
}

/* DUET_TEST_BREAK_GROUPS=list makes those OpenCL groups fail to build. With every group broken,
 * duet_ctx_create and duet_ctx_info still succeed with an empty last-error text: they build
 * nothing. With one group broken, only its routine fails, with DUET_EBUILD and the build log. */
static void check_lazy_build(const harness_dev *dev) {
  static const struct {
    const char *broken;
    int transpose, copy, gemm; /* the status each routine must return */
  } cases[] = {
      {"copy,transpose,gemm", DUET_EBUILD, DUET_EBUILD, DUET_EBUILD},
      {"gemm", DUET_OK, DUET_OK, DUET_EBUILD},
      {"transpose", DUET_EBUILD, DUET_OK, DUET_OK},
      {"copy,gemm", DUET_OK, DUET_EBUILD, DUET_EBUILD},
  };
  static const char *const routines[] = {"transpose", "copy", "gemm"};
  harness_case c;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    harness_case_begin(&c, dev, "lazy build with DUET_TEST_BREAK_GROUPS=%s", cases[i].broken);
    if (dev->backend != DUET_BACKEND_OPENCL) {
      harness_case_skip(&c, "CUDA kernels are compiled ahead of time");
      continue;
    }
    setenv("DUET_TEST_BREAK_GROUPS", cases[i].broken, 1);
    duet_ctx *ctx = NULL;
    int st = duet_ctx_create(&ctx, dev->backend, dev->device);
    if (harness_expect_status(&c, st, DUET_OK, NULL, "duet_ctx_create")) {
      harness_expect(&c, !*duet_ctx_last_error(ctx), "last_error after create: \"%s\"",
                     duet_ctx_last_error(ctx));
      duet_device_info info;
      harness_expect_status(&c, duet_ctx_info(ctx, &info), DUET_OK, ctx, "duet_ctx_info");
      harness_expect(&c, !*duet_ctx_last_error(ctx), "last_error after info: \"%s\"",
                     duet_ctx_last_error(ctx));
      const int want[] = {cases[i].transpose, cases[i].copy, cases[i].gemm};
      /* Twice: a failed build is retried, and a built group stays built. */
      for (int round = 0; round < 2; round++)
        for (int r = 0; r < 3; r++) {
          st = try_routine(ctx, routines[r]);
          harness_expect(&c, st == want[r], "%s returned %s, want %s; last_error: \"%.300s\"",
                         routines[r], duet_status_name(st), duet_status_name(want[r]),
                         duet_ctx_last_error(ctx));
          if (st == DUET_EBUILD)
            harness_expect(&c, strstr(duet_ctx_last_error(ctx), "DUET_TEST_BREAK_GROUPS") != NULL,
                           "%s: the build log is not in last_error", routines[r]);
        }
      duet_ctx_destroy(ctx);
    }
    unsetenv("DUET_TEST_BREAK_GROUPS");
    harness_case_end(&c);
  }
}

/* DUET_TEST_WARN_GROUPS=copy makes the copy group build with a warning (an unused expression
 * in common.cl). The warning alone fails nothing; with DUET_OPENCL_WERROR=1, which CI sets for
 * every test, copy fails with DUET_EBUILD and the log, while the other groups still build. So a
 * kernel that starts to warn fails CI. */
static void check_werror(const harness_dev *dev) {
  harness_case c;
  harness_case_begin(&c, dev, "DUET_OPENCL_WERROR=1 fails a build that warns");
  if (dev->backend != DUET_BACKEND_OPENCL) {
    harness_case_skip(&c, "CUDA kernels are compiled ahead of time");
    return;
  }
  harness_env saved = harness_env_save("DUET_OPENCL_WERROR");
  setenv("DUET_TEST_WARN_GROUPS", "copy", 1);
  static const char *const werror[] = {NULL, "1"};
  for (int w = 0; w < 2; w++) {
    if (werror[w])
      setenv("DUET_OPENCL_WERROR", werror[w], 1);
    else
      unsetenv("DUET_OPENCL_WERROR");
    duet_ctx *ctx = NULL;
    if (!harness_expect_status(&c, duet_ctx_create(&ctx, dev->backend, dev->device), DUET_OK, NULL,
                               "duet_ctx_create"))
      break;
    int st = try_routine(ctx, "copy");
    harness_expect(&c, st == (werror[w] ? DUET_EBUILD : DUET_OK),
                   "DUET_OPENCL_WERROR=%s: copy returned %s; last_error: \"%.300s\"",
                   werror[w] ? werror[w] : "(unset)", duet_status_name(st),
                   duet_ctx_last_error(ctx));
    if (st == DUET_EBUILD)
      harness_expect(&c, strstr(duet_ctx_last_error(ctx), "expression result unused") != NULL,
                     "the build log is not in last_error: \"%.300s\"", duet_ctx_last_error(ctx));
    st = try_routine(ctx, "transpose");
    harness_expect(&c, st == DUET_OK, "transpose, which does not warn, returned %s: \"%.300s\"",
                   duet_status_name(st), duet_ctx_last_error(ctx));
    duet_ctx_destroy(ctx);
  }
  unsetenv("DUET_TEST_WARN_GROUPS");
  harness_env_restore(&saved);
  harness_case_end(&c);
}

/* DUET_TEST_MAX_BLOCK_THREADS=256 makes the device look small: the kernels of larger blocks
 * (tiled sgemm with its 32 x 32 block, padded with the nvidia-sm80 set's 64 x 8; on OpenCL also
 * padded-tall, which DUET_TUNE gives 32 rows of threads here) are refused with
 * DUET_EUNSUPPORTED, the context stays usable, and AUTO falls back to kernels that fit, with
 * correct results. The nvidia-sm80 set makes transpose AUTO want padded-tall for an unaligned
 * ld_out (its own 32 x 8 block fits on CUDA) and padded for an aligned one; on OpenCL the set's
 * refinement keeps AUTO on padded, so DUET_TUNE puts TRANSPOSE_AUTO_ALIGN back to 32 there. */
static void check_limits(const harness_dev *dev) {
  const int big_tall = dev->backend == DUET_BACKEND_OPENCL;
  harness_env saved_tune = harness_env_save("DUET_TUNE");
  if (big_tall) setenv("DUET_TUNE", "TRANSPOSE_TALL_ROWS=32,TRANSPOSE_AUTO_ALIGN=32", 1);
  setenv("DUET_TEST_MAX_BLOCK_THREADS", "256", 1);
  duet_ctx *ctx = NULL;
  int st = harness_create_with_env(&ctx, "DUET_TUNING", "nvidia-sm80", dev->backend, dev->device);
  unsetenv("DUET_TEST_MAX_BLOCK_THREADS");
  harness_env_restore(&saved_tune);
  harness_case c;
  harness_case_begin(&c, dev, "a device limited to 256-thread blocks");
  if (!harness_expect_status(&c, st, DUET_OK, NULL, "duet_ctx_create")) {
    harness_case_end(&c);
    return;
  }
  duet_device_info info;
  harness_expect_status(&c, duet_ctx_info(ctx, &info), DUET_OK, ctx, "duet_ctx_info");
  harness_expect(&c, info.max_block_threads == 256, "max_block_threads = %u",
                 info.max_block_threads);
  duet_buf *a = NULL, *b = NULL, *cc = NULL;
  st = duet_buf_create(ctx, 4096 * sizeof(float), &a);
  if (!st) st = duet_buf_create(ctx, 4096 * sizeof(float), &b);
  if (!st) st = duet_buf_create(ctx, 4096 * sizeof(float), &cc);
  if (harness_expect_status(&c, st, DUET_OK, ctx, "duet_buf_create")) {
    st = duet_transpose(ctx, DUET_TRANSPOSE_PADDED_TALL, 8, 8, a, 8, b, 8);
    harness_expect_status(&c, st, big_tall ? DUET_EUNSUPPORTED : DUET_OK, ctx,
                          "duet_transpose padded-tall");
    if (big_tall)
      harness_expect(&c, strstr(duet_ctx_last_error(ctx), "256") != NULL,
                     "last_error does not name the limit: \"%s\"", duet_ctx_last_error(ctx));
    st = duet_transpose(ctx, DUET_TRANSPOSE_PADDED, 8, 8, a, 8, b, 8);
    harness_expect_status(&c, st, DUET_EUNSUPPORTED, ctx, "duet_transpose padded");
    st = duet_sgemm(ctx, DUET_GEMM_TILED, DUET_NO_TRANS, DUET_NO_TRANS, 8, 8, 8, 1.0f, a, 8, b, 8,
                    0.0f, cc, 8);
    harness_expect_status(&c, st, DUET_EUNSUPPORTED, ctx, "duet_sgemm tiled");
    harness_expect_status(&c, duet_finish(ctx), DUET_OK, ctx, "duet_finish after the refusals");
  }
  duet_buf_destroy(a);
  duet_buf_destroy(b);
  duet_buf_destroy(cc);
  harness_case_end(&c);
  /* AUTO on the small device: correct results from the kernels that fit. */
  harness_dev d = on_ctx(dev, ctx, "256threads");
  harness_run_move(&d, DUET_TRANSPOSE_AUTO, 67, 45, 3, 1);  /* ld_out 68: wants padded-tall */
  harness_run_move(&d, DUET_TRANSPOSE_AUTO, 67, 45, 3, 29); /* ld_out 96: wants padded */
  harness_run_sgemm(&d, DUET_GEMM_AUTO, DUET_NO_TRANS, DUET_NO_TRANS, 37, 71, 45, 1.5f, 0.5f, 1);
  duet_ctx_destroy(ctx);
}

static void run(const harness_dev *dev, void *user) {
  (void)user;
  /* First: NVIDIA's OpenCL compiler (driver 580.159, H100) keeps -Werror for later builds in
   * the process, so a warning is an error after the first build with it. */
  check_werror(dev);
  check_limits(dev);
  check_sets(dev);
  check_overrides(dev);
  check_lazy_build(dev);
}

int main(void) {
  harness_init("test_manifest");
  check_set_names();
  harness_for_each_ctx(run, NULL);
  return harness_end();
}
