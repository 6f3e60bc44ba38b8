/* SPDX-License-Identifier: MIT */
/**
 * @file duet.h
 * @brief duet: the same GPU kernels through CUDA and OpenCL, behind one C API.
 *
 * @par Conventions
 * - Every call that can fail returns an int status: #DUET_OK (0) or a negative `DUET_E*` code
 *   (#duet_status). duet_strerror() turns it into a sentence; duet_ctx_last_error() gives the
 *   detail of the last failure on a context (which argument, which CUDA/OpenCL call, the OpenCL
 *   build log).
 * - Matrices are row-major float32. `ld` is the distance in elements between rows (ld >= cols).
 *   A rows x cols matrix needs a buffer of at least ((rows-1)*ld + cols)*4 bytes.
 * - Kernel calls (transpose, copy, sgemm), duet_buf_copy() and the `_async` copies are enqueued
 *   asynchronously on the context's in-order queue; duet_finish() or a duet_buf_read() waits for
 *   them. More queues on the same device come from duet_ctx_create_shared(): a family of
 *   contexts that share buffers, each with its own queue, ordered among each other by
 *   duet_event_wait().
 *
 * @par The contract
 * - Every pointer, enum, size, leading dimension, buffer size and buffer ownership (a buffer of
 *   another context, an output that aliases an input) is checked before anything is enqueued;
 *   each function's documentation names what else it checks. Bad input returns #DUET_EINVAL (or
 *   the code named there), writes nothing through any output pointer unless the documentation
 *   says so (duet_ctx_create() sets *ctx to NULL), never touches device memory, never aborts or
 *   exits, and leaves the context usable. The library prints nothing unless `DUET_VERBOSE=1`;
 *   what a vendor's kernel compiler writes itself is not the library's to silence: PoCL prints
 *   "1 error generated." on stderr when an OpenCL kernel group fails to build (the build log is
 *   in the last-error text too). Redirecting the process's stderr around a build would hide
 *   other threads' output, so the library does not.
 * - Thread safety: a context, and its buffers and events, belong to one host thread at a time.
 *   Different threads may create and use their own contexts at the same time, first contexts
 *   included, and so may the contexts of one family (each thread its own member; a buffer
 *   used on two members at once must only be read by both). The no-context error text
 * (duet_ctx_last_error(NULL)) is per thread.
 * - Destroy order: any. Buffers and events may be destroyed before or after their context; a
 *   context destroyed first stays open for them and is freed with the last of them. Destroying
 *   an object twice, or using it after it was destroyed, is undefined.
 *
 * @par Environment
 * `DUET_BACKEND`, `DUET_DEVICE`, `DUET_OPENCL_PLATFORM`, `DUET_TUNING`, `DUET_TUNE` and
 * `DUET_VERBOSE` are read as described at duet_ctx_create(), duet_tuning_set_name() and above.
 */
#ifndef DUET_H
#define DUET_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Marks the library's exported functions (every other symbol of libduet is hidden). */
#if defined(__GNUC__)
#define DUET_EXTERN extern __attribute__((visibility("default")))
#else
#define DUET_EXTERN extern
#endif

/**
 * The status codes as one table, a row `X(NAME, code, message)` per code: it gives the values
 * of #duet_status, their names (duet_status_name()) and their messages (duet_strerror()), as
 * in libuv's X-macro idiom. Callers may expand it with their own X to list every code.
 */
#define DUET_STATUS_MAP(X)                                        \
  X(OK, 0, "success")                                             \
  X(EINVAL, -1, "invalid argument")                               \
  X(ENOMEM, -2, "out of memory (host or device)")                 \
  X(ENODEV, -3, "no such device")                                 \
  X(ENOTBUILT, -4, "backend not compiled into this library")      \
  X(EBUILD, -5, "kernel program failed to build")                 \
  X(EBACKEND, -6, "the CUDA or OpenCL runtime reported an error") \
  X(EUNSUPPORTED, -7, "operation not supported by this backend or device")

/** The status every fallible call returns: #DUET_OK or a negative code. */
typedef enum {
#define DUET__STATUS_ENUM(name, code, msg) DUET_##name = (code),
  DUET_STATUS_MAP(DUET__STATUS_ENUM)
#undef DUET__STATUS_ENUM
} duet_status;
/** @var DUET_OK
 *  Success (0). */
/** @var DUET_EINVAL
 *  Invalid argument: a NULL pointer, an unknown enum value, a size or leading dimension out of
 *  range, a buffer too small, of another context, or an output aliasing an input. */
/** @var DUET_ENOMEM
 *  Out of host or device memory, or more than the device can hold in one allocation. */
/** @var DUET_ENODEV
 *  No such device: the backend sees no device, or fewer than the number asked for. */
/** @var DUET_ENOTBUILT
 *  The backend was not compiled into this library (configure left it out). */
/** @var DUET_EBUILD
 *  A kernel program failed to build (OpenCL: the build log is in duet_ctx_last_error()), or a
 *  compiled kernel does not assume the block the core would launch. */
/** @var DUET_EBACKEND
 *  The CUDA or OpenCL runtime reported an error; duet_ctx_last_error() names the call and its
 *  error. */
/** @var DUET_EUNSUPPORTED
 *  The operation or variant is not supported by this backend or device (e.g. a variant whose
 *  block exceeds the device's limit, or a kernel's value in `DUET_TUNE` on CUDA). */

/** The major version of the API this header belongs to. */
#define DUET_VERSION_MAJOR 0
/** The minor version of the API this header belongs to. */
#define DUET_VERSION_MINOR 2
/** The patch level of the API this header belongs to. */
#define DUET_VERSION_PATCH 0
/**
 * The library's version, which may differ from the header's #DUET_VERSION_MAJOR etc.
 * @return a static string, "MAJOR.MINOR.PATCH".
 */
