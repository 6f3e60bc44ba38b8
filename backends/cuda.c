/* SPDX-License-Identifier: MIT */
/* The CUDA backend: the runtime API from plain C. One non-blocking stream per duet_ctx (a family's
 * members are streams on one device, and CUDA buffers are device-wide, so they share it all);
 * kernels are the nvcc-compiled ones of kernels_cu/, one instantiation per tuning set, found
 * through their registry tables and launched with cudaLaunchKernel, the C spelling of
 * <<<grid, block, shared, stream>>>. The runtime is linked statically, so where no driver is
 * installed the device count is simply 0. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "registry.h"

typedef struct {
  int device;
  cudaStream_t stream;
  struct cudaDeviceProp prop;
} cu_impl;

#define IMPL(ctx) ((cu_impl *)(ctx)->impl)

/* Records which CUDA call failed and how; allocation failures are ENOMEM, the rest EBACKEND. */
static int cu_fail(duet_ctx *ctx, cudaError_t err, const char *call) {
  int status = err == cudaErrorMemoryAllocation ? DUET_ENOMEM : DUET_EBACKEND;
  return duet__fail(ctx, status, "cuda: %s failed: %s (%s)", call, cudaGetErrorName(err),
                    cudaGetErrorString(err));
}

/* Several contexts may live on different devices in one host thread: every entry point makes
 * its own device current first. */
static int use_device(duet_ctx *ctx) {
  cudaError_t err = cudaSetDevice(IMPL(ctx)->device);
  return err == cudaSuccess ? DUET_OK : cu_fail(ctx, err, "cudaSetDevice");
}

static int cu_device_count(int *count, char *why, size_t n) {
  int devices = 0;
  /* No driver, no device or a driver too old for this runtime all mean: nothing to run on. */
  cudaError_t err = cudaGetDeviceCount(&devices);
  if (err != cudaSuccess) {
    devices = 0;
    snprintf(why, n, "cudaGetDeviceCount failed: %s (%s)", cudaGetErrorName(err),
             cudaGetErrorString(err));
  }
  cudaGetLastError(); /* clear the failure so it does not surface in a later call */
  *count = devices;
  return DUET_OK;
}

/* Every group's table, from the manifest's list of groups. */
static const duet__cu_kernel *const tables[DUET__G_COUNT] = {
#define DUET__CU_TABLE_ROW(group, ...) DUET__CU_TABLE(group),
    DUET__GROUPS(DUET__CU_TABLE_ROW)
#undef DUET__CU_TABLE_ROW
};

static void cu_ctx_close(duet_ctx *ctx) {
  cu_impl *im = IMPL(ctx);
  if (!im) return;
  if (im->stream) {
    cudaSetDevice(im->device);
    cudaStreamDestroy(im->stream);
  }
  free(im);
  ctx->impl = NULL;
}

/* Thread-block clusters (compute capability 9.0): DUET__CLUSTER_MAX blocks, else 0. */
static unsigned cluster_max(int device) {
#if CUDART_VERSION >= 11080
  int yes = 0;
  if (cudaDeviceGetAttribute(&yes, cudaDevAttrClusterLaunch, device) == cudaSuccess && yes)
    return DUET__CLUSTER_MAX;
#else
  (void)device;
#endif
  (void)cudaGetLastError();
  return 0;
}

