/* SPDX-License-Identifier: MIT */
/* The OpenCL backend: one in-order (profiling) queue per duet_ctx, on the cl_context that every
 * duet_ctx of its device shares (opencl_programs.c), with the programs built on it (a family's
 * members also count their buffers' frees together: their buffers reach each other's kernels).
 * Each kernel is built on its first use as its own program: src/duet_kernel.h,
 * kernels_cl/common.cl and kernels_cl/builtin.h followed by its group's file (embedded at build
 * time), with the -D options the manifest gives for the context's tunable values and one that
 * compiles only that kernel of the file, so that a cold call waits for no other kernel. A kernel
 * that fails to build fails only the calls that need it. Every OpenCL call goes through
 * duet__cl, the ICD loader opened at run time (opencl_loader.c): without it the backend has no
 * device. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencl_internal.h"
#include "opencl_programs.h"

typedef struct {
  const char *name;
  const char *text;
} duet__cl_source;
extern const duet__cl_source duet__cl_sources[];
extern const duet__cl_source duet__kernel_header[]; /* src/duet_kernel.h, embedded */

/* Vendor queries (cl_nv_device_attribute_query, cl_amd_device_attribute_query; NVIDIA's compute
 * capability in opencl_internal.h). */
#ifndef CL_DEVICE_REGISTERS_PER_BLOCK_NV
#define CL_DEVICE_REGISTERS_PER_BLOCK_NV 0x4002
#endif
#ifndef CL_DEVICE_WARP_SIZE_NV
#define CL_DEVICE_WARP_SIZE_NV 0x4003
#endif
#ifndef CL_DEVICE_WAVEFRONT_WIDTH_AMD
#define CL_DEVICE_WAVEFRONT_WIDTH_AMD 0x4043
#endif

typedef struct cl_impl_ {
  cl_device_id device;
  cl_context context;      /* the device's shared one (a reference of this context's own) */
  duet__cl_device *shared; /* the device's record: context and built programs */
  cl_command_queue queue;
  size_t preferred_multiple;      /* of the first kernel built, for the warp size */
  cl_ulong max_alloc, global_mem; /* what one buffer and all of them may hold */
  unsigned long frees;            /* buffers released: a handle may since be another's */
  /* The family root's state (itself on a root): its count of frees serves every member, whose
   * buffers reach each other's kernels; counted atomically, members may run on other threads. */
  struct cl_impl_ *family;
  int members;   /* a root's: its family's other queues, open now (QUEUE_FLUSH 1 reads it) */
  int profiling; /* the queue records times (not under DUET_OPENCL_PROFILING=0) */
} cl_impl;

typedef struct {
  cl_event event; /* the marker of the latest record, or NULL */
} cl_marker;

/* A loaded kernel and the argument values it was last given. clSetKernelArg costs about 0.3 us
 * on NVIDIA (H100): setting only the values that changed keeps a repeated call near the raw
 * launch (duet-bench launch). */
#define CL_MAX_ARGS 24
typedef struct {
  cl_kernel kernel;
  cl_program program; /* the kernel's own, for callers that enqueue it themselves */
  unsigned char set[CL_MAX_ARGS];
  cl_ulong value[CL_MAX_ARGS]; /* the argument's bytes; the scratch size for a __local one */
  duet__gemm_scalars gemm;     /* a 'g' argument's value (a signature has at most one) */
  unsigned long frees;         /* the context's cl_impl.frees when the buffers were set */
} cl_loaded;

#define IMPL(ctx) ((cl_impl *)(ctx)->impl)

/* The context's queue, timing its commands unless $DUET_OPENCL_PROFILING=0: a way to measure
 * what NVIDIA's runtime pays for the timestamps in copies overlapped over several queues
 * (.ci/device-validate.sh gaps); events then order queues but cannot be timed. */
static cl_command_queue make_queue(cl_impl *im, cl_int *err) {
  const char *p = duet__getenv("DUET_OPENCL_PROFILING");
  im->profiling = !(p && strcmp(p, "0") == 0);
  return duet__cl.clCreateCommandQueue(im->context, im->device,
                                       im->profiling ? CL_QUEUE_PROFILING_ENABLE : 0, err);
}

/* Submits what was enqueued: NVIDIA's runtime holds commands back until a flush, which would
 * keep a copy from overlapping the other queues' work, and OpenCL requires one before another
 * queue may wait for an event of this one. */
static int flushed(duet_ctx *ctx, cl_int err, const char *call) {
  if (err == CL_SUCCESS) err = duet__cl.clFlush(IMPL(ctx)->queue), call = "clFlush";
  return err == CL_SUCCESS ? DUET_OK : duet__cl_fail(ctx, err, call);
}

/* ---- device enumeration: GPUs first, then other types, across the selected platforms ------ */

static int platform_selected(cl_platform_id p, const char *filter) {
  char name[256] = "";
  if (!filter) return 1;
  if (duet__cl.clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name - 1, name, NULL) != CL_SUCCESS)
    return 0;
  return strstr(name, filter) != NULL;
}

/* Enumeration runs under one lock. The ICD loader's first clGetPlatformIDs loads every vendor
 * library, and PoCL initialises its devices lazily in clGetDeviceIDs: several threads making
 * their first contexts at once crashed PoCL (4 runs in 8), or saw no device, or a device whose
 * limits read 0. It is not on any hot path. */
