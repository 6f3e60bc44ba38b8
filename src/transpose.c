/* Transpose and the copy that is its bandwidth reference. */
#include "duet_internal.h"

#define TILE DUET_TRANSPOSE_TILE
#define ROWS DUET_TRANSPOSE_ROWS
#define WIDE DUET_TRANSPOSE_WIDE_TILE
#define WIDE_ROWS DUET_TRANSPOSE_WIDE_ROWS

/* Indexed by duet_transpose_variant. AUTO's row is never launched: pick_auto resolves it. */
static const duet__variant transpose_variants[] = {
    [DUET_TRANSPOSE_AUTO] = {"auto", DUET__K_TRANSPOSE_PADDED, TILE, TILE, TILE, ROWS,
                             TILE *(TILE + 1) * sizeof(float), 0},
    /* One element per thread: the tile is the block. */
    [DUET_TRANSPOSE_NAIVE] = {"naive", DUET__K_TRANSPOSE_NAIVE, TILE, ROWS, TILE, ROWS, 0, 0},
    [DUET_TRANSPOSE_COALESCED] = {"coalesced", DUET__K_TRANSPOSE_COALESCED, TILE, TILE, TILE, ROWS,
                                  TILE *TILE * sizeof(float), 0},
    [DUET_TRANSPOSE_PADDED] = {"padded", DUET__K_TRANSPOSE_PADDED, TILE, TILE, TILE, ROWS,
                               TILE *(TILE + 1) * sizeof(float), 0},
    [DUET_TRANSPOSE_PADDED_WIDE] = {"padded-wide", DUET__K_TRANSPOSE_PADDED_WIDE, WIDE, WIDE, WIDE,
                                    WIDE_ROWS, WIDE *(WIDE + 1) * sizeof(float), 0},
};
#define N_TRANSPOSE (sizeof transpose_variants / sizeof transpose_variants[0])

/* Rows of out that start off 128-byte boundaries cost padded up to a third of its rate on the
 * H100, in partial sector writes, and padded-wide recovers half of that; unaligned rows of in
 * cost padded nothing (docs/results/h100.md). */
static duet_transpose_variant pick_auto(const duet_ctx *ctx, size_t ld_out) {
  const int aligned = ld_out % 32 == 0;
  return aligned || !duet__variant_fits(ctx, &transpose_variants[DUET_TRANSPOSE_PADDED_WIDE])
             ? DUET_TRANSPOSE_PADDED
             : DUET_TRANSPOSE_PADDED_WIDE;
}

static const duet__variant copy_variant = {"copy", DUET__K_COPY, TILE, TILE, TILE, ROWS, 0, 0};

const char *duet_transpose_variant_name(duet_transpose_variant v) {
  return duet__variant_name(transpose_variants, N_TRANSPOSE, (int)v);
}

int duet_transpose_variant_parse(const char *name, duet_transpose_variant *v) {
  int i = 0, status = duet__variant_parse(transpose_variants, N_TRANSPOSE, name, &i);
  if (!status) *v = (duet_transpose_variant)i;
  return status;
}

/* Both kernels take (rows, cols, in, ld_in, out, ld_out) of the input's shape. */
static int move(duet_ctx *ctx, const char *func, const duet__variant *var, size_t rows, size_t cols,
                const duet_buf *in, size_t ld_in, duet_buf *out, size_t ld_out, size_t out_rows,
                size_t out_cols) {
  int status = duet__check_ctx(ctx, func);
  if (status) return status;
  if ((status = duet__check_matrix(ctx, func, "in", in, rows, cols, ld_in))) return status;
  if ((status = duet__check_matrix(ctx, func, "out", out, out_rows, out_cols, ld_out)))
    return status;
  if (in == out)
    return duet__fail(ctx, DUET_EINVAL, "%s: in and out are the same buffer (out-of-place only)",
                      func);
  if (rows == 0 || cols == 0) return DUET_OK;
  const duet__arg args[] = {duet__arg_i64(rows),  duet__arg_i64(cols), duet__arg_mem(in),
                            duet__arg_i64(ld_in), duet__arg_mem(out),  duet__arg_i64(ld_out)};
  return duet__launch_variant(ctx, var, rows, cols, args, 6);
}

int duet_transpose(duet_ctx *ctx, duet_transpose_variant v, size_t rows, size_t cols,
                   const duet_buf *in, size_t ld_in, duet_buf *out, size_t ld_out) {
  if ((unsigned)v >= N_TRANSPOSE) {
    int status = duet__check_ctx(ctx, "duet_transpose");
    return status ? status
                  : duet__fail(ctx, DUET_EINVAL, "duet_transpose: unknown variant %d", (int)v);
  }
  if (v == DUET_TRANSPOSE_AUTO && ctx) v = pick_auto(ctx, ld_out);
  return move(ctx, "duet_transpose", &transpose_variants[v], rows, cols, in, ld_in, out, ld_out,
              cols, rows);
}

int duet_copy(duet_ctx *ctx, size_t rows, size_t cols, const duet_buf *in, size_t ld_in,
              duet_buf *out, size_t ld_out) {
  return move(ctx, "duet_copy", &copy_variant, rows, cols, in, ld_in, out, ld_out, rows, cols);
}
