/* SPDX-License-Identifier: MIT */
/* The GEMM plan on the host, no device (src/gemm_plan.c): for fabricated devices (an H100 as
 * CUDA sees it, 132 units with 227 KiB of shared memory a block, and as NVIDIA's OpenCL sees it,
 * 48 KiB; a GPU of the default set; PoCL on a 2-core CPU; devices of 128 work-items) and the
 * tuning database's values, each shape chosen to reach a kernel gets that kernel, with its
 * pieces, orientation, k slices, stream-K share and scratch, so a policy change that moves a
 * shape off its kernel fails here. */
#include <stdio.h>
#include <string.h>

#include "gemm_plan.h"
#include "harness.h"

/* The database's columns (src/duet_tunables.h), indexed by duet__tuning_set. */
static int tun[DUET__SET_COUNT][DUET__T_COUNT];
static void load_sets(void) {
#define SET_ROW(name, v0, v1, v2) \
  tun[0][DUET__T_##name] = (v0);  \
  tun[1][DUET__T_##name] = (v1);  \
  tun[2][DUET__T_##name] = (v2);
  DUET__TUNABLES(SET_ROW)
#undef SET_ROW
}

typedef struct {
  const char *name;
  duet__tuning_set set;
  duet__gemm_caps caps;
} device;

static device dev(const char *name, duet__tuning_set set, unsigned units, unsigned threads,
                  size_t shared) {
  device d;
  memset(&d, 0, sizeof d);
  d.name = name;
  d.set = set;
  d.caps.units = units;
  d.caps.max_block_threads = threads;
  d.caps.shared_bytes = shared;
  return d;
}

#define KIB ((size_t)1024)
#define MIB (KIB * KIB)
#define K(id) DUET__K_##id

/* A piece as a test expects it: where it is, its kernel, k slices and stream-K tiles, thin side
 * and 1D grid (0: none). */
typedef struct {
  size_t r0, rows, c0, cols;
  duet__kernel kernel;
  unsigned splits;
  size_t sk_tiles;
  duet__thin thin;
  size_t blocks;
} want_piece;

/* A shape and its plan. */
typedef struct {
  const char *why; /* which kernel or rule the shape is chosen to reach */
  duet_gemm_variant variant;
  int ta, tb;
  size_t m, n, k, lda, ldb; /* 0: the tightest ld */
  int status;               /* DUET_OK unless given */
  duet_gemm_variant runs;
  duet__gemm_form form;
  duet__kernel kernel; /* SCALE, SIMPLE */
  int pack_a, pack_b;
  unsigned npieces;
  want_piece piece[DUET__GEMM_MAX_PIECES];
} want_plan;

static const char *kname(duet__kernel k) {
  static char buf[DUET__K_COUNT][48];
  const duet__kernel_desc *d = &duet__manifest[k];
  snprintf(buf[k], sizeof buf[k], "%s[%s]", d->name, duet__groups[d->group].name);
  return buf[k];
}

static void check_plan(const device *d, const want_plan *w) {
  harness_case c;
  harness_case_begin(&c, NULL, "plan on %s (%s): %s %zu x %zu x %zu %c%c: %s", d->name,
                     duet_tuning_set_name((int)d->set), duet_gemm_variant_name(w->variant), w->m,
                     w->n, w->k, w->ta ? 't' : 'n', w->tb ? 't' : 'n', w->why);
  const duet__gemm_shape s = {w->variant,
                              w->ta,
                              w->tb,
                              w->m,
                              w->n,
                              w->k,
                              w->lda ? w->lda : (w->ta ? w->m : w->k),
                              w->ldb ? w->ldb : (w->tb ? w->k : w->n),
                              1.0f,
                              0.0f};
  duet__gemm_plan p;
  const int st = duet__gemm_plan_make(&d->caps, tun[d->set], &s, &p);
  char text[4096];
  duet__gemm_plan_format(&p, &s, tun[d->set], text, sizeof text);
  harness_expect(&c, st == w->status, "status %s, want %s", duet_status_name(st),
                 duet_status_name(w->status));
  harness_expect(&c, p.variant == w->runs, "runs %s, want %s", duet_gemm_variant_name(p.variant),
                 duet_gemm_variant_name(w->runs));
  harness_expect(&c, p.form == w->form, "form %d, want %d", (int)p.form, (int)w->form);
  if (w->form == DUET__GEMM_SIMPLE || w->form == DUET__GEMM_SCALE)
    harness_expect(&c, p.kernel == w->kernel, "kernel %s, want %s", kname(p.kernel),
                   kname(w->kernel));
  if (w->form == DUET__GEMM_FAST) {
    harness_expect(&c, p.pack[0].on == w->pack_a && p.pack[1].on == w->pack_b,
                   "packs A %d B %d, want %d %d", p.pack[0].on, p.pack[1].on, w->pack_a, w->pack_b);
    const size_t pt = (size_t)tun[d->set][DUET__T_TRANSPOSE_TILE]; /* duet_sgemm_pack's tile */
    for (int i = 0; i < 2; i++)
      harness_expect(&c,
                     p.pack[i].tiles == (p.pack[i].on ? (p.pack[i].rows + pt - 1) / pt *
                                                            ((p.pack[i].cols + pt - 1) / pt)
                                                      : 0),
                     "pack %c: %zu tiles for %zu x %zu", i ? 'B' : 'A', p.pack[i].tiles,
                     p.pack[i].rows, p.pack[i].cols);
    harness_expect(&c, p.npieces == w->npieces, "%u pieces, want %u", p.npieces, w->npieces);
    unsigned launches = (unsigned)(p.pack[0].on || p.pack[1].on); /* one duet_sgemm_pack */
    size_t work = 0, flags = 0;
    for (unsigned i = 0; i < p.npieces && i < w->npieces; i++) {
      const duet__gemm_piece *q = &p.piece[i];
      const want_piece *e = &w->piece[i];
      harness_expect(
          &c, q->r0 == e->r0 && q->rows == e->rows && q->c0 == e->c0 && q->cols == e->cols,
          "piece %u: C[%zu:%zu, %zu:%zu], want C[%zu:%zu, %zu:%zu]", i, q->r0, q->r0 + q->rows,
          q->c0, q->c0 + q->cols, e->r0, e->r0 + e->rows, e->c0, e->c0 + e->cols);
      harness_expect(&c, q->kernel == e->kernel, "piece %u: kernel %s, want %s", i,
                     kname(q->kernel), kname(e->kernel));
      harness_expect(&c, q->splits == e->splits, "piece %u: %u k slices, want %u", i, q->splits,
                     e->splits);
      harness_expect(&c, q->sk_tiles == e->sk_tiles, "piece %u: %zu stream-K tiles, want %zu", i,
                     q->sk_tiles, e->sk_tiles);
      harness_expect(&c, q->thin == e->thin, "piece %u: thin side %d, want %d", i, (int)q->thin,
                     (int)e->thin);
      harness_expect(&c, q->blocks == e->blocks, "piece %u: %zu blocks, want %zu", i, q->blocks,
                     e->blocks);
      /* GEMV and the cluster kernels sum their slices in their one launch */
      const int in_launch = duet__gemm_is_gemv(q->kernel) || duet__gemm_is_cluster(q->kernel);
      const int reduced = q->splits > 1 && !in_launch;
      harness_expect(&c, reduced == (q->reduce_grid > 0),
                     "piece %u: %u slices, a reduction of %zu blocks", i, q->splits,
                     q->reduce_grid);
      /* the scratch follows from the rest: split-K's partials, stream-K's slots (a block per
       * unit, or split-K summed in the launch: a block per tile and slice) and flags, GEMV's
       * partials (slices x the grid's outputs) and tickets (an output's, or sgemv's float4 of
       * outputs') */
      const int gemv = duet__gemm_is_gemv(e->kernel);
      duet__shape ks;
      duet__manifest[e->kernel].shape(tun[d->set], &ks);
      const size_t tile_bytes = (size_t)ks.tile_x * ks.tile_y * 4;
      const int fused =
          e->kernel >= K(SGEMM_FAST_TINY_SK_NN) && e->kernel <= K(SGEMM_FAST_TINY_SK_TT);
      const size_t sk_units = fused ? e->blocks : p.units;
      harness_expect(&c, !fused || q->sk_slices * q->sk_tiles == q->blocks,
                     "piece %u: %zu tiles in %u slices, %zu blocks", i, q->sk_tiles, q->sk_slices,
                     q->blocks);
      const size_t grid_outputs = e->blocks * ks.tile_x;
      const int cluster = duet__gemm_is_cluster(e->kernel);
      const size_t want_work = e->sk_tiles                 ? (sk_units + e->sk_tiles) * tile_bytes
                               : gemv && e->splits > 1     ? e->splits * grid_outputs * 4
                               : e->splits > 1 && !cluster ? e->splits * e->rows * e->cols * 4
                                                           : 0;
      harness_expect(&c, q->work_bytes == want_work, "piece %u: work %zu bytes, want %zu", i,
                     q->work_bytes, want_work);
      /* a flag per shared tile, then a stamp per slot and work-item of the tile's block */
      const size_t items = (size_t)ks.block_x * ks.block_y;
      const size_t want_flags =
          e->sk_tiles             ? (e->sk_tiles + (sk_units + e->sk_tiles) * items) * sizeof(int)
          : gemv && e->splits > 1 ? grid_outputs / (e->kernel == K(SGEMV) ? 4 : 1) * sizeof(int)
                                  : 0;
      harness_expect(&c, q->flag_bytes == want_flags, "piece %u: flags %zu bytes, want %zu", i,
                     q->flag_bytes, want_flags);
      if (q->work_bytes > work) work = q->work_bytes;
      if (q->flag_bytes > flags) flags = q->flag_bytes;
      launches += 1 + reduced;
    }
    harness_expect(&c, p.work_bytes == work && p.flag_bytes == flags,
                   "plan scratch %zu + %zu bytes, pieces' most %zu + %zu", p.work_bytes,
                   p.flag_bytes, work, flags);
    harness_expect(&c, p.launches == launches, "%u launches, want %u", p.launches, launches);
    /* the text names every piece's kernel, a line each */
    const char *at = text;
    for (unsigned i = 0; i < p.npieces; i++) {
      char tag[32];
      snprintf(tag, sizeof tag, "piece %u: ", i);
      const char *line = strstr(at, tag);
      harness_expect(&c, line && strstr(line, duet__manifest[p.piece[i].kernel].name),
                     "the text does not name piece %u's kernel", i);
      if (line) at = line;
    }
  }
  if (c.failed) harness_case_fail(&c, "plan:\n%s", text);
  harness_case_end(&c);
}

/* check_plan for each of n wanted plans */
static void check_plans(const device *d, const want_plan *w, size_t n) {
  for (size_t i = 0; i < n; i++) check_plan(d, &w[i]);
}

/* check_plans with tunable t of d's set at value, then back to what it was */
static void check_plans_with(const device *d, duet__tunable t, int value, const want_plan *w,
                             size_t n) {
  const int saved = tun[d->set][t];
  tun[d->set][t] = value;
  check_plans(d, w, n);
  tun[d->set][t] = saved;
}

/* The tables below: a call, and the plan it must get. */
#define TA_NN 0
#define TA_NT 0
#define TA_TN 1
#define TA_TT 1
#define TB_NN 0
#define TB_NT 1
#define TB_TN 0
#define TB_TT 1
#define CALL(V, T, M, N, K_) \
  .variant = DUET_GEMM_##V, .ta = TA_##T, .tb = TB_##T, .m = (M), .n = (N), .k = (K_)
#define FAST_PLAN(PA, PB, NP, ...)                                                 \
  .runs = DUET_GEMM_FAST, .form = DUET__GEMM_FAST, .pack_a = (PA), .pack_b = (PB), \
  .npieces = (NP), .piece = {__VA_ARGS__}
#define SIMPLE_PLAN(V, KID) .runs = DUET_GEMM_##V, .form = DUET__GEMM_SIMPLE, .kernel = K(KID)
/* a piece of fast's big (FAST_NN..TT), small, tiny, tall, wide or mid (FAST_SMALL_NN..TT, ...)
 * tile, one slice */
#define PIECE(R0, R, C0, C, KID) \
  { (R0), (R), (C0), (C), K(SGEMM_##KID), 1, 0, DUET__THIN_NONE, 0 }
#define SPLIT_PIECE(R0, R, C0, C, KID, S) \
  { (R0), (R), (C0), (C), K(KID), (S), 0, DUET__THIN_NONE, 0 }
#define SK_PIECE(R0, R, C0, C, KID, TILES, BLOCKS) \
  { (R0), (R), (C0), (C), K(KID), 1, (TILES), DUET__THIN_NONE, (BLOCKS) }
#define THIN_PIECE(R0, R, C0, C, KID, S, SIDE, BLOCKS) \
  { (R0), (R), (C0), (C), K(KID), (S), 0, DUET__THIN_##SIDE, (BLOCKS) }

/* The H100 (nvidia-sm80: big tile 256 x 128, small 128 x 128, tiny 64 x 64, skinny up to 4
 * thin). Below the big tile, the tile and the k slices are the cost model's (src/gemm_plan.c,
 * piece_cost) at the set's values: a change of the model or the values that moves a shape shows
 * here. */
static void h100(const device *d) {
  const want_plan w[] = {
      {"fast's big tile: 512 tiles over 132 units in 4 waves, 3% idle",
       CALL(FAST, NN, 4096, 4096, 4096), FAST_PLAN(0, 0, 1, PIECE(0, 4096, 0, 4096, FAST_NN))},
      {"fast's big tile, B transposed", CALL(FAST, NT, 4096, 4096, 4096),
       FAST_PLAN(0, 0, 1, PIECE(0, 4096, 0, 4096, FAST_NT))},
      {"fast's big tile, A transposed", CALL(FAST, TN, 4096, 4096, 4096),
       FAST_PLAN(0, 0, 1, PIECE(0, 4096, 0, 4096, FAST_TN))},
      {"fast's big tile, both transposed", CALL(FAST, TT, 4096, 4096, 4096),
       FAST_PLAN(0, 0, 1, PIECE(0, 4096, 0, 4096, FAST_TT))},
      {"stream-K: 128 whole tiles under one wave, all shared", CALL(FAST, NN, 2048, 2048, 2048),
       FAST_PLAN(0, 0, 1, SK_PIECE(0, 2048, 0, 2048, SGEMM_FAST_SK_NN, 128, 132))},
      {"stream-K: 288 tiles in 3 waves, 27% idle: the last 156", CALL(FAST, NT, 3072, 3072, 3072),
       FAST_PLAN(0, 0, 1, SK_PIECE(0, 3072, 0, 3072, SGEMM_FAST_SK_NT, 156, 264))},
      {"stream-K, A transposed", CALL(FAST, TN, 2048, 2048, 2048),
       FAST_PLAN(0, 0, 1, SK_PIECE(0, 2048, 0, 2048, SGEMM_FAST_SK_TN, 128, 132))},
      {"stream-K, both transposed", CALL(FAST, TT, 2048, 2048, 2048),
       FAST_PLAN(0, 0, 1, SK_PIECE(0, 2048, 0, 2048, SGEMM_FAST_SK_TT, 128, 132))},
      {"no stream-K where ragged tiles set the time (n = 2000)", CALL(FAST, NN, 2000, 2000, 2000),
       FAST_PLAN(0, 0, 1, PIECE(0, 2000, 0, 2000, FAST_NN))},
      {"split-K: 64 small tiles, 4 slices of 256", CALL(FAST, NN, 1024, 1024, 1024),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 1024, 0, 1024, SGEMM_FAST_SMALL_NN, 4))},
      {"split-K, B transposed", CALL(FAST, NT, 1024, 1024, 1024),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 1024, 0, 1024, SGEMM_FAST_SMALL_NT, 4))},
      {"split-K, A transposed", CALL(FAST, TN, 1024, 1024, 1024),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 1024, 0, 1024, SGEMM_FAST_SMALL_TN, 4))},
      {"split-K, both transposed", CALL(FAST, TT, 1024, 1024, 1024),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 1024, 0, 1024, SGEMM_FAST_SMALL_TT, 4))},
      {"k too short to slice well: 256 tiny tiles, two a unit, one launch",
       CALL(FAST, NN, 1024, 1024, 256), FAST_PLAN(0, 0, 1, PIECE(0, 1024, 0, 1024, FAST_TINY_NN))},
      {"issue 22's 4097: A and B packed, the last row cut off as a GEMV strip (a block more for "
       "its shift)",
       CALL(AUTO, NN, 4097, 4097, 4097),
       FAST_PLAN(1, 1, 2, PIECE(0, 4096, 0, 4097, FAST_NN),
                 THIN_PIECE(4096, 1, 0, 4097, SGEMV, 16, ROWS, 33))},
      {"issue 22's 4095: packed, no strip (the last tiles are more than half full)",
       CALL(AUTO, NN, 4095, 4095, 4095), FAST_PLAN(1, 1, 1, PIECE(0, 4095, 0, 4095, FAST_NN))},
      {"the last column cut off (544 tiles in 5 waves, 528 in 4): GEMV-dot on a column",
       CALL(FAST, NN, 4096, 4225, 4096), .ldb = 4228,
       FAST_PLAN(0, 0, 2, PIECE(0, 4096, 0, 4224, FAST_NN),
                 THIN_PIECE(0, 4096, 4224, 1, SGEMV_DOT, 1, COLS, 512))},
      {"skinny, thin rows (2 x n, B read along the rows)", CALL(FAST, NN, 2, 4096, 4096),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 2, 0, 4096, SGEMM_SKINNY, 33, ROWS, 16))},
      /* B's ld of 3 or 2 is packed to 128, a whole tile, though no tile reads it: today's policy
       * decides packing before the pieces */
      {"skinny, thin columns (A^T read along the column)", CALL(FAST, TN, 4096, 3, 4096),
       FAST_PLAN(0, 1, 1, THIN_PIECE(0, 4096, 0, 3, SGEMM_SKINNY, 33, COLS, 16))},
      {"skinny-dot, thin columns (A read along its rows)", CALL(FAST, NN, 4096, 2, 4096),
       FAST_PLAN(0, 1, 1, THIN_PIECE(0, 4096, 0, 2, SGEMM_SKINNY_DOT, 2, COLS, 512))},
      {"skinny-dot, thin rows (B^T)", CALL(FAST, NT, 4, 4096, 4096),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 4, 0, 4096, SGEMM_SKINNY_DOT, 2, ROWS, 512))},
      {"five rows are no strip: the wide tile (GEMM_FAST_THIN), 16 slices",
       CALL(FAST, NN, 5, 4096, 4096),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 5, 0, 4096, SGEMM_FAST_WIDE_NN, 16))},
      {"16 columns: the narrow tile (GEMM_FAST_NARROW_PCT 80), 16 slices",
       CALL(AUTO, NN, 4096, 16, 4096),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 4096, 0, 16, SGEMM_FAST_NARROW_NN, 16))},
      {"32 columns: the tall tile, 16 slices", CALL(AUTO, NN, 4096, 32, 4096),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 4096, 0, 32, SGEMM_FAST_TALL_NN, 16))},
      {"33 columns are wider than the tall tile: the tiny tile, 8 slices (B packed: ldb 33; k "
       "under GEMM_FAST_MID_THIN_MIN_K)",
       CALL(AUTO, NN, 4096, 33, 4096),
       FAST_PLAN(0, 1, 1, SPLIT_PIECE(0, 4096, 0, 33, SGEMM_FAST_TINY_NN, 8))},
      /* GEMV, issue 22: a row or a column of C in all four transposes, one launch each */
      {"AUTO, one row of C: sgemv along B's rows, 33 blocks x 16 slices (GEMV_ALONG_PER_CU 4)",
       CALL(AUTO, NN, 1, 4096, 4096),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 1, 0, 4096, SGEMV, 16, ROWS, 33))},
      {"AUTO, one row, A transposed: sgemv", CALL(AUTO, TN, 1, 4096, 4096),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 1, 0, 4096, SGEMV, 16, ROWS, 33))},
      {"AUTO, one row, B^T: sgemv-dot along B's rows", CALL(AUTO, NT, 1, 4096, 4096),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 1, 0, 4096, SGEMV_DOT, 1, ROWS, 512))},
      {"AUTO, one row, both transposed: sgemv-dot", CALL(AUTO, TT, 1, 4096, 4096),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 1, 0, 4096, SGEMV_DOT, 1, ROWS, 512))},
      {"AUTO, one column: sgemv-dot along A's rows, B not packed", CALL(AUTO, NN, 4096, 1, 4096),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 4096, 0, 1, SGEMV_DOT, 1, COLS, 512))},
      {"AUTO, one column, B^T: sgemv-dot", CALL(AUTO, NT, 4096, 1, 4096),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 4096, 0, 1, SGEMV_DOT, 1, COLS, 512))},
      {"AUTO, one column, A^T: sgemv along A's stored rows", CALL(AUTO, TN, 4096, 1, 4096),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 4096, 0, 1, SGEMV, 16, COLS, 33))},
      {"AUTO, one column, both transposed: sgemv", CALL(AUTO, TT, 4096, 1, 4096),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 4096, 0, 1, SGEMV, 16, COLS, 33))},
      {"GEMV at 1024: slices of GEMV_SPLIT_MIN_K (128)", CALL(AUTO, NN, 1, 1024, 1024),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 1, 0, 1024, SGEMV, 8, ROWS, 9))},
      {"GEMV, k too short to slice", CALL(AUTO, NN, 1, 4096, 200),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 1, 0, 4096, SGEMV, 1, ROWS, 33))},
      {"GEMV, deep k: one block x 256 slices (GEMV_SPLIT_MAX)", CALL(AUTO, NN, 8, 1, 262144),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 8, 0, 1, SGEMV_DOT, 256, COLS, 1))},
      {"GEMV, 1 x 1: a dot product, B^T contiguous", CALL(AUTO, TT, 1, 1, 65536),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 1, 0, 1, SGEMV_DOT, 256, ROWS, 1))},
      {"GEMV, unaligned ld: nothing packed", CALL(AUTO, TN, 4095, 1, 4097),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 4095, 0, 1, SGEMV, 16, COLS, 33))},
      {"deep k, C of one small tile: 256 slices of 256, two a unit",
       CALL(AUTO, NN, 128, 128, 65536),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 128, 0, 128, SGEMM_FAST_SMALL_NN, 256))},
      {"deep k, one tiny tile in 395 slices, three a unit", CALL(AUTO, NN, 64, 64, 262144),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 64, 0, 64, SGEMM_FAST_TINY_NN, 395))},
      {"deep k, 8 big tiles in 33 slices of 1986 (GEMM_FAST_BIG_SPLIT_PCT), 2 a unit",
       CALL(AUTO, TN, 512, 512, 65536),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 512, 0, 512, SGEMM_FAST_TN, 33))},
      {"a small square: 16 tiny tiles, k in slices", CALL(AUTO, NN, 256, 256, 256),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 256, 0, 256, SGEMM_FAST_TINY_NN, 4))},
      {"512^3: 64 tiny tiles in 6 slices", CALL(AUTO, NN, 512, 512, 512),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 512, 0, 512, SGEMM_FAST_TINY_NN, 6))},
      {"1000^3, both transposed: 4 slices of 256 (3 of 336 left 72 units half idle)",
       CALL(AUTO, TT, 1000, 1000, 1000),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 1000, 0, 1000, SGEMM_FAST_SMALL_TT, 4))},
      {"32^3: one tiny tile, one launch", CALL(FAST, NN, 32, 32, 32),
       FAST_PLAN(0, 0, 1, PIECE(0, 32, 0, 32, FAST_TINY_NN))},
      {"AUTO at m, n, k <= GEMM_AUTO_TILED_MAX (128): tiled", CALL(AUTO, NN, 32, 32, 32),
       SIMPLE_PLAN(TILED, SGEMM_TILED)},
      {"AUTO at GEMM_AUTO_TILED_MAX itself, transposed: tiled", CALL(AUTO, TT, 128, 100, 128),
       SIMPLE_PLAN(TILED, SGEMM_TILED)},
      {"AUTO one past GEMM_AUTO_TILED_MAX: fast", CALL(AUTO, NN, 128, 128, 129),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 128, 0, 128, SGEMM_FAST_TINY_NN, 2))},
      {"65536 x 32 fills a quarter of its big tiles (GEMM_FAST_BIG_FILL_PCT 50): tall tiles",
       CALL(AUTO, NN, 65536, 32, 256), FAST_PLAN(0, 0, 1, PIECE(0, 65536, 0, 32, FAST_TALL_NN))},
      {"32 x 65536 fills an eighth of its big tiles: wide tiles", CALL(AUTO, NN, 32, 65536, 256),
       FAST_PLAN(0, 0, 1, PIECE(0, 32, 0, 65536, FAST_WIDE_NN))},
      {"32 x 65536, B transposed: wide tiles", CALL(AUTO, NT, 32, 65536, 256),
       FAST_PLAN(0, 0, 1, PIECE(0, 32, 0, 65536, FAST_WIDE_NT))},
      {"65536 x 32, both transposed: tall tiles", CALL(AUTO, TT, 65536, 32, 256),
       FAST_PLAN(0, 0, 1, PIECE(0, 65536, 0, 32, FAST_TALL_TT))},
      {"128 x 16384 fills half of its big tiles (GEMM_FAST_BIG_FILL_PCT 60): small tiles in 2 "
       "slices",
       CALL(AUTO, NN, 128, 16384, 1024),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 128, 0, 16384, SGEMM_FAST_SMALL_NN, 2))},
      {"300 x 8192 fills 59% of its big tiles: small tiles in 4 slices",
       CALL(AUTO, NN, 300, 8192, 4096),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 300, 0, 8192, SGEMM_FAST_SMALL_NN, 4))},
      {"k at most GEMM_FAST_SHALLOW_TINY_K (32): the tiny tile, one launch",
       CALL(AUTO, NN, 4096, 4096, 32), FAST_PLAN(0, 0, 1, PIECE(0, 4096, 0, 4096, FAST_TINY_NN))},
      {"k at most GEMM_FAST_SHALLOW_TINY_K, 8 columns: the tall tile, one launch",
       CALL(AUTO, NN, 65536, 8, 32), FAST_PLAN(0, 0, 1, PIECE(0, 65536, 0, 8, FAST_TALL_NN))},
      {"k at most GEMM_FAST_SHALLOW_TINY_K, 16 rows, B transposed: the wide tile, one launch",
       CALL(AUTO, NT, 16, 65536, 24), FAST_PLAN(0, 0, 1, PIECE(0, 16, 0, 65536, FAST_WIDE_NT))},
      {"k at most GEMM_FAST_SHALLOW_TINY_K, C thin on both sides: the tiny tile",
       CALL(FAST, NN, 30, 20, 32), FAST_PLAN(0, 0, 1, PIECE(0, 30, 0, 20, FAST_TINY_NN))},
      {"k = 1, B transposed: the tiny tile (A and B packed to an ld of 4)",
       CALL(AUTO, NT, 2048, 2048, 1), FAST_PLAN(1, 1, 1, PIECE(0, 2048, 0, 2048, FAST_TINY_NT))},
      {"64 big tiles, under a wave but GEMM_FAST_BIG_PCT (30) of it: stream-K on the big tile",
       CALL(AUTO, NN, 16384, 128, 1024),
       FAST_PLAN(0, 0, 1, SK_PIECE(0, 16384, 0, 128, SGEMM_FAST_SK_NN, 64, 132))},
      {"32 big tiles, under GEMM_FAST_BIG_PCT: small tiles in 4 slices",
       CALL(AUTO, NN, 1000, 1000, 1000),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 1000, 0, 1000, SGEMM_FAST_SMALL_NN, 4))},
      {"register", CALL(REGISTER, NN, 512, 512, 512), SIMPLE_PLAN(REGISTER, SGEMM_REGISTER)},
      {"tiled", CALL(TILED, TT, 512, 512, 512), SIMPLE_PLAN(TILED, SGEMM_TILED)},
      {"coalesced", CALL(COALESCED, NT, 33, 65, 17), SIMPLE_PLAN(COALESCED, SGEMM_COALESCED)},
      {"naive", CALL(NAIVE, TN, 33, 65, 17), SIMPLE_PLAN(NAIVE, SGEMM_NAIVE)},
  };
  check_plans(d, w, sizeof w / sizeof w[0]);
}