static pthread_mutex_t enumerate_lock = PTHREAD_MUTEX_INITIALIZER;

/* Fills devs (may be NULL) with up to max devices in duet's numbering; returns how many exist.
 * With none, why (n bytes) says why. */
static int enumerate_locked(cl_device_id *devs, int max, char *why, size_t n) {
  cl_uint np = 0;
  cl_int err = duet__cl.clGetPlatformIDs(0, NULL, &np);
  if (err != CL_SUCCESS || np == 0) {
    snprintf(why, n, "no OpenCL platform (clGetPlatformIDs: %s)", duet__cl_error_name(err));
    return 0;
  }
  cl_platform_id *plats = malloc(np * sizeof *plats);
  if (!plats || duet__cl.clGetPlatformIDs(np, plats, NULL) != CL_SUCCESS) {
    free(plats);
    snprintf(why, n, "cannot list the OpenCL platforms");
    return 0;
  }
  const char *filter = duet__getenv("DUET_OPENCL_PLATFORM");
  int count = 0, selected = 0;
  for (int gpu_pass = 1; gpu_pass >= 0; gpu_pass--) {
    for (cl_uint p = 0; p < np; p++) {
      if (!platform_selected(plats[p], filter)) continue;
      selected += gpu_pass;
      cl_uint nd = 0;
      cl_device_type type = gpu_pass ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_ALL;
      if (duet__cl.clGetDeviceIDs(plats[p], type, 0, NULL, &nd) != CL_SUCCESS || nd == 0) continue;
      cl_device_id *ids = malloc(nd * sizeof *ids);
      if (!ids || duet__cl.clGetDeviceIDs(plats[p], type, nd, ids, NULL) != CL_SUCCESS) {
        free(ids);
        continue;
      }
      for (cl_uint d = 0; d < nd; d++) {
        cl_device_type t = 0;
        duet__cl.clGetDeviceInfo(ids[d], CL_DEVICE_TYPE, sizeof t, &t, NULL);
        if (!gpu_pass && (t & CL_DEVICE_TYPE_GPU)) continue; /* listed in the GPU pass */
        if (devs && count < max) devs[count] = ids[d];
        count++;
      }
      free(ids);
    }
  }
  free(plats);
  if (!count && filter && !selected)
    snprintf(why, n, "none of the %u OpenCL platforms matches DUET_OPENCL_PLATFORM='%s'", np,
             filter);
  else if (!count)
    snprintf(why, n, "the OpenCL platforms%s%s%s have no device", filter ? " matching '" : "",
             filter ? filter : "", filter ? "'" : "");
  return count;
}

static int enumerate(cl_device_id *devs, int max, char *why, size_t n) {
  const char *unloaded = duet__cl_load();
  if (unloaded) {
    snprintf(why, n, "%s", unloaded);
    return 0;
  }
  pthread_mutex_lock(&enumerate_lock);
  int count = enumerate_locked(devs, max, why, n);
  pthread_mutex_unlock(&enumerate_lock);
  return count;
}

static int cl_device_count(int *count, char *why, size_t n) {
  *count = enumerate(NULL, 0, why, n);
  return DUET_OK;
}

/* ---- context ------------------------------------------------------------------------------ */

static void cl_ctx_close(duet_ctx *ctx) {
  cl_impl *im = IMPL(ctx);
  if (!im) return;
  if (im->queue && im->family != im) __atomic_sub_fetch(&im->family->members, 1, __ATOMIC_RELAXED);
  if (im->queue) duet__cl.clReleaseCommandQueue(im->queue);
  if (im->context) duet__cl.clReleaseContext(im->context);
  duet__cl_device_release(im->shared);
  free(im);
  ctx->impl = NULL;
}

/* What the core needs to know of the device: its type and vendor (for the tuning set), and the
 * limits every launch is checked against. */
static cl_int read_caps(cl_device_id dev, duet__caps *c) {
  cl_device_type type = 0;
  size_t group = 0;
  cl_ulong local = 0;
  cl_uint units = 0;
  cl_int err = duet__cl.clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  if (err == CL_SUCCESS)
    err = duet__cl.clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
  if (err == CL_SUCCESS)
    err = duet__cl.clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof group, &group, NULL);
  if (err == CL_SUCCESS)
    err = duet__cl.clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
  if (err != CL_SUCCESS) return err;
  cl_ulong cache = 0;
  c->cache_bytes = duet__cl.clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache,
                                            &cache, NULL) == CL_SUCCESS
                       ? (size_t)cache
                       : 0;
  c->type = type & CL_DEVICE_TYPE_GPU   ? DUET_DEVICE_GPU
            : type & CL_DEVICE_TYPE_CPU ? DUET_DEVICE_CPU
                                        : DUET_DEVICE_OTHER;
  cl_uint major = 0, minor = 0;
  c->nvidia = duet__cl.clGetDeviceInfo(dev, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major,
                                       &major, NULL) == CL_SUCCESS;
  if (c->nvidia)
    duet__cl.clGetDeviceInfo(dev, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor,
                             NULL);
  c->cc_major = (int)major;
  c->cc_minor = (int)minor;
  c->compute_units = units;
  c->max_block_threads = group > 0xffffffffu ? 0xffffffffu : (unsigned)group;
  c->shared_bytes = (size_t)local;
  /* NVIDIA's OpenCL runs on CUDA's grid limits; elsewhere a global size is any size_t, and the
   * core's 2^32-block bound is what counts. */
  for (int d = 0; d < 3; d++) c->max_grid[d] = c->nvidia ? (d ? 65535u : 0x7fffffffu) : 0xffffffffu;
  c->runtime_compile = 1;
  /* Sub-group functions for the reduction's last steps (kernels_cl/reduce.cl). */
  char ext[8192] = "";
  if (duet__cl.clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL) != CL_SUCCESS)
    ext[0] = '\0';
  c->subgroups = strstr(ext, "cl_khr_subgroups") ? 1 : strstr(ext, "cl_intel_subgroups") ? 2 : 0;
  return CL_SUCCESS;
}

