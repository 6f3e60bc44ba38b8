/* Single-precision GEMM with BLAS semantics, row-major. */
#include "duet_internal.h"

/* Indexed by duet_gemm_variant; AUTO is resolved per call by pick_auto(). */
static const duet__variant gemm_variants[] = {
    [DUET_GEMM_AUTO] = {"auto", DUET__K_SGEMM_TILED},
    [DUET_GEMM_NAIVE] = {"naive", DUET__K_SGEMM_NAIVE},
    [DUET_GEMM_COALESCED] = {"coalesced", DUET__K_SGEMM_COALESCED},
    [DUET_GEMM_TILED] = {"tiled", DUET__K_SGEMM_TILED},
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
 * lanes of a warp busy along that row instead of one row of a mostly idle tile. tiled's block
 * may also exceed a small device's (or this kernel's) limit: coalesced runs anywhere. */
static int pick_auto(duet_ctx *ctx, size_t m, duet_gemm_variant *v) {
  *v = DUET_GEMM_COALESCED;
  if (m == 1) return DUET_OK;
  int fits = 0, status = duet__kernel_fits(ctx, DUET__K_SGEMM_TILED, &fits);
  if (fits) *v = DUET_GEMM_TILED;
  return status;
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
  const duet__arg args[] = {duet__arg_i32(ta),  duet__arg_i32(tb),   duet__arg_i64(m),
                            duet__arg_i64(n),   duet__arg_i64(k),    duet__arg_f32(alpha),
                            duet__arg_mem(a),   duet__arg_i64(lda),  duet__arg_mem(b),
                            duet__arg_i64(ldb), duet__arg_f32(beta), duet__arg_mem(c),
                            duet__arg_i64(ldc)};
  return DUET__LAUNCH(ctx, gemm_variants[v].kernel, m, n, args);
}
