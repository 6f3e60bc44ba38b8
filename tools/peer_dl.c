/* SPDX-License-Identifier: MIT */
/* Opening a peer library at run time (peer.h): duet-bench links none of them, so that it starts
 * on machines without them, and a test can name a file that is not there. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "dl_table.h"
#include "peer.h"

int peer_dl_load(peer_lib *p, const char *env, const char *soname, const char *const *names,
                 void *const *slots, size_t n, char *err, size_t len) {
  if (!p->tried) {
    const char *file = getenv(env);
    const int from_env = file && *file;
    char note[128] = "";
    if (from_env)
      snprintf(note, sizeof note, ", named by %s", env);
    else
      file = soname;
    duet__dl_table(file, "", note, names, slots, n, p->error, sizeof p->error);
    p->tried = 1;
  }
  if (!p->error[0]) return 0;
  snprintf(err, len, "%s", p->error);
  return -1;
}
