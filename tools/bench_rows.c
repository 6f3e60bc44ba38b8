/* SPDX-License-Identifier: MIT */
/* The rows a block can have: duet's kernels, the reference, the peers and the CPU baselines,
 * how each is launched, which are selected, and which one the others are compared with. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_cpu.h"
#include "bench_rows.h"
#include "bench_util.h"
#include "peer.h"

/* The test hook: one element short, so that the device output really is wrong. */
static size_t cut(const bench_job *job) { return job->opts->wrong_size ? 1 : 0; }

static int launch_gemm(bench_job *job, const bench_row_def *row, int set) {
  bench_size s = job->host->size;
  int st =
      duet_sgemm(job->dev->ctx, (duet_gemm_variant)row->variant, s.ta ? DUET_TRANS : DUET_NO_TRANS,
                 s.tb ? DUET_TRANS : DUET_NO_TRANS, s.m, s.n, s.k - cut(job), 1.0f, job->a[set],
                 bench_lda(s), job->b[set], bench_ldb(s), 0.0f, job->out[set], bench_ldc(s));
  return st ? bench_duet_error(job, st, "duet_sgemm") : 0;
}

static int launch_transpose(bench_job *job, const bench_row_def *row, int set) {
  bench_size s = job->host->size;
  int st = duet_transpose(job->dev->ctx, (duet_transpose_variant)row->variant, s.m, s.n - cut(job),
                          job->a[set], s.n, job->out[set], s.m);
  return st ? bench_duet_error(job, st, "duet_transpose") : 0;
}

static int launch_copy(bench_job *job, const bench_row_def *row, int set) {
  (void)row;
  bench_size s = job->host->size;
  int st = duet_copy(job->dev->ctx, s.m, s.n - cut(job), job->a[set], s.n, job->out[set], s.n);
  return st ? bench_duet_error(job, st, "duet_copy") : 0;
}

static size_t elems(const bench_job *job) { return job->host->a_elems - cut(job); }

static int launch_vadd(bench_job *job, const bench_row_def *row, int set) {
  (void)row;
  int st = duet_vector_add(job->dev->ctx, elems(job), job->a[set], job->b[set], job->out[set]);
  return st ? bench_duet_error(job, st, "duet_vector_add") : 0;
}

/* The test hook halves the sum's input: one element short could still fall within tolerance. */
static int launch_reduce(bench_job *job, const bench_row_def *row, int set) {
  const size_t n = job->host->a_elems >> (cut(job) ? 1 : 0);
  int st = duet_reduce_sum(job->dev->ctx, (duet_reduce_variant)row->variant, n, job->a[set],
                           job->out[set]);
  return st ? bench_duet_error(job, st, "duet_reduce_sum") : 0;
}

/* The variant and the radius: BENCH_STENCIL_VARIANT. */
static int launch_stencil(bench_job *job, const bench_row_def *row, int set) {
  const unsigned r = (unsigned)row->variant >> 8;
  float w[2 * DUET_STENCIL_MAX_RADIUS + 1];
  for (unsigned j = 0; j <= 2 * r; j++) w[j] = bench_stencil_weight(r, j);
  int st = duet_stencil_1d(job->dev->ctx, (duet_stencil_variant)(row->variant & 0xff), elems(job),
                           r, w, job->a[set], job->out[set]);
  return st ? bench_duet_error(job, st, "duet_stencil_1d") : 0;
}

static int launch_buf_copy(bench_job *job, const bench_row_def *row, int set) {
  (void)row;
  int st = duet_buf_copy(job->out[set], job->a[set], job->host->a_elems * sizeof(float));
  return st ? bench_duet_error(job, st, "duet_buf_copy") : 0;
}

/* ---- peers: opened on a context's first use, kept until the context goes ------------------- */
enum { PEER_SGEMM, PEER_SGEMM_TF32, PEER_TRANSPOSE, PEER_AXPY, PEER_SUM };