DUET_EXTERN const char *duet_version(void);
/**
 * A sentence describing a status code.
 * @param status a #duet_status value, or any int.
 * @return a static string; never NULL, also for unknown codes.
 */
DUET_EXTERN const char *duet_strerror(int status);
/**
 * The name of a status code.
 * @param status a #duet_status value, or any int.
 * @return the enum name, e.g. "DUET_EINVAL"; "DUET_UNKNOWN" for unknown codes.
 */
DUET_EXTERN const char *duet_status_name(int status);

/* ---- backends ------------------------------------------------------------------------------ */
/** A backend: the runtime a context runs its kernels through. */
typedef enum {
  DUET_BACKEND_AUTO = 0,  /**< not a backend: let duet_ctx_create() choose */
  DUET_BACKEND_CUDA = 1,  /**< the CUDA runtime, NVIDIA GPUs */
  DUET_BACKEND_OPENCL = 2 /**< OpenCL, any vendor's device (CPUs too, e.g. through PoCL) */
} duet_backend;

/**
 * The name of a backend.
 * @param b the backend.
 * @return the name, "auto", "cuda" or "opencl"; "unknown" for any other value.
 */
DUET_EXTERN const char *duet_backend_name(duet_backend b);
/**
 * Whether a backend was compiled into this library.
 * @param b the backend; #DUET_BACKEND_AUTO and unknown values give 0.
 * @return 1 if compiled in, else 0.
 */
DUET_EXTERN int duet_backend_built(duet_backend b);
/**
 * The devices a backend sees now. 0 devices is not an error (`DUET_VERBOSE=1` prints the
 * runtime's reason).
 * @param b #DUET_BACKEND_CUDA or #DUET_BACKEND_OPENCL; AUTO is not a backend: #DUET_EINVAL.
 * @param[out] count the number of devices.
 * @return #DUET_OK; #DUET_ENOTBUILT with *count = 0 for a backend not built; #DUET_EINVAL.
 */
DUET_EXTERN int duet_device_count(duet_backend b, int *count);

/* ---- contexts ------------------------------------------------------------------------------ */
/** A context: one device with one in-order queue (opaque); see duet_ctx_create_shared() for
 *  more queues on one device. */
typedef struct duet_ctx duet_ctx;

/**
 * Opens a context on a device.
 *
 * b == #DUET_BACKEND_AUTO honours `$DUET_BACKEND` (cuda, opencl, auto), else takes CUDA if it
 * has a device, else OpenCL. OpenCL devices are numbered GPUs first, then other types, across
 * the platforms whose name contains `$DUET_OPENCL_PLATFORM` (if set).
 *
 * The OpenCL backend opens the ICD loader at run time, once per process: `libOpenCL.so.1`, or
 * the file or path `$DUET_OPENCL_LIBRARY` names. Where it cannot be opened or lacks a function,
 * OpenCL has no device: #DUET_ENODEV, and the last error names the file and the loader's reason.
 * OpenCL kernels build on first use, each kernel alone; with `$DUET_OPENCL_WERROR=1` a build
 * whose log has a warning fails with #DUET_EBUILD (CI sets it, to keep the kernels
 * warning-free). Contexts open on one OpenCL device share its cl_context and every program
 * built on it, so a second context builds nothing the open ones built. A program not in memory
 * comes from the disk cache when an earlier process stored it there: `$DUET_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/duet`, else `~/.cache/duet`; `DUET_CACHE_DIR=off` turns it off. An entry is
 * keyed by the source, the options, the device, its driver and duet's version; one that is
 * damaged or stale is built again, and a directory that cannot be written only costs the cache.
 * @param[out] ctx the new context; NULL on failure.
 * @param b the backend, or #DUET_BACKEND_AUTO.
 * @param device the device number within the backend; < 0 means `$DUET_DEVICE`, else 0.
 * @return #DUET_OK or a negative #duet_status, e.g. #DUET_ENOTBUILT, #DUET_ENODEV,
 *         #DUET_EINVAL for a `$DUET_TUNE` that is not NAME=V,... or breaks a tunable's rule
 *         (see duet_tuning_set_name()), or #DUET_EUNSUPPORTED for a kernel's value in
 *         `$DUET_TUNE` on CUDA; why is in duet_ctx_last_error(NULL).
 */
DUET_EXTERN int duet_ctx_create(duet_ctx **ctx, duet_backend b, int device);
/**
 * Destroys a context. Buffers and events may be destroyed before or after their context: a
 * context destroyed first stays open for them and is freed with the last of them. Once
 * destroyed, a context must not be passed to any other call.
 * @param ctx the context; NULL is fine.
 */
DUET_EXTERN void duet_ctx_destroy(duet_ctx *ctx);
/**
 * Opens another context on the parent's device, with its own in-order queue (CUDA: a stream that
 * does not synchronise with the legacy default stream; OpenCL: a command queue on the parent's
 * `cl_context`), in the parent's *family*. A family shares its device state: a buffer made on
 * any member may be passed to every member (as input, output, or to duet_buf_write_async() /
 * duet_buf_read_async()), and the members share the built kernel programs (OpenCL: each member
 * makes its own `cl_kernel` objects from them, so that two threads never set the arguments of
 * one kernel object). Work on two members runs in any order unless ordered by duet_event_wait().
 * Each member has its own scratch memory for multi-launch routines, so no member's queued work
 * shares it with another's. The new context has the parent's backend, device and tuning values.
 *
 * Destroy order: any. The family's shared state lives until its last member, buffer, event and
 * pinned allocation are gone.
 * @param[out] ctx the new context; NULL on failure.
 * @param parent any context; its family becomes the new context's. It may be in use by another
 *        thread meanwhile.
 * @return #DUET_OK; #DUET_EINVAL for a NULL argument; #DUET_ENOMEM, #DUET_EBACKEND; why is in
 *         duet_ctx_last_error(NULL), as for duet_ctx_create().
 */
