/* SPDX-License-Identifier: MIT */
/* `duet-bench overlap`: copies overlapped with kernels, the course's stream lesson. The data is
 * cut into chunks; each chunk is copied in, transposed (duet_transpose AUTO) and copied out:
 * from pageable memory on one queue, from pinned memory on one queue, and from pinned memory on
 * the queues of a family (duet_ctx_create_shared) laid out two ways. "Dealt" gives each chunk's
 * three stages to one queue, round-robin; "a queue per stage" puts every copy in on one queue,
 * every kernel on a second and every copy out on a third, ordered by duet_event_wait. The two
 * differ where a copy engine shares its time between the queues that have a copy of its
 * direction ready (then dealt queues march in step: all copy in, then all copy out) rather than
 * running them in turn; one queue per direction never has two.
 *
 * Each stage is also timed alone on one queue (pinned), and copies in and out at once on two
 * queues: both directions share the host link, so that time, not the slower direction alone,
 * is what overlapped chunks can approach. Times are the host clock from the first enqueue to the
 * end of the last queue's work, the median of the runs; every whole way's output is checked
 * against the CPU's transpose once (DUET_BENCH_TEST_WRONG_SIZE=1 transposes a column short, to
 * see that check fail). After the table, one more run of the two-queue and family ways is
 * timed with device events after every stage (duet_event_elapsed_ms across the family), which
 * says when each chunk's copy in, kernel and copy out ended: where the queues wait on each other.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_commands.h"
#include "bench_format.h"
#include "bench_util.h"

enum {
  WAY_IN,
  WAY_KERNEL,
  WAY_OUT,
  WAY_DUPLEX,
  WAY_PAGEABLE,
  WAY_PINNED,
  WAY_DEALT,
  WAY_STAGES,
  N_WAYS
};
static const char *const way_names[N_WAYS] = {"copies in alone (pinned)",
                                              "kernels alone",
                                              "copies out alone (pinned)",
                                              "copies in and out at once",
                                              "pageable, one queue",
                                              "pinned, one queue",
                                              "pinned, chunks dealt to queues",
                                              "pinned, a queue per stage"};

enum { ST_IN, ST_KERNEL, ST_OUT, N_STAGES };
/* $DUET_BENCH_OVERLAP_CHUNKS cuts the data into another count of chunks, up to MAX_CHUNKS: fewer
 * rows each, the same total (more chunks shorten the pipeline's fill and drain).
 * $DUET_BENCH_OVERLAP_QUEUES deals the chunks to another count of queues, 3 (a queue per stage's
 * count) to MAX_QUEUES: more chunks in flight at once in the dealt layout. */
#define MAX_CHUNKS 64
#define MAX_QUEUES 8

typedef struct {
  const bench_opts *o;
  bench_dev *dev;
  duet_ctx *q[MAX_QUEUES]; /* q[0] is the device's context, the rest its family */
  int queues;
  size_t rows, cols, chunk; /* a chunk is rows x cols floats */
  float *pin_in, *pin_out, *page_in, *page_out;
  int chunks;
  duet_buf *in[MAX_CHUNKS], *out[MAX_CHUNKS];
  /* After each stage of each chunk, per way: the queue-per-stage way orders its queues with
   * them, and the timeline run reads them all. Made on first use, on the stage's queue. */
  duet_event *ev[N_WAYS][N_STAGES][MAX_CHUNKS], *start;
  char err[512];
} overlap;

static int failed(overlap *v, int st, const char *call, duet_ctx *ctx) {
  snprintf(v->err, sizeof v->err, "%s: %s: %s", call, duet_status_name(st),
           duet_ctx_last_error(ctx));
  return st;
}

/* The queue that runs stage s of chunk c in a way. */
static duet_ctx *queue_of(const overlap *v, int way, int s, int c) {
  switch (way) {
    case WAY_DUPLEX: return v->q[s == ST_OUT];
    case WAY_DEALT: return v->q[c % v->queues];
    case WAY_STAGES: return v->q[s];
    default: return v->q[0];
  }
}

