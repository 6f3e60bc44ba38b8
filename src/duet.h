/* SPDX-License-Identifier: MIT */
/* duet: the same GPU kernels through CUDA and OpenCL, behind one C API.
 *
 * Conventions
 * - Every call that can fail returns an int status: DUET_OK (0) or a negative DUET_E* code.
 *   duet_strerror() turns it into a sentence; duet_ctx_last_error() gives the detail of the
 *   last failure on a context (which argument, which CUDA/OpenCL call, the OpenCL build log).
 * - Matrices are row-major float32. `ld` is the distance in elements between rows (ld >= cols).
 *   A rows x cols matrix needs a buffer of at least ((rows-1)*ld + cols)*4 bytes.
 * - Kernel calls (transpose, copy, sgemm) and duet_buf_copy are enqueued asynchronously on the
 *   context's single in-order queue; duet_finish() or a duet_buf_read() waits for them.
 *
 * The contract
 * - Every pointer, enum, size, leading dimension, buffer size and buffer ownership (a buffer of
 *   another context, an output that aliases an input) is checked before anything is enqueued;
 *   each function's comment names what else it checks. Bad input returns DUET_EINVAL (or the
 *   code named there), writes nothing through any output pointer unless the comment says so
 *   (duet_ctx_create sets *ctx to NULL), never touches device memory, never aborts or exits, and
 *   leaves the context usable. The library prints nothing unless DUET_VERBOSE=1.
 * - Thread safety: a context, and its buffers and events, belong to one host thread at a time.
 *   Different threads may create and use their own contexts at the same time, first contexts
 *   included. The no-context error text (duet_ctx_last_error(NULL)) is per thread.
 * - Destroy order: any. Buffers and events may be destroyed before or after their context; a
 *   context destroyed first stays open for them and is freed with the last of them. Destroying
 *   an object twice, or using it after it was destroyed, is undefined.
 */
#ifndef DUET_H
#define DUET_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define DUET_EXTERN extern __attribute__((visibility("default")))
#else
#define DUET_EXTERN extern
#endif

/* One table gives the status codes, their names and their messages (libuv's X-macro idiom). */
#define DUET_STATUS_MAP(X)                                        \
  X(OK, 0, "success")                                             \
  X(EINVAL, -1, "invalid argument")                               \
  X(ENOMEM, -2, "out of memory (host or device)")                 \
  X(ENODEV, -3, "no such device")                                 \
  X(ENOTBUILT, -4, "backend not compiled into this library")      \
  X(EBUILD, -5, "kernel program failed to build")                 \
  X(EBACKEND, -6, "the CUDA or OpenCL runtime reported an error") \
  X(EUNSUPPORTED, -7, "operation not supported by this backend or device")

typedef enum {
#define DUET__STATUS_ENUM(name, code, msg) DUET_##name = (code),
  DUET_STATUS_MAP(DUET__STATUS_ENUM)
#undef DUET__STATUS_ENUM
} duet_status;

/* The version this header belongs to; duet_version() gives the library's, as "MAJOR.MINOR.PATCH". */
#define DUET_VERSION_MAJOR 0
#define DUET_VERSION_MINOR 1
#define DUET_VERSION_PATCH 0
DUET_EXTERN const char *duet_version(void);
/* Never NULL, also for unknown codes. */
DUET_EXTERN const char *duet_strerror(int status);
/* "DUET_EINVAL" etc.; "DUET_UNKNOWN" for unknown codes. */
DUET_EXTERN const char *duet_status_name(int status);

/* ---- backends ------------------------------------------------------------------------------ */
typedef enum { DUET_BACKEND_AUTO = 0, DUET_BACKEND_CUDA = 1, DUET_BACKEND_OPENCL = 2 } duet_backend;

DUET_EXTERN const char *duet_backend_name(duet_backend b); /* "auto", "cuda", "opencl", "unknown" */
DUET_EXTERN int duet_backend_built(duet_backend b);        /* 1 if compiled in, else 0 */
/* Devices the backend sees now. 0 devices is not an error (DUET_VERBOSE=1 prints the runtime's
 * reason). AUTO is not a backend: EINVAL. A backend not built: ENOTBUILT with *count = 0. */
DUET_EXTERN int duet_device_count(duet_backend b, int *count);

/* ---- contexts ------------------------------------------------------------------------------ */
typedef struct duet_ctx duet_ctx;

/* b == AUTO honours $DUET_BACKEND (cuda, opencl, auto), else takes CUDA if it has a device,
 * else OpenCL. device < 0 means $DUET_DEVICE, else 0. OpenCL devices are numbered GPUs first,
 * then other types, across the platforms whose name contains $DUET_OPENCL_PLATFORM (if set).
 * The OpenCL backend opens the ICD loader at run time, once per process: libOpenCL.so.1, or
 * the file or path $DUET_OPENCL_LIBRARY names. Where it cannot be opened or lacks a function,
 * OpenCL has no device: DUET_ENODEV, and the last error names the file and the loader's reason.
 * OpenCL kernels build on first use; with $DUET_OPENCL_WERROR=1 a build whose log has a
 * warning fails with DUET_EBUILD (CI sets it, to keep the kernels warning-free).
 * On failure *ctx is NULL. */
