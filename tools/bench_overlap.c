/* SPDX-License-Identifier: MIT */
/* `duet-bench overlap`: copies overlapped with kernels, the course's stream lesson. The data is
 * cut into chunks; each chunk is copied in, transposed (duet_transpose AUTO) and copied out,
 * three ways: from pageable memory on one queue, from pinned memory on one queue, and from
 * pinned memory with the chunks dealt round-robin to the queues of a family
 * (duet_ctx_create_shared), where one chunk's copies run beside another's kernel. Each stage is
 * also timed alone on one queue (pinned), and their sum and maximum are the serial time and the
 * bound that overlap approaches (copies in and out run on separate engines on GPUs that have
 * them). Times are the host clock from the first enqueue to the end of the last queue's work,
 * the median of the runs; every way's output is checked against the CPU's transpose once
 * (DUET_BENCH_TEST_WRONG_SIZE=1 transposes a column short, to see that check fail). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_commands.h"
#include "bench_format.h"
#include "bench_util.h"

enum { WAY_IN, WAY_KERNEL, WAY_OUT, WAY_PAGEABLE, WAY_PINNED, WAY_QUEUES, N_WAYS };
static const char *const way_names[N_WAYS] = {
    "copies in alone (pinned)", "kernels alone",     "copies out alone (pinned)",
    "pageable, one queue",      "pinned, one queue", "pinned, queues of a family"};

typedef struct {
  const bench_opts *o;
  bench_dev *dev;
  duet_ctx *q[BENCH_OVERLAP_QUEUES]; /* q[0] is the device's context, the rest its family */
  size_t rows, cols, chunk;          /* a chunk is rows x cols floats */
  float *pin_in, *pin_out, *page_in, *page_out;
  duet_buf *in[BENCH_OVERLAP_CHUNKS], *out[BENCH_OVERLAP_CHUNKS];
  char err[512];
} overlap;

static int failed(overlap *v, int st, const char *call, duet_ctx *ctx) {
  snprintf(v->err, sizeof v->err, "%s: %s: %s", call, duet_status_name(st),
           duet_ctx_last_error(ctx));
  return st;
}

/* One run of a way: every chunk's stages enqueued on its queue, then every queue drained. */
static int run_way(overlap *v, int way, double *ms) {
  const int queues = way == WAY_QUEUES ? BENCH_OVERLAP_QUEUES : 1;
  const int pageable = way == WAY_PAGEABLE;
  float *src = pageable ? v->page_in : v->pin_in, *dst = pageable ? v->page_out : v->pin_out;
  const size_t bytes = v->chunk * sizeof(float);
  int st;
  for (int i = 0; i < queues; i++)
    if ((st = duet_finish(v->q[i]))) return failed(v, st, "duet_finish", v->q[i]);
  const double t0 = bench_now_ms();
  for (int c = 0; c < BENCH_OVERLAP_CHUNKS; c++) {
    duet_ctx *q = v->q[c % queues];
    const size_t at = (size_t)c * v->chunk;
    if (way != WAY_KERNEL && way != WAY_OUT &&
        (st = duet_buf_write_async(q, v->in[c], 0, src + at, bytes)))
      return failed(v, st, "duet_buf_write_async", q);
    if (way != WAY_IN && way != WAY_OUT &&
        (st = duet_transpose(q, DUET_TRANSPOSE_AUTO, v->rows, v->cols - (size_t)v->o->wrong_size,
                             v->in[c], v->cols, v->out[c], v->rows)))
      return failed(v, st, "duet_transpose", q);
    if (way != WAY_IN && way != WAY_KERNEL &&
        (st = duet_buf_read_async(q, v->out[c], 0, dst + at, bytes)))
      return failed(v, st, "duet_buf_read_async", q);
  }
  for (int i = 0; i < queues; i++)
    if ((st = duet_finish(v->q[i]))) return failed(v, st, "duet_finish", v->q[i]);
  *ms = bench_now_ms() - t0;
  return DUET_OK;
}

