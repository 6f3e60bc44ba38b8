/* SPDX-License-Identifier: MIT */
/* gemm --suite (issue 22): the shapes a user who moved from cuBLAS multiplies, beyond the large
 * squares, and what each block of them says per device: AUTO against duet's own variants and
 * against the vendor, from the same run on the same buffers. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_format.h"
#include "bench_suite.h"
#include "bench_util.h"

/* A shape: m x n x k, op(A) and op(B) ("nn", "nt", "tn", "tt"), leading dimensions (0: packed)
 * and its class. */
#define S(m_, n_, k_, tag_) \
  { .m = m_, .n = n_, .k = k_, .tag = tag_ }
#define T(m_, n_, k_, ops, tag_) \
  { .m = m_, .n = n_, .k = k_, .ta = (ops)[0] == 't', .tb = (ops)[1] == 't', .tag = tag_ }
#define L(m_, n_, k_, ops, a, b, c)                                                              \
  {                                                                                              \
    .m = m_, .n = n_, .k = k_, .ta = (ops)[0] == 't', .tb = (ops)[1] == 't', .lda = a, .ldb = b, \
    .ldc = c, .tag = "ld"                                                                        \
  }
#define M1 "m = 1"
#define N1 "n = 1"
#define THIN_M "thin m"
#define THIN_N "thin n"
#define SHALLOW "shallow k"
#define DEEP "deep k"
#define SQUARE "square"
#define ODD "odd"
#define TRANS "transposed"
#define MID "mid k"

/* The GPU's list: the classes of issue 22's table and more, at the sizes users meet. */
static const bench_size gpu_shapes[] = {
    /* one row or column of C (a matrix-vector product), both orientations of A or B */
    S(1, 4096, 4096, M1),
    T(1, 4096, 4096, "nt", M1),
    S(1, 4097, 4097, M1),
    S(4096, 1, 4096, N1),
    T(4096, 1, 4096, "tn", N1),
    /* ... with a matrix of 1 GiB, read long enough that a launch's start and end cost little */
    S(1, 16384, 16384, M1),
    T(1, 16384, 16384, "nt", M1),
    S(16384, 1, 16384, N1),
    T(16384, 1, 16384, "tn", N1),
    /* a few rows or columns */
    S(2, 4096, 4096, THIN_M),
    S(4, 4096, 4096, THIN_M),
    S(8, 4096, 4096, THIN_M),
    S(16, 4096, 4096, THIN_M),
    S(4096, 4, 4096, THIN_N),
    S(4096, 16, 4096, THIN_N),
    /* shallow k, large C */
    S(8192, 8192, 64, SHALLOW),
    S(4096, 4096, 32, SHALLOW),
    S(4096, 4096, 16, SHALLOW),
    S(4096, 4096, 4, SHALLOW),
    S(4096, 4096, 1, SHALLOW),
    /* deep k, small C */
    S(256, 256, 16384, DEEP),
    S(512, 512, 32768, DEEP),
    S(128, 128, 65536, DEEP),
    S(32, 32, 131072, DEEP),
    S(64, 64, 262144, DEEP),
    /* squares, small to the large one where fast is near cuBLAS */
    S(32, 32, 32, SQUARE),
    S(64, 64, 64, SQUARE),
    S(128, 128, 128, SQUARE),
    S(256, 256, 256, SQUARE),
    S(512, 512, 512, SQUARE),
    S(1024, 1024, 1024, SQUARE),
    S(4096, 4096, 4096, SQUARE),
    /* odd and prime */
    S(997, 997, 997, ODD),
    S(2300, 1530, 999, ODD),
    S(1531, 2039, 1021, ODD),
    S(4097, 4097, 4097, ODD),
    /* the four transpose combinations */
    T(1000, 1000, 1000, "nn", TRANS),
    T(1000, 1000, 1000, "nt", TRANS),
    T(1000, 1000, 1000, "tn", TRANS),
    T(1000, 1000, 1000, "tt", TRANS),
    T(4096, 4096, 4096, "nt", TRANS),
    T(2048, 2048, 2048, "tn", TRANS),
    T(2048, 2048, 2048, "tt", TRANS),
    /* tall-thin and short-wide C, and both at deep k (operands past the cache) */
    S(16384, 128, 1024, "tall"),
    S(65536, 32, 256, "tall"),
    S(128, 16384, 1024, "wide"),
    S(32, 65536, 256, "wide"),
    S(4096, 64, 16384, "tall"),
    S(64, 4096, 16384, "wide"),
    /* leading dimensions beyond the matrix: aligned, unaligned, and C a part of a wider one */
    L(1000, 1000, 1000, "nn", 1024, 1024, 1024),
    L(1023, 1023, 1023, "tt", 1031, 1031, 1031),
    L(4096, 4096, 64, "nn", 128, 4352, 8192),
    /* a C of a few hundred rows at mid depth (the tiny and small tiles' clusters or k slices),
     * and an odd size whose lds make fast copy both operands or load them a float at a time */
    S(512, 512, 2048, MID),
    S(384, 384, 1024, MID),
    S(799, 799, 799, ODD),
};

