/* SPDX-License-Identifier: MIT */
/* `duet-bench launch`: what one small duet call costs the host, next to a raw launch of a minimal
 * copy kernel on the same queue (bench_raw.h), and the same kernel through duet's own user-kernel
 * API (duet_program_create, duet_launch), which leaves duet's host work per launch as the
 * difference. Only duet.h's API is used.
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
#include "bench_launch.h"
#include "bench_launch_raw.h"
#include "bench_rows.h"
#include "bench_run.h"
#include "bench_util.h"
#include "bench_verify.h"

/* The baseline and its duet_launch twin copy, so they are checked as the copy is. */
static const bench_row_def baseline_row = {.routine = BENCH_COPY,
                                           .name = "raw",
                                           .kind = BENCH_ROW_REF,
                                           .check = BENCH_CHECK_COPY,
                                           .launch = bench_launch_raw};
static const bench_row_def user_row = {.routine = BENCH_COPY,
                                       .name = "duet_launch",
                                       .kind = BENCH_ROW_REF,
                                       .check = BENCH_CHECK_COPY,
                                       .launch = bench_launch_user};

/* The duet calls, each with its routine's row of the catalogue (AUTO where there are variants). */
static const struct {
  bench_routine routine;
  const char *row, *call;
} duet_calls[] = {{BENCH_COPY, "copy", "duet_copy"},
                  {BENCH_TRANSPOSE, "auto", "duet_transpose auto"},
                  {BENCH_GEMM, "auto", "duet_sgemm auto"}};
#define N_DUET ((int)(sizeof duet_calls / sizeof duet_calls[0]))
/* Per device: the baseline, its duet_launch, then each duet call. */
#define N_FIRST 2
#define N_CALLS (N_FIRST + N_DUET)

static const bench_row_def *catalogue_row(bench_routine r, const char *name) {
  size_t n;
  const bench_row_def *rows = bench_rows(&n);
  for (size_t i = 0; i < n; i++)
    if (rows[i].routine == r && rows[i].kind == BENCH_ROW_DUET && strcmp(rows[i].name, name) == 0)
      return &rows[i];
  return NULL;
}

static const char *raw_api(duet_backend b) {
  return b == DUET_BACKEND_CUDA ? "cudaLaunchKernel" : "clEnqueueNDRangeKernel";
}

/* One call of the table: its job (buffers, events), its row, its result. */
typedef struct {
  bench_job *job;
  const bench_row_def *row;
  bench_launch_result *res;
  int ready;    /* set up, and neither failed nor skipped since */
  double *t[3]; /* per round: host enqueue, host incl. finish, device; us per call */
} launch_call;

static void fail(launch_call *c) {
  c->ready = 0;
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
  for (int i = 0; i < N_CALLS; i++) {
    bench_progress("launch %s:%d: verifying and warming up %s", duet_backend_name(dev->backend),
                   dev->device, calls[i].res->call);
    if (calls[i].ready && prepare(o, &calls[i])) {
      calls[i].ready = 0;
      if (calls[i].res->verdict != BENCH_V_NO) fail(&calls[i]);
    }
  }
  for (int round = 0; round < BENCH_LAUNCH_ROUNDS; round++) {
    bench_progress("launch %s:%d: round %d of %d", duet_backend_name(dev->backend), dev->device,
                   round + 1, BENCH_LAUNCH_ROUNDS);
    for (int i = 0; i < N_CALLS; i++)
      if (calls[i].ready && time_round(&calls[i], round, o->reps)) fail(&calls[i]);
  }
  for (int i = 0; i < N_CALLS; i++)
    if (calls[i].ready) summarise(o, &calls[i]);
  const bench_launch_result *base = calls[0].res;
  for (int i = 1; i < N_CALLS; i++) {
    bench_launch_result *r = calls[i].res;
    r->above_raw_us = base->timed && r->timed ? r->host_us - base->host_us : NAN;
  }
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

/* The first two rows on the copy's job: the launches opened, or failed with their reason. */
static bench_launch_pair *open_pair(launch_call *raw, launch_call *user) {
  bench_job *job = raw->job;
  snprintf(raw->res->kernel, sizeof raw->res->kernel, "bench_raw_copy");
  snprintf(user->res->kernel, sizeof user->res->kernel, "bench_raw_copy");
  if (!raw->ready) { /* the copy's job has no buffers */
    fail(user);
    return NULL;
  }
  char raw_err[sizeof job->err], user_err[sizeof job->err];
  bench_launch_pair *p = bench_launch_pair_open(job, raw_err, user_err, sizeof raw_err);
  if (!p) snprintf(raw_err, sizeof raw_err, "out of host memory");
  if (!p) snprintf(user_err, sizeof user_err, "out of host memory");
  job->raw = p;
  if (raw_err[0]) {
    snprintf(job->err, sizeof job->err, "%s", raw_err);
    fail(raw);
  }
  if (user_err[0]) {
    snprintf(job->err, sizeof job->err, "%s", user_err);
    fail(user);
  }
  return p;
}

/* All calls on one device: the baseline and its duet_launch first, on the copy's buffers, then
 * each duet call. */
static void run_device(const bench_opts *o, bench_dev *dev, bench_size s,
                       bench_launch_result *res) {
  bench_host host[BENCH_NMATRIX];
  bench_job job[BENCH_NMATRIX];
  launch_call calls[N_CALLS];
  double *times = bench_xmalloc((size_t)N_CALLS * 3 * BENCH_LAUNCH_ROUNDS * sizeof *times);
  memset(job, 0, sizeof job);
  for (int r = 0; r < BENCH_NMATRIX; r++) {
    job[r] = (bench_job){.opts = o, .dev = dev, .host = &host[r]};
    if (bench_host_init(&host[r], (bench_routine)r, s, o->seed, o->verify)) {
      fprintf(stderr, "duet-bench: launch: out of host memory for the inputs\n");
      exit(1);
    }
  }
  int ready[BENCH_NMATRIX];
  for (int r = 0; r < BENCH_NMATRIX; r++) ready[r] = bench_job_setup(&job[r], 2) == 0;
  for (int i = 0; i < N_CALLS; i++) {
    const int d = i - N_FIRST; /* duet_calls[d] */
    bench_routine r = d >= 0 ? duet_calls[d].routine : BENCH_COPY;
    const bench_row_def *row = d >= 0   ? catalogue_row(r, duet_calls[d].row)
                               : i == 0 ? &baseline_row
                                        : &user_row;
    calls[i] = (launch_call){.job = &job[r], .row = row, .res = &res[i], .ready = ready[r]};
    for (int k = 0; k < 3; k++) calls[i].t[k] = times + (3 * i + k) * BENCH_LAUNCH_ROUNDS;
    result_init(&res[i], dev, r, s,
                d >= 0   ? duet_calls[d].call
                : i == 0 ? raw_api(dev->backend)
                         : "duet_launch");
    res[i].raw = i == 0;
    if (!ready[r]) fail(&calls[i]);
  }
  /* The raw launch needs the copy's buffers, and (CUDA) the device current from its open on. */
  bench_launch_pair *pair = open_pair(&calls[0], &calls[1]);
  measure(o, dev, calls);
  bench_launch_pair_close(pair);
  for (int r = 0; r < BENCH_NMATRIX; r++) {
    bench_job_free(&job[r]);
    bench_host_free(&host[r]);
  }
  free(times);
}

int bench_launch(const bench_opts *o, bench_dev *devs, int ndev) {
  bench_size s = o->nsizes ? o->sizes[0] : (bench_size){.m = 1, .n = 1, .k = 1};
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