/* PoCL on the 2-core development machine (cpu set: 64 x 64 tiles, no stream-K). */
static void pocl(const device *d) {
  const want_plan w[] = {
      {"fast's big tile", CALL(AUTO, NN, 128, 128, 128),
       FAST_PLAN(0, 0, 1, PIECE(0, 128, 0, 128, FAST_NN))},
      {"one tile for two units: the small tile, k too short to split", CALL(FAST, NN, 64, 64, 64),
       FAST_PLAN(0, 0, 1, PIECE(0, 64, 0, 64, FAST_SMALL_NN))},
      {"split-K (test_manifest's shape)", CALL(FAST, NT, 40, 50, 1030),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 40, 0, 50, SGEMM_FAST_SMALL_NT, 2))},
      {"skinny, thin rows", CALL(AUTO, NN, 3, 700, 301),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 3, 0, 700, SGEMM_SKINNY, 3, ROWS, 3))},
      {"one row: sgemv, one block of 1024 outputs, k too short to slice",
       CALL(AUTO, NN, 1, 700, 301),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 1, 0, 700, SGEMV, 1, ROWS, 1))},
      {"one row: sgemv, 2 blocks (one for the shift) in 4 slices of 256",
       CALL(AUTO, NN, 1, 1024, 1024),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 1, 0, 1024, SGEMV, 4, ROWS, 2))},
      {"one column: sgemv-dot, 32 outputs a block", CALL(AUTO, NN, 700, 1, 3001),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 700, 0, 1, SGEMV_DOT, 1, COLS, 22))},
      {"one row of B^T: sgemv-dot in 4 slices", CALL(AUTO, NT, 1, 5, 4096),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 1, 0, 5, SGEMV_DOT, 4, ROWS, 1))},
      /* GEMM_FAST_SKINNY_DOT 0: what skinny-dot would take keeps the tiles; no strip is cut
       * off, since 512 x 2 would not fill the big tiles either */
      {"thin columns of A read along k: the tall tile, one piece", CALL(AUTO, NT, 521, 2, 130),
       FAST_PLAN(0, 0, 1, PIECE(0, 521, 0, 2, FAST_TALL_NT))},
      /* GEMM_FAST_BIG_FILL_PCT 50: a C filling less of the big tiles weighs the others */
      {"8 x 1024 fills an eighth of its big tiles: the wide tile", CALL(AUTO, NN, 8, 1024, 1024),
       FAST_PLAN(0, 0, 1, PIECE(0, 8, 0, 1024, FAST_WIDE_NN))},
      {"1024 x 16 fills a quarter of its big tiles: the tall tile", CALL(AUTO, NN, 1024, 16, 1024),
       FAST_PLAN(0, 0, 1, PIECE(0, 1024, 0, 16, FAST_TALL_NN))},
      {"2048 x 32 fills half of its big tiles: the big tile", CALL(AUTO, NN, 2048, 32, 256),
       FAST_PLAN(0, 0, 1, PIECE(0, 2048, 0, 32, FAST_NN))},
      {"C of one tiny tile: the tiny tile (the small one would be three quarters padding)",
       CALL(AUTO, NN, 32, 32, 32), FAST_PLAN(0, 0, 1, PIECE(0, 32, 0, 32, FAST_TINY_NN))},
      {"a single tile, deep k: 2 slices on the tiny tile", CALL(AUTO, NN, 32, 32, 65536),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 32, 0, 32, SGEMM_FAST_TINY_NN, 2))},
      /* GEMM_AUTO_COALESCED_MAX 40: a C of at most 40 elements, neither one row nor one column */
      {"a 4 x 4 C, deep k: coalesced, a work-item an element", CALL(AUTO, NN, 4, 4, 65536),
       .runs = DUET_GEMM_COALESCED, .form = DUET__GEMM_SIMPLE, .kernel = K(SGEMM_COALESCED)},
      {"a 5 x 8 C (40 elements): coalesced", CALL(AUTO, TT, 5, 8, 100), .runs = DUET_GEMM_COALESCED,
       .form = DUET__GEMM_SIMPLE, .kernel = K(SGEMM_COALESCED)},
      {"a 7 x 6 C (42 elements): fast's tiny tile", CALL(AUTO, NN, 7, 6, 8),
       FAST_PLAN(0, 0, 1, PIECE(0, 7, 0, 6, FAST_TINY_NN))},
      /* GEMM_FAST_SKINNY_FILL_PCT 25: a strip of 32 fills an eighth of skinny's 256 outputs */
      {"2 rows of 32, deep k: the tiles, not skinny", CALL(AUTO, NN, 2, 32, 4096),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 2, 0, 32, SGEMM_FAST_WIDE_NN, 2))},
      {"2 rows of 64 fill a quarter of skinny's block: skinny", CALL(AUTO, NN, 2, 64, 4096),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 2, 0, 64, SGEMM_SKINNY, 8, ROWS, 1))},
      {"one row of 8 stays GEMV's, not coalesced", CALL(AUTO, NT, 1, 8, 4096),
       FAST_PLAN(0, 0, 1, THIN_PIECE(0, 1, 0, 8, SGEMV_DOT, 4, ROWS, 1))},
      {"no pack for a short multiply at an unaligned ld", CALL(FAST, NN, 100, 100, 100), .lda = 101,
       .ldb = 101, FAST_PLAN(0, 0, 1, PIECE(0, 100, 0, 100, FAST_NN))},
      {"k == 0 scales C", CALL(AUTO, NN, 20, 30, 0), .runs = DUET_GEMM_AUTO,
       .form = DUET__GEMM_SCALE, .kernel = K(SCALE)},
  };
  check_plans(d, w, sizeof w / sizeof w[0]);
  /* the GPU sets' GEMM_FAST_SKINNY_DOT 1 on the same device: skinny-dot takes the strips */
  device dot = *d;
  dot.name = "PoCL 2 cores, GEMM_FAST_SKINNY_DOT 1";
  const want_plan on = {
      "skinny-dot on thin columns, one piece", CALL(AUTO, NT, 521, 2, 130),
      FAST_PLAN(0, 0, 1, THIN_PIECE(0, 521, 0, 2, SGEMM_SKINNY_DOT, 1, COLS, 66))};
  check_plans_with(&dot, DUET__T_GEMM_FAST_SKINNY_DOT, 1, &on, 1);
}

