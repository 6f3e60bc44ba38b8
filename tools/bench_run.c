/* SPDX-License-Identifier: MIT */
/* Running a row: one verification run, warm-up, then the timed repetitions.
 *
 * Device rows are timed with duet events around each launch. The repetitions are all enqueued
 * before the first time is read, so that wherever a kernel outlasts its launch the queue stays
 * full and the events measure the kernel, not the host's launch latency. --total times write +
 * kernel + read with the host clock, since blocking transfers are what a caller of the library
 * waits for. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_format.h"
#include "bench_rows.h"
#include "bench_run.h"
#include "bench_suite.h"
#include "bench_util.h"
#include "bench_verify.h"

/* Rotate inputs when one set would sit in the device's cache (L2 on a GPU, the last level on a
 * CPU) between runs: ceil(3 * cache / set) sets. */
static int sets_for(const bench_host *h, const bench_dev *dev) {
  size_t set = (h->a_elems + h->b_elems + h->out_elems) * sizeof(float);
  const size_t cache = dev->info.cache_bytes ? dev->info.cache_bytes : BENCH_CACHE_FALLBACK;
  if (set >= cache) return 1;
  size_t n = (3 * cache + set - 1) / set;
  if (n > BENCH_MAX_SETS) n = BENCH_MAX_SETS;
  while (n > 1 && n * set > dev->info.global_mem_bytes / 2) n--;
  return (int)n;
}

void bench_job_free(bench_job *job) {
  for (int s = 0; s < BENCH_MAX_SETS; s++) {
    duet_buf_destroy(job->a[s]);
    duet_buf_destroy(job->b[s]);
    duet_buf_destroy(job->out[s]);
  }
  for (int e = 0; e < job->nev; e++) duet_event_destroy(job->ev[e]);
  free(job->ev);
  free(job->result);
  free(job->poison);
}

static int upload(bench_job *job, duet_buf *buf, const float *set0, size_t n, int set, int which,
                  float *scratch) {
  const float *src = set0;
  if (set) {
    bench_fill_random(scratch, n, job->host->seed, set, which);
    src = scratch;
  }
  int st = duet_buf_write(buf, 0, src, n * sizeof(float));
  return st ? bench_duet_error(job, st, "duet_buf_write") : 0;
}

int bench_job_setup(bench_job *job, int nev) {
  const bench_host *h = job->host;
  duet_ctx *ctx = job->dev->ctx;
  int st;
  job->nsets = sets_for(h, job->dev);
  job->result = bench_xmalloc(h->out_elems * sizeof(float));
  job->poison = bench_xmalloc(h->out_elems * sizeof(float));
  for (size_t i = 0; i < h->out_elems; i++) job->poison[i] = NAN;
  for (int s = 0; s < job->nsets; s++) {
    if ((st = duet_buf_create(ctx, h->a_elems * sizeof(float), &job->a[s])) ||
        (h->b_elems && (st = duet_buf_create(ctx, h->b_elems * sizeof(float), &job->b[s]))) ||
        (st = duet_buf_create(ctx, h->out_elems * sizeof(float), &job->out[s]))) {
      if (s == 0) return bench_duet_error(job, st, "duet_buf_create");
      /* Fewer sets only weakens the cache rotation; keep what fitted. */
      duet_buf_destroy(job->a[s]);
      duet_buf_destroy(job->b[s]);
      job->a[s] = job->b[s] = NULL;
      job->nsets = s;
      break;
    }
  }
  float *scratch = job->nsets > 1
                       ? bench_xmalloc(h->a_elems > h->b_elems ? h->a_elems * sizeof(float)
                                                               : h->b_elems * sizeof(float))
                       : NULL;
  st = 0;
  for (int s = 0; s < job->nsets && !st; s++) {
    st = upload(job, job->a[s], h->a, h->a_elems, s, 0, scratch);
    if (!st && h->b) st = upload(job, job->b[s], h->b, h->b_elems, s, 1, scratch);
  }
  free(scratch);
  if (st) return st;
  job->ev = calloc((size_t)nev, sizeof *job->ev);
  if (!job->ev) return bench_duet_error(job, DUET_ENOMEM, "calloc");
  for (; job->nev < nev; job->nev++)
    if ((st = duet_event_create(ctx, &job->ev[job->nev])))
      return bench_duet_error(job, st, "duet_event_create");
  return 0;
}

