/* SPDX-License-Identifier: MIT */
/* The OpenCL backend's devices and programs, shared by every duet context of the process: one
 * record per device holds the cl_context that all contexts on it use and every program built on
 * it, duet's own kernels and the user's alike, keyed by their sources and options. A second
 * context on a device therefore builds nothing its predecessors built while the record lived
 * (it lives while a context holds it). A program missing from memory comes from the disk cache
 * (src/cache.h) or is built from source and then stored in both. Thread-safe: contexts are
 * opened, closed and build from several threads at once. Each context keeps its own queue and
 * its own cl_kernel objects, since setting a kernel's arguments is not thread-safe. */
#ifndef DUET_OPENCL_PROGRAMS_H
#define DUET_OPENCL_PROGRAMS_H

#include "opencl_internal.h"

typedef struct duet__cl_device duet__cl_device;

/* A reference to device id's record, made with its cl_context on first use; CL_SUCCESS, or
 * clCreateContext's error. */
cl_int duet__cl_device_acquire(cl_device_id id, duet__cl_device **out);
/* Drops a reference; the last one releases the record's programs and context. NULL is a no-op. */
void duet__cl_device_release(duet__cl_device *dev);
/* The context of every duet context on the device (the record holds its own reference). */
cl_context duet__cl_device_context(const duet__cl_device *dev);

/* The program of srcs[0..nsrc) (nsrc <= 8) built with `options` for dev: from memory, from the
 * disk cache, or built now; a new reference in *out that the caller releases. DUET_OPENCL_WERROR=1
 * adds -Werror and fails a build whose log warns. A failed build is DUET_EBUILD on ctx with the
 * log, `what` naming the program ("duet_sgemm_fast_nn of kernel group gemm_fast", "program"), and
 * is tried again on the next call. On NVIDIA, `cubin` lets the disk cache keep the program as a
 * CUBIN (nvidia_jit.h) rather than the driver's PTX. */
int duet__cl_program_get(duet_ctx *ctx, duet__cl_device *dev, unsigned nsrc,
                         const char *const *srcs, const char *options, const char *what, int cubin,
                         cl_program *out);

#endif
