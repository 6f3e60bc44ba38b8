/* SPDX-License-Identifier: MIT */
/* Transpose and the copy that is its bandwidth reference. */
#include <string.h>

#include "duet_internal.h"

/* Indexed by duet_transpose_variant. AUTO's row is never launched: pick_auto resolves it. */
static const duet__variant transpose_variants[] = {
    [DUET_TRANSPOSE_AUTO] = {"auto", DUET__K_TRANSPOSE_PADDED},
    [DUET_TRANSPOSE_NAIVE] = {"naive", DUET__K_TRANSPOSE_NAIVE},
    [DUET_TRANSPOSE_COALESCED] = {"coalesced", DUET__K_TRANSPOSE_COALESCED},
    [DUET_TRANSPOSE_PADDED] = {"padded", DUET__K_TRANSPOSE_PADDED},
    [DUET_TRANSPOSE_PADDED_TALL] = {"padded-tall", DUET__K_TRANSPOSE_PADDED_TALL},
    [DUET_TRANSPOSE_REGISTER] = {"register", DUET__K_TRANSPOSE_REGISTER},
};
#define N_TRANSPOSE (sizeof transpose_variants / sizeof transpose_variants[0])

/* Rows of out that start off the device's memory segments cost padded about a quarter of its
 * rate on the H100, in partial sector writes; padded-tall shifts its stores onto whole 32-byte
 * sectors and runs there at 0.98-1.0 of cudaMemcpy; unaligned rows of in cost padded nothing
 * (docs/results/h100.md). The segment, in floats, is the tunable TRANSPOSE_AUTO_ALIGN of the
 * device's set; 0 means padded always. A kernel whose block the device cannot run is passed over
 * for the next: padded-tall, padded, then coalesced (whose block is the copy's). Where
 * TRANSPOSE_AUTO_REGISTER is 1 (CPUs) register comes first: on PoCL it ran 6-8x faster than
 * padded (docs/results/tuning-notes.md). */
static int pick_auto(duet_ctx *ctx, size_t ld_out, duet__kernel *k) {
  const int align = ctx->tun[DUET__T_TRANSPOSE_AUTO_ALIGN];
  const duet__kernel order[] = {DUET__K_TRANSPOSE_REGISTER, DUET__K_TRANSPOSE_PADDED_TALL,
                                DUET__K_TRANSPOSE_PADDED};
  const int wanted[] = {ctx->tun[DUET__T_TRANSPOSE_AUTO_REGISTER] != 0,
                        align && ld_out % (size_t)align != 0, 1};
  for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
    if (!wanted[i]) continue;
    int fits = 0, status = duet__kernel_fits(ctx, order[i], &fits);
    if (status) return status;
    if (fits) {
      *k = order[i];
      return DUET_OK;
    }
  }
  *k = DUET__K_TRANSPOSE_COALESCED;
  return DUET_OK;
}

/* The kernel id that stands for "transpose AUTO" until the arguments have been checked. */
#define AUTO_KERNEL DUET__K_COUNT

const char *duet_transpose_variant_name(duet_transpose_variant v) {
  return duet__variant_name(transpose_variants, N_TRANSPOSE, (int)v);
}

int duet_transpose_variant_parse(const char *name, duet_transpose_variant *v) {
  /* padded-tall's name in duet 0.1.0, still accepted. */
  if (name && !strcmp(name, "padded-wide")) name = "padded-tall";
  int i = 0, status = duet__variant_parse(transpose_variants, N_TRANSPOSE, name, v ? &i : NULL);
  if (!status) *v = (duet_transpose_variant)i;
  return status;
}

/* A copy or a transpose of in (rows x cols) into out (out_rows x out_cols): the checks both
 * share, then one launch; both kernels take (rows, cols, in, ld_in, out, ld_out) of in's shape. */
static int copy_or_transpose(duet_ctx *ctx, const char *func, duet__kernel kernel, size_t rows,
                             size_t cols, const duet_buf *in, size_t ld_in, duet_buf *out,
                             size_t ld_out, size_t out_rows, size_t out_cols) {
  int status;
  if ((status = duet__check_matrix(ctx, func, "in", in, rows, cols, ld_in))) return status;
  if ((status = duet__check_matrix(ctx, func, "out", out, out_rows, out_cols, ld_out)))
    return status;
  if (in == out)
    return duet__fail(ctx, DUET_EINVAL, "%s: in and out are the same buffer (out-of-place only)",
                      func);
  if (rows == 0 || cols == 0) return DUET_OK;
  if (kernel == AUTO_KERNEL && (status = pick_auto(ctx, ld_out, &kernel))) return status;
  const duet__arg args[] = {duet__arg_i64(rows),  duet__arg_i64(cols), duet__arg_mem(in),
                            duet__arg_i64(ld_in), duet__arg_mem(out),  duet__arg_i64(ld_out)};
  return DUET__LAUNCH(ctx, kernel, rows, cols, args);
}

int duet_transpose(duet_ctx *ctx, duet_transpose_variant v, size_t rows, size_t cols,
                   const duet_buf *in, size_t ld_in, duet_buf *out, size_t ld_out) {
  static const char F[] = "duet_transpose";
  int status = duet__check_ctx(ctx, F);
  if (status) return status;
  if ((unsigned)v >= N_TRANSPOSE)
    return duet__fail(ctx, DUET_EINVAL, "%s: unknown variant %d", F, (int)v);
  /* AUTO is resolved after the checks, so that bad arguments build nothing. */
  return copy_or_transpose(ctx, F,
                           v == DUET_TRANSPOSE_AUTO ? AUTO_KERNEL : transpose_variants[v].kernel,
                           rows, cols, in, ld_in, out, ld_out, cols, rows);
}

int duet_copy(duet_ctx *ctx, size_t rows, size_t cols, const duet_buf *in, size_t ld_in,
              duet_buf *out, size_t ld_out) {
  int status = duet__check_ctx(ctx, "duet_copy");
  return status ? status
                : copy_or_transpose(ctx, "duet_copy", DUET__K_COPY, rows, cols, in, ld_in, out,
                                    ld_out, rows, cols);
}