/* The CPU's list (PoCL): the same classes and count, scaled down. */
static const bench_size cpu_shapes[] = {
    S(1, 1024, 1024, M1),
    T(1, 1024, 1024, "nt", M1),
    S(1, 1025, 1025, M1),
    S(1024, 1, 1024, N1),
    T(1024, 1, 1024, "tn", N1),
    S(1, 4096, 4096, M1),
    T(1, 4096, 4096, "nt", M1),
    S(4096, 1, 4096, N1),
    T(4096, 1, 4096, "tn", N1),
    S(2, 1024, 1024, THIN_M),
    S(4, 1024, 1024, THIN_M),
    S(8, 1024, 1024, THIN_M),
    S(16, 1024, 1024, THIN_M),
    S(1024, 4, 1024, THIN_N),
    S(1024, 16, 1024, THIN_N),
    S(512, 512, 32, SHALLOW),
    S(384, 384, 64, SHALLOW),
    S(512, 512, 16, SHALLOW),
    S(512, 512, 4, SHALLOW),
    S(512, 512, 1, SHALLOW),
    S(64, 64, 4096, DEEP),
    S(32, 32, 8192, DEEP),
    S(16, 16, 16384, DEEP),
    S(8, 8, 32768, DEEP),
    S(4, 4, 65536, DEEP),
    S(32, 32, 32, SQUARE),
    S(48, 48, 48, SQUARE),
    S(64, 64, 64, SQUARE),
    S(96, 96, 96, SQUARE),
    S(128, 128, 128, SQUARE),
    S(192, 192, 192, SQUARE),
    S(256, 256, 256, SQUARE),
    S(251, 251, 251, ODD),
    S(230, 153, 99, ODD),
    S(131, 211, 97, ODD),
    S(257, 257, 257, ODD),
    T(250, 250, 250, "nn", TRANS),
    T(250, 250, 250, "nt", TRANS),
    T(250, 250, 250, "tn", TRANS),
    T(250, 250, 250, "tt", TRANS),
    T(256, 256, 256, "nt", TRANS),
    T(192, 192, 192, "tn", TRANS),
    T(192, 192, 192, "tt", TRANS),
    S(2048, 32, 256, "tall"),
    S(16384, 8, 64, "tall"),
    S(32, 2048, 256, "wide"),
    S(8, 16384, 64, "wide"),
    S(1024, 16, 4096, "tall"),
    S(16, 1024, 4096, "wide"),
    L(250, 250, 250, "nn", 256, 256, 256),
    L(255, 255, 255, "tt", 263, 263, 263),
    L(512, 512, 16, "nn", 32, 576, 1024),
    S(128, 128, 512, MID),
    S(96, 96, 256, MID),
    S(199, 199, 199, ODD),
};

/* The copies that m = 1 and n = 1 are compared with: one of as many bytes as each size of their
 * matrix (bench_suite_copy matches them). */
static const bench_size gpu_copies[] = {S(4096, 4096, 1, NULL), S(16384, 16384, 1, NULL)};
static const bench_size cpu_copies[] = {S(1024, 1024, 1, NULL), S(4096, 4096, 1, NULL)};