static int stage_runs(int way, int s) {
  switch (way) {
    case WAY_IN: return s == ST_IN;
    case WAY_KERNEL: return s == ST_KERNEL;
    case WAY_OUT: return s == ST_OUT;
    case WAY_DUPLEX: return s != ST_KERNEL;
    default: return 1;
  }
}

/* Records the event after stage s of chunk c, made on the stage's queue on first use. */
static int mark(overlap *v, int way, int s, int c) {
  duet_ctx *q = queue_of(v, way, s, c);
  duet_event **e = &v->ev[way][s][c];
  int st = *e ? DUET_OK : duet_event_create(q, e);
  if (!st) st = duet_event_record(*e);
  return st ? failed(v, st, "duet_event_record", q) : DUET_OK;
}

/* One stage of one chunk, enqueued on its queue; in the queue-per-stage way it first waits for
 * the chunk's stage before it, and (as on every stage of a timeline run) marks its end. */
static int stage(overlap *v, int way, int s, int c, int timeline) {
  duet_ctx *q = queue_of(v, way, s, c);
  const int pageable = way == WAY_PAGEABLE;
  const size_t at = (size_t)c * v->chunk, bytes = v->chunk * sizeof(float);
  int st;
  if (way == WAY_STAGES && s > ST_IN && (st = duet_event_wait(q, v->ev[way][s - 1][c])))
    return failed(v, st, "duet_event_wait", q);
  if (s == ST_IN &&
      (st = duet_buf_write_async(q, v->in[c], 0, (pageable ? v->page_in : v->pin_in) + at, bytes)))
    return failed(v, st, "duet_buf_write_async", q);
  if (s == ST_KERNEL &&
      (st = duet_transpose(q, DUET_TRANSPOSE_AUTO, v->rows, v->cols - (size_t)v->o->wrong_size,
                           v->in[c], v->cols, v->out[c], v->rows)))
    return failed(v, st, "duet_transpose", q);
  if (s == ST_OUT && (st = duet_buf_read_async(q, v->out[c], 0,
                                               (pageable ? v->page_out : v->pin_out) + at, bytes)))
    return failed(v, st, "duet_buf_read_async", q);
  return (way == WAY_STAGES && s < ST_OUT) || timeline ? mark(v, way, s, c) : DUET_OK;
}

static int finish_all(overlap *v) {
  for (int i = 0; i < v->queues; i++) {
    int st = duet_finish(v->q[i]);
    if (st) return failed(v, st, "duet_finish", v->q[i]);
  }
  return DUET_OK;
}

/* One run of a way: every chunk's stages enqueued, chunk by chunk, then every queue drained. A
 * timeline run first records a start that every queue waits for. */
static int run_way(overlap *v, int way, double *ms, int timeline) {
  int st = finish_all(v);
  if (st) return st;
  const double t0 = bench_now_ms();
  if (timeline) {
    if (!v->start && (st = duet_event_create(v->q[0], &v->start)))
      return failed(v, st, "duet_event_create", v->q[0]);
    if ((st = duet_event_record(v->start))) return failed(v, st, "duet_event_record", v->q[0]);
    for (int i = 1; i < v->queues; i++)
      if ((st = duet_event_wait(v->q[i], v->start)))
        return failed(v, st, "duet_event_wait", v->q[i]);
  }
  for (int c = 0; c < v->chunks; c++)
    for (int s = 0; s < N_STAGES; s++)
      if (stage_runs(way, s) && (st = stage(v, way, s, c, timeline))) return st;
  if ((st = finish_all(v))) return st;
  *ms = bench_now_ms() - t0;
  return DUET_OK;
}