static int cu_ctx_open(duet_ctx *ctx, int device) {
  int n = 0;
  char why[256] = "";
  cu_device_count(&n, why, sizeof why);
  if (device >= n)
    return duet__fail(ctx, DUET_ENODEV, "cuda: device %d does not exist (%d device%s%s%s)", device,
                      n, n == 1 ? "" : "s", *why ? ": " : "", why);
  cu_impl *im = calloc(1, sizeof *im);
  if (!im) return duet__fail(ctx, DUET_ENOMEM, "cuda: out of host memory");
  im->device = device;
  ctx->impl = im;
  const char *failed = NULL;
  cudaError_t err = cudaSetDevice(device);
  if (err != cudaSuccess) failed = "cudaSetDevice";
  if (!failed && (err = cudaGetDeviceProperties(&im->prop, device)) != cudaSuccess)
    failed = "cudaGetDeviceProperties";
  /* Non-blocking: the legacy default stream must not serialise duet's work with the caller's. */
  if (!failed &&
      (err = cudaStreamCreateWithFlags(&im->stream, cudaStreamNonBlocking)) != cudaSuccess)
    failed = "cudaStreamCreateWithFlags";
  if (!failed) {
    const struct cudaDeviceProp *p = &im->prop;
    duet__caps *c = &ctx->caps;
    c->type = DUET_DEVICE_GPU;
    c->nvidia = 1;
    c->cc_major = p->major;
    c->cc_minor = p->minor;
    c->compute_units = (unsigned)p->multiProcessorCount;
    c->max_block_threads = (unsigned)p->maxThreadsPerBlock;
    /* Beyond 48 KiB a kernel must opt in (kernel_load does, for the kernels that need it). */
    c->shared_bytes = p->sharedMemPerBlockOptin;
    c->cache_bytes = p->l2CacheSize > 0 ? (size_t)p->l2CacheSize : 0;
    for (int d = 0; d < 3; d++) c->max_grid[d] = (size_t)p->maxGridSize[d];
    c->runtime_compile = 0;
    c->cluster_max = cluster_max(im->device);
    return DUET_OK;
  }
  int status = cu_fail(ctx, err, failed);
  im->stream = NULL;
  cu_ctx_close(ctx);
  return status;
}

/* A family member: the parent's device and properties, a stream of its own. */
static int cu_ctx_open_shared(duet_ctx *ctx, duet_ctx *parent) {
  cu_impl *im = malloc(sizeof *im);
  if (!im) return duet__fail(ctx, DUET_ENOMEM, "cuda: out of host memory");
  *im = *IMPL(parent);
  im->stream = NULL;
  ctx->impl = im;
  const char *failed = "cudaSetDevice";
  cudaError_t err = cudaSetDevice(im->device);
  if (err == cudaSuccess) {
    failed = "cudaStreamCreateWithFlags";
    err = cudaStreamCreateWithFlags(&im->stream, cudaStreamNonBlocking);
  }
  if (err == cudaSuccess) return DUET_OK;
  int status = cu_fail(ctx, err, failed);
  im->stream = NULL;
  cu_ctx_close(ctx);
  return status;
}

static int cu_ctx_info(duet_ctx *ctx, duet_device_info *info) {
  const struct cudaDeviceProp *p = &IMPL(ctx)->prop;
  int runtime = 0, driver = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  snprintf(info->name, sizeof info->name, "%s", p->name);
  snprintf(info->vendor, sizeof info->vendor, "NVIDIA");
  snprintf(info->version, sizeof info->version, "sm_%d%d, CUDA runtime %d.%d, driver %d.%d",
           p->major, p->minor, runtime / 1000, runtime % 1000 / 10, driver / 1000,
           driver % 1000 / 10);
  info->compute_units = (unsigned)p->multiProcessorCount;
  info->max_block_threads = ctx->caps.max_block_threads;
  info->warp_size = (unsigned)p->warpSize;
  info->global_mem_bytes = p->totalGlobalMem;
  info->cache_bytes = ctx->caps.cache_bytes;
  /* What a launch may ask for (duet.h): the opt-in limit, not the default 48 KiB, which every
   * kernel passes once cudaFuncAttributeMaxDynamicSharedMemorySize is set. */
  info->shared_mem_bytes = ctx->caps.shared_bytes;
  return DUET_OK;
}

static int cu_finish(duet_ctx *ctx) {
  int status = use_device(ctx);
  if (status) return status;
  cudaError_t err = cudaStreamSynchronize(IMPL(ctx)->stream);
  return err == cudaSuccess ? DUET_OK : cu_fail(ctx, err, "cudaStreamSynchronize");
}

/* ---- memory ------------------------------------------------------------------------------- */