#ifdef DUET_HAVE_CUDA
static int launch_cub(bench_job *job, const bench_row_def *row, int set) {
  (void)row;
  return peer_cub_sum(job->dev->ctx, elems(job), job->a[set], job->out[set], job->err,
                      sizeof job->err);
}
#endif

#ifdef DUET_HAVE_CUBLAS
static peer_cublas *cublas_of(bench_job *job) {
  bench_peers *p = job->dev->peers;
  if (!p->cublas_tried) {
    p->cublas_tried = 1;
    peer_cublas *h = NULL;
    if (peer_cublas_open(job->dev->ctx, &h, p->cublas_err, sizeof p->cublas_err) == 0)
      p->cublas = h;
  }
  if (!p->cublas) snprintf(job->err, sizeof job->err, "cuBLAS: %s", p->cublas_err);
  return p->cublas;
}

static int launch_cublas(bench_job *job, const bench_row_def *row, int set) {
  peer_cublas *h = cublas_of(job);
  if (!h) return -1;
  bench_size s = job->host->size;
  if (row->variant == PEER_TRANSPOSE)
    return peer_cublas_transpose(h, s.m, s.n, job->a[set], job->out[set], job->err,
                                 sizeof job->err);
  if (row->variant == PEER_AXPY)
    return peer_cublas_axpy(h, elems(job), job->a[set], job->b[set], job->err, sizeof job->err);
  const peer_gemm g = {s.ta, s.tb, s.m, s.n, s.k, bench_lda(s), bench_ldb(s), bench_ldc(s)};
  return peer_cublas_sgemm(h, row->variant == PEER_SGEMM_TF32, &g, job->a[set], job->b[set],
                           job->out[set], job->err, sizeof job->err);
}
#endif

#ifdef DUET_HAVE_CLBLAST
static peer_clblast *clblast_of(bench_job *job) {
  bench_peers *p = job->dev->peers;
  if (!p->clblast_tried) {
    p->clblast_tried = 1;
    peer_clblast *h = NULL;
    if (peer_clblast_open(job->dev->ctx, &h, p->clblast_err, sizeof p->clblast_err) == 0)
      p->clblast = h;
  }
  if (!p->clblast) snprintf(job->err, sizeof job->err, "CLBlast: %s", p->clblast_err);
  return p->clblast;
}

static int launch_clblast(bench_job *job, const bench_row_def *row, int set) {
  peer_clblast *h = clblast_of(job);
  if (!h) return -1;
  bench_size s = job->host->size;
  if (row->variant == PEER_TRANSPOSE)
    return peer_clblast_transpose(h, s.m, s.n, job->a[set], job->out[set], job->err,
                                  sizeof job->err);
  if (row->variant == PEER_AXPY)
    return peer_clblast_axpy(h, elems(job), job->a[set], job->b[set], job->err, sizeof job->err);
  if (row->variant == PEER_SUM)
    return peer_clblast_sum(h, elems(job), job->a[set], job->out[set], job->err, sizeof job->err);
  const peer_gemm g = {s.ta, s.tb, s.m, s.n, s.k, bench_lda(s), bench_ldb(s), bench_ldc(s)};
  return peer_clblast_sgemm(h, &g, job->a[set], job->b[set], job->out[set], job->err,
                            sizeof job->err);
}
#endif

const char *bench_peer_names(void) {
#if defined(DUET_HAVE_CUBLAS) && defined(DUET_HAVE_CLBLAST)
  return "cuBLAS, CLBlast";
#elif defined(DUET_HAVE_CUBLAS)
  return "cuBLAS";
#elif defined(DUET_HAVE_CLBLAST)
  return "CLBlast";
#else
  return "none";
#endif
}

static const char *peer_name(bench_peer_id id) {
  return id == BENCH_PEER_CUBLAS    ? "cuBLAS"
         : id == BENCH_PEER_CLBLAST ? "CLBlast"
         : id == BENCH_PEER_CUB     ? "CUB"
                                    : "none";
}

