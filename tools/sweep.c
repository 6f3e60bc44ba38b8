/* SPDX-License-Identifier: MIT */
/* duet-sweep: variants of the course kernels (tools/sweep_kernels.h) built through duet's own
 * user-kernel API (duet_program_create, duet_launch) and timed beside duet's routines and
 * duet_buf_copy in one run, so that one call on a GPU machine says which source choices close a
 * gap, on each backend: vload4 or float4 pointers, 32- or 64-bit indices, weights in __constant
 * memory, outputs per work-item, grid sizes, loads in flight, a sum in one launch or two. Every
 * variant is checked against a CPU loop on an odd n first, then timed at the full n with device
 * events (median of the runs). Rows: GB/s (bytes the routine must move over the time) and its ratio
 * to duet_buf_copy's rate.
 *
 *   duet-sweep [-b cuda|opencl|all] [-n LOG2] [-r REPS] [--only stencil,vadd,reduce]
 *   duet-sweep --dump CACHE_DIR OUT_DIR
 *
 * With DUET_CACHE_DIR pointing at an empty directory, the built programs land there; --dump
 * then writes each entry's binary to OUT_DIR: PTX on NVIDIA's OpenCL (NAME.ptx, after its first
 * kernel), CUBIN on CUDA (.cubin), for ptxas -v and cuobjdump. Built by make, not installed;
 * .ci/device-validate.sh's sweep stage runs it (lab notes and numbers go in docs/results/). */
#include "config.h"

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duet.h"
#include "sweep_kernels.h"

#define CHECK_N 1000003 /* odd, past any block: every edge path runs */
#define MAX_REPS 1000

typedef struct {
  duet_ctx *ctx;
  unsigned cus;
  size_t n;
  int reps;
  duet_buf *in, *b, *out, *w, *part, *sum, *ticket;
  float *host_in, *host_b, *host_out;
  double copy_gbs;
  int bad;
} sweep;

/* One timed unit of work: a user kernel (with an optional second pass) or a duet routine. */
typedef struct job {
  int (*go)(sweep *s, const struct job *j, size_t n);
  duet_program *prog;
  size_t grid;
  unsigned block;
  int radius;
  const float *weights;
} job;

