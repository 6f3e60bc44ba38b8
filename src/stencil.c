/* SPDX-License-Identifier: MIT */
/* The 1D stencil of the course: a weighted sum of each element's 2r + 1 neighbours. */
#include <string.h>

#include "duet_internal.h"

/* The kernels' window is fixed at this radius (kernels_cu/stencil.cu, kernels_cl/stencil.cl). */
_Static_assert(DUET_STENCIL_MAX_RADIUS == 16, "the stencil kernels' STENCIL_MAX_RADIUS");

/* Indexed by duet_stencil_variant. AUTO takes the variant the tuning set names (STENCIL_AUTO);
 * register's row names its window for the largest radius, and pick() the smaller one where
 * the radius allows. */
static const duet__variant stencil_variants[] = {
    [DUET_STENCIL_AUTO] = {"auto", DUET__K_STENCIL_REGISTER16},
    [DUET_STENCIL_NAIVE] = {"naive", DUET__K_STENCIL_NAIVE},
    [DUET_STENCIL_SHARED] = {"shared", DUET__K_STENCIL_SHARED},
    [DUET_STENCIL_REGISTER] = {"register", DUET__K_STENCIL_REGISTER16},
};
#define N_STENCIL (sizeof stencil_variants / sizeof stencil_variants[0])
/* register4's window: a radius up to this takes it, with 2 * 4 halo floats per window instead
 * of 2 * 16. */
#define SMALL_HALO 4

const char *duet_stencil_variant_name(duet_stencil_variant v) {
  return duet__variant_name(stencil_variants, N_STENCIL, (int)v);
}

int duet_stencil_variant_parse(const char *name, duet_stencil_variant *v) {
  int i = 0, status = duet__variant_parse(stencil_variants, N_STENCIL, name, v ? &i : NULL);
  if (!status) *v = (duet_stencil_variant)i;
  return status;
}

/* The weights in the arena: written again only when they differ from what the region holds,
 * so that repeated calls enqueue no copy (the write waits for the queue: it is ordered after
 * every kernel that still reads the old weights). */
static int put_weights(duet_ctx *ctx, unsigned count, const float *weights, void **mem) {
  int status = duet__arena(ctx, DUET__ARENA_STENCIL_W, sizeof ctx->stencil_w, mem);
  if (status) return status;
  const size_t bytes = count * sizeof(float);
  if (ctx->stencil_w_at == *mem && ctx->stencil_wn == count &&
      memcmp(ctx->stencil_w, weights, bytes) == 0)
    return DUET_OK;
  ctx->stencil_w_at = NULL;
  if ((status = ctx->ops->mem_write(ctx, *mem, 0, weights, bytes))) return status;
  memcpy(ctx->stencil_w, weights, bytes);
  ctx->stencil_wn = count;
  ctx->stencil_w_at = *mem;
  return DUET_OK;
}

int duet_stencil_1d(duet_ctx *ctx, duet_stencil_variant v, size_t n, unsigned radius,
                    const float *weights, const duet_buf *in, duet_buf *out) {
  static const char F[] = "duet_stencil_1d";
  int status = duet__check_ctx(ctx, F);
  if (status) return status;
  if ((unsigned)v >= N_STENCIL)
    return duet__fail(ctx, DUET_EINVAL, "%s: unknown variant %d", F, (int)v);
  if (radius > DUET_STENCIL_MAX_RADIUS)
    return duet__fail(ctx, DUET_EINVAL, "%s: radius %u exceeds DUET_STENCIL_MAX_RADIUS (%d)", F,
                      radius, DUET_STENCIL_MAX_RADIUS);
  if (!weights) return duet__fail(ctx, DUET_EINVAL, "%s: weights is NULL", F);
  if ((status = duet__check_vector(ctx, F, "in", in, n)) ||
      (status = duet__check_vector(ctx, F, "out", out, n)))
    return status;
  if (in == out)
    return duet__fail(ctx, DUET_EINVAL, "%s: in and out are the same buffer (out-of-place only)",
                      F);
  if (n == 0) return DUET_OK;
  if (v == DUET_STENCIL_AUTO) {
    const int pick = ctx->tun[DUET__T_STENCIL_AUTO];
    v = pick > DUET_STENCIL_AUTO && (unsigned)pick < N_STENCIL ? (duet_stencil_variant)pick
                                                               : DUET_STENCIL_SHARED;
  }
  duet__kernel k = stencil_variants[v].kernel;
  if (k == DUET__K_STENCIL_REGISTER16 && radius <= SMALL_HALO) k = DUET__K_STENCIL_REGISTER4;
  void *w = NULL;
  if ((status = put_weights(ctx, 2 * radius + 1, weights, &w))) return status;
  const duet__arg args[] = {duet__arg_i64(n), duet__arg_i32((int)radius), duet__arg_scratch(w),
                            duet__arg_mem(in), duet__arg_mem(out)};
  /* naive and shared: one output per thread; register: a grid-stride loop over the outputs of
   * its shape's tile per block, on a grid of as many blocks a unit as its window's tunable says
   * (the manifest's shape holds the block and outputs per thread, as the kernel compiles them). */
  duet__shape shape;
  duet__manifest[k].shape(ctx->tun, &shape);
  const int per_cu = ctx->tun[k == DUET__K_STENCIL_REGISTER16 ? DUET__T_STENCIL_R16_PER_CU
                                                              : DUET__T_STENCIL_PER_CU];
  const size_t blocks = k == DUET__K_STENCIL_NAIVE || k == DUET__K_STENCIL_SHARED
                            ? duet__ceil_div(n, shape.block_x)
                            : duet__grid_blocks(ctx, n, shape.tile_x, per_cu);
  const duet__step step = {k, 1, n, 1, args, DUET__COUNT(args), blocks};
  return duet__run(ctx, &step, 1);
}
