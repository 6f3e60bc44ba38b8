/* SPDX-License-Identifier: MIT */
/* The kernel command: times a kernel of the user's own (a source in duet_kernel.h's dialect)
 * with the launch the options describe, on every selected device, with the same device events,
 * medians and output formats as the built-in routines. duet-bench has no reference for a user's
 * kernel: its rows say so ("skipped") rather than claim a check. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_format.h"
#include "bench_kernel.h"
#include "bench_util.h"
#include "bench_verify.h"

/* ---- options ------------------------------------------------------------------------------- */

static int bad(const char *what, const char *arg) {
  fprintf(stderr, "duet-bench: %s '%s'\nTry 'duet-bench --help'.\n", what, arg);
  return 2;
}

/* "X", "X,Y" or "X,Y,Z", each 1 to max; missing dimensions are 1. */
static int parse_dims(const char *s, unsigned long long max, size_t out[3]) {
  out[0] = out[1] = out[2] = 1;
  const char *p = s;
  for (int d = 0; d < 3; d++) {
    char *end;
    if (*p < '0' || *p > '9') return -1;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 10);
    if (errno || v < 1 || v > max) return -1;
    out[d] = (size_t)v;
    if (!*end) return 0;
    if (*end != ',') return -1;
    p = end + 1;
  }
  return -1;
}

/* "buf:BYTES", "i32:V", "i64:V" or "f32:V". */
static int parse_arg(const char *s, bench_kernel_arg *a) {
  static const char *const kinds[] = {"buf:", "i32:", "i64:", "f32:"};
  for (int k = 0; k < 4; k++) {
    if (strncmp(s, kinds[k], 4) != 0) continue;
    const char *v = s + 4;
    char *end;
    errno = 0;
    a->kind = k;
    if (k == 3) {
      a->f = strtod(v, &end);
    } else {
      a->i = strtoll(v, &end, 0);
      if (k == 0 && a->i < 1) return -1;
      if (k == 1 && (a->i < -2147483648LL || a->i > 4294967295LL)) return -1;
    }
    return *v && !*end && !errno ? 0 : -1;
  }
  return -1;
}

int bench_kernel_option(int c, const char *arg, bench_opts *o) {
  bench_kernel_opts *k = &o->kern;
  size_t dims[3];
  unsigned long long bytes;
  char *end;
  switch (c) {
    case BENCH_OPT_GRID:
      if (parse_dims(arg, 1ull << 31, dims))
        return bad("bad --grid: give X[,Y[,Z]], each >= 1:", arg);
      memcpy(k->grid, dims, sizeof dims);
      return 0;
    case BENCH_OPT_BLOCK:
      if (parse_dims(arg, 1u << 16, dims))
        return bad("bad --block: give X[,Y[,Z]], each >= 1:", arg);
      for (int d = 0; d < 3; d++) k->block[d] = (unsigned)dims[d];
      return 0;
    case BENCH_OPT_SHARED:
    case BENCH_OPT_BYTES:
      errno = 0;
      bytes = strtoull(arg, &end, 10);
      if (arg[0] < '0' || arg[0] > '9' || *end || errno)
        return bad(c == BENCH_OPT_SHARED ? "bad --shared: give bytes:" : "bad --bytes: give bytes:",
                   arg);
      if (c == BENCH_OPT_SHARED)
        k->shared = (size_t)bytes;
      else
        k->bytes = (double)bytes;
      return 0;
    case BENCH_OPT_ARG:
      if (k->nargs == BENCH_KERNEL_MAX_ARGS) return bad("too many --arg (at most 32):", arg);
      if (parse_arg(arg, &k->args[k->nargs]))
        return bad("bad --arg: give buf:BYTES, i32:V, i64:V or f32:V:", arg);
      k->nargs++;
      return 0;
    case BENCH_OPT_OPTIONS: k->options = arg; return 0;
  }
  return bad("unhandled option", arg);
}

int bench_kernel_given(const bench_opts *o) {
  const bench_kernel_opts *k = &o->kern;
  return k->grid[0] || k->block[0] || k->shared || k->bytes > 0 || k->nargs || k->options;
}

/* The kernel command's own rules, and its source read before any device is opened. */
int bench_kernel_check(bench_opts *o, const char *file, const char *name) {
  bench_kernel_opts *k = &o->kern;
  if (o->variants || o->total || o->cpu || o->plot || o->nsizes)
    return bad("the kernel command takes none of --variant, --total, --cpu, --plot, sizes:", file);
  if (!k->grid[0]) return bad("the kernel command needs --grid (and --block) for", name);
  if (!k->block[0]) return bad("the kernel command needs --block for", name);
  if (o->batch == BENCH_BATCH_AUTO)
    return bad("the kernel command takes --batch N, not auto:", name);
  k->name = name;
  FILE *f = fopen(file, "rb");
  if (!f) {
    fprintf(stderr, "duet-bench: cannot read the kernel source '%s': %s\n", file, strerror(errno));
    return 2;
  }
  size_t cap = 4096, len = 0;
  char *text = bench_xmalloc(cap);
  for (size_t got; (got = fread(text + len, 1, cap - len - 1, f)) > 0;)
    if ((len += got) == cap - 1) {
      char *grown = realloc(text, cap *= 2);
      if (!grown) {
        fclose(f);
        free(text);
        return bad("out of host memory reading", file);
      }
      text = grown;
    }
  fclose(f);
  text[len] = '\0';
  k->source = text;
  k->file = file;
  return 0;
}

