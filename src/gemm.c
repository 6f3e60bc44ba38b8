/* SPDX-License-Identifier: MIT */
/* Single-precision GEMM with BLAS semantics, row-major. */
#include <string.h>

#include "duet_internal.h"

/* Indexed by duet_gemm_variant; AUTO is resolved per call by pick_auto(). */
static const duet__variant gemm_variants[] = {
    [DUET_GEMM_AUTO] = {"auto", DUET__K_SGEMM_TILED},
    [DUET_GEMM_NAIVE] = {"naive", DUET__K_SGEMM_NAIVE},
    [DUET_GEMM_COALESCED] = {"coalesced", DUET__K_SGEMM_COALESCED},
    [DUET_GEMM_TILED] = {"tiled", DUET__K_SGEMM_TILED},
    [DUET_GEMM_REGISTER] = {"register", DUET__K_SGEMM_REGISTER},
    [DUET_GEMM_FAST] = {"fast", DUET__K_SGEMM_FAST},
};
#define N_GEMM (sizeof gemm_variants / sizeof gemm_variants[0])

const char *duet_gemm_variant_name(duet_gemm_variant v) {
  return duet__variant_name(gemm_variants, N_GEMM, (int)v);
}

int duet_gemm_variant_parse(const char *name, duet_gemm_variant *v) {
  int i = 0, status = duet__variant_parse(gemm_variants, N_GEMM, name, v ? &i : NULL);
  if (!status) *v = (duet_gemm_variant)i;
  return status;
}

/* AUTO's order of preference. A single row of C has no reuse of B for a tile to exploit; the
 * coalesced kernel keeps all 32 lanes of a warp busy along that row instead of one row of a
 * mostly idle tile. Otherwise fast, the fastest on every device measured (H100 both backends,
 * PoCL), then tiled. AUTO runs the first whose whole plan this device can run: a plan is
 * checked (every kernel loaded and fitted) before anything is enqueued (duet__run), so a
 * variant that cannot run here, on a device limited to 128 work-items or with a kernel group
 * that failed to build, hands the call to the next, down to naive. */
static const duet_gemm_variant auto_order[2][5] = {
    {DUET_GEMM_FAST, DUET_GEMM_TILED, DUET_GEMM_REGISTER, DUET_GEMM_COALESCED, DUET_GEMM_NAIVE},
    {DUET_GEMM_COALESCED, DUET_GEMM_FAST, DUET_GEMM_TILED, DUET_GEMM_REGISTER, DUET_GEMM_NAIVE}};

static size_t units(const duet_ctx *ctx) {
  return ctx->caps.compute_units ? ctx->caps.compute_units : 1;
}

/* The piece of C one block of fast's big kernel (small 0) or of its small one covers. */
typedef struct {
  size_t m, n;
} fast_tile;
static fast_tile fast_tile_of(const duet_ctx *ctx, int small) {
  const int *t = ctx->tun;
  return small ? (fast_tile){(size_t)t[DUET__T_GEMM_FAST_SMALL_BM],
                             (size_t)t[DUET__T_GEMM_FAST_SMALL_BN]}
               : (fast_tile){(size_t)t[DUET__T_GEMM_FAST_BM], (size_t)t[DUET__T_GEMM_FAST_BN]};
}
static size_t tiles_over(fast_tile d, size_t rows, size_t cols) {
  return duet__ceil_div(rows, d.m) * duet__ceil_div(cols, d.n);
}

/* fast's big tiles over a rows x cols piece of C. */
static size_t big_tiles(const duet_ctx *ctx, size_t rows, size_t cols) {
  return tiles_over(fast_tile_of(ctx, 0), rows, cols);
}

/* How fast covers C: the big tile where it gives enough tiles to fill the compute units, else
 * the small tile, split along k into slices where even its tiles leave units idle (at n = 1024
 * the H100's 256 x 128 tile gives 32 tiles for 132 SMs; 128 x 128 with 4 slices fills them). */