DUET_EXTERN int duet_ctx_create_shared(duet_ctx **ctx, duet_ctx *parent);
/**
 * The backend a context runs on.
 * @param ctx the context.
 * @return #DUET_BACKEND_CUDA or #DUET_BACKEND_OPENCL; #DUET_BACKEND_AUTO for NULL.
 */
DUET_EXTERN duet_backend duet_ctx_backend(const duet_ctx *ctx);

/** The kind of a device. */
typedef enum {
  DUET_DEVICE_GPU = 0,  /**< a GPU */
  DUET_DEVICE_CPU = 1,  /**< a CPU (e.g. PoCL's OpenCL device) */
  DUET_DEVICE_OTHER = 2 /**< an accelerator of another kind */
} duet_device_type;

/** What duet_ctx_info() reports about a context's device. */
typedef struct {
  duet_backend backend;       /**< the backend the context runs on */
  duet_device_type type;      /**< GPU, CPU or other */
  char name[256];             /**< the device's name */
  char vendor[128];           /**< the device's vendor */
  char version[128];          /**< e.g. "CUDA 13.0, sm_90" or the OpenCL device version */
  unsigned compute_units;     /**< CUDA: multiprocessors; OpenCL: compute units */
  unsigned max_block_threads; /**< the most threads (work-items) in one block (work-group) */
  /** CUDA: the warp size. OpenCL: NVIDIA's warp or AMD's wavefront where the device reports it,
   * else the preferred work-group multiple of a kernel already built on this context, else 1
   * (duet_ctx_info() never builds kernels to find out). */
  unsigned warp_size;
  size_t global_mem_bytes; /**< the device's global memory */
  size_t cache_bytes; /**< the last-level cache in front of global memory (CUDA: L2); 0: unknown */
  /** The most shared (OpenCL: local) memory one block (work-group) may have, static and dynamic
   * together: what duet_launch() lets a kernel without static shared memory ask for, and what
   * duet's own kernels are held to. CUDA: the opt-in limit
   * (cudaDevAttrMaxSharedMemoryPerBlockOptin, e.g. 227 KiB on an H100), which duet opts each kernel
   * into past the default 48 KiB; OpenCL: CL_DEVICE_LOCAL_MEM_SIZE. */
  size_t shared_mem_bytes;
} duet_device_info;

/**
 * Describes a context's device.
 * @param ctx the context.
 * @param[out] info filled on success.
 * @return #DUET_OK or #DUET_EINVAL.
 */
DUET_EXTERN int duet_ctx_info(const duet_ctx *ctx, duet_device_info *info);

/**
 * The names of the tuning sets.
 *
 * Tuning: every kernel's tunables (tile sides, block shapes, AUTO's thresholds) come from one
 * database with a set of values per kind of device. A context takes the set for its device, or
 * the one `$DUET_TUNING` names; `$DUET_TUNE="NAME=V,NAME=V"` overrides single values: on OpenCL
 * any (the kernels are compiled at run time), on CUDA only those that steer the core's plans
 * (e.g. GEMM_FAST_STRIPS, GEMM_PACK_MIN_INTENSITY, GEMM_FAST_BIG_PCT; its kernels are compiled
 * ahead for each set, and a kernel's value gives #DUET_EUNSUPPORTED). Each V is digits only
 * (no blank, sign or base), 1..4096 (0 where 0 means off; up to 2^20 for a depth of k, a name
 * ending in _K). The values in force must keep the
 * rules the kernels assume, listed next to each tunable in the database (for example
 * TRANSPOSE_ROWS divides TRANSPOSE_TILE, GEMM_SKINNY_S is at most 32): duet_ctx_create() fails
 * with #DUET_EINVAL naming the rule broken.
 * @param i 0, 1, ...
 * @return the i-th set's name; NULL past the last (and for i < 0).
 */
DUET_EXTERN const char *duet_tuning_set_name(int i);
/**
 * The tuning set a context uses (see duet_tuning_set_name()).
 * @param ctx the context.
 * @return the set's name; "" for NULL.
 */
DUET_EXTERN const char *duet_ctx_tuning(const duet_ctx *ctx);
/**
 * One tunable of a context's kernels and its value.
 * @param ctx the context.
 * @param i 0, 1, ...: the tunable's index.
 * @param[out] name the tunable's name, a static string.
 * @param[out] value its value on this context.
 * @return #DUET_OK; #DUET_EINVAL past the last tunable, or for a NULL argument.
 */
DUET_EXTERN int duet_ctx_tunable(const duet_ctx *ctx, int i, const char **name, int *value);
/**
 * The detail of the last failure on a context.
 * @param ctx the context, or NULL: then the last failure on this thread that had no context to
 *        hold it, e.g. why duet_ctx_create() failed.
 * @return never NULL; "" when there was no failure.
 */
DUET_EXTERN const char *duet_ctx_last_error(const duet_ctx *ctx);
/**
 * Waits for all queued work; errors raised by asynchronous work surface here.
 * @param ctx the context.
 * @return #DUET_OK or a negative #duet_status.
 */
DUET_EXTERN int duet_finish(duet_ctx *ctx);

/* ---- buffers (device memory, sizes in bytes) ----------------------------------------------- */
/** A buffer of device memory (opaque). */
typedef struct duet_buf duet_buf;

/**
 * Allocates device memory. More than the device can hold in one allocation is #DUET_ENOMEM,
 * here and not at a later kernel: an allocation the runtime would make lazily is made real
 * before #DUET_OK.
 * @param ctx the context.
 * @param bytes the size, > 0.
 * @param[out] buf the new buffer.
 * @return #DUET_OK or a negative #duet_status (#DUET_ENOMEM: too large).
 */
