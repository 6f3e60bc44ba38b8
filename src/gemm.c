/* SPDX-License-Identifier: MIT */
/* Single-precision GEMM with BLAS semantics, row-major. */
#include <stdio.h>
#include <string.h>

#include "duet_internal.h"
#include "gemm_plan.h"

const char *duet_gemm_variant_name(duet_gemm_variant v) {
  return duet__variant_name(duet__gemm_variants, DUET__GEMM_VARIANTS, (int)v);
}

int duet_gemm_variant_parse(const char *name, duet_gemm_variant *v) {
  int i = 0,
      status = duet__variant_parse(duet__gemm_variants, DUET__GEMM_VARIANTS, name, v ? &i : NULL);
  if (!status) *v = (duet_gemm_variant)i;
  return status;
}

/* Stream-K's flags and stamps (kernels_cl/gemm_fast.cl, fast_stream_k) and GEMV's tickets
 * (kernels_cl/builtin.h, epoch_ticket) carry 11 bits of the launch's epoch, 1..SK_EPOCHS
 * (duet__arena_epoch). A flag or a stamp of another epoch counts as
 * zero, so one that a launch which failed half-way left behind cannot poison a later call. */
enum { SK_EPOCHS = 0x7ff };

/* The resident clusters a loaded cluster kernel reported, into the plan's table for its tile
 * (the four of a tile share a block and shared memory); whether that changed the table. */
static int learn_slots(duet__gemm_caps *c, duet__kernel id, const duet__loaded *k) {
  unsigned *slots = c->cluster_slots[duet__gemm_cluster_table(id)];
  if (!memcmp(slots, k->cluster_slots, sizeof k->cluster_slots)) return 0;
  memcpy(slots, k->cluster_slots, sizeof k->cluster_slots);
  return 1;
}

/* What the plan knows of ctx's device: the backend's caps, and the block limit of every kernel
 * loaded so far and the resident clusters of each cluster kernel loaded. */
static void caps_of(const duet_ctx *ctx, duet__gemm_caps *c) {
  memset(c, 0, sizeof *c);
  c->units = ctx->caps.compute_units;
  c->max_block_threads = ctx->caps.max_block_threads;
  c->shared_bytes = ctx->caps.shared_bytes;
  c->cache_bytes = ctx->caps.cache_bytes;
  c->cluster_max = ctx->caps.cluster_max;
  for (int k = 0; k < DUET__K_COUNT; k++) {
    const duet__loaded *l = &ctx->kernels[k];
    if (!l->loaded) continue;
    c->kernel_threads[k] = l->max_threads;
    if (l->shape.z_cluster) learn_slots(c, (duet__kernel)k, l);
  }
}

/* The call's plan, its kernels loaded. A plan is made from what is known of the device; loading
 * its kernels may teach more (a kernel's own block limit, a group that does not build), and the
 * plan is made again with it until every kernel of the plan has loaded (each lesson concerns a
 * kernel not learned of before, so this ends). A failure the plan moved away from is no failure
 * of the call; a kernel that failed to load and stays in the plan fails it with its load's error.
 * Where AUTO finds no variant that fits, the plan is its first choice's, whose launch says why. */
static int plan_call(duet_ctx *ctx, const duet__gemm_shape *shape, duet__gemm_plan *p) {
  duet__gemm_caps caps;
  caps_of(ctx, &caps);
  for (;;) {
    if (duet__gemm_plan_make(&caps, ctx->tun, shape, p) == DUET_ENOMEM)
      return duet__fail(ctx, DUET_ENOMEM,
                        "duet_sgemm: the scratch of a %zu x %zu x %zu plan exceeds the address "
                        "space",
                        shape->m, shape->n, shape->k);
    duet__kernel ids[DUET__K_COUNT];
    const unsigned n = duet__gemm_plan_kernels(p, ids);
    int learned = 0;
    for (unsigned i = 0; i < n; i++) {
      const duet__loaded *k;
      const int known_bad = caps.unusable[ids[i]];
      const int status = duet__kernel_get(ctx, ids[i], &k);
      if (status && known_bad) return status; /* failed again: it stays in the plan */
      if (status == DUET_EBUILD || status == DUET_EUNSUPPORTED) {
        caps.unusable[ids[i]] = 1;
        learned = 1;
      } else if (status) {
        return status;
      } else if (caps.kernel_threads[ids[i]] != k->max_threads) {
        caps.kernel_threads[ids[i]] = k->max_threads;
        learned = 1;
      }
      if (!status && k->shape.z_cluster && learn_slots(&caps, ids[i], k)) learned = 1;
    }
    if (!learned) {
      ctx->last_error[0] = '\0';
      return DUET_OK;
    }
  }
}

