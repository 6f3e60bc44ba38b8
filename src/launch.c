/* SPDX-License-Identifier: MIT */
/* Kernels loaded on first use, a call's launches checked whole before any is enqueued, and the
 * per-context scratch arena that multi-launch routines take their temporaries from. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "duet_internal.h"

/* The signature's letter of each duet__arg_kind, in the enum's order. */
#define KIND_LETTERS "mlifg"
#define KIND_BITS 3
_Static_assert(sizeof KIND_LETTERS - 1 <= 1u << KIND_BITS, "a kind must fit its bits");
_Static_assert(64 >= KIND_BITS * DUET__MAX_ARGS, "an argument list's kinds must fit a code");
/* kernels_cl/common.cl declares the same struct: 64 bytes with no padding on every host. */
_Static_assert(sizeof(duet__gemm_scalars) == 64, "duet__gemm_scalars must match its OpenCL twin");

/* An argument list's kinds, KIND_BITS each, the first lowest. */
static uint64_t kinds_of(const duet__arg *args, unsigned n) {
  uint64_t code = 0;
  for (unsigned i = 0; i < n; i++) code |= (uint64_t)args[i].kind << (KIND_BITS * i);
  return code;
}

/* The kinds the signature asks for, as kinds_of codes them, and their count; a signature that
 * cannot be coded gets a count no list has, so that check_args reports every list given it. */
static void signature_kinds(const char *sig, duet__loaded *k) {
  k->nargs = 0;
  k->kinds = 0;
  for (const char *p = sig; *p; p++) {
    if (*p == 's') continue;
    const char *at = strchr(KIND_LETTERS, *p);
    if (!at || k->nargs >= DUET__MAX_ARGS) {
      k->nargs = UINT_MAX;
      return;
    }
    k->kinds |= (uint64_t)(at - KIND_LETTERS) << (KIND_BITS * k->nargs++);
  }
}

int duet__kernel_get(duet_ctx *ctx, duet__kernel id, const duet__loaded **out) {
  duet__loaded *k = &ctx->kernels[id];
  if (!k->loaded) {
    const duet__kernel_desc *d = &duet__manifest[id];
    duet__loaded fresh;
    memset(&fresh, 0, sizeof fresh);
    d->shape(ctx->tun, &fresh.shape);
    if (fresh.shape.z_cluster && !ctx->caps.cluster_max) /* before any build of its group */
      return duet__fail(ctx, DUET_EUNSUPPORTED,
                        "%s: a kernel of thread-block clusters, which this device (%s) does not "
                        "have",
                        d->name, ctx->ops->name);
    /* A family's members share what a load builds (OpenCL's programs): one load at a time. */
    pthread_mutex_lock(&ctx->root->load_lock);
    int status = ctx->ops->kernel_load(ctx, d, &fresh);
    pthread_mutex_unlock(&ctx->root->load_lock);
    if (status) return status;
    signature_kinds(d->sig, &fresh);
    fresh.loaded = 1;
    *k = fresh;
  }
  *out = k;
  return DUET_OK;
}

int duet__kernel_attrs_get(duet_ctx *ctx, int id, duet__kernel_attrs *out) {
  int status = duet__check_ctx(ctx, "duet__kernel_attrs_get");
  if (status) return status;
  if (!out || id < 0 || id >= DUET__K_COUNT)
    return duet__fail(ctx, DUET_EINVAL, "duet__kernel_attrs_get: kernel %d of %d, or out NULL", id,
                      DUET__K_COUNT);
  memset(out, 0, sizeof *out);
  out->kernel = &duet__manifest[id]; /* named also when it does not load */
  out->group = duet__groups[out->kernel->group].name;
  const duet__loaded *k;
  if ((status = duet__kernel_get(ctx, (duet__kernel)id, &k))) return status;
  out->block_x = k->shape.block_x;
  out->block_y = k->shape.block_y;
  out->shared_bytes = k->shape.shared_bytes;
  out->max_threads = k->max_threads;
  out->static_shared_bytes = out->private_bytes = -1;
  out->registers = out->blocks_per_unit = out->code_version = -1;
  out->occupancy = -1;
  return ctx->ops->kernel_attrs(ctx, out->kernel, k, out);
}

static int block_fits(const duet_ctx *ctx, const duet__loaded *k) {
  return duet__shape_fits(&k->shape, ctx->caps.max_block_threads, k->max_threads,
                          ctx->caps.shared_bytes);
}

int duet__kernel_fits(duet_ctx *ctx, duet__kernel id, int *fits) {
  const duet__loaded *k;
  int status = duet__kernel_get(ctx, id, &k);
  *fits = !status && block_fits(ctx, k);
  return status;
}

/* The step's launch: its output covered by the kernel's tiles, y capped at the backend's grid
 * limit (the kernels walk the rest in a loop). */
