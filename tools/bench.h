/* SPDX-License-Identifier: MIT */
/* duet-bench: the types shared by its files and the one function each file offers the others.
 *
 * A run is a list of blocks, one per (routine, size). A block runs the same host data through
 * every selected device (one "job" per device: that device's buffers) and then through the CPU
 * baselines; its rows are then compared with their reference and printed. */
#ifndef DUET_BENCH_H
#define DUET_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "duet.h"

/* Working sets below the device's cache (duet_device_info.cache_bytes) are rotated among several
 * input sets, so that repeated runs do not find their inputs in cache; this size stands in where
 * the device reports none. */
#define BENCH_CACHE_FALLBACK (64u << 20)
#define BENCH_MAX_SETS 8
#define BENCH_MAX_SIZES 64
#define BENCH_MAX_DEVS 32
/* Without --reps: at most DEFAULT_REPS, fewer when a row would take longer than BUDGET_MS of
 * device time, but never fewer than MIN_REPS (MIN_CPU_REPS for the slow CPU baselines). */
#define BENCH_DEFAULT_REPS 25
#define BENCH_MIN_REPS 5
#define BENCH_MIN_CPU_REPS 3
#define BENCH_BUDGET_MS 500.0
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

/* gemm: C is m x n, A m x k, B k x n. transpose and copy: the input is m rows x n cols. */
typedef struct {
  size_t m, n, k;
} bench_size;

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
  int overlap;     /* the overlap command (bench_overlap.c) */
  int kernels;     /* the kernels command (bench_kernels.c) */
  int default_run; /* no subcommand: the best device only */
  bench_size sizes[BENCH_MAX_SIZES];
  int nsizes; /* 0: the defaults for each device's type */
  int backend;
  int device;
  const char *variants; /* NULL: all */
  /* launch: calls per round and warm-up calls */
  int reps, reps_given, warmup, warmup_given;
  int batch; /* launches per timed run */
  bench_format format;
  int total, cpu, verify;
  const char *plot;
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
  const char *variant;
  bench_verdict verdict;
  int sampled;
  double error, tol; /* gemm: relative Frobenius error; NaN where not computed */
  int timed;
  int reps, warmup, sets, batch;
  double med, min, max; /* ms per launch */
  int total_timed;
  double tmed, tmin, tmax; /* ms, host clock around write + kernel + read */
  double rate;             /* GFLOP/s or GB/s of the median; NaN when not timed */
  double vs_ref;           /* reference time / this time; NaN when there is none */
  const char *reference;   /* the reference row's variant */
  char note[512];
} bench_result;

typedef struct {
  bench_result *r;
  size_t n, cap;
} bench_results;

/* ---- launch: one row per call and device -------------------------------------------------- */
/* Without --reps / --warmup; the median of BENCH_LAUNCH_ROUNDS rounds is reported. */
#define BENCH_LAUNCH_CALLS 2000
#define BENCH_LAUNCH_WARMUP 200
#define BENCH_LAUNCH_ROUNDS 7
/* A row is flagged "backlog" when draining the queue after the calls added this much per call:
 * the device ran behind the host, and a full queue may have held the host back. */
#define BENCH_LAUNCH_BACKLOG 1.2

typedef struct {
  const char *backend;
  int device;
  char device_name[256];
  const char *call; /* "duet_copy", ... or the raw API: "cudaLaunchKernel", ... */
  int raw;          /* a raw launch: the baseline, or (same) the kernel of the duet call above */
  int same;
  char kernel[128]; /* what the row enqueues: bench_raw_copy, or duet's kernel(s), '+' between */
  bench_routine routine; /* the shape: size.m x size.n, and size.k for gemm */
  bench_size size;
  bench_verdict verdict;
  int timed;
  int calls, rounds, warmup;
  /* us per call, medians over rounds: host clock around the enqueues alone (with the min and max
   * round), host clock to the end of the duet_finish after them, duet events around them */
  double host_us, host_min_us, host_max_us, finish_us, device_us;
  double above_raw_us;  /* host_us - the baseline's host_us; NaN for the baseline or without it */
  double above_same_us; /* a duet call's host_us - its same kernel's; NaN for the raw rows */
  int backlog;
  char note[512];
} bench_launch_result;