int bench_peer_load(bench_peer_id id, char *err, size_t len) {
  switch (id) {
#ifdef DUET_HAVE_CUBLAS
    case BENCH_PEER_CUBLAS: return peer_cublas_load(err, len);
#endif
#ifdef DUET_HAVE_CLBLAST
    case BENCH_PEER_CLBLAST: return peer_clblast_load(err, len);
#endif
    default: break;
  }
  (void)err;
  (void)len;
  return 0;
}

void bench_peers_list(void) {
  static const struct {
    bench_peer_id id;
    const char *soname;
  } built[] = {
#ifdef DUET_HAVE_CUBLAS
      {BENCH_PEER_CUBLAS, DUET_CUBLAS_SONAME},
#endif
#ifdef DUET_HAVE_CLBLAST
      {BENCH_PEER_CLBLAST, DUET_CLBLAST_SONAME},
#endif
      {BENCH_PEER_NONE, NULL}};
  for (size_t i = 0; built[i].soname; i++) {
    char why[512];
    if (bench_peer_load(built[i].id, why, sizeof why))
      printf("  %s: not available: %s\n", peer_name(built[i].id), why);
    else
      printf("  %s: opens (%s)\n", peer_name(built[i].id), built[i].soname);
  }
}

/* A peer included by default whose library does not open is left out, said once. */
static int peer_ready(bench_peer_id id) {
  static int told[BENCH_PEER_CUB + 1];
  char why[512];
  if (!bench_peer_load(id, why, sizeof why)) return 1;
  if (!told[id]) fprintf(stderr, "duet-bench: %s is left out: %s\n", peer_name(id), why);
  told[id] = 1;
  return 0;
}

void bench_peers_close(bench_peers *p) {
  if (!p) return;
#ifdef DUET_HAVE_CUBLAS
  peer_cublas_close(p->cublas);
#endif
#ifdef DUET_HAVE_CLBLAST
  peer_clblast_close(p->clblast);
#endif
  free(p);
}

/* ---- the catalogue, in the order rows are printed ------------------------------------------ */
#define DUET_ROW(r, nm, v, all, chk, tl, fn)                                                     \
  {                                                                                              \
    .routine = r, .name = nm, .kind = BENCH_ROW_DUET, .variant = v, .in_all = all, .check = chk, \
    .tol = tl, .launch = fn                                                                      \
  }
#define GEMM(nm, v, all) \
  DUET_ROW(BENCH_GEMM, nm, v, all, BENCH_CHECK_GEMM, BENCH_GEMM_TOL, launch_gemm)
#define TRANSPOSE(nm, v, all) \
  DUET_ROW(BENCH_TRANSPOSE, nm, v, all, BENCH_CHECK_TRANSPOSE, 0, launch_transpose)
#define REDUCE(nm, v, all) DUET_ROW(BENCH_REDUCE, nm, v, all, BENCH_CHECK_REDUCE, 0, launch_reduce)
#define STENCIL(nm, v, r, all)                                                          \
  DUET_ROW(BENCH_STENCIL, nm, BENCH_STENCIL_VARIANT(v, r), all, BENCH_CHECK_STENCIL, 0, \
           launch_stencil)
/* buf_copy copies in the transpose block too, so it is checked as a copy there. */
#define BUF_COPY(r)                                                             \
  {                                                                             \
    .routine = r, .name = "buf_copy (ref)", .kind = BENCH_ROW_REF, .in_all = 1, \
    .check = BENCH_CHECK_COPY, .launch = launch_buf_copy                        \
  }
#define PEER(r, nm, kd, op, p, chk, tl, fn)                                                    \
  {                                                                                            \
    .routine = r, .name = nm, .kind = kd, .variant = op, .in_all = 1, .peer = p, .check = chk, \
    .tol = tl, .launch = fn                                                                    \
  }
