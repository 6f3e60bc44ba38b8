/* SPDX-License-Identifier: MIT */
/* The OpenCL half of the raw launches (bench_raw.h), enqueued with clEnqueueNDRangeKernel, the
 * same call duet's OpenCL backend makes: a minimal copy kernel built from source in the context
 * of duet's queue, or a kernel of the bench's own created from the program duet built for a
 * call. Their arguments are set once here, as a hand-written caller would.
 * libduet's copy of the run-time OpenCL loader is internal to it, so duet-bench compiles its own
 * (backends/opencl_loader.c): it too links no libOpenCL. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench_raw.h"
#include "opencl_loader.h"

/* duet_copy's parameter list (idx_t is long there), so both launches set the same arguments. */
static const char source[] =
    "__kernel void bench_raw_copy(long rows, long cols, __global const float *in, long ld_in,\n"
    "                             __global float *out, long ld_out) {\n"
    "  long c = get_global_id(0);\n"
    "  for (long r = get_global_id(1); r < rows && c < cols; r += get_global_size(1))\n"
    "    out[r * ld_out + c] = in[r * ld_in + c];\n"
    "}\n";

struct bench_raw {
  cl_command_queue queue;
  cl_program program; /* the baseline's own; NULL for a kernel of duet's program */
  cl_kernel kernel;
  cl_uint dims;
  size_t global[3], local[3];
};

static int fail(char *err, size_t len, const char *call, cl_int e) {
  snprintf(err, len, "%s failed: OpenCL error %d", call, (int)e);
  return -1;
}

/* The build log tells why a build failed; it goes after the call's name. */
static void build_failed(bench_raw *r, cl_device_id dev, cl_int e, char *err, size_t len) {
  int n = snprintf(err, len, "clBuildProgram failed: OpenCL error %d: ", (int)e);
  if (n >= 0 && (size_t)n < len)
    duet__cl.clGetProgramBuildInfo(r->program, dev, CL_PROGRAM_BUILD_LOG, len - (size_t)n, err + n,
                                   NULL);
}

/* A launch on the context's queue; NULL with err filled. */
static bench_raw *raw_new(duet_ctx *ctx, char *err, size_t len) {
  const char *unloaded = duet__cl_load();
  if (unloaded) {
    snprintf(err, len, "%s", unloaded);
    return NULL;
  }
  bench_raw *r = calloc(1, sizeof *r);
  if (!r) {
    snprintf(err, len, "out of host memory");
    return NULL;
  }
  r->queue = (cl_command_queue)duet_ctx_native_queue(ctx);
  return r;
}

/* Argument i of the signature's kind, from a, or the __local scratch of `shared` bytes. */
static cl_int set_arg(cl_kernel k, cl_uint i, char kind, const duet__arg *a, size_t shared) {
  switch (kind) {
    case 's': return duet__cl.clSetKernelArg(k, i, shared, NULL);
    case 'm': return duet__cl.clSetKernelArg(k, i, sizeof(cl_mem), &a->u.mem);
    case 'l': return duet__cl.clSetKernelArg(k, i, sizeof(cl_long), &a->u.i64);
    case 'i': return duet__cl.clSetKernelArg(k, i, sizeof(cl_int), &a->u.i32);
    case 'g': return duet__cl.clSetKernelArg(k, i, sizeof(duet__gemm_scalars), &a->u.gemm);
    default: return duet__cl.clSetKernelArg(k, i, sizeof(cl_float), &a->u.f32);
  }
}

/* Every argument of signature sig from args, once. */
static int set_args(bench_raw *r, const char *sig, const duet__arg *args, size_t shared, char *err,
                    size_t len) {
  cl_int e = CL_SUCCESS;
  unsigned next = 0; /* the next of args; the scratch letter takes none */
  for (cl_uint i = 0; sig[i] && e == CL_SUCCESS; i++)
    e = set_arg(r->kernel, i, sig[i], sig[i] == 's' ? NULL : &args[next++], shared);
  return e == CL_SUCCESS ? 0 : fail(err, len, "clSetKernelArg", e);
}

