/* SPDX-License-Identifier: MIT */
/* Users' programs on OpenCL: duet_kernel.h and the source built through the device's program
 * cache (opencl_programs.c: OpenCL C 1.2, with kernel argument info so that every launch's
 * arguments can be checked), kernels created by name, and their launches on the context's queue.
 * The context, device and queue come from the queue itself (duet_ctx_native_queue), so that
 * nothing here depends on opencl.c's layout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencl_internal.h"

static cl_command_queue queue_of(duet_ctx *ctx) {
  return (cl_command_queue)duet_ctx_native_queue(ctx);
}

static cl_int device_of(duet_ctx *ctx, cl_device_id *dev) {
  return duet__cl.clGetCommandQueueInfo(queue_of(ctx), CL_QUEUE_DEVICE, sizeof *dev, dev, NULL);
}

/* The build options: OpenCL C 1.2 with argument info, NVIDIA's inline-PTX shuffles where they
 * exist, then the user's -D and -I (the program cache adds -Werror under DUET_OPENCL_WERROR=1). */
static char *build_options(duet_ctx *ctx, const char *const *options, unsigned n) {
  const char *fixed[] = {"-cl-std=CL1.2 -cl-kernel-arg-info",
                         ctx->caps.nvidia ? " -DDUET_NVIDIA" : ""};
  size_t len = 1;
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) len += strlen(fixed[i]);
  for (unsigned i = 0; i < n; i++) len += strlen(options[i]) + 1;
  char *all = malloc(len);
  if (!all) return NULL;
  all[0] = '\0';
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) strcat(all, fixed[i]);
  for (unsigned i = 0; i < n; i++) strcat(strcat(all, " "), options[i]);
  return all;
}

/* Source and options to a built program, through the device's program cache: a program that
 * another context of the device built is reused, one built by an earlier process loaded from
 * the disk cache. */
static int build(duet_ctx *ctx, const char *text, const char *options, cl_program *out) {
  return duet__cl_program(ctx, text, options, "duet_program_create: program", out);
}

int duet__cl_program_build(duet_ctx *ctx, const char *text, const char *const *options, unsigned n,
                           void **out) {
  char *all = build_options(ctx, options, n);
  if (!all) return duet__fail(ctx, DUET_ENOMEM, "duet_program_create: out of host memory");
  cl_program prog = NULL;
  int status = build(ctx, text, all, &prog);
  free(all);
  if (!status) *out = prog;
  return status;
}

void duet__cl_program_free(duet_ctx *ctx, void *prog) {
  (void)ctx;
  duet__cl.clReleaseProgram((cl_program)prog);
}

/* The argument kinds a parameter takes, by its address space and type name; 0 for none. */
static unsigned char param_accepts(cl_kernel_arg_address_qualifier space, const char *type) {
  if (space == CL_KERNEL_ARG_ADDRESS_GLOBAL || space == CL_KERNEL_ARG_ADDRESS_CONSTANT)
    return 1u << DUET__ARG_MEM;
  if (space != CL_KERNEL_ARG_ADDRESS_PRIVATE) return 0;
  static const struct {
    const char *type;
    duet__arg_kind kind;
  } scalars[] = {{"int", DUET__ARG_I32},          {"uint", DUET__ARG_I32},
                 {"unsigned int", DUET__ARG_I32}, {"long", DUET__ARG_I64},
                 {"ulong", DUET__ARG_I64},        {"unsigned long", DUET__ARG_I64},
                 {"float", DUET__ARG_F32}};
  for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
    if (strcmp(type, scalars[i].type) == 0) return (unsigned char)(1u << scalars[i].kind);
  return 0;
}

/* What the kernel's argument info says of its parameters: the kinds each takes, and whether the
 * last is DUET_SHARED_PARAM's __local pointer. Without argument info, any kind is taken. */
static int describe_params(duet_ctx *ctx, cl_kernel kern, const char *name, cl_uint nargs,
                           duet__user_kernel *k) {
  for (cl_uint i = 0; i < nargs; i++) {
    cl_kernel_arg_address_qualifier space;
    char type[128] = "";
    cl_int err = duet__cl.clGetKernelArgInfo(kern, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof space,
                                             &space, NULL);
    if (err == CL_KERNEL_ARG_INFO_NOT_AVAILABLE) {
      memset(k->accepts, 0xff, sizeof k->accepts);
      return DUET_OK;
    }
    if (err == CL_SUCCESS)
      err = duet__cl.clGetKernelArgInfo(kern, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type - 1, type,
                                        NULL);
    if (err != CL_SUCCESS) return duet__cl_fail(ctx, err, "clGetKernelArgInfo");
    for (size_t e = strlen(type); e > 0 && type[e - 1] == ' '; e--) type[e - 1] = '\0';
    if (space == CL_KERNEL_ARG_ADDRESS_LOCAL) {
      if (i + 1 != nargs)
        return duet__fail(ctx, DUET_EINVAL,
                          "duet_launch: %s: its __local parameter %u is not the last: declare "
                          "dynamic shared memory with DUET_SHARED_PARAM after every other",
                          name, i);
      k->shared_param = 1;
      k->nparams--;
      continue;
    }
    k->accepts[i] = param_accepts(space, type);
    if (!k->accepts[i])
      return duet__fail(ctx, DUET_EINVAL,
                        "duet_launch: %s: parameter %u is a %s, which no duet_arg passes (a "
                        "__global pointer, int, unsigned int, DUET_I64 or float)",
                        name, i, type);
  }
  return DUET_OK;
}

