/* Several threads, each with its own context, created at the same moment as the process's first
 * contexts (the ICD loader's first platform query crashed PoCL when raced), each running a
 * checked transpose and sgemm. Run it under TSan too (.ci/run). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define THREADS 8

typedef struct {
  duet_backend backend;
  pthread_barrier_t *start;
  int status;      /* of duet_ctx_create */
  char why[256];   /* its last error, when it failed */
  harness_dev dev; /* the context, for the checked cases after the join */
} worker;

static void *work(void *arg) {
  worker *w = arg;
  pthread_barrier_wait(w->start);
  w->status = duet_ctx_create(&w->dev.ctx, w->backend, 0);
  if (w->status) snprintf(w->why, sizeof w->why, "%s", duet_ctx_last_error(NULL));
  return NULL;
}

/* The device count is taken by the workers themselves: nothing in this process may touch the
 * runtime before they start. */
static void race(duet_backend b) {
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, THREADS);
  worker w[THREADS];
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++) {
    memset(&w[i], 0, sizeof w[i]);
    w[i].backend = b;
    w[i].start = &start;
    pthread_create(&t[i], NULL, work, &w[i]);
  }
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  pthread_barrier_destroy(&start);
  int count = 0;
  duet_device_count(b, &count);
  harness_case c;
  harness_case_begin(&c, NULL, "%d threads create their first %s contexts at once", THREADS,
                     duet_backend_name(b));
  if (!count) {
    harness_case_skip(&c, "no %s device", duet_backend_name(b));
    return;
  }
  for (int i = 0; i < THREADS; i++)
    harness_expect(&c, w[i].status == DUET_OK, "thread %d: %s: %s", i,
                   duet_status_name(w[i].status), w[i].why);
  harness_case_end(&c);
  /* Then each thread's context computes, all at once, checked against the CPU afterwards by
   * the harness cases below (which run one context at a time). */
  for (int i = 0; i < THREADS; i++) {
    if (w[i].status) continue;
    harness_dev *d = &w[i].dev;
    d->backend = b;
    duet_ctx_info(d->ctx, &d->info);
    snprintf(d->label, sizeof d->label, "%s dev0 thread%d", duet_backend_name(b), i);
    harness_run_move(d, DUET_TRANSPOSE_AUTO, 65, 33, 1, 2);
    harness_run_sgemm(d, DUET_GEMM_AUTO, DUET_NO_TRANS, DUET_TRANS, 31, 17, 29, 1.0f, 0.5f, 1);
    duet_ctx_destroy(d->ctx);
  }
}

int main(void) {
  harness_init("test_threads");
  if (duet_backend_built(DUET_BACKEND_OPENCL)) race(DUET_BACKEND_OPENCL);
  if (duet_backend_built(DUET_BACKEND_CUDA)) race(DUET_BACKEND_CUDA);
  return harness_end();
}