/* The output of a way that ran whole against the CPU's transpose of each chunk. */
static bench_verdict check(const overlap *v, int way) {
  const float *in = way == WAY_PAGEABLE ? v->page_in : v->pin_in;
  const float *out = way == WAY_PAGEABLE ? v->page_out : v->pin_out;
  for (int c = 0; c < BENCH_OVERLAP_CHUNKS; c++)
    for (size_t y = 0; y < v->rows; y++)
      for (size_t x = 0; x < v->cols; x++) {
        const size_t at = (size_t)c * v->chunk;
        if (out[at + x * v->rows + y] != in[at + y * v->cols + x]) return BENCH_V_NO;
      }
  return BENCH_V_YES;
}

static int setup(overlap *v) {
  duet_ctx *ctx = v->dev->ctx;
  const size_t total = v->chunk * BENCH_OVERLAP_CHUNKS, bytes = total * sizeof(float);
  int st = DUET_OK;
  v->q[0] = ctx;
  for (int i = 1; i < BENCH_OVERLAP_QUEUES && !st; i++)
    if ((st = duet_ctx_create_shared(&v->q[i], ctx)))
      return failed(v, st, "duet_ctx_create_shared", NULL);
  if ((st = duet_host_alloc(ctx, bytes, (void **)&v->pin_in)) ||
      (st = duet_host_alloc(ctx, bytes, (void **)&v->pin_out)))
    return failed(v, st, "duet_host_alloc", ctx);
  v->page_in = bench_xmalloc(bytes);
  v->page_out = bench_xmalloc(bytes);
  uint64_t seed = v->o->seed;
  for (size_t i = 0; i < total; i++)
    v->pin_in[i] = v->page_in[i] = (float)(bench_splitmix(&seed) >> 40) * 0x1p-24f;
  for (int c = 0; c < BENCH_OVERLAP_CHUNKS; c++)
    if ((st = duet_buf_create(v->q[c % BENCH_OVERLAP_QUEUES], v->chunk * sizeof(float),
                              &v->in[c])) ||
        (st = duet_buf_create(ctx, v->chunk * sizeof(float), &v->out[c])))
      return failed(v, st, "duet_buf_create", ctx);
  return DUET_OK;
}

static void teardown(overlap *v) {
  for (int c = 0; c < BENCH_OVERLAP_CHUNKS; c++) {
    duet_buf_destroy(v->in[c]);
    duet_buf_destroy(v->out[c]);
  }
  duet_host_free(v->dev->ctx, v->pin_in);
  duet_host_free(v->dev->ctx, v->pin_out);
  free(v->page_in);
  free(v->page_out);
  for (int i = 1; i < BENCH_OVERLAP_QUEUES; i++) duet_ctx_destroy(v->q[i]);
}

/* The slowest stage alone: what overlapping the stages approaches. */
static double bound_of(const double *med) {
  double b = med[WAY_IN] > med[WAY_OUT] ? med[WAY_IN] : med[WAY_OUT];
  return med[WAY_KERNEL] > b ? med[WAY_KERNEL] : b;
}

/* Bytes a way moves: over the bus one way or both, or (kernels) read and written on the device. */
static double bytes_of(const overlap *v, int way) {
  const double one = (double)(v->chunk * BENCH_OVERLAP_CHUNKS) * sizeof(float);
  return way == WAY_IN || way == WAY_OUT ? one : 2 * one;
}

static void row(const overlap *v, int way, double ms, double vs, const char *verdict,
                const char *note) {
  printf("%-9s %-30s %10.3f", "", way_names[way], ms);
  if (vs > 0)
    printf(" %9.2fx", vs);
  else
    printf(" %10s", "");
  printf(" %10.1f  %-8s %s\n", bytes_of(v, way) / ms * 1e-6, verdict, note);
}