DUET_EXTERN int duet_buf_create(duet_ctx *ctx, size_t bytes, duet_buf **buf);
/**
 * Frees a buffer.
 * @param buf the buffer; NULL is fine.
 */
DUET_EXTERN void duet_buf_destroy(duet_buf *buf);
/**
 * A buffer's size.
 * @param buf the buffer.
 * @return its size in bytes; 0 for NULL.
 */
DUET_EXTERN size_t duet_buf_size(const duet_buf *buf);
/**
 * Copies host memory into a buffer; blocking.
 * @param buf the buffer.
 * @param offset where in the buffer, in bytes; offset + bytes must lie within the buffer.
 * @param src host memory; may be NULL only for 0 bytes.
 * @param bytes how many bytes.
 * @return #DUET_OK or a negative #duet_status.
 */
DUET_EXTERN int duet_buf_write(duet_buf *buf, size_t offset, const void *src, size_t bytes);
/**
 * Copies a buffer into host memory; blocking, and it waits for earlier work on the queue.
 * @param buf the buffer.
 * @param offset where in the buffer, in bytes; offset + bytes must lie within the buffer.
 * @param dst host memory; may be NULL only for 0 bytes.
 * @param bytes how many bytes.
 * @return #DUET_OK or a negative #duet_status.
 */
DUET_EXTERN int duet_buf_read(const duet_buf *buf, size_t offset, void *dst, size_t bytes);
/**
 * Copies host memory into a buffer; enqueued on ctx's queue, after its earlier work. The host
 * memory must stay valid and unchanged until the queue has passed the copy (duet_finish(), or
 * an event recorded after it). Asynchronous with pinned memory (duet_host_alloc()); with other
 * memory it is correct but may wait for the copy before it returns, and overlaps nothing.
 * @param ctx the queue: the buffer's context or one of its family.
 * @param buf the buffer.
 * @param offset where in the buffer, in bytes; offset + bytes must lie within the buffer.
 * @param src host memory; may be NULL only for 0 bytes.
 * @param bytes how many bytes; 0 enqueues nothing.
 * @return #DUET_OK or a negative #duet_status (#DUET_EINVAL: a buffer of another family).
 */
DUET_EXTERN int duet_buf_write_async(duet_ctx *ctx, duet_buf *buf, size_t offset, const void *src,
                                     size_t bytes);
/**
 * Copies a buffer into host memory; enqueued on ctx's queue, after its earlier work. `dst` holds
 * the data once the queue has passed the copy (duet_finish(), or an event recorded after it);
 * until then it must stay valid. Asynchronous with pinned memory (duet_host_alloc()); with other
 * memory it is correct but may wait for the copy before it returns.
 * @param ctx the queue: the buffer's context or one of its family.
 * @param buf the buffer.
 * @param offset where in the buffer, in bytes; offset + bytes must lie within the buffer.
 * @param dst host memory; may be NULL only for 0 bytes.
 * @param bytes how many bytes; 0 enqueues nothing.
 * @return #DUET_OK or a negative #duet_status (#DUET_EINVAL: a buffer of another family).
 */
DUET_EXTERN int duet_buf_read_async(duet_ctx *ctx, const duet_buf *buf, size_t offset, void *dst,
                                    size_t bytes);
/**
 * The vendor's device-to-device copy of the first `bytes` bytes; enqueued.
 * @param dst the destination: of the same context as src, distinct from it, at least `bytes`
 *        long.
 * @param src the source, at least `bytes` long.
 * @param bytes how many bytes.
 * @return #DUET_OK or a negative #duet_status.
 */
DUET_EXTERN int duet_buf_copy(duet_buf *dst, const duet_buf *src, size_t bytes);

/* ---- pinned host memory ------------------------------------------------------------------ */
/**
 * Allocates page-locked ("pinned") host memory, which the device can copy to and from by DMA:
 * the `_async` copies then return without waiting for the copy, so that it may run beside
 * kernels on other queues (`duet-bench overlap` measures how far it does). CUDA:
 * cudaHostAlloc. OpenCL: a `CL_MEM_ALLOC_HOST_PTR` buffer mapped for the life of the
 * allocation, the pinned memory of NVIDIA's OpenCL best-practices guide; other platforms may
 * give ordinary memory, which works the same.
 * @param ctx the context; the memory may be used with every context of its family.
 * @param bytes the size, > 0.
 * @param[out] ptr the memory, aligned for any type; not written on failure.
 * @return #DUET_OK; #DUET_EINVAL; #DUET_ENOMEM; #DUET_EBACKEND.
 */
DUET_EXTERN int duet_host_alloc(duet_ctx *ctx, size_t bytes, void **ptr);
/**
 * Frees memory from duet_host_alloc(). Work still queued on it must have finished. A pointer
 * that duet_host_alloc() did not return (or one already freed, or one of another family) is
 * refused: nothing is freed, and duet_ctx_last_error(ctx) says why.
 * @param ctx a context of the family the memory was allocated on, not yet destroyed (so free
 *        pinned memory before the family's last context; until then it holds the family open).
 * @param ptr the memory; NULL is fine.
 */
DUET_EXTERN void duet_host_free(duet_ctx *ctx, void *ptr);

/* ---- events (timing) ----------------------------------------------------------------------- */
/** A timestamp in a context's queue (opaque). */
typedef struct duet_event duet_event;

/**
 * Creates an event on a context.
 * @param ctx the context.
 * @param[out] ev the new event.
 * @return #DUET_OK or a negative #duet_status.
 */
DUET_EXTERN int duet_event_create(duet_ctx *ctx, duet_event **ev);
/**
 * Enqueues a marker; an event may be re-recorded.
 * @param ev the event.
 * @return #DUET_OK or a negative #duet_status.
 */