static double now_median(double *v, int n) {
  for (int i = 1; i < n; i++)
    for (int k = i; k > 0 && v[k - 1] > v[k]; k--) {
      const double t = v[k];
      v[k] = v[k - 1];
      v[k - 1] = t;
    }
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The median of s->reps runs of j at n, in ms, between device events; negative on failure. */
static double time_job(sweep *s, const job *j, size_t n) {
  duet_event *e0 = NULL, *e1 = NULL;
  double t[MAX_REPS], med = -1;
  int st = duet_event_create(s->ctx, &e0);
  if (!st) st = duet_event_create(s->ctx, &e1);
  for (int i = 0; i < 2 && !st; i++) st = j->go(s, j, n);
  for (int i = 0; i < s->reps && !st; i++) {
    float ms = 0;
    st = duet_event_record(e0);
    if (!st) st = j->go(s, j, n);
    if (!st) st = duet_event_record(e1);
    if (!st) st = duet_event_elapsed_ms(e0, e1, &ms);
    t[i] = ms;
  }
  if (!st)
    med = now_median(t, s->reps);
  else
    printf("    cannot time it: %s: %s\n", duet_status_name(st), duet_ctx_last_error(s->ctx));
  duet_event_destroy(e0);
  duet_event_destroy(e1);
  return med;
}

static void row(sweep *s, const char *routine, const char *variant, size_t grid, double bytes,
                double ms, const char *check) {
  char g[32] = "-";
  if (grid) snprintf(g, sizeof g, "%zu", grid);
  if (ms <= 0) {
    printf("  %-8s %-34s %8s %9s %8s %6s  %s\n", routine, variant, g, "-", "-", "-", check);
    s->bad = 1;
    return;
  }
  const double gbs = bytes / ms * 1e-6;
  printf("  %-8s %-34s %8s %9.4f %8.1f %6.3f  %s\n", routine, variant, g, ms, gbs,
         s->copy_gbs > 0 ? gbs / s->copy_gbs : 0.0, check);
}

static unsigned long long rng = 0x9e3779b97f4a7c15ull;
static float rnd(void) { /* in [-1, 1) */
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (float)(rng >> 40) * 0x1p-23f - 1.0f;
}

static duet_program *build(sweep *s, const char *src, const char *opts) {
  duet_program *p = NULL;
  int st = duet_program_create(s->ctx, src, opts, &p);
  if (st) printf("    %s: build failed: %.300s\n", opts, duet_ctx_last_error(s->ctx));
  return st ? NULL : p;
}

/* ---- the jobs ---------------------------------------------------------------------------------
 */

static int go_copy(sweep *s, const job *j, size_t n) {
  (void)j;
  return duet_buf_copy(s->out, s->in, n * sizeof(float));
}

static int go_stencil_lib(sweep *s, const job *j, size_t n) {
  return duet_stencil_1d(s->ctx, DUET_STENCIL_AUTO, n, (unsigned)j->radius, j->weights, s->in,
                         s->out);
}

static int go_stencil(sweep *s, const job *j, size_t n) {
  const size_t grid[3] = {j->grid, 1, 1};
  const unsigned block[3] = {j->block, 1, 1};
  const duet_arg args[] = {duet_arg_i64((long long)n), duet_arg_i32(j->radius), duet_arg_buf(s->w),
                           duet_arg_buf(s->in), duet_arg_buf(s->out)};
  return duet_launch(j->prog, "sweep_stencil", grid, block, 0, args, 5);
}

static int go_vadd_lib(sweep *s, const job *j, size_t n) {
  (void)j;
  return duet_vector_add(s->ctx, n, s->in, s->b, s->out);
}

static int go_vadd(sweep *s, const job *j, size_t n) {
  const size_t grid[3] = {j->grid, 1, 1};
  const unsigned block[3] = {j->block, 1, 1};
  const duet_arg args[] = {duet_arg_i64((long long)n), duet_arg_buf(s->in), duet_arg_buf(s->b),
                           duet_arg_buf(s->out)};
  return duet_launch(j->prog, "sweep_vadd", grid, block, 0, args, 4);
}

static int go_reduce_lib(sweep *s, const job *j, size_t n) {
  (void)j;
  return duet_reduce_sum(s->ctx, DUET_REDUCE_SHUFFLE, n, s->in, s->sum);
}

/* Two passes, as duet's: the grid's partial sums, then one block over them. */
static int go_reduce(sweep *s, const job *j, size_t n) {
  const size_t grid[3] = {j->grid, 1, 1}, one[3] = {1, 1, 1};
  const unsigned block[3] = {j->block, 1, 1};
  const duet_arg first[] = {duet_arg_i64((long long)n), duet_arg_buf(s->in), duet_arg_buf(s->part)};
  const duet_arg second[] = {duet_arg_i64((long long)j->grid), duet_arg_buf(s->part),
                             duet_arg_buf(s->sum)};
  int st = duet_launch(j->prog, "sweep_reduce", grid, block, 0, first, 3);
  return st ? st : duet_launch(j->prog, "sweep_reduce", one, block, 0, second, 3);
}

/* One pass: each block's sum, and the last block to take a ticket sums them (shuffle_once). */
static int go_reduce_once(sweep *s, const job *j, size_t n) {
  const size_t grid[3] = {j->grid, 1, 1};
  const unsigned block[3] = {j->block, 1, 1};
  const duet_arg args[] = {duet_arg_i64((long long)n), duet_arg_buf(s->in), duet_arg_buf(s->sum),
                           duet_arg_buf(s->part), duet_arg_buf(s->ticket)};
  return duet_launch(j->prog, "sweep_reduce_once", grid, block, 0, args, 5);
}

/* ---- checks against the CPU -------------------------------------------------------------------
 */

static void check_text(char *buf, size_t len, int st, sweep *s, long wrong, double err) {
  if (st)
    snprintf(buf, len, "ERROR %s: %.200s", duet_status_name(st), duet_ctx_last_error(s->ctx));
  else if (wrong)
    snprintf(buf, len, "WRONG: %ld of %d elements", wrong, CHECK_N);
  else
    snprintf(buf, len, "ok (max rel err %.1e)", err);
}

static int check_stencil(sweep *s, const job *j, char *buf, size_t len) {
  const int r = j->radius;
  int st = j->go(s, j, CHECK_N);
  if (!st) st = duet_buf_read(s->out, 0, s->host_out, CHECK_N * sizeof(float));
  long wrong = 0;
  double worst = 0;
  for (long i = 0; i < CHECK_N && !st; i++) {
    float acc = 0.0f;
    for (int k = -r; k <= r; k++) {
      const long p = i + k;
      acc = fmaf(j->weights[k + r], p >= 0 && p < CHECK_N ? s->host_in[p] : 0.0f, acc);
    }
    const double e = fabs((double)s->host_out[i] - acc) / (fabs(acc) + 1e-30);
    if (e > 1e-5) wrong++;
    if (e > worst && e < 1) worst = e;
  }
  check_text(buf, len, st, s, wrong, worst);
  return st || wrong;
}

static int check_vadd(sweep *s, const job *j, char *buf, size_t len) {
  int st = j->go(s, j, CHECK_N);
  if (!st) st = duet_buf_read(s->out, 0, s->host_out, CHECK_N * sizeof(float));
  long wrong = 0;
  for (long i = 0; i < CHECK_N && !st; i++) wrong += s->host_out[i] != s->host_in[i] + s->host_b[i];
  check_text(buf, len, st, s, wrong, 0);
  return st || wrong;
}

static int check_reduce(sweep *s, const job *j, char *buf, size_t len) {
  float got = NAN;
  int st = j->go(s, j, CHECK_N);
  if (!st) st = duet_buf_read(s->sum, 0, &got, sizeof got);
  double sum = 0, mag = 0;
  for (long i = 0; i < CHECK_N; i++) {
    sum += s->host_in[i];
    mag += fabs(s->host_in[i]);
  }
  const double err = fabs(got - sum), bound = (CHECK_N - 1) * 0x1p-24 * mag;
  check_text(buf, len, st, s, !(err <= bound), err / (mag > 0 ? mag : 1));
  return st || !(err <= bound);
}

/* Checked at CHECK_N, then timed at s->n: one row. */
static void run_row(sweep *s, const char *routine, const char *variant, const job *j,
                    int (*check)(sweep *, const job *, char *, size_t), double bytes) {
  char text[300];
  if (check(s, j, text, sizeof text)) {
    row(s, routine, variant, j->grid, bytes, -1, text);
    return;
  }
  row(s, routine, variant, j->grid, bytes, time_job(s, j, s->n), text);
  fflush(stdout);
}

/* ---- the sweeps -------------------------------------------------------------------------------
 */

static void sweep_stencil(sweep *s) {
  static const struct {
    const char *name, *opts;
    int full;   /* one window per work-item instead of STENCIL_PER_CU's grid-stride grid */
    int staged; /* sweep_stencil_staged_src: the tile in shared memory */
    int block;  /* work-items per block (0: 256) */
    int per_cu; /* blocks per compute unit (0: 4) */
  } v[] = {
      {"float4* i64 (duet's now)", "-DSW_LD4=1 -DSW_IDX32=0 -DSW_WCONST=0 -DSW_V=8", 0, 0, 0, 0},
      {"staged V=8 B=256 i32 pf", "-DSW_LD4=1 -DSW_IDX32=1 -DSW_V=8 -DSW_PF=1", 0, 1, 256, 4},
      {"staged V=8 B=256 i32 pf 8/CU", "-DSW_LD4=1 -DSW_IDX32=1 -DSW_V=8 -DSW_PF=1", 0, 1, 256, 8},
      {"staged V=8 B=256 i32 pf 12/CU", "-DSW_LD4=1 -DSW_IDX32=1 -DSW_V=8 -DSW_PF=1", 0, 1, 256,
       12},
      {"staged V=8 B=256 i32 pf 16/CU", "-DSW_LD4=1 -DSW_IDX32=1 -DSW_V=8 -DSW_PF=1", 0, 1, 256,
       16},
      {"staged V=8 B=256 i32 pf 32/CU", "-DSW_LD4=1 -DSW_IDX32=1 -DSW_V=8 -DSW_PF=1", 0, 1, 256,
       32},
      {"staged V=8 B=256 i64 pf 16/CU", "-DSW_LD4=1 -DSW_IDX32=0 -DSW_V=8 -DSW_PF=1", 0, 1, 256,
       16},
      {"staged V=8 B=128 i32 pf 16/CU", "-DSW_LD4=1 -DSW_IDX32=1 -DSW_V=8 -DSW_PF=1", 0, 1, 128,
       16},
      {"staged V=8 B=128 i32 pf 32/CU", "-DSW_LD4=1 -DSW_IDX32=1 -DSW_V=8 -DSW_PF=1", 0, 1, 128,
       32},
      {"staged V=8 B=64 i32 pf 32/CU", "-DSW_LD4=1 -DSW_IDX32=1 -DSW_V=8 -DSW_PF=1", 0, 1, 64, 32},
      {"staged V=8 B=64 i32 pf 64/CU", "-DSW_LD4=1 -DSW_IDX32=1 -DSW_V=8 -DSW_PF=1", 0, 1, 64, 64},
      {"staged V=8 B=256 full grid", "-DSW_LD4=1 -DSW_IDX32=1 -DSW_V=8 -DSW_PF=0", 1, 1, 256, 0},
      {"staged V=8 B=128 full grid", "-DSW_LD4=1 -DSW_IDX32=1 -DSW_V=8 -DSW_PF=0", 1, 1, 128, 0},
  };
  static const int radii[] = {3, 16};
  float weights[33];
  for (int i = 0; i < 33; i++) weights[i] = rnd();
  for (size_t ri = 0; ri < sizeof radii / sizeof radii[0]; ri++) {
    const int r = radii[ri], halo = r <= 4 ? 4 : 16;
    const double bytes = 8.0 * (double)s->n;
    char routine[16];
    snprintf(routine, sizeof routine, "stencil%d", r);
    if (duet_buf_write(s->w, 0, weights, (size_t)(2 * r + 1) * sizeof(float))) s->bad = 1;
    job lib = {go_stencil_lib, NULL, 0, 0, r, weights};
    run_row(s, routine, "duet_stencil_1d AUTO", &lib, check_stencil, bytes);
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
      const int block = v[i].block ? v[i].block : 256, per_cu = v[i].per_cu ? v[i].per_cu : 4;
      char opts[200];
      snprintf(opts, sizeof opts, "%s -DSW_HALO=%d -DSW_MODE=0 -DSW_U=1 -DSW_B=%d", v[i].opts, halo,
               block);
      duet_program *p = build(s, v[i].staged ? sweep_stencil_staged_src : sweep_stencil_src, opts);
      if (!p) {
        row(s, routine, v[i].name, 0, bytes, -1, "build failed");
        continue;
      }
      const int vv = strstr(v[i].opts, "SW_V=16") ? 16 : strstr(v[i].opts, "SW_V=4") ? 4 : 8;
      const size_t chunks = (s->n + (size_t)vv - 1) / (size_t)vv;
      job j = {go_stencil,
               p,
               v[i].full ? (chunks + (size_t)block - 1) / (size_t)block
                         : (size_t)per_cu * (size_t)s->cus,
               (unsigned)block,
               r,
               weights};
      run_row(s, routine, v[i].name, &j, check_stencil, bytes);
      duet_program_destroy(p);
    }
  }
}

