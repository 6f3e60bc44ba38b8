/* SPDX-License-Identifier: MIT */
/* Opens the OpenCL ICD loader with dlopen, once per process (opencl_loader.h). */
#include "config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "opencl_loader.h"

#ifdef __APPLE__
#define DUET__CL_LIBRARY "/System/Library/Frameworks/OpenCL.framework/OpenCL"
#else
#define DUET__CL_LIBRARY "libOpenCL.so.1"
#endif

duet__cl_api duet__cl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512]; /* empty once duet__cl is filled */

static const char *dl_reason(void) {
  const char *e = dlerror();
  return e ? e : "no reason given";
}

/* Resolves into a local table first, so that duet__cl is either complete or untouched. */
static void load(void) {
  const char *file = getenv("DUET_OPENCL_LIBRARY");
  if (!file || !*file) file = DUET__CL_LIBRARY;
  void *lib = dlopen(file, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(load_error, sizeof load_error, "cannot open the OpenCL loader %s: %s", file,
             dl_reason());
    return;
  }
  duet__cl_api api;
  void *sym;
#define DUET__CL_RESOLVE(name)                                                                \
  dlerror();                                                                                  \
  if (!(sym = dlsym(lib, #name))) {                                                           \
    snprintf(load_error, sizeof load_error, "the OpenCL loader %s lacks %s: %s", file, #name, \
             dl_reason());                                                                    \
    dlclose(lib); /* nothing was made from it */                                              \
    return;                                                                                   \
  }                                                                                           \
  api.name = (__typeof__(api.name))sym;
  DUET__CL_FUNCTIONS(DUET__CL_RESOLVE)
#undef DUET__CL_RESOLVE
  duet__cl = api;
}

const char *duet__cl_load(void) {
  if (pthread_once(&load_once, load) != 0) return "pthread_once failed";
  return load_error[0] ? load_error : NULL;
}
