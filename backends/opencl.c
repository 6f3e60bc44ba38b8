/* The OpenCL backend: one context, device and in-order profiling queue per duet_ctx; the program
 * (all of kernels_cl/, embedded at build time) is built lazily, once per context. */
#define CL_TARGET_OPENCL_VERSION 120
#ifdef __APPLE__
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duet_internal.h"

extern const char duet__cl_program_source[];

#ifndef CL_DEVICE_WARP_SIZE_NV
#define CL_DEVICE_WARP_SIZE_NV 0x4003
#endif
#define CL_PLATFORM_NOT_FOUND_KHR_ (-1001)

typedef struct {
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_program program;
  cl_kernel kernels[DUET__K_COUNT];
  size_t max_group_size;
  cl_ulong local_mem;
} cl_impl;

typedef struct {
  cl_event event; /* the marker of the latest record, or NULL */
} cl_marker;

static const char *cl_error_name(cl_int err) {
  // clang-format off: one status per line, which the formatter would fold into a staircase
  switch (err) {
#define E(x) \
  case x: return #x;
    E(CL_SUCCESS)
    E(CL_DEVICE_NOT_FOUND)
    E(CL_DEVICE_NOT_AVAILABLE)
    E(CL_COMPILER_NOT_AVAILABLE)
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    E(CL_OUT_OF_RESOURCES)
    E(CL_OUT_OF_HOST_MEMORY)
    E(CL_PROFILING_INFO_NOT_AVAILABLE)
    E(CL_BUILD_PROGRAM_FAILURE)
    E(CL_INVALID_VALUE)
    E(CL_INVALID_DEVICE_TYPE)
    E(CL_INVALID_PLATFORM)
    E(CL_INVALID_DEVICE)
    E(CL_INVALID_CONTEXT)
    E(CL_INVALID_COMMAND_QUEUE)
    E(CL_INVALID_MEM_OBJECT)
    E(CL_INVALID_BUILD_OPTIONS)
    E(CL_INVALID_PROGRAM)
    E(CL_INVALID_PROGRAM_EXECUTABLE)
    E(CL_INVALID_KERNEL_NAME)
    E(CL_INVALID_KERNEL)
    E(CL_INVALID_ARG_INDEX)
    E(CL_INVALID_ARG_VALUE)
    E(CL_INVALID_ARG_SIZE)
    E(CL_INVALID_KERNEL_ARGS)
    E(CL_INVALID_WORK_DIMENSION)
    E(CL_INVALID_WORK_GROUP_SIZE)
    E(CL_INVALID_WORK_ITEM_SIZE)
    E(CL_INVALID_GLOBAL_OFFSET)
    E(CL_INVALID_EVENT)
    E(CL_INVALID_OPERATION)
    E(CL_INVALID_BUFFER_SIZE)
    E(CL_INVALID_GLOBAL_WORK_SIZE)
    E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
#undef E
    case CL_PLATFORM_NOT_FOUND_KHR_: return "CL_PLATFORM_NOT_FOUND_KHR";
  }
  // clang-format on
  return "unknown OpenCL error";
}

/* Records which OpenCL call failed and how; allocation failures are ENOMEM, the rest EBACKEND. */
static int cl_fail(duet_ctx *ctx, cl_int err, const char *call) {
  int status = (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_HOST_MEMORY ||
                err == CL_INVALID_BUFFER_SIZE)
                   ? DUET_ENOMEM
                   : DUET_EBACKEND;
  return duet__fail(ctx, status, "opencl: %s failed: %s (%d)", call, cl_error_name(err), (int)err);
}

#define IMPL(ctx) ((cl_impl *)(ctx)->impl)

/* ---- device enumeration: GPUs first, then other types, across the selected platforms ------ */

static int platform_selected(cl_platform_id p, const char *filter) {
  char name[256] = "";
  if (!filter) return 1;
  if (clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name - 1, name, NULL) != CL_SUCCESS) return 0;
  return strstr(name, filter) != NULL;
}