static void sweep_vadd(sweep *s) {
  static const struct {
    const char *name, *opts;
    int per_cu; /* 0: a work-item per float4 (MODE 1) or per float (MODE 3) */
  } v[] = {
      {"vload4 grid-stride (duet's until now)", "-DSW_LD4=0 -DSW_IDX32=0 -DSW_MODE=0", 8},
      {"float4* grid-stride (duet's now)", "-DSW_LD4=1 -DSW_IDX32=0 -DSW_MODE=0", 8},
      {"float4* grid-stride i32", "-DSW_LD4=1 -DSW_IDX32=1 -DSW_MODE=0", 8},
      {"float4* grid-stride, 16/CU", "-DSW_LD4=1 -DSW_IDX32=0 -DSW_MODE=0", 16},
      {"float4* grid-stride, 32/CU", "-DSW_LD4=1 -DSW_IDX32=0 -DSW_MODE=0", 32},
      {"float4* 2 per step", "-DSW_LD4=1 -DSW_IDX32=0 -DSW_MODE=2", 8},
      {"float4* 2 per step, 16/CU", "-DSW_LD4=1 -DSW_IDX32=0 -DSW_MODE=2", 16},
      {"float4* one per work-item", "-DSW_LD4=1 -DSW_IDX32=0 -DSW_MODE=1", 0},
      {"vload4 one per work-item", "-DSW_LD4=0 -DSW_IDX32=0 -DSW_MODE=1", 0},
      {"float one per work-item", "-DSW_LD4=1 -DSW_IDX32=0 -DSW_MODE=3", 0},
  };
  const double bytes = 12.0 * (double)s->n;
  job lib = {go_vadd_lib, NULL, 0, 0, 0, NULL};
  run_row(s, "vadd", "duet_vector_add", &lib, check_vadd, bytes);
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    char opts[200];
    snprintf(opts, sizeof opts, "%s -DSW_WCONST=0 -DSW_HALO=4 -DSW_V=8 -DSW_U=1 -DSW_B=256",
             v[i].opts);
    duet_program *p = build(s, sweep_vadd_src, opts);
    if (!p) {
      row(s, "vadd", v[i].name, 0, bytes, -1, "build failed");
      continue;
    }
    const size_t per = strstr(v[i].opts, "SW_MODE=3") ? 1 : 4;
    job j = {go_vadd, p, v[i].per_cu ? (size_t)v[i].per_cu * s->cus : (s->n / per + 255) / 256 + 1,
             256,     0, NULL};
    run_row(s, "vadd", v[i].name, &j, check_vadd, bytes);
    duet_program_destroy(p);
  }
}

