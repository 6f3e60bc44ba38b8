/* SPDX-License-Identifier: MIT */
/* The launch command's output, in the formats of the other commands: a table and CSV streamed a
 * device at a time, JSON as one document at the end. Times are microseconds per call. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "bench_format.h"
#include "bench_launch.h"

static void us(double v, int present, char *buf, size_t len) {
  if (present && !isnan(v))
    snprintf(buf, len, "%.3f", v);
  else
    snprintf(buf, len, "-");
}

static void table_row(const bench_launch_result *r) {
  char dev[32], call[160], host[32], fin[32], devt[32], above[32];
  snprintf(dev, sizeof dev, "%s:%d", r->backend, r->device);
  if (r->kernel[0])
    snprintf(call, sizeof call, "%s %s", r->call, r->kernel);
  else
    snprintf(call, sizeof call, "%s", r->call);
  us(r->host_us, r->timed, host, sizeof host);
  us(r->finish_us, r->timed, fin, sizeof fin);
  us(r->device_us, r->timed, devt, sizeof devt);
  us(r->above_raw_us, r->timed, above, sizeof above);
  printf("%-9s %-38s %10s %11s %10s %10s  %s", dev, call, host, fin, devt, above,
         bench_verdict_name(r->verdict));
  if (r->backlog) printf(", backlog");
  if (r->note[0]) printf(": %s", r->note);
  putchar('\n');
}

/* The numbers of a row, named as CSV's columns and JSON's keys; present only on timed rows. */
#define N_NUMBERS 9
static const char *const number_keys[N_NUMBERS] = {"calls",          "rounds",      "warmup",
                                                   "host_us",        "host_min_us", "host_max_us",
                                                   "host_finish_us", "device_us",   "above_raw_us"};

static void numbers(const bench_launch_result *r, double v[N_NUMBERS]) {
  const double all[N_NUMBERS] = {r->calls,     r->rounds,      r->warmup,
                                 r->host_us,   r->host_min_us, r->host_max_us,
                                 r->finish_us, r->device_us,   r->above_raw_us};
  memcpy(v, all, sizeof all);
}

static void csv_header(void) {
  printf("backend,device,device_name,call,raw,kernel,m,n,k");
  for (int i = 0; i < N_NUMBERS; i++) printf(",%s", number_keys[i]);
  printf(",backlog,verified,note\n");
}

static void csv_row(const bench_launch_result *r) {
  double v[N_NUMBERS];
  numbers(r, v);
  printf("%s,%d,", r->backend, r->device);
  bench_csv_str(r->device_name);
  putchar(',');
  bench_csv_str(r->call);
  printf(",%d,", r->raw);
  bench_csv_str(r->kernel);
  printf(",%zu,%zu,", r->size.m, r->size.n);
  if (r->routine == BENCH_GEMM) printf("%zu", r->size.k);
  for (int i = 0; i < N_NUMBERS; i++) bench_csv_num(v[i], r->timed);
  bench_csv_num(r->backlog, r->timed);
  printf(",%s,", bench_verdict_name(r->verdict));
  bench_csv_str(r->note);
  putchar('\n');
}

static void json_row(const bench_launch_result *r) {
  double v[N_NUMBERS];
  numbers(r, v);
  printf("    {\"backend\": \"%s\", \"device\": %d, \"device_name\": ", r->backend, r->device);
  bench_json_str(r->device_name);
  printf(", \"call\": ");
  bench_json_str(r->call);
  printf(", \"raw\": %s, \"kernel\": ", r->raw ? "true" : "false");
  bench_json_str(r->kernel);
  printf(", \"m\": %zu, \"n\": %zu", r->size.m, r->size.n);
  bench_json_num("k", (double)r->size.k, r->routine == BENCH_GEMM);
  printf(",\n     \"timed\": %s", r->timed ? "true" : "false");
  for (int i = 0; i < N_NUMBERS; i++) bench_json_num(number_keys[i], v[i], r->timed);
  printf(", \"backlog\": %s", r->timed && r->backlog ? "true" : "false");
  printf(",\n     \"verified\": \"%s\", \"note\": ", bench_verdict_name(r->verdict));
  bench_json_str(r->note);
  printf("}");
}