#define CPU(r, nm, chk, tl, fn)                                                            \
  {                                                                                        \
    .routine = r, .name = nm, .kind = BENCH_ROW_CPU, .in_all = 1, .check = chk, .tol = tl, \
    .cpu = fn                                                                              \
  }

static const bench_row_def rows[] = {
    GEMM("naive", DUET_GEMM_NAIVE, 1),
    GEMM("coalesced", DUET_GEMM_COALESCED, 1),
    GEMM("tiled", DUET_GEMM_TILED, 1),
    GEMM("register", DUET_GEMM_REGISTER, 1),
    GEMM("fast", DUET_GEMM_FAST, 1),
    GEMM("auto", DUET_GEMM_AUTO, 0),
#ifdef DUET_HAVE_CUBLAS
    PEER(BENCH_GEMM, "cublas", BENCH_ROW_REF, PEER_SGEMM, BENCH_PEER_CUBLAS, BENCH_CHECK_GEMM,
         BENCH_GEMM_TOL, launch_cublas),
    PEER(BENCH_GEMM, "cublas-tf32", BENCH_ROW_PEER, PEER_SGEMM_TF32, BENCH_PEER_CUBLAS,
         BENCH_CHECK_GEMM, BENCH_TF32_TOL, launch_cublas),
#endif
#ifdef DUET_HAVE_CLBLAST
    PEER(BENCH_GEMM, "clblast", BENCH_ROW_PEER, PEER_SGEMM, BENCH_PEER_CLBLAST, BENCH_CHECK_GEMM,
         BENCH_GEMM_TOL, launch_clblast),
#endif
    CPU(BENCH_GEMM, "cpu-simple", BENCH_CHECK_GEMM, BENCH_GEMM_TOL, bench_cpu_gemm_simple),
    CPU(BENCH_GEMM, "cpu-blocked", BENCH_CHECK_GEMM, BENCH_GEMM_TOL, bench_cpu_gemm_blocked),

    TRANSPOSE("naive", DUET_TRANSPOSE_NAIVE, 1),
    TRANSPOSE("coalesced", DUET_TRANSPOSE_COALESCED, 1),
    TRANSPOSE("padded", DUET_TRANSPOSE_PADDED, 1),
    TRANSPOSE("padded-tall", DUET_TRANSPOSE_PADDED_TALL, 1),
    TRANSPOSE("register", DUET_TRANSPOSE_REGISTER, 1),
    TRANSPOSE("auto", DUET_TRANSPOSE_AUTO, 0),
    BUF_COPY(BENCH_TRANSPOSE),
#ifdef DUET_HAVE_CUBLAS
    PEER(BENCH_TRANSPOSE, "cublas-geam", BENCH_ROW_PEER, PEER_TRANSPOSE, BENCH_PEER_CUBLAS,
         BENCH_CHECK_TRANSPOSE, 0, launch_cublas),
#endif
#ifdef DUET_HAVE_CLBLAST
    PEER(BENCH_TRANSPOSE, "clblast", BENCH_ROW_PEER, PEER_TRANSPOSE, BENCH_PEER_CLBLAST,
         BENCH_CHECK_TRANSPOSE, 0, launch_clblast),
#endif
    CPU(BENCH_TRANSPOSE, "cpu-simple", BENCH_CHECK_TRANSPOSE, 0, bench_cpu_transpose_simple),
    CPU(BENCH_TRANSPOSE, "cpu-blocked", BENCH_CHECK_TRANSPOSE, 0, bench_cpu_transpose_blocked),

    DUET_ROW(BENCH_COPY, "copy", 0, 1, BENCH_CHECK_COPY, 0, launch_copy),
    BUF_COPY(BENCH_COPY),

    /* Every vector routine is compared with buf_copy's GB/s. The axpy peers add x into y in
     * place (b): they come last, after every row that reads b. */
    DUET_ROW(BENCH_VADD, "vadd", 0, 1, BENCH_CHECK_VADD, 0, launch_vadd),
    BUF_COPY(BENCH_VADD),
#ifdef DUET_HAVE_CUBLAS
    PEER(BENCH_VADD, "cublas-saxpy", BENCH_ROW_PEER, PEER_AXPY, BENCH_PEER_CUBLAS, BENCH_CHECK_NONE,
         0, launch_cublas),
#endif
#ifdef DUET_HAVE_CLBLAST
    PEER(BENCH_VADD, "clblast-saxpy", BENCH_ROW_PEER, PEER_AXPY, BENCH_PEER_CLBLAST,
         BENCH_CHECK_NONE, 0, launch_clblast),
#endif

    REDUCE("naive", DUET_REDUCE_NAIVE, 1),
    REDUCE("sequential", DUET_REDUCE_SEQUENTIAL, 1),
    REDUCE("shuffle", DUET_REDUCE_SHUFFLE, 1),
    REDUCE("atomic", DUET_REDUCE_ATOMIC, 1),
    REDUCE("auto", DUET_REDUCE_AUTO, 0),
    BUF_COPY(BENCH_REDUCE),
#ifdef DUET_HAVE_CUDA
    PEER(BENCH_REDUCE, "cub", BENCH_ROW_PEER, PEER_SUM, BENCH_PEER_CUB, BENCH_CHECK_REDUCE, 0,
         launch_cub),
#endif
#ifdef DUET_HAVE_CLBLAST
    PEER(BENCH_REDUCE, "clblast-sum", BENCH_ROW_PEER, PEER_SUM, BENCH_PEER_CLBLAST,
         BENCH_CHECK_REDUCE, 0, launch_clblast),
#endif

    STENCIL("naive-r3", DUET_STENCIL_NAIVE, 3, 1),
    STENCIL("shared-r3", DUET_STENCIL_SHARED, 3, 1),
    STENCIL("register-r3", DUET_STENCIL_REGISTER, 3, 1),
    STENCIL("auto-r3", DUET_STENCIL_AUTO, 3, 0),
    STENCIL("naive-r16", DUET_STENCIL_NAIVE, 16, 1),
    STENCIL("shared-r16", DUET_STENCIL_SHARED, 16, 1),
    STENCIL("register-r16", DUET_STENCIL_REGISTER, 16, 1),
    STENCIL("auto-r16", DUET_STENCIL_AUTO, 16, 0),
    BUF_COPY(BENCH_STENCIL),
};