static void sweep_reduce(sweep *s) {
  static const struct {
    const char *name, *opts;
    int block, per_cu, once; /* once: both passes in one launch (sweep_reduce_once) */
  } v[] = {
      {"B256 U4 8/CU (duet's on the H100)", "-DSW_MODE=0 -DSW_U=4", 256, 8, 0},
      {"B256 U4 4/CU", "-DSW_MODE=0 -DSW_U=4", 256, 4, 0},
      {"B256 U4 16/CU", "-DSW_MODE=0 -DSW_U=4", 256, 16, 0},
      {"B256 U8 4/CU", "-DSW_MODE=0 -DSW_U=8", 256, 4, 0},
      {"B256 U8 8/CU", "-DSW_MODE=0 -DSW_U=8", 256, 8, 0},
      {"B256 U2 8/CU", "-DSW_MODE=0 -DSW_U=2", 256, 2 * 4, 0},
      {"B256 U2 16/CU", "-DSW_MODE=0 -DSW_U=2", 256, 16, 0},
      {"B512 U4 4/CU", "-DSW_MODE=0 -DSW_U=4", 512, 4, 0},
      {"B512 U8 2/CU", "-DSW_MODE=0 -DSW_U=8", 512, 2, 0},
      {"B1024 U4 2/CU", "-DSW_MODE=0 -DSW_U=4", 1024, 2, 0},
      {"contiguous B256 U4 8/CU", "-DSW_MODE=1 -DSW_U=4", 256, 8, 0},
      {"contiguous B256 U8 8/CU", "-DSW_MODE=1 -DSW_U=8", 256, 8, 0},
      {"contiguous B512 U8 4/CU", "-DSW_MODE=1 -DSW_U=8", 512, 4, 0},
      {"once B256 U4 8/CU", "-DSW_MODE=0 -DSW_U=4", 256, 8, 1},
      {"once B256 U4 4/CU", "-DSW_MODE=0 -DSW_U=4", 256, 4, 1},
      {"once B256 U2 8/CU", "-DSW_MODE=0 -DSW_U=2", 256, 8, 1},
      {"once B256 U2 16/CU", "-DSW_MODE=0 -DSW_U=2", 256, 16, 1},
      {"once B256 U8 4/CU", "-DSW_MODE=0 -DSW_U=8", 256, 4, 1},
      {"once B512 U4 4/CU", "-DSW_MODE=0 -DSW_U=4", 512, 4, 1},
      {"once B1024 U4 2/CU", "-DSW_MODE=0 -DSW_U=4", 1024, 2, 1},
  };
  const double bytes = 4.0 * (double)s->n;
  job lib = {go_reduce_lib, NULL, 0, 0, 0, NULL};
  run_row(s, "reduce", "duet_reduce_sum shuffle", &lib, check_reduce, bytes);
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    char opts[200];
    snprintf(opts, sizeof opts,
             "%s -DSW_B=%d -DSW_LD4=1 -DSW_IDX32=0 -DSW_WCONST=0 -DSW_HALO=4 -DSW_V=8", v[i].opts,
             v[i].block);
    duet_program *p = build(s, sweep_reduce_src, opts);
    if (!p) {
      row(s, "reduce", v[i].name, 0, bytes, -1, "build failed");
      continue;
    }
    job j = {v[i].once ? go_reduce_once : go_reduce,
             p,
             (size_t)v[i].per_cu * s->cus,
             (unsigned)v[i].block,
             0,
             NULL};
    run_row(s, "reduce", v[i].name, &j, check_reduce, bytes);
    duet_program_destroy(p);
  }
}

