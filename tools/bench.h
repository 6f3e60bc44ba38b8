/* SPDX-License-Identifier: MIT */
/* duet-bench: the types shared by its files. What each file offers the others is declared in
 * its own header (bench_run.h for bench_run.c, ...).
 *
 * A run is a list of blocks, one per (routine, size). A block runs the same host data through
 * every selected device (one "job" per device: that device's buffers) and then through the CPU
 * baselines; its rows are then compared with their reference and printed. */
#ifndef DUET_BENCH_H
#define DUET_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "duet.h"

/* Working sets below the device's cache (duet_device_info.cache_bytes) are rotated among several
 * input sets, so that repeated runs do not find their inputs in cache; this size stands in where
 * the device reports none. */
#define BENCH_CACHE_FALLBACK (64u << 20)
#define BENCH_MAX_SETS 8
/* Enough for `gemm --suite`'s GPU and CPU lists in one run (bench_suite.c). */
#define BENCH_MAX_SIZES 128
#define BENCH_MAX_DEVS 32
/* Without --reps: at most BENCH_DEFAULT_REPS, fewer when a row would take longer than
 * BENCH_BUDGET_MS of device time, but never fewer than BENCH_MIN_REPS (BENCH_MIN_CPU_REPS for the
 * slow CPU baselines). */
#define BENCH_DEFAULT_REPS 25
#define BENCH_MIN_REPS 5
#define BENCH_MIN_CPU_REPS 3
#define BENCH_BUDGET_MS 500.0
/* --batch auto (gemm --suite's default): a row's runs each hold enough back-to-back launches to
 * last BENCH_BATCH_RUN_MS by the warm-up's estimate, at most BENCH_BATCH_MAX, so that the two
 * events around a run and the gap they leave (10-14 us a run on NVIDIA's OpenCL, 1-4 on CUDA:
 * docs/results/h200.md) do not count in a kernel of a few microseconds. */
#define BENCH_BATCH_AUTO 0
#define BENCH_BATCH_RUN_MS 0.2
#define BENCH_BATCH_MAX 100
/* GEMM is checked against a full double-precision CPU product up to this many multiply-adds
 * and output elements (the reference is held in double), and beyond them on BENCH_SAMPLES
 * output elements, each a full dot product. */
#define BENCH_FULL_VERIFY_MACS (1ull << 30)
#define BENCH_FULL_VERIFY_ELEMS (1ull << 24)
#define BENCH_SAMPLES 4096
#define BENCH_GEMM_TOL 1e-4
#define BENCH_TF32_TOL 1e-2
/* A float sum of n terms errs by at most (n - 1) u sum |x| in any order; blocked sums far less.
 * The check allows 1e-6 of sum |x|. */
#define BENCH_REDUCE_TOL 1e-6
/* The stencil is checked in full up to this many multiply-adds, else on BENCH_SAMPLES outputs
 * (both ends and random ones). */
#define BENCH_STENCIL_FULL_MACS (1ull << 28)
/* The CPU baselines run only up to these sizes: beyond them one run takes many seconds. */
#define BENCH_CPU_GEMM_MACS (1ull << 30)
#define BENCH_CPU_MOVE_ELEMS (1ull << 26)

/* The vector routines (vadd, reduce, stencil) take size.m * size.n floats as one array. */
typedef enum {
  BENCH_GEMM,
  BENCH_TRANSPOSE,
  BENCH_COPY,
  BENCH_VADD,
  BENCH_REDUCE,
  BENCH_STENCIL,
  BENCH_NROUTINES
} bench_routine;
/* The routines that `launch` and the matrix sizes know: gemm, transpose, copy. */
#define BENCH_NMATRIX (BENCH_COPY + 1)
static inline int bench_is_vector(bench_routine r) { return r >= BENCH_VADD; }
/* The stencil rows' weights: weight j of radius r, the same on the device and in the check. */
static inline float bench_stencil_weight(unsigned r, unsigned j) {
  return (float)(j + 1) / (float)((r + 1) * (r + 1));
}
/* The stencil rows run at these radii (a row's variant holds the duet variant and the radius). */
#define BENCH_STENCIL_VARIANT(v, r) ((v) | (r) << 8)

/* gemm: C is m x n, op(A) m x k, op(B) k x n. transpose and copy: the input is m rows x n cols.
 * gemm alone reads the rest: ta and tb store A and B transposed, and a leading dimension of 0 is
 * the packed one (bench_lda, bench_ldb, bench_ldc). tag is the shape's class in the suite
 * (bench_suite.c), NULL elsewhere: shapes of two classes are two blocks even where their
 * dimensions agree (the suite's test hook scales some to the same). */