const bench_row_def *bench_rows(size_t *n) {
  *n = sizeof rows / sizeof rows[0];
  return rows;
}

/* Exact match of one comma-separated item of list. */
static int in_list(const char *list, const char *name) {
  size_t len = strlen(name);
  for (const char *p = list; *p;) {
    const char *end = strchr(p, ',');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (n == len && strncmp(p, name, n) == 0) return 1;
    if (!end) break;
    p = end + 1;
  }
  return 0;
}

/* "buf_copy (ref)" is also selected as "buf_copy"; the CPU rows follow --cpu instead. */
static const char *short_name(const bench_row_def *row) {
  return row->kind == BENCH_ROW_REF && row->peer == BENCH_PEER_NONE ? "buf_copy" : row->name;
}

int bench_row_selected(const bench_opts *o, const bench_row_def *row) {
  if (!(o->routines & (1u << row->routine))) return 0;
  if (row->kind == BENCH_ROW_CPU) return o->cpu;
  /* The reference always runs: every other row is reported relative to it. */
  if (row->kind == BENCH_ROW_REF) return 1;
  if (!o->variants || strcmp(o->variants, "all") == 0) return row->in_all;
  return (row->in_all && in_list(o->variants, "all")) || in_list(o->variants, short_name(row));
}

int bench_rows_auto_left_out(const bench_opts *o) {
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    if ((o->routines & (1u << rows[i].routine)) && rows[i].kind == BENCH_ROW_DUET &&
        !rows[i].in_all && !bench_row_selected(o, &rows[i]))
      return 1;
  return 0;
}