static int cl_ctx_open(duet_ctx *ctx, int device) {
  const char *unloaded = duet__cl_load();
  if (unloaded) return duet__fail(ctx, DUET_ENODEV, "opencl: no device: %s", unloaded);
  char why[512] = "";
  int n = enumerate(NULL, 0, why, sizeof why);
  if (device >= n) {
    return duet__fail(ctx, DUET_ENODEV, "opencl: device %d does not exist (%d device%s%s%s)",
                      device, n, n == 1 ? "" : "s", *why ? ": " : "", why);
  }
  cl_device_id *devs = malloc((size_t)n * sizeof *devs);
  if (!devs) return duet__fail(ctx, DUET_ENOMEM, "opencl: out of host memory");
  enumerate(devs, n, why, sizeof why);
  cl_impl *im = calloc(1, sizeof *im);
  if (!im) {
    free(devs);
    return duet__fail(ctx, DUET_ENOMEM, "opencl: out of host memory");
  }
  im->device = devs[device];
  im->family = im;
  free(devs);
  ctx->impl = im;
  /* `failed` names the first call that failed; what was made before it is released. */
  const char *failed = NULL;
  cl_int err;
  err = duet__cl_device_acquire(im->device, &im->shared);
  if (err != CL_SUCCESS) failed = "clCreateContext";
  if (!failed) {
    im->context = duet__cl_device_context(im->shared);
    if ((err = duet__cl.clRetainContext(im->context)) != CL_SUCCESS) {
      im->context = NULL;
      failed = "clRetainContext";
    }
  }
  if (!failed) {
    im->queue = make_queue(im, &err);
    if (!im->queue) failed = "clCreateCommandQueue";
  }
  if (!failed && (err = read_caps(im->device, &ctx->caps)) == CL_SUCCESS &&
      (err = duet__cl.clGetDeviceInfo(im->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                                      sizeof im->max_alloc, &im->max_alloc, NULL)) == CL_SUCCESS)
    err = duet__cl.clGetDeviceInfo(im->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof im->global_mem,
                                   &im->global_mem, NULL);
  if (!failed && err != CL_SUCCESS) failed = "clGetDeviceInfo";
  if (!failed) return DUET_OK;
  int status = duet__cl_fail(ctx, err, failed);
  cl_ctx_close(ctx);
  return status;
}

/* Group g's file, and the files every group's program starts with (kernels_cl/common.cl, then
 * kernels_cl/builtin.h, which the kernels written once for both backends need). */
static const char *group_source(duet__group g, const char **common, const char **builtin) {
  const char *text = NULL;
  *common = *builtin = NULL;
  for (const duet__cl_source *src = duet__cl_sources; src->name; src++) {
    if (!strcmp(src->name, "common")) *common = src->text;
    if (!strcmp(src->name, "builtin")) *builtin = src->text;
    if (!strcmp(src->name, duet__groups[g].source)) text = src->text;
  }
  return *common && *builtin ? text : NULL;
}

/* Whether group g is in $var, a comma-separated list of group names. */
static int listed(const char *var, duet__group g) {
  const char *list = duet__getenv(var), *name = duet__groups[g].name;
  size_t len = strlen(name);
  for (const char *p = list; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
    if (strncmp(p, name, len) == 0 && (p[len] == ',' || p[len] == '\0')) return 1;
  }
  return 0;
}

/* NVIDIA's register cap for a kernel whose blocks of `threads` must fit `min_blocks` to a compute
 * unit (duet__shape.min_blocks): the register file shared out, in the allocation's steps of 8;
 * 0 where there is no such need or the device is not NVIDIA's. */
static unsigned nv_register_cap(const duet_ctx *ctx, unsigned threads, unsigned min_blocks) {
  cl_uint regs = 0;
  if (!ctx->caps.nvidia || !min_blocks || !threads) return 0;
  if (duet__cl.clGetDeviceInfo(IMPL(ctx)->device, CL_DEVICE_REGISTERS_PER_BLOCK_NV, sizeof regs,
                               &regs, NULL) != CL_SUCCESS ||
      !regs)
    regs = 65536;
  const unsigned cap = regs / (threads * min_blocks) / 8 * 8;
  return cap < 16 ? 16 : cap > 255 ? 0 : cap;
}

