/* SPDX-License-Identifier: MIT */
/* Internal contract between the backend-neutral core (src/) and the backends (backends/).
 * Names with duet__ are internal; nothing here is installed. */
#ifndef DUET_INTERNAL_H
#define DUET_INTERNAL_H

#include "config.h"

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "duet.h"
#include "duet_launch.h"
#include "manifest.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kernel that a manifest row became on one context: what the core launches. */
typedef struct {
  void *fn;             /* the backend's handle: CUDA host stub, OpenCL cl_kernel */
  unsigned max_threads; /* this kernel's own block limit (registers, OpenCL's kernel limit) */
  duet__shape shape;    /* with the context's tunable values */
  /* The signature's argument kinds, coded for the check of every launch (src/launch.c). */
  unsigned nargs;
  uint64_t kinds;
  int loaded;
  /* a cluster kernel (shape.z_cluster): how many clusters of s blocks (1 .. DUET__CLUSTER_MAX)
   * can be resident at once, as the backend found when it loaded it (0: not known) */
  unsigned cluster_slots[DUET__CLUSTER_MAX + 1];
  /* the build has AFTER_PRIOR_LAUNCH's wait and the backend a launch that overlaps the one
   * before it (CUDA: code for compute capability 9.0 or later); whether a launch of it does is
   * src/launch.c's decision (its group's after_prior, LAUNCH_OVERLAP) */
  int can_overlap;
} duet__loaded;

/* What the backend says of its device; the core keeps no device fact of its own. */
typedef struct {
  duet_device_type type;
  int nvidia;             /* an NVIDIA device (CUDA, or NVIDIA's OpenCL) */
  int cc_major, cc_minor; /* NVIDIA compute capability, else 0 */
  unsigned compute_units; /* SMs, or OpenCL compute units: how many blocks run side by side */
  unsigned max_block_threads;
  size_t shared_bytes; /* the most one block may have */
  /* the last-level cache in front of global memory, 0: unknown. CUDA: the L2; OpenCL: the
   * device's global-memory cache, which NVIDIA's OpenCL gives as 4 MiB on an H200 whose L2 CUDA
   * gives as 60 MiB (as duet-bench prints its devices, thirty-first session) */
  size_t cache_bytes;
  size_t max_grid[3];  /* blocks per grid dimension */
  int runtime_compile; /* kernels are built at run time, so any tunable value can be used */
  int subgroups; /* OpenCL sub-group functions: 1 cl_khr_subgroups, 2 cl_intel_subgroups, 0 none */
  unsigned cluster_max; /* the most blocks of a thread-block cluster (CUDA, compute capability
                           9.0: DUET__CLUSTER_MAX); 0: no clusters */
} duet__caps;

/* A kernel of a user program (duet_launch), as the backend found it. */
#define DUET__USER_MAX_ARGS 64
typedef struct {
  void *fn;              /* the backend's handle: cudaKernel_t, or OpenCL's cl_kernel */
  unsigned max_threads;  /* this kernel's block limit */
  unsigned max_block[3]; /* the device's limit per block dimension */
  size_t shared_bytes;   /* the dynamic shared memory a launch may ask for */
  int counted;           /* nparams and accepts are known */
  unsigned nparams;      /* the parameters that duet_launch's arguments fill */
  int shared_param;      /* OpenCL: the last parameter is DUET_SHARED_PARAM's __local one */
  unsigned char accepts[DUET__USER_MAX_ARGS]; /* per parameter, a bit per duet__arg_kind */
} duet__user_kernel;

/* Each backend is one const struct of these at the end of its file (curl's vtls idiom). The core
 * has checked every argument before calling them; they report failures through duet__fail. */