static int cu_mem_alloc(duet_ctx *ctx, size_t bytes, void **mem) {
  int status = use_device(ctx);
  if (status) return status;
  cudaError_t err = cudaMalloc(mem, bytes);
  return err == cudaSuccess ? DUET_OK : cu_fail(ctx, err, "cudaMalloc");
}

static void cu_mem_free(duet_ctx *ctx, void *mem) {
  if (use_device(ctx) == DUET_OK) cudaFree(mem);
}

/* Copies on the context's stream, ordered after its earlier work. From pinned memory the call
 * returns at once; from pageable memory the runtime stages it and may wait. */
static int copy_async(duet_ctx *ctx, void *dst, const void *src, size_t bytes,
                      enum cudaMemcpyKind kind, const char *what) {
  int status = use_device(ctx);
  if (status) return status;
  cudaError_t err = cudaMemcpyAsync(dst, src, bytes, kind, IMPL(ctx)->stream);
  return err == cudaSuccess ? DUET_OK : cu_fail(ctx, err, what);
}

/* As copy_async, then waits for it. */
static int copy_sync(duet_ctx *ctx, void *dst, const void *src, size_t bytes,
                     enum cudaMemcpyKind kind, const char *what) {
  int status = copy_async(ctx, dst, src, bytes, kind, what);
  if (status) return status;
  cudaError_t err = cudaStreamSynchronize(IMPL(ctx)->stream);
  return err == cudaSuccess ? DUET_OK : cu_fail(ctx, err, "cudaStreamSynchronize");
}

static int cu_mem_write(duet_ctx *ctx, void *mem, size_t offset, const void *src, size_t bytes) {
  return copy_sync(ctx, (char *)mem + offset, src, bytes, cudaMemcpyHostToDevice,
                   "cudaMemcpyAsync (host to device)");
}

static int cu_mem_read(duet_ctx *ctx, void *mem, size_t offset, void *dst, size_t bytes) {
  return copy_sync(ctx, dst, (const char *)mem + offset, bytes, cudaMemcpyDeviceToHost,
                   "cudaMemcpyAsync (device to host)");
}

static int cu_mem_write_async(duet_ctx *ctx, void *mem, size_t offset, const void *src,
                              size_t bytes) {
  return copy_async(ctx, (char *)mem + offset, src, bytes, cudaMemcpyHostToDevice,
                    "cudaMemcpyAsync (host to device)");
}

static int cu_mem_read_async(duet_ctx *ctx, void *mem, size_t offset, void *dst, size_t bytes) {
  return copy_async(ctx, dst, (const char *)mem + offset, bytes, cudaMemcpyDeviceToHost,
                    "cudaMemcpyAsync (device to host)");
}

/* Portable: pinned for every CUDA context of the process, not only the current device's. */
static int cu_host_alloc(duet_ctx *ctx, size_t bytes, void **ptr, void **handle) {
  int status = use_device(ctx);
  if (status) return status;
  *handle = NULL;
  cudaError_t err = cudaHostAlloc(ptr, bytes, cudaHostAllocPortable);
  return err == cudaSuccess ? DUET_OK : cu_fail(ctx, err, "cudaHostAlloc");
}

static void cu_host_free(duet_ctx *ctx, void *ptr, void *handle) {
  (void)handle;
  if (use_device(ctx) == DUET_OK) cudaFreeHost(ptr);
}

static int cu_mem_copy(duet_ctx *ctx, void *dst, void *src, size_t bytes) {
  int status = use_device(ctx);
  if (status) return status;
  cudaError_t err = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, IMPL(ctx)->stream);
  return err == cudaSuccess ? DUET_OK : cu_fail(ctx, err, "cudaMemcpyAsync (device to device)");
}

/* ---- events ------------------------------------------------------------------------------- */

static int cu_event_alloc(duet_ctx *ctx, void **ev) {
  int status = use_device(ctx);
  if (status) return status;
  cudaError_t err = cudaEventCreate((cudaEvent_t *)ev);
  return err == cudaSuccess ? DUET_OK : cu_fail(ctx, err, "cudaEventCreate");
}