/* Each way verified once, warmed up, then timed: the median of --reps runs. */
static int run_device(const bench_opts *o, bench_dev *dev, size_t n) {
  overlap v;
  memset(&v, 0, sizeof v);
  v.o = o;
  v.dev = dev;
  v.rows = n / BENCH_OVERLAP_CHUNKS ? n / BENCH_OVERLAP_CHUNKS : 1;
  v.cols = n;
  v.chunk = v.rows * v.cols;
  printf("%s:%d  %s: %d chunks of %zu x %zu floats (%.1f MiB in, as much out)\n",
         duet_backend_name(dev->backend), dev->device, dev->info.name, BENCH_OVERLAP_CHUNKS, v.rows,
         v.cols, (double)(v.chunk * BENCH_OVERLAP_CHUNKS) * 4 / (1 << 20));
  int bad = 0;
  double med[N_WAYS] = {0};
  if (setup(&v)) {
    printf("%-9s cannot run: %s\n", "", v.err);
    teardown(&v);
    return 1;
  }
  const int reps = o->reps_given ? o->reps : BENCH_MIN_REPS;
  double *t = bench_xmalloc((size_t)reps * sizeof *t);
  for (int w = 0; w < N_WAYS; w++) {
    bench_progress("overlap %s:%d: %s", duet_backend_name(dev->backend), dev->device, way_names[w]);
    const int whole = w >= WAY_PAGEABLE;
    double ms = 0, lo, hi;
    if (whole) /* NaN where nothing arrives */
      memset(w == WAY_PAGEABLE ? v.page_out : v.pin_out, 0xff,
             v.chunk * sizeof(float) * BENCH_OVERLAP_CHUNKS);
    int st = run_way(&v, w, &ms);
    bench_verdict verdict = st                     ? BENCH_V_ERROR
                            : !whole || !o->verify ? BENCH_V_SKIPPED
                                                   : check(&v, w);
    for (int i = 0; i < o->warmup && !st && verdict != BENCH_V_NO; i++) st = run_way(&v, w, &ms);
    for (int i = 0; i < reps && !st && verdict != BENCH_V_NO; i++) st = run_way(&v, w, &t[i]);
    bench_progress_done();
    if (st || verdict == BENCH_V_NO) {
      printf("%-9s %-30s %10s %10s %10s  %-8s %s\n", "", way_names[w], "-", "", "",
             st ? "error" : "no", st ? v.err : "the output differs from the CPU's transpose");
      bad = 1;
      med[w] = 0;
      continue;
    }
    bench_stats(t, reps, &med[w], &lo, &hi);
    const double vs = w > WAY_PAGEABLE && med[WAY_PAGEABLE] > 0 ? med[WAY_PAGEABLE] / med[w] : 0;
    char note[128] = "";
    if (w == WAY_QUEUES && med[WAY_IN] > 0 && med[WAY_KERNEL] > 0 && med[WAY_OUT] > 0)
      snprintf(note, sizeof note, "%d queues: %.2f of the bound; %.2fx pinned, one queue",
               BENCH_OVERLAP_QUEUES, bound_of(med) / med[w],
               med[WAY_PINNED] > 0 ? med[WAY_PINNED] / med[w] : 0.0);
    row(&v, w, med[w], vs, whole ? bench_verdict_name(verdict) : "-", note);
    if (w == WAY_OUT)
      printf("%-9s %-30s %10.3f\n%-9s %-30s %10.3f\n", "", "serial: in + kernels + out",
             med[WAY_IN] + med[WAY_KERNEL] + med[WAY_OUT], "", "bound: max(in, kernels, out)",
             bound_of(med));
  }
  free(t);
  teardown(&v);
  return bad;
}

int bench_overlap(const bench_opts *o, bench_dev *devs, int ndev) {
  int bad = 0;
  printf(
      "duet-bench %s overlap: copy in, transpose, copy out per chunk; host clock from the "
      "first enqueue\nto the end of the last queue's work, median of %d runs after %d warm-up "
      "run%s\n",
      duet_version(), o->reps_given ? o->reps : BENCH_MIN_REPS, o->warmup,
      o->warmup == 1 ? "" : "s");
  if (!o->verify) printf("VERIFICATION SKIPPED (--no-verify): no result below was checked\n");
  printf("\n%-9s %-30s %10s %10s %10s  %s\n", "device", "way", "ms", "speedup", "GB/s", "verified");
  for (int d = 0; d < ndev; d++) {
    size_t n = o->nsizes ? o->sizes[0].n : devs[d].is_cpu ? 1024 : 4096;
    bad |= run_device(o, &devs[d], n);
  }
  printf(
      "\nspeedup: against pageable, one queue. GB/s: bytes copied in and out over the time. "
      "The bound is\n  the slowest stage alone: with copies in, kernels and copies out on "
      "engines of their own,\n  overlapped chunks approach it.\n");
  if (bad) fprintf(stderr, "duet-bench: some ways failed or could not run (see above)\n");
  return bad;
}
