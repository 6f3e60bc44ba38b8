/* SPDX-License-Identifier: MIT */
/* NVRTC, the CUDA run-time compiler, opened at run time as the OpenCL loader is: libduet keeps
 * loading without the CUDA toolkit, and only duet_program_create on CUDA needs it. Every NVRTC
 * function duet calls is one line of DUET__NVRTC_FUNCTIONS and one member of duet__nvrtc. */
#ifndef DUET_NVRTC_LOADER_H
#define DUET_NVRTC_LOADER_H

#include <nvrtc.h>

#define DUET__NVRTC_FUNCTIONS(X) \
  X(nvrtcGetErrorString)         \
  X(nvrtcVersion)                \
  X(nvrtcCreateProgram)          \
  X(nvrtcDestroyProgram)         \
  X(nvrtcCompileProgram)         \
  X(nvrtcGetProgramLogSize)      \
  X(nvrtcGetProgramLog)          \
  X(nvrtcGetCUBINSize)           \
  X(nvrtcGetCUBIN)               \
  X(nvrtcGetPTXSize)             \
  X(nvrtcGetPTX)                 \
  X(nvrtcGetNumSupportedArchs)   \
  X(nvrtcGetSupportedArchs)

typedef struct {
#define DUET__NVRTC_MEMBER(name) __typeof__(name) *name;
  DUET__NVRTC_FUNCTIONS(DUET__NVRTC_MEMBER)
#undef DUET__NVRTC_MEMBER
} duet__nvrtc_api;

/* Filled by a successful duet__nvrtc_load; never cleared (the library stays open). */
extern duet__nvrtc_api duet__nvrtc;

/* Opens $DUET_NVRTC_LIBRARY, else the first of libnvrtc.so.13, libnvrtc.so.12 and libnvrtc.so
 * that opens and has every function, on the first call from any thread. NULL when duet__nvrtc
 * is ready, else why not: a static text naming each file tried and its reason. */
const char *duet__nvrtc_load(void);

#endif