static int describe(duet_ctx *ctx, const duet__step *st, const duet__loaded *k, duet__launch *l) {
  const duet__kernel_desc *d = &duet__manifest[st->kernel];
  const duet__shape *s = &k->shape;
  if (!block_fits(ctx, k))
    return duet__fail(ctx, DUET_EUNSUPPORTED,
                      "%s: a block of %u threads with %zu bytes of shared memory exceeds this "
                      "device's %u threads (%u for this kernel) and %zu bytes",
                      d->name, s->block_x * s->block_y, s->shared_bytes,
                      ctx->caps.max_block_threads, k->max_threads, ctx->caps.shared_bytes);
  const size_t x = s->x_walks_rows ? st->rows : st->cols, y = s->x_walks_rows ? st->cols : st->rows;
  const size_t tiles_y = duet__ceil_div(y, s->tile_y);
  l->grid[0] = st->blocks ? st->blocks : duet__ceil_div(x, s->tile_x);
  l->grid[1] = st->blocks ? 1 : (tiles_y < ctx->caps.max_grid[1] ? tiles_y : ctx->caps.max_grid[1]);
  l->grid[2] = st->z ? st->z : 1;
  l->block[0] = s->block_x;
  l->block[1] = s->block_y;
  l->block[2] = 1;
  l->shared_bytes = s->shared_bytes;
  l->cluster_z = s->z_cluster ? (unsigned)l->grid[2] : 1;
  l->overlap =
      k->can_overlap && duet__groups[d->group].after_prior && ctx->tun[DUET__T_LAUNCH_OVERLAP];
  if (l->cluster_z > 1 && l->cluster_z > ctx->caps.cluster_max)
    return duet__fail(ctx, DUET_EUNSUPPORTED, "%s: a cluster of %u blocks exceeds this device's %u",
                      d->name, l->cluster_z, ctx->caps.cluster_max);
  /* Kernels number their blocks with 32-bit arithmetic (band_order). No buffer a device can
   * hold reaches this, but the core says so rather than let the ids wrap. */
  size_t blocks;
  if (l->grid[0] > ctx->caps.max_grid[0] || l->grid[2] > ctx->caps.max_grid[2] ||
      __builtin_mul_overflow(l->grid[0], l->grid[1], &blocks) || blocks > UINT32_MAX)
    return duet__fail(ctx, DUET_EUNSUPPORTED,
                      "%s: a grid of %zu x %zu x %zu blocks exceeds this device's limits or 2^32 "
                      "blocks",
                      d->name, l->grid[0], l->grid[1], l->grid[2]);
  return DUET_OK;
}

/* Why the arguments are not the signature's. */
static int args_mismatch(duet_ctx *ctx, const duet__step *st) {
  const char *letter = KIND_LETTERS;
  const duet__kernel_desc *d = &duet__manifest[st->kernel];
  unsigned n = 0;
  for (const char *p = d->sig; *p; p++) {
    if (*p == 's') continue;
    if (n >= st->nargs || letter[st->args[n].kind] != *p)
      return duet__fail(ctx, DUET_EINVAL, "%s: argument %u is not of kind '%c' (signature %s)",
                        d->name, n, *p, d->sig);
    n++;
  }
  if (n != st->nargs)
    return duet__fail(ctx, DUET_EINVAL, "%s: %u arguments for a signature of %u (%s)", d->name,
                      st->nargs, n, d->sig);
  return duet__fail(ctx, DUET_EINVAL, "%s: signature %s has more than %d arguments", d->name,
                    d->sig, DUET__MAX_ARGS);
}

/* The arguments must be the signature's, kind for kind: a mismatch is a bug in duet itself. The
 * kinds are compared as one code each, on every launch; the signature is walked only to say why
 * they differ. */
static int check_args(duet_ctx *ctx, const duet__step *st, const duet__loaded *k) {
  if (st->nargs == k->nargs && kinds_of(st->args, st->nargs) == k->kinds) return DUET_OK;
  return args_mismatch(ctx, st);
}

/* Records a call's checked launches into ctx->description instead of enqueueing them
 * (duet__describe). */
static int record(duet_ctx *ctx, const duet__step *steps, const duet__launch *launches,
                  unsigned n) {
  duet__description *into = ctx->description;
  if (n > DUET__MAX_STEPS - into->n)
    return duet__fail(ctx, DUET_EINVAL, "describing: more than %d launches", DUET__MAX_STEPS);
  for (unsigned i = 0; i < n; i++) {
    duet__described *d = &into->step[into->n++];
    d->kernel = &duet__manifest[steps[i].kernel];
    d->launch = launches[i];
    d->nargs = steps[i].nargs; /* at most DUET__MAX_ARGS: check_args saw the signature's count */
    memcpy(d->args, steps[i].args, d->nargs * sizeof *d->args);
  }
  return DUET_OK;
}

void duet__describe(duet_ctx *ctx, duet__description *into) {
  if (!ctx) return;
  if (into) into->n = 0;
  ctx->description = into;
}