static void cu_event_free(duet_ctx *ctx, void *ev) {
  if (use_device(ctx) == DUET_OK) cudaEventDestroy((cudaEvent_t)ev);
}

static int cu_event_record(duet_ctx *ctx, void *ev) {
  int status = use_device(ctx);
  if (status) return status;
  cudaError_t err = cudaEventRecord((cudaEvent_t)ev, IMPL(ctx)->stream);
  return err == cudaSuccess ? DUET_OK : cu_fail(ctx, err, "cudaEventRecord");
}

static int cu_event_elapsed(duet_ctx *ctx, void *start, void *end, float *ms) {
  int status = use_device(ctx);
  if (status) return status;
  /* The events may be on two streams of a family: end's completion says nothing of start's. */
  cudaError_t err = cudaEventSynchronize((cudaEvent_t)start);
  if (err == cudaSuccess) err = cudaEventSynchronize((cudaEvent_t)end);
  if (err != cudaSuccess) return cu_fail(ctx, err, "cudaEventSynchronize");
  err = cudaEventElapsedTime(ms, (cudaEvent_t)start, (cudaEvent_t)end);
  return err == cudaSuccess ? DUET_OK : cu_fail(ctx, err, "cudaEventElapsedTime");
}

static int cu_event_wait(duet_ctx *ctx, void *ev) {
  int status = use_device(ctx);
  if (status) return status;
  cudaError_t err = cudaStreamWaitEvent(IMPL(ctx)->stream, (cudaEvent_t)ev, 0);
  return err == cudaSuccess ? DUET_OK : cu_fail(ctx, err, "cudaStreamWaitEvent");
}

static void *cu_native_queue(duet_ctx *ctx) { return IMPL(ctx)->stream; }

/* ---- kernels ------------------------------------------------------------------------------ */

#if CUDART_VERSION >= 11080
/* A launch of grid x block with `shared` dynamic bytes whose grid's z blocks form clusters of
 * cluster_z (at: the attribute cfg points to). */
static void cluster_config(cudaLaunchConfig_t *cfg, cudaLaunchAttribute *at, dim3 grid, dim3 block,
                           size_t shared, unsigned cluster_z) {
  memset(cfg, 0, sizeof *cfg);
  cfg->gridDim = grid;
  cfg->blockDim = block;
  cfg->dynamicSmemBytes = shared;
  at->id = cudaLaunchAttributeClusterDimension;
  at->val.clusterDim.x = at->val.clusterDim.y = 1;
  at->val.clusterDim.z = cluster_z;
  cfg->attrs = at;
  cfg->numAttrs = 1;
}
#endif

/* A cluster kernel (shape.z_cluster) on a device with clusters (the core refuses it on others,
 * src/launch.c): refused where its code was not built for compute capability 9.0 (a build for
 * older devices, JIT-compiled from their PTX, holds only a trap), else how many clusters of each
 * size 1 .. DUET__CLUSTER_MAX fit at once. */
static int cluster_kernel_load(duet_ctx *ctx, const duet__kernel_desc *d, const void *fn,
                               const struct cudaFuncAttributes *attr, duet__loaded *k) {
  if (attr->ptxVersion < 90)
    return duet__fail(ctx, DUET_EUNSUPPORTED,
                      "cuda: %s needs code built for compute capability 9.0 (this build's: %d), "
                      "for thread-block clusters",
                      d->name, attr->ptxVersion);
#if CUDART_VERSION >= 11080
  for (unsigned s = 1; s <= DUET__CLUSTER_MAX; s++) {
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute at;
    cluster_config(&cfg, &at, (dim3){1, 1, s}, (dim3){k->shape.block_x, k->shape.block_y, 1},
                   k->shape.shared_bytes, s);
    int n = 0;
    cudaError_t err = cudaOccupancyMaxActiveClusters(&n, fn, &cfg);
    if (err != cudaSuccess) return cu_fail(ctx, err, "cudaOccupancyMaxActiveClusters");
    k->cluster_slots[s] = n > 0 ? (unsigned)n : 0;
  }
#else
  (void)fn;
  (void)k;
#endif
  return DUET_OK;
}