static duet__kernel fast_plan(const duet_ctx *ctx, size_t m, size_t n, size_t k, unsigned *splits) {
  const int *t = ctx->tun;
  *splits = 1;
  if (big_tiles(ctx, m, n) * 100 >= units(ctx) * (size_t)t[DUET__T_GEMM_FAST_BIG_PCT])
    return DUET__K_SGEMM_FAST;
  const size_t small = tiles_over(fast_tile_of(ctx, 1), m, n);
  const size_t slots = units(ctx) * (size_t)t[DUET__T_GEMM_FAST_SMALL_PER_CU];
  size_t s = small >= slots ? 1 : (slots + small / 2) / small;
  if (s > (size_t)t[DUET__T_GEMM_SPLITK_MAX]) s = (size_t)t[DUET__T_GEMM_SPLITK_MAX];
  while (s > 1 && k / s < (size_t)t[DUET__T_GEMM_SPLITK_MIN_K]) s--;
  *splits = (unsigned)s;
  return DUET__K_SGEMM_FAST_SMALL;
}

/* ---- fast's plans ------------------------------------------------------------------------ */

/* A matrix of a fast call: its memory, where it starts in it (floats), its ld, and for A and B
 * how far along m (rows of op(A)) or n (columns of op(B)) its memory may be read: m or n, or
 * more for a packed copy padded to whole tiles. */
typedef struct {
  duet__arg mem;
  size_t off, ld, reach;
} operand;

typedef struct {
  int ta, tb;
  size_t m, n, k;
  float alpha, beta;
  operand a, b, c;
} fast_call;

/* A piece of C that one fast launch (or a split-K pair) computes: rows [r0, r0 + rows) and
 * columns [c0, c0 + cols). */
typedef struct {
  size_t r0, rows, c0, cols;
  duet__kernel kernel;
  unsigned splits;
  size_t sk_tiles; /* stream-K: the last tiles whose k iterations the units share (0: none) */
} piece;

enum { MAX_ARGS = 21 }; /* fast's stream-K signature, the longest here */
/* Stream-K's flags (kernels_cu/gemm_fast.cuh, fast_stream_k): 10 bits of tickets, 10 of partials
 * published, and 11 of the launch's epoch, 1..SK_EPOCHS (duet__arena_epoch). A flag of another
 * epoch counts as zero, so one that a launch which failed half-way left behind cannot poison a
 * later call. */
enum { SK_MAX_UNITS = 0x3ff, SK_EPOCHS = 0x7ff };
typedef struct {
  duet__step step[8]; /* two packs, then up to three pieces of two launches each */
  duet__arg args[8][MAX_ARGS];
  unsigned n;
} plan;

/* blocks: 0 for the grid of the kernel's tiles over rows x cols, else a 1D grid of that many. */
static void add_step(plan *p, duet__kernel k, size_t rows, size_t cols, unsigned z, size_t blocks,
                     const duet__arg *args, unsigned nargs) {
  memcpy(p->args[p->n], args, nargs * sizeof *args);
  p->step[p->n] = (duet__step){k, rows, cols, z, p->args[p->n], nargs, blocks};
  p->n++;
}

static size_t waves(const duet_ctx *ctx, size_t rows, size_t cols) {
  return duet__ceil_div(big_tiles(ctx, rows, cols), units(ctx));
}

/* Stream-K for a piece that takes the big tile, where its tiles leave at least GEMM_FAST_STREAMK
 * percent of their waves' block slots idle (n = 3072 on 132 SMs: 288 tiles in 3 waves, 27% idle),
 * or are all whole and fill less than one wave: the last tiles, one wave's worth and the remainder
 * (or all of them, under one wave), are shared out by k iteration among one block per unit.
 * Returns how many tiles that is, 0 for none. Measured on the H100 (cuBLAS 0.342 ms at 2048, 0.349
 * at 2000):
 *   - n = 2048, 128 tiles: 4 SMs idle for the whole call; stream-K 0.377 ms against the tiled
 *     grid's 0.386 (CUDA), 0.373 against 0.394 (OpenCL);
 *   - n = 2000, 128 tiles, 23 of them ragged: the tiled grid is faster, 0.392 against 0.408 ms
 *     (OpenCL 0.396 against 0.419): its guarded edge tiles, not the idle SMs, set its time;
 *   - n = 4096, 512 tiles, 3% idle in the last of 4 waves: the tiled grid, 2.829 ms against
 *     stream-K's 2.869 on CUDA (OpenCL the other way, 2.884 against 2.844; one policy per set).
 * The kernel numbers tiles and units in 32 bits, and counts a tile's units in SK_MAX_UNITS. */
