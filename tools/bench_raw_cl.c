/* SPDX-License-Identifier: MIT */
/* The OpenCL half of the baseline (bench_raw.h), enqueued with clEnqueueNDRangeKernel, the same
 * call duet's OpenCL backend makes: a minimal copy kernel built from source in the context of
 * duet's queue. Its arguments are set once here, as a hand-written caller would.
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
  cl_program program;
  cl_kernel kernel;
  size_t global[2], local[2];
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

/* duet_copy's arguments: rows, cols, in, ld_in, out, ld_out (packed). */
static int set_args(bench_raw *r, const duet_buf *in, duet_buf *out, size_t rows, size_t cols,
                    char *err, size_t len) {
  const cl_long n[2] = {(cl_long)rows, (cl_long)cols};
  const cl_mem mem[2] = {(cl_mem)duet_buf_native(in), (cl_mem)duet_buf_native(out)};
  cl_int e = duet__cl.clSetKernelArg(r->kernel, 0, sizeof n[0], &n[0]);
  for (cl_uint i = 1; i < 6 && e == CL_SUCCESS; i++)
    e = i % 2 == 0 ? duet__cl.clSetKernelArg(r->kernel, i, sizeof(cl_mem), &mem[i / 2 - 1])
                   : duet__cl.clSetKernelArg(r->kernel, i, sizeof n[1], &n[1]);
  return e == CL_SUCCESS ? 0 : fail(err, len, "clSetKernelArg", e);
}

int bench_raw_cl_open(duet_ctx *ctx, const duet_buf *in, duet_buf *out, size_t rows, size_t cols,
                      const unsigned block[2], bench_raw **raw, char *err, size_t len) {
  *raw = NULL;
  bench_raw *r = raw_new(ctx, err, len);
  if (!r) return -1;
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
  if (set_args(r, in, out, rows, cols, err, len)) {
    bench_raw_cl_close(r);
    return -1;
  }
  *raw = r;
  return 0;
}

int bench_raw_cl_launch(bench_raw *r, char *err, size_t len) {
  cl_int e = duet__cl.clEnqueueNDRangeKernel(r->queue, r->kernel, 2, NULL, r->global, r->local, 0,
                                             NULL, NULL);
  return e == CL_SUCCESS ? 0 : fail(err, len, "clEnqueueNDRangeKernel", e);
}

void bench_raw_cl_close(bench_raw *r) {
  if (!r) return;
  if (r->kernel) duet__cl.clReleaseKernel(r->kernel);
  if (r->program) duet__cl.clReleaseProgram(r->program);
  free(r);
}
