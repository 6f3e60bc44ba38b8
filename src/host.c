/* SPDX-License-Identifier: MIT */
/* Pinned host memory: the backend allocates it; a registry here maps each pointer handed out to
 * the backend's handle and the context that holds it, so that a free of a pointer duet did not
 * allocate is refused with a reason instead of reaching the runtime. */
#include <pthread.h>
#include <stdlib.h>

#include "duet_internal.h"

typedef struct pinned {
  void *ptr, *handle;
  duet_ctx *ctx; /* held until the free: the backend state the memory belongs to */
  struct pinned *next;
} pinned;

/* Process-wide: a family's members may allocate and free from different threads. */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static pinned *registry;

int duet_host_alloc(duet_ctx *ctx, size_t bytes, void **ptr) {
  int status = duet__check_ctx(ctx, "duet_host_alloc");
  if (status) return status;
  if (!ptr) return duet__fail(ctx, DUET_EINVAL, "duet_host_alloc: ptr is NULL");
  if (!bytes) return duet__fail(ctx, DUET_EINVAL, "duet_host_alloc: bytes is 0");
  pinned *p = calloc(1, sizeof *p);
  if (!p) return duet__fail(ctx, DUET_ENOMEM, "duet_host_alloc: out of host memory");
  if ((status = ctx->ops->host_alloc(ctx, bytes, &p->ptr, &p->handle))) {
    free(p);
    return status;
  }
  p->ctx = ctx;
  duet__ctx_hold(ctx);
  pthread_mutex_lock(&registry_lock);
  p->next = registry;
  registry = p;
  pthread_mutex_unlock(&registry_lock);
  *ptr = p->ptr;
  return DUET_OK;
}

void duet_host_free(duet_ctx *ctx, void *ptr) {
  if (!ptr) return;
  if (duet__check_ctx(ctx, "duet_host_free")) return;
  pthread_mutex_lock(&registry_lock);
  pinned **at = &registry;
  while (*at && (*at)->ptr != ptr) at = &(*at)->next;
  pinned *p = *at;
  const int ours = p && duet__same_family(p->ctx, ctx);
  if (ours) *at = p->next;
  pthread_mutex_unlock(&registry_lock);
  if (!p) {
    duet__fail(ctx, DUET_EINVAL,
               "duet_host_free: %p is not memory from duet_host_alloc (or was freed already)", ptr);
    return;
  }
  if (!ours) {
    duet__fail(ctx, DUET_EINVAL, "duet_host_free: %p was allocated on a context of another family",
               ptr);
    return;
  }
  ctx->ops->host_free(ctx, p->ptr, p->handle);
  duet__ctx_release(p->ctx);
  free(p);
}