/* AUTO's fallbacks: what a device cannot run, or a kernel that failed to load, hands the call to
 * the next variant: fast, tiled, register, coalesced, naive. */
static void fallbacks(void) {
  device d = dev("a CPU of 128 work-items", DUET__SET_CPU, 2, 128, 1024 * KIB);
  const want_plan keep[] = {
      /* fast's block of 64 fits, skinny's of 256 does not: the strip keeps its tile, the wide
       * one (3 rows fill 5% of the big tiles) */
      {"skinny does not fit: fast's wide tile", CALL(AUTO, NN, 3, 700, 301),
       FAST_PLAN(0, 0, 1, PIECE(0, 3, 0, 700, FAST_WIDE_NN))},
      /* AUTO, m == 1: GEMV's block of 256 does not fit either: the wide tile */
      {"one row, GEMV does not fit: fast's wide tile", CALL(AUTO, NN, 1, 300, 255),
       FAST_PLAN(0, 0, 1, PIECE(0, 1, 0, 300, FAST_WIDE_NN))},
  };
  check_plans(&d, keep, sizeof keep / sizeof keep[0]);
  /* a large device whose kernels fail to load one after the other */
  d = dev("PoCL with kernels that failed to build", DUET__SET_CPU, 2, 4096, 1024 * KIB);
  static const struct {
    duet__kernel broken;
    duet_gemm_variant runs;
    duet__kernel kernel;
  } chain[] = {
      {K(SGEMM_FAST_NN), DUET_GEMM_TILED, K(SGEMM_TILED)},
      {K(SGEMM_TILED), DUET_GEMM_REGISTER, K(SGEMM_REGISTER)},
      {K(SGEMM_REGISTER), DUET_GEMM_COALESCED, K(SGEMM_COALESCED)},
      {K(SGEMM_COALESCED), DUET_GEMM_NAIVE, K(SGEMM_NAIVE)},
  };
  for (size_t i = 0; i < sizeof chain / sizeof chain[0]; i++) {
    d.caps.unusable[chain[i].broken] = 1;
    char why[96];
    snprintf(why, sizeof why, "%s does not load: %s", duet__manifest[chain[i].broken].name,
             duet_gemm_variant_name(chain[i].runs));
    const want_plan w = {why, CALL(AUTO, NN, 128, 128, 128), .runs = chain[i].runs,
                         .form = DUET__GEMM_SIMPLE, .kernel = chain[i].kernel};
    check_plan(&d, &w);
  }
  /* naive too: none runs, the plan is fast's, whose launch says why */
  d.caps.unusable[K(SGEMM_NAIVE)] = 1;
  const want_plan none = {
      "nothing loads: fast's plan, DUET_EUNSUPPORTED", CALL(AUTO, NN, 128, 128, 128),
      FAST_PLAN(0, 0, 1, PIECE(0, 128, 0, 128, FAST_NN)), .status = DUET_EUNSUPPORTED};
  check_plan(&d, &none);
  /* a kernel's own limit, learned when it loaded: tiled's build takes 128 work-items */
  d = dev("PoCL whose tiled build takes 128", DUET__SET_CPU, 2, 4096, 1024 * KIB);
  d.caps.unusable[K(SGEMM_FAST_NN)] = 1;
  d.caps.kernel_threads[K(SGEMM_TILED)] = 128;
  const want_plan own = {"tiled's own limit: register", CALL(AUTO, NN, 128, 128, 128),
                         SIMPLE_PLAN(REGISTER, SGEMM_REGISTER)};
  check_plan(&d, &own);
  /* GEMV's group failed to build: a row of C goes to skinny */
  d = dev("PoCL whose GEMV build failed", DUET__SET_CPU, 2, 4096, 1024 * KIB);
  d.caps.unusable[K(SGEMV)] = d.caps.unusable[K(SGEMV_DOT)] = 1;
  const want_plan no_gemv = {
      "GEMV does not load: skinny", CALL(AUTO, NN, 1, 700, 301),
      FAST_PLAN(0, 0, 1, THIN_PIECE(0, 1, 0, 700, SGEMM_SKINNY, 3, ROWS, 3))};
  check_plan(&d, &no_gemv);
  /* the H100's set on 128 work-items: no variant has fewer than 256 */
  d = dev("an H100-set device of 128 work-items", DUET__SET_NVIDIA_SM80, 132, 128, 48 * KIB);
  const want_plan small[] = {
      {"no variant fits: fast's plan, DUET_EUNSUPPORTED", CALL(AUTO, NN, 4096, 4096, 4096),
       FAST_PLAN(0, 0, 1, PIECE(0, 4096, 0, 4096, FAST_NN)), .status = DUET_EUNSUPPORTED},
      /* an explicit variant is never replaced: its launch says why */
      {"tiled asked for: tiled", CALL(TILED, NN, 64, 64, 64), SIMPLE_PLAN(TILED, SGEMM_TILED)},
  };
  check_plans(&d, small, sizeof small / sizeof small[0]);
}

