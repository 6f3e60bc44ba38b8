/* SPDX-License-Identifier: MIT */
/* Opens NVRTC with dlopen, once per process (nvrtc_loader.h). */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dl_table.h"
#include "nvrtc_loader.h"

duet__nvrtc_api duet__nvrtc;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[1536]; /* empty once duet__nvrtc is filled */

/* Each candidate resolves into a local table, so that duet__nvrtc is complete or untouched. */
static void load(void) {
  static const char *const sonames[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};
  static const char *const names[] = {DUET__NVRTC_FUNCTIONS(DUET__DL_NAME)};
  const char *env = getenv("DUET_NVRTC_LIBRARY");
  const char *const named[] = {env};
  const char *const *files = env && *env ? named : sonames;
  const size_t nfiles = env && *env ? 1 : sizeof sonames / sizeof sonames[0];
  size_t used = 0;
  for (size_t f = 0; f < nfiles; f++) {
    duet__nvrtc_api api;
#define SLOT(name) DUET__DL_SLOT(api, name)
    void *const slots[] = {DUET__NVRTC_FUNCTIONS(SLOT)};
#undef SLOT
    char why[512];
    if (!duet__dl_table(files[f], "NVRTC ", env && *env ? ", named by $DUET_NVRTC_LIBRARY" : "",
                        names, slots, sizeof names / sizeof names[0], why, sizeof why)) {
      duet__nvrtc = api;
      load_error[0] = '\0';
      return;
    }
    int n = snprintf(load_error + used, sizeof load_error - used, "%s%s", used ? "; " : "", why);
    if (n > 0)
      used = used + (size_t)n < sizeof load_error ? used + (size_t)n : sizeof load_error - 1;
  }
}

const char *duet__nvrtc_load(void) {
  if (pthread_once(&load_once, load) != 0) return "pthread_once failed";
  return load_error[0] ? load_error : NULL;
}