DUET_EXTERN int duet_ctx_create(duet_ctx **ctx, duet_backend b, int device);
/* NULL is fine. Buffers and events may be destroyed before or after their context: a context
 * destroyed first stays open for them and is freed with the last of them. Once destroyed, a
 * context must not be passed to any other call. */
DUET_EXTERN void duet_ctx_destroy(duet_ctx *ctx);
DUET_EXTERN duet_backend duet_ctx_backend(const duet_ctx *ctx);

typedef enum { DUET_DEVICE_GPU = 0, DUET_DEVICE_CPU = 1, DUET_DEVICE_OTHER = 2 } duet_device_type;

typedef struct {
  duet_backend backend;
  duet_device_type type;
  char name[256];
  char vendor[128];
  char version[128]; /* e.g. "CUDA 13.0, sm_90" or the OpenCL device version */
  unsigned compute_units;
  unsigned max_block_threads;
  /* CUDA: the warp size. OpenCL: NVIDIA's warp or AMD's wavefront where the device reports it,
   * else the preferred work-group multiple of a kernel already built on this context, else 1
   * (duet_ctx_info never builds kernels to find out). */
  unsigned warp_size;
  size_t global_mem_bytes;
  size_t cache_bytes; /* the last-level cache in front of global memory (CUDA: L2); 0: unknown */
  size_t shared_mem_bytes; /* per block / work-group */
} duet_device_info;

DUET_EXTERN int duet_ctx_info(const duet_ctx *ctx, duet_device_info *info);

/* Tuning: every kernel's tunables (tile sides, block shapes, AUTO's thresholds) come from one
 * database with a set of values per kind of device. A context takes the set for its device,
 * or the one $DUET_TUNING names; on OpenCL, $DUET_TUNE="NAME=V,NAME=V" overrides single values
 * (the kernels are compiled at run time; CUDA's are compiled ahead for each set).
 * duet_tuning_set_name(i) lists the sets (NULL past the last); duet_ctx_tuning gives the
 * context's set ("" for NULL); duet_ctx_tunable(ctx, i, &name, &value) gives its i-th tunable,
 * DUET_EINVAL past the last. */
DUET_EXTERN const char *duet_tuning_set_name(int i);
DUET_EXTERN const char *duet_ctx_tuning(const duet_ctx *ctx);
DUET_EXTERN int duet_ctx_tunable(const duet_ctx *ctx, int i, const char **name, int *value);
/* Never NULL; "" when there was no failure. With ctx == NULL: the last failure on this thread
 * that had no context to hold it, e.g. why duet_ctx_create failed. */
DUET_EXTERN const char *duet_ctx_last_error(const duet_ctx *ctx);
/* Waits for all queued work; errors raised by asynchronous work surface here. */
DUET_EXTERN int duet_finish(duet_ctx *ctx);

/* ---- buffers (device memory, sizes in bytes) ----------------------------------------------- */
typedef struct duet_buf duet_buf;

/* bytes > 0. More than the device can hold in one allocation is DUET_ENOMEM, here and not at
 * a later kernel: an allocation the runtime would make lazily is made real before DUET_OK. */
DUET_EXTERN int duet_buf_create(duet_ctx *ctx, size_t bytes, duet_buf **buf);
DUET_EXTERN void duet_buf_destroy(duet_buf *buf); /* NULL is fine */
DUET_EXTERN size_t duet_buf_size(const duet_buf *buf);
/* Blocking; offset + bytes must lie within the buffer; src/dst may be NULL only for 0 bytes. */
DUET_EXTERN int duet_buf_write(duet_buf *buf, size_t offset, const void *src, size_t bytes);
DUET_EXTERN int duet_buf_read(const duet_buf *buf, size_t offset, void *dst, size_t bytes);
/* The vendor's device-to-device copy of the first `bytes` bytes; enqueued. Both buffers of one
 * context, distinct, each at least `bytes` long. */
DUET_EXTERN int duet_buf_copy(duet_buf *dst, const duet_buf *src, size_t bytes);

/* ---- events (timing) ----------------------------------------------------------------------- */
typedef struct duet_event duet_event;

DUET_EXTERN int duet_event_create(duet_ctx *ctx, duet_event **ev);
DUET_EXTERN int duet_event_record(duet_event *ev); /* enqueues a marker; may be re-recorded */
/* Waits for `end`; both events must have been recorded on the same context. *ms is end minus
 * start: negative when end was recorded before start. */
DUET_EXTERN int duet_event_elapsed_ms(const duet_event *start, const duet_event *end, float *ms);
DUET_EXTERN void duet_event_destroy(duet_event *ev);