/* Rules that a tunable or a failed build turns on: GEMM_FAST_SHALLOW_K sends a large C with a
 * shallow k to the small tile (nvidia-sm80's 128 on CUDA; 0, the big tile, on OpenCL by
 * src/tuning.c's refinement, which test_manifest checks); OpenCL's tiny tile in k steps of 16
 * (GEMM_FAST_TINY_BK, the same refinement) keeps the slices of steps of 8, the model's latency
 * being per 8 of k, but where the deeper step rounds a slice up; GEMM_FAST_THIN 0 keeps thin C on
 * the square tiles; GEMM_FAST_MID_PCT 110 (OpenCL's refinement) weighs the mid tile;
 * GEMM_SPLITK_LAUNCH 64 (OpenCL's) keeps C up to 384^3 in one launch; GEMM_AUTO_TILED_MAX 168
 * (OpenCL's) takes tiled up to 168^3; a tiny tile
 * that does not load (nor the thin ones) leaves its shapes to the small one (never to tiled). */
static void switched(const device *h100) {
  int *t = tun[h100->set];
  const want_plan shallow = {"GEMM_FAST_SHALLOW_K 128 (CUDA's): k = 64 on the small tile",
                             CALL(AUTO, NN, 8192, 8192, 64),
                             FAST_PLAN(0, 0, 1, PIECE(0, 8192, 0, 8192, FAST_SMALL_NN))};
  check_plan(h100, &shallow);
  const want_plan deeper = {"GEMM_FAST_SHALLOW_K 128: k = 129 on the big tile",
                            CALL(AUTO, NN, 8192, 8192, 129),
                            FAST_PLAN(1, 0, 1, PIECE(0, 8192, 0, 8192, FAST_NN))};
  check_plan(h100, &deeper);
  const want_plan opencl = {"GEMM_FAST_SHALLOW_K 0 (OpenCL's): k = 64 on the big tile",
                            CALL(AUTO, NN, 8192, 8192, 64),
                            FAST_PLAN(0, 0, 1, PIECE(0, 8192, 0, 8192, FAST_NN))};
  check_plans_with(h100, DUET__T_GEMM_FAST_SHALLOW_K, 0, &opencl, 1);
  /* GEMM_AUTO_TILED_MAX 168 (OpenCL's): tiled up to 168^3 */
  const want_plan tiled_to_168[] = {
      {"GEMM_AUTO_TILED_MAX 168 (OpenCL's): 160^3 on tiled", CALL(AUTO, NN, 160, 160, 160),
       SIMPLE_PLAN(TILED, SGEMM_TILED)},
      {"GEMM_AUTO_TILED_MAX 168: 168 x 168 x 169 on fast", CALL(AUTO, NN, 168, 168, 169),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 168, 0, 168, SGEMM_FAST_TINY_NN, 2))},
  };
  check_plans_with(h100, DUET__T_GEMM_AUTO_TILED_MAX, 168, tiled_to_168, 2);
  /* GEMM_FAST_THIN 0: the square tiles alone, as before the tall and wide ones */
  const int saved_thin = t[DUET__T_GEMM_FAST_THIN];
  t[DUET__T_GEMM_FAST_THIN] = 0;
  const want_plan square[] = {
      {"GEMM_FAST_THIN 0: 65536 x 32 on tiny tiles", CALL(AUTO, NN, 65536, 32, 256),
       FAST_PLAN(0, 0, 1, PIECE(0, 65536, 0, 32, FAST_TINY_NN))},
      {"GEMM_FAST_THIN 0: five rows on the tiny tile, 8 slices", CALL(FAST, NN, 5, 4096, 4096),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 5, 0, 4096, SGEMM_FAST_TINY_NN, 8))},
      {"GEMM_FAST_THIN 0, k at most GEMM_FAST_SHALLOW_TINY_K: 8 columns on the tiny tile",
       CALL(AUTO, NN, 65536, 8, 32), FAST_PLAN(0, 0, 1, PIECE(0, 65536, 0, 8, FAST_TINY_NN))},
  };
  check_plans(h100, square, sizeof square / sizeof square[0]);
  const int saved_bk = t[DUET__T_GEMM_FAST_TINY_BK];
  t[DUET__T_GEMM_FAST_TINY_BK] = 16;
  const want_plan deep_steps[] = {
      {"GEMM_FAST_TINY_BK 16 (OpenCL's), thin tiles off: 8 x 4096 x 4096 keeps 8 slices",
       CALL(AUTO, NN, 8, 4096, 4096),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 8, 0, 4096, SGEMM_FAST_TINY_NN, 8))},
      {"GEMM_FAST_TINY_BK 16: 512^3 in 8 slices of 64 (6 of 96 would leave the last 32)",
       CALL(AUTO, NN, 512, 512, 512),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 512, 0, 512, SGEMM_FAST_TINY_NN, 8))},
  };
  check_plans(h100, deep_steps, sizeof deep_steps / sizeof deep_steps[0]);
  t[DUET__T_GEMM_FAST_THIN] = saved_thin;
  const want_plan opencl_thin = {
      "OpenCL's values (TINY_BK 16, thin tiles on): 8 x 4096 x 4096 on "
      "the wide tile, 16 slices",
      CALL(AUTO, NN, 8, 4096, 4096),
      FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 8, 0, 4096, SGEMM_FAST_WIDE_NN, 16))};
  check_plan(h100, &opencl_thin);
  t[DUET__T_GEMM_FAST_TINY_BK] = saved_bk;
  /* GEMM_FAST_MID_PCT 110 (OpenCL's): the mid tile where the small tiles leave units idle,
   * weighed against the small tile alone (the big tile in k slices, below, would take 512^2 x
   * 32768) */
  const int saved_mid = t[DUET__T_GEMM_FAST_MID_PCT];
  const int saved_big_split = t[DUET__T_GEMM_FAST_BIG_SPLIT_PCT];
  t[DUET__T_GEMM_FAST_MID_PCT] = 110;
  t[DUET__T_GEMM_FAST_BIG_SPLIT_PCT] = 0;
  const want_plan mid[] = {
      {"GEMM_FAST_MID_PCT 110 (OpenCL's): 1000^3 on 128 mid tiles in 3 slices",
       CALL(AUTO, NN, 1000, 1000, 1000),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 1000, 0, 1000, SGEMM_FAST_MID_NN, 3))},
      {"GEMM_FAST_MID_PCT 110, both transposed: the mid tile's tt kernel",
       CALL(AUTO, TT, 1000, 1000, 1000),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 1000, 0, 1000, SGEMM_FAST_MID_TT, 3))},
      {"GEMM_FAST_MID_PCT 110: 128 x 16384 x 1024 on 256 mid tiles, one launch",
       CALL(AUTO, NN, 128, 16384, 1024), FAST_PLAN(0, 0, 1, PIECE(0, 128, 0, 16384, FAST_MID_NN))},
      {"GEMM_FAST_MID_PCT 110: deep k, 2 mid tiles in 196 slices", CALL(AUTO, NT, 128, 128, 65536),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 128, 0, 128, SGEMM_FAST_MID_NT, 196))},
      {"GEMM_FAST_MID_PCT 110: deep k, the mid tile in 49 slices where the small takes 64",
       CALL(AUTO, NN, 256, 256, 16384),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 256, 0, 256, SGEMM_FAST_MID_NN, 49))},
      {"GEMM_FAST_MID_PCT 110: 512^2 x 32768 on the small tile's 33 slices, not the mid's 37",
       CALL(AUTO, NN, 512, 512, 32768),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 512, 0, 512, SGEMM_FAST_SMALL_NN, 33))},
      {"GEMM_FAST_MID_PCT 110: 300 x 8192 is 192 small tiles, more than the units: small tiles",
       CALL(AUTO, NN, 300, 8192, 4096),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 300, 0, 8192, SGEMM_FAST_SMALL_NN, 4))},
  };
  check_plans(h100, mid, sizeof mid / sizeof mid[0]);
  device no_mid = *h100;
  no_mid.name = "an H100 whose mid tile did not load";
  no_mid.caps.unusable[K(SGEMM_FAST_MID_NN)] = 1;
  const want_plan small_again = {
      "GEMM_FAST_MID_PCT 110, the mid tile unusable: 1000^3 on small "
      "tiles, 4 slices",
      CALL(AUTO, NN, 1000, 1000, 1000),
      FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 1000, 0, 1000, SGEMM_FAST_SMALL_NN, 4))};
  check_plan(&no_mid, &small_again);
  /* GEMM_SPLITK_LAUNCH 64 with OpenCL's other values: a second launch where it saves more */
  const int saved_launch = t[DUET__T_GEMM_SPLITK_LAUNCH];
  t[DUET__T_GEMM_SPLITK_LAUNCH] = 64;
  const want_plan launch[] = {
      {"GEMM_SPLITK_LAUNCH 64 (OpenCL's): 256^3 on the tiny tile in one launch",
       CALL(AUTO, NN, 256, 256, 256), FAST_PLAN(0, 0, 1, PIECE(0, 256, 0, 256, FAST_TINY_NN))},
      {"GEMM_SPLITK_LAUNCH 64: 384^3 in one launch", CALL(AUTO, NN, 384, 384, 384),
       FAST_PLAN(0, 0, 1, PIECE(0, 384, 0, 384, FAST_TINY_NN))},
      {"GEMM_SPLITK_LAUNCH 64: 512^3 still split, the tiny tile in 8 slices (the mid tile would "
       "take no fewer than the small)",
       CALL(AUTO, NN, 512, 512, 512),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 512, 0, 512, SGEMM_FAST_TINY_NN, 8))},
  };
  t[DUET__T_GEMM_FAST_TINY_BK] = 16;
  check_plans(h100, launch, sizeof launch / sizeof launch[0]);
  /* GEMM_SPLITK_FUSE 4 with OpenCL's other values: the tiny tile in up to 4 k slices, summed in
   * its one launch (stream-K at the tiny tile, a block per tile and slice) */
  t[DUET__T_GEMM_SPLITK_FUSE] = 4;
  const want_plan fused[] = {
      {"GEMM_SPLITK_FUSE 4 (OpenCL's): 256^3 in 4 slices, one launch",
       CALL(AUTO, NN, 256, 256, 256),
       FAST_PLAN(0, 0, 1, SK_PIECE(0, 256, 0, 256, SGEMM_FAST_TINY_SK_NN, 16, 64))},
      {"GEMM_SPLITK_FUSE 4: 512^3 in 4 slices, not the mid tile's 8 and a reduction",
       CALL(AUTO, NN, 512, 512, 512),
       FAST_PLAN(0, 0, 1, SK_PIECE(0, 512, 0, 512, SGEMM_FAST_TINY_SK_NN, 64, 256))},
      {"GEMM_SPLITK_FUSE 4: 997^3 (both packed), 256 tiles in 2 slices",
       CALL(AUTO, NN, 997, 997, 997),
       FAST_PLAN(1, 1, 1, SK_PIECE(0, 997, 0, 997, SGEMM_FAST_TINY_SK_NN, 256, 512))},
      {"GEMM_SPLITK_FUSE 4: 1023^3 both transposed, ld 1031, both packed: 2 slices",
       CALL(AUTO, TT, 1023, 1023, 1023), .lda = 1031, .ldb = 1031,
       FAST_PLAN(1, 1, 1, SK_PIECE(0, 1023, 0, 1023, SGEMM_FAST_TINY_SK_TT, 256, 512))},
      {"GEMM_SPLITK_FUSE 4: deep k keeps the reduction (196 slices)",
       CALL(AUTO, NN, 128, 128, 65536),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 128, 0, 128, SGEMM_FAST_MID_NN, 196))},
  };
  check_plans(h100, fused, sizeof fused / sizeof fused[0]);
  t[DUET__T_GEMM_SPLITK_FUSE] = 0;
  t[DUET__T_GEMM_FAST_TINY_BK] = saved_bk;
  t[DUET__T_GEMM_SPLITK_LAUNCH] = 8;
  const want_plan cuda_launch = {
      "GEMM_SPLITK_LAUNCH 8 (CUDA's): 256^3 in 4 slices", CALL(AUTO, NN, 256, 256, 256),
      FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 256, 0, 256, SGEMM_FAST_TINY_NN, 4))};
  check_plan(h100, &cuda_launch);
  t[DUET__T_GEMM_SPLITK_LAUNCH] = saved_launch;
  t[DUET__T_GEMM_FAST_MID_PCT] = saved_mid;
  t[DUET__T_GEMM_FAST_BIG_SPLIT_PCT] = saved_big_split;
  /* GEMM_FAST_BIG_SPLIT_PCT (nvidia-sm80's 120): the big tile in k slices of at least
   * GEMM_FAST_BIG_SPLIT_MIN_K where the piece fills its tiles */
  const want_plan big_split[] = {
      {"GEMM_FAST_BIG_SPLIT_PCT: 512^2 x 32768, 8 big tiles in 33 slices",
       CALL(AUTO, NN, 512, 512, 32768),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 512, 0, 512, SGEMM_FAST_NN, 33))},
      {"GEMM_FAST_BIG_SPLIT_PCT: 2048 x 512 x 8192, 32 big tiles in 4 slices, B transposed",
       CALL(AUTO, NT, 2048, 512, 8192),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 2048, 0, 512, SGEMM_FAST_NT, 4))},
      {"GEMM_FAST_BIG_SPLIT_PCT: 128 x 512 x 32768 fills half of its big tiles: small tiles",
       CALL(AUTO, NN, 128, 512, 32768),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 128, 0, 512, SGEMM_FAST_SMALL_NN, 66))},
      {"GEMM_FAST_BIG_SPLIT_MIN_K 768: 256^2 x 16384 stays on 4 small tiles in 64 slices",
       CALL(AUTO, NN, 256, 256, 16384),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 256, 0, 256, SGEMM_FAST_SMALL_NN, 64))},
  };
  check_plans(h100, big_split, sizeof big_split / sizeof big_split[0]);
  const want_plan big_shallow = {
      "GEMM_FAST_BIG_SPLIT_MIN_K 64: 256^2 x 16384 on 2 big tiles in 64 slices",
      CALL(AUTO, NN, 256, 256, 16384),
      FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 256, 0, 256, SGEMM_FAST_NN, 64))};
  check_plans_with(h100, DUET__T_GEMM_FAST_BIG_SPLIT_MIN_K, 64, &big_shallow, 1);
  /* GEMM_FAST_NARROW_PCT 80 (nvidia-sm80's): C of at most 16 columns on the narrow tile, 32 on the
   * tall one */
  const int saved_narrow = t[DUET__T_GEMM_FAST_NARROW_PCT];
  t[DUET__T_GEMM_FAST_NARROW_PCT] = 80;
  const want_plan narrow[] = {
      {"GEMM_FAST_NARROW_PCT 80 (nvidia-sm80's): 4096 x 16 x 4096 on the narrow tile, 16 slices",
       CALL(AUTO, NN, 4096, 16, 4096),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 4096, 0, 16, SGEMM_FAST_NARROW_NN, 16))},
      {"GEMM_FAST_NARROW_PCT 80, A transposed: the narrow tile's tn kernel",
       CALL(AUTO, TN, 4096, 16, 4096),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 4096, 0, 16, SGEMM_FAST_NARROW_TN, 16))},
      {"GEMM_FAST_NARROW_PCT 80: 65536 x 16 x 256 on the narrow tile, one launch",
       CALL(AUTO, NN, 65536, 16, 256), FAST_PLAN(0, 0, 1, PIECE(0, 65536, 0, 16, FAST_NARROW_NN))},
      {"GEMM_FAST_NARROW_PCT 80: 65536 x 32 x 256 keeps the tall tile",
       CALL(AUTO, NN, 65536, 32, 256), FAST_PLAN(0, 0, 1, PIECE(0, 65536, 0, 32, FAST_TALL_NN))},
  };
  check_plans(h100, narrow, sizeof narrow / sizeof narrow[0]);
  device no_narrow = *h100;
  no_narrow.name = "an H100 whose narrow tile did not load";
  no_narrow.caps.unusable[K(SGEMM_FAST_NARROW_NN)] = 1;
  const want_plan tall_again = {
      "GEMM_FAST_NARROW_PCT 80, the narrow tile unusable: 4096 x 16 x 4096 on the tall tile",
      CALL(AUTO, NN, 4096, 16, 4096),
      FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 4096, 0, 16, SGEMM_FAST_TALL_NN, 16))};
  check_plan(&no_narrow, &tall_again);
  t[DUET__T_GEMM_FAST_NARROW_PCT] = saved_narrow;
  device d = *h100;
  d.name = "an H100 whose tiny, tall and wide tiles did not load";
  d.caps.unusable[K(SGEMM_FAST_TINY_NN)] = d.caps.unusable[K(SGEMM_FAST_TALL_NN)] =
      d.caps.unusable[K(SGEMM_FAST_WIDE_NN)] = 1;
  const want_plan w[] = {
      {"256^3: 4 small tiles in 4 slices", CALL(AUTO, NN, 256, 256, 256),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 256, 0, 256, SGEMM_FAST_SMALL_NN, 4))},
      {"32^3: one small tile", CALL(FAST, NN, 32, 32, 32),
       FAST_PLAN(0, 0, 1, PIECE(0, 32, 0, 32, FAST_SMALL_NN))},
  };
  check_plans(&d, w, sizeof w / sizeof w[0]);
}