/* ---- the emitter: a plan into launches --------------------------------------------------- */

/* A matrix of a fast call: its memory, where it starts in it (floats), its ld, and for A and B
 * how far along m (rows of op(A)) or n (columns of op(B)) its memory may be read. */
typedef struct {
  duet__arg mem;
  size_t off, ld, reach;
} operand;

/* The launches being emitted, with their arguments. */
typedef struct {
  duet__step step[DUET__MAX_STEPS];
  duet__arg args[DUET__MAX_STEPS][DUET__MAX_ARGS];
  unsigned n;
} steps;

/* blocks: 0 for the grid of the kernel's tiles over rows x cols, else a 1D grid of that many. */
static void add_step(steps *p, duet__kernel k, size_t rows, size_t cols, unsigned z, size_t blocks,
                     const duet__arg *args, unsigned nargs) {
  memcpy(p->args[p->n], args, nargs * sizeof *args);
  p->step[p->n] = (duet__step){k, rows, cols, z, p->args[p->n], nargs, blocks};
  p->n++;
}

/* The scratch a fast plan needs, from the context's arena: all of it, or the call fails. */
typedef struct {
  void *work, *flags, *pack[2];
  int epoch;
} scratch;

static int scratch_fail(duet_ctx *ctx, int status, const char *what, size_t bytes) {
  char why[1024];
  snprintf(why, sizeof why, "%.1000s", ctx->last_error);
  return duet__fail(ctx, status,
                    "duet_sgemm: the plan's %s (%zu bytes of device memory) cannot be allocated: "
                    "%s",
                    what, bytes, why);
}

static int get_scratch(duet_ctx *ctx, const duet__gemm_plan *p, scratch *s) {
  static const char *const pack_what[2] = {"packed copy of A", "packed copy of B"};
  static const duet__arena_region pack_region[2] = {DUET__ARENA_PACK_A, DUET__ARENA_PACK_B};
  int status;
  memset(s, 0, sizeof *s);
  if (p->work_bytes && (status = duet__arena(ctx, DUET__ARENA_WORK, p->work_bytes, &s->work)))
    return scratch_fail(ctx, status, "split-K or stream-K workspace", p->work_bytes);
  if (p->flag_bytes && (status = duet__arena(ctx, DUET__ARENA_FLAGS, p->flag_bytes, &s->flags)))
    return scratch_fail(ctx, status, "stream-K or GEMV tickets", p->flag_bytes);
  for (int i = 0; i < 2; i++)
    if (p->pack[i].on && (status = duet__arena(ctx, pack_region[i], p->pack[i].bytes, &s->pack[i])))
      return scratch_fail(ctx, status, pack_what[i], p->pack[i].bytes);
  return DUET_OK;
}

/* The packed operands' copies into the arena, both in one launch of duet_sgemm_pack, and the
 * operands the pieces read instead. An operand not packed has no rows and no tiles; a packed
 * one's buffers stand in for its pointers, never read. */
static void emit_packs(steps *p, const duet__gemm_pack pk[2], void *const mem[2], operand *x[2]) {
  const int some = pk[0].on ? 0 : 1; /* a packed operand */
  duet__arg args[13];
  for (int i = 0; i < 2; i++) {
    const int j = pk[i].on ? i : some;
    args[6 * i + 0] = duet__arg_i64(pk[i].rows); /* 0 where not packed (plan_pack) */
    args[6 * i + 1] = duet__arg_i64(pk[i].cols);
    args[6 * i + 2] = x[j]->mem;
    args[6 * i + 3] = duet__arg_i64(x[j]->ld);
    args[6 * i + 4] = duet__arg_scratch(mem[j]);
    args[6 * i + 5] = duet__arg_i64(pk[j].ld);
  }
  args[12] = duet__arg_i64(pk[0].tiles);
  add_step(p, DUET__K_SGEMM_PACK, 0, 0, 1, pk[0].tiles + pk[1].tiles, args, DUET__COUNT(args));
  for (int i = 0; i < 2; i++)
    if (pk[i].on) *x[i] = (operand){duet__arg_scratch(mem[i]), 0, pk[i].ld, pk[i].reach};
}