/* ---- interop ------------------------------------------------------------------------------ */
/* The native handles behind duet objects, so vendor libraries (cuBLAS, CLBlast, ...) can work on
 * duet's buffers in duet's queue. CUDA: a device pointer and a cudaStream_t on the context's
 * device (make it current with cudaSetDevice). OpenCL: a cl_mem and a cl_command_queue (its
 * context and device come from clGetCommandQueueInfo). NULL for a NULL argument. Work enqueued
 * on the queue is ordered with duet's own work and timed by duet events. */
DUET_EXTERN void *duet_buf_native(const duet_buf *buf);
DUET_EXTERN void *duet_ctx_native_queue(const duet_ctx *ctx);
/* The device number the context was created on (after $DUET_DEVICE was applied). */
DUET_EXTERN int duet_ctx_device(const duet_ctx *ctx);

/* ---- transpose and copy -------------------------------------------------------------------- */
typedef enum {
  DUET_TRANSPOSE_AUTO = 0,
  DUET_TRANSPOSE_NAIVE,
  DUET_TRANSPOSE_COALESCED,
  DUET_TRANSPOSE_PADDED,
  /* padded with 64 x 64 tiles and 1024-thread blocks. Where the rows of out do not start on
   * 128-byte boundaries (ld_out not a multiple of 32 floats), each warp's 32-float store
   * straddles five 32-byte sectors, two of them written in part; a 64-float row piece has two
   * partial sectors per 64 floats instead of per 32. Slower than padded when ld_out is aligned.
   * AUTO picks it for such ld_out where the device allows blocks of its size. */
  DUET_TRANSPOSE_PADDED_WIDE
  /* more variants may be appended; AUTO picks the best that exists */
} duet_transpose_variant;

/* out (cols x rows, ld_out >= rows) = in^T (rows x cols). Out-of-place: in == out is EINVAL.
 * rows == 0 or cols == 0 is a valid no-op. */
DUET_EXTERN int duet_transpose(duet_ctx *ctx, duet_transpose_variant v, size_t rows, size_t cols,
                               const duet_buf *in, size_t ld_in, duet_buf *out, size_t ld_out);
/* A kernel copy of the same shape: the bandwidth reference for transpose. */
DUET_EXTERN int duet_copy(duet_ctx *ctx, size_t rows, size_t cols, const duet_buf *in, size_t ld_in,
                          duet_buf *out, size_t ld_out);
/* "auto", "naive", "coalesced", "padded", "padded-wide"; NULL for an unknown value. parse:
 * EINVAL for an unknown or NULL name or a NULL v, and then *v is not written. */
DUET_EXTERN const char *duet_transpose_variant_name(duet_transpose_variant v);
DUET_EXTERN int duet_transpose_variant_parse(const char *name, duet_transpose_variant *v);

/* ---- matrix multiply ----------------------------------------------------------------------- */
typedef enum { DUET_NO_TRANS = 0, DUET_TRANS = 1 } duet_trans;

typedef enum {
  DUET_GEMM_AUTO = 0,
  DUET_GEMM_NAIVE,
  DUET_GEMM_COALESCED,
  DUET_GEMM_TILED,
  /* 2D register blocking: a block computes a BM x BN tile of C in BK-deep steps through shared
   * memory, each thread a TM x TN micro-tile held in registers. */
  DUET_GEMM_REGISTER,
  /* everything that gets to cuBLAS: float4 loads where alignment allows, A stored transposed in
   * shared memory, double-buffered tiles with the next one prefetched into registers, warp
   * tiling, padded shared rows, a block order that keeps tiles in L2; a smaller tile with
   * split-K (scratch from the context, kept until it is destroyed) where big tiles would leave
   * the device's units idle. */
  DUET_GEMM_FAST
  /* more variants may be appended; AUTO picks the best that exists */
} duet_gemm_variant;

/* Row-major C = alpha * op(A) * op(B) + beta * C, with op(A) m x k and op(B) k x n.
 * A is stored m x k (k x m when ta == DUET_TRANS) with lda >= its stored column count; B alike.
 * BLAS semantics: m == 0 or n == 0 is a no-op; k == 0 or alpha == 0 gives C = beta*C without
 * reading A or B; beta == 0 never reads C. */
DUET_EXTERN int duet_sgemm(duet_ctx *ctx, duet_gemm_variant v, duet_trans ta, duet_trans tb,
                           size_t m, size_t n, size_t k, float alpha, const duet_buf *a, size_t lda,
                           const duet_buf *b, size_t ldb, float beta, duet_buf *c, size_t ldc);
/* "auto", "naive", "coalesced", "tiled", "register", "fast"; NULL for an unknown value; parse
 * as for transposes. */
DUET_EXTERN const char *duet_gemm_variant_name(duet_gemm_variant v);
DUET_EXTERN int duet_gemm_variant_parse(const char *name, duet_gemm_variant *v);

#ifdef __cplusplus
}
#endif
#endif /* DUET_H */