/* ---- one device -------------------------------------------------------------------------------
 */

static int make(sweep *s, size_t bytes, duet_buf **b) {
  int st = duet_buf_create(s->ctx, bytes, b);
  if (st) printf("  cannot allocate %zu bytes: %s\n", bytes, duet_ctx_last_error(s->ctx));
  return st;
}

static int run_backend(duet_backend b, int device, size_t n, int reps, const char *only) {
  sweep s;
  memset(&s, 0, sizeof s);
  s.n = n;
  s.reps = reps;
  duet_device_info info;
  if (duet_ctx_create(&s.ctx, b, device) || duet_ctx_info(s.ctx, &info)) {
    printf("%s:%d: no context: %s\n", duet_backend_name(b), device, duet_ctx_last_error(NULL));
    return 1;
  }
  s.cus = info.compute_units;
  printf("%s:%d  %s (%s), %u compute units; n = %zu floats, median of %d runs\n",
         duet_backend_name(b), device, info.name, info.version, s.cus, n, reps);
  printf("  %-8s %-34s %8s %9s %8s %6s  %s\n", "routine", "variant", "grid", "ms", "GB/s", "vs cp",
         "check (n = 1000003)");
  const size_t bytes = n * sizeof(float);
  int st = make(&s, bytes, &s.in) || make(&s, bytes, &s.b) || make(&s, bytes, &s.out) ||
           make(&s, 64 * sizeof(float), &s.w) || make(&s, 65536 * sizeof(float), &s.part) ||
           make(&s, sizeof(float), &s.sum) || make(&s, sizeof(int), &s.ticket);
  const int zero = 0;
  if (!st) st = duet_buf_write(s.ticket, 0, &zero, sizeof zero);
  float *chunk = malloc((size_t)1 << 24);
  s.host_in = malloc(CHECK_N * sizeof(float));
  s.host_b = malloc(CHECK_N * sizeof(float));
  s.host_out = malloc(CHECK_N * sizeof(float));
  if (!chunk || !s.host_in || !s.host_b || !s.host_out) st = DUET_ENOMEM;
  /* Random inputs everywhere: the first CHECK_N of each kept on the host for the checks. */
  for (int which = 0; which < 2 && !st; which++)
    for (size_t at = 0; at < n && !st; at += (size_t)1 << 22) {
      const size_t len = n - at < (size_t)1 << 22 ? n - at : (size_t)1 << 22;
      for (size_t i = 0; i < len; i++) chunk[i] = rnd();
      if (at < CHECK_N)
        memcpy((which ? s.host_b : s.host_in) + at, chunk,
               (CHECK_N - at < len ? CHECK_N - at : len) * sizeof(float));
      st = duet_buf_write(which ? s.b : s.in, at * sizeof(float), chunk, len * sizeof(float));
    }
  free(chunk);
  if (n < CHECK_N) {
    printf("  n must be at least %d\n", CHECK_N);
    st = DUET_EINVAL;
  }
  if (!st) {
    job copy = {go_copy, NULL, 0, 0, 0, NULL};
    const double ms = time_job(&s, &copy, n);
    s.copy_gbs = ms > 0 ? 8.0 * (double)n / ms * 1e-6 : 0;
    row(&s, "copy", "duet_buf_copy (the reference)", 0, 8.0 * (double)n, ms, "-");
    if (!only || strstr(only, "stencil")) sweep_stencil(&s);
    if (!only || strstr(only, "vadd")) sweep_vadd(&s);
    if (!only || strstr(only, "reduce")) sweep_reduce(&s);
  } else {
    s.bad = 1;
  }
  duet_buf_destroy(s.in);
  duet_buf_destroy(s.b);
  duet_buf_destroy(s.out);
  duet_buf_destroy(s.w);
  duet_buf_destroy(s.part);
  duet_buf_destroy(s.sum);
  duet_buf_destroy(s.ticket);
  free(s.host_in);
  free(s.host_b);
  free(s.host_out);
  duet_ctx_destroy(s.ctx);
  return s.bad;
}