static void result_init(bench_result *res, const bench_row_def *row, const bench_host *h,
                        const bench_dev *dev) {
  res->def = row;
  res->routine = row->routine;
  res->size = h->size;
  res->variant = row->name;
  res->error = NAN;
  res->tol = row->check == BENCH_CHECK_GEMM ? row->tol : 0;
  res->rate = res->vs_ref = res->warmup_ms = NAN;
  if (dev) {
    res->backend = duet_backend_name(dev->backend);
    res->device = dev->device;
    snprintf(res->device_name, sizeof res->device_name, "%s", dev->info.name);
    res->is_cpu = dev->is_cpu;
  } else {
    res->is_cpu = 1;
    res->backend = "cpu";
    res->device = -1;
    snprintf(res->device_name, sizeof res->device_name, "host");
  }
}

static void set_error(bench_result *res, const char *msg) {
  res->verdict = BENCH_V_ERROR;
  snprintf(res->note, sizeof res->note, "%s", msg);
}

static int choose_reps(const bench_opts *o, double est_ms, int min_reps) {
  if (o->reps_given || !(est_ms > 0)) return o->reps;
  double fit = BENCH_BUDGET_MS / est_ms;
  if (fit < min_reps) return min_reps < o->reps ? min_reps : o->reps;
  return fit < o->reps ? (int)fit : o->reps;
}

/* --batch auto: launches enough for a run of BENCH_BATCH_RUN_MS at `est_ms` a launch. */
static int batch_for(const bench_opts *o, double est_ms) {
  if (o->batch != BENCH_BATCH_AUTO) return o->batch;
  if (!(est_ms > 0)) return 1;
  const double n = ceil(BENCH_BATCH_RUN_MS / est_ms);
  return n < BENCH_BATCH_MAX ? (int)n : BENCH_BATCH_MAX;
}

/* One untimed run on set 0, also when not verifying: it absorbs one-time costs such as the
 * OpenCL program build, which would otherwise land between the first pair of events. */
int bench_job_verify(bench_job *job, const bench_row_def *row, bench_result *res) {
  size_t bytes = job->host->out_elems * sizeof(float);
  int st = duet_buf_write(job->out[0], 0, job->poison, bytes);
  if (st) return bench_duet_error(job, st, "duet_buf_write");
  if ((st = row->launch(job, row, 0))) return st;
  if ((st = duet_finish(job->dev->ctx))) return bench_duet_error(job, st, "duet_finish");
  if (!job->opts->verify) {
    res->verdict = BENCH_V_SKIPPED;
    return 0;
  }
  if ((st = duet_buf_read(job->out[0], 0, job->result, bytes)))
    return bench_duet_error(job, st, "duet_buf_read");
  bench_verify(job->host, row, job->result, res);
  return 0;
}

static int time_device(bench_job *job, const bench_row_def *row, bench_result *res) {
  const bench_opts *o = job->opts;
  duet_event **ev = job->ev, *w0 = ev[job->nev - 2], *w1 = ev[job->nev - 1];
  int st, set = 0;
  float ms = 0;
  double est = 0;
  if (o->warmup > 0) {
    if ((st = duet_event_record(w0))) return bench_duet_error(job, st, "duet_event_record");
    for (int i = 0; i < o->warmup; i++)
      if ((st = row->launch(job, row, set++ % job->nsets))) return st;
    if ((st = duet_event_record(w1))) return bench_duet_error(job, st, "duet_event_record");
    if ((st = duet_event_elapsed_ms(w0, w1, &ms)))
      return bench_duet_error(job, st, "duet_event_elapsed_ms");
    est = ms / o->warmup;
  }
  const int batch = batch_for(o, est);
  int reps = choose_reps(o, est * batch, BENCH_MIN_REPS);
  for (int r = 0; r < reps; r++) {
    if ((st = duet_event_record(ev[2 * r]))) return bench_duet_error(job, st, "duet_event_record");
    for (int b = 0; b < batch; b++)
      if ((st = row->launch(job, row, set++ % job->nsets))) return st;
    if ((st = duet_event_record(ev[2 * r + 1])))
      return bench_duet_error(job, st, "duet_event_record");
  }
  double *t = bench_xmalloc((size_t)reps * sizeof *t);
  for (int r = 0; r < reps && !st; r++) {
    if ((st = duet_event_elapsed_ms(ev[2 * r], ev[2 * r + 1], &ms)))
      bench_duet_error(job, st, "duet_event_elapsed_ms");
    t[r] = ms / batch;
  }
  if (!st && (st = duet_finish(job->dev->ctx))) bench_duet_error(job, st, "duet_finish");
  if (!st) {
    bench_stats(t, reps, &res->med, &res->min, &res->max);
    res->timed = 1;
    res->reps = reps;
    res->warmup = o->warmup;
    res->batch = batch;
    res->warmup_ms = est > 0 ? est : NAN;
    res->sets = job->nsets;
    res->rate = bench_row_rate(res->def, res->size, res->med);
  }
  free(t);
  return st;
}