/* Whether the disk cache keeps kernel group g's programs as CUBINs on NVIDIA: only where the
 * driver's own cache is off (CUDA_CACHE_DISABLE=1; otherwise it keeps the SASS of PTX it has
 * assembled: a warm first fast sgemm took about 6 ms from PTX on an H100), and only for the
 * production GEMM groups (fast at every tile, skinny, GEMV: by their source file, so that a new
 * tile's group is one of them), whose ptxas takes 0.3-1.2 s a kernel. The transposes from a CUBIN
 * ran 1.2-1.75x slower than the driver's build of the same PTX on the H200, with or without the
 * build's register cap, for a reason not yet found (docs/results/h200.md, fourteenth session). */
static int nv_cubin_wanted(duet__group g) {
  const char *off = duet__getenv("CUDA_CACHE_DISABLE");
  const int driver_cache_off = off && strcmp(off, "1") == 0;
  const char *src = duet__groups[g].source;
  const int gemm =
      !strcmp(src, "gemm_fast") || !strcmp(src, "gemm_skinny") || !strcmp(src, "gemm_gemv");
  return driver_cache_off && gemm;
}

/* Kernel d's program: duet_kernel.h (the dialect), common.cl, builtin.h, then its group's file
 * compiled for d alone (-DDUET_KERNEL_ONLY -DDUET_WANT_<name>), with its group's -D options,
 * and on NVIDIA a register cap where its shape asks for blocks to fit (nv_register_cap).
 * The test hooks DUET_TEST_BREAK_GROUPS and DUET_TEST_WARN_GROUPS name groups that common.cl
 * makes fail to build or build with a warning, to prove both paths; they are options, so part
 * of the key that finds a program in memory and on disk. */
static int kernel_program(duet_ctx *ctx, const duet__kernel_desc *d, const duet__shape *shape,
                          cl_program *prog) {
  const duet__group g = d->group;
  const char *common, *builtin, *text = group_source(g, &common, &builtin);
  if (!text)
    return duet__fail(ctx, DUET_EBUILD, "opencl: no source embedded for kernel group %s",
                      duet__groups[g].name);
  char *tunables = duet__group_options(ctx, g);
  if (!tunables) return duet__fail(ctx, DUET_ENOMEM, "opencl: out of host memory");
  const char *extra[] = {ctx->caps.nvidia           ? " -DDUET_NVIDIA"
                         : ctx->caps.subgroups == 1 ? " -DDUET_SUBGROUPS=1"
                         : ctx->caps.subgroups == 2 ? " -DDUET_SUBGROUPS=2"
                                                    : "",
                         listed("DUET_TEST_BREAK_GROUPS", g) ? " -DDUET_TEST_BREAK" : "",
                         listed("DUET_TEST_WARN_GROUPS", g) ? " -DDUET_TEST_WARN" : ""};
  char regs[40] = "";
  const unsigned cap = nv_register_cap(ctx, shape->block_x * shape->block_y, shape->min_blocks);
  if (cap) snprintf(regs, sizeof regs, " -cl-nv-maxrregcount=%u", cap);
  size_t len = strlen(tunables) + strlen(d->name) + strlen(regs) + 64;
  for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) len += strlen(extra[i]);
  char *options = malloc(len);
  char what[160];
  if (!options) {
    free(tunables);
    return duet__fail(ctx, DUET_ENOMEM, "opencl: out of host memory");
  }
  snprintf(options, len, "-cl-std=CL1.2 %s -DDUET_KERNEL_ONLY -DDUET_WANT_%s%s%s%s%s", tunables,
           d->name, extra[0], extra[1], extra[2], regs);
  snprintf(what, sizeof what, "%s of kernel group %s", d->name, duet__groups[g].name);
  free(tunables);
  const char *srcs[] = {duet__kernel_header[0].text, common, builtin, text};
  const int status = duet__cl_program_get(ctx, IMPL(ctx)->shared, 4, srcs, options, what,
                                          nv_cubin_wanted(g), prog);
  free(options);
  return status;
}

static int cl_kernel_load(duet_ctx *ctx, const duet__kernel_desc *d, duet__loaded *k) {
  cl_impl *im = IMPL(ctx);
  cl_program prog;
  int status = kernel_program(ctx, d, &k->shape, &prog);
  if (status) return status;
  cl_int err;
  cl_kernel kern = duet__cl.clCreateKernel(prog, d->name, &err);
  duet__cl.clReleaseProgram(prog); /* the kernel holds it */
  if (!kern) return duet__cl_fail(ctx, err, d->name);
  size_t limit = 0, compiled[3] = {0, 0, 0}, multiple = 0;
  err = duet__cl.clGetKernelWorkGroupInfo(kern, im->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof limit,
                                          &limit, NULL);
  if (err == CL_SUCCESS)
    err = duet__cl.clGetKernelWorkGroupInfo(kern, im->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                            sizeof compiled, compiled, NULL);
  if (err == CL_SUCCESS)
    err = duet__cl.clGetKernelWorkGroupInfo(kern, im->device,
                                            CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                            sizeof multiple, &multiple, NULL);
  if (err != CL_SUCCESS) {
    duet__cl.clReleaseKernel(kern);
    return duet__cl_fail(ctx, err, "clGetKernelWorkGroupInfo");
  }
  /* A kernel that declares reqd_work_group_size must be launched with exactly that block. */
  if (compiled[0] && (compiled[0] != k->shape.block_x || compiled[1] != k->shape.block_y)) {
    duet__cl.clReleaseKernel(kern);
    return duet__fail(ctx, DUET_EBUILD,
                      "opencl: %s was compiled for %zux%zu work-groups, but the manifest launches "
                      "%ux%u",
                      d->name, compiled[0], compiled[1], k->shape.block_x, k->shape.block_y);
  }
  /* A kernel compiled for a required work-group size runs at that size: the compiler fitted its
   * registers to it or failed the build. NVIDIA's OpenCL reports CL_KERNEL_WORK_GROUP_SIZE 256
   * for every kernel here, also 28-register ones compiled for 64 x 16 that run at 1024 (H100,
   * 2026-11-22); taken at its word, it would rule out tiled and padded-tall there. */
  const size_t required = compiled[0] * compiled[1] * (compiled[2] ? compiled[2] : 1);
  if (required > limit) limit = required;
  cl_loaded *loaded = calloc(1, sizeof *loaded);
  if (!loaded || strlen(d->sig) > CL_MAX_ARGS) {
    const int status = loaded ? DUET_EINVAL : DUET_ENOMEM; /* decided before loaded is freed */
    free(loaded);
    duet__cl.clReleaseKernel(kern);
    return duet__fail(ctx, status, "opencl: cannot hold the arguments of %s", d->name);
  }
  loaded->kernel = kern;
  loaded->program = prog;
  if (!im->preferred_multiple) im->preferred_multiple = multiple;
  k->fn = loaded;
  k->max_threads = limit > 0xffffffffu ? 0xffffffffu : (unsigned)limit;
  return DUET_OK;
}

