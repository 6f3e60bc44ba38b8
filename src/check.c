/* Argument checks shared by every routine, and the 2D launch shape they all use. */
#include <stdint.h>

#include "duet_internal.h"

int duet__check_ctx(const duet_ctx *ctx, const char *func) {
  if (!ctx) return duet__fail(NULL, DUET_EINVAL, "%s: ctx is NULL", func);
  return DUET_OK;
}

int duet__check_matrix(const duet_ctx *ctx, const char *func, const char *what, const duet_buf *buf,
                       size_t rows, size_t cols, size_t ld) {
  if (!buf) return duet__fail(ctx, DUET_EINVAL, "%s: buffer %s is NULL", func, what);
  if (buf->ctx != ctx)
    return duet__fail(ctx, DUET_EINVAL, "%s: buffer %s belongs to another context", func, what);
  if (ld < cols)
    return duet__fail(ctx, DUET_EINVAL, "%s: ld of %s is %zu, less than its %zu columns", func,
                      what, ld, cols);
  if (rows == 0 || cols == 0) return DUET_OK;
  /* ((rows-1)*ld + cols) * sizeof(float), refusing anything that wraps size_t; kernels index
   * with 64-bit arithmetic, so a matrix that fits in size_t fits their index type too. */
  size_t elems, bytes;
  if (__builtin_mul_overflow(rows - 1, ld, &elems) || __builtin_add_overflow(elems, cols, &elems) ||
      __builtin_mul_overflow(elems, sizeof(float), &bytes) || elems > (size_t)INT64_MAX)
    return duet__fail(ctx, DUET_EINVAL,
                      "%s: %s of %zu x %zu with ld %zu overflows the size arithmetic", func, what,
                      rows, cols, ld);
  if (bytes > buf->bytes)
    return duet__fail(ctx, DUET_EINVAL,
                      "%s: buffer %s holds %zu bytes, but a %zu x %zu matrix with ld %zu needs %zu",
                      func, what, buf->bytes, rows, cols, ld, bytes);
  return DUET_OK;
}

static size_t ceil_div(size_t a, size_t b) { return a / b + (a % b != 0); }

duet__launch duet__launch_2d(size_t extent_x, size_t extent_y, unsigned tile_x, unsigned tile_y,
                             unsigned block_x, unsigned block_y, size_t shared_bytes) {
  size_t tiles_y = ceil_div(extent_y, tile_y);
  duet__launch l = {
      {ceil_div(extent_x, tile_x), tiles_y < DUET_MAX_GRID_Y ? tiles_y : DUET_MAX_GRID_Y, 1},
      {block_x, block_y, 1},
      shared_bytes};
  return l;
}

int duet__variant_fits(const duet_ctx *ctx, const duet__variant *v) {
  return v->block_x * v->block_y <= ctx->max_block_threads &&
         v->shared_bytes <= ctx->shared_mem_bytes;
}

int duet__launch_variant(duet_ctx *ctx, const duet__variant *v, size_t rows, size_t cols,
                         const duet__arg *args, unsigned nargs) {
  const size_t x = v->x_walks_rows ? rows : cols, y = v->x_walks_rows ? cols : rows;
  duet__launch l =
      duet__launch_2d(x, y, v->tile_x, v->tile_y, v->block_x, v->block_y, v->shared_bytes);
  if (!duet__variant_fits(ctx, v))
    return duet__fail(ctx, DUET_EUNSUPPORTED,
                      "%s: a block of %u threads with %zu bytes of shared memory exceeds this "
                      "device's %u threads and %zu bytes",
                      duet__kernel_name(v->kernel), v->block_x * v->block_y, v->shared_bytes,
                      ctx->max_block_threads, ctx->shared_mem_bytes);
  /* Kernels number their blocks with 32-bit arithmetic (band_order). No buffer a device can
   * hold reaches this, but the core says so rather than let the ids wrap. */
  size_t blocks;
  if (__builtin_mul_overflow(l.grid[0], l.grid[1], &blocks) || blocks > UINT32_MAX)
    return duet__fail(ctx, DUET_EUNSUPPORTED, "%s: a grid of %zu x %zu blocks exceeds 2^32 blocks",
                      duet__kernel_name(v->kernel), l.grid[0], l.grid[1]);
  return ctx->ops->launch(ctx, v->kernel, &l, args, nargs);
}
