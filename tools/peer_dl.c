/* SPDX-License-Identifier: MIT */
/* Opening a peer library at run time (peer.h): duet-bench links none of them, so that it starts
 * on machines without them, and a test can name a file that is not there. */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "peer.h"

void *peer_dlopen(const char *env, const char *soname, const char **opened, char *err, size_t len) {
  const char *file = getenv(env);
  const int from_env = file && *file;
  if (!from_env) file = soname;
  *opened = file;
  void *lib = dlopen(file, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    snprintf(err, len, "cannot open %s%s%s: %s", file, from_env ? ", named by " : "",
             from_env ? env : "", why ? why : "no reason given");
  }
  return lib;
}

void *peer_dlsym(void *lib, const char *name, char *err, size_t len) {
  dlerror();
  void *sym = dlsym(lib, name);
  if (!sym) {
    const char *why = dlerror();
    snprintf(err, len, "cannot find %s: %s", name, why ? why : "no reason given");
  }
  return sym;
}