/* Fills devs (may be NULL) with up to max devices in duet's numbering; returns how many exist. */
static int enumerate(cl_device_id *devs, int max) {
  cl_uint np = 0;
  if (clGetPlatformIDs(0, NULL, &np) != CL_SUCCESS || np == 0) return 0;
  cl_platform_id *plats = malloc(np * sizeof *plats);
  if (!plats || clGetPlatformIDs(np, plats, NULL) != CL_SUCCESS) {
    free(plats);
    return 0;
  }
  const char *filter = duet__getenv("DUET_OPENCL_PLATFORM");
  int count = 0;
  for (int gpu_pass = 1; gpu_pass >= 0; gpu_pass--) {
    for (cl_uint p = 0; p < np; p++) {
      if (!platform_selected(plats[p], filter)) continue;
      cl_uint nd = 0;
      cl_device_type type = gpu_pass ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_ALL;
      if (clGetDeviceIDs(plats[p], type, 0, NULL, &nd) != CL_SUCCESS || nd == 0) continue;
      cl_device_id *ids = malloc(nd * sizeof *ids);
      if (!ids || clGetDeviceIDs(plats[p], type, nd, ids, NULL) != CL_SUCCESS) {
        free(ids);
        continue;
      }
      for (cl_uint d = 0; d < nd; d++) {
        cl_device_type t = 0;
        clGetDeviceInfo(ids[d], CL_DEVICE_TYPE, sizeof t, &t, NULL);
        if (!gpu_pass && (t & CL_DEVICE_TYPE_GPU)) continue; /* listed in the GPU pass */
        if (devs && count < max) devs[count] = ids[d];
        count++;
      }
      free(ids);
    }
  }
  free(plats);
  return count;
}

static int cl_device_count(int *count) {
  *count = enumerate(NULL, 0);
  return DUET_OK;
}

/* ---- context ------------------------------------------------------------------------------ */

static void cl_ctx_close(duet_ctx *ctx) {
  cl_impl *im = IMPL(ctx);
  if (!im) return;
  for (int k = 0; k < DUET__K_COUNT; k++)
    if (im->kernels[k]) clReleaseKernel(im->kernels[k]);
  if (im->program) clReleaseProgram(im->program);
  if (im->queue) clReleaseCommandQueue(im->queue);
  if (im->context) clReleaseContext(im->context);
  free(im);
  ctx->impl = NULL;
}