static void cl_kernel_unload(duet_ctx *ctx, duet__loaded *k) {
  (void)ctx;
  cl_loaded *loaded = k->fn;
  if (loaded) duet__cl.clReleaseKernel(loaded->kernel);
  free(loaded);
  k->fn = NULL;
}

static void info_string(cl_device_id dev, cl_device_info what, char *dst, size_t len) {
  if (duet__cl.clGetDeviceInfo(dev, what, len - 1, dst, NULL) != CL_SUCCESS) dst[0] = '\0';
  dst[len - 1] = '\0';
}

/* The lockstep width: NVIDIA and AMD report it; elsewhere the preferred work-group multiple of a
 * kernel already built is the portable equivalent. Never builds anything to find out. */
static unsigned warp_size(duet_ctx *ctx) {
  cl_impl *im = IMPL(ctx);
  cl_uint w = 0;
  if (duet__cl.clGetDeviceInfo(im->device, CL_DEVICE_WARP_SIZE_NV, sizeof w, &w, NULL) ==
          CL_SUCCESS &&
      w)
    return w;
  if (duet__cl.clGetDeviceInfo(im->device, CL_DEVICE_WAVEFRONT_WIDTH_AMD, sizeof w, &w, NULL) ==
          CL_SUCCESS &&
      w)
    return w;
  return im->preferred_multiple ? (unsigned)im->preferred_multiple : 1;
}

static int cl_ctx_info(duet_ctx *ctx, duet_device_info *info) {
  cl_impl *im = IMPL(ctx);
  info_string(im->device, CL_DEVICE_NAME, info->name, sizeof info->name);
  info_string(im->device, CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor);
  info_string(im->device, CL_DEVICE_VERSION, info->version, sizeof info->version);
  info->compute_units = ctx->caps.compute_units;
  info->max_block_threads = ctx->caps.max_block_threads;
  info->warp_size = warp_size(ctx);
  info->global_mem_bytes = (size_t)im->global_mem;
  info->cache_bytes = ctx->caps.cache_bytes;
  info->shared_mem_bytes = ctx->caps.shared_bytes;
  return DUET_OK;
}

static int cl_finish(duet_ctx *ctx) {
  cl_int err = duet__cl.clFinish(IMPL(ctx)->queue);
  return err == CL_SUCCESS ? DUET_OK : duet__cl_fail(ctx, err, "clFinish");
}

/* ---- memory ------------------------------------------------------------------------------- */

/* Refuses what the device cannot hold, then makes the allocation real: NVIDIA's OpenCL accepts
 * clCreateBuffer of 2^62 bytes and fails only at the first kernel that touches it. Migrating
 * the buffer to the device (its contents undefined, as a new buffer's are) allocates it now,
 * so out-of-memory surfaces here; it waits for the queue's earlier work. */
static int cl_mem_alloc(duet_ctx *ctx, size_t bytes, void **mem) {
  cl_impl *im = IMPL(ctx);
  if (bytes > im->max_alloc || bytes > im->global_mem)
    return duet__fail(ctx, DUET_ENOMEM,
                      "opencl: %zu bytes exceed the device's largest allocation (%llu bytes) or "
                      "its memory (%llu bytes)",
                      bytes, (unsigned long long)im->max_alloc, (unsigned long long)im->global_mem);
  cl_int err;
  cl_mem m = duet__cl.clCreateBuffer(im->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
  if (!m) return duet__cl_fail(ctx, err, "clCreateBuffer");
  cl_event done;
  err = duet__cl.clEnqueueMigrateMemObjects(
      im->queue, 1, &m, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL, &done);
  if (err == CL_SUCCESS) {
    cl_int status = CL_COMPLETE;
    err = duet__cl.clWaitForEvents(1, &done);
    if (err == CL_SUCCESS)
      duet__cl.clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                              NULL);
    if (err == CL_SUCCESS && status < 0) err = status;
    duet__cl.clReleaseEvent(done);
  }
  if (err != CL_SUCCESS) {
    duet__cl.clReleaseMemObject(m);
    /* A failed first touch is the allocation failing. */
    return duet__cl_fail(ctx,
                         err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
                             ? CL_MEM_OBJECT_ALLOCATION_FAILURE
                             : err,
                         "clEnqueueMigrateMemObjects (making the allocation real)");
  }
  *mem = m;
  return DUET_OK;
}