DUET_EXTERN int duet_event_record(duet_event *ev);
/**
 * Makes ctx's queue wait, without blocking the host, until the queue `ev` was last recorded on
 * has passed that point: work enqueued on ctx afterwards runs after the work enqueued there
 * before the record. Recording `ev` again later does not change what was waited for.
 * @param ctx the waiting context.
 * @param ev an event recorded on a context of ctx's family (ctx itself is fine).
 * @return #DUET_OK; #DUET_EINVAL for NULL, an event of another family, or one never recorded.
 */
DUET_EXTERN int duet_event_wait(duet_ctx *ctx, const duet_event *ev);
/**
 * The time between two recorded events; waits for both.
 * @param start the first event.
 * @param end the second event; both must have been recorded on contexts of one family (one
 *        context, or members made by duet_ctx_create_shared: their queues share the device's
 *        clock, so events of two queues compare).
 * @param[out] ms end minus start in milliseconds: negative when end's queue passed its point
 *        before start's did.
 * @return #DUET_OK; #DUET_EINVAL for NULL, an event never recorded, or events of contexts of
 *         different families; #DUET_EUNSUPPORTED on OpenCL queues made without profiling
 *         (`$DUET_OPENCL_PROFILING=0`); or another negative #duet_status.
 */
DUET_EXTERN int duet_event_elapsed_ms(const duet_event *start, const duet_event *end, float *ms);
/**
 * Frees an event.
 * @param ev the event; NULL is fine.
 */
DUET_EXTERN void duet_event_destroy(duet_event *ev);

/* ---- interop ------------------------------------------------------------------------------ */
/**
 * The native handle behind a buffer, so vendor libraries (cuBLAS, CLBlast, ...) can work on
 * duet's buffers in duet's queue.
 * @param buf the buffer.
 * @return CUDA: the device pointer (on the context's device). OpenCL: the `cl_mem`. NULL for
 *         NULL.
 */
DUET_EXTERN void *duet_buf_native(const duet_buf *buf);
/**
 * The native queue behind a context. Work enqueued on it is ordered with duet's own work and
 * timed by duet events.
 * @param ctx the context.
 * @return CUDA: a `cudaStream_t` on the context's device (make it current with cudaSetDevice).
 *         OpenCL: a `cl_command_queue` (its context and device come from
 *         clGetCommandQueueInfo). NULL for NULL.
 */
DUET_EXTERN void *duet_ctx_native_queue(const duet_ctx *ctx);
/**
 * The device number the context was created on (after `$DUET_DEVICE` was applied).
 * @param ctx the context.
 * @return the device number; -1 for NULL.
 */
DUET_EXTERN int duet_ctx_device(const duet_ctx *ctx);

/* ---- your own kernels (duet_kernel.h) ------------------------------------------------------ */
/** A kernel source compiled for one context's device (opaque). */
typedef struct duet_program duet_program;

/**
 * One argument of a duet_launch(): made by duet_arg_buf(), duet_arg_i32(), duet_arg_i64() or
 * duet_arg_f32(); its fields are duet's own.
 */
typedef struct duet_arg {
  int kind; /**< duet's own: which member of u is set */
  /** duet's own: the value. */
  union {
    const duet_buf *buf; /**< a buffer */
    int i32;             /**< an int */
    long long i64;       /**< a 64-bit integer */
    float f32;           /**< a float */
  } u;
} duet_arg;

/**
 * A buffer argument, for a #DUET_GLOBAL pointer parameter (duet_kernel.h).
 * @param buf the buffer; it must belong to the program's context (checked by duet_launch()).
 * @return the argument.
 */
DUET_EXTERN duet_arg duet_arg_buf(const duet_buf *buf);
/**
 * An `int` (or `unsigned int`) argument.
 * @param v the value.
 * @return the argument.
 */
DUET_EXTERN duet_arg duet_arg_i32(int v);
/**
 * A 64-bit integer argument, for a #DUET_I64 parameter.
 * @param v the value.
 * @return the argument.
 */
DUET_EXTERN duet_arg duet_arg_i64(long long v);
/**
 * A `float` argument.
 * @param v the value.
 * @return the argument.
 */
DUET_EXTERN duet_arg duet_arg_f32(float v);

/**
 * Compiles a kernel source written in the dialect of duet_kernel.h for a context's device.
 *
 * duet puts duet_kernel.h in front of the source (a line `#include <duet_kernel.h>` in it is
 * blanked out) and compiles it: on OpenCL with clBuildProgram (OpenCL C 1.2, with kernel
 * argument info; `-Werror` too under `$DUET_OPENCL_WERROR=1`); on CUDA with NVRTC for the
 * device's architecture (`--gpu-architecture=sm_XY`), loading the machine code it gives.
 * NVRTC is opened at run time: `$DUET_NVRTC_LIBRARY` if set, else `libnvrtc.so.13`,
 * `libnvrtc.so.12`, `libnvrtc.so`; without it, #DUET_EUNSUPPORTED names the files tried.
 * On OpenCL the built program goes through the program cache of duet_ctx_create(): shared
 * with the contexts open on the device, and stored on disk for later processes (on CUDA, the
 * CUBIN is); not on disk when `options` has an `-I` or the source an `#include`, whose files
 * are not part of the key.
 * Kernels are looked up by name at their first duet_launch().
 * @param ctx the context.
 * @param source the kernel source, NUL-terminated.
 * @param options NULL, or compiler options separated by spaces, each `-DNAME`, `-DNAME=VALUE`
 *        or `-IDIR` (also `-D NAME`, `-I DIR`): the options both compilers share. Any other
 *        option is #DUET_EINVAL.
 * @param[out] prog the program; NULL on failure.
 * @return #DUET_OK; #DUET_EINVAL (a NULL argument, a bad option); #DUET_EBUILD (the source did
 *         not compile: the compiler's log is in duet_ctx_last_error()); #DUET_EUNSUPPORTED (no
 *         NVRTC); #DUET_ENOMEM; #DUET_EBACKEND.
 */
