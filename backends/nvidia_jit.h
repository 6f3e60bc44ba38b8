/* SPDX-License-Identifier: MIT */
/* PTX to CUBIN through the CUDA driver's JIT linker, for the disk cache of NVIDIA's OpenCL.
 * That driver's program binaries (CL_PROGRAM_BINARIES) are PTX, which it assembles again with
 * ptxas at every clBuildProgram of one, unless its own cache holds the result (not with
 * CUDA_CACHE_DISABLE=1, as in many containers and read-only homes): 0.4-0.6 s for duet's fast
 * sgemm kernel. It also takes a CUBIN as a program binary, and loads that as it is (0.2 ms).
 * libcuda.so.1, which every NVIDIA driver installs beside its OpenCL library, is opened at run
 * time; nothing links it. */
#ifndef DUET_NVIDIA_JIT_H
#define DUET_NVIDIA_JIT_H

#include <stddef.h>

/* ptx[0, len), text followed by a NUL at ptx[len], assembled for compute capability major.minor
 * into a malloc'd CUBIN (*cubin, *size; the caller frees it): 0. Otherwise -1 with the reason in
 * why[0, wlen) (no libcuda, no CUDA device, the JIT's log), and nothing to free. max_registers,
 * unless 0, caps the registers of each kernel as the OpenCL build's -cl-nv-maxrregcount did: that
 * cap acts in ptxas, not in the PTX, so a CUBIN assembled without it runs other occupancies. It
 * retains the primary CUDA context of device 0 for the JIT and releases it again. Thread-safe. */
int duet__nv_ptx_to_cubin(const char *ptx, size_t len, int major, int minor, unsigned max_registers,
                          void **cubin, size_t *size, char *why, size_t wlen);

#endif