static size_t stream_k_tiles(const duet_ctx *ctx, size_t rows, size_t cols) {
  const int *t = ctx->tun;
  const size_t pct = (size_t)t[DUET__T_GEMM_FAST_STREAMK], u = units(ctx);
  const size_t tiles = big_tiles(ctx, rows, cols), slots = duet__ceil_div(tiles, u) * u;
  const fast_tile big = fast_tile_of(ctx, 0);
  const int whole = rows % big.m == 0 && cols % big.n == 0;
  if (!pct || tiles >= UINT32_MAX || u > SK_MAX_UNITS) return 0;
  if ((slots - tiles) * 100 < pct * slots && !(tiles < u && whole)) return 0;
  return tiles < u ? tiles : tiles % u + u;
}

/* A skinny kernel's blocks: one per tile_x outputs (its manifest shape) along the piece's long
 * side. */
static size_t skinny_blocks(const duet_ctx *ctx, const piece *q) {
  duet__shape s;
  duet__manifest[q->kernel].shape(ctx->tun, &s);
  return duet__ceil_div(q->rows <= q->cols ? q->cols : q->rows, s.tile_x);
}

/* A piece a few rows thin whose B is read along its rows, or a few columns thin whose A^T is read
 * along its columns (n = 4097 on the H100: the 1 x 4097 last row), takes the skinny kernel: a
 * matrix-vector product, split along k until its blocks give each compute unit about four, with
 * at least 64 of k per slice. The small tile's split-K ran that row at a third of cuBLAS's
 * speed (1 x 4097 x 4097: 0.083 ms against 0.028). The other orientation, a few columns thin
 * with A read along its rows or a few rows thin with B^T, takes skinny-dot, a dot product per
 * output; the kernels decide the orientation by the same rule, in the same order. */
static void skinny_plan(duet_ctx *ctx, int ta, int tb, size_t k, piece *q) {
  const size_t thin = (size_t)ctx->tun[DUET__T_GEMM_SKINNY_S];
  duet__kernel kernel;
  int fits = 0;
  if (!ctx->tun[DUET__T_GEMM_FAST_SKINNY]) return;
  if ((q->rows <= thin && !tb) || (q->cols <= thin && ta))
    kernel = DUET__K_SGEMM_SKINNY;
  else if ((q->cols <= thin && !ta) || (q->rows <= thin && tb))
    kernel = DUET__K_SGEMM_SKINNY_DOT;
  else
    return;
  /* Where the device cannot take its block (128 work-items) or its group does not build, the
   * piece keeps the tile it had: slower, never refused. */
  if (duet__kernel_fits(ctx, kernel, &fits) != DUET_OK) ctx->last_error[0] = '\0';
  if (!fits) return;
  q->kernel = kernel;
  size_t s = duet__ceil_div(4 * units(ctx), skinny_blocks(ctx, q));
  if (s > k / 64) s = k / 64;
  q->splits = s > 1 ? (unsigned)s : 1;
  q->sk_tiles = 0;
}

/* The pieces of C: all of it, or, where the big tile's last row or column of tiles is at most
 * half full and cutting it off takes a wave of tiles off the rest (n = 4097 on 132 SMs: 561
 * tiles in 5 waves, 512 in 4 without them), the rest plus that strip, which takes the small tile
 * and split-K as few tiles do. */
