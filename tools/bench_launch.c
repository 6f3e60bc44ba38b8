/* SPDX-License-Identifier: MIT */
/* `duet-bench launch`: what one small duet call costs the host, next to a raw launch of a minimal
 * kernel on the same queue (bench_raw.h).
 *
 * A round of a call drains the queue, records a duet event, enqueues N calls, records another
 * and drains the queue again. The host clock is read before the first call, after the last
 * (enqueue only: the host cost while the queue keeps up) and after the final duet_finish (incl.
 * finish); the events give the device's time for the N calls. The rounds of the calls alternate,
 * so that a change in clock speed or load touches them all alike, and every number is the median
 * over the rounds. Each call is verified once before it is timed, on the same buffers. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_raw.h"

/* The raw baseline: its handle and its backend's functions. */
typedef struct {
  bench_raw *handle;
  int (*launch)(bench_raw *raw, char *err, size_t len);
  void (*close)(bench_raw *raw);
} raw_launch;

static int launch_raw(bench_job *job, const bench_row_def *row, int set) {
  (void)row;
  (void)set;
  raw_launch *raw = job->raw;
  return raw->launch(raw->handle, job->err, sizeof job->err);
}

/* The raw kernel copies, so it is checked as the copy is. */
static const bench_row_def raw_row = {.routine = BENCH_COPY,
                                      .name = "raw",
                                      .kind = BENCH_ROW_REF,
                                      .check = BENCH_CHECK_COPY,
                                      .launch = launch_raw};

/* The duet calls, each with its routine's row of the catalogue (AUTO where there are variants). */
static const struct {
  bench_routine routine;
  const char *row, *call;
} duet_calls[] = {{BENCH_COPY, "copy", "duet_copy"},
                  {BENCH_TRANSPOSE, "auto", "duet_transpose auto"},
                  {BENCH_GEMM, "auto", "duet_sgemm auto"}};
#define N_CALLS (1 + (int)(sizeof duet_calls / sizeof duet_calls[0]))

static const bench_row_def *catalogue_row(bench_routine r, const char *name) {
  size_t n;
  const bench_row_def *rows = bench_rows(&n);
  for (size_t i = 0; i < n; i++)
    if (rows[i].routine == r && rows[i].kind == BENCH_ROW_DUET && strcmp(rows[i].name, name) == 0)
      return &rows[i];
  return NULL;
}

/* duet_copy's block, TRANSPOSE_TILE x TRANSPOSE_ROWS threads (src/manifest.c), in the context's
 * tuning set: the raw kernel then runs the same block on the device. */
static void copy_block(const duet_ctx *ctx, unsigned block[2]) {
  const char *name;
  int v;
  block[0] = 32;
  block[1] = 8;
  for (int i = 0; duet_ctx_tunable(ctx, i, &name, &v) == DUET_OK; i++) {
    if (strcmp(name, "TRANSPOSE_TILE") == 0) block[0] = (unsigned)v;
    if (strcmp(name, "TRANSPOSE_ROWS") == 0) block[1] = (unsigned)v;
  }
}

static const char *raw_api(duet_backend b) {
  return b == DUET_BACKEND_CUDA ? "cudaLaunchKernel" : "clEnqueueNDRangeKernel";
}

/* Opens the raw launch on the copy job's buffers; on failure job->err says why. */
static int raw_open(bench_job *job, raw_launch *raw) {
  duet_ctx *ctx = job->dev->ctx;
  const bench_size s = job->host->size;
  unsigned block[2];
  copy_block(ctx, block);
  memset(raw, 0, sizeof *raw);
  (void)s; /* used by the backends compiled in; a build with neither has none */
  switch (job->dev->backend) {
#ifdef DUET_HAVE_CUDA
    case DUET_BACKEND_CUDA:
      raw->launch = bench_raw_cuda_launch;
      raw->close = bench_raw_cuda_close;
      return bench_raw_cuda_open(ctx, job->a[0], job->out[0], s.m, s.n, block, &raw->handle,
                                 job->err, sizeof job->err);
#endif
#ifdef DUET_HAVE_OPENCL
    case DUET_BACKEND_OPENCL:
      raw->launch = bench_raw_cl_launch;
      raw->close = bench_raw_cl_close;
      return bench_raw_cl_open(ctx, job->a[0], job->out[0], s.m, s.n, block, &raw->handle, job->err,
                               sizeof job->err);
#endif
    default: break;
  }
  snprintf(job->err, sizeof job->err, "no raw launch for this backend");
  return -1;
}