typedef struct {
  int ta, tb;
  size_t k;
  float alpha, beta;
  operand a, b, c;
} fast_call;

/* A GEMV piece's launch (kernels_cl/gemm_gemv.cl): its big operand v, the vector u and C's
 * outputs, named by the piece's thin side, and its k slices' scratch. */
static void emit_gemv(steps *p, const fast_call *f, const duet__gemm_piece *q, const scratch *s,
                      size_t a_off, size_t b_off, size_t c_off) {
  const int row = q->thin == DUET__THIN_ROWS; /* one row of C: v is B, u A's row */
  const operand *v = row ? &f->b : &f->a, *u = row ? &f->a : &f->b;
  const size_t up = row ? (f->ta ? f->a.ld : 1) : (f->tb ? 1 : f->b.ld);
  const duet__arg args[] = {duet__arg_i64(row ? q->cols : q->rows),
                            duet__arg_i64(f->k),
                            duet__arg_f32(f->alpha),
                            v->mem,
                            duet__arg_i64(row ? b_off : a_off),
                            duet__arg_i64(v->ld),
                            u->mem,
                            duet__arg_i64(row ? a_off : b_off),
                            duet__arg_i64(up),
                            duet__arg_f32(f->beta),
                            f->c.mem,
                            duet__arg_i64(c_off),
                            duet__arg_i64(row ? 1 : f->c.ld),
                            duet__arg_i32(s->epoch),
                            duet__arg_scratch(s->work),
                            duet__arg_scratch(s->flags)};
  add_step(p, q->kernel, q->rows, q->cols, q->splits, q->blocks, args, DUET__COUNT(args));
}

/* A piece's launches: one, or split-K's two: the slices write their partial products into the
 * arena (ld cols), then the reduction adds them into C with alpha and beta, once, as BLAS does;
 * or one stream-K launch over a 1D grid: a block per whole tile and one per unit, or (split-K
 * summed in the launch) a block per tile and k slice. */
static void emit_piece(const duet_ctx *ctx, steps *p, const fast_call *f, const duet__gemm_piece *q,
                       const scratch *s) {
  const operand *a = &f->a, *b = &f->b, *c = &f->c;
  const size_t a_off = a->off + (f->ta ? q->r0 : q->r0 * a->ld);
  const size_t b_off = b->off + (f->tb ? q->c0 * b->ld : q->c0);
  const size_t c_off = c->off + q->r0 * c->ld + q->c0;
  if (duet__gemm_is_gemv(q->kernel)) {
    emit_gemv(p, f, q, s, a_off, b_off, c_off);
    return;
  }
  /* split-K through the workspace and the reduction (a cluster kernel sums in its launch) */
  const int split = q->splits > 1 && !duet__gemm_is_cluster(q->kernel);
  /* Reading past the piece pays only where it makes whole tiles of a ragged last row or column;
   * a strip thinner than its tile would only read more (a 1 x n strip all of A's next rows). */
  duet__shape tile; /* a fast or stream-K kernel's own tile, else (skinny) the big tile's */
  _Static_assert(DUET__K_SGEMM_FAST_FLAT_TT + 1 == DUET__K_SGEMM_FAST_SK_NN &&
                     DUET__K_SGEMM_FAST_SK_TT + 1 == DUET__K_SGEMM_FAST_TINY_SK_NN &&
                     DUET__K_SGEMM_FAST_TINY_SK_TT + 1 == DUET__K_SGEMM_FAST_SMALL_CS_NN,
                 "the fast, stream-K and cluster kernels (big to flat, then stream-K's, then "
                 "the clusters') are one run of ids, and their scalar twins another");
  const int own = duet__kernel_is_fast(q->kernel);
  duet__manifest[own ? q->kernel : DUET__K_SGEMM_FAST_NN].shape(ctx->tun, &tile);
  const size_t m_read = q->rows >= tile.tile_y ? a->reach - q->r0 : q->rows;
  const size_t n_read = q->cols >= tile.tile_x ? b->reach - q->c0 : q->cols;
  const duet__arg work = duet__arg_scratch(s->work);
  duet__arg args[DUET__MAX_ARGS] = {duet__arg_i32(f->ta),
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
                                    split ? work : c->mem,
                                    duet__arg_i64(split ? 0 : c_off),
                                    duet__arg_i64(split ? q->cols : c->ld),
                                    duet__arg_i64(m_read),
                                    duet__arg_i64(n_read)};
  unsigned nargs = 18;
  if (q->sk_tiles) {
    args[nargs++] = duet__arg_i64(q->sk_units | (size_t)s->epoch << 32); /* units_epoch */
    args[nargs++] = work;
    args[nargs++] = duet__arg_scratch(s->flags);
  } else if (q->thin) {
    args[nargs++] = duet__arg_i32(q->thin == DUET__THIN_ROWS); /* skinny's thin_rows */
  }
  add_step(p, q->kernel, q->rows, q->cols, q->splits, q->blocks, args, nargs);
  if (!split) return;
  const duet__arg reduce[] = {duet__arg_i64(q->rows),
                              duet__arg_i64(q->cols),
                              duet__arg_i32((int)q->splits),
                              duet__arg_i32((int)q->reduce_lanes),
                              work,
                              duet__arg_f32(f->alpha),
                              duet__arg_f32(f->beta),
                              c->mem,
                              duet__arg_i64(c_off),
                              duet__arg_i64(c->ld)};
  add_step(p, DUET__K_SGEMM_SPLITK_REDUCE, q->rows, q->cols, 1, q->reduce_grid, reduce,
           DUET__COUNT(reduce));
}