DUET_EXTERN int duet_program_create(duet_ctx *ctx, const char *source, const char *options,
                                    duet_program **prog);
/**
 * Frees a program. Programs hold their context as buffers do: destroyed before or after it.
 * @param prog the program; NULL is fine.
 */
DUET_EXTERN void duet_program_destroy(duet_program *prog);
/**
 * Enqueues one kernel of a program on its context's queue: CUDA's
 * `kernel<<<grid, block, shared_bytes>>>(args...)`; on OpenCL, global size = grid x block,
 * local size = block, and shared_bytes for the kernel's #DUET_SHARED_PARAM.
 *
 * Checked before anything is enqueued, each a #DUET_EINVAL that names what is wrong: NULL
 * pointers; the kernel's name (in the program); each block dimension from 1 to the device's
 * limit for it, their product to the device's and the kernel's limits; each grid dimension to
 * the device's limit (a 0 enqueues nothing and returns #DUET_OK); shared_bytes to what the device
 * leaves the kernel beside its fixed shared arrays (on OpenCL, and where it is not 0, the kernel
 * must have a #DUET_SHARED_PARAM); nargs to the kernel's parameter count; each argument's kind
 * to its parameter (OpenCL: by the kernel's argument info, a buffer for a pointer, i32 for `int`
 * and `unsigned int`, i64 for `long`, f32 for `float`; CUDA, which keeps only the parameters'
 * sizes: 8 bytes for a buffer or i64, 4 for i32 or f32); each buffer of this context.
 * @param prog the program.
 * @param kernel the kernel's name, as the source spells it.
 * @param grid the blocks along x, y and z.
 * @param block the threads per block along x, y and z.
 * @param shared_bytes dynamic shared memory per block, in bytes (0 for none).
 * @param args the arguments in the kernel's parameter order, without the #DUET_SHARED_PARAM;
 *        may be NULL when nargs is 0.
 * @param nargs how many.
 * @return #DUET_OK or a negative #duet_status.
 */
DUET_EXTERN int duet_launch(duet_program *prog, const char *kernel, const size_t grid[3],
                            const unsigned block[3], size_t shared_bytes, const duet_arg *args,
                            unsigned nargs);

/* ---- transpose and copy -------------------------------------------------------------------- */
/** The transpose kernels; more variants may be appended, and AUTO picks the best that exists. */
typedef enum {
  DUET_TRANSPOSE_AUTO = 0,  /**< the best variant for the device and shape */
  DUET_TRANSPOSE_NAIVE,     /**< one element per thread, uncoalesced writes */
  DUET_TRANSPOSE_COALESCED, /**< through a shared-memory tile: coalesced reads and writes */
  DUET_TRANSPOSE_PADDED,    /**< coalesced, with a padded tile to avoid bank conflicts */
  /** padded with tall tiles (128 rows by 32 columns on NVIDIA GPUs) whose stores are shifted
   * onto 32-byte sectors. Where the rows of out do not start on them (ld_out not a multiple of 8
   * floats), padded's 32-float stores each straddle five sectors, two of them written in part;
   * this variant writes each row of out in pieces that start on a sector boundary, loading 8
   * rows of in more per tile for the shift. AUTO picks it when ld_out is not a multiple of
   * 32 floats, where the device allows blocks of its size. */
  DUET_TRANSPOSE_PADDED_TALL,
  /** no shared memory: each thread moves a 4 x 4 block through registers, float4 loads along
   * four rows of in and float4 stores along four rows of out where the lds and pointers allow.
   * A CPU's OpenCL runs it 6-8x faster than padded, and AUTO picks it there (the cpu tuning
   * set); on GPUs its stores reach fewer bytes of each row of out at once than padded's. */
  DUET_TRANSPOSE_REGISTER
} duet_transpose_variant;
/** @deprecated The name #DUET_TRANSPOSE_PADDED_TALL had in duet 0.1.0 (its tiles are tall, not
 * wide); kept as an alias, the same value. */
#define DUET_TRANSPOSE_PADDED_WIDE DUET_TRANSPOSE_PADDED_TALL

/**
 * out = in^T, out of place; enqueued. rows == 0 or cols == 0 is a valid no-op.
 * @param ctx the context.
 * @param v the variant.
 * @param rows the rows of in.
 * @param cols the columns of in.
 * @param in the input, rows x cols.
 * @param ld_in its leading dimension, >= cols.
 * @param out the output, cols x rows; in == out is #DUET_EINVAL.
 * @param ld_out its leading dimension, >= rows.
 * @return #DUET_OK or a negative #duet_status (#DUET_EUNSUPPORTED: the variant's block
 *         exceeds the device's limit; #DUET_EBUILD: its OpenCL program did not build).
 */
DUET_EXTERN int duet_transpose(duet_ctx *ctx, duet_transpose_variant v, size_t rows, size_t cols,
                               const duet_buf *in, size_t ld_in, duet_buf *out, size_t ld_out);
/**
 * A kernel copy of the same shape as duet_transpose()'s input: the bandwidth reference for
 * transpose; enqueued.
 * @param ctx the context.
 * @param rows the rows.
 * @param cols the columns.
 * @param in the input, rows x cols.
 * @param ld_in its leading dimension, >= cols.
 * @param out the output, rows x cols, distinct from in.
 * @param ld_out its leading dimension, >= cols.
 * @return #DUET_OK or a negative #duet_status, as for duet_transpose().
 */
DUET_EXTERN int duet_copy(duet_ctx *ctx, size_t rows, size_t cols, const duet_buf *in, size_t ld_in,
                          duet_buf *out, size_t ld_out);