void bench_launch_output_begin(const bench_opts *o, bench_dev *devs, int ndev) {
  if (o->format == BENCH_OUT_CSV) csv_header();
  if (o->format != BENCH_OUT_TABLE) return;
  bench_size s = o->nsizes ? o->sizes[0] : (bench_size){.m = 1, .n = 1, .k = 1};
  char move[64], gemm[64];
  bench_size_str(BENCH_COPY, s, move, sizeof move);
  bench_size_str(BENCH_GEMM, s, gemm, sizeof gemm);
  printf(
      "duet-bench %s launch: host cost of a small call, us per call, median of %d rounds of %d\n"
      "calls after %d warm-up call%s; %s matrices (sgemm %s), against raw launches on the same "
      "queue\n",
      duet_version(), BENCH_LAUNCH_ROUNDS, o->reps, o->warmup, o->warmup == 1 ? "" : "s", move,
      gemm);
  bench_device_lines(devs, ndev, "");
  if (!o->verify) printf("VERIFICATION SKIPPED (--no-verify): no result below was checked\n");
  printf("\n%-9s %-38s %10s %11s %10s %10s  verified\n", "device", "call", "enqueue us",
         "+finish us", "device us", "above raw");
  fflush(stdout);
}

void bench_launch_output_device(const bench_opts *o, const bench_launch_result *r, int n) {
  for (int i = 0; i < n; i++) {
    if (o->format == BENCH_OUT_TABLE) table_row(&r[i]);
    if (o->format == BENCH_OUT_CSV) csv_row(&r[i]);
  }
  fflush(stdout);
}

static void json_doc(const bench_opts *o, bench_dev *devs, int ndev, const bench_launch_result *all,
                     int n) {
  printf("{\n  \"tool\": \"duet-bench\", \"version\": \"%s\", \"command\": \"launch\",\n",
         duet_version());
  printf(
      "  \"timing\": {\"method\": \"host monotonic clock around N enqueued calls (host_us), and "
      "to the end of the duet_finish after them (host_finish_us); duet events around them "
      "(device_us); per call, median of rounds\", \"calls\": %d, \"rounds\": %d, \"warmup\": %d, "
      "\"backlog_ratio\": %.2f},\n",
      o->reps, BENCH_LAUNCH_ROUNDS, o->warmup, BENCH_LAUNCH_BACKLOG);
  printf("  \"verify\": %s, \"seed\": %llu,\n", o->verify ? "true" : "false",
         (unsigned long long)o->seed);
  bench_json_devices(devs, ndev);
  printf(",\n  \"results\": [");
  for (int i = 0; i < n; i++) {
    printf("%s\n", i ? "," : "");
    json_row(&all[i]);
  }
  printf("\n  ]\n}\n");
}

void bench_launch_output_end(const bench_opts *o, bench_dev *devs, int ndev,
                             const bench_launch_result *all, int n) {
  if (o->format == BENCH_OUT_JSON) json_doc(o, devs, ndev, all, n);
  if (o->format != BENCH_OUT_TABLE) return;
  int backlog = 0;
  for (int i = 0; i < n; i++) backlog |= all[i].timed && all[i].backlog;
  printf(
      "\nenqueue us: host clock around the N calls alone; +finish us: to the end of the "
      "duet_finish that\n  drains them; device us: duet events recorded before and after them. "
      "Each round starts on\n  an empty queue; the rounds of the calls alternate.\n"
      "above raw: enqueue us minus that of the raw launch of the first row of each device: "
      "cudaLaunchKernel\n  or clEnqueueNDRangeKernel of a minimal copy kernel with duet_copy's "
      "arguments, set once,\n  on duet's own queue and buffers. duet_transpose and duet_sgemm run "
      "AUTO.\n"
      "duet_launch bench_raw_copy: the same kernel and geometry, compiled by duet_program_create "
      "and\n  enqueued by duet_launch: its above raw is duet's own host work per launch.\n");
  if (backlog)
    printf(
        "backlog: +finish us exceeds enqueue us by more than %.0f%%: the device fell behind the "
        "host and\n  the queue grew. A full queue (CUDA: about a thousand launches) makes the "
        "host wait inside\n  the calls, so enqueue us then shows the device's pace; fewer calls "
        "(--reps) avoid that.\n",
        (BENCH_LAUNCH_BACKLOG - 1) * 100);
  if (o->verify)
    printf(
        "verified: once before timing, on the same buffers: copies and transpose bit-exact, "
        "sgemm to a\n  relative error of %.0e.\n",
        BENCH_GEMM_TOL);
  else
    printf("verified: SKIPPED (--no-verify).\n");
}