/* The output of a way that ran whole against the CPU's transpose of each chunk. */
static bench_verdict check(const overlap *v, int way) {
  const float *in = way == WAY_PAGEABLE ? v->page_in : v->pin_in;
  const float *out = way == WAY_PAGEABLE ? v->page_out : v->pin_out;
  for (int c = 0; c < v->chunks; c++)
    for (size_t y = 0; y < v->rows; y++)
      for (size_t x = 0; x < v->cols; x++) {
        const size_t at = (size_t)c * v->chunk;
        if (out[at + x * v->rows + y] != in[at + y * v->cols + x]) return BENCH_V_NO;
      }
  return BENCH_V_YES;
}

static int setup(overlap *v) {
  duet_ctx *ctx = v->dev->ctx;
  const size_t total = v->chunk * (size_t)v->chunks, bytes = total * sizeof(float);
  int st = DUET_OK;
  v->q[0] = ctx;
  for (int i = 1; i < v->queues && !st; i++)
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
  for (int c = 0; c < v->chunks; c++)
    if ((st = duet_buf_create(v->q[c % v->queues], v->chunk * sizeof(float), &v->in[c])) ||
        (st = duet_buf_create(ctx, v->chunk * sizeof(float), &v->out[c])))
      return failed(v, st, "duet_buf_create", ctx);
  return DUET_OK;
}

static void teardown(overlap *v) {
  for (int w = 0; w < N_WAYS; w++)
    for (int s = 0; s < N_STAGES; s++)
      for (int c = 0; c < v->chunks; c++) duet_event_destroy(v->ev[w][s][c]);
  duet_event_destroy(v->start);
  for (int c = 0; c < v->chunks; c++) {
    duet_buf_destroy(v->in[c]);
    duet_buf_destroy(v->out[c]);
  }
  duet_host_free(v->dev->ctx, v->pin_in);
  duet_host_free(v->dev->ctx, v->pin_out);
  free(v->page_in);
  free(v->page_out);
  for (int i = 1; i < v->queues; i++) duet_ctx_destroy(v->q[i]);
}

static double max2(double a, double b) { return a > b ? a : b; }

/* The slowest stage alone: what overlapping the stages would approach if the two directions
 * did not share the host link. */
static double bound_of(const double *med) {
  return max2(max2(med[WAY_IN], med[WAY_OUT]), med[WAY_KERNEL]);
}

/* Copies in and out at once, or the kernels if slower: what overlap can approach. */
static double link_bound_of(const double *med) { return max2(med[WAY_DUPLEX], med[WAY_KERNEL]); }

