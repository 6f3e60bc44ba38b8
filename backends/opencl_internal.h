/* SPDX-License-Identifier: MIT */
/* What the OpenCL backend's files share: opencl_error.c's error reporting, opencl.c's program
 * cache entry, and the user programs of opencl_program.c that its vtable names. */
#ifndef DUET_OPENCL_INTERNAL_H
#define DUET_OPENCL_INTERNAL_H

#include "duet_internal.h"
#include "opencl_loader.h"

/* NVIDIA's compute capability (cl_nv_device_attribute_query): the device is NVIDIA's where the
 * query succeeds. */
#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#endif

/* Records which OpenCL call failed and how (ENOMEM for allocation failures, else EBACKEND). */
int duet__cl_fail(duet_ctx *ctx, cl_int err, const char *call);
/* The name of an OpenCL status ("CL_INVALID_VALUE"). */
const char *duet__cl_error_name(cl_int err);
/* Whether $DUET_OPENCL_WERROR=1 (opencl_programs.c). */
int duet__cl_werror(void);
/* The program of `text` built with `options` on the context's device, through the device's
 * program cache (opencl_programs.h): a new reference in *out, or DUET_EBUILD with the log,
 * `what` naming the program in the message. */
int duet__cl_program(duet_ctx *ctx, const char *text, const char *options, const char *what,
                     cl_program *out);

int duet__cl_program_build(duet_ctx *ctx, const char *text, const char *const *options, unsigned n,
                           void **prog);
void duet__cl_program_free(duet_ctx *ctx, void *prog);
int duet__cl_program_kernel(duet_ctx *ctx, void *prog, const char *name, duet__user_kernel *k);
void duet__cl_program_kernel_free(duet_ctx *ctx, duet__user_kernel *k);
int duet__cl_program_launch(duet_ctx *ctx, const duet__user_kernel *k, const duet__launch *l,
                            const duet__arg *args, unsigned nargs);

#endif