static int cu_kernel_load(duet_ctx *ctx, const duet__kernel_desc *d, duet__loaded *k) {
  const duet__cu_kernel *row = NULL;
  for (const duet__cu_kernel *r = tables[d->group]; r->name && !row; r++)
    if (r->set == (int)ctx->set && strcmp(r->name, d->name) == 0) row = r;
  if (!row)
    return duet__fail(ctx, DUET_EBUILD, "cuda: kernel %s of tuning set %s is not compiled in",
                      d->name, duet_ctx_tuning(ctx));
  const duet__shape *s = &k->shape;
  if (row->block_x != s->block_x || row->block_y != s->block_y ||
      row->shared_bytes != s->shared_bytes)
    return duet__fail(ctx, DUET_EBUILD,
                      "cuda: %s (set %s) was compiled for %ux%u blocks with %zu shared bytes, but "
                      "the manifest launches %ux%u with %zu",
                      d->name, duet_ctx_tuning(ctx), row->block_x, row->block_y, row->shared_bytes,
                      s->block_x, s->block_y, s->shared_bytes);
  int status = use_device(ctx);
  if (status) return status;
  struct cudaFuncAttributes attr;
  cudaError_t err = cudaFuncGetAttributes(&attr, row->fn);
  if (err != cudaSuccess) return cu_fail(ctx, err, "cudaFuncGetAttributes");
  if (s->shared_bytes > 48 * 1024 && s->shared_bytes <= ctx->caps.shared_bytes &&
      (err = cudaFuncSetAttribute(row->fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  (int)s->shared_bytes)) != cudaSuccess)
    return cu_fail(ctx, err, "cudaFuncSetAttribute");
  if (s->z_cluster) {
    /* the shared memory of two blocks a unit (cudaOccupancyMaxActiveClusters counts with it) */
    if ((err = cudaFuncSetAttribute(row->fn, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    cudaSharedmemCarveoutMaxShared)) != cudaSuccess)
      return cu_fail(ctx, err, "cudaFuncSetAttribute");
    if ((status = cluster_kernel_load(ctx, d, row->fn, &attr, k))) return status;
  }
  k->fn = (void *)row->fn;
  k->max_threads = (unsigned)attr.maxThreadsPerBlock;
  /* AFTER_PRIOR_LAUNCH's wait is compiled only into code for compute capability 9.0 or later
   * (kernels_cl/builtin.h); a build JIT-compiled from older PTX lacks it, so it never overlaps */
#if CUDART_VERSION >= 11080
  k->can_overlap = attr.ptxVersion >= 90;
#endif
  return DUET_OK;
}

static void cu_kernel_unload(duet_ctx *ctx, duet__loaded *k) {
  (void)ctx;
  k->fn = NULL;
}

/* A launch with attributes: its grid's z blocks form a cluster (cluster_z above 1; the core
 * launches none where the device has no clusters, src/launch.c), and its blocks may be placed
 * while the launch before it finishes (overlap: the kernel waits for it itself). */
static cudaError_t launch_ex(const void *fn, dim3 grid, dim3 block, void **argv,
                             const duet__launch *l, cudaStream_t stream) {
#if CUDART_VERSION >= 11080
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute at[2];
  cluster_config(&cfg, at, grid, block, l->shared_bytes, l->cluster_z);
  cfg.numAttrs = l->cluster_z > 1;
  if (l->overlap) {
    at[cfg.numAttrs].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[cfg.numAttrs].val.programmaticStreamSerializationAllowed = 1;
    cfg.numAttrs++;
  }
  cfg.stream = stream;
  return cudaLaunchKernelExC(&cfg, fn, argv);
#else
  (void)fn, (void)grid, (void)block, (void)argv, (void)l, (void)stream;
  return cudaErrorNotSupported;
#endif
}