int duet__cl_program_kernel(duet_ctx *ctx, void *prog, const char *name, duet__user_kernel *k) {
  cl_int err;
  cl_kernel kern = duet__cl.clCreateKernel((cl_program)prog, name, &err);
  if (!kern && err == CL_INVALID_KERNEL_NAME)
    return duet__fail(ctx, DUET_EINVAL, "duet_launch: the program has no kernel named '%s'", name);
  if (!kern) return duet__cl_fail(ctx, err, "clCreateKernel");
  cl_device_id dev;
  cl_uint nargs = 0;
  size_t limit = 0, dims[3] = {0, 0, 0};
  cl_ulong fixed_local = 0;
  err = device_of(ctx, &dev);
  if (err == CL_SUCCESS)
    err = duet__cl.clGetKernelInfo(kern, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
  if (err == CL_SUCCESS)
    err = duet__cl.clGetKernelWorkGroupInfo(kern, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof limit,
                                            &limit, NULL);
  if (err == CL_SUCCESS)
    err = duet__cl.clGetKernelWorkGroupInfo(kern, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof fixed_local,
                                            &fixed_local, NULL);
  if (err == CL_SUCCESS)
    err = duet__cl.clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof dims, dims, NULL);
  int status = err == CL_SUCCESS ? DUET_OK : duet__cl_fail(ctx, err, "clGetKernelInfo");
  if (!status && nargs > DUET__USER_MAX_ARGS)
    status = duet__fail(ctx, DUET_EINVAL, "duet_launch: %s has %u parameters, more than duet's %d",
                        name, nargs, DUET__USER_MAX_ARGS);
  memset(k, 0, sizeof *k);
  k->counted = 1;
  k->nparams = nargs;
  if (!status) status = describe_params(ctx, kern, name, nargs, k);
  if (status) {
    duet__cl.clReleaseKernel(kern);
    return status;
  }
  k->fn = kern;
  k->max_threads = limit > 0xffffffffu ? 0xffffffffu : (unsigned)limit;
  for (int d = 0; d < 3; d++)
    k->max_block[d] = dims[d] > 0xffffffffu ? 0xffffffffu : (unsigned)dims[d];
  k->shared_bytes = ctx->caps.shared_bytes > fixed_local ? ctx->caps.shared_bytes - fixed_local : 0;
  return DUET_OK;
}

void duet__cl_program_kernel_free(duet_ctx *ctx, duet__user_kernel *k) {
  (void)ctx;
  duet__cl.clReleaseKernel((cl_kernel)k->fn);
  k->fn = NULL;
}

int duet__cl_program_launch(duet_ctx *ctx, const duet__user_kernel *k, const duet__launch *l,
                            const duet__arg *args, unsigned nargs) {
  const cl_kernel kern = (cl_kernel)k->fn;
  size_t global[3], local[3];
  for (int d = 0; d < 3; d++) {
    local[d] = l->block[d];
    if (__builtin_mul_overflow(l->grid[d], local[d], &global[d]))
      return duet__fail(ctx, DUET_EINVAL, "duet_launch: the global size along %d overflows", d);
  }
  cl_int err = CL_SUCCESS;
  for (unsigned i = 0; i < nargs && err == CL_SUCCESS; i++) {
    static const size_t sizes[] = {sizeof(cl_mem), sizeof(cl_long), sizeof(cl_int),
                                   sizeof(cl_float)};
    err = duet__cl.clSetKernelArg(kern, i, sizes[args[i].kind], &args[i].u);
  }
  /* A __local argument must have a size: a launch without shared bytes gets a few it ignores. */
  if (err == CL_SUCCESS && k->shared_param)
    err = duet__cl.clSetKernelArg(kern, nargs, l->shared_bytes ? l->shared_bytes : 16, NULL);
  if (err != CL_SUCCESS) return duet__cl_fail(ctx, err, "clSetKernelArg");
  err = duet__cl.clEnqueueNDRangeKernel(queue_of(ctx), kern, 3, NULL, global, local, 0, NULL, NULL);
  return err == CL_SUCCESS ? DUET_OK : duet__cl_fail(ctx, err, "clEnqueueNDRangeKernel");
}