int duet__run(duet_ctx *ctx, const duet__step *steps, unsigned n) {
  duet__launch launches[DUET__MAX_STEPS];
  const duet__loaded *loaded[DUET__MAX_STEPS];
  if (n > DUET__MAX_STEPS)
    return duet__fail(ctx, DUET_EINVAL, "a call of %u launches exceeds %d", n, DUET__MAX_STEPS);
  for (unsigned i = 0; i < n; i++) {
    int status = duet__kernel_get(ctx, steps[i].kernel, &loaded[i]);
    if (!status) status = check_args(ctx, &steps[i], loaded[i]);
    if (!status) status = describe(ctx, &steps[i], loaded[i], &launches[i]);
    if (status) return status;
  }
  if (ctx->description) return record(ctx, steps, launches, n);
  for (unsigned i = 0; i < n; i++) {
    int status = ctx->ops->launch(ctx, &duet__manifest[steps[i].kernel], loaded[i], &launches[i],
                                  steps[i].args);
    if (status) return status;
  }
  return DUET_OK;
}

int duet__run_one(duet_ctx *ctx, duet__kernel k, size_t rows, size_t cols, const duet__arg *args,
                  unsigned nargs) {
  const duet__step step = {k, rows, cols, 1, args, nargs, 0};
  return duet__run(ctx, &step, 1);
}

/* Writes zeros to the first `bytes` of region r's mem. Test hooks write what a launch that
 * failed half-way could leave instead: DUET_TEST_STALE_FLAGS, stream-K flags of the last
 * launch's epoch whose counts (0xfffff: every ticket taken) would make every group sum at once,
 * and stamps that are no epoch, were they taken for the next launch's (tests/test_regress.c);
 * DUET_TEST_STALE_TICKET=WORD, that word (decimal) as shuffle_once's ticket
 * (tests/test_reduce_once.c). */
static int zero_flags(duet_ctx *ctx, duet__arena_region r, void *mem, size_t bytes) {
  unsigned *zeros = calloc(1, bytes);
  if (!zeros) return duet__fail(ctx, DUET_ENOMEM, "out of host memory for %zu bytes", bytes);
  const char *ticket = r == DUET__ARENA_TICKET ? duet__getenv("DUET_TEST_STALE_TICKET") : NULL;
  long word = 0;
  if (ticket && !duet__parse_count(ticket, strlen(ticket), 0xffffffffL, &word))
    for (size_t i = 0; i < bytes / sizeof *zeros; i++) zeros[i] = (unsigned)word;
  if (r == DUET__ARENA_FLAGS && duet__getenv("DUET_TEST_STALE_FLAGS"))
    for (size_t i = 0; i < bytes / sizeof *zeros; i++)
      zeros[i] = (unsigned)ctx->sk_epoch << 20 | 0xfffff;
  int status = ctx->ops->mem_write(ctx, mem, 0, zeros, bytes);
  free(zeros);
  return status;
}

int duet__arena_epoch(duet_ctx *ctx, int epochs, int *epoch) {
  if (ctx->sk_epoch >= epochs) {
    int status = ctx->arena[DUET__ARENA_FLAGS]
                     ? zero_flags(ctx, DUET__ARENA_FLAGS, ctx->arena[DUET__ARENA_FLAGS],
                                  ctx->arena_bytes[DUET__ARENA_FLAGS])
                     : DUET_OK;
    if (status) return status;
    ctx->sk_epoch = 0;
  }
  *epoch = ++ctx->sk_epoch;
  return DUET_OK;
}

/* The test hook DUET_TEST_ARENA_LIMIT=bytes refuses any growth of a region past that size, as a
 * device out of memory would (tests/test_errors.c). */
static int arena_alloc(duet_ctx *ctx, size_t bytes, void **mem) {
  const char *limit = duet__getenv("DUET_TEST_ARENA_LIMIT");
  long max;
  if (limit && !duet__parse_count(limit, strlen(limit), LONG_MAX, &max) && bytes > (size_t)max)
    return duet__fail(ctx, DUET_ENOMEM, "%zu bytes of scratch exceed DUET_TEST_ARENA_LIMIT=%s",
                      bytes, limit);
  return ctx->ops->mem_alloc(ctx, bytes, mem);
}

int duet__arena(duet_ctx *ctx, duet__arena_region r, size_t bytes, void **mem) {
  if (bytes > ctx->arena_bytes[r]) {
    void *grown = NULL;
    int status = arena_alloc(ctx, bytes, &grown);
    if (status) return status;
    /* no flag or ticket may carry an epoch still to come */
    if (r == DUET__ARENA_FLAGS || r == DUET__ARENA_TICKET) {
      status = zero_flags(ctx, r, grown, bytes);
      if (status) {
        ctx->ops->mem_free(ctx, grown);
        return status;
      }
    }
    /* Both runtimes keep the old memory alive for work already enqueued on it. */
    if (ctx->arena[r]) ctx->ops->mem_free(ctx, ctx->arena[r]);
    ctx->arena[r] = grown;
    ctx->arena_bytes[r] = bytes;
  }
  *mem = ctx->arena[r];
  return DUET_OK;
}

void duet__arena_free(duet_ctx *ctx) {
  for (int r = 0; r < DUET__ARENA_COUNT; r++) {
    if (ctx->arena[r]) ctx->ops->mem_free(ctx, ctx->arena[r]);
    ctx->arena[r] = NULL;
    ctx->arena_bytes[r] = 0;
  }
}