static void cl_mem_free(duet_ctx *ctx, void *mem) {
  __atomic_add_fetch(&IMPL(ctx)->family->frees, 1, __ATOMIC_RELAXED);
  duet__cl.clReleaseMemObject((cl_mem)mem);
}

static int cl_mem_write(duet_ctx *ctx, void *mem, size_t offset, const void *src, size_t bytes) {
  cl_int err = duet__cl.clEnqueueWriteBuffer(IMPL(ctx)->queue, (cl_mem)mem, CL_TRUE, offset, bytes,
                                             src, 0, NULL, NULL);
  return err == CL_SUCCESS ? DUET_OK : duet__cl_fail(ctx, err, "clEnqueueWriteBuffer");
}

static int cl_mem_read(duet_ctx *ctx, void *mem, size_t offset, void *dst, size_t bytes) {
  cl_int err = duet__cl.clEnqueueReadBuffer(IMPL(ctx)->queue, (cl_mem)mem, CL_TRUE, offset, bytes,
                                            dst, 0, NULL, NULL);
  return err == CL_SUCCESS ? DUET_OK : duet__cl_fail(ctx, err, "clEnqueueReadBuffer");
}

static int cl_mem_copy(duet_ctx *ctx, void *dst, void *src, size_t bytes) {
  cl_int err = duet__cl.clEnqueueCopyBuffer(IMPL(ctx)->queue, (cl_mem)src, (cl_mem)dst, 0, 0, bytes,
                                            0, NULL, NULL);
  return err == CL_SUCCESS ? DUET_OK : duet__cl_fail(ctx, err, "clEnqueueCopyBuffer");
}

/* ---- events ------------------------------------------------------------------------------- */

static int cl_event_alloc(duet_ctx *ctx, void **ev) {
  cl_marker *m = calloc(1, sizeof *m);
  if (!m) return duet__fail(ctx, DUET_ENOMEM, "opencl: out of host memory");
  *ev = m;
  return DUET_OK;
}

static void cl_event_free(duet_ctx *ctx, void *ev) {
  (void)ctx;
  cl_marker *m = ev;
  if (m->event) duet__cl.clReleaseEvent(m->event);
  free(m);
}

static int cl_event_record(duet_ctx *ctx, void *ev) {
  cl_marker *m = ev;
  cl_event e;
  cl_int err = duet__cl.clEnqueueMarkerWithWaitList(IMPL(ctx)->queue, 0, NULL, &e);
  if (err != CL_SUCCESS) return duet__cl_fail(ctx, err, "clEnqueueMarkerWithWaitList");
  if (m->event) duet__cl.clReleaseEvent(m->event);
  m->event = e;
  /* Another queue of the family may wait for it (cl_event_wait). */
  return flushed(ctx, CL_SUCCESS, NULL);
}

static int cl_event_elapsed(duet_ctx *ctx, void *start, void *end, float *ms) {
  cl_event s = ((cl_marker *)start)->event, e = ((cl_marker *)end)->event;
  cl_ulong t0 = 0, t1 = 0;
  if (!IMPL(ctx)->profiling)
    return duet__fail(ctx, DUET_EUNSUPPORTED,
                      "opencl: the queues were made without profiling (DUET_OPENCL_PROFILING=0): "
                      "events order them but have no times");
  /* The markers may be in two queues of a family: end's completion says nothing of start's. */
  const cl_event both[2] = {s, e};
  cl_int err = duet__cl.clWaitForEvents(2, both);
  if (err != CL_SUCCESS) return duet__cl_fail(ctx, err, "clWaitForEvents");
  err = duet__cl.clGetEventProfilingInfo(s, CL_PROFILING_COMMAND_END, sizeof t0, &t0, NULL);
  if (err == CL_SUCCESS)
    err = duet__cl.clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
  if (err != CL_SUCCESS) return duet__cl_fail(ctx, err, "clGetEventProfilingInfo");
  *ms = (float)((double)(cl_long)(t1 - t0) * 1e-6);
  return DUET_OK;
}

static void *cl_native_queue(duet_ctx *ctx) { return IMPL(ctx)->queue; }

/* ---- launch ------------------------------------------------------------------------------- */