/* Bytes a way moves: over the bus one way or both, or (kernels) read and written on the device. */
static double bytes_of(const overlap *v, int way) {
  const double one = (double)(v->chunk * (size_t)v->chunks) * sizeof(float);
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

/* One more run of a way, with an event after every stage: when each chunk's stages ended, in ms
 * from a start every queue waited for, one line per stage. */
static void timeline(overlap *v, int way) {
  double ms = 0;
  printf(
      "%-9s timeline of one run of \"%s\" (ms from its start to the end of each chunk's "
      "stage):\n",
      "", way_names[way]);
  int st = run_way(v, way, &ms, 1);
  static const char *const stage_names[N_STAGES] = {"in", "kernel", "out"};
  for (int s = 0; s < N_STAGES && !st; s++) {
    if (!stage_runs(way, s)) continue;
    printf("%-9s   %-6s", "", stage_names[s]);
    for (int c = 0; c < v->chunks && !st; c++) {
      float t = 0;
      if ((st = duet_event_elapsed_ms(v->start, v->ev[way][s][c], &t)))
        failed(v, st, "duet_event_elapsed_ms", v->q[0]);
      else
        printf(" %6.2f", t);
    }
    printf("\n");
  }
  if (st)
    printf("%-9s   cannot time it: %s\n", "", v->err);
  else
    printf("%-9s   (host clock of that run: %.3f ms)\n", "", ms);
}

/* A count from the environment, or its default; false (after saying why) if it is out of range. */
static int env_count(const char *name, int dflt, int lo, int hi, int *value) {
  const char *env = getenv(name);
  char *end = NULL;
  const long x = env ? strtol(env, &end, 10) : dflt;
  if (env && (!*env || *end || x < lo || x > hi)) {
    printf("%-9s %s='%s': give %d to %d\n", "", name, env, lo, hi);
    return 0;
  }
  *value = (int)x;
  return 1;
}

/* Each way verified once, warmed up, then timed: the median of --reps runs. */
static int run_device(const bench_opts *o, bench_dev *dev, size_t n) {
  overlap v;
  memset(&v, 0, sizeof v);
  v.o = o;
  v.dev = dev;
  if (!env_count("DUET_BENCH_OVERLAP_CHUNKS", BENCH_OVERLAP_CHUNKS, 1, MAX_CHUNKS, &v.chunks) ||
      !env_count("DUET_BENCH_OVERLAP_QUEUES", BENCH_OVERLAP_QUEUES, 3, MAX_QUEUES, &v.queues))
    return 1;
  v.rows = n / (size_t)v.chunks ? n / (size_t)v.chunks : 1;
  v.cols = n;
  v.chunk = v.rows * v.cols;
  printf("%s:%d  %s: %d chunks of %zu x %zu floats (%.1f MiB in, as much out), %d queues\n",
         duet_backend_name(dev->backend), dev->device, dev->info.name, v.chunks, v.rows, v.cols,
         (double)(v.chunk * (size_t)v.chunks) * 4 / (1 << 20), v.queues);
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
             v.chunk * sizeof(float) * (size_t)v.chunks);
    int st = run_way(&v, w, &ms, 0);
    bench_verdict verdict = st                     ? BENCH_V_ERROR
                            : !whole || !o->verify ? BENCH_V_SKIPPED
                                                   : check(&v, w);
    for (int i = 0; i < o->warmup && !st && verdict != BENCH_V_NO; i++) st = run_way(&v, w, &ms, 0);
    for (int i = 0; i < reps && !st && verdict != BENCH_V_NO; i++) st = run_way(&v, w, &t[i], 0);
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
    char note[160] = "";
    if (w >= WAY_DEALT && med[WAY_IN] > 0 && med[WAY_KERNEL] > 0 && med[WAY_OUT] > 0 &&
        med[WAY_DUPLEX] > 0)
      snprintf(note, sizeof note, "%.2f of the bound, %.2f of the link's; %.2fx pinned, one queue",
               bound_of(med) / med[w], link_bound_of(med) / med[w],
               med[WAY_PINNED] > 0 ? med[WAY_PINNED] / med[w] : 0.0);
    row(&v, w, med[w], vs, whole ? bench_verdict_name(verdict) : "-", note);
    if (w == WAY_DUPLEX)
      printf("%-9s %-30s %10.3f\n%-9s %-30s %10.3f\n%-9s %-30s %10.3f\n", "",
             "serial: in + kernels + out", med[WAY_IN] + med[WAY_KERNEL] + med[WAY_OUT], "",
             "bound: max(in, kernels, out)", bound_of(med), "", "link: max(in & out, kernels)",
             link_bound_of(med));
  }
  free(t);
  static const int traced[] = {WAY_DUPLEX, WAY_DEALT, WAY_STAGES};
  for (size_t i = 0; i < sizeof traced / sizeof traced[0] && !bad; i++) timeline(&v, traced[i]);
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
      "The bound is\n  the slowest stage alone; the link's bound puts copies in and out at once "
      "in its place,\n  since both directions share the host link. Dealt: each chunk's stages "
      "on one queue,\n  round-robin; a queue per stage: copies in, kernels and copies out each "
      "on a queue of\n  their own, ordered by events.\n");
  if (bad) fprintf(stderr, "duet-bench: some ways failed or could not run (see above)\n");
  return bad;
}
