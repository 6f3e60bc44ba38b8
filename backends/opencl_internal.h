/* SPDX-License-Identifier: MIT */
/* What the OpenCL backend's files share: opencl.c's error reporting and build-log helpers, and
 * the user programs of opencl_program.c that its vtable names. */
#ifndef DUET_OPENCL_INTERNAL_H
#define DUET_OPENCL_INTERNAL_H

#include "duet_internal.h"
#include "opencl_loader.h"

/* Records which OpenCL call failed and how (ENOMEM for allocation failures, else EBACKEND). */
int duet__cl_fail(duet_ctx *ctx, cl_int err, const char *call);
/* The program's build log on the context's device, malloc'd, or NULL. */
char *duet__cl_build_log(duet_ctx *ctx, cl_program prog);
/* Whether a build log has a warning that $DUET_OPENCL_WERROR=1 makes a failure. */
int duet__cl_log_warns(const char *log);
/* Whether $DUET_OPENCL_WERROR=1. */
int duet__cl_werror(void);

int duet__cl_program_build(duet_ctx *ctx, const char *text, const char *const *options, unsigned n,
                           void **prog);
void duet__cl_program_free(duet_ctx *ctx, void *prog);
int duet__cl_program_kernel(duet_ctx *ctx, void *prog, const char *name, duet__user_kernel *k);
void duet__cl_program_kernel_free(duet_ctx *ctx, duet__user_kernel *k);
int duet__cl_program_launch(duet_ctx *ctx, const duet__user_kernel *k, const duet__launch *l,
                            const duet__arg *args, unsigned nargs);

#endif