/* The plan's launches, enqueued as one run (duet__run: all or nothing). */
static int emit(duet_ctx *ctx, const duet__gemm_plan *plan, const duet__gemm_shape *sh,
                const duet_buf *a, const duet_buf *b, duet_buf *c, size_t ldc) {
  switch (plan->form) {
    case DUET__GEMM_NOTHING: return DUET_OK;
    case DUET__GEMM_SCALE: {
      const duet__arg args[] = {duet__arg_i64(sh->m), duet__arg_i64(sh->n), duet__arg_f32(sh->beta),
                                duet__arg_mem(c), duet__arg_i64(ldc)};
      return DUET__LAUNCH(ctx, plan->kernel, sh->m, sh->n, args);
    }
    case DUET__GEMM_SIMPLE: {
      const duet__gemm_scalars s = {.m = (long long)sh->m,
                                    .n = (long long)sh->n,
                                    .k = (long long)sh->k,
                                    .lda = (long long)sh->lda,
                                    .ldb = (long long)sh->ldb,
                                    .ldc = (long long)ldc,
                                    .alpha = sh->alpha,
                                    .beta = sh->beta,
                                    .ta = sh->ta,
                                    .tb = sh->tb};
      const duet__arg args[] = {duet__arg_gemm(s), duet__arg_mem(a), duet__arg_mem(b),
                                duet__arg_mem(c)};
      return DUET__LAUNCH(ctx, plan->kernel, sh->m, sh->n, args);
    }
    case DUET__GEMM_FAST: break;
  }
  scratch s;
  int status = get_scratch(ctx, plan, &s);
  if (status) return status;
  fast_call f = {.ta = sh->ta,
                 .tb = sh->tb,
                 .k = sh->k,
                 .alpha = sh->alpha,
                 .beta = sh->beta,
                 .a = {duet__arg_mem(a), 0, sh->lda, sh->m},
                 .b = {duet__arg_mem(b), 0, sh->ldb, sh->n},
                 .c = {duet__arg_mem(c), 0, ldc, sh->m}};
  steps p; /* not zeroed: 12 KiB of argument slots, each written before it is read */
  p.n = 0;
  if (plan->pack[0].on || plan->pack[1].on)
    emit_packs(&p, plan->pack, s.pack, (operand *[2]){&f.a, &f.b});
  /* an epoch per piece that takes tickets: two such pieces of one call share the flags region */
  for (unsigned i = 0; i < plan->npieces; i++) {
    if (plan->piece[i].flag_bytes && (status = duet__arena_epoch(ctx, SK_EPOCHS, &s.epoch)))
      return status;
    emit_piece(ctx, &p, &f, &plan->piece[i], &s);
  }
  return duet__run(ctx, p.step, p.n);
}