typedef struct duet__backend_ops {
  duet_backend id;
  const char *name;
  /* Devices the backend sees; with none, `why` (n bytes) says why when the runtime did. */
  int (*device_count)(int *count, char *why, size_t n);
  int (*ctx_open)(duet_ctx *ctx, int device); /* sets ctx->impl and ctx->caps */
  /* Another queue on parent's device, sharing its device state (duet_ctx_create_shared): sets
   * ctx->impl; the core copies the caps. The core holds the family's root open until ctx is
   * closed, so ctx may keep pointers into the root's state. */
  int (*ctx_open_shared)(duet_ctx *ctx, duet_ctx *parent);
  void (*ctx_close)(duet_ctx *ctx);
  int (*ctx_info)(duet_ctx *ctx, duet_device_info *info);
  int (*finish)(duet_ctx *ctx);
  int (*mem_alloc)(duet_ctx *ctx, size_t bytes, void **mem);
  void (*mem_free)(duet_ctx *ctx, void *mem);
  int (*mem_write)(duet_ctx *ctx, void *mem, size_t offset, const void *src, size_t bytes);
  int (*mem_read)(duet_ctx *ctx, void *mem, size_t offset, void *dst, size_t bytes);
  int (*mem_copy)(duet_ctx *ctx, void *dst, void *src, size_t bytes);
  /* Enqueued on ctx's queue; mem may be of any context of ctx's family. */
  int (*mem_write_async)(duet_ctx *ctx, void *mem, size_t offset, const void *src, size_t bytes);
  int (*mem_read_async)(duet_ctx *ctx, void *mem, size_t offset, void *dst, size_t bytes);
  /* Pinned host memory: *ptr for the caller, *handle for host_free (the core's registry keeps
   * it); host_free may get any context of the allocating one's family. */
  int (*host_alloc)(duet_ctx *ctx, size_t bytes, void **ptr, void **handle);
  void (*host_free)(duet_ctx *ctx, void *ptr, void *handle);
  int (*event_alloc)(duet_ctx *ctx, void **ev);
  void (*event_free)(duet_ctx *ctx, void *ev);
  int (*event_record)(duet_ctx *ctx, void *ev);
  int (*event_elapsed)(duet_ctx *ctx, void *start, void *end, float *ms);
  /* ctx's queue waits for recorded event ev of a context of its family. */
  int (*event_wait)(duet_ctx *ctx, void *ev);
  void *(*native_queue)(duet_ctx *ctx);
  /* Turns manifest row k, with the context's tunable values, into k->fn and k->max_threads.
   * k->shape is already resolved: a backend whose compiled kernel assumes another shape fails
   * with DUET_EBUILD. OpenCL builds the row's group here on first use. */
  int (*kernel_load)(duet_ctx *ctx, const duet__kernel_desc *desc, duet__loaded *k);
  void (*kernel_unload)(duet_ctx *ctx, duet__loaded *k);
  /* args follow desc->sig, minus its scratch letter. */
  int (*launch)(duet_ctx *ctx, const duet__kernel_desc *desc, const duet__loaded *k,
                const duet__launch *launch, const duet__arg *args);
  /* What the compiler made of loaded kernel k (duet__kernel_attrs): the backend fills what it
   * can tell and leaves the rest as the core set it (-1). */
  int (*kernel_attrs)(duet_ctx *ctx, const duet__kernel_desc *desc, const duet__loaded *k,
                      duet__kernel_attrs *out);
  /* User programs (src/program.c): text (duet_kernel.h and the source) built with options, each
   * "-DNAME[=V]" or "-IDIR", into *prog; a kernel of it by name, with what a launch is checked
   * against (DUET_EINVAL when the program has none of that name); and its launch. */
  int (*program_build)(duet_ctx *ctx, const char *text, const char *const *options, unsigned n,
                       void **prog);
  void (*program_free)(duet_ctx *ctx, void *prog);
  int (*program_kernel)(duet_ctx *ctx, void *prog, const char *name, duet__user_kernel *k);
  void (*program_kernel_free)(duet_ctx *ctx, duet__user_kernel *k);
  int (*program_launch)(duet_ctx *ctx, const duet__user_kernel *k, const duet__launch *launch,
                        const duet__arg *args, unsigned nargs);
} duet__backend_ops;

#ifdef DUET_HAVE_CUDA
extern const duet__backend_ops duet__cuda_backend;
#endif
#ifdef DUET_HAVE_OPENCL
extern const duet__backend_ops duet__opencl_backend;
#endif

#define DUET__ERRLEN 8192