/* The default set on a mid-size GPU (128 x 128 tiles both, 80 units). */
static void generic(const device *d) {
  const want_plan w[] = {
      {"fast's big tile: 320 tiles, 4 whole waves", CALL(AUTO, NN, 2048, 2560, 2048),
       FAST_PLAN(0, 0, 1, PIECE(0, 2048, 0, 2560, FAST_NN))},
      {"stream-K: 144 tiles in 2 waves, 10% idle: the last 144 % 80 + 80",
       CALL(AUTO, NN, 1536, 1536, 1536),
       FAST_PLAN(0, 0, 1, SK_PIECE(0, 1536, 0, 1536, SGEMM_FAST_SK_NN, 144, 80))},
  };
  check_plans(d, w, sizeof w / sizeof w[0]);
}

/* fast's kernels per transpose combination: each four in the order nn, nt, tn, tt that
 * duet__kernel_for_trans counts on, one group and one shape a four. */
static void check_fours(void) {
  static const duet__kernel first[] = {
      K(SGEMM_FAST_NN),        K(SGEMM_FAST_SMALL_NN), K(SGEMM_FAST_TINY_NN),
      K(SGEMM_FAST_TALL_NN),   K(SGEMM_FAST_WIDE_NN),  K(SGEMM_FAST_MID_NN),
      K(SGEMM_FAST_NARROW_NN), K(SGEMM_FAST_SK_NN),    K(SGEMM_FAST_TINY_SK_NN)};
  static const char *const tail[4] = {"_nn", "_nt", "_tn", "_tt"};
  for (size_t f = 0; f < sizeof first / sizeof first[0]; f++) {
    harness_case c;
    harness_case_begin(&c, NULL, "the four kernels of %s", kname(first[f]));
    for (int ta = 0; ta < 2; ta++)
      for (int tb = 0; tb < 2; tb++) {
        const duet__kernel k = duet__kernel_for_trans(first[f], ta, tb);
        const char *name = duet__manifest[k].name;
        const size_t len = strlen(name);
        harness_expect(&c, len > 3 && !strcmp(name + len - 3, tail[2 * ta + tb]), "ta %d tb %d: %s",
                       ta, tb, kname(k));
        harness_expect(&c,
                       duet__manifest[k].group == duet__manifest[first[f]].group &&
                           duet__manifest[k].shape == duet__manifest[first[f]].shape &&
                           !strcmp(duet__manifest[k].sig, duet__manifest[first[f]].sig),
                       "ta %d tb %d: %s's group, shape or signature is not %s's", ta, tb, kname(k),
                       kname(first[f]));
      }
    harness_case_end(&c);
  }
}

/* The split-K reduction's threads per element: one where C's elements outnumber the threads of
 * its grid (each thread keeps its slices' loads in flight), the slices shared among the block's
 * rows of lanes where they do not. */