static unsigned cut_pieces(duet_ctx *ctx, int ta, int tb, size_t m, size_t n, size_t k,
                           piece out[3]) {
  const int *t = ctx->tun;
  const fast_tile big = fast_tile_of(ctx, 0);
  const size_t bm = big.m, bn = big.n;
  const size_t cut_m = m > bm && m % bm <= bm / 2 ? m % bm : 0;
  const size_t cut_n = n > bn && n % bn <= bn / 2 ? n % bn : 0;
  unsigned splits, best = 0;
  if (t[DUET__T_GEMM_FAST_STRIPS] && (cut_m || cut_n) &&
      fast_plan(ctx, m, n, k, &splits) == DUET__K_SGEMM_FAST) {
    size_t best_waves = waves(ctx, m, n);
    for (unsigned o = 1; o < 4; o++) { /* bit 0: cut rows, bit 1: cut columns */
      if (((o & 1) && !cut_m) || ((o & 2) && !cut_n)) continue;
      const size_t w = waves(ctx, m - (o & 1 ? cut_m : 0), n - (o & 2 ? cut_n : 0));
      if (w < best_waves) best_waves = w, best = o;
    }
  }
  const size_t mm = m - (best & 1 ? cut_m : 0), nn = n - (best & 2 ? cut_n : 0);
  unsigned count = 0;
  out[count++] = (piece){0, mm, 0, nn, DUET__K_SGEMM_FAST, 1, 0};
  if (nn < n) out[count++] = (piece){0, mm, nn, n - nn, DUET__K_SGEMM_FAST, 1, 0};
  if (mm < m) out[count++] = (piece){mm, m - mm, 0, n, DUET__K_SGEMM_FAST, 1, 0};
  for (unsigned i = 0; i < count; i++) {
    out[i].kernel = fast_plan(ctx, out[i].rows, out[i].cols, k, &out[i].splits);
    out[i].sk_tiles =
        out[i].kernel == DUET__K_SGEMM_FAST ? stream_k_tiles(ctx, out[i].rows, out[i].cols) : 0;
    skinny_plan(ctx, ta, tb, k, &out[i]);
  }
  return count;
}

static size_t round_up(size_t x, size_t g) { return duet__ceil_div(x, g) * g; }

/* An operand whose ld is not a multiple of 4 loads one float at a time (n = 4095 on the H100:
 * 0.88 of n = 4096's rate). Where the multiply is long enough to pay for it, it is copied into
 * the arena at an ld that is, and the plan reads the copy. The copy is padded along the tiles'
 * side (m for A, n for B) to a whole number of `tile`s, so that the ragged last row or column of
 * tiles loads without guards too (kernels_cu/gemm_fast.cuh, mac_tile); the padding is never
 * written. `tile_rows`: that side is the stored rows (A, B^T), else the stored columns. */
static void pack(duet_ctx *ctx, plan *p, const fast_call *f, operand *x, size_t rows, size_t cols,
                 int tile_rows, size_t tile, duet__arena_region r) {
  const size_t ld = round_up(tile_rows ? cols : round_up(cols, tile), 4);
  const size_t padded_rows = tile_rows ? round_up(rows, tile) : rows;
  const double copied = 8.0 * (double)rows * (double)cols; /* read and written */
  void *mem;
  if (x->ld % 4 == 0 || 2.0 * (double)f->m * (double)f->n * (double)f->k <
                            copied * ctx->tun[DUET__T_GEMM_PACK_MIN_INTENSITY])
    return;
  if (duet__arena(ctx, r, padded_rows * ld * sizeof(float), &mem) != DUET_OK) {
    ctx->last_error[0] = '\0'; /* an arena that cannot grow is no failure of this call */
    return;
  }
  const duet__arg move[] = {duet__arg_i64(rows),
                            duet__arg_i64(cols),
                            x->mem,
                            duet__arg_i64(x->ld),
                            {.kind = DUET__ARG_MEM, .u.mem = mem},
                            duet__arg_i64(ld)};
  add_step(p, DUET__K_COPY, rows, cols, 1, 0, move, DUET__COUNT(move));
  *x = (operand){{.kind = DUET__ARG_MEM, .u.mem = mem}, 0, ld, tile_rows ? padded_rows : ld};
}

