/* SPDX-License-Identifier: MIT */
/* Device events: markers in the context's queue, for timing and for ordering the queues of a
 * family. */
#include <stdlib.h>

#include "duet_internal.h"

int duet_event_create(duet_ctx *ctx, duet_event **out) {
  int status = duet__check_ctx(ctx, "duet_event_create");
  if (status) return status;
  if (!out) return duet__fail(ctx, DUET_EINVAL, "duet_event_create: ev is NULL");
  *out = NULL;
  duet_event *ev = calloc(1, sizeof *ev);
  if (!ev) return duet__fail(ctx, DUET_ENOMEM, "duet_event_create: out of host memory");
  if ((status = ctx->ops->event_alloc(ctx, &ev->handle))) {
    free(ev);
    return status;
  }
  ev->ctx = ctx;
  duet__ctx_hold(ctx);
  *out = ev;
  return DUET_OK;
}

int duet_event_record(duet_event *ev) {
  if (!ev) return duet__fail(NULL, DUET_EINVAL, "duet_event_record: ev is NULL");
  int status = ev->ctx->ops->event_record(ev->ctx, ev->handle);
  if (!status) ev->recorded = 1;
  return status;
}

int duet_event_elapsed_ms(const duet_event *start, const duet_event *end, float *ms) {
  if (!start || !end)
    return duet__fail(start ? start->ctx
                      : end ? end->ctx
                            : NULL,
                      DUET_EINVAL, "duet_event_elapsed_ms: %s is NULL", start ? "end" : "start");
  duet_ctx *ctx = start->ctx;
  if (!ms) return duet__fail(ctx, DUET_EINVAL, "duet_event_elapsed_ms: ms is NULL");
  /* A family's queues run on one device, whose clock times both events (CUDA events of one
   * device compare across streams; OpenCL profiling counters across the queues of one
   * cl_context); another family's clock may be another device's. */
  if (!duet__same_family(end->ctx, ctx))
    return duet__fail(ctx, DUET_EINVAL,
                      "duet_event_elapsed_ms: start and end belong to contexts of different "
                      "families");
  if (!start->recorded || !end->recorded)
    return duet__fail(ctx, DUET_EINVAL, "duet_event_elapsed_ms: %s was never recorded",
                      start->recorded ? "end" : "start");
  return ctx->ops->event_elapsed(ctx, start->handle, end->handle, ms);
}

int duet_event_wait(duet_ctx *ctx, const duet_event *ev) {
  int status = duet__check_ctx(ctx, "duet_event_wait");
  if (status) return status;
  if (!ev) return duet__fail(ctx, DUET_EINVAL, "duet_event_wait: ev is NULL");
  if (!duet__same_family(ev->ctx, ctx))
    return duet__fail(ctx, DUET_EINVAL,
                      "duet_event_wait: ev belongs to a context of another family");
  if (!ev->recorded) return duet__fail(ctx, DUET_EINVAL, "duet_event_wait: ev was never recorded");
  return ctx->ops->event_wait(ctx, ev->handle);
}

void duet_event_destroy(duet_event *ev) {
  if (!ev) return;
  duet_ctx *ctx = ev->ctx;
  ctx->ops->event_free(ctx, ev->handle);
  free(ev);
  duet__ctx_release(ctx);
}
