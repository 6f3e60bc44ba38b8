/* SPDX-License-Identifier: MIT */
/* Device buffers: checks here, the memory itself in the backend. */
#include <stdlib.h>

#include "duet_internal.h"

int duet_buf_create(duet_ctx *ctx, size_t bytes, duet_buf **out) {
  int status = duet__check_ctx(ctx, "duet_buf_create");
  if (status) return status;
  if (!out) return duet__fail(ctx, DUET_EINVAL, "duet_buf_create: buf is NULL");
  if (bytes == 0) return duet__fail(ctx, DUET_EINVAL, "duet_buf_create: bytes is 0");
  *out = NULL;
  duet_buf *buf = calloc(1, sizeof *buf);
  if (!buf) return duet__fail(ctx, DUET_ENOMEM, "duet_buf_create: out of host memory");
  if ((status = ctx->ops->mem_alloc(ctx, bytes, &buf->mem))) {
    free(buf);
    return status;
  }
  buf->ctx = ctx;
  buf->bytes = bytes;
  duet__ctx_hold(ctx);
  *out = buf;
  return DUET_OK;
}

void duet_buf_destroy(duet_buf *buf) {
  if (!buf) return;
  duet_ctx *ctx = buf->ctx;
  ctx->ops->mem_free(ctx, buf->mem);
  free(buf);
  duet__ctx_release(ctx);
}

size_t duet_buf_size(const duet_buf *buf) { return buf ? buf->bytes : 0; }

void *duet_buf_native(const duet_buf *buf) { return buf ? buf->mem : NULL; }

/* The host pointer and the buffer's range of a copy; failures are recorded on ctx. */
static int check_span(const duet_ctx *ctx, const duet_buf *buf, const char *func, const void *host,
                      size_t offset, size_t bytes) {
  if (!host && bytes) return duet__fail(ctx, DUET_EINVAL, "%s: host pointer is NULL", func);
  if (offset > buf->bytes || bytes > buf->bytes - offset)
    return duet__fail(ctx, DUET_EINVAL,
                      "%s: %zu bytes at offset %zu run past the end of a %zu-byte buffer", func,
                      bytes, offset, buf->bytes);
  return DUET_OK;
}

static int check_range(const duet_buf *buf, const char *func, const void *host, size_t offset,
                       size_t bytes) {
  if (!buf) return duet__fail(NULL, DUET_EINVAL, "%s: buf is NULL", func);
  return check_span(buf->ctx, buf, func, host, offset, bytes);
}

int duet_buf_write(duet_buf *buf, size_t offset, const void *src, size_t bytes) {
  int status = check_range(buf, "duet_buf_write", src, offset, bytes);
  if (status || !bytes) return status;
  return buf->ctx->ops->mem_write(buf->ctx, buf->mem, offset, src, bytes);
}

int duet_buf_read(const duet_buf *buf, size_t offset, void *dst, size_t bytes) {
  int status = check_range(buf, "duet_buf_read", dst, offset, bytes);
  if (status || !bytes) return status;
  return buf->ctx->ops->mem_read(buf->ctx, buf->mem, offset, dst, bytes);
}

int duet_buf_copy(duet_buf *dst, const duet_buf *src, size_t bytes) {
  if (!dst || !src)
    return duet__fail(dst   ? dst->ctx
                      : src ? src->ctx
                            : NULL,
                      DUET_EINVAL, "duet_buf_copy: %s is NULL", dst ? "src" : "dst");
  duet_ctx *ctx = dst->ctx;
  if (!duet__same_family(src->ctx, ctx))
    return duet__fail(ctx, DUET_EINVAL,
                      "duet_buf_copy: src and dst belong to contexts of different families");
  if (src == dst)
    return duet__fail(ctx, DUET_EINVAL, "duet_buf_copy: src and dst are the same buffer");
  if (bytes > src->bytes || bytes > dst->bytes)
    return duet__fail(ctx, DUET_EINVAL,
                      "duet_buf_copy: %zu bytes exceed src (%zu bytes) or dst (%zu bytes)", bytes,
                      src->bytes, dst->bytes);
  if (!bytes) return DUET_OK;
  return ctx->ops->mem_copy(ctx, dst->mem, src->mem, bytes);
}

/* The async copies run on ctx's queue, which may be another member of the buffer's family. */
static int check_async(duet_ctx *ctx, const duet_buf *buf, const char *func, const void *host,
                       size_t offset, size_t bytes) {
  int status = duet__check_ctx(ctx, func);
  if (status) return status;
  if (!buf) return duet__fail(ctx, DUET_EINVAL, "%s: buf is NULL", func);
  if (!duet__same_family(buf->ctx, ctx))
    return duet__fail(ctx, DUET_EINVAL, "%s: buf belongs to a context of another family", func);
  return check_span(ctx, buf, func, host, offset, bytes);
}

int duet_buf_write_async(duet_ctx *ctx, duet_buf *buf, size_t offset, const void *src,
                         size_t bytes) {
  int status = check_async(ctx, buf, "duet_buf_write_async", src, offset, bytes);
  if (status || !bytes) return status;
  return ctx->ops->mem_write_async(ctx, buf->mem, offset, src, bytes);
}

int duet_buf_read_async(duet_ctx *ctx, const duet_buf *buf, size_t offset, void *dst,
                        size_t bytes) {
  int status = check_async(ctx, buf, "duet_buf_read_async", dst, offset, bytes);
  if (status || !bytes) return status;
  return ctx->ops->mem_read_async(ctx, buf->mem, offset, dst, bytes);
}