/* A stream-K piece's workspace: a slot of partial products per unit and per shared tile, and a
 * flag per shared tile. */

static size_t sk_slots(const duet_ctx *ctx, const piece *q) { return units(ctx) + q->sk_tiles; }
static size_t sk_slot_bytes(const duet_ctx *ctx) {
  const fast_tile big = fast_tile_of(ctx, 0);
  return big.m * big.n * sizeof(float);
}

/* A piece's launches: one, or split-K's two: the slices write their partial products into the
 * arena (ld cols), then the reduction adds them into C with alpha and beta, once, as BLAS does;
 * or one stream-K launch over a 1D grid, a block per whole tile and one per unit. */
static void add_piece(duet_ctx *ctx, plan *p, const fast_call *f, const piece *q, void *work,
                      void *flags, int epoch) {
  const operand *a = &f->a, *b = &f->b, *c = &f->c;
  const size_t a_off = a->off + (f->ta ? q->r0 : q->r0 * a->ld);
  const size_t b_off = b->off + (f->tb ? q->c0 * b->ld : q->c0);
  const size_t c_off = c->off + q->r0 * c->ld + q->c0;
  const int split = q->splits > 1;
  /* Reading past the piece pays only where it makes whole tiles of a ragged last row or column;
   * a strip thinner than its tile would only read more (a 1 x n strip all of A's next rows). */
  const fast_tile tile = fast_tile_of(ctx, q->kernel == DUET__K_SGEMM_FAST_SMALL);
  const size_t m_read = q->rows >= tile.m ? a->reach - q->r0 : q->rows;
  const size_t n_read = q->cols >= tile.n ? b->reach - q->c0 : q->cols;
  const duet__arg work_mem = {.kind = DUET__ARG_MEM, .u.mem = work};
  const duet__arg args[] = {duet__arg_i32(f->ta),
                            duet__arg_i32(f->tb),
                            duet__arg_i64(q->rows),
                            duet__arg_i64(q->cols),
                            duet__arg_i64(f->k),
                            duet__arg_f32(f->alpha),
                            a->mem,
                            duet__arg_i64(a_off),
                            duet__arg_i64(a->ld),
                            b->mem,
                            duet__arg_i64(b_off),
                            duet__arg_i64(b->ld),
                            duet__arg_f32(split ? 0.0f : f->beta),
                            split ? work_mem : c->mem,
                            duet__arg_i64(split ? 0 : c_off),
                            duet__arg_i64(split ? q->cols : c->ld),
                            duet__arg_i64(m_read),
                            duet__arg_i64(n_read)};
  if (q->sk_tiles) {
    duet__arg sk[MAX_ARGS];
    memcpy(sk, args, sizeof args);
    sk[DUET__COUNT(args)] = duet__arg_i64(units(ctx) | (size_t)epoch << 32); /* units_epoch */
    sk[DUET__COUNT(args) + 1] = work_mem;
    sk[DUET__COUNT(args) + 2] = (duet__arg){.kind = DUET__ARG_MEM, .u.mem = flags};
    /* the kernel for these transposes: the ids run nn, nt, tn, tt */
    const duet__kernel sk_kernel = DUET__K_SGEMM_FAST_SK_NN + 2 * !!f->ta + !!f->tb;
    add_step(p, sk_kernel, q->rows, q->cols, 1,
             big_tiles(ctx, q->rows, q->cols) - q->sk_tiles + units(ctx), sk,
             DUET__COUNT(args) + 3);
    return;
  }
  const int skinny = q->kernel == DUET__K_SGEMM_SKINNY || q->kernel == DUET__K_SGEMM_SKINNY_DOT;
  const size_t blocks = skinny ? skinny_blocks(ctx, q) : 0;
  add_step(p, q->kernel, q->rows, q->cols, q->splits, blocks, args, DUET__COUNT(args));
  if (!split) return;
  const duet__arg reduce[] = {duet__arg_i64(q->rows),
                              duet__arg_i64(q->cols),
                              duet__arg_i32((int)q->splits),
                              work_mem,
                              duet__arg_f32(f->alpha),
                              duet__arg_f32(f->beta),
                              c->mem,
                              duet__arg_i64(c_off),
                              duet__arg_i64(c->ld)};
  add_step(p, DUET__K_SGEMM_SPLITK_REDUCE, q->rows, q->cols, 1, 0, reduce, DUET__COUNT(reduce));
}