/* ---- overlap and kernels (bench_overlap.c, bench_kernels.c) -------------------------------- */
/* overlap: the data in this many chunks, dealt to this many queues of a family. */
#define BENCH_OVERLAP_CHUNKS 16
#define BENCH_OVERLAP_QUEUES 3
/* Each command on the opened devices; returns the exit status. */
int bench_overlap(const bench_opts *o, bench_dev *devs, int ndev);
int bench_kernels(const bench_opts *o, bench_dev *devs, int ndev);

/* ---- bench_opts.c -------------------------------------------------------------------------- */
/* 0: run; 1: help was printed, exit 0; 2: a usage error was reported, exit 2. */
int bench_parse_opts(int argc, char **argv, bench_opts *o);
const char *bench_routine_name(bench_routine r);

/* ---- bench_rows.c -------------------------------------------------------------------------- */
const bench_row_def *bench_rows(size_t *n);
/* Whether the row runs in this block: selected by --variant, or the routine's reference. */
int bench_row_selected(const bench_opts *o, const bench_row_def *row);
/* Whether `name` names a row of a selected routine (for option checking). */
int bench_row_name_known(unsigned routines, const char *name);
/* Whether this build has a row of that name (a peer configure did not find has none). */
int bench_row_name_built(unsigned routines, const char *name);
/* Whether the row runs on dev. A peer row runs only where its library opens: the first time it
 * does not, stderr says so once and that peer's rows are left out. */
int bench_row_runs_on(const bench_row_def *row, const bench_dev *dev);
/* The peer whose row `name` is (BENCH_PEER_NONE for duet's rows and unknown names). */
bench_peer_id bench_row_peer(unsigned routines, const char *name);
/* Sets vs_ref and reference of the block's rows r[0..n); see the definition for the rules. */
void bench_rows_apply_reference(bench_result *r, size_t n);

/* ---- bench_run.c --------------------------------------------------------------------------- */
/* Puts the failed duet call and the context's last error into job->err; returns status. */
int bench_duet_error(bench_job *job, int status, const char *call);
/* Runs every selected row of this device on the block; appends one result per row. */
int bench_run_device(const bench_opts *o, bench_dev *dev, const bench_host *h, bench_results *out);
int bench_run_cpu(const bench_opts *o, const bench_host *h, bench_results *out);
/* How many rows bench_run_device and bench_run_cpu will add for a block of this size. */
int bench_device_rows(const bench_opts *o, const bench_dev *dev, bench_routine r);
int bench_cpu_rows(const bench_opts *o, bench_routine r, bench_size s);
/* A job's buffers (every input set uploaded) and nev events; on failure job->err says why. */
int bench_job_setup(bench_job *job, int nev);
void bench_job_free(bench_job *job);
/* One untimed run of the row on set 0, its output checked unless --no-verify: sets res's
 * verdict (and error, tol, note); a failed call returns its status with job->err filled. */
int bench_job_verify(bench_job *job, const bench_row_def *row, bench_result *res);

/* ---- bench_launch_raw.c -------------------------------------------------------------------- */
/* The raw launches of the launch command (bench_raw.h): the baseline, and for each duet call the
 * same kernel. A launch job's `raw` points to an array of them; a raw row's variant indexes it. */
typedef struct {
  struct bench_raw *handle;
  const struct bench_raw_backend *backend;
} bench_raw_launch;
/* The launch function of raw rows. */
int bench_launch_raw(bench_job *job, const bench_row_def *row, int set);
/* Opens the baseline on the copy job's set 0: 0, or -1 with job->err filled. */
int bench_launch_raw_copy(bench_job *job, bench_raw_launch *raw);
/* Has duet's row describe its call on job's set 0 without running it, names its kernels in
 * kernel (len bytes), and opens the same launch: 0; 1 where it cannot be replayed (a plan of
 * several launches, a kernel the bench has no copy of); -1 on failure; job->err says why. */
int bench_launch_raw_same(bench_job *job, const bench_row_def *row, bench_raw_launch *raw,
                          char *kernel, size_t len);
void bench_launch_raw_close(bench_raw_launch *raw);

/* ---- bench_launch.c ------------------------------------------------------------------------ */
/* The launch command on the opened devices; returns the exit status. */
int bench_launch(const bench_opts *o, bench_dev *devs, int ndev);
/* bench_launch_output.c: table and CSV streamed per device, JSON at the end. */
void bench_launch_output_begin(const bench_opts *o, bench_dev *devs, int ndev);
void bench_launch_output_device(const bench_opts *o, const bench_launch_result *r, int n);
void bench_launch_output_end(const bench_opts *o, bench_dev *devs, int ndev,
                             const bench_launch_result *all, int n);