/* ---- one device ---------------------------------------------------------------------------- */

typedef struct {
  const char *backend;
  int device;
  char device_name[256];
  bench_verdict verdict;
  int timed;
  double med, min, max; /* ms per launch */
  double rate;          /* GB/s from --bytes; NaN without */
  char note[512];
} kernel_result;

/* Builds, checks with one launch, then times the kernel on dev; fills r. */
static void run_device(const bench_opts *o, bench_dev *dev, kernel_result *r) {
  const bench_kernel_opts *k = &o->kern;
  duet_ctx *ctx = dev->ctx;
  duet_program *prog = NULL;
  duet_buf *bufs[BENCH_KERNEL_MAX_ARGS] = {NULL};
  duet_arg args[BENCH_KERNEL_MAX_ARGS];
  const int nev = 2 * o->reps;
  duet_event **ev = bench_xmalloc((size_t)nev * sizeof *ev);
  memset(ev, 0, (size_t)nev * sizeof *ev);
  const char *failed = NULL;
  int st = duet_program_create(ctx, k->source, k->options, &prog);
  if (st) failed = "duet_program_create";
  uint64_t seed = o->seed;
  for (int i = 0; !failed && i < k->nargs; i++) {
    const bench_kernel_arg *a = &k->args[i];
    if (a->kind == 0) {
      const size_t bytes = (size_t)a->i, n = bytes / sizeof(float);
      float *fill = bench_xmalloc(bytes);
      memset(fill, 0, bytes);
      bench_fill_random(fill, n, seed, 0, i);
      if ((st = duet_buf_create(ctx, bytes, &bufs[i])) ||
          (st = duet_buf_write(bufs[i], 0, fill, bytes)))
        failed = "duet_buf_create/write";
      free(fill);
      args[i] = duet_arg_buf(bufs[i]);
    } else {
      args[i] = a->kind == 1   ? duet_arg_i32((int)a->i)
                : a->kind == 2 ? duet_arg_i64(a->i)
                               : duet_arg_f32((float)a->f);
    }
  }
  for (int i = 0; !failed && i < nev; i++)
    if ((st = duet_event_create(ctx, &ev[i]))) failed = "duet_event_create";
  /* The warm-up's first launch is the check that the launch is valid. */
  for (int i = 0; !failed && i < o->warmup + 1; i++)
    if ((st = duet_launch(prog, k->name, k->grid, k->block, k->shared, args, (unsigned)k->nargs)))
      failed = "duet_launch";
  if (!failed && (st = duet_finish(ctx))) failed = "duet_finish";
  double *ms = bench_xmalloc((size_t)o->reps * sizeof *ms);
  for (int rep = 0; !failed && rep < o->reps; rep++) {
    if ((st = duet_event_record(ev[2 * rep]))) failed = "duet_event_record";
    for (int b = 0; !failed && b < o->batch; b++)
      if ((st = duet_launch(prog, k->name, k->grid, k->block, k->shared, args, (unsigned)k->nargs)))
        failed = "duet_launch";
    if (!failed && (st = duet_event_record(ev[2 * rep + 1]))) failed = "duet_event_record";
  }
  for (int rep = 0; !failed && rep < o->reps; rep++) {
    float t;
    if ((st = duet_event_elapsed_ms(ev[2 * rep], ev[2 * rep + 1], &t)))
      failed = "duet_event_elapsed_ms";
    ms[rep] = (double)t / o->batch;
  }
  if (failed) {
    r->verdict = BENCH_V_ERROR;
    /* duet's last error names the call that failed; the call's name stands in without one. */
    const char *why = duet_ctx_last_error(ctx);
    snprintf(r->note, sizeof r->note, "%s", *why ? why : failed);
  } else {
    bench_stats(ms, o->reps, &r->med, &r->min, &r->max);
    r->timed = 1;
    r->verdict = BENCH_V_SKIPPED;
    r->rate = k->bytes > 0 ? k->bytes / (r->med * 1e6) : NAN;
    snprintf(r->note, sizeof r->note, "a kernel of your own: no reference to check it against");
  }
  free(ms);
  for (int i = 0; i < nev; i++) duet_event_destroy(ev[i]);
  free(ev);
  for (int i = 0; i < k->nargs; i++) duet_buf_destroy(bufs[i]);
  duet_program_destroy(prog);
}

/* ---- output -------------------------------------------------------------------------------- */