/* The arena's regions: one per temporary that one call may need at the same time. */
typedef enum {
  DUET__ARENA_WORK,   /* split-K partial products */
  DUET__ARENA_PACK_A, /* an operand copied to a leading dimension that allows vector loads */
  DUET__ARENA_PACK_B,
  DUET__ARENA_FLAGS,    /* stream-K's tickets: zero when allocated, tagged with an epoch (gemm.c) */
  DUET__ARENA_REDUCE_A, /* a reduction's partial sums, passes 1, 3, 5, ... */
  DUET__ARENA_REDUCE_B, /* ... and passes 2, 4, ... */
  DUET__ARENA_TICKET,   /* shuffle_once's ticket word: zero when allocated, tagged (reduce.c) */
  DUET__ARENA_STENCIL_W, /* the stencil's weights (ctx->stencil_w says which) */
  DUET__ARENA_COUNT
} duet__arena_region;

struct duet_ctx {
  const duet__backend_ops *ops;
  void *impl;
  int device;
  duet__caps caps;
  duet__tuning_set set;
  int tun[DUET__T_COUNT]; /* the values this context's kernels are built and launched with */
  duet__loaded kernels[DUET__K_COUNT];
  /* Scratch device memory for multi-launch routines, one region per use, grown on demand. */
  void *arena[DUET__ARENA_COUNT];
  size_t arena_bytes[DUET__ARENA_COUNT];
  int sk_epoch;                   /* the last stream-K launch's epoch (duet__arena_epoch) */
  int reduce_epoch;               /* the last one-pass reduction's epoch (src/reduce.c) */
  duet__description *description; /* set: calls record their launches there (duet__describe) */
  /* References that hold the context open, atomically counted (a family's members may release
   * its root from other threads): the caller's until duet_ctx_destroy, and one per buffer,
   * event, pinned allocation and (on the root) family member. Freed when it reaches 0. */
  size_t live;
  int destroyed; /* duet_ctx_destroy was called */
  /* The family's first context (itself for one made by duet_ctx_create): its backend state is
   * what the family shares, and every member holds it. Buffers and events of contexts with the
   * same root may be used on each other. */
  duet_ctx *root;
  pthread_mutex_t load_lock; /* the root's serialises the family's kernel loads */
  /* What DUET__ARENA_STENCIL_W holds: 2 * radius + 1 weights, written into that allocation. */
  float stencil_w[2 * DUET_STENCIL_MAX_RADIUS + 1];
  unsigned stencil_wn;
  void *stencil_w_at;
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

/* Buffers and events hold their context: a context destroyed before them is freed with the
 * last of them, so that destroying them in any order is safe. */
void duet__ctx_hold(duet_ctx *ctx);
void duet__ctx_release(duet_ctx *ctx);
/* Whether a and b are of one family (duet_ctx_create_shared): each may use the other's buffers
 * and events. */
static inline int duet__same_family(const duet_ctx *a, const duet_ctx *b) {
  return a->root == b->root;
}

/* Records a failure on ctx (may be NULL) and returns status. Prints it when DUET_VERBOSE=1. */
int duet__fail(const duet_ctx *ctx, int status, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Sets the thread's no-context error text without printing it again (it was printed when the
 * failure was first recorded on a context). */
void duet__pass_on(const char *text);
/* Whether DUET_VERBOSE asks for notes (set and not "0"). */
int duet__verbose(void);
/* Prints a note on stderr when DUET_VERBOSE asks for it; records nothing. */
void duet__note(const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Environment lookups shared by the core and the OpenCL backend. */
const char *duet__getenv(const char *name); /* NULL when unset or empty */

/* One row of a routine's variant table, indexed by the public enum: its name and kernel. */
typedef struct {
  const char *name;
  duet__kernel kernel;
} duet__variant;

/* Name lookups over a variant table of n rows. */
const char *duet__variant_name(const duet__variant *table, size_t n, int v);
int duet__variant_parse(const duet__variant *table, size_t n, const char *name, int *v);

/* ---- kernels and launches (src/launch.c) ---------------------------------------------------- */
/* Loads kernel k on first use (OpenCL: builds its group) and returns it. */
int duet__kernel_get(duet_ctx *ctx, duet__kernel k, const duet__loaded **out);
/* *fits = whether this device can run k's block; fails only when k cannot be loaded. */
int duet__kernel_fits(duet_ctx *ctx, duet__kernel k, int *fits);

/* One launch of a run: kernel k over a rows x cols output (its shape gives the grid), z grid
 * slices, and its arguments in signature order; or, where `blocks` is not 0, a 1D grid of that
 * many blocks that the kernel maps onto its output itself. */
typedef struct {
  duet__kernel kernel;
  size_t rows, cols;
  unsigned z;
  const duet__arg *args;
  unsigned nargs;
  size_t blocks;
} duet__step;

/* Runs the steps of one call: every step is loaded and checked (fit, grid, signature) before
 * the first is enqueued, so a call's launches run whole or not at all. */
int duet__run(duet_ctx *ctx, const duet__step *steps, unsigned n);
/* Argument counts come from the arrays, never from a literal. */
#define DUET__COUNT(args) ((unsigned)(sizeof(args) / sizeof((args)[0])))
/* One launch. */
#define DUET__LAUNCH(ctx, k, rows, cols, args) \
  duet__run_one(ctx, k, rows, cols, args, DUET__COUNT(args))
int duet__run_one(duet_ctx *ctx, duet__kernel k, size_t rows, size_t cols, const duet__arg *args,
                  unsigned nargs);
/* Scratch device memory of at least `bytes` from region r of the context's arena, valid until
 * the next call that takes that region (the queue is in order, so work already enqueued keeps
 * its view). */
int duet__arena(duet_ctx *ctx, duet__arena_region r, size_t bytes, void **mem);
void duet__arena_free(duet_ctx *ctx);
/* The next of `epochs` epochs (1..epochs) for a launch that tags the FLAGS region with it; each
 * time they come round again the region is zeroed first, so that no flag left by an earlier
 * launch carries the epoch returned. */
int duet__arena_epoch(duet_ctx *ctx, int epochs, int *epoch);

/* ---- tuning (src/tuning.c) ------------------------------------------------------------------- */
/* Resolves ctx->set and ctx->tun from the caps, $DUET_TUNING and $DUET_TUNE. */
int duet__tuning_resolve(duet_ctx *ctx);
/* Sets in tun (indexed by duet__tunable) the values by which backend refines set: every one
 * where the backend compiles its kernels at run time, else those that steer the plans alone. */
void duet__tuning_refine(duet__tuning_set set, duet_backend backend, int runtime_compile, int *tun);
/* The -D options of group g with the context's values ("-DNAME=V ..."), malloc'd; NULL when
 * out of host memory. */
char *duet__group_options(const duet_ctx *ctx, duet__group g);

/* Blocks (or tiles) of b that cover a. */
static inline size_t duet__ceil_div(size_t a, size_t b) { return a / b + (a % b != 0); }
/* A grid-stride kernel's blocks: enough for `work` at `per_block` each, at least 1, at most
 * `per_cu` per compute unit of ctx's device. */
static inline size_t duet__grid_blocks(const duet_ctx *ctx, size_t work, size_t per_block,
                                       int per_cu) {
  const size_t want = duet__ceil_div(work, per_block),
               cap = (size_t)ctx->caps.compute_units * per_cu;
  return want < 1 ? 1 : want < cap ? want : cap > 0 ? cap : 1;
}

/* Argument checks, each returning DUET_OK or DUET_EINVAL with the last-error text set. */
int duet__check_ctx(const duet_ctx *ctx, const char *func);
/* A buffer of ctx that holds at least n floats. */
int duet__check_vector(const duet_ctx *ctx, const char *func, const char *what, const duet_buf *buf,
                       size_t n);
/* The number in the first n characters of s, digits only (no sign, blank or base: strtol would
 * take " 16" and "+16"), into *v; DUET_EINVAL, recording nothing, where there is none or it
 * exceeds max. For the environment's numbers (DUET_DEVICE, DUET_TUNE). */
int duet__parse_count(const char *s, size_t n, long max, long *v);
int duet__check_matrix(const duet_ctx *ctx, const char *func, const char *what, const duet_buf *buf,
                       size_t rows, size_t cols, size_t ld);

static inline duet__arg duet__arg_mem(const duet_buf *b) {
  duet__arg a;
  a.kind = DUET__ARG_MEM;
  a.u.mem = b->mem;
  return a;
}
/* A backend memory handle that is no duet_buf: scratch from the arena. */
static inline duet__arg duet__arg_scratch(void *mem) {
  duet__arg a;
  a.kind = DUET__ARG_MEM;
  a.u.mem = mem;
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
static inline duet__arg duet__arg_gemm(duet__gemm_scalars v) {
  duet__arg a;
  a.kind = DUET__ARG_GEMM;
  a.u.gemm = v;
  return a;
}

#ifdef __cplusplus
}
#endif
#endif
