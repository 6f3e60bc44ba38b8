/* SPDX-License-Identifier: MIT */
/* Per-context failure text. The library never prints unless DUET_VERBOSE=1 asks it to. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duet_internal.h"

const char *duet__getenv(const char *name) {
  const char *v = getenv(name);
  return (v && *v) ? v : NULL;
}

/* Failures with no context to hold them (duet_ctx_create, a NULL ctx) land here, per thread. */
static _Thread_local char no_ctx_error[DUET__ERRLEN];

int duet__verbose(void) {
  const char *v = duet__getenv("DUET_VERBOSE");
  return v && strcmp(v, "0") != 0;
}

void duet__pass_on(const char *text) { snprintf(no_ctx_error, DUET__ERRLEN, "%s", text); }

void duet__note(const char *fmt, ...) {
  if (!duet__verbose()) return;
  va_list ap;
  va_start(ap, fmt);
  fputs("duet: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputs("\n", stderr);
  va_end(ap);
}

int duet__fail(const duet_ctx *cctx, int status, const char *fmt, ...) {
  /* last_error is diagnostic state, not part of the context's logical value: const callers
   * such as duet_ctx_info may still record why they failed. */
  duet_ctx *ctx = (duet_ctx *)cctx;
  char *dst = ctx ? ctx->last_error : no_ctx_error;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(dst, DUET__ERRLEN, fmt, ap);
  va_end(ap);
  if (duet__verbose()) fprintf(stderr, "duet: %s: %s\n", duet_status_name(status), dst);
  return status;
}

const char *duet_ctx_last_error(const duet_ctx *ctx) {
  return ctx ? ctx->last_error : no_ctx_error;
}