static void print_row(const bench_opts *o, const kernel_result *r, int first) {
  const bench_kernel_opts *k = &o->kern;
  const int t = r->timed;
  if (o->format == BENCH_OUT_TABLE) {
    char dev[32];
    snprintf(dev, sizeof dev, "%s:%d", r->backend, r->device);
    if (t)
      printf("%-9s %-24s %10.4f %10.4f %10.4f", dev, k->name, r->med, r->min, r->max);
    else
      printf("%-9s %-24s %10s %10s %10s", dev, k->name, "-", "-", "-");
    if (t && !isnan(r->rate))
      printf(" %9.1f", r->rate);
    else
      printf(" %9s", "-");
    printf("  %s: %s\n", bench_verdict_name(r->verdict), r->note);
    return;
  }
  if (o->format == BENCH_OUT_CSV) {
    printf("%s,%d,", r->backend, r->device);
    bench_csv_str(r->device_name);
    putchar(',');
    bench_csv_str(k->file);
    putchar(',');
    bench_csv_str(k->name);
    printf(",%zux%zux%zu,%ux%ux%u,%zu", k->grid[0], k->grid[1], k->grid[2], k->block[0],
           k->block[1], k->block[2], k->shared);
    bench_csv_num(r->med, t);
    bench_csv_num(r->min, t);
    bench_csv_num(r->max, t);
    printf(",%d,%d,%d", o->reps, o->warmup + 1, o->batch);
    bench_csv_num(r->rate, t);
    printf(",GB/s,%s,", bench_verdict_name(r->verdict));
    bench_csv_str(r->note);
    putchar('\n');
    return;
  }
  printf("%s    {\"backend\": \"%s\", \"device\": %d, \"device_name\": ", first ? "" : ",\n",
         r->backend, r->device);
  bench_json_str(r->device_name);
  printf(", \"file\": ");
  bench_json_str(k->file);
  printf(", \"kernel\": ");
  bench_json_str(k->name);
  printf(", \"grid\": [%zu, %zu, %zu], \"block\": [%u, %u, %u], \"shared_bytes\": %zu", k->grid[0],
         k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2], k->shared);
  bench_json_num("median_ms", r->med, t);
  bench_json_num("min_ms", r->min, t);
  bench_json_num("max_ms", r->max, t);
  printf(", \"reps\": %d, \"warmup\": %d, \"batch\": %d", o->reps, o->warmup + 1, o->batch);
  bench_json_num("rate", r->rate, t);
  printf(", \"rate_unit\": \"GB/s\", \"verified\": \"%s\", \"note\": ",
         bench_verdict_name(r->verdict));
  bench_json_str(r->note);
  printf("}");
}

int bench_kernel(const bench_opts *o, bench_dev *devs, int ndev) {
  const bench_kernel_opts *k = &o->kern;
  if (o->format == BENCH_OUT_TABLE) {
    printf(
        "duet-bench %s: kernel %s of %s, grid %zux%zux%zu, block %ux%ux%u, %zu shared bytes;\n"
        "device-event times per launch, median of %d run%s of %d launch%s after %d warm-up "
        "launch%s\n",
        duet_version(), k->name, k->file, k->grid[0], k->grid[1], k->grid[2], k->block[0],
        k->block[1], k->block[2], k->shared, o->reps, o->reps == 1 ? "" : "s", o->batch,
        o->batch == 1 ? "" : "es", o->warmup + 1, o->warmup ? "es" : "");
    bench_device_lines(devs, ndev, "");
    printf("\n%-9s %-24s %10s %10s %10s %9s  %s\n", "device", "kernel", "median_ms", "min_ms",
           "max_ms", "GB/s", "verified");
  } else if (o->format == BENCH_OUT_CSV) {
    printf(
        "backend,device,device_name,file,kernel,grid,block,shared_bytes,median_ms,min_ms,"
        "max_ms,reps,warmup,batch,rate,rate_unit,verified,note\n");
  } else {
    printf("{\n  \"tool\": \"duet-bench\", \"version\": \"%s\", \"command\": \"kernel\",\n",
           duet_version());
    printf(
        "  \"timing\": {\"method\": \"device events around each run of batch launches, "
        "median of reps\", \"warmup\": %d, \"reps\": %d, \"batch\": %d},\n",
        o->warmup + 1, o->reps, o->batch);
    bench_json_devices(devs, ndev);
    printf(",\n  \"results\": [\n");
  }
  int failed = 0;
  for (int d = 0; d < ndev; d++) {
    kernel_result r;
    memset(&r, 0, sizeof r);
    r.backend = duet_backend_name(devs[d].backend);
    r.device = devs[d].device;
    snprintf(r.device_name, sizeof r.device_name, "%s", devs[d].info.name);
    bench_progress("kernel %s on %s:%d", k->name, r.backend, r.device);
    run_device(o, &devs[d], &r);
    bench_progress_done();
    failed |= r.verdict == BENCH_V_ERROR;
    print_row(o, &r, d == 0);
  }
  if (o->format == BENCH_OUT_JSON) printf("\n  ]\n}\n");
  if (failed) fprintf(stderr, "duet-bench: the kernel could not run on every device (see above)\n");
  return failed;
}