static int cu_launch(duet_ctx *ctx, const duet__kernel_desc *d, const duet__loaded *k,
                     const duet__launch *l, const duet__arg *args) {
  void *argv[32];
  /* cudaLaunchKernel takes the address of each argument; every union member starts at u. The
   * scratch letter of the signature is the launch's dynamic shared memory, not a parameter. */
  unsigned n = 0;
  for (const char *p = d->sig; *p && n < sizeof argv / sizeof argv[0]; p++)
    if (*p != 's') {
      argv[n] = (void *)&args[n].u;
      n++;
    }
  int status = use_device(ctx);
  if (status) return status;
  dim3 grid = {(unsigned)l->grid[0], (unsigned)l->grid[1], (unsigned)l->grid[2]};
  dim3 block = {l->block[0], l->block[1], l->block[2]};
  cudaError_t err;
  if (l->cluster_z > 1 || l->overlap)
    err = launch_ex(k->fn, grid, block, argv, l, IMPL(ctx)->stream);
  else
    err = cudaLaunchKernel(k->fn, grid, block, argv, l->shared_bytes, IMPL(ctx)->stream);
  return err == cudaSuccess ? DUET_OK : cu_fail(ctx, err, d->name);
}

/* The compiler's registers, static shared and local bytes, and the occupancy API's resident
 * blocks per multiprocessor at the launch's block and dynamic shared memory. */
static int cu_kernel_attrs(duet_ctx *ctx, const duet__kernel_desc *d, const duet__loaded *k,
                           duet__kernel_attrs *out) {
  (void)d;
  int status = use_device(ctx);
  if (status) return status;
  struct cudaFuncAttributes attr;
  cudaError_t err = cudaFuncGetAttributes(&attr, k->fn);
  if (err != cudaSuccess) return cu_fail(ctx, err, "cudaFuncGetAttributes");
  out->registers = attr.numRegs;
  out->code_version = attr.ptxVersion;
  out->static_shared_bytes = (long)attr.sharedSizeBytes;
  out->private_bytes = (long)attr.localSizeBytes;
  const int threads = (int)(k->shape.block_x * k->shape.block_y);
  int blocks = 0;
  err =
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k->fn, threads, k->shape.shared_bytes);
  if (err != cudaSuccess) return cu_fail(ctx, err, "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  const struct cudaDeviceProp *p = &IMPL(ctx)->prop;
  const int warps = (threads + p->warpSize - 1) / p->warpSize;
  out->blocks_per_unit = blocks;
  out->occupancy = (double)(blocks * warps * p->warpSize) / p->maxThreadsPerMultiProcessor;
  return DUET_OK;
}

int duet__cu_fail(duet_ctx *ctx, cudaError_t err, const char *call) {
  return cu_fail(ctx, err, call);
}

const duet__backend_ops duet__cuda_backend = {
    .id = DUET_BACKEND_CUDA,
    .name = "cuda",
    .device_count = cu_device_count,
    .ctx_open = cu_ctx_open,
    .ctx_open_shared = cu_ctx_open_shared,
    .ctx_close = cu_ctx_close,
    .ctx_info = cu_ctx_info,
    .finish = cu_finish,
    .mem_alloc = cu_mem_alloc,
    .mem_free = cu_mem_free,
    .mem_write = cu_mem_write,
    .mem_read = cu_mem_read,
    .mem_copy = cu_mem_copy,
    .mem_write_async = cu_mem_write_async,
    .mem_read_async = cu_mem_read_async,
    .host_alloc = cu_host_alloc,
    .host_free = cu_host_free,
    .event_alloc = cu_event_alloc,
    .event_free = cu_event_free,
    .event_record = cu_event_record,
    .event_elapsed = cu_event_elapsed,
    .event_wait = cu_event_wait,
    .native_queue = cu_native_queue,
    .kernel_load = cu_kernel_load,
    .kernel_unload = cu_kernel_unload,
    .launch = cu_launch,
    .kernel_attrs = cu_kernel_attrs,
    .program_build = duet__cu_program_build,
    .program_free = duet__cu_program_free,
    .program_kernel = duet__cu_program_kernel,
    .program_kernel_free = duet__cu_program_kernel_free,
    .program_launch = duet__cu_program_launch,
};