typedef struct {
  size_t m, n, k;
  int ta, tb;
  size_t lda, ldb, ldc;
  const char *tag;
} bench_size;
static inline size_t bench_lda(bench_size s) { return s.lda ? s.lda : s.ta ? s.m : s.k; }
static inline size_t bench_ldb(bench_size s) { return s.ldb ? s.ldb : s.tb ? s.k : s.n; }
static inline size_t bench_ldc(bench_size s) { return s.ldc ? s.ldc : s.n; }
/* Whether the gemm operands are stored as the CPU baselines and a plain run store them. */
static inline int bench_size_plain(bench_size s) {
  return !s.ta && !s.tb && bench_lda(s) == s.k && bench_ldb(s) == s.n && bench_ldc(s) == s.n;
}
static inline int bench_same_size(bench_size a, bench_size b) {
  return a.m == b.m && a.n == b.n && a.k == b.k && a.ta == b.ta && a.tb == b.tb &&
         bench_lda(a) == bench_lda(b) && bench_ldb(a) == bench_ldb(b) &&
         bench_ldc(a) == bench_ldc(b) &&
         (a.tag == b.tag || (a.tag && b.tag && strcmp(a.tag, b.tag) == 0));
}
/* What a row's time grows with: m n k multiply-adds for gemm, m n elements for the others. */
static inline double bench_work(bench_routine r, bench_size s) {
  return (double)s.m * (double)s.n * (r == BENCH_GEMM ? (double)s.k : 1.0);
}

typedef enum { BENCH_OUT_TABLE, BENCH_OUT_CSV, BENCH_OUT_JSON } bench_format;

/* BENCH_DEVICE_DEFAULT lets the library choose ($DUET_DEVICE, else 0). */
enum { BENCH_DEVICE_DEFAULT = -1, BENCH_DEVICE_ALL = -2 };
/* Backend selection: a duet_backend, or every backend that has a device. */
enum { BENCH_BACKEND_ALL = -1 };

/* The kernel command: a kernel of the user's own and its launch (bench_kernel.c). */
#define BENCH_KERNEL_MAX_ARGS 32
typedef struct {
  int kind; /* 0 a buffer of i bytes of random floats, 1 i32, 2 i64, 3 f32 */
  long long i;
  double f;
} bench_kernel_arg;
typedef struct {
  const char *file, *name, *options;
  char *source; /* the file's text */
  size_t grid[3];
  unsigned block[3];
  size_t shared;
  double bytes; /* --bytes: moved per launch, for GB/s; 0 without */
  bench_kernel_arg args[BENCH_KERNEL_MAX_ARGS];
  int nargs;
} bench_kernel_opts;

typedef struct {
  unsigned routines; /* bit (1u << bench_routine) per routine */
  int list;
  int launch;      /* the launch command (bench_launch.c) */
  int user_kernel; /* the kernel command (bench_kernel.c) */
  bench_kernel_opts kern;
  int overlap; /* the overlap command (bench_overlap.c) */
  int kernels; /* the kernels command (bench_kernels.c) */
  int plan;    /* the plan command (bench_plan.c) */
  /* gemm and plan: --ta, --tb, and --lda, --ldb, --ldc (0: packed), on every size */
  int ta, tb;
  size_t lda, ldb, ldc;
  int default_run; /* no subcommand: the best device only */
  bench_size sizes[BENCH_MAX_SIZES];
  int nsizes; /* 0: the defaults for each device's type */
  int backend;
  int device;
  const char *variants; /* NULL: all */
  /* launch: calls per round and warm-up calls */
  int reps, reps_given, warmup, warmup_given;
  int batch, batch_given; /* launches per timed run; BENCH_BATCH_AUTO: per row */
  bench_format format;
  int total, cpu, verify;
  const char *plot;
  int suite;        /* gemm --suite: the shape suite (bench_suite.c) */
  const char *save; /* --save FILE: the suite's table on stdout, CSV, JSON and plot to files */
  int suite_scale;  /* test hook, from $DUET_BENCH_TEST_SUITE_SCALE (bench_suite.c) */
  uint64_t seed;
  int wrong_size; /* test hook, from $DUET_BENCH_TEST_WRONG_SIZE */
} bench_opts;

/* ---- devices ------------------------------------------------------------------------------ */
typedef struct bench_peers bench_peers;

typedef struct {
  duet_ctx *ctx;
  duet_backend backend;
  int device;
  duet_device_info info;
  int is_cpu; /* a CPU-type OpenCL device such as PoCL: smaller default sizes */
  bench_peers *peers;
} bench_dev;