/**
 * A transpose variant's name.
 * @param v the variant.
 * @return the name: "auto", "naive", "coalesced", "padded", "padded-tall", "register"; NULL for
 * an unknown value.
 */
DUET_EXTERN const char *duet_transpose_variant_name(duet_transpose_variant v);
/**
 * The transpose variant of a name.
 * @param name as duet_transpose_variant_name() gives; also "padded-wide", the deprecated name
 *        of "padded-tall".
 * @param[out] v the variant; not written on failure.
 * @return #DUET_OK; #DUET_EINVAL for an unknown or NULL name or a NULL v.
 */
DUET_EXTERN int duet_transpose_variant_parse(const char *name, duet_transpose_variant *v);

/* ---- matrix multiply ----------------------------------------------------------------------- */
/** Whether a GEMM operand is used as stored or transposed. */
typedef enum {
  DUET_NO_TRANS = 0, /**< op(X) = X */
  DUET_TRANS = 1     /**< op(X) = X^T */
} duet_trans;

/** The SGEMM kernels; more variants may be appended, and AUTO picks the best that exists. */
typedef enum {
  /** the best variant for the device and shape that this device can run: where a variant's
   * plan has a kernel that its device cannot take (a block too large) or that fails to build,
   * the next one computes the call */
  DUET_GEMM_AUTO = 0,
  DUET_GEMM_NAIVE,     /**< one element of C per thread, straight from global memory */
  DUET_GEMM_COALESCED, /**< as naive, with threads mapped so that loads coalesce */
  DUET_GEMM_TILED,     /**< square tiles of A and B staged through shared memory */
  /** 2D register blocking: a block computes a BM x BN tile of C in BK-deep steps through shared
   * memory, each thread a TM x TN micro-tile held in registers. */
  DUET_GEMM_REGISTER,
  /** everything that gets to cuBLAS: float4 loads where alignment allows, A stored transposed in
   * shared memory, double-buffered tiles with the next one prefetched into registers, warp
   * tiling, padded shared rows, a block order that keeps tiles in L2; a smaller tile with
   * split-K (scratch from the context, kept until it is destroyed) where big tiles would leave
   * the device's units idle. */
  DUET_GEMM_FAST
} duet_gemm_variant;

/**
 * Row-major C = alpha * op(A) * op(B) + beta * C, with op(A) m x k and op(B) k x n; enqueued.
 *
 * BLAS semantics: m == 0 or n == 0 is a no-op; k == 0 or alpha == 0 gives C = beta*C without
 * reading A or B; beta == 0 never reads C. Every variant applies alpha and beta once, to the
 * whole dot product (split-K too), so alpha = inf or 3e38 gives what float arithmetic gives for
 * alpha * (A B) + beta * C: inf, or 1.5e38 where the product is 0.5, never a NaN of its own.
 * @param ctx the context.
 * @param v the variant.
 * @param ta whether A is transposed.
 * @param tb whether B is transposed.
 * @param m the rows of C and op(A).
 * @param n the columns of C and op(B).
 * @param k the columns of op(A), the rows of op(B).
 * @param alpha the scale of the product.
 * @param a A, stored m x k (k x m when ta == #DUET_TRANS).
 * @param lda A's leading dimension, >= its stored column count.
 * @param b B, stored k x n (n x k when tb == #DUET_TRANS).
 * @param ldb B's leading dimension, >= its stored column count.
 * @param beta the scale of C's old value.
 * @param c C, m x n, distinct from a and b.
 * @param ldc C's leading dimension, >= n.
 * @return #DUET_OK or a negative #duet_status, as for duet_transpose().
 */
DUET_EXTERN int duet_sgemm(duet_ctx *ctx, duet_gemm_variant v, duet_trans ta, duet_trans tb,
                           size_t m, size_t n, size_t k, float alpha, const duet_buf *a, size_t lda,
                           const duet_buf *b, size_t ldb, float beta, duet_buf *c, size_t ldc);
/**
 * What duet_sgemm() would run for a call of this shape on ctx, as text, without running it: a
 * line for the call (the variant AUTO picks, the launches, the scratch from the context), then
 * one per operand copied to an aligned leading dimension and one per piece of C (its rows and
 * columns, kernel, tile and block, k slices, stream-K share, and a skinny piece's thin side).
 * The same text `DUET_VERBOSE=1` prints for each call. The plan is that of alpha = 1, beta = 0;
 * its kernels are loaded (OpenCL builds them) since what a kernel's build allows can change it.
 * @param ctx the context.
 * @param v the variant.
 * @param ta whether A is transposed.
 * @param tb whether B is transposed.
 * @param m the rows of C and op(A).
 * @param n the columns of C and op(B).
 * @param k the columns of op(A), the rows of op(B).
 * @param lda A's leading dimension, >= its stored column count.
 * @param ldb B's leading dimension, >= its stored column count.
 * @param text where the text goes, NUL-terminated, cut short where it does not fit.
 * @param len the bytes at text, at least 1.
 * @return #DUET_OK; #DUET_EINVAL for a bad context, variant, transpose, leading dimension or
 * text; where the call could not run (#DUET_EUNSUPPORTED, #DUET_EBUILD) that status, the text
 * still saying what it would have run.
 */
DUET_EXTERN int duet_sgemm_plan(duet_ctx *ctx, duet_gemm_variant v, duet_trans ta, duet_trans tb,
                                size_t m, size_t n, size_t k, size_t lda, size_t ldb, char *text,
                                size_t len);
/**
 * A GEMM variant's name.
 * @param v the variant.
 * @return the name: "auto", "naive", "coalesced", "tiled", "register", "fast"; NULL for an unknown
 * value.
 */
DUET_EXTERN const char *duet_gemm_variant_name(duet_gemm_variant v);
/**
 * The GEMM variant of a name.
 * @param name as duet_gemm_variant_name() gives.
 * @param[out] v the variant; not written on failure.
 * @return #DUET_OK; #DUET_EINVAL for an unknown or NULL name or a NULL v.
 */