static int cl_ctx_open(duet_ctx *ctx, int device) {
  int n = enumerate(NULL, 0);
  if (device >= n) {
    const char *filter = duet__getenv("DUET_OPENCL_PLATFORM");
    return duet__fail(ctx, DUET_ENODEV, "opencl: device %d does not exist (%d device%s%s%s%s)",
                      device, n, n == 1 ? "" : "s",
                      filter ? " on platforms matching "
                               "DUET_OPENCL_PLATFORM='"
                             : "",
                      filter ? filter : "", filter ? "'" : "");
  }
  cl_device_id *devs = malloc((size_t)n * sizeof *devs);
  if (!devs) return duet__fail(ctx, DUET_ENOMEM, "opencl: out of host memory");
  enumerate(devs, n);
  cl_impl *im = calloc(1, sizeof *im);
  if (!im) {
    free(devs);
    return duet__fail(ctx, DUET_ENOMEM, "opencl: out of host memory");
  }
  im->device = devs[device];
  free(devs);
  ctx->impl = im;
  /* `failed` names the first call that failed; what was made before it is released. */
  const char *failed = NULL;
  cl_int err;
  im->context = clCreateContext(NULL, 1, &im->device, NULL, NULL, &err);
  if (!im->context) failed = "clCreateContext";
  if (!failed) {
    im->queue = clCreateCommandQueue(im->context, im->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (!im->queue) failed = "clCreateCommandQueue";
  }
  if (!failed) {
    err = clGetDeviceInfo(im->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof im->max_group_size,
                          &im->max_group_size, NULL);
    if (err == CL_SUCCESS)
      err = clGetDeviceInfo(im->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof im->local_mem,
                            &im->local_mem, NULL);
    if (err != CL_SUCCESS) failed = "clGetDeviceInfo";
  }
  if (!failed) return DUET_OK;
  int status = cl_fail(ctx, err, failed);
  cl_ctx_close(ctx);
  return status;
}

/* Builds the program on first use. The tunables come from src/duet_tunables.h, the same values
 * the core sizes launches with. A failure keeps the build log in the last-error text. */
static int ensure_program(duet_ctx *ctx) {
  cl_impl *im = IMPL(ctx);
  if (im->program) return DUET_OK;
  char options[512];
  snprintf(options, sizeof options,
           "-cl-std=CL1.2 -DTRANSPOSE_TILE=%d -DTRANSPOSE_ROWS=%d -DTRANSPOSE_BAND=%d "
           "-DTRANSPOSE_WIDE_TILE=%d -DTRANSPOSE_WIDE_ROWS=%d "
           "-DGEMM_SIMPLE_X=%d -DGEMM_SIMPLE_Y=%d -DGEMM_TILE=%d",
           DUET_TRANSPOSE_TILE, DUET_TRANSPOSE_ROWS, DUET_TRANSPOSE_BAND, DUET_TRANSPOSE_WIDE_TILE,
           DUET_TRANSPOSE_WIDE_ROWS, DUET_GEMM_SIMPLE_X, DUET_GEMM_SIMPLE_Y, DUET_GEMM_TILE);
  const char *src = duet__cl_program_source;
  cl_int err;
  cl_program prog = clCreateProgramWithSource(im->context, 1, &src, NULL, &err);
  if (!prog) return cl_fail(ctx, err, "clCreateProgramWithSource");
  err = clBuildProgram(prog, 1, &im->device, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    size_t len = 0;
    clGetProgramBuildInfo(prog, im->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = malloc(len + 1);
    if (log &&
        clGetProgramBuildInfo(prog, im->device, CL_PROGRAM_BUILD_LOG, len, log, NULL) == CL_SUCCESS)
      log[len] = '\0';
    int status = duet__fail(ctx, DUET_EBUILD, "opencl: clBuildProgram failed: %s (%d); log:\n%s",
                            cl_error_name(err), (int)err, log ? log : "(no log)");
    free(log);
    clReleaseProgram(prog);
    return status;
  }
  im->program = prog;
  return DUET_OK;
}

static int get_kernel(duet_ctx *ctx, duet__kernel k, cl_kernel *out) {
  cl_impl *im = IMPL(ctx);
  int status = ensure_program(ctx);
  if (status) return status;
  if (!im->kernels[k]) {
    cl_int err;
    im->kernels[k] = clCreateKernel(im->program, duet__kernel_name(k), &err);
    if (!im->kernels[k]) return cl_fail(ctx, err, duet__kernel_name(k));
  }
  *out = im->kernels[k];
  return DUET_OK;
}

static void info_string(cl_device_id dev, cl_device_info what, char *dst, size_t len) {
  if (clGetDeviceInfo(dev, what, len - 1, dst, NULL) != CL_SUCCESS) dst[0] = '\0';
  dst[len - 1] = '\0';
}

/* The warp width: NVIDIA reports it directly; elsewhere the preferred work-group multiple of a
 * built kernel is the portable equivalent. */
static unsigned warp_size(duet_ctx *ctx) {
  cl_impl *im = IMPL(ctx);
  cl_uint nv = 0;
  if (clGetDeviceInfo(im->device, CL_DEVICE_WARP_SIZE_NV, sizeof nv, &nv, NULL) == CL_SUCCESS && nv)
    return nv;
  cl_kernel k;
  size_t multiple = 1;
  if (get_kernel(ctx, DUET__K_COPY, &k) == DUET_OK)
    clGetKernelWorkGroupInfo(k, im->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                             sizeof multiple, &multiple, NULL);
  return (unsigned)multiple;
}

static int cl_ctx_info(duet_ctx *ctx, duet_device_info *info) {
  cl_impl *im = IMPL(ctx);
  cl_uint units = 0;
  cl_ulong global = 0;
  info_string(im->device, CL_DEVICE_NAME, info->name, sizeof info->name);
  info_string(im->device, CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor);
  info_string(im->device, CL_DEVICE_VERSION, info->version, sizeof info->version);
  cl_int err = clGetDeviceInfo(im->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
  if (err == CL_SUCCESS)
    err = clGetDeviceInfo(im->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, NULL);
  if (err != CL_SUCCESS) return cl_fail(ctx, err, "clGetDeviceInfo");
  info->compute_units = units;
  info->max_block_threads = (unsigned)im->max_group_size;
  info->warp_size = warp_size(ctx);
  info->global_mem_bytes = (size_t)global;
  info->shared_mem_bytes = (size_t)im->local_mem;
  return DUET_OK;
}

static int cl_finish(duet_ctx *ctx) {
  cl_int err = clFinish(IMPL(ctx)->queue);
  return err == CL_SUCCESS ? DUET_OK : cl_fail(ctx, err, "clFinish");
}

/* ---- memory ------------------------------------------------------------------------------- */

static int cl_mem_alloc(duet_ctx *ctx, size_t bytes, void **mem) {
  cl_int err;
  cl_mem m = clCreateBuffer(IMPL(ctx)->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
  if (!m) return cl_fail(ctx, err, "clCreateBuffer");
  *mem = m;
  return DUET_OK;
}

static void cl_mem_free(duet_ctx *ctx, void *mem) {
  (void)ctx;
  clReleaseMemObject((cl_mem)mem);
}

static int cl_mem_write(duet_ctx *ctx, void *mem, size_t offset, const void *src, size_t bytes) {
  cl_int err = clEnqueueWriteBuffer(IMPL(ctx)->queue, (cl_mem)mem, CL_TRUE, offset, bytes, src, 0,
                                    NULL, NULL);
  return err == CL_SUCCESS ? DUET_OK : cl_fail(ctx, err, "clEnqueueWriteBuffer");
}

static int cl_mem_read(duet_ctx *ctx, void *mem, size_t offset, void *dst, size_t bytes) {
  cl_int err = clEnqueueReadBuffer(IMPL(ctx)->queue, (cl_mem)mem, CL_TRUE, offset, bytes, dst, 0,
                                   NULL, NULL);
  return err == CL_SUCCESS ? DUET_OK : cl_fail(ctx, err, "clEnqueueReadBuffer");
}

static int cl_mem_copy(duet_ctx *ctx, void *dst, void *src, size_t bytes) {
  cl_int err =
      clEnqueueCopyBuffer(IMPL(ctx)->queue, (cl_mem)src, (cl_mem)dst, 0, 0, bytes, 0, NULL, NULL);
  return err == CL_SUCCESS ? DUET_OK : cl_fail(ctx, err, "clEnqueueCopyBuffer");
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
  if (m->event) clReleaseEvent(m->event);
  free(m);
}

static int cl_event_record(duet_ctx *ctx, void *ev) {
  cl_marker *m = ev;
  cl_event e;
  cl_int err = clEnqueueMarkerWithWaitList(IMPL(ctx)->queue, 0, NULL, &e);
  if (err != CL_SUCCESS) return cl_fail(ctx, err, "clEnqueueMarkerWithWaitList");
  if (m->event) clReleaseEvent(m->event);
  m->event = e;
  return DUET_OK;
}

static int cl_event_elapsed(duet_ctx *ctx, void *start, void *end, float *ms) {
  cl_event s = ((cl_marker *)start)->event, e = ((cl_marker *)end)->event;
  cl_ulong t0 = 0, t1 = 0;
  cl_int err = clWaitForEvents(1, &e);
  if (err != CL_SUCCESS) return cl_fail(ctx, err, "clWaitForEvents");
  err = clGetEventProfilingInfo(s, CL_PROFILING_COMMAND_END, sizeof t0, &t0, NULL);
  if (err == CL_SUCCESS)
    err = clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
  if (err != CL_SUCCESS) return cl_fail(ctx, err, "clGetEventProfilingInfo");
  *ms = (float)((double)(cl_long)(t1 - t0) * 1e-6);
  return DUET_OK;
}

static void *cl_native_queue(duet_ctx *ctx) { return IMPL(ctx)->queue; }

/* ---- launch ------------------------------------------------------------------------------- */

static int cl_launch(duet_ctx *ctx, duet__kernel k, const duet__launch *l, const duet__arg *args,
                     unsigned nargs) {
  cl_impl *im = IMPL(ctx);
  size_t group = (size_t)l->block[0] * l->block[1] * l->block[2];
  if (group > im->max_group_size || l->shared_bytes > im->local_mem)
    return duet__fail(ctx, DUET_EUNSUPPORTED,
                      "opencl: %s needs a work-group of %zu and %zu bytes of local memory; the "
                      "device allows %zu and %lu",
                      duet__kernel_name(k), group, l->shared_bytes, im->max_group_size,
                      (unsigned long)im->local_mem);
  size_t global[3], local[3];
  for (int d = 0; d < 3; d++) {
    local[d] = l->block[d];
    if (__builtin_mul_overflow(l->grid[d], local[d], &global[d]))
      return duet__fail(ctx, DUET_EUNSUPPORTED, "opencl: global size of %s overflows",
                        duet__kernel_name(k));
  }
  cl_kernel kern;
  int status = get_kernel(ctx, k, &kern);
  if (status) return status;
  cl_int err = CL_SUCCESS;
  for (unsigned i = 0; i < nargs && err == CL_SUCCESS; i++) {
    const duet__arg *a = &args[i];
    cl_long i64 = a->u.i64;
    cl_int i32 = a->u.i32;
    cl_float f32 = a->u.f32;
    cl_mem mem = (cl_mem)a->u.mem;
    switch (a->kind) {
      case DUET__ARG_MEM: err = clSetKernelArg(kern, i, sizeof mem, &mem); break;
      case DUET__ARG_I64: err = clSetKernelArg(kern, i, sizeof i64, &i64); break;
      case DUET__ARG_I32: err = clSetKernelArg(kern, i, sizeof i32, &i32); break;
      case DUET__ARG_F32: err = clSetKernelArg(kern, i, sizeof f32, &f32); break;
    }
  }
  if (err == CL_SUCCESS && l->shared_bytes)
    err = clSetKernelArg(kern, nargs, l->shared_bytes, NULL);
  if (err != CL_SUCCESS) return cl_fail(ctx, err, "clSetKernelArg");
  err = clEnqueueNDRangeKernel(im->queue, kern, 3, NULL, global, local, 0, NULL, NULL);
  return err == CL_SUCCESS ? DUET_OK : cl_fail(ctx, err, "clEnqueueNDRangeKernel");
}

const duet__backend_ops duet__opencl_backend = {
    .id = DUET_BACKEND_OPENCL,
    .name = "opencl",
    .device_count = cl_device_count,
    .ctx_open = cl_ctx_open,
    .ctx_close = cl_ctx_close,
    .ctx_info = cl_ctx_info,
    .finish = cl_finish,
    .mem_alloc = cl_mem_alloc,
    .mem_free = cl_mem_free,
    .mem_write = cl_mem_write,
    .mem_read = cl_mem_read,
    .mem_copy = cl_mem_copy,
    .event_alloc = cl_event_alloc,
    .event_free = cl_event_free,
    .event_record = cl_event_record,
    .event_elapsed = cl_event_elapsed,
    .native_queue = cl_native_queue,
    .launch = cl_launch,
};