static void reduction_lanes(const device *d) {
  static const struct {
    const char *why;
    size_t m, n, k;
    unsigned lanes;
  } w[] = {
      {"1024^3 in 4 slices: 1M elements, one thread each", 1024, 1024, 1024, 1},
      {"128 x 128 x 65536 in 256 slices: 16384 elements, 8 lanes each", 128, 128, 65536, 8},
      {"512^3 in 6 slices: 262144 elements, one thread each (more than 4 blocks a unit hold)", 512,
       512, 512, 1},
  };
  for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
    harness_case c;
    harness_case_begin(&c, NULL, "reduction lanes on %s: %s", d->name, w[i].why);
    const duet__gemm_shape s = {DUET_GEMM_AUTO, 0,      0,      w[i].m, w[i].n,
                                w[i].k,         w[i].k, w[i].n, 1.0f,   0.0f};
    duet__gemm_plan p;
    const int st = duet__gemm_plan_make(&d->caps, tun[d->set], &s, &p);
    harness_expect(&c, st == DUET_OK && p.npieces == 1 && p.piece[0].splits > 1,
                   "status %s, %u pieces, %u slices", duet_status_name(st), p.npieces,
                   p.piece[0].splits);
    harness_expect(&c, p.piece[0].reduce_lanes == w[i].lanes, "%u lanes, want %u",
                   p.piece[0].reduce_lanes, w[i].lanes);
    harness_case_end(&c);
  }
}

/* An H200 through CUDA (compute capability 9.0: clusters of up to 8 blocks, resident clusters
 * as cudaOccupancyMaxActiveClusters gave them there for the small and the tiny tile's cluster
 * kernels): GEMM_SPLITK_CLUSTER 4 (nvidia-sm80's) sums split-K of the small and tiny tiles
 * through a cluster's shared memory where the model finds it cheaper, about a block a unit in
 * one launch (the fastest of the cluster sizes timed there: docs/results/h200.md, twenty-fourth
 * session); deep k keeps the reduction; GEMM_SPLITK_CLUSTER 0, or a device without clusters,
 * keeps the H100's plans above. */
/* An H200 as CUDA sees it, with the clusters of the small and the tiny tile's cluster kernels
 * it holds resident at once, by size. */
static device h200_with_clusters(void) {
  device d = {"H200 CUDA with clusters",
              DUET__SET_NVIDIA_SM80,
              {.units = 132,
               .max_block_threads = 1024,
               .shared_bytes = 227 * KIB,
               .cache_bytes = 60 * MIB,
               .cluster_max = 8}};
  static const unsigned small[DUET__CLUSTER_MAX + 1] = {0, 264, 132, 79, 62, 48, 39, 33, 30};
  static const unsigned tiny[DUET__CLUSTER_MAX + 1] = {0, 528, 264, 163, 124, 96, 79, 66, 62};
  memcpy(d.caps.cluster_slots[0], small, sizeof small);
  memcpy(d.caps.cluster_slots[1], tiny, sizeof tiny);
  return d;
}

static void clusters(void) {
  device d = h200_with_clusters();
  const want_plan w[] = {
      {"1000^3: 64 small tiles in 2 slices, a cluster each", CALL(AUTO, NN, 1000, 1000, 1000),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 1000, 0, 1000, SGEMM_FAST_SMALL_CS_NN, 2))},
      {"1024^3, B transposed", CALL(AUTO, NT, 1024, 1024, 1024),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 1024, 0, 1024, SGEMM_FAST_SMALL_CS_NT, 2))},
      {"1000^3, A transposed", CALL(AUTO, TN, 1000, 1000, 1000),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 1000, 0, 1000, SGEMM_FAST_SMALL_CS_TN, 2))},
      {"1023^3 both transposed, ld 1031, both packed: 2 slices", CALL(AUTO, TT, 1023, 1023, 1023),
       .lda = 1031, .ldb = 1031,
       FAST_PLAN(1, 1, 1, SPLIT_PIECE(0, 1023, 0, 1023, SGEMM_FAST_SMALL_CS_TT, 2))},
      /* GEMM_PACK_MIN_INTENSITY 128: 2 * 511^3 flops over the 8 * 511^2 bytes a copy moves is
       * 127.75, 513^3's 128.25 */
      {"511^3 at ld 511: below the pack threshold", CALL(AUTO, NN, 511, 511, 511),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 511, 0, 511, SGEMM_FAST_TINY_CS_NN, 2))},
      {"513^3 at ld 513: above it, both packed", CALL(AUTO, NN, 513, 513, 513),
       FAST_PLAN(1, 1, 1, SPLIT_PIECE(0, 513, 0, 513, SGEMM_FAST_TINY_CS_NN, 3))},
      {"768^3: 36 small tiles in 3 slices", CALL(AUTO, NN, 768, 768, 768),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 768, 0, 768, SGEMM_FAST_SMALL_CS_NN, 3))},
      {"512^3: 64 tiny tiles in 2 slices", CALL(AUTO, NN, 512, 512, 512),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 512, 0, 512, SGEMM_FAST_TINY_CS_NN, 2))},
      {"384^3 both transposed: 36 tiny tiles in 3 slices", CALL(AUTO, TT, 384, 384, 384),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 384, 0, 384, SGEMM_FAST_TINY_CS_TT, 3))},
      {"128 x 16384 x 1024: 128 small tiles in 2 slices", CALL(AUTO, NN, 128, 16384, 1024),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 128, 0, 16384, SGEMM_FAST_SMALL_CS_NN, 2))},
      {"deep k keeps the reduction: 4 small tiles in 64 slices", CALL(AUTO, NN, 256, 256, 16384),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 256, 0, 256, SGEMM_FAST_SMALL_NN, 64))},
      {"the big tile where it fills the units", CALL(AUTO, NN, 4096, 4096, 4096),
       FAST_PLAN(0, 0, 1, PIECE(0, 4096, 0, 4096, FAST_NN))},
      /* C one mid tile wide or one flat tile high (GEMM_FAST_MID_THIN_PCT): cuBLAS's tiles and
       * slices there (docs/results/h200.md, thirty-second session) */
      {"64 x 4096 x 16384: 32 flat tiles in 8 slices", CALL(AUTO, NN, 64, 4096, 16384),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 64, 0, 4096, SGEMM_FAST_FLAT_NN, 8))},
      {"64 x 4096 x 16384, A transposed: the flat tile's tn kernel",
       CALL(AUTO, TN, 64, 4096, 16384),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 64, 0, 4096, SGEMM_FAST_FLAT_TN, 8))},
      {"4096 x 64 x 16384: 32 mid tiles in 8 slices", CALL(AUTO, NN, 4096, 64, 16384),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 4096, 0, 64, SGEMM_FAST_MID_NN, 8))},
      {"4096 x 64 x 16384, both transposed: the mid tile's tt kernel",
       CALL(AUTO, TT, 4096, 64, 16384),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 4096, 0, 64, SGEMM_FAST_MID_TT, 8))},
      {"64^2 x 262144, thin on both sides: the tiny tile, no mid or flat one",
       CALL(AUTO, NN, 64, 64, 262144),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 64, 0, 64, SGEMM_FAST_TINY_NN, 395))},
      {"65536 x 32 x 256, one tall tile wide: the tall tile, not the mid",
       CALL(AUTO, NN, 65536, 32, 256), FAST_PLAN(0, 0, 1, PIECE(0, 65536, 0, 32, FAST_TALL_NN))},
      /* operands past the cache: a lone block of a cluster waits for its loads */
      {"128 x 4096 x 32768, 553 MB: 32 small tiles in 8 slices, no cluster",
       CALL(AUTO, NN, 128, 4096, 32768),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 128, 0, 4096, SGEMM_FAST_SMALL_NN, 8))},
      {"128 x 8192 x 2000, 67 MB, past the cache: 64 small tiles in 4 slices, no cluster",
       CALL(AUTO, NN, 128, 8192, 2000),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 128, 0, 8192, SGEMM_FAST_SMALL_NN, 4))},
      /* GEMM_SPLITK_CLUSTER_TINY_K 320, _SMALL_K 1024: under-full units keep clusters to
       * shallower slices (docs/results/h200.md, thirty-fourth session; h100.md, thirty-fifth) */
      {"640 x 1536 x 4096, 36 MB: 60 small tiles in clusters of 4 slices (2 blocks a unit), "
       "not 2 of 2048 alone on a unit",
       CALL(AUTO, NN, 640, 1536, 4096),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 640, 0, 1536, SGEMM_FAST_SMALL_CS_NN, 4))},
      {"512^2 x 2048: the small tile in 16 slices and the reduction, no tiny cluster of 1024",
       CALL(AUTO, NN, 512, 512, 2048),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 512, 0, 512, SGEMM_FAST_SMALL_NN, 16))},
      {"512^2 x 1024: tiny clusters of 4 slices of 256, not 2 of 512",
       CALL(AUTO, NN, 512, 512, 1024),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 512, 0, 512, SGEMM_FAST_TINY_CS_NN, 4))},
      {"384^2 x 2048: the tiny tile in 11 slices and the reduction", CALL(AUTO, NN, 384, 384, 2048),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 384, 0, 384, SGEMM_FAST_TINY_NN, 11))},
      {"1024^2 x 2048: the small tile in 4 slices and the reduction, no cluster of 1024",
       CALL(AUTO, NN, 1024, 1024, 2048),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 1024, 0, 1024, SGEMM_FAST_SMALL_NN, 4))},
      {"384^2 x 1024: the tiny tile in 11 slices and the reduction, no cluster of 3 of 341",
       CALL(AUTO, NN, 384, 384, 1024),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 384, 0, 384, SGEMM_FAST_TINY_NN, 11))},
      {"512^2 x 768, both transposed: tiny clusters of 4 slices of 192, not 2 of 384",
       CALL(AUTO, TT, 512, 512, 768),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 512, 0, 512, SGEMM_FAST_TINY_CS_TT, 4))},
      {"801^3, both packed: tiny clusters of 2 slices of 401, three blocks a unit (not under-full)",
       CALL(AUTO, NN, 801, 801, 801),
       FAST_PLAN(1, 1, 1, SPLIT_PIECE(0, 801, 0, 801, SGEMM_FAST_TINY_CS_NN, 2))},
      {"896^2 x 1024: tiny clusters of 2 slices of 512, three blocks a unit",
       CALL(AUTO, NN, 896, 896, 1024),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 896, 0, 896, SGEMM_FAST_TINY_CS_NN, 2))},
      {"704^2 x 640: tiny clusters of 4 slices of 160, not 2 of 320 with two blocks a unit",
       CALL(AUTO, NN, 704, 704, 640),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 704, 0, 704, SGEMM_FAST_TINY_CS_NN, 4))},
  };
  check_plans(&d, w, sizeof w / sizeof w[0]);
  /* a device whose cache is not known: operands are taken to fit, so the cluster as before */
  device uncached = d;
  uncached.name = "H200 CUDA with clusters, its cache not known";
  uncached.caps.cache_bytes = 0;
  const want_plan u[] = {
      {"128 x 8192 x 2000: 64 small tiles in 2 slices, a cluster each",
       CALL(AUTO, NN, 128, 8192, 2000),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 128, 0, 8192, SGEMM_FAST_SMALL_CS_NN, 2))},
  };
  check_plans(&uncached, u, sizeof u / sizeof u[0]);
  /* no floor on a cluster's slices: 512^2 x 2048 back in tiny clusters of 2 slices */
  const want_plan deep_clusters[] = {
      {"GEMM_SPLITK_CLUSTER_TINY_K 0: 512^2 x 2048 in tiny clusters of 2 slices",
       CALL(AUTO, NN, 512, 512, 2048),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 512, 0, 512, SGEMM_FAST_TINY_CS_NN, 2))},
  };
  check_plans_with(&d, DUET__T_GEMM_SPLITK_CLUSTER_TINY_K, 0, deep_clusters, 1);
  const want_plan deep_small[] = {
      {"GEMM_SPLITK_CLUSTER_SMALL_K 0: 1024^2 x 2048 in small clusters of 2 slices",
       CALL(AUTO, NN, 1024, 1024, 2048),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 1024, 0, 1024, SGEMM_FAST_SMALL_CS_NN, 2))},
  };
  check_plans_with(&d, DUET__T_GEMM_SPLITK_CLUSTER_SMALL_K, 0, deep_small, 1);
  /* before the kernels load, no resident counts: units * blocks a unit / slices assumed */
  device fresh = d;
  fresh.name = "H200 CUDA with clusters, cluster kernels not loaded yet";
  memset(fresh.caps.cluster_slots, 0, sizeof fresh.caps.cluster_slots);
  check_plan(&fresh, &w[0]);
  /* up to 8 slices a cluster: 1024^3 keeps 2, since 62 clusters of 4 fit at once (64 tiles
   * would take two rounds) and 30 of 8 */
  const want_plan eight = {
      "GEMM_SPLITK_CLUSTER 8: 1024^3 still in 2 slices", CALL(AUTO, NN, 1024, 1024, 1024),
      FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 1024, 0, 1024, SGEMM_FAST_SMALL_CS_NN, 2))};
  check_plans_with(&d, DUET__T_GEMM_SPLITK_CLUSTER, 8, &eight, 1);
  const want_plan off = {"GEMM_SPLITK_CLUSTER 0: the small tile in 4 slices and the reduction",
                         CALL(AUTO, NN, 1024, 1024, 1024),
                         FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 1024, 0, 1024, SGEMM_FAST_SMALL_NN, 4))};
  check_plans_with(&d, DUET__T_GEMM_SPLITK_CLUSTER, 0, &off, 1);
  /* a lone block's wait inside the cache too: more slices a cluster, two blocks a unit (the
   * thirty-first session's lab build ran these plans) */
  const want_plan waits[] = {
      {"GEMM_COST_CLUSTER_WAIT_PCT 25: 640 x 1536 x 4096 in clusters of 4 slices",
       CALL(AUTO, NN, 640, 1536, 4096),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 640, 0, 1536, SGEMM_FAST_SMALL_CS_NN, 4))},
      {"GEMM_COST_CLUSTER_WAIT_PCT 25: 512^3 in clusters of 4 slices",
       CALL(AUTO, NN, 512, 512, 512),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 512, 0, 512, SGEMM_FAST_TINY_CS_NN, 4))},
      {"GEMM_COST_CLUSTER_WAIT_PCT 25: 1000^3 keeps 2 slices", CALL(AUTO, NN, 1000, 1000, 1000),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 1000, 0, 1000, SGEMM_FAST_SMALL_CS_NN, 2))},
  };
  check_plans_with(&d, DUET__T_GEMM_COST_CLUSTER_WAIT_PCT, 25, waits,
                   sizeof waits / sizeof waits[0]);
  /* the mid and flat tiles as thin ones off (GEMM_FAST_MID_THIN_PCT 0), or the flat tile not
   * loaded: the tiny tile's plan before them */
  const want_plan tiny_again[] = {
      {"64 x 4096 x 16384: 64 tiny tiles in 6 slices, no cluster (operands past the cache)",
       CALL(AUTO, NN, 64, 4096, 16384),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 64, 0, 4096, SGEMM_FAST_TINY_NN, 6))},
      {"GEMM_FAST_MID_THIN_PCT 0: 4096 x 64 x 16384 on 64 tiny tiles in 6 slices",
       CALL(AUTO, NN, 4096, 64, 16384),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 4096, 0, 64, SGEMM_FAST_TINY_NN, 6))},
  };
  check_plans_with(&d, DUET__T_GEMM_FAST_MID_THIN_PCT, 0, tiny_again,
                   sizeof tiny_again / sizeof tiny_again[0]);
  /* k under GEMM_FAST_MID_THIN_MIN_K (nvidia-sm80 8192) keeps the tiny tile; OpenCL's 0 takes
   * the mid tile there (H200, thirty-second session: CUDA 2% and 8% slower, OpenCL 13% faster) */
  const want_plan shallower[] = {
      {"16384 x 48 x 1024, k under GEMM_FAST_MID_THIN_MIN_K: the tiny tile's cluster, 2 slices",
       CALL(AUTO, NN, 16384, 48, 1024),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 16384, 0, 48, SGEMM_FAST_TINY_CS_NN, 2))},
      {"4096 x 33 x 4096, k under GEMM_FAST_MID_THIN_MIN_K: the tiny tile, 8 slices",
       CALL(AUTO, NN, 4096, 33, 4096),
       FAST_PLAN(0, 1, 1, SPLIT_PIECE(0, 4096, 0, 33, SGEMM_FAST_TINY_NN, 8))},
  };
  check_plans(&d, shallower, sizeof shallower / sizeof shallower[0]);
  const want_plan any_k[] = {
      {"GEMM_FAST_MID_THIN_MIN_K 0 (OpenCL's): 4096 x 33 x 4096 on the mid tile, 8 slices",
       CALL(AUTO, NN, 4096, 33, 4096),
       FAST_PLAN(0, 1, 1, SPLIT_PIECE(0, 4096, 0, 33, SGEMM_FAST_MID_NN, 8))},
      {"GEMM_FAST_MID_THIN_MIN_K 0: 16384 x 48 x 1024 on the mid tile, 2 slices",
       CALL(AUTO, NN, 16384, 48, 1024),
       FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 16384, 0, 48, SGEMM_FAST_MID_NN, 2))},
  };
  check_plans_with(&d, DUET__T_GEMM_FAST_MID_THIN_MIN_K, 0, any_k, sizeof any_k / sizeof any_k[0]);
  device no_flat = d;
  no_flat.name = "H200 CUDA whose flat tile did not load";
  no_flat.caps.unusable[K(SGEMM_FAST_FLAT_NN)] = 1;
  check_plan(&no_flat, &tiny_again[0]);
  device unusable = d;
  unusable.name = "H200 CUDA whose small cluster kernel did not load";
  unusable.caps.unusable[K(SGEMM_FAST_SMALL_CS_NN)] = 1;
  const want_plan without = {
      "1024^3: the small tile in 4 slices and the reduction", CALL(AUTO, NN, 1024, 1024, 1024),
      FAST_PLAN(0, 0, 1, SPLIT_PIECE(0, 1024, 0, 1024, SGEMM_FAST_SMALL_NN, 4))};
  check_plan(&unusable, &without);
}

