/* SPDX-License-Identifier: MIT */
/* Opens the OpenCL ICD loader with dlopen, once per process (opencl_loader.h). */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "dl_table.h"
#include "opencl_loader.h"

#ifdef __APPLE__
#define DUET__CL_LIBRARY "/System/Library/Frameworks/OpenCL.framework/OpenCL"
#else
#define DUET__CL_LIBRARY "libOpenCL.so.1"
#endif

duet__cl_api duet__cl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512]; /* empty once duet__cl is filled */

/* Resolves into a local table first, so that duet__cl is either complete or untouched. */
static void load(void) {
  const char *file = getenv("DUET_OPENCL_LIBRARY");
  if (!file || !*file) file = DUET__CL_LIBRARY;
  duet__cl_api api;
  static const char *const names[] = {DUET__CL_FUNCTIONS(DUET__DL_NAME)};
#define SLOT(name) DUET__DL_SLOT(api, name)
  void *const slots[] = {DUET__CL_FUNCTIONS(SLOT)};
#undef SLOT
  if (!duet__dl_table(file, "the OpenCL loader ", "", names, slots, sizeof names / sizeof *names,
                      load_error, sizeof load_error))
    duet__cl = api;
}

const char *duet__cl_load(void) {
  if (pthread_once(&load_once, load) != 0) return "pthread_once failed";
  return load_error[0] ? load_error : NULL;
}