/* The time a caller waits end to end (kernel time vs total time, as course reports compare
 * them): inputs to the device, the kernel, the result back, all blocking. */
static int time_total(bench_job *job, const bench_row_def *row, bench_result *res) {
  const bench_host *h = job->host;
  int st = 0, reps = res->reps;
  double *t = bench_xmalloc((size_t)reps * sizeof *t);
  for (int r = 0; r < reps && !st; r++) {
    double t0 = bench_now_ms();
    if ((st = duet_buf_write(job->a[0], 0, h->a, h->a_elems * sizeof(float))) ||
        (h->b && (st = duet_buf_write(job->b[0], 0, h->b, h->b_elems * sizeof(float))))) {
      bench_duet_error(job, st, "duet_buf_write");
      break;
    }
    if ((st = row->launch(job, row, 0))) break;
    if ((st = duet_buf_read(job->out[0], 0, job->result, h->out_elems * sizeof(float)))) {
      bench_duet_error(job, st, "duet_buf_read");
      break;
    }
    t[r] = bench_now_ms() - t0;
  }
  if (!st) {
    bench_stats(t, reps, &res->tmed, &res->tmin, &res->tmax);
    res->total_timed = 1;
  }
  free(t);
  return st;
}

/* The variant AUTO runs for this shape, from duet_sgemm_plan's first line ("auto -> fast: ..."),
 * and the plan from there on, its lines (a piece or a packed operand each) joined by "; ", so
 * that a results file says what ran; without running anything. Both are left empty where the
 * text says no such thing. */
static void auto_pick(bench_job *job, bench_result *res) {
  const bench_size s = job->host->size;
  char text[2048] = "";
  duet_sgemm_plan(job->dev->ctx, DUET_GEMM_AUTO, s.ta ? DUET_TRANS : DUET_NO_TRANS,
                  s.tb ? DUET_TRANS : DUET_NO_TRANS, s.m, s.n, s.k, bench_lda(s), bench_ldb(s),
                  text, sizeof text);
  const char *at = strstr(text, "auto -> ");
  if (!at) return;
  at += strlen("auto -> ");
  sscanf(at, "%31[a-z0-9_-]", res->pick);
  size_t n = 0;
  for (int line_start = 0; *at && n + 3 < sizeof res->plan; at++) {
    if (*at == '\n') {
      line_start = 1;
      continue;
    }
    if (line_start && *at == ' ') continue; /* a piece's line's indent */
    if (line_start) res->plan[n++] = ';', res->plan[n++] = ' ';
    line_start = 0;
    res->plan[n++] = *at;
  }
  res->plan[n] = '\0';
}

static void run_row(bench_job *job, const bench_row_def *row, bench_result *res) {
  const char *what = bench_routine_name(row->routine);
  char size[64];
  bench_size_str(row->routine, job->host->size, size, sizeof size);
  bench_progress("%s %s %s:%d %s: verifying", what, size, duet_backend_name(job->dev->backend),
                 job->dev->device, row->name);
  job->err[0] = '\0';
  if (bench_job_verify(job, row, res)) {
    set_error(res, job->err);
    return;
  }
  if (row->routine == BENCH_GEMM && row->kind == BENCH_ROW_DUET && row->variant == DUET_GEMM_AUTO)
    auto_pick(job, res);
  /* A wrong result is never timed: its speed means nothing. */
  if (res->verdict == BENCH_V_NO) return;
  bench_progress("%s %s %s:%d %s: timing", what, size, duet_backend_name(job->dev->backend),
                 job->dev->device, row->name);
  if (time_device(job, row, res) || (job->opts->total && time_total(job, row, res))) {
    res->timed = 0;
    res->rate = NAN;
    set_error(res, job->err);
  }
}

/* One predicate for running and for counting rows, so that the progress count stays true. */
static int device_row(const bench_opts *o, const bench_row_def *row, bench_routine r, bench_size s,
                      const bench_dev *dev) {
  return row->routine == r && bench_row_selected(o, row) && bench_suite_row_runs(o, row, s) &&
         bench_row_runs_on(row, dev);
}