int bench_cpu_sensible(const bench_host *h);

/* ---- bench_kernel.c ------------------------------------------------------------------------ */
/* The kernel command's options (codes below), its checks and source (2: bad usage), its run. */
enum {
  BENCH_OPT_GRID = 512,
  BENCH_OPT_BLOCK,
  BENCH_OPT_SHARED,
  BENCH_OPT_BYTES,
  BENCH_OPT_ARG,
  BENCH_OPT_OPTIONS
};
int bench_kernel_option(int c, const char *arg, bench_opts *o);
int bench_kernel_check(bench_opts *o, const char *file, const char *name);
/* Whether any of the kernel command's options was given. */
int bench_kernel_given(const bench_opts *o);
int bench_kernel(const bench_opts *o, bench_dev *devs, int ndev);

/* ---- bench_verify.c ------------------------------------------------------------------------ */
int bench_host_init(bench_host *h, bench_routine r, bench_size s, uint64_t seed, int verify);
void bench_host_free(bench_host *h);
/* Fills set `set` of the inputs (set 0 equals h->a / h->b). */
void bench_fill_random(float *dst, size_t n, uint64_t seed, int set, int which);
/* Compares out with the reference; sets verdict, error, tol and note of res. */
void bench_verify(const bench_host *h, const bench_row_def *row, const float *out,
                  bench_result *res);

/* ---- bench_cpu.c --------------------------------------------------------------------------- */
void bench_cpu_gemm_simple(const bench_host *h, float *out);
void bench_cpu_gemm_blocked(const bench_host *h, float *out);
void bench_cpu_transpose_simple(const bench_host *h, float *out);
void bench_cpu_transpose_blocked(const bench_host *h, float *out);

/* ---- bench_output.c ------------------------------------------------------------------------ */
void bench_output_begin(const bench_opts *o, bench_dev *devs, int ndev);
/* Prints a finished block (table and CSV stream; JSON is printed at the end). */
void bench_output_block(const bench_opts *o, const bench_result *r, size_t n);
void bench_output_end(const bench_opts *o, bench_dev *devs, int ndev, const bench_results *all);
double bench_rate(bench_routine r, bench_size s, double ms);
/* The row's rate: the routine's, except that the copy reference of a vector routine moves
 * 8 bytes per element. */
double bench_row_rate(const bench_row_def *row, bench_size s, double ms);
const char *bench_rate_unit(bench_routine r);
void bench_size_str(bench_routine r, bench_size s, char *buf, size_t len);
/* Shared with bench_launch_output.c. */
const char *bench_verdict_name(bench_verdict v);
void bench_csv_str(const char *s);
void bench_csv_num(double v, int present);
void bench_json_str(const char *s);
void bench_json_num(const char *key, double v, int present);
void bench_json_devices(bench_dev *devs, int ndev);
/* One line per device: "  cuda:0  NAME (GPU, N compute units<extra>)". */
void bench_device_lines(bench_dev *devs, int ndev, const char *extra);

/* ---- bench_plot.c -------------------------------------------------------------------------- */
int bench_plot(const char *png, const bench_results *all);

/* ---- bench_util.c -------------------------------------------------------------------------- */
double bench_now_ms(void); /* monotonic */
uint64_t bench_splitmix(uint64_t *state);
/* Sorts v in place; median, min and max of n > 0 values. */
void bench_stats(double *v, int n, double *med, double *min, double *max);
void bench_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Clears the progress line (a terminal's; lines written elsewhere stay). */
void bench_progress_done(void);
/* The run has `rows` rows: progress lines then show the row and the time left. */
void bench_progress_plan(int rows);
void bench_progress_row_done(void);
bench_result *bench_results_add(bench_results *rs);
void *bench_xmalloc(size_t bytes); /* exits with a message when out of memory */

/* ---- peers (tools/peer_*.c, each compiled only when configure found it) ------------------- */
struct bench_peers {
  void *cublas, *clblast;
  int cublas_tried, clblast_tried;
  char cublas_err[256], clblast_err[256];
};
void bench_peers_close(bench_peers *p);
const char *bench_peer_names(void); /* those compiled in, e.g. "cuBLAS, CLBlast", or "none" */
/* Opens the peer's library (once); 0, or -1 with the file and dlerror() in err. NONE: 0. */
int bench_peer_load(bench_peer_id id, char *err, size_t len);
/* One line per peer compiled in: the library it opened, or why it did not. */
void bench_peers_list(void);

#endif