/* The test hook ($DUET_BENCH_TEST_SUITE_SCALE=N, tests/test_bench.sh): every dimension above 16
 * divided by N, rounded up, the padding of each leading dimension kept; the classes' thin sides
 * stay as they are. At N = 4 the CPU's shapes stay distinct. */
static size_t down(size_t d, int scale) {
  return d > 16 ? (d + (size_t)scale - 1) / (size_t)scale : d;
}

static size_t down_ld(size_t ld, size_t cols, size_t scaled_cols) {
  return ld ? scaled_cols + (ld - cols) : 0;
}

static bench_size scaled(bench_size s, int scale) {
  if (scale <= 1) return s;
  bench_size t = s;
  t.m = down(s.m, scale);
  t.n = down(s.n, scale);
  t.k = down(s.k, scale);
  t.lda = down_ld(s.lda, s.ta ? s.m : s.k, s.ta ? t.m : t.k);
  t.ldb = down_ld(s.ldb, s.tb ? s.k : s.n, s.tb ? t.k : t.n);
  t.ldc = down_ld(s.ldc, s.n, t.n);
  return t;
}

int bench_suite_count(int is_cpu) {
  return (int)(is_cpu ? sizeof cpu_shapes / sizeof *cpu_shapes
                      : sizeof gpu_shapes / sizeof *gpu_shapes);
}

int bench_suite_sizes(const bench_opts *o, bench_routine r, int is_cpu, bench_size *out) {
  if (o->suite_scale > 1) is_cpu = 1; /* the same tiny shapes on every device */
  const bench_size *list = is_cpu ? cpu_shapes : gpu_shapes;
  size_t n = (size_t)bench_suite_count(is_cpu);
  if (r == BENCH_COPY) {
    list = is_cpu ? cpu_copies : gpu_copies;
    n = is_cpu ? sizeof cpu_copies / sizeof *cpu_copies : sizeof gpu_copies / sizeof *gpu_copies;
  } else if (r != BENCH_GEMM) {
    return 0;
  }
  for (size_t i = 0; i < n; i++) out[i] = scaled(list[i], o->suite_scale);
  return (int)n;
}

int bench_suite_row_runs(const bench_opts *o, const bench_row_def *row, bench_size s) {
  if (!o->suite || row->routine != BENCH_GEMM || row->kind != BENCH_ROW_DUET) return 1;
  return row->variant != DUET_GEMM_NAIVE ||
         (double)s.m * (double)s.n * (double)s.k <= (double)BENCH_SUITE_NAIVE_MACS;
}

/* ---- one block's lines ------------------------------------------------------------------- */
static int usable(const bench_result *r) { return r->timed && r->verdict != BENCH_V_NO; }

static int same_device(const bench_result *a, const bench_result *b) {
  return a->device == b->device && strcmp(a->backend, b->backend) == 0;
}

static double ratio(double other_ms, double auto_ms) {
  return isnan(other_ms) || isnan(auto_ms) ? NAN : other_ms / auto_ms;
}

/* Worse verdicts rank higher: error, no, skipped, yes. */
static int rank(bench_verdict v) {
  return v == BENCH_V_ERROR ? 3 : v == BENCH_V_NO ? 2 : v == BENCH_V_SKIPPED ? 1 : 0;
}

/* cuBLAS's time for this block, for a device that has none (an OpenCL GPU): the CUDA row on a
 * device of the same name (the same GPU seen through OpenCL), else the first CUDA row; never for
 * a CPU, which would be set against a GPU. */
static double cublas_in_block(const bench_result *r, size_t n, const bench_result *dev) {
  double first = NAN;
  for (size_t i = 0; i < n; i++) {
    if (strcmp(r[i].variant, "cublas") != 0 || !usable(&r[i])) continue;
    if (strcmp(r[i].device_name, dev->device_name) == 0) return r[i].med;
    if (isnan(first) && !dev->is_cpu) first = r[i].med;
  }
  return first;
}