int bench_device_rows(const bench_opts *o, const bench_dev *dev, bench_routine r, bench_size s) {
  size_t nrows;
  const bench_row_def *rows = bench_rows(&nrows);
  int n = 0;
  for (size_t i = 0; i < nrows; i++) n += device_row(o, &rows[i], r, s, dev);
  return n;
}

int bench_run_device(const bench_opts *o, bench_dev *dev, const bench_host *h, bench_results *out) {
  bench_job job = {.opts = o, .dev = dev, .host = h};
  size_t nrows;
  const bench_row_def *rows = bench_rows(&nrows);
  int setup = bench_job_setup(&job, 2 * o->reps + 2);
  int added = 0;
  for (size_t i = 0; i < nrows; i++) {
    const bench_row_def *row = &rows[i];
    if (!device_row(o, row, h->routine, h->size, dev)) continue;
    bench_result *res = bench_results_add(out);
    result_init(res, row, h, dev);
    res->sets = job.nsets;
    if (setup)
      set_error(res, job.err);
    else
      run_row(&job, row, res);
    bench_progress_row_done(bench_work(h->routine, h->size));
    added++;
  }
  bench_job_free(&job);
  return added;
}

/* ---- CPU baselines: host clock, host data ------------------------------------------------- */

int bench_cpu_sensible(const bench_host *h) {
  bench_size s = h->size;
  /* the CPU baselines read packed operands as stored, untransposed */
  if (h->routine == BENCH_GEMM)
    return bench_size_plain(s) && (uint64_t)s.m * s.n * s.k <= BENCH_CPU_GEMM_MACS;
  /* the vector routines have no CPU rows */
  return h->routine == BENCH_TRANSPOSE && (uint64_t)s.m * s.n <= BENCH_CPU_MOVE_ELEMS;
}

static void run_cpu_row(const bench_opts *o, const bench_host *h, const bench_row_def *row,
                        float *out, bench_result *res) {
  char size[64];
  bench_size_str(row->routine, h->size, size, sizeof size);
  bench_progress("%s %s cpu %s", bench_routine_name(row->routine), size, row->name);
  double t0 = bench_now_ms();
  row->cpu(h, out);
  double first = bench_now_ms() - t0;
  if (o->verify) {
    bench_verify(h, row, out, res);
    if (res->verdict == BENCH_V_NO) return;
  } else {
    res->verdict = BENCH_V_SKIPPED;
  }
  /* One warm-up at most: a CPU run is long enough to have warmed the caches itself. */
  int warmup = o->warmup < 1 ? o->warmup : 1;
  for (int i = 0; i < warmup; i++) row->cpu(h, out);
  int reps = choose_reps(o, first, BENCH_MIN_CPU_REPS);
  double *t = bench_xmalloc((size_t)reps * sizeof *t);
  for (int r = 0; r < reps; r++) {
    t0 = bench_now_ms();
    row->cpu(h, out);
    t[r] = bench_now_ms() - t0;
  }
  bench_stats(t, reps, &res->med, &res->min, &res->max);
  free(t);
  res->timed = 1;
  res->reps = reps;
  res->warmup = warmup;
  res->sets = 1;
  res->rate = bench_row_rate(res->def, res->size, res->med);
}

static int cpu_row(const bench_row_def *row, bench_routine r) {
  return row->routine == r && row->kind == BENCH_ROW_CPU;
}

int bench_cpu_rows(const bench_opts *o, bench_routine r, bench_size s) {
  const bench_host h = {.routine = r, .size = s};
  if (!o->cpu || !bench_cpu_sensible(&h)) return 0;
  size_t nrows;
  const bench_row_def *rows = bench_rows(&nrows);
  int n = 0;
  for (size_t i = 0; i < nrows; i++) n += cpu_row(&rows[i], r);
  return n;
}

int bench_run_cpu(const bench_opts *o, const bench_host *h, bench_results *out) {
  if (!bench_cpu_rows(o, h->routine, h->size)) return 0;
  size_t nrows;
  const bench_row_def *rows = bench_rows(&nrows);
  float *buf = bench_xmalloc(h->out_elems * sizeof(float));
  int added = 0;
  for (size_t i = 0; i < nrows; i++) {
    if (!cpu_row(&rows[i], h->routine)) continue;
    bench_result *res = bench_results_add(out);
    result_init(res, &rows[i], h, NULL);
    run_cpu_row(o, h, &rows[i], buf, res);
    bench_progress_row_done(bench_work(h->routine, h->size));
    added++;
  }
  free(buf);
  return added;
}