static int cl_launch(duet_ctx *ctx, const duet__kernel_desc *d, const duet__loaded *k,
                     const duet__launch *l, const duet__arg *args) {
  size_t global[3], local[3];
  for (int dim = 0; dim < 3; dim++) {
    local[dim] = l->block[dim];
    if (__builtin_mul_overflow(l->grid[dim], local[dim], &global[dim]))
      return duet__fail(ctx, DUET_EUNSUPPORTED, "opencl: global size of %s overflows", d->name);
  }
  cl_loaded *loaded = k->fn;
  const cl_kernel kern = loaded->kernel;
  const char *const sig = d->sig;
  /* A buffer is set again after any buffer of the context was released: a new cl_mem may reuse
   * a freed one's handle, and a runtime may have resolved the old one's device address when it
   * was set. Handles of other families never reach this kernel; the family counts its frees. */
  const unsigned long frees = __atomic_load_n(&IMPL(ctx)->family->frees, __ATOMIC_RELAXED);
  const int stale = loaded->frees != frees;
  cl_int err = CL_SUCCESS;
  unsigned next = 0; /* the next entry of args; the signature's scratch letter takes none */
  for (cl_uint i = 0; sig[i]; i++) {
    /* The value as the kernel gets it, zero-extended into `bytes` (a 'g' argument is compared
     * and kept whole instead); clSetKernelArg reads it from the argument's union, each of whose
     * members has its OpenCL type's size. */
    cl_ulong bytes = 0;
    size_t size;
    const void *at = NULL;
    const duet__arg *a = sig[i] == 's' ? NULL : &args[next++];
    int same = loaded->set[i];
    if (!a) {
      size = l->shared_bytes;
      bytes = size;
    } else {
      at = &a->u;
      switch (a->kind) {
        case DUET__ARG_MEM: size = sizeof(cl_mem), bytes = (cl_ulong)(uintptr_t)a->u.mem; break;
        case DUET__ARG_I64: size = sizeof(cl_long), bytes = (cl_ulong)a->u.i64; break;
        case DUET__ARG_I32: size = sizeof(cl_int), bytes = (cl_uint)a->u.i32; break;
        case DUET__ARG_GEMM:
          size = sizeof a->u.gemm;
          same = same && memcmp(&loaded->gemm, &a->u.gemm, size) == 0;
          break;
        default: {
          cl_uint f32;
          memcpy(&f32, &a->u.f32, sizeof f32);
          size = sizeof(cl_float), bytes = f32;
        }
      }
    }
    if (same && loaded->value[i] == bytes && !(stale && sig[i] == 'm')) continue;
    err = duet__cl.clSetKernelArg(kern, i, size, at);
    loaded->set[i] = err == CL_SUCCESS;
    loaded->value[i] = bytes;
    if (a && a->kind == DUET__ARG_GEMM) loaded->gemm = a->u.gemm;
    if (err != CL_SUCCESS) return duet__cl_fail(ctx, err, "clSetKernelArg");
  }
  loaded->frees = frees;
  err = duet__cl.clEnqueueNDRangeKernel(IMPL(ctx)->queue, kern, 3, NULL, global, local, 0, NULL,
                                        NULL);
  if (err != CL_SUCCESS) return duet__cl_fail(ctx, err, "clEnqueueNDRangeKernel");
  /* QUEUE_FLUSH: a kernel left unsubmitted can keep other queues' copies waiting on it, and a
   * lone queue's caller sees it start no later than its next copy, event or wait. */
  const int policy = ctx->tun[DUET__T_QUEUE_FLUSH];
  return policy == 2 ||
                 (policy == 1 && __atomic_load_n(&IMPL(ctx)->family->members, __ATOMIC_RELAXED))
             ? flushed(ctx, CL_SUCCESS, NULL)
             : DUET_OK;
}

/* ---- families, async copies, pinned memory ----------------------------------------------- */

/* A family member: a queue of its own on the parent's cl_context (retained, not borrowed, so the
 * member owns what it holds) and device, which are every context's of the device; programs come
 * from the device's record, of which the member holds a reference of its own. */
static int cl_ctx_open_shared(duet_ctx *ctx, duet_ctx *parent) {
  const cl_impl *pim = IMPL(parent);
  cl_impl *im = calloc(1, sizeof *im);
  if (!im) return duet__fail(ctx, DUET_ENOMEM, "opencl: out of host memory");
  im->device = pim->device;
  im->max_alloc = pim->max_alloc;
  im->global_mem = pim->global_mem;
  im->family = pim->family;
  cl_int err = duet__cl_device_acquire(im->device, &im->shared);
  if (err == CL_SUCCESS && (err = duet__cl.clRetainContext(pim->context)) != CL_SUCCESS)
    duet__cl_device_release(im->shared);
  if (err != CL_SUCCESS) {
    free(im);
    return duet__cl_fail(ctx, err, "clRetainContext");
  }
  im->context = pim->context;
  ctx->impl = im;
  im->queue = make_queue(im, &err);
  if (im->queue) {
    __atomic_add_fetch(&im->family->members, 1, __ATOMIC_RELAXED);
    return DUET_OK;
  }
  int status = duet__cl_fail(ctx, err, "clCreateCommandQueue");
  cl_ctx_close(ctx);
  return status;
}

/* Non-blocking. From a pinned allocation's mapped pointer NVIDIA's OpenCL copies by DMA (its
 * best-practices guide's way to pinned transfers; not yet measured here). */
static int cl_mem_write_async(duet_ctx *ctx, void *mem, size_t offset, const void *src,
                              size_t bytes) {
  return flushed(ctx,
                 duet__cl.clEnqueueWriteBuffer(IMPL(ctx)->queue, (cl_mem)mem, CL_FALSE, offset,
                                               bytes, src, 0, NULL, NULL),
                 "clEnqueueWriteBuffer (non-blocking)");
}

static int cl_mem_read_async(duet_ctx *ctx, void *mem, size_t offset, void *dst, size_t bytes) {
  return flushed(ctx,
                 duet__cl.clEnqueueReadBuffer(IMPL(ctx)->queue, (cl_mem)mem, CL_FALSE, offset,
                                              bytes, dst, 0, NULL, NULL),
                 "clEnqueueReadBuffer (non-blocking)");
}

