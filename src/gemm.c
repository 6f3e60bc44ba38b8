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

/* A single row of C has no reuse of B for a tile to exploit; the coalesced kernel keeps all 32
 * lanes of a warp busy along that row instead of one row of a mostly idle tile. Otherwise fast,
 * the fastest on every device measured (H100 both backends, PoCL); where a device or the kernel
 * cannot take its block, tiled, and where tiled's cannot either, coalesced, which runs anywhere. */
static int pick_auto(duet_ctx *ctx, size_t m, duet_gemm_variant *v) {
  static const duet_gemm_variant order[] = {DUET_GEMM_FAST, DUET_GEMM_TILED};
  *v = DUET_GEMM_COALESCED;
  if (m == 1) return DUET_OK;
  for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
    int fits = 0, status = duet__kernel_fits(ctx, gemm_variants[order[i]].kernel, &fits);
    if (status) return status;
    if (fits) {
      *v = order[i];
      return DUET_OK;
    }
  }
  return DUET_OK;
}

/* How fast covers C: the big tile where it gives enough tiles to fill the compute units, else
 * the small tile, split along k into slices where even its tiles leave units idle (at n = 1024
 * the H100's 256 x 128 tile gives 32 tiles for 132 SMs; 128 x 128 with 4 slices fills them). */
static duet__kernel fast_plan(const duet_ctx *ctx, size_t m, size_t n, size_t k, unsigned *splits) {
  const int *t = ctx->tun;
  const size_t units = ctx->caps.compute_units ? ctx->caps.compute_units : 1;
  *splits = 1;
  const size_t big = duet__ceil_div(m, (size_t)t[DUET__T_GEMM_FAST_BM]) *
                     duet__ceil_div(n, (size_t)t[DUET__T_GEMM_FAST_BN]);
  if (big * 100 >= units * (size_t)t[DUET__T_GEMM_FAST_BIG_PCT]) return DUET__K_SGEMM_FAST;
  const size_t small = duet__ceil_div(m, (size_t)t[DUET__T_GEMM_FAST_SMALL_BM]) *
                       duet__ceil_div(n, (size_t)t[DUET__T_GEMM_FAST_SMALL_BN]);
  const size_t slots = units * (size_t)t[DUET__T_GEMM_FAST_SMALL_PER_CU];
  size_t s = small >= slots ? 1 : (slots + small / 2) / small;
  if (s > (size_t)t[DUET__T_GEMM_SPLITK_MAX]) s = (size_t)t[DUET__T_GEMM_SPLITK_MAX];
  while (s > 1 && k / s < (size_t)t[DUET__T_GEMM_SPLITK_MIN_K]) s--;
  *splits = (unsigned)s;
  return DUET__K_SGEMM_FAST_SMALL;
}

/* fast: one launch, or a plan of two: the slices write alpha * their partial product into the
 * context's arena (beta 0, ld n), then the reduction adds them into C with beta. Where the arena
 * cannot grow, one slice: slower, never wrong. */
typedef duet__arg gemm_args[13]; /* sgemm's signature, "iilllfmlmlfml" */

static int run_fast(duet_ctx *ctx, const gemm_args args, size_t m, size_t n, size_t k, float beta,
                    duet_buf *c, size_t ldc) {
  unsigned splits;
  const duet__kernel kernel = fast_plan(ctx, m, n, k, &splits);
  size_t bytes;
  void *work = NULL;
  if (splits > 1 && (__builtin_mul_overflow((size_t)splits * m, n * sizeof(float), &bytes) ||
                     duet__arena(ctx, bytes, &work) != DUET_OK)) {
    splits = 1;
    ctx->last_error[0] = '\0'; /* an arena that cannot grow is no failure of this call */
  }
  if (splits == 1) {
    const duet__step one = {kernel, m,    n,
                            1,      args, (unsigned)(sizeof(gemm_args) / sizeof(duet__arg))};
    return duet__run(ctx, &one, 1);
  }
  gemm_args sliced;
  memcpy(sliced, args, sizeof sliced);
  sliced[10] = duet__arg_f32(0.0f); /* beta: the slices never read the workspace */
  sliced[11].u.mem = work;
  sliced[12] = duet__arg_i64(n);
  const duet__arg reduce[] = {duet__arg_i64(m),           duet__arg_i64(n),
                              duet__arg_i32((int)splits), {.kind = DUET__ARG_MEM, .u.mem = work},
                              duet__arg_f32(beta),        duet__arg_mem(c),
                              duet__arg_i64(ldc)};
  const duet__step plan[] = {{kernel, m, n, splits, sliced, DUET__COUNT(sliced)},
                             {DUET__K_SGEMM_SPLITK_REDUCE, m, n, 1, reduce, DUET__COUNT(reduce)}};
  return duet__run(ctx, plan, 2);
}

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
  if (v == DUET_GEMM_AUTO && (status = pick_auto(ctx, m, &v))) return status;
  const gemm_args args = {duet__arg_i32(ta),  duet__arg_i32(tb),   duet__arg_i64(m),
                          duet__arg_i64(n),   duet__arg_i64(k),    duet__arg_f32(alpha),
                          duet__arg_mem(a),   duet__arg_i64(lda),  duet__arg_mem(b),
                          duet__arg_i64(ldb), duet__arg_f32(beta), duet__arg_mem(c),
                          duet__arg_i64(ldc)};
  if (v == DUET_GEMM_FAST) return run_fast(ctx, args, m, n, k, beta, c, ldc);
  return DUET__LAUNCH(ctx, gemm_variants[v].kernel, m, n, args);
}