DUET_EXTERN int duet_gemm_variant_parse(const char *name, duet_gemm_variant *v);

/* ---- vector add, reduction, 1D stencil ------------------------------------------------------ */
/**
 * c = a + b over n floats, element by element; enqueued. n == 0 is a valid no-op.
 * @param ctx the context.
 * @param n how many floats.
 * @param a the first input, at least n floats.
 * @param b the second input, at least n floats; may be a.
 * @param c the output, at least n floats; may be a or b (each element is read before it is
 *        written).
 * @return #DUET_OK or a negative #duet_status, as for duet_transpose().
 */
DUET_EXTERN int duet_vector_add(duet_ctx *ctx, size_t n, const duet_buf *a, const duet_buf *b,
                                duet_buf *c);

/** The reduction kernels; more variants may be appended, and AUTO picks the best that exists. */
typedef enum {
  DUET_REDUCE_AUTO = 0,   /**< the best reproducible variant for the device: never atomic */
  DUET_REDUCE_NAIVE,      /**< interleaved addressing with the divergent `tid % (2s)` test */
  DUET_REDUCE_SEQUENTIAL, /**< sequential addressing (no bank conflicts), an add during the load */
  /** many elements per thread with vector loads, then warp shuffles for the last steps (OpenCL:
   * sub-group functions where the device has them, NVIDIA's shuffle, else local memory) */
  DUET_REDUCE_SHUFFLE,
  /** shuffle's first pass, then one float atomic add per block: not bit-reproducible */
  DUET_REDUCE_ATOMIC
} duet_reduce_variant;

/**
 * Writes the float sum of in[0..n) to out[0]; enqueued. n == 0 writes 0.
 *
 * Naive, sequential and shuffle combine their blocks' sums in further passes over a fixed tree
 * that depends only on n, the variant and the context's tuning set (no atomics), so a result is
 * the same bits on every run on the same device. Atomic adds its blocks' sums in the order they
 * finish: its last bits may differ from run to run. NaN and infinities propagate as in any sum.
 * The blocks' partial sums live in the context's scratch memory, grown on first use and kept.
 * @param ctx the context.
 * @param v the variant.
 * @param n how many floats.
 * @param in the input, at least n floats.
 * @param out the output, at least one float, distinct from in.
 * @return #DUET_OK or a negative #duet_status, as for duet_transpose() (#DUET_ENOMEM: no device
 *         memory for the partial sums).
 */
DUET_EXTERN int duet_reduce_sum(duet_ctx *ctx, duet_reduce_variant v, size_t n, const duet_buf *in,
                                duet_buf *out);
/**
 * A reduction variant's name.
 * @param v the variant.
 * @return the name: "auto", "naive", "sequential", "shuffle", "atomic"; NULL for an unknown value.
 */
DUET_EXTERN const char *duet_reduce_variant_name(duet_reduce_variant v);
/**
 * The reduction variant of a name.
 * @param name as duet_reduce_variant_name() gives.
 * @param[out] v the variant; not written on failure.
 * @return #DUET_OK; #DUET_EINVAL for an unknown or NULL name or a NULL v.
 */
DUET_EXTERN int duet_reduce_variant_parse(const char *name, duet_reduce_variant *v);

/** The largest radius duet_stencil_1d() takes. */
#define DUET_STENCIL_MAX_RADIUS 16

/** The 1D stencil kernels; more variants may be appended, and AUTO picks the best that exists. */
typedef enum {
  DUET_STENCIL_AUTO = 0, /**< the variant the device's tuning set names (STENCIL_AUTO) */
  DUET_STENCIL_NAIVE,    /**< one output per thread, 2r + 1 reads of global memory */
  DUET_STENCIL_SHARED,   /**< the block's inputs and their halo staged in shared memory */
  /** several outputs per thread from a window of inputs held in registers, loaded as float4s:
   * on GPUs whose first-level cache already catches the halo's reuse (the H100), the staging
   * in shared memory costs more than it saves */
  DUET_STENCIL_REGISTER
} duet_stencil_variant;

/**
 * out[i] = sum over j = -r..r of weights[j + r] * in[i + j], for i in [0, n), with in[] read as
 * 0 outside [0, n); enqueued. n == 0 is a valid no-op. Every variant adds the terms in the order
 * j = -r..r with fused multiply-adds, so all give the same bits.
 * @param ctx the context.
 * @param v the variant.
 * @param n how many floats.
 * @param radius r, at most #DUET_STENCIL_MAX_RADIUS.
 * @param weights host memory, 2r + 1 floats; copied by the call (into the context's scratch
 *        memory, again only when they differ from the last call's), so it may be reused at once.
 * @param in the input, at least n floats.
 * @param out the output, at least n floats; in == out is #DUET_EINVAL.
 * @return #DUET_OK or a negative #duet_status, as for duet_transpose().
 */
DUET_EXTERN int duet_stencil_1d(duet_ctx *ctx, duet_stencil_variant v, size_t n, unsigned radius,
                                const float *weights, const duet_buf *in, duet_buf *out);
/**
 * A stencil variant's name.
 * @param v the variant.
 * @return the name: "auto", "naive", "shared", "register"; NULL for an unknown value.
 */
DUET_EXTERN const char *duet_stencil_variant_name(duet_stencil_variant v);
/**
 * The stencil variant of a name.
 * @param name as duet_stencil_variant_name() gives.
 * @param[out] v the variant; not written on failure.
 * @return #DUET_OK; #DUET_EINVAL for an unknown or NULL name or a NULL v.
 */
DUET_EXTERN int duet_stencil_variant_parse(const char *name, duet_stencil_variant *v);

#ifdef __cplusplus
}
#endif
#endif /* DUET_H */