/* One call of the table: its job (buffers, events), its row, its result. */
typedef struct {
  bench_job *job;
  const bench_row_def *row;
  bench_launch_result *res;
  double *t[3]; /* per round: host enqueue, host incl. finish, device; us per call */
} launch_call;

static void fail(launch_call *c) {
  c->res->verdict = BENCH_V_ERROR;
  snprintf(c->res->note, sizeof c->res->note, "%s", c->job->err);
}

static int finish(bench_job *job) {
  int st = duet_finish(job->dev->ctx);
  return st ? bench_duet_error(job, st, "duet_finish") : 0;
}

static int time_round(launch_call *c, int round, int calls) {
  bench_job *job = c->job;
  int st;
  float ms;
  if ((st = finish(job))) return st;
  if ((st = duet_event_record(job->ev[0]))) return bench_duet_error(job, st, "duet_event_record");
  double t0 = bench_now_ms();
  for (int i = 0; i < calls; i++)
    if ((st = c->row->launch(job, c->row, 0))) return st;
  double t1 = bench_now_ms();
  if ((st = duet_event_record(job->ev[1]))) return bench_duet_error(job, st, "duet_event_record");
  if ((st = finish(job))) return st;
  double t2 = bench_now_ms();
  if ((st = duet_event_elapsed_ms(job->ev[0], job->ev[1], &ms)))
    return bench_duet_error(job, st, "duet_event_elapsed_ms");
  c->t[0][round] = (t1 - t0) * 1e3 / calls;
  c->t[1][round] = (t2 - t0) * 1e3 / calls;
  c->t[2][round] = ms * 1e3 / calls;
  return 0;
}

/* Verification and warm-up; a call that fails them, or a round, is left out of the rest. */
static int prepare(const bench_opts *o, launch_call *c) {
  bench_result check;
  memset(&check, 0, sizeof check);
  if (bench_job_verify(c->job, c->row, &check)) return -1;
  c->res->verdict = check.verdict;
  snprintf(c->res->note, sizeof c->res->note, "%s", check.note);
  if (check.verdict == BENCH_V_NO) return -1; /* a wrong result is never timed */
  for (int i = 0; i < o->warmup; i++)
    if (c->row->launch(c->job, c->row, 0)) return -1;
  return finish(c->job);
}

static void summarise(const bench_opts *o, launch_call *c) {
  bench_launch_result *r = c->res;
  double lo, hi;
  bench_stats(c->t[0], BENCH_LAUNCH_ROUNDS, &r->host_us, &r->host_min_us, &r->host_max_us);
  bench_stats(c->t[1], BENCH_LAUNCH_ROUNDS, &r->finish_us, &lo, &hi);
  bench_stats(c->t[2], BENCH_LAUNCH_ROUNDS, &r->device_us, &lo, &hi);
  r->timed = 1;
  r->calls = o->reps;
  r->rounds = BENCH_LAUNCH_ROUNDS;
  r->warmup = o->warmup;
  r->backlog = r->finish_us > BENCH_LAUNCH_BACKLOG * r->host_us;
}

static void measure(const bench_opts *o, bench_dev *dev, launch_call *calls) {
  int live[N_CALLS];
  for (int i = 0; i < N_CALLS; i++) {
    bench_progress("launch %s:%d: verifying and warming up %s", duet_backend_name(dev->backend),
                   dev->device, calls[i].res->call);
    live[i] = calls[i].res->verdict != BENCH_V_ERROR; /* set up */
    if (live[i] && prepare(o, &calls[i])) {
      live[i] = 0;
      if (calls[i].res->verdict != BENCH_V_NO) fail(&calls[i]);
    }
  }
  for (int round = 0; round < BENCH_LAUNCH_ROUNDS; round++) {
    bench_progress("launch %s:%d: round %d of %d", duet_backend_name(dev->backend), dev->device,
                   round + 1, BENCH_LAUNCH_ROUNDS);
    for (int i = 0; i < N_CALLS; i++)
      if (live[i] && time_round(&calls[i], round, o->reps)) {
        live[i] = 0;
        fail(&calls[i]);
      }
  }
  for (int i = 0; i < N_CALLS; i++)
    if (live[i]) summarise(o, &calls[i]);
  const bench_launch_result *raw = calls[0].res;
  for (int i = 1; i < N_CALLS; i++)
    calls[i].res->above_raw_us =
        raw->timed && calls[i].res->timed ? calls[i].res->host_us - raw->host_us : NAN;
}