/* ---- host data of one block: set 0's inputs and the CPU reference ----------------------- */
typedef struct {
  bench_routine routine;
  bench_size size;
  uint64_t seed;
  float *a, *b; /* set 0: gemm A and B; transpose and copy use a only */
  size_t a_elems, b_elems, out_elems;
  /* gemm reference, in double: every element, or nsamples of them at idx[] */
  int sampled;
  size_t nref;
  size_t *idx; /* NULL when not sampled */
  double *ref;
} bench_host;

/* ---- rows --------------------------------------------------------------------------------- */
typedef enum { BENCH_ROW_DUET, BENCH_ROW_REF, BENCH_ROW_PEER, BENCH_ROW_CPU } bench_row_kind;
/* What the output must equal: the routine's result, or (for buf_copy in the transpose block)
 * a plain copy of the input. */
typedef enum {
  BENCH_CHECK_GEMM,
  BENCH_CHECK_TRANSPOSE,
  BENCH_CHECK_COPY,
  BENCH_CHECK_VADD,    /* out = a + b, exact */
  BENCH_CHECK_REDUCE,  /* out[0] = the sum of a, within BENCH_REDUCE_TOL of sum |a| */
  BENCH_CHECK_STENCIL, /* out = the stencil of a, exact (the same fmaf order) */
  BENCH_CHECK_NONE     /* an in-place peer (axpy): its output is not where the others' is */
} bench_check;
/* CUB comes with the CUDA toolkit: compiled in, never missing where CUDA is. */
typedef enum {
  BENCH_PEER_NONE,
  BENCH_PEER_CUBLAS,
  BENCH_PEER_CLBLAST,
  BENCH_PEER_CUB
} bench_peer_id;

typedef struct bench_job bench_job;
typedef struct bench_row_def bench_row_def;

/* Enqueues one run of the row on input set `set`; on failure fills job->err. */
typedef int (*bench_launch_fn)(bench_job *job, const bench_row_def *row, int set);
/* A CPU baseline: reads host inputs, writes the host output. */
typedef void (*bench_cpu_fn)(const bench_host *h, float *out);

struct bench_row_def {
  bench_routine routine;
  const char *name;
  bench_row_kind kind;
  int variant; /* the duet variant enum value, or a peer operation */
  int in_all;  /* part of --variant all (auto is run only when named) */
  bench_peer_id peer;
  bench_check check;
  double tol; /* gemm only: relative Frobenius error allowed */
  bench_launch_fn launch;
  bench_cpu_fn cpu;
};

/* One device's buffers for a block. */
struct bench_job {
  const bench_opts *opts;
  bench_dev *dev;
  const bench_host *host;
  int nsets;
  duet_buf *a[BENCH_MAX_SETS], *b[BENCH_MAX_SETS], *out[BENCH_MAX_SETS];
  duet_event **ev; /* 2 per rep, then 2 around the warm-up */
  int nev;
  float *result; /* host copy of the output, out_elems */
  float *poison; /* NaN, written over the output before each verification run */
  void *raw;     /* launch only: the raw launches that raw rows enqueue (bench_launch_raw.c) */
  char err[512];
};

typedef enum {
  BENCH_V_YES,
  BENCH_V_NO,
  BENCH_V_SKIPPED, /* --no-verify */
  BENCH_V_ERROR    /* a call failed: nothing to verify */
} bench_verdict;

typedef struct {
  const bench_row_def *def;
  bench_routine routine;
  bench_size size;
  const char *backend; /* "cuda", "opencl", "cpu" */
  int device;          /* -1 for the CPU */
  char device_name[256];
  int is_cpu; /* the device is a CPU (or the row is a CPU baseline) */
  const char *variant;
  bench_verdict verdict;
  int sampled;
  double error, tol; /* gemm: relative Frobenius error; NaN where not computed */
  int timed;
  int reps, warmup, sets, batch;
  double warmup_ms;     /* the warm-up's ms a launch, which --batch auto sizes from; NaN: none */
  double med, min, max; /* ms per launch */
  int total_timed;
  double tmed, tmin, tmax; /* ms, host clock around write + kernel + read */
  double rate;             /* GFLOP/s or GB/s of the median; NaN when not timed */
  double vs_ref;           /* reference time / this time; NaN when there is none */
  const char *reference;   /* the reference row's variant */
  char pick[32];           /* gemm auto: the variant AUTO runs (duet_sgemm_plan), else "" */
  char plan[1024];         /* gemm auto: its plan on one line (duet_sgemm_plan's text from the
                              variant on, its lines joined by "; "), else "" */
  char note[512];
} bench_result;

typedef struct {
  bench_result *r;
  size_t n, cap;
} bench_results;

struct bench_peers {
  void *cublas, *clblast;
  int cublas_tried, clblast_tried;
  char cublas_err[256], clblast_err[256];
};

#endif