/* fast: the operands packed where that pays, C in pieces, each piece split along k where its
 * tiles leave compute units idle. Where the arena cannot grow, no packing or one slice: slower,
 * never wrong. */
static int run_fast(duet_ctx *ctx, fast_call f) {
  plan p = {.n = 0};
  piece pieces[3];
  const unsigned count = cut_pieces(ctx, f.ta, f.tb, f.m, f.n, f.k, pieces);
  size_t work_bytes = 0, flag_bytes = 0;
  for (unsigned i = 0; i < count; i++) {
    piece *q = &pieces[i];
    size_t bytes;
    if (q->sk_tiles) {
      if (__builtin_mul_overflow(sk_slots(ctx, q), sk_slot_bytes(ctx), &bytes))
        q->sk_tiles = 0; /* no workspace can hold it */
      else if (bytes > work_bytes)
        work_bytes = bytes;
      if (q->sk_tiles && q->sk_tiles * sizeof(int) > flag_bytes)
        flag_bytes = q->sk_tiles * sizeof(int);
    }
    if (q->splits == 1) continue;
    if (__builtin_mul_overflow((size_t)q->splits * q->rows, q->cols * sizeof(float), &bytes))
      q->splits = 1; /* no workspace can hold it */
    else if (bytes > work_bytes)
      work_bytes = bytes;
  }
  void *work = NULL, *flags = NULL;
  int epoch = 0;
  if ((work_bytes && duet__arena(ctx, DUET__ARENA_WORK, work_bytes, &work) != DUET_OK) ||
      (flag_bytes && (duet__arena(ctx, DUET__ARENA_FLAGS, flag_bytes, &flags) != DUET_OK ||
                      duet__arena_epoch(ctx, SK_EPOCHS, &epoch) != DUET_OK))) {
    ctx->last_error[0] = '\0';
    for (unsigned i = 0; i < count; i++) pieces[i].splits = 1, pieces[i].sk_tiles = 0;
  }
  const fast_tile big = fast_tile_of(ctx, 0), small = fast_tile_of(ctx, 1);
  const size_t tile_m = big.m > small.m ? big.m : small.m;
  const size_t tile_n = big.n > small.n ? big.n : small.n;
  pack(ctx, &p, &f, &f.a, f.ta ? f.k : f.m, f.ta ? f.m : f.k, !f.ta, tile_m, DUET__ARENA_PACK_A);
  pack(ctx, &p, &f, &f.b, f.tb ? f.n : f.k, f.tb ? f.k : f.n, f.tb, tile_n, DUET__ARENA_PACK_B);
  for (unsigned i = 0; i < count; i++) add_piece(ctx, &p, &f, &pieces[i], work, flags, epoch);
  return duet__run(ctx, p.step, p.n);
}

static int run_variant(duet_ctx *ctx, duet_gemm_variant v, duet_trans ta, duet_trans tb, size_t m,
                       size_t n, size_t k, float alpha, const duet_buf *a, size_t lda,
                       const duet_buf *b, size_t ldb, float beta, duet_buf *c, size_t ldc);