/* DUET_VERBOSE prints each call's plan, a line per piece. */
static void note_plan(const duet_ctx *ctx, const duet__gemm_plan *p, const duet__gemm_shape *s) {
  char text[2048];
  if (!duet__verbose()) return;
  duet__gemm_plan_format(p, s, ctx->tun, text, sizeof text);
  for (const char *line = text, *end; *line; line = end + 1) {
    if (!(end = strchr(line, '\n'))) {
      duet__note("%s", line); /* cut short */
      break;
    }
    duet__note("%.*s", (int)(end - line), line);
  }
}

/* The checks of duet_sgemm that the plan's description shares. */
static int check_call(duet_ctx *ctx, const char *F, duet_gemm_variant v, duet_trans ta,
                      duet_trans tb) {
  int status = duet__check_ctx(ctx, F);
  if (status) return status;
  if ((unsigned)v >= DUET__GEMM_VARIANTS)
    return duet__fail(ctx, DUET_EINVAL, "%s: unknown variant %d", F, (int)v);
  if (ta != DUET_NO_TRANS && ta != DUET_TRANS)
    return duet__fail(ctx, DUET_EINVAL, "%s: ta is %d, not DUET_NO_TRANS or DUET_TRANS", F,
                      (int)ta);
  if (tb != DUET_NO_TRANS && tb != DUET_TRANS)
    return duet__fail(ctx, DUET_EINVAL, "%s: tb is %d, not DUET_NO_TRANS or DUET_TRANS", F,
                      (int)tb);
  return DUET_OK;
}

int duet_sgemm(duet_ctx *ctx, duet_gemm_variant v, duet_trans ta, duet_trans tb, size_t m, size_t n,
               size_t k, float alpha, const duet_buf *a, size_t lda, const duet_buf *b, size_t ldb,
               float beta, duet_buf *c, size_t ldc) {
  static const char F[] = "duet_sgemm";
  int status = check_call(ctx, F, v, ta, tb);
  if (status) return status;
  /* Stored shapes: A is m x k or k x m, B is k x n or n x k. */
  if ((status = duet__check_matrix(ctx, F, "a", a, ta ? k : m, ta ? m : k, lda))) return status;
  if ((status = duet__check_matrix(ctx, F, "b", b, tb ? n : k, tb ? k : n, ldb))) return status;
  if ((status = duet__check_matrix(ctx, F, "c", c, m, n, ldc))) return status;
  if (c == a || c == b)
    return duet__fail(ctx, DUET_EINVAL, "%s: c is the same buffer as %s", F, c == a ? "a" : "b");
  const duet__gemm_shape shape = {v, ta, tb, m, n, k, lda, ldb, alpha, beta};
  duet__gemm_plan plan;
  if ((status = plan_call(ctx, &shape, &plan))) return status;
  note_plan(ctx, &plan, &shape);
  return emit(ctx, &plan, &shape, a, b, c, ldc);
}

int duet_sgemm_plan(duet_ctx *ctx, duet_gemm_variant v, duet_trans ta, duet_trans tb, size_t m,
                    size_t n, size_t k, size_t lda, size_t ldb, char *text, size_t len) {
  static const char F[] = "duet_sgemm_plan";
  int status = check_call(ctx, F, v, ta, tb);
  if (status) return status;
  if (!text || !len) return duet__fail(ctx, DUET_EINVAL, "%s: no room for the text", F);
  text[0] = '\0';
  if (lda < (ta ? m : k) || ldb < (tb ? k : n))
    return duet__fail(ctx, DUET_EINVAL, "%s: lda %zu or ldb %zu below the stored rows' length", F,
                      lda, ldb);
  const duet__gemm_shape shape = {v, ta, tb, m, n, k, lda, ldb, 1.0f, 0.0f};
  duet__gemm_plan plan;
  status = plan_call(ctx, &shape, &plan);
  if (!status || status == DUET_EUNSUPPORTED || status == DUET_EBUILD)
    duet__gemm_plan_format(&plan, &shape, ctx->tun, text, len);
  return status;
}
