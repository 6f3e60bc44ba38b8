/* SPDX-License-Identifier: MIT */
/* What the CUDA backend's files share: cuda.c's error reporting, and the user programs of
 * cuda_program.c that its vtable names. */
#ifndef DUET_CUDA_INTERNAL_H
#define DUET_CUDA_INTERNAL_H

#include <cuda_runtime_api.h>

#include "duet_internal.h"

/* Records which CUDA call failed and how (ENOMEM for allocation failures, else EBACKEND). */
int duet__cu_fail(duet_ctx *ctx, cudaError_t err, const char *call);

int duet__cu_program_build(duet_ctx *ctx, const char *text, const char *const *options, unsigned n,
                           void **prog);
void duet__cu_program_free(duet_ctx *ctx, void *prog);
int duet__cu_program_kernel(duet_ctx *ctx, void *prog, const char *name, duet__user_kernel *k);
void duet__cu_program_kernel_free(duet_ctx *ctx, duet__user_kernel *k);
int duet__cu_program_launch(duet_ctx *ctx, const duet__user_kernel *k, const duet__launch *l,
                            const duet__arg *args, unsigned nargs);

#endif