int duet_sgemm(duet_ctx *ctx, duet_gemm_variant v, duet_trans ta, duet_trans tb, size_t m, size_t n,
               size_t k, float alpha, const duet_buf *a, size_t lda, const duet_buf *b, size_t ldb,
               float beta, duet_buf *c, size_t ldc) {
  static const char F[] = "duet_sgemm";
  int status = duet__check_ctx(ctx, F);
  if (status) return status;
  if ((unsigned)v >= N_GEMM)
    return duet__fail(ctx, DUET_EINVAL, "%s: unknown variant %d", F, (int)v);
  if (ta != DUET_NO_TRANS && ta != DUET_TRANS)
    return duet__fail(ctx, DUET_EINVAL, "%s: ta is %d, not DUET_NO_TRANS or DUET_TRANS", F,
                      (int)ta);
  if (tb != DUET_NO_TRANS && tb != DUET_TRANS)
    return duet__fail(ctx, DUET_EINVAL, "%s: tb is %d, not DUET_NO_TRANS or DUET_TRANS", F,
                      (int)tb);
  /* Stored shapes: A is m x k or k x m, B is k x n or n x k. */
  if ((status = duet__check_matrix(ctx, F, "a", a, ta ? k : m, ta ? m : k, lda))) return status;
  if ((status = duet__check_matrix(ctx, F, "b", b, tb ? n : k, tb ? k : n, ldb))) return status;
  if ((status = duet__check_matrix(ctx, F, "c", c, m, n, ldc))) return status;
  if (c == a || c == b)
    return duet__fail(ctx, DUET_EINVAL, "%s: c is the same buffer as %s", F, c == a ? "a" : "b");
  if (m == 0 || n == 0) return DUET_OK;

  if (k == 0 || alpha == 0.0f) {
    if (beta == 1.0f) return DUET_OK;
    /* C = beta*C; beta == 0 stores zeros so that NaN in C cannot survive. */
    const duet__arg args[] = {duet__arg_i64(m), duet__arg_i64(n), duet__arg_f32(beta),
                              duet__arg_mem(c), duet__arg_i64(ldc)};
    return DUET__LAUNCH(ctx, DUET__K_SCALE, m, n, args);
  }
  if (v != DUET_GEMM_AUTO)
    return run_variant(ctx, v, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  const duet_gemm_variant *order = auto_order[m == 1];
  char first_error[DUET__ERRLEN];
  int first_status = DUET_OK;
  for (size_t i = 0; i < sizeof auto_order[0] / sizeof auto_order[0][0]; i++) {
    status = run_variant(ctx, order[i], ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    if (status != DUET_EUNSUPPORTED && status != DUET_EBUILD) {
      if (!status) ctx->last_error[0] = '\0'; /* an earlier variant's refusal is no failure */
      return status;
    }
    if (!first_status) {
      first_status = status;
      memcpy(first_error, ctx->last_error, sizeof first_error);
    }
  }
  /* None can: the first one's reason, the one AUTO would have taken. */
  memcpy(ctx->last_error, first_error, sizeof first_error);
  return first_status;
}

/* One variant's launches (checks done). */
static int run_variant(duet_ctx *ctx, duet_gemm_variant v, duet_trans ta, duet_trans tb, size_t m,
                       size_t n, size_t k, float alpha, const duet_buf *a, size_t lda,
                       const duet_buf *b, size_t ldb, float beta, duet_buf *c, size_t ldc) {
  if (v == DUET_GEMM_FAST) {
    const fast_call f = {.ta = ta,
                         .tb = tb,
                         .m = m,
                         .n = n,
                         .k = k,
                         .alpha = alpha,
                         .beta = beta,
                         .a = {duet__arg_mem(a), 0, lda, m},
                         .b = {duet__arg_mem(b), 0, ldb, n},
                         .c = {duet__arg_mem(c), 0, ldc, m}};
    return run_fast(ctx, f);
  }
  const duet__gemm_scalars s = {.m = (long long)m,
                                .n = (long long)n,
                                .k = (long long)k,
                                .lda = (long long)lda,
                                .ldb = (long long)ldb,
                                .ldc = (long long)ldc,
                                .alpha = alpha,
                                .beta = beta,
                                .ta = ta,
                                .tb = tb};
  const duet__arg args[] = {duet__arg_gemm(s), duet__arg_mem(a), duet__arg_mem(b),
                            duet__arg_mem(c)};
  return DUET__LAUNCH(ctx, gemm_variants[v].kernel, m, n, args);
}