/* The k step of a tile kernel (fast at any tile, or a cluster kernel), from its tile's BK; 0 for
 * the rest (GEMV, skinny, stream-K), which cut k otherwise. */
static size_t tile_bk(const int *t, duet__kernel k) {
  static const struct {
    duet__kernel nn;
    duet__tunable bk;
  } tiles[] = {{K(SGEMM_FAST_NN), DUET__T_GEMM_FAST_BK},
               {K(SGEMM_FAST_SMALL_NN), DUET__T_GEMM_FAST_SMALL_BK},
               {K(SGEMM_FAST_TINY_NN), DUET__T_GEMM_FAST_TINY_BK},
               {K(SGEMM_FAST_TALL_NN), DUET__T_GEMM_FAST_TALL_BK},
               {K(SGEMM_FAST_WIDE_NN), DUET__T_GEMM_FAST_WIDE_BK},
               {K(SGEMM_FAST_MID_NN), DUET__T_GEMM_FAST_MID_BK},
               {K(SGEMM_FAST_NARROW_NN), DUET__T_GEMM_FAST_NARROW_BK},
               {K(SGEMM_FAST_SMALL_CS_NN), DUET__T_GEMM_FAST_SMALL_BK},
               {K(SGEMM_FAST_TINY_CS_NN), DUET__T_GEMM_FAST_TINY_BK}};
  for (size_t i = 0; i < sizeof tiles / sizeof tiles[0]; i++)
    if (k >= tiles[i].nn && k < tiles[i].nn + 4) return (size_t)t[tiles[i].bk];
  return 0;
}

/* The scalar twins (GEMM_FAST_SCALAR): each twin is its fast kernel again in a group of its own,
 * and a plan takes them for an operand its ld leaves without 16-byte loads and the pack leaves
 * alone: the plan without them, each fast kernel swapped for its twin; an aligned or packed call,
 * a GEMV and a device where a twin failed to load keep fast's own kernels. */
static void scalar_twins(void) {
  harness_case c;
  harness_case_begin(&c, NULL, "the scalar twins of fast's %d kernels",
                     (int)(DUET__K_SGEMM_FAST_NN_SC - DUET__K_SGEMM_FAST_NN));
  for (int k = DUET__K_SGEMM_FAST_NN; k < DUET__K_SGEMM_FAST_NN_SC; k++) {
    const duet__kernel_desc *v = &duet__manifest[k], *w = &duet__manifest[k + DUET__FAST_TWIN];
    char group[64];
    snprintf(group, sizeof group, "%s_scalar", duet__groups[v->group].name);
    harness_expect(
        &c,
        !strcmp(v->name, w->name) && !strcmp(v->sig, w->sig) && v->tunables == w->tunables &&
            v->shape == w->shape && !strcmp(duet__groups[w->group].name, group) &&
            !strcmp(duet__groups[w->group].source, duet__groups[v->group].source) &&
            duet__groups[w->group].define && !duet__groups[v->group].define,
        "%s's twin is %s", kname((duet__kernel)k), kname((duet__kernel)(w - duet__manifest)));
    harness_expect(&c,
                   (int)duet__kernel_scalar((duet__kernel)k) == k + DUET__FAST_TWIN &&
                       (int)duet__kernel_vector((duet__kernel)(k + DUET__FAST_TWIN)) == k &&
                       duet__gemm_is_cluster((duet__kernel)k) ==
                           duet__gemm_is_cluster((duet__kernel)(k + DUET__FAST_TWIN)),
                   "%s: twin ids", kname((duet__kernel)k));
  }
  harness_case_end(&c);

  device d = h200_with_clusters();
  int t[DUET__T_COUNT], off[DUET__T_COUNT];
  memcpy(t, tun[DUET__SET_NVIDIA_SM80], sizeof t);
  t[DUET__T_GEMM_FAST_SCALAR] = 1;
  t[DUET__T_GEMM_PACK_MIN_INTENSITY] = 512; /* 997^3 to 1023^3 unpacked, 4097^3 packed */
  memcpy(off, t, sizeof off);
  off[DUET__T_GEMM_FAST_SCALAR] = 0;
  static const struct {
    const char *why;
    int ta, tb;
    size_t m, n, k, lda, ldb;
    int twins;
  } calls[] = {
      {"997^3, unpacked: twins", 0, 0, 997, 997, 997, 997, 997, 1},
      {"799^3: twins (the tiny tile's clusters)", 0, 0, 799, 799, 799, 799, 799, 1},
      {"1023^3 tt at ld 1031: twins", 1, 1, 1023, 1023, 1023, 1031, 1031, 1},
      {"A alone unaligned (ld 1001, along k)", 0, 0, 1000, 1000, 1000, 1001, 1000, 1},
      {"B alone unaligned (ld 1003, along n)", 0, 1, 256, 4096, 16384, 16384, 16387, 1},
      {"4097^3: packed, so fast's own kernels", 0, 0, 4097, 4097, 4097, 4097, 4097, 0},
      {"1000^3 at ld 1000: aligned", 0, 0, 1000, 1000, 1000, 1000, 1000, 0},
      {"one row of C at an odd ld: GEMV", 0, 0, 1, 4097, 4097, 4097, 4097, 0},
      {"a thin strip at an odd ld: skinny", 0, 0, 3, 777, 301, 301, 777, 0},
  };
  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
    harness_case_begin(&c, NULL, "GEMM_FAST_SCALAR=1, GEMM_PACK_MIN_INTENSITY=512 on %s: %s",
                       d.name, calls[i].why);
    const duet__gemm_shape s = {DUET_GEMM_AUTO, calls[i].ta,  calls[i].tb,  calls[i].m, calls[i].n,
                                calls[i].k,     calls[i].lda, calls[i].ldb, 1.0f,       0.0f};
    duet__gemm_plan p, q;
    harness_expect(&c,
                   duet__gemm_plan_make(&d.caps, t, &s, &p) == DUET_OK &&
                       duet__gemm_plan_make(&d.caps, off, &s, &q) == DUET_OK,
                   "a plan fails");
    int twins = 0, fast = 0;
    for (unsigned j = 0; j < p.npieces; j++) {
      fast += duet__kernel_is_fast(q.piece[j].kernel);
      twins += duet__kernel_is_scalar(p.piece[j].kernel);
      const duet__kernel want =
          calls[i].twins ? duet__kernel_scalar(q.piece[j].kernel) : q.piece[j].kernel;
      harness_expect(&c, p.piece[j].kernel == want, "piece %u: %s, want %s", j,
                     kname(p.piece[j].kernel), kname(want));
      q.piece[j].kernel = p.piece[j].kernel;
    }
    harness_expect(&c, !memcmp(&p, &q, sizeof p), "the plans differ but for their kernels");
    harness_expect(&c, !calls[i].twins || (twins && twins == fast), "%d twins of %d fast pieces",
                   twins, fast);
    harness_case_end(&c);
  }

  /* a twin that failed to load: every piece keeps fast's own kernel */
  harness_case_begin(&c, NULL, "GEMM_FAST_SCALAR=1 on %s, its twins unusable: 997^3 unpacked",
                     d.name);
  const duet__gemm_shape s = {DUET_GEMM_AUTO, 0, 0, 997, 997, 997, 997, 997, 1.0f, 0.0f};
  duet__gemm_plan p, q;
  duet__gemm_plan_make(&d.caps, t, &s, &p);
  for (unsigned j = 0; j < p.npieces; j++) d.caps.unusable[p.piece[j].kernel] = 1;
  duet__gemm_plan_make(&d.caps, t, &s, &q);
  harness_expect(&c, q.npieces > 0, "no pieces");
  for (unsigned j = 0; j < q.npieces; j++)
    harness_expect(
        &c, duet__kernel_is_fast(q.piece[j].kernel) && !duet__kernel_is_scalar(q.piece[j].kernel),
        "piece %u: %s", j, kname(q.piece[j].kernel));
  harness_case_end(&c);
}

