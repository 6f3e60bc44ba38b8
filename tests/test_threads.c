/* SPDX-License-Identifier: MIT */
/* Several threads, each with its own context, created at the same moment as the process's first
 * contexts (the ICD loader's first platform query crashed PoCL when raced), then each running a
 * transpose and an sgemm at the same time and checking them against the CPU; then two threads on
 * one family (duet_ctx_create_shared), each driving its own member, one made while the other
 * thread uses the root and destroyed while it still does. The workers use
 * the library alone (the harness and its OpenMP references are single-threaded by design), so
 * that a ThreadSanitizer build (.ci/run) sees only duet's own threads and the runtime's. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define THREADS 8
#define M 37
#define N 29
#define K 45

typedef struct {
  duet_backend backend;
  pthread_barrier_t *start;
  uint64_t seed;
  int create; /* status of duet_ctx_create */
  char why[512];
  char wrong[256]; /* what the check found, or "" */
} worker;

/* One transpose and one sgemm on this thread's context, checked against the CPU. */
static void compute(worker *w, duet_ctx *ctx) {
  float ha[M * K], hb[K * N], ht[K * M], hc[M * N];
  harness_rng r = harness_rng_make(w->seed);
  for (int i = 0; i < M * K; i++) ha[i] = harness_random_unit(harness_rng_next(&r));
  for (int i = 0; i < K * N; i++) hb[i] = harness_random_unit(harness_rng_next(&r));
  duet_buf *da = NULL, *db = NULL, *dt = NULL, *dc = NULL;
  int st = duet_buf_create(ctx, sizeof ha, &da);
  if (!st) st = duet_buf_create(ctx, sizeof hb, &db);
  if (!st) st = duet_buf_create(ctx, sizeof ht, &dt);
  if (!st) st = duet_buf_create(ctx, sizeof hc, &dc);
  if (!st) st = duet_buf_write(da, 0, ha, sizeof ha);
  if (!st) st = duet_buf_write(db, 0, hb, sizeof hb);
  if (!st) st = duet_transpose(ctx, DUET_TRANSPOSE_AUTO, M, K, da, K, dt, M);
  if (!st)
    st = duet_sgemm(ctx, DUET_GEMM_AUTO, DUET_NO_TRANS, DUET_NO_TRANS, M, N, K, 1.0f, da, K, db, N,
                    0.0f, dc, N);
  if (!st) st = duet_buf_read(dt, 0, ht, sizeof ht);
  if (!st) st = duet_buf_read(dc, 0, hc, sizeof hc);
  if (st)
    snprintf(w->wrong, sizeof w->wrong, "%s: %s", duet_status_name(st), duet_ctx_last_error(ctx));
  for (int i = 0; i < M && !st && !*w->wrong; i++)
    for (int p = 0; p < K; p++)
      if (ht[p * M + i] != ha[i * K + p]) {
        snprintf(w->wrong, sizeof w->wrong, "transpose: out(%d,%d) is wrong", p, i);
        break;
      }
  for (int i = 0; i < M && !st && !*w->wrong; i++)
    for (int j = 0; j < N; j++) {
      double ref = 0, mag = 0;
      for (int p = 0; p < K; p++) ref += (double)ha[i * K + p] * hb[p * N + j];
      for (int p = 0; p < K; p++) mag += fabs((double)ha[i * K + p] * hb[p * N + j]);
      if (!(fabs(hc[i * N + j] - ref) <= 1e-5 * mag)) {
        snprintf(w->wrong, sizeof w->wrong, "sgemm: C(%d,%d) = %.9g, want %.9g", i, j,
                 hc[i * N + j], ref);
        break;
      }
    }
  duet_buf_destroy(da);
  duet_buf_destroy(db);
  duet_buf_destroy(dt);
  duet_buf_destroy(dc);
}

static void *work(void *arg) {
  worker *w = arg;
  duet_ctx *ctx = NULL;
  pthread_barrier_wait(w->start);
  w->create = duet_ctx_create(&ctx, w->backend, 0);
  if (w->create)
    snprintf(w->why, sizeof w->why, "%s", duet_ctx_last_error(NULL));
  else
    compute(w, ctx);
  duet_ctx_destroy(ctx);
  return NULL;
}

/* Nothing in this process touches the runtime before the workers start: their contexts are
 * its first. */
