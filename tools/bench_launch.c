/* SPDX-License-Identifier: MIT */
/* `duet-bench launch`: what one small duet call costs the host, next to raw launches on the same
 * queue (bench_raw.h): of a minimal kernel, and of the very kernel the call enqueues, with its
 * arguments and geometry, which leaves duet's own host work as the difference.
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

/* The baseline copies, so it is checked as the copy is. */
static const bench_row_def baseline_row = {.routine = BENCH_COPY,
                                           .name = "raw",
                                           .kind = BENCH_ROW_REF,
                                           .check = BENCH_CHECK_COPY,
                                           .launch = bench_launch_raw};

/* The duet calls, each with its routine's row of the catalogue (AUTO where there are variants). */
static const struct {
  bench_routine routine;
  const char *row, *call;
} duet_calls[] = {{BENCH_COPY, "copy", "duet_copy"},
                  {BENCH_TRANSPOSE, "auto", "duet_transpose auto"},
                  {BENCH_GEMM, "auto", "duet_sgemm auto"}};
#define N_DUET ((int)(sizeof duet_calls / sizeof duet_calls[0]))
/* Per device: the baseline, then each duet call followed by the raw launch of its kernel. */
#define N_CALLS (1 + 2 * N_DUET)

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
  bench_row_def same; /* a same-kernel row's: its duet call's row, launched raw */
  bench_launch_result *res;
  int ready;    /* set up, and neither failed nor skipped since */
  double *t[3]; /* per round: host enqueue, host incl. finish, device; us per call */
} launch_call;

static void fail(launch_call *c) {
  c->ready = 0;
  c->res->verdict = BENCH_V_ERROR;
  snprintf(c->res->note, sizeof c->res->note, "%s", c->job->err);
}

/* A same-kernel row that cannot be replayed is skipped, not failed: the call itself ran. */
static void skip(launch_call *c) {
  fail(c);
  c->res->verdict = BENCH_V_SKIPPED;
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
  for (int i = 1; i < N_CALLS; i += 2) {
    bench_launch_result *r = calls[i].res, *same = calls[i + 1].res;
    r->above_same_us = same->timed && r->timed ? r->host_us - same->host_us : NAN;
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
  r->above_raw_us = r->above_same_us = NAN;
}

/* The same kernel's row for duet call c, on c's job: its raw launch opened. */
static void open_same(launch_call *c, launch_call *same, bench_raw_launch *raw, int index) {
  same->same = *c->row;
  same->same.name = "raw";
  same->same.kind = BENCH_ROW_REF;
  same->same.variant = index;
  same->same.launch = bench_launch_raw;
  same->row = &same->same;
  if (!c->ready) { /* its job has no buffers */
    fail(same);
    return;
  }
  const int st = bench_launch_raw_same(c->job, c->row, &raw[index], same->res->kernel,
                                       sizeof same->res->kernel);
  snprintf(c->res->kernel, sizeof c->res->kernel, "%s", same->res->kernel);
  if (st < 0) fail(same);
  if (st > 0) skip(same);
}

/* All calls on one device: the baseline first, on the copy's buffers, then each duet call and
 * the raw launch of its kernel. */
static void run_device(const bench_opts *o, bench_dev *dev, bench_size s,
                       bench_launch_result *res) {
  bench_host host[BENCH_NMATRIX];
  bench_job job[BENCH_NMATRIX];
  launch_call calls[N_CALLS];
  double *times = bench_xmalloc((size_t)N_CALLS * 3 * BENCH_LAUNCH_ROUNDS * sizeof *times);
  bench_raw_launch raw[N_CALLS];
  memset(job, 0, sizeof job);
  memset(raw, 0, sizeof raw);
  for (int r = 0; r < BENCH_NMATRIX; r++) {
    job[r] = (bench_job){.opts = o, .dev = dev, .host = &host[r], .raw = raw};
    if (bench_host_init(&host[r], (bench_routine)r, s, o->seed, o->verify)) {
      fprintf(stderr, "duet-bench: launch: out of host memory for the inputs\n");
      exit(1);
    }
  }
  int ready[BENCH_NMATRIX];
  for (int r = 0; r < BENCH_NMATRIX; r++) ready[r] = bench_job_setup(&job[r], 2) == 0;
  for (int i = 0; i < N_CALLS; i++) {
    const int d = (i - 1) / 2, duet = i % 2; /* duet_calls[d]; a duet row, or its raw one */
    bench_routine r = i ? duet_calls[d].routine : BENCH_COPY;
    calls[i] = (launch_call){.job = &job[r],
                             .row = duet ? catalogue_row(r, duet_calls[d].row) : &baseline_row,
                             .res = &res[i],
                             .ready = ready[r]};
    for (int k = 0; k < 3; k++) calls[i].t[k] = times + (3 * i + k) * BENCH_LAUNCH_ROUNDS;
    result_init(&res[i], dev, r, s, duet ? duet_calls[d].call : raw_api(dev->backend));
    res[i].raw = !duet;
    res[i].same = i && !duet;
    if (!ready[r]) fail(&calls[i]);
  }
  /* The raw launches need their jobs' buffers, and (CUDA) the device current from their opens
   * on. */
  snprintf(res[0].kernel, sizeof res[0].kernel, "bench_raw_copy");
  if (calls[0].ready && bench_launch_raw_copy(calls[0].job, &raw[0])) fail(&calls[0]);
  for (int i = 1; i < N_CALLS; i += 2) open_same(&calls[i], &calls[i + 1], raw, i + 1);
  measure(o, dev, calls);
  for (int i = 0; i < N_CALLS; i++) bench_launch_raw_close(&raw[i]);
  for (int r = 0; r < BENCH_NMATRIX; r++) {
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