/* What every plan must be, whatever the policy: AUTO's plan of every shape of a grid (m and n
 * from 1 to 4097, k from 1 to 65536, every transpose, the tightest ld, so odd sizes pack) is made,
 * the same twice; fast's pieces cover C once; a piece's k slices are at most k, none of them
 * empty as its kernel cuts k (whole steps of its tile's BK); stream-K's pieces take one slice;
 * a reduction runs exactly where slices are summed outside the launch, with at most a lane a
 * slice, over the partial products' room; and every kernel fits the device. One case per device
 * (its first failing shape says what broke). */
static void invariants(const device *d, const int *t, const char *values) {
  static const size_t mn[] = {1,   2,   3,   7,   16,  31,  33,   64,   100,  127,  128,
                              129, 255, 256, 257, 500, 512, 1000, 1023, 1024, 2048, 4097};
  static const size_t ks[] = {1, 8, 63, 64, 255, 256, 768, 1000, 4096, 16384, 65536};
  const size_t nmn = sizeof mn / sizeof mn[0], nk = sizeof ks / sizeof ks[0];
  harness_case c;
  harness_case_begin(&c, NULL, "plan invariants on %s (%s, %s): %zu shapes, every transpose",
                     d->name, duet_tuning_set_name((int)d->set), values, nmn * nmn * nk * 4);
  char why[256] = "";
  for (size_t i = 0; i < nmn * nmn * nk * 4 && !why[0]; i++) {
    const size_t m = mn[i / (nmn * nk * 4)], n = mn[i / (nk * 4) % nmn], k = ks[i / 4 % nk];
    const int ta = (int)(i >> 1 & 1), tb = (int)(i & 1);
    const duet__gemm_shape s = {DUET_GEMM_AUTO, ta,         tb,   m,   n, k,
                                ta ? m : k,     tb ? k : n, 1.0f, 0.0f};
    duet__gemm_plan p, again;
    const int st = duet__gemm_plan_make(&d->caps, t, &s, &p);
    duet__gemm_plan_make(&d->caps, t, &s, &again);
#define BROKEN(...) (snprintf(why, sizeof why, __VA_ARGS__), 1)
    if (st != DUET_OK && BROKEN("status %s", duet_status_name(st))) goto shape;
    if (memcmp(&p, &again, sizeof p) != 0 && BROKEN("two plans differ")) goto shape;
    duet__kernel ids[DUET__K_COUNT];
    const unsigned nids = duet__gemm_plan_kernels(&p, ids);
    for (unsigned j = 0; j < nids; j++)
      if (!duet__gemm_kernel_fits(&d->caps, t, ids[j]) &&
          BROKEN("kernel %s does not fit", kname(ids[j])))
        goto shape;
    if (p.form != DUET__GEMM_FAST) continue;
    size_t area = 0;
    for (unsigned a = 0; a < p.npieces; a++) {
      const duet__gemm_piece *q = &p.piece[a];
      area += q->rows * q->cols;
      if ((q->r0 + q->rows > m || q->c0 + q->cols > n || !q->rows || !q->cols) &&
          BROKEN("piece %u: C[%zu:%zu, %zu:%zu] outside C", a, q->r0, q->r0 + q->rows, q->c0,
                 q->c0 + q->cols))
        goto shape;
      for (unsigned b = 0; b < a; b++) {
        const duet__gemm_piece *o = &p.piece[b];
        if (q->r0 < o->r0 + o->rows && o->r0 < q->r0 + q->rows && q->c0 < o->c0 + o->cols &&
            o->c0 < q->c0 + q->cols && BROKEN("pieces %u and %u overlap", b, a))
          goto shape;
      }
      if ((q->splits < 1 || q->splits > k) && BROKEN("piece %u: %u k slices", a, q->splits))
        goto shape;
      if (q->sk_tiles && q->splits != 1 &&
          BROKEN("piece %u: stream-K in %u k slices", a, q->splits))
        goto shape;
      const size_t bk = tile_bk(t, q->kernel);
      if (bk && q->splits > 1) {
        const size_t kc = (k + q->splits - 1) / q->splits;
        const size_t step = (kc + bk - 1) / bk * bk;
        if ((q->splits - 1) * step >= k &&
            BROKEN("piece %u: %u slices of %zu, the last empty", a, q->splits, step))
          goto shape;
      }
      const int reduced =
          q->splits > 1 && !duet__gemm_is_gemv(q->kernel) && !duet__gemm_is_cluster(q->kernel);
      if (reduced != (q->reduce_grid > 0) &&
          BROKEN("piece %u: %u slices, a reduction of %zu blocks", a, q->splits, q->reduce_grid))
        goto shape;
      if (reduced &&
          (q->reduce_lanes < 1 || q->reduce_lanes > q->splits ||
           q->work_bytes < (size_t)q->splits * q->rows * q->cols * sizeof(float)) &&
          BROKEN("piece %u: %u slices summed by %u lanes in %zu bytes", a, q->splits,
                 q->reduce_lanes, q->work_bytes))
        goto shape;
      if ((q->work_bytes > p.work_bytes || q->flag_bytes > p.flag_bytes) &&
          BROKEN("piece %u needs more scratch than the plan has", a))
        goto shape;
    }
    if (area != m * n && BROKEN("the pieces cover %zu of C's %zu elements", area, m * n))
      goto shape;
    continue;
  shape:
    harness_case_fail(&c, "%zu x %zu x %zu %c%c: %s", m, n, k, ta ? 't' : 'n', tb ? 't' : 'n', why);
#undef BROKEN
  }
  harness_case_end(&c);
}

int main(void) {
  harness_init("test_plan");
  load_sets();
  check_fours();
  h100(&(device){"H100 CUDA",
                 DUET__SET_NVIDIA_SM80,
                 {.units = 132, .max_block_threads = 1024, .shared_bytes = 227 * KIB}});
  h100(&(device){"H100 OpenCL",
                 DUET__SET_NVIDIA_SM80,
                 {.units = 132, .max_block_threads = 1024, .shared_bytes = 48 * KIB}});
  reduction_lanes(&(device){"H100 CUDA",
                            DUET__SET_NVIDIA_SM80,
                            {.units = 132, .max_block_threads = 1024, .shared_bytes = 227 * KIB}});
  switched(&(device){"H100 CUDA",
                     DUET__SET_NVIDIA_SM80,
                     {.units = 132, .max_block_threads = 1024, .shared_bytes = 227 * KIB}});
  pocl(&(device){"PoCL 2 cores",
                 DUET__SET_CPU,
                 {.units = 2, .max_block_threads = 4096, .shared_bytes = 1024 * KIB}});
  generic(&(device){"a default-set GPU",
                    DUET__SET_DEFAULT,
                    {.units = 80, .max_block_threads = 1024, .shared_bytes = 48 * KIB}});
  fallbacks();
  clusters();
  invariants(&(device){"H100 CUDA",
                       DUET__SET_NVIDIA_SM80,
                       {.units = 132, .max_block_threads = 1024, .shared_bytes = 227 * KIB}},
             tun[DUET__SET_NVIDIA_SM80], "its values");
  const device h200 = h200_with_clusters();
  invariants(&h200, tun[DUET__SET_NVIDIA_SM80], "its values");
  scalar_twins();
  /* every odd size unpacked on the scalar twins, clusters included */
  int scalar[DUET__T_COUNT];
  memcpy(scalar, tun[DUET__SET_NVIDIA_SM80], sizeof scalar);
  scalar[DUET__T_GEMM_FAST_SCALAR] = 1;
  scalar[DUET__T_GEMM_PACK_MIN_INTENSITY] = 4096;
  invariants(&h200, scalar, "GEMM_FAST_SCALAR=1,GEMM_PACK_MIN_INTENSITY=4096");
  /* nvidia-sm80 as NVIDIA's OpenCL refines it (src/tuning.c's table) */
  int opencl[DUET__T_COUNT];
  memcpy(opencl, tun[DUET__SET_NVIDIA_SM80], sizeof opencl);
  duet__tuning_refine(DUET__SET_NVIDIA_SM80, DUET_BACKEND_OPENCL, 1, opencl);
  invariants(&(device){"H100 OpenCL",
                       DUET__SET_NVIDIA_SM80,
                       {.units = 132, .max_block_threads = 1024, .shared_bytes = 48 * KIB}},
             opencl, "as OpenCL refines them");
  /* the big tile in k slices wherever it is weighed, down to slices of 64, and a cluster's lone
   * block waiting in the cache too */
  int big_split[DUET__T_COUNT];
  memcpy(big_split, tun[DUET__SET_NVIDIA_SM80], sizeof big_split);
  big_split[DUET__T_GEMM_FAST_BIG_SPLIT_PCT] = 400;
  big_split[DUET__T_GEMM_FAST_BIG_SPLIT_MIN_K] = 64;
  big_split[DUET__T_GEMM_COST_CLUSTER_WAIT_PCT] = 100;
  invariants(&h200, big_split,
             "GEMM_FAST_BIG_SPLIT_PCT=400,GEMM_FAST_BIG_SPLIT_MIN_K=64,"
             "GEMM_COST_CLUSTER_WAIT_PCT=100");
  invariants(&(device){"PoCL 2 cores",
                       DUET__SET_CPU,
                       {.units = 2, .max_block_threads = 4096, .shared_bytes = 1024 * KIB}},
             tun[DUET__SET_CPU], "its values");
  invariants(&(device){"a default-set GPU",
                       DUET__SET_DEFAULT,
                       {.units = 80, .max_block_threads = 1024, .shared_bytes = 48 * KIB}},
             tun[DUET__SET_DEFAULT], "its values");
  harness_contexts_ran(1);
  return harness_end();
}