static void race(duet_backend b) {
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, THREADS);
  worker w[THREADS];
  pthread_t t[THREADS];
  harness_case c;
  harness_case_begin(&c, NULL, "%d threads create their first %s contexts at once and compute",
                     THREADS, duet_backend_name(b));
  for (int i = 0; i < THREADS; i++) {
    memset(&w[i], 0, sizeof w[i]);
    w[i].backend = b;
    w[i].start = &start;
    w[i].seed = c.seed + (uint64_t)i;
    pthread_create(&t[i], NULL, work, &w[i]);
  }
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  pthread_barrier_destroy(&start);
  int count = 0;
  duet_device_count(b, &count);
  if (!count) {
    harness_case_skip(&c, "no %s device", duet_backend_name(b));
    return;
  }
  harness_contexts_ran(THREADS);
  for (int i = 0; i < THREADS; i++) {
    harness_expect(&c, w[i].create == DUET_OK, "thread %d: duet_ctx_create: %s: %s", i,
                   duet_status_name(w[i].create), w[i].why);
    harness_expect(&c, !*w[i].wrong, "thread %d: %s", i, w[i].wrong);
  }
  harness_case_end(&c);
}

/* ---- one family, one member per thread ------------------------------------------------------ */
#define SHARED 4099 /* floats of the root's buffer that both threads read */

typedef struct {
  duet_ctx *root;
  duet_ctx *own; /* NULL: the thread makes its member from root, while the other uses root */
  const duet_buf *shared;
  const float *expect; /* what shared holds */
  pthread_barrier_t *start;
  uint64_t seed;
  char wrong[512];
} member_worker;

/* Pinned memory, an enqueued copy of the root's buffer into one of this member's, and the
 * transpose and sgemm of compute(), with kernels loading in both threads at once. */
static void *member_work(void *arg) {
  member_worker *w = arg;
  duet_ctx *ctx = w->own;
  pthread_barrier_wait(w->start);
  int st = ctx ? DUET_OK : duet_ctx_create_shared(&ctx, w->root);
  duet_buf *mine = NULL;
  float *pin = NULL;
  if (!st) st = duet_host_alloc(ctx, SHARED * sizeof(float), (void **)&pin);
  if (!st) st = duet_buf_create(ctx, SHARED * sizeof(float), &mine);
  if (!st) st = duet_copy(ctx, 1, SHARED, w->shared, SHARED, mine, SHARED);
  if (!st) st = duet_buf_read_async(ctx, mine, 0, pin, SHARED * sizeof(float));
  if (!st) st = duet_finish(ctx);
  if (st)
    snprintf(w->wrong, sizeof w->wrong, "%s: %s", duet_status_name(st), duet_ctx_last_error(ctx));
  else if (memcmp(pin, w->expect, SHARED * sizeof(float)) != 0)
    snprintf(w->wrong, sizeof w->wrong, "the copy of the root's buffer is wrong");
  if (!st) {
    worker cw = {.seed = w->seed};
    compute(&cw, ctx);
    if (*cw.wrong) snprintf(w->wrong, sizeof w->wrong, "%s", cw.wrong);
  }
  if (pin) duet_host_free(ctx, pin);
  duet_buf_destroy(mine);
  /* The member's end releases the root, which the other thread is using. */
  if (!w->own) duet_ctx_destroy(ctx);
  return NULL;
}

static void family(duet_backend b) {
  harness_case c;
  harness_case_begin(&c, NULL, "two threads, each on one member of one %s family",
                     duet_backend_name(b));
  int count = 0;
  duet_device_count(b, &count);
  if (!count) {
    harness_case_skip(&c, "no %s device", duet_backend_name(b));
    return;
  }
  duet_ctx *root = NULL;
  duet_buf *shared = NULL;
  float host[SHARED];
  for (int i = 0; i < SHARED; i++) host[i] = (float)i * 0.5f - 7.0f;
  int st = duet_ctx_create(&root, b, 0);
  if (!st) st = duet_buf_create(root, sizeof host, &shared);
  if (!st) st = duet_buf_write(shared, 0, host, sizeof host);
  if (harness_expect_status(&c, st, DUET_OK, root, "setup")) {
    harness_contexts_ran(2);
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, 2);
    member_worker w[2];
    pthread_t t[2];
    for (int i = 0; i < 2; i++) {
      w[i] = (member_worker){root, i ? NULL : root, shared, host, &start, c.seed + (uint64_t)i, ""};
      pthread_create(&t[i], NULL, member_work, &w[i]);
    }
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < 2; i++)
      harness_expect(&c, !*w[i].wrong, "%s: %s", i ? "member" : "root", w[i].wrong);
  }
  duet_buf_destroy(shared);
  duet_ctx_destroy(root);
  harness_case_end(&c);
}

int main(void) {
  harness_init("test_threads");
  if (duet_backend_built(DUET_BACKEND_OPENCL)) race(DUET_BACKEND_OPENCL);
  if (duet_backend_built(DUET_BACKEND_CUDA)) race(DUET_BACKEND_CUDA);
  if (duet_backend_built(DUET_BACKEND_OPENCL)) family(DUET_BACKEND_OPENCL);
  if (duet_backend_built(DUET_BACKEND_CUDA)) family(DUET_BACKEND_CUDA);
  return harness_end();
}