static void line_of(bench_suite_line *l, const bench_result *r, size_t n, const bench_result *block,
                    size_t nblock) {
  memset(l, 0, sizeof *l);
  l->size = r[0].size;
  l->backend = r[0].backend;
  l->device = r[0].device;
  l->device_name = r[0].device_name;
  l->rows = r;
  l->nrows = n;
  l->auto_ms = l->best_ms = l->tiled_ms = l->cublas_ms = l->clblast_ms = NAN;
  l->note = l->note_variant = l->pick = l->plan = "";
  l->verdict = BENCH_V_YES;
  for (size_t i = 0; i < n; i++) {
    const bench_result *q = &r[i];
    if (rank(q->verdict) > rank(l->verdict)) {
      l->verdict = q->verdict;
      l->note = q->note;
      l->note_variant = q->variant;
    }
    if (q->pick[0]) l->pick = q->pick;
    if (q->plan[0]) l->plan = q->plan;
    if (!usable(q)) continue;
    if (q->def->kind == BENCH_ROW_DUET && strcmp(q->variant, "auto") == 0) {
      l->auto_ms = q->med;
    } else if (q->def->kind == BENCH_ROW_DUET) {
      if (!l->best || q->med < l->best_ms) l->best = q->variant, l->best_ms = q->med;
      if (strcmp(q->variant, "tiled") == 0) l->tiled_ms = q->med;
    } else if (strcmp(q->variant, "cublas") == 0) {
      l->cublas_ms = q->med;
    } else if (strcmp(q->variant, "clblast") == 0) {
      l->clblast_ms = q->med;
    }
  }
  if (isnan(l->cublas_ms)) l->cublas_ms = cublas_in_block(block, nblock, &r[0]);
  l->vs_cublas = ratio(l->cublas_ms, l->auto_ms);
  l->vs_clblast = ratio(l->clblast_ms, l->auto_ms);
  l->vs_best = ratio(l->best_ms, l->auto_ms);
  l->vs_tiled = ratio(l->tiled_ms, l->auto_ms);
  const bench_size s = l->size;
  l->gbps =
      (s.m == 1 || s.n == 1) && !isnan(l->auto_ms)
          ? 4.0 * ((double)s.m * s.k + (double)s.k * s.n + (double)s.m * s.n) / (l->auto_ms * 1e6)
          : NAN;
  l->vs_copy = l->copy_gbps = NAN;
}

size_t bench_suite_lines(const bench_result *r, size_t n, bench_suite_line *out, size_t cap) {
  size_t count = 0;
  for (size_t i = 0; i < n && count < cap;) {
    size_t end = i;
    while (end < n && same_device(&r[end], &r[i])) end++;
    if (r[i].routine == BENCH_GEMM && r[i].device >= 0)
      line_of(&out[count++], r + i, end - i, r, n);
    i = end;
  }
  return count;
}

/* The elements of the matrix that a line of m = 1 or n = 1 reads (B for one row of C, A for one
 * column), which its copy moves as many of. */
static double big_operand(bench_size s) { return (double)s.k * (double)(s.m == 1 ? s.n : s.m); }

void bench_suite_copy(bench_suite_line *line, const bench_results *all) {
  if (isnan(line->gbps)) return;
  const double want = big_operand(line->size);
  double best = INFINITY;
  for (size_t i = 0; i < all->n; i++) {
    const bench_result *q = &all->r[i];
    if (q->routine != BENCH_COPY || q->def->kind != BENCH_ROW_REF || !usable(q) ||
        q->device != line->device || strcmp(q->backend, line->backend) != 0)
      continue;
    /* the copy nearest in size (the same where the suite has it) */
    const double off = fabs(log((double)q->size.m * (double)q->size.n / want));
    if (off < best) best = off, line->copy_gbps = q->rate, line->copy_size = q->size;
  }
  if (!isnan(line->copy_gbps)) line->vs_copy = line->gbps / line->copy_gbps;
}

bench_suite_line *bench_suite_all_lines(const bench_results *all, size_t *n) {
  bench_suite_line *lines = bench_xmalloc((all->n + 1) * sizeof *lines);
  *n = 0;
  for (size_t i = 0; i < all->n;) {
    size_t end = i;
    while (end < all->n && all->r[end].routine == all->r[i].routine &&
           bench_same_size(all->r[end].size, all->r[i].size))
      end++;
    *n += bench_suite_lines(all->r + i, end - i, lines + *n, all->n - *n);
    i = end;
  }
  for (size_t i = 0; i < *n; i++) bench_suite_copy(&lines[i], all);
  return lines;
}