static void result_init(bench_launch_result *r, const bench_dev *dev, bench_routine routine,
                        bench_size s, const char *call) {
  memset(r, 0, sizeof *r);
  r->backend = duet_backend_name(dev->backend);
  r->device = dev->device;
  snprintf(r->device_name, sizeof r->device_name, "%s", dev->info.name);
  r->call = call;
  r->routine = routine;
  r->size = s;
  r->host_us = r->host_min_us = r->host_max_us = r->finish_us = r->device_us = NAN;
  r->above_raw_us = NAN;
}

/* All calls on one device: the raw launch first, on the copy's buffers, then duet's calls. */
static void run_device(const bench_opts *o, bench_dev *dev, bench_size s,
                       bench_launch_result *res) {
  bench_host host[BENCH_NROUTINES];
  bench_job job[BENCH_NROUTINES];
  launch_call calls[N_CALLS];
  double *times = bench_xmalloc((size_t)N_CALLS * 3 * BENCH_LAUNCH_ROUNDS * sizeof *times);
  raw_launch raw = {0};
  memset(job, 0, sizeof job);
  for (int r = 0; r < BENCH_NROUTINES; r++) {
    job[r] = (bench_job){.opts = o, .dev = dev, .host = &host[r], .raw = &raw};
    if (bench_host_init(&host[r], (bench_routine)r, s, o->seed, o->verify)) {
      fprintf(stderr, "duet-bench: launch: out of host memory for the inputs\n");
      exit(1);
    }
  }
  for (int i = 0; i < N_CALLS; i++) {
    bench_routine r = i ? duet_calls[i - 1].routine : BENCH_COPY;
    calls[i] = (launch_call){.job = &job[r],
                             .row = i ? catalogue_row(r, duet_calls[i - 1].row) : &raw_row,
                             .res = &res[i]};
    for (int k = 0; k < 3; k++) calls[i].t[k] = times + (3 * i + k) * BENCH_LAUNCH_ROUNDS;
    result_init(&res[i], dev, r, s, i ? duet_calls[i - 1].call : raw_api(dev->backend));
    res[i].raw = i == 0;
  }
  int ready[BENCH_NROUTINES];
  for (int r = 0; r < BENCH_NROUTINES; r++) ready[r] = bench_job_setup(&job[r], 2) == 0;
  /* The raw launch needs the copy's buffers, and (CUDA) the device current from its open on. */
  if (ready[BENCH_COPY] && raw_open(&job[BENCH_COPY], &raw)) fail(&calls[0]);
  for (int i = 0; i < N_CALLS; i++)
    if (!ready[calls[i].job->host->routine]) fail(&calls[i]);
  measure(o, dev, calls);
  if (raw.handle) raw.close(raw.handle);
  for (int r = 0; r < BENCH_NROUTINES; r++) {
    bench_job_free(&job[r]);
    bench_host_free(&host[r]);
  }
  free(times);
}

int bench_launch(const bench_opts *o, bench_dev *devs, int ndev) {
  bench_size s = o->nsizes ? o->sizes[0] : (bench_size){1, 1, 1};
  bench_launch_result *all = bench_xmalloc((size_t)ndev * N_CALLS * sizeof *all);
  int failed = 0;
  bench_launch_output_begin(o, devs, ndev);
  for (int d = 0; d < ndev; d++) {
    bench_launch_result *res = all + d * N_CALLS;
    run_device(o, &devs[d], s, res);
    bench_progress_done();
    bench_launch_output_device(o, res, N_CALLS);
    for (int i = 0; i < N_CALLS; i++)
      if (res[i].verdict == BENCH_V_NO || res[i].verdict == BENCH_V_ERROR) failed = 1;
  }
  bench_launch_output_end(o, devs, ndev, all, ndev * N_CALLS);
  free(all);
  if (failed)
    fprintf(stderr, "duet-bench: some calls failed verification or could not run (see above)\n");
  return failed;
}