int bench_row_name_built(unsigned routines, const char *name) {
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    if ((routines & (1u << rows[i].routine)) && rows[i].kind != BENCH_ROW_CPU &&
        strcmp(short_name(&rows[i]), name) == 0)
      return 1;
  return 0;
}

int bench_row_name_known(unsigned routines, const char *name) {
  /* Every peer name, also those this build lacks (bench_row_name_built tells them apart). */
  static const struct {
    bench_routine routine;
    const char *name;
  } peers[] = {{BENCH_GEMM, "cublas"},        {BENCH_GEMM, "cublas-tf32"},
               {BENCH_GEMM, "clblast"},       {BENCH_TRANSPOSE, "cublas-geam"},
               {BENCH_TRANSPOSE, "clblast"},  {BENCH_VADD, "cublas-saxpy"},
               {BENCH_VADD, "clblast-saxpy"}, {BENCH_REDUCE, "cub"},
               {BENCH_REDUCE, "clblast-sum"}};
  if (bench_row_name_built(routines, name)) return 1;
  for (size_t i = 0; i < sizeof peers / sizeof peers[0]; i++)
    if ((routines & (1u << peers[i].routine)) && strcmp(peers[i].name, name) == 0) return 1;
  return 0;
}

int bench_row_runs_on(const bench_row_def *row, const bench_dev *dev) {
  switch (row->peer) {
    case BENCH_PEER_CUBLAS: return dev->backend == DUET_BACKEND_CUDA && peer_ready(row->peer);
    case BENCH_PEER_CLBLAST: return dev->backend == DUET_BACKEND_OPENCL && peer_ready(row->peer);
    case BENCH_PEER_CUB: return dev->backend == DUET_BACKEND_CUDA;
    case BENCH_PEER_NONE: break;
  }
  return row->kind != BENCH_ROW_CPU;
}

bench_peer_id bench_row_peer(unsigned routines, const char *name) {
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    if ((routines & (1u << rows[i].routine)) && strcmp(short_name(&rows[i]), name) == 0)
      return rows[i].peer;
  return BENCH_PEER_NONE;
}

static int usable(const bench_result *r) { return r->timed && r->verdict != BENCH_V_NO; }

/* Within one device: cuBLAS for gemm and buf_copy for transpose and copy (the rows of kind REF),
 * else (gemm without cuBLAS) the fastest duet kernel. The CPU rows, which have no device, are
 * compared with the first device's reference. */
void bench_rows_apply_reference(bench_result *r, size_t n) {
  const bench_result *first_ref = NULL;
  for (size_t i = 0; i < n;) {
    size_t end = i;
    while (end < n && r[end].device == r[i].device && strcmp(r[end].backend, r[i].backend) == 0)
      end++;
    const bench_result *ref = NULL;
    if (r[i].def->kind == BENCH_ROW_CPU) {
      ref = first_ref;
    } else {
      for (size_t j = i; j < end; j++)
        if (r[j].def->kind == BENCH_ROW_REF && usable(&r[j])) ref = &r[j];
      for (size_t j = i; j < end && !ref; j++)
        if (r[j].def->kind == BENCH_ROW_DUET && usable(&r[j])) {
          const bench_result *best = &r[j];
          for (size_t q = j + 1; q < end; q++)
            if (r[q].def->kind == BENCH_ROW_DUET && usable(&r[q]) && r[q].med < best->med)
              best = &r[q];
          ref = best;
        }
      if (!first_ref) first_ref = ref;
    }
    for (size_t j = i; j < end; j++) {
      r[j].reference = ref ? ref->variant : NULL;
      /* rates, not times: a vector routine moves other bytes than its copy reference */
      r[j].vs_ref = ref && usable(&r[j]) ? r[j].rate / ref->rate : NAN;
    }
    i = end;
  }
}