int bench_raw_cl_open(duet_ctx *ctx, const duet_buf *in, duet_buf *out, size_t rows, size_t cols,
                      const unsigned block[2], bench_raw **raw, char *err, size_t len) {
  *raw = NULL;
  bench_raw *r = raw_new(ctx, err, len);
  if (!r) return -1;
  r->dims = 2;
  r->local[0] = block[0];
  r->local[1] = block[1];
  r->global[0] = (cols + block[0] - 1) / block[0] * block[0];
  r->global[1] = (rows + block[0] - 1) / block[0] * block[1];
  cl_context context;
  cl_device_id dev;
  const char *src = source;
  cl_int e =
      duet__cl.clGetCommandQueueInfo(r->queue, CL_QUEUE_CONTEXT, sizeof context, &context, NULL);
  if (e == CL_SUCCESS)
    e = duet__cl.clGetCommandQueueInfo(r->queue, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
  if (e != CL_SUCCESS) {
    bench_raw_cl_close(r);
    return fail(err, len, "clGetCommandQueueInfo", e);
  }
  r->program = duet__cl.clCreateProgramWithSource(context, 1, &src, NULL, &e);
  if (e != CL_SUCCESS) {
    bench_raw_cl_close(r);
    return fail(err, len, "clCreateProgramWithSource", e);
  }
  if ((e = duet__cl.clBuildProgram(r->program, 1, &dev, "", NULL, NULL)) != CL_SUCCESS) {
    build_failed(r, dev, e, err, len);
    bench_raw_cl_close(r);
    return -1;
  }
  r->kernel = duet__cl.clCreateKernel(r->program, "bench_raw_copy", &e);
  if (e != CL_SUCCESS) {
    bench_raw_cl_close(r);
    return fail(err, len, "clCreateKernel", e);
  }
  duet__arg args[6];
  bench_raw_copy_args(in, out, rows, cols, args);
  if (set_args(r, BENCH_RAW_COPY_SIG, args, 0, err, len)) {
    bench_raw_cl_close(r);
    return -1;
  }
  *raw = r;
  return 0;
}

int bench_raw_cl_open_same(duet_ctx *ctx, const duet__described *d, bench_raw **raw, char *err,
                           size_t len) {
  *raw = NULL;
  if (!d->native) {
    snprintf(err, len, "duet reported no program for %s", d->kernel->name);
    return -1;
  }
  bench_raw *r = raw_new(ctx, err, len);
  if (!r) return -1;
  cl_int e;
  r->kernel = duet__cl.clCreateKernel((cl_program)d->native, d->kernel->name, &e);
  if (e != CL_SUCCESS) {
    bench_raw_cl_close(r);
    return fail(err, len, "clCreateKernel", e);
  }
  r->dims = 3;
  for (int dim = 0; dim < 3; dim++) {
    r->local[dim] = d->launch.block[dim];
    r->global[dim] = d->launch.grid[dim] * d->launch.block[dim];
  }
  if (set_args(r, d->kernel->sig, d->args, d->launch.shared_bytes, err, len)) {
    bench_raw_cl_close(r);
    return -1;
  }
  *raw = r;
  return 0;
}

int bench_raw_cl_launch(bench_raw *r, char *err, size_t len) {
  cl_int e = duet__cl.clEnqueueNDRangeKernel(r->queue, r->kernel, r->dims, NULL, r->global,
                                             r->local, 0, NULL, NULL);
  return e == CL_SUCCESS ? 0 : fail(err, len, "clEnqueueNDRangeKernel", e);
}

void bench_raw_cl_close(bench_raw *r) {
  if (!r) return;
  if (r->kernel) duet__cl.clReleaseKernel(r->kernel);
  if (r->program) duet__cl.clReleaseProgram(r->program);
  free(r);
}