/* A CL_MEM_ALLOC_HOST_PTR buffer, mapped until it is freed: its mapped pointer is the memory
 * the caller gets, and the buffer the handle that the free unmaps and releases. */
static int cl_host_alloc(duet_ctx *ctx, size_t bytes, void **ptr, void **handle) {
  cl_impl *im = IMPL(ctx);
  if (bytes > im->max_alloc)
    return duet__fail(ctx, DUET_ENOMEM,
                      "opencl: %zu bytes of pinned memory exceed the device's largest allocation "
                      "(%llu bytes)",
                      bytes, (unsigned long long)im->max_alloc);
  cl_int err;
  cl_mem m = duet__cl.clCreateBuffer(im->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes,
                                     NULL, &err);
  if (!m) return duet__cl_fail(ctx, err, "clCreateBuffer (CL_MEM_ALLOC_HOST_PTR)");
  void *p = duet__cl.clEnqueueMapBuffer(im->queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes,
                                        0, NULL, NULL, &err);
  if (!p) {
    duet__cl.clReleaseMemObject(m);
    return duet__cl_fail(ctx, err, "clEnqueueMapBuffer");
  }
  *ptr = p;
  *handle = m;
  return DUET_OK;
}

/* Waits for the unmap, so that nothing of the allocation outlives the call. */
static void cl_host_free(duet_ctx *ctx, void *ptr, void *handle) {
  cl_event done;
  cl_int err =
      duet__cl.clEnqueueUnmapMemObject(IMPL(ctx)->queue, (cl_mem)handle, ptr, 0, NULL, &done);
  if (err == CL_SUCCESS) {
    duet__cl.clWaitForEvents(1, &done);
    duet__cl.clReleaseEvent(done);
  } else {
    duet__cl_fail(ctx, err, "clEnqueueUnmapMemObject");
  }
  duet__cl.clReleaseMemObject((cl_mem)handle);
}

static int cl_event_wait(duet_ctx *ctx, void *ev) {
  cl_marker *m = ev;
  return flushed(ctx, duet__cl.clEnqueueBarrierWithWaitList(IMPL(ctx)->queue, 1, &m->event, NULL),
                 "clEnqueueBarrierWithWaitList");
}

/* OpenCL tells the private bytes per work-item and the local bytes (the kernel's own __local
 * variables, plus any __local argument already set); no registers and no occupancy. */
static int cl_kernel_attrs(duet_ctx *ctx, const duet__kernel_desc *d, const duet__loaded *k,
                           duet__kernel_attrs *out) {
  (void)d;
  const cl_kernel kern = ((const cl_loaded *)k->fn)->kernel;
  cl_ulong local = 0, priv = 0;
  cl_int err = duet__cl.clGetKernelWorkGroupInfo(kern, IMPL(ctx)->device, CL_KERNEL_LOCAL_MEM_SIZE,
                                                 sizeof local, &local, NULL);
  if (err == CL_SUCCESS)
    err = duet__cl.clGetKernelWorkGroupInfo(kern, IMPL(ctx)->device, CL_KERNEL_PRIVATE_MEM_SIZE,
                                            sizeof priv, &priv, NULL);
  if (err != CL_SUCCESS) return duet__cl_fail(ctx, err, "clGetKernelWorkGroupInfo");
  out->static_shared_bytes = (long)local;
  out->private_bytes = (long)priv;
  return DUET_OK;
}

/* ---- shared with opencl_program.c --------------------------------------------------------- */

int duet__cl_program(duet_ctx *ctx, const char *text, const char *options, const char *what,
                     cl_program *out) {
  return duet__cl_program_get(ctx, IMPL(ctx)->shared, 1, &text, options, what, 0, out);
}

const duet__backend_ops duet__opencl_backend = {
    .id = DUET_BACKEND_OPENCL,
    .name = "opencl",
    .device_count = cl_device_count,
    .ctx_open = cl_ctx_open,
    .ctx_open_shared = cl_ctx_open_shared,
    .ctx_close = cl_ctx_close,
    .ctx_info = cl_ctx_info,
    .finish = cl_finish,
    .mem_alloc = cl_mem_alloc,
    .mem_free = cl_mem_free,
    .mem_write = cl_mem_write,
    .mem_read = cl_mem_read,
    .mem_copy = cl_mem_copy,
    .mem_write_async = cl_mem_write_async,
    .mem_read_async = cl_mem_read_async,
    .host_alloc = cl_host_alloc,
    .host_free = cl_host_free,
    .event_alloc = cl_event_alloc,
    .event_free = cl_event_free,
    .event_record = cl_event_record,
    .event_elapsed = cl_event_elapsed,
    .event_wait = cl_event_wait,
    .native_queue = cl_native_queue,
    .kernel_load = cl_kernel_load,
    .kernel_unload = cl_kernel_unload,
    .launch = cl_launch,
    .kernel_attrs = cl_kernel_attrs,
    .program_build = duet__cl_program_build,
    .program_free = duet__cl_program_free,
    .program_kernel = duet__cl_program_kernel,
    .program_kernel_free = duet__cl_program_kernel_free,
    .program_launch = duet__cl_program_launch,
};