/* ---- --dump -----------------------------------------------------------------------------------
 */

static uint64_t le64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

/* The blob of every cache entry in dir (src/cache.c's layout: 8 bytes of magic, the key's and
 * the blob's lengths and a checksum, the key, the blob) into out: PTX as NAME.ptx, CUBINs as
 * ENTRY.cubin. */
static int dump(const char *dir, const char *out) {
  DIR *d = opendir(dir);
  if (!d) {
    perror(dir);
    return 1;
  }
  int files = 0;
  for (struct dirent *e; (e = readdir(d));) {
    const size_t len = strlen(e->d_name);
    if (len < 5 || strcmp(e->d_name + len - 4, ".bin") != 0) continue;
    char path[4096], to[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    FILE *f = fopen(path, "rb");
    if (!f) continue;
    fseek(f, 0, SEEK_END);
    const long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = size > 32 ? malloc((size_t)size + 1) : NULL;
    const int ok = buf && fread(buf, 1, (size_t)size, f) == (size_t)size &&
                   memcmp(buf, "DUETC01\n", 8) == 0 &&
                   le64(buf + 8) + le64(buf + 16) + 32 == (uint64_t)size;
    fclose(f);
    if (!ok) {
      free(buf);
      continue;
    }
    const size_t klen = (size_t)le64(buf + 8), blen = (size_t)le64(buf + 16);
    unsigned char *blob = buf + 32 + klen;
    blob[blen] = 0; /* the byte after the blob is the allocation's extra one */
    const int elf = blen > 4 && memcmp(blob, "\177ELF", 4) == 0;
    const char *entry = elf ? NULL : strstr((const char *)blob, ".entry ");
    char name[200], opts[400] = "";
    snprintf(name, sizeof name, "%.*s", (int)(len - 4), e->d_name);
    if (entry) sscanf(entry + 7, "%199[A-Za-z0-9_]", name);
    /* The key's part with the build options, which tells the sweep's variants apart. */
    for (size_t at = 0; at + 3 < klen; at++)
      if (buf[32 + at] == '-' && buf[32 + at + 1] == 'D') {
        size_t end = at;
        while (end < klen && buf[32 + end] != '\n') end++;
        snprintf(opts, sizeof opts, "%.*s", (int)(end - at), (const char *)buf + 32 + at);
        break;
      }
    snprintf(to, sizeof to, "%s/%s-%.8s.%s", out, name, e->d_name,
             elf     ? "cubin"
             : entry ? "ptx"
                     : "bin");
    FILE *w = fopen(to, "wb");
    const size_t keep = entry ? strlen((const char *)blob) : blen;
    if (w && fwrite(blob, 1, keep, w) == keep && fclose(w) == 0) {
      printf("%s\t%zu\t%s\n", to, keep, opts);
      files++;
    } else {
      perror(to);
    }
    free(buf);
  }
  closedir(d);
  return files ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "--dump") == 0) return dump(argv[2], argv[3]);
  const char *backend = "all", *only = NULL;
  int log2n = 28, reps = 20;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v) {
      fprintf(stderr, "duet-sweep: %s needs a value\n", a);
      return 2;
    }
    if (strcmp(a, "-b") == 0)
      backend = v;
    else if (strcmp(a, "-n") == 0)
      log2n = atoi(v);
    else if (strcmp(a, "-r") == 0)
      reps = atoi(v);
    else if (strcmp(a, "--only") == 0)
      only = v;
    else {
      fprintf(stderr,
              "usage: duet-sweep [-b cuda|opencl|all] [-n LOG2] [-r REPS] [--only "
              "stencil,vadd,reduce]\n       duet-sweep --dump CACHE_DIR OUT_DIR\n");
      return 2;
    }
    i++;
  }
  if (log2n < 20 || log2n > 31 || reps < 1 || reps > MAX_REPS) {
    fprintf(stderr, "duet-sweep: -n takes 20 to 31, -r 1 to %d\n", MAX_REPS);
    return 2;
  }
  const char *dev = getenv("DUET_DEVICE");
  const int device = dev ? atoi(dev) : 0;
  int bad = 0, ran = 0;
  static const duet_backend bs[] = {DUET_BACKEND_CUDA, DUET_BACKEND_OPENCL};
  for (int i = 0; i < 2; i++) {
    int count = 0;
    if (strcmp(backend, "all") != 0 && strcmp(backend, duet_backend_name(bs[i])) != 0) continue;
    if (duet_device_count(bs[i], &count) || count <= device) continue;
    bad |= run_backend(bs[i], device, (size_t)1 << log2n, reps, only);
    ran++;
  }
  if (!ran) printf("duet-sweep: no device on the backends asked for\n");
  return bad || !ran;
}
