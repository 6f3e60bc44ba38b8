/* Internal contract between the backend-neutral core (src/) and the backends (backends/).
 * Names with duet__ are internal; nothing here is installed. */
#ifndef DUET_INTERNAL_H
#define DUET_INTERNAL_H

#include "config.h"

#include <stdarg.h>
#include <stddef.h>

#include "duet.h"
#include "duet_tunables.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every kernel of both trees: an id for the core and the backends, and the name the kernel has
 * in kernels_cu/ and kernels_cl/. */
#define DUET__KERNEL_MAP(X)                              \
  X(COPY, "duet_copy")                                   \
  X(TRANSPOSE_NAIVE, "duet_transpose_naive")             \
  X(TRANSPOSE_COALESCED, "duet_transpose_coalesced")     \
  X(TRANSPOSE_PADDED, "duet_transpose_padded")           \
  X(TRANSPOSE_PADDED_WIDE, "duet_transpose_padded_wide") \
  X(SCALE, "duet_scale")                                 \
  X(SGEMM_NAIVE, "duet_sgemm_naive")                     \
  X(SGEMM_COALESCED, "duet_sgemm_coalesced")             \
  X(SGEMM_TILED, "duet_sgemm_tiled")

typedef enum {
#define DUET__KERNEL_ENUM(id, name) DUET__K_##id,
  DUET__KERNEL_MAP(DUET__KERNEL_ENUM)
#undef DUET__KERNEL_ENUM
      DUET__K_COUNT
} duet__kernel;

const char *duet__kernel_name(duet__kernel k);

/* One launch, described once: CUDA maps it to <<<grid, block, shared_bytes>>>, OpenCL to
 * global = grid * block, local = block, plus a __local argument of shared_bytes. */
typedef struct {
  size_t grid[3];
  unsigned block[3];
  size_t shared_bytes;
} duet__launch;

/* Kernel arguments, passed in the kernel's parameter order. A __local/shared scratch argument
 * is not listed: the backend derives it from duet__launch.shared_bytes. */
typedef enum { DUET__ARG_MEM, DUET__ARG_I64, DUET__ARG_I32, DUET__ARG_F32 } duet__arg_kind;
typedef struct {
  duet__arg_kind kind;
  union {
    void *mem; /* a backend buffer handle (CUDA device pointer, OpenCL cl_mem) */
    long long i64;
    int i32;
    float f32;
  } u;
} duet__arg;

/* Each backend is one const struct of these at the end of its file (curl's vtls idiom). The core
 * has checked every argument before calling them; they report failures through duet__fail. */
typedef struct duet__backend_ops {
  duet_backend id;
  const char *name;
  int (*device_count)(int *count);
  int (*ctx_open)(duet_ctx *ctx, int device); /* sets ctx->impl */
  void (*ctx_close)(duet_ctx *ctx);
  int (*ctx_info)(duet_ctx *ctx, duet_device_info *info);
  int (*finish)(duet_ctx *ctx);
  int (*mem_alloc)(duet_ctx *ctx, size_t bytes, void **mem);
  void (*mem_free)(duet_ctx *ctx, void *mem);
  int (*mem_write)(duet_ctx *ctx, void *mem, size_t offset, const void *src, size_t bytes);
  int (*mem_read)(duet_ctx *ctx, void *mem, size_t offset, void *dst, size_t bytes);
  int (*mem_copy)(duet_ctx *ctx, void *dst, void *src, size_t bytes);
  int (*event_alloc)(duet_ctx *ctx, void **ev);
  void (*event_free)(duet_ctx *ctx, void *ev);
  int (*event_record)(duet_ctx *ctx, void *ev);
  int (*event_elapsed)(duet_ctx *ctx, void *start, void *end, float *ms);
  void *(*native_queue)(duet_ctx *ctx);
  int (*launch)(duet_ctx *ctx, duet__kernel k, const duet__launch *launch, const duet__arg *args,
                unsigned nargs);
} duet__backend_ops;

#ifdef DUET_HAVE_CUDA
extern const duet__backend_ops duet__cuda_backend;
#endif
#ifdef DUET_HAVE_OPENCL
extern const duet__backend_ops duet__opencl_backend;
#endif

#define DUET__ERRLEN 8192

struct duet_ctx {
  const duet__backend_ops *ops;
  void *impl;
  int device;
  unsigned max_block_threads; /* the device's limits, read once when the context opens */
  size_t shared_mem_bytes;
  char last_error[DUET__ERRLEN];
};

struct duet_buf {
  duet_ctx *ctx;
  void *mem;
  size_t bytes;
};

struct duet_event {
  duet_ctx *ctx;
  void *handle;
  int recorded;
};

/* Records a failure on ctx (may be NULL) and returns status. Prints it when DUET_VERBOSE=1. */
int duet__fail(const duet_ctx *ctx, int status, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Environment lookups shared by the core and the OpenCL backend. */
const char *duet__getenv(const char *name); /* NULL when unset or empty */

/* One row of a routine's variant table: which kernel, the tile of the output one block covers,
 * the block shape and the shared memory it needs. Tables are indexed by the public enum. */
typedef struct {
  const char *name;
  duet__kernel kernel;
  unsigned tile_x, tile_y;
  unsigned block_x, block_y;
  size_t shared_bytes;
  int x_walks_rows; /* the grid's x axis runs along the rows of the output, not its columns */
} duet__variant;

/* 1 when the device can run v's block: its thread count and shared memory. */
int duet__variant_fits(const duet_ctx *ctx, const duet__variant *v);
/* Describes the launch of variant v over a rows x cols output and hands it to the backend. */
int duet__launch_variant(duet_ctx *ctx, const duet__variant *v, size_t rows, size_t cols,
                         const duet__arg *args, unsigned nargs);

/* Name lookups over a variant table of n rows. */
const char *duet__variant_name(const duet__variant *table, size_t n, int v);
int duet__variant_parse(const duet__variant *table, size_t n, const char *name, int *v);

/* Transpose and copy share one descriptor shape: ceil(extent_x/tile_x) by
 * min(ceil(extent_y/tile_y), DUET_MAX_GRID_Y) blocks of block_x x block_y threads. */
duet__launch duet__launch_2d(size_t extent_x, size_t extent_y, unsigned tile_x, unsigned tile_y,
                             unsigned block_x, unsigned block_y, size_t shared_bytes);

/* Argument checks, each returning DUET_OK or DUET_EINVAL with the last-error text set. */
int duet__check_ctx(const duet_ctx *ctx, const char *func);
int duet__check_matrix(const duet_ctx *ctx, const char *func, const char *what, const duet_buf *buf,
                       size_t rows, size_t cols, size_t ld);

static inline duet__arg duet__arg_mem(const duet_buf *b) {
  duet__arg a;
  a.kind = DUET__ARG_MEM;
  a.u.mem = b->mem;
  return a;
}
static inline duet__arg duet__arg_i64(size_t v) {
  duet__arg a;
  a.kind = DUET__ARG_I64;
  a.u.i64 = (long long)v;
  return a;
}
static inline duet__arg duet__arg_i32(int v) {
  duet__arg a;
  a.kind = DUET__ARG_I32;
  a.u.i32 = v;
  return a;
}
static inline duet__arg duet__arg_f32(float v) {
  duet__arg a;
  a.kind = DUET__ARG_F32;
  a.u.f32 = v;
  return a;
}

#ifdef __cplusplus
}
#endif
#endif
