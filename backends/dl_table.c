/* SPDX-License-Identifier: MIT */
/* Opening a library and resolving a table of its functions (dl_table.h). */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "dl_table.h"

static const char *dl_reason(void) {
  const char *e = dlerror();
  return e ? e : "no reason given";
}

int duet__dl_table(const char *file, const char *what, const char *note, const char *const *names,
                   void *const *slots, size_t n, char *err, size_t len) {
  void *lib = dlopen(file, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(err, len, "cannot open %s%s%s: %s", what, file, note, dl_reason());
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    dlerror();
    void *sym = dlsym(lib, names[i]);
    if (!sym) {
      snprintf(err, len, "%s%s lacks %s: %s", what, file, names[i], dl_reason());
      dlclose(lib);
      return -1;
    }
    /* POSIX: a function's address fits a data pointer; memcpy avoids the cast ISO C lacks. */
    memcpy(slots[i], &sym, sizeof sym);
  }
  return 0;
}
