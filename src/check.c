/* SPDX-License-Identifier: MIT */
/* Argument checks shared by every routine. */
#include <stdint.h>
#include <string.h>

#include "duet_internal.h"

int duet__check_ctx(const duet_ctx *ctx, const char *func) {
  if (!ctx) return duet__fail(NULL, DUET_EINVAL, "%s: ctx is NULL", func);
  return DUET_OK;
}

/* A buffer that ctx may use: not NULL, and of ctx's family. */
static int check_buf(const duet_ctx *ctx, const char *func, const char *what, const duet_buf *buf) {
  if (!buf) return duet__fail(ctx, DUET_EINVAL, "%s: buffer %s is NULL", func, what);
  if (!duet__same_family(buf->ctx, ctx))
    return duet__fail(ctx, DUET_EINVAL,
                      "%s: buffer %s belongs to another context (not of this one's family)", func,
                      what);
  return DUET_OK;
}

int duet__check_matrix(const duet_ctx *ctx, const char *func, const char *what, const duet_buf *buf,
                       size_t rows, size_t cols, size_t ld) {
  int status = check_buf(ctx, func, what, buf);
  if (status) return status;
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

int duet__check_vector(const duet_ctx *ctx, const char *func, const char *what, const duet_buf *buf,
                       size_t n) {
  int status = check_buf(ctx, func, what, buf);
  if (status) return status;
  if (n > buf->bytes / sizeof(float))
    return duet__fail(ctx, DUET_EINVAL, "%s: buffer %s holds %zu bytes, but %zu floats need more",
                      func, what, buf->bytes, n);
  return DUET_OK;
}

int duet__parse_count(const char *s, size_t n, long max, long *v) {
  *v = 0;
  if (n == 0 || strspn(s, "0123456789") < n) return DUET_EINVAL;
  for (size_t i = 0; i < n; i++) {
    *v = *v * 10 + (s[i] - '0');
    if (*v > max) return DUET_EINVAL;
  }
  return DUET_OK;
}
