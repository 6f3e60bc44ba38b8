/* SPDX-License-Identifier: MIT */
/* Opening a peer library at run time (peer.h): duet-bench links none of them, so that it starts
 * on machines without them, and a test can name a file that is not there. */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peer.h"

static void *open_lib(const char *env, const char *soname, const char **opened, char *err,
                      size_t len) {
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

static int resolve(void *lib, const char *file, const char *const *names, void *const *slots,
                   size_t n, char *err, size_t len) {
  for (size_t i = 0; i < n; i++) {
    dlerror();
    void *sym = dlsym(lib, names[i]);
    if (!sym) {
      const char *why = dlerror();
      snprintf(err, len, "%s: cannot find %s: %s", file, names[i], why ? why : "no reason given");
      return -1;
    }
    /* POSIX: a function's address fits a data pointer; memcpy avoids the cast ISO C lacks. */
    memcpy(slots[i], &sym, sizeof sym);
  }
  return 0;
}

int peer_dl_load(peer_lib *p, const char *env, const char *soname, const char *const *names,
                 void *const *slots, size_t n, char *err, size_t len) {
  if (!p->tried) {
    const char *file;
    void *lib = open_lib(env, soname, &file, p->error, sizeof p->error);
    if (lib && resolve(lib, file, names, slots, n, p->error, sizeof p->error))
      dlclose(lib); /* nothing was made from it */
    p->tried = 1;
  }
  if (!p->error[0]) return 0;
  snprintf(err, len, "%s", p->error);
  return -1;
}
