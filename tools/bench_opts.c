/* SPDX-License-Identifier: MIT */
/* Command line: subcommands, options, usage. Every bad value is reported here, before any device
 * is touched, and exits 2. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_commands.h"
#include "bench_format.h"
#include "bench_kernel.h"
#include "bench_launch.h"
#include "bench_opts.h"
#include "bench_rows.h"
#include "bench_suite.h"

static void usage(FILE *f) {
  fprintf(
      f,
      "Usage: duet-bench [COMMAND] [OPTIONS]\n"
      "Times every duet kernel variant on every backend, next to cuBLAS and CLBlast when this\n"
      "build has them, on the same buffers and queue. Every result is checked against a CPU\n"
      "reference before it is timed.\n"
      "\n"
      "Commands:\n"
      "  (none)            a short default sweep of all routines on the best device\n"
      "  list              backends, peers and devices\n"
      "  gemm              C = A*B, FP32, row-major (GFLOP/s = 2mnk / time)\n"
      "      --suite       gemm: a suite of shapes instead of sizes (%d on GPUs, the same\n"
      "                    classes scaled down on CPUs): one row or column of C (m or\n"
      "                    n = 1, both orientations), a few (2 to 16), shallow k (1 to\n"
      "                    64), deep k (16384 to 262144), squares 32 to 4096, odd and\n"
      "                    prime sizes, the four transposes, tall and wide C (at deep\n"
      "                    k too), leading dimensions beyond the matrix, C of a few\n"
      "                    hundred rows at mid depth. Per shape and\n"
      "                    device: AUTO, the best of duet's own variants (naive only\n"
      "                    up to 2^28 multiply-adds), cuBLAS (an OpenCL GPU: its CUDA\n"
      "                    cuBLAS) and CLBlast, each ratio the other's median over\n"
      "                    AUTO's; then per device the geometric mean, the shapes under 0.85,\n"
      "                    where AUTO runs a variant slower than duet's best or tiled, and\n"
      "                    m = 1 and n = 1 against duet_buf_copy's bandwidth. --csv and\n"
      "                    --json: a row per shape and device, AUTO's plan in it;\n"
      "                    --plot: ratio per shape\n"
      "      --save FILE   with --suite: the table on stdout, and FILE.csv, FILE.json\n"
      "                    and FILE.png (with .gp and .dat) from the same run\n"
      "  transpose         out = in^T (GB/s = 2 * rows * cols * 4 bytes / time)\n"
      "  copy              the duet_copy kernel and duet_buf_copy\n"
      "  vadd              c = a + b over n floats (GB/s = 12n / time), beside cuBLAS and\n"
      "                    CLBlast saxpy (in place, unchecked: a three-stream reference)\n"
      "  reduce            the float sum of n floats (GB/s = 4n / time), beside CUB's\n"
      "                    DeviceReduce::Sum and CLBlast's Xsum\n"
      "  stencil           the 1D stencil at radius 3 and 16 (GB/s = 8n / time)\n"
      "                    vadd, reduce and stencil: -n N means N x N floats as one array;\n"
      "                    vs ref: GB/s over duet_buf_copy's\n"
      "  all               gemm, transpose, copy, vadd, reduce and stencil\n"
      "  launch            the host cost of a small call: us per call of duet_copy,\n"
      "                    duet_transpose and duet_sgemm (AUTO) on 1 x 1 matrices\n"
      "                    (or -n / -m -n -k), against a raw cudaLaunchKernel or\n"
      "                    clEnqueueNDRangeKernel of a minimal copy kernel on the same\n"
      "                    queue, and the same kernel through duet_program_create and\n"
      "                    duet_launch (the difference is duet's own work per launch);\n"
      "                    host clock around the enqueues alone and up to the end of the\n"
      "                    duet_finish after them, and device time from duet events\n"
      "                    (--variant, --cpu, --total and --plot do not apply)\n"
      "  kernel FILE NAME  a kernel of your own: kernel NAME of the source FILE, written in\n"
      "                    duet_kernel.h's dialect, built by duet_program_create and run\n"
      "                    by duet_launch with --grid, --block, --shared and the --arg\n"
      "                    values, timed as the routines are (not verified: duet-bench has\n"
      "                    no reference for it)\n"
      "  overlap           copy in, transpose and copy out of %d chunks of an N x N matrix\n"
      "                    (-n; default 4096, 1024 on CPUs): from pageable memory on one\n"
      "                    queue, pinned memory on one queue, and pinned memory on %d\n"
      "                    queues of a family, chunks dealt round-robin or a queue per\n"
      "                    stage; each stage alone, copies in and out at once, and the\n"
      "                    bounds overlap approaches; median of --reps runs (default %d),\n"
      "                    then a timeline of each chunk's stages from device events\n"
      "                    ($DUET_BENCH_OVERLAP_CHUNKS: 1-64 chunks; $DUET_BENCH_OVERLAP_QUEUES:\n"
      "                    3-8 queues for the dealt layout)\n"
      "  plan              what duet_sgemm would run for one shape (-m -n -k, --ta, --tb;\n"
      "                    default 1024^3) on each device, per --variant (gemm names or\n"
      "                    all; default auto), as duet_sgemm_plan describes it: the variant\n"
      "                    AUTO picks, packed operands, and each piece of C with its\n"
      "                    kernel, k slices, stream-K share and scratch; nothing is run\n"
      "                    (--ta, --tb, --lda, --ldb: see Sizes)\n"
      "  kernels           every kernel as loaded on each device: block, shared memory,\n"
      "                    registers, local memory, and CUDA's theoretical occupancy\n"
      "                    (built with configure --enable-bench-internals only)\n"
      "\n"
      "Sizes (default: a sweep chosen for each device's type; launch: 1, one size only):\n"
      "  -n N              square: N x N (gemm: N x N x N)\n"
      "  -m M -n N -k K    gemm C (M x N) = A (M x K) * B (K x N); transpose/copy M x N\n"
      "      --sizes LIST  a sweep, e.g. 512,1024,2048 or 1000x1000x64 (M x N [x K])\n"
      "      --ta, --tb    gemm, plan: A, B stored transposed (K x M, N x K)\n"
      "      --lda N       gemm, plan: A's leading dimension, at least its stored\n"
      "                    columns (default: those, packed); needs -m/-n/-k or --sizes\n"
      "      --ldb N       the same for B\n"
      "      --ldc N       gemm: the same for C (checked: nothing is written there)\n"
      "Selection:\n"
      "  -b, --backend B   cuda, opencl or all (default: all backends with a device;\n"
      "                    with no command: the best device only)\n"
      "  -d, --device N    device number within each backend, or all (default: $DUET_DEVICE\n"
      "                    or 0)\n"
      "      --variant L   comma-separated, or all (default). gemm: naive, coalesced, tiled,\n"
      "                    register, fast, auto, cublas, cublas-tf32, clblast; transpose:\n"
      "                    naive, coalesced, padded, padded-tall, register, auto,\n"
      "                    cublas-geam, clblast; copy: copy; vadd: vadd, cublas-saxpy,\n"
      "                    clblast-saxpy;\n"
      "                    reduce: naive, sequential, shuffle, atomic, auto, cub,\n"
      "                    clblast-sum; stencil: naive-r3, shared-r3, register-r3, auto-r3\n"
      "                    and the same with -r16.\n"
      "                    The reference (cublas or buf_copy) always runs. all leaves out\n"
      "                    auto, which only repeats the variant it picks: name it to time\n"
      "                    its choice and its cost (e.g. --variant all,auto)\n"
      "      --cpu         add the CPU baselines (simple and blocked loops) where sensible\n"
      "The kernel command:\n"
      "      --grid X[,Y[,Z]]   blocks along x, y, z (missing ones are 1)\n"
      "      --block X[,Y[,Z]]  threads per block\n"
      "      --shared BYTES     dynamic shared memory per block (default 0)\n"
      "      --arg SPEC    the next argument, in order: buf:BYTES (a buffer of random floats),\n"
      "                    i32:V, i64:V or f32:V\n"
      "      --options S   compiler options: -DNAME[=VALUE] and -IDIR only\n"
      "      --bytes N     bytes one launch moves: the rate column's GB/s\n"
      "Timing:\n"
      "  -r, --reps N      timed runs; the median is reported (default: up to %d, fewer\n"
      "                    when a row would exceed %.1f s, at least %d). launch: calls\n"
      "                    per round (default %d); the median of %d rounds is reported\n"
      "  -w, --warmup N    untimed runs before timing (default 3; launch: calls, %d)\n"
      "      --batch N     time N back-to-back launches per run and divide by N (default\n"
      "                    1; gemm --suite: auto): a run of one launch also counts the\n"
      "                    launch latency between the two events, which dominates kernels\n"
      "                    of a few microseconds; auto: per row, enough launches for a\n"
      "                    run to last %.1f ms by the warm-up's estimate, at most %d\n"
      "                    (the CSV's warmup_ms column holds that estimate)\n"
      "      --total       also time host-to-device copy + kernel + device-to-host copy\n"
      "      --no-verify   skip the CPU check (the output says so)\n"
      "      --seed N      random input seed (default 1)\n"
      "Output (tables go to stdout; progress, with the row and an estimate of the time\n"
      "left, to a terminal's stderr; DUET_BENCH_PROGRESS=1 shows it anywhere, 0 never):\n"
      "      --csv         CSV instead of a table\n"
      "      --json        JSON instead of a table\n"
      "      --plot F.png  throughput against size, one line per backend and variant\n"
      "  -h, --help        this text\n"
      "      --version     the duet version, and exit\n"
      "\n"
      "Exit status: 0 ok; 1 a result failed verification, a call failed, or a device was\n"
      "missing or could not be opened; 2 bad usage, told before any device is touched: a bad\n"
      "option, what this build lacks (a backend, a peer, the kernels command), a size larger\n"
      "than the host's or a device's memory.\n",
      bench_suite_count(0), BENCH_OVERLAP_CHUNKS, BENCH_OVERLAP_QUEUES, BENCH_MIN_REPS,
      BENCH_DEFAULT_REPS, BENCH_BUDGET_MS / 1000.0, BENCH_MIN_REPS, BENCH_LAUNCH_CALLS,
      BENCH_LAUNCH_ROUNDS, BENCH_LAUNCH_WARMUP, BENCH_BATCH_RUN_MS, BENCH_BATCH_MAX);
}

static int bad(const char *fmt, const char *arg) {
  fprintf(stderr, "duet-bench: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry 'duet-bench --help'.\n");
  return 2;
}

/* A decimal number in [lo, hi], nothing else (strtoull would accept "-1" and "12abc"). */
static int number(const char *s, unsigned long long lo, unsigned long long hi,
                  unsigned long long *out) {
  if (!s || !isdigit((unsigned char)s[0])) return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

/* "N", "MxN" or "MxNxK"; missing dimensions repeat the last one given. */
static int parse_size(const char *s, bench_size *out) {
  size_t d[3] = {0, 0, 0};
  int nd = 0;
  char buf[96];
  if (strlen(s) >= sizeof buf) return -1;
  strcpy(buf, s);
  for (char *save = NULL, *tok = strtok_r(buf, "x", &save); tok; tok = strtok_r(NULL, "x", &save)) {
    unsigned long long v;
    if (nd == 3 || number(tok, 1, 1ull << 20, &v)) return -1;
    d[nd++] = (size_t)v;
  }
  if (nd == 0 || s[strlen(s) - 1] == 'x' || strstr(s, "xx")) return -1;
  for (int i = nd; i < 3; i++) d[i] = d[nd - 1];
  *out = (bench_size){.m = d[0], .n = d[1], .k = d[2]};
  return 0;
}

static int parse_sizes(const char *list, bench_opts *o) {
  char buf[1024];
  if (strlen(list) >= sizeof buf || !*list || list[strlen(list) - 1] == ',' || strstr(list, ",,"))
    return bad("bad --sizes '%s': give sizes like 512,1024 or 1000x1000x64", list);
  strcpy(buf, list);
  for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (o->nsizes == BENCH_MAX_SIZES) return bad("too many --sizes (at most 128): '%s'", list);
    if (parse_size(tok, &o->sizes[o->nsizes]))
      return bad("bad size '%s' in --sizes: give N, MxN or MxNxK, each 1 to 1048576", tok);
    o->nsizes++;
  }
  return 0;
}

static int check_variants(const bench_opts *o) {
  if (!o->variants || strcmp(o->variants, "all") == 0) return 0;
  char buf[512], why[512];
  const char *v = o->variants;
  if (strlen(v) >= sizeof buf || !*v || v[strlen(v) - 1] == ',' || strstr(v, ",,"))
    return bad("bad --variant '%s'", v);
  strcpy(buf, v);
  for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
    if (strcmp(tok, "all") == 0)
      continue;
    else if (!bench_row_name_known(o->routines, tok))
      return bad("unknown --variant '%s' for this command (see --help)", tok);
    else if (!bench_row_name_built(o->routines, tok))
      return bad(
          "--variant '%s': that peer is not built into this duet-bench (configure did not "
          "find it; see 'duet-bench list')",
          tok);
    else if (bench_peer_load(bench_row_peer(o->routines, tok), why, sizeof why)) {
      /* Asked for by name, a peer that cannot be opened is bad usage, said before the run. */
      char msg[700];
      snprintf(msg, sizeof msg, "--variant '%s': %s", tok, why);
      return bad("%s", msg);
    }
  return 0;
}

/* overlap and kernels take a device selection, one square size (overlap) and the timing
 * options, and print a table of their own. */
static int check_own(const bench_opts *o, const char *cmd) {
  char msg[128];
  snprintf(msg, sizeof msg,
           "%s takes none of --variant, --cpu, --total, --plot, --batch, --csv "
           "and --json",
           cmd);
  if (o->variants || o->cpu || o->total || o->plot || o->batch != 1 || o->format != BENCH_OUT_TABLE)
    return bad("%s", msg);
  if (o->nsizes > 1 || (o->nsizes && (o->sizes[0].m != o->sizes[0].n || o->kernels)))
    return bad("%s", o->kernels ? "kernels takes no size" : "overlap takes one square size, -n N");
  return 0;
}

/* launch times one shape and one set of calls, with its own defaults for --reps and --warmup. */
static int check_launch(bench_opts *o) {
  if (o->variants) return bad("%s", "launch takes no --variant: it times one call per routine");
  if (o->total || o->cpu) return bad("%s", "launch takes neither --total nor --cpu");
  if (o->plot) return bad("%s", "launch has nothing to --plot");
  if (o->nsizes > 1) return bad("%s", "launch takes one size, not a sweep");
  if (!o->reps_given) o->reps = BENCH_LAUNCH_CALLS;
  if (!o->warmup_given) o->warmup = BENCH_LAUNCH_WARMUP;
  return 0;
}

/* --ta, --tb, --lda, --ldb and --ldc: gemm's (every size of its sweep) and plan's (no --ldc:
 * duet_sgemm_plan takes none). A leading dimension needs the sizes it must fit, given. */
static int check_layout(bench_opts *o) {
  const int ld = o->lda || o->ldb || o->ldc;
  if (!(o->ta || o->tb || ld)) return 0;
  if (!o->plan && (o->routines != 1u << BENCH_GEMM || o->default_run))
    return bad("%s", "--ta, --tb, --lda, --ldb and --ldc are gemm's and plan's");
  if (o->plan && o->ldc) return bad("%s", "plan takes no --ldc: it plans for alpha = 1, beta = 0");
  if (ld && !o->nsizes)
    return bad("%s", "--lda, --ldb and --ldc need the sizes: -m/-n/-k or --sizes");
  for (int i = 0; i < o->nsizes; i++) {
    bench_size *s = &o->sizes[i];
    s->ta = o->ta;
    s->tb = o->tb;
    const size_t acols = s->ta ? s->m : s->k, bcols = s->tb ? s->k : s->n;
    char msg[160];
    if ((o->lda && o->lda < acols) || (o->ldb && o->ldb < bcols) || (o->ldc && o->ldc < s->n)) {
      snprintf(msg, sizeof msg, "%zux%zux%zu: --lda must be >= %zu, --ldb >= %zu, --ldc >= %zu",
               s->m, s->n, s->k, acols, bcols, s->n);
      return bad("leading dimension too small for %s", msg);
    }
    s->lda = o->lda;
    s->ldb = o->ldb;
    s->ldc = o->ldc;
  }
  return 0;
}

/* gemm --suite brings its own shapes and the copy they are compared with; the CPU baselines
 * and --total would multiply its time for nothing it reports. */
static int check_suite(bench_opts *o) {
  if (!o->suite) return bad("%s", "--save is gemm --suite's");
  if (o->routines != 1u << BENCH_GEMM || o->default_run)
    return bad("%s", "--suite is gemm's: duet-bench gemm --suite");
  if (o->nsizes) return bad("%s", "--suite brings its own shapes: give no size");
  if (o->cpu || o->total) return bad("%s", "--suite takes neither --cpu nor --total");
  if (o->ta || o->tb || o->lda || o->ldb || o->ldc)
    return bad("%s", "--suite brings its own transposes and leading dimensions");
  if (o->save && o->format != BENCH_OUT_TABLE)
    return bad("%s", "--save writes the CSV and JSON itself: leave out --csv and --json");
  int st = check_variants(o);
  if (st) return st;
  if (!o->batch_given) o->batch = BENCH_BATCH_AUTO;
  o->routines |= 1u << BENCH_COPY; /* buf_copy, for the bandwidth of m = 1 and n = 1 */
  /* Every ratio is to AUTO: it runs whatever --variant says. */
  static char with_auto[sizeof "auto," + 512];
  if (!o->variants)
    o->variants = BENCH_SUITE_VARIANTS;
  else if (snprintf(with_auto, sizeof with_auto, "auto,%s", o->variants) < (int)sizeof with_auto)
    o->variants = with_auto;
  return 0;
}

enum {
  OPT_SIZES = 256,
  OPT_VARIANT,
  OPT_CSV,
  OPT_JSON,
  OPT_TOTAL,
  OPT_CPU,
  OPT_NO_VERIFY,
  OPT_PLOT,
  OPT_SEED,
  OPT_BATCH,
  OPT_VERSION,
  OPT_TA,
  OPT_TB,
  OPT_SUITE,
  OPT_SAVE,
  OPT_LDA,
  OPT_LDB,
  OPT_LDC
};

static const struct option long_opts[] = {
    {"sizes", required_argument, NULL, OPT_SIZES},
    {"backend", required_argument, NULL, 'b'},
    {"device", required_argument, NULL, 'd'},
    {"variant", required_argument, NULL, OPT_VARIANT},
    {"reps", required_argument, NULL, 'r'},
    {"warmup", required_argument, NULL, 'w'},
    {"csv", no_argument, NULL, OPT_CSV},
    {"json", no_argument, NULL, OPT_JSON},
    {"total", no_argument, NULL, OPT_TOTAL},
    {"cpu", no_argument, NULL, OPT_CPU},
    {"no-verify", no_argument, NULL, OPT_NO_VERIFY},
    {"plot", required_argument, NULL, OPT_PLOT},
    {"seed", required_argument, NULL, OPT_SEED},
    {"batch", required_argument, NULL, OPT_BATCH},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {"ta", no_argument, NULL, OPT_TA},
    {"tb", no_argument, NULL, OPT_TB},
    {"suite", no_argument, NULL, OPT_SUITE},
    {"save", required_argument, NULL, OPT_SAVE},
    {"lda", required_argument, NULL, OPT_LDA},
    {"ldb", required_argument, NULL, OPT_LDB},
    {"ldc", required_argument, NULL, OPT_LDC},
    {"grid", required_argument, NULL, BENCH_OPT_GRID},
    {"block", required_argument, NULL, BENCH_OPT_BLOCK},
    {"shared", required_argument, NULL, BENCH_OPT_SHARED},
    {"bytes", required_argument, NULL, BENCH_OPT_BYTES},
    {"arg", required_argument, NULL, BENCH_OPT_ARG},
    {"options", required_argument, NULL, BENCH_OPT_OPTIONS},
    {NULL, 0, NULL, 0},
};

static int parse_option(int c, const char *arg, bench_opts *o, size_t dims[3]) {
  unsigned long long v;
  switch (c) {
    case 'm':
    case 'n':
    case 'k':
      if (number(arg, 1, 1ull << 20, &v)) return bad("bad size '%s': give 1 to 1048576", arg);
      dims[c == 'm' ? 0 : c == 'n' ? 1 : 2] = (size_t)v;
      return 0;
    case OPT_SIZES: return parse_sizes(arg, o);
    case OPT_BATCH:
      o->batch_given = 1;
      if (strcmp(arg, "auto") == 0) {
        o->batch = BENCH_BATCH_AUTO;
        return 0;
      }
      if (number(arg, 1, 1000, &v)) return bad("bad --batch '%s': give 1 to 1000 or auto", arg);
      o->batch = (int)v;
      return 0;
    case 'b':
      if (strcmp(arg, "cuda") == 0)
        o->backend = DUET_BACKEND_CUDA;
      else if (strcmp(arg, "opencl") == 0)
        o->backend = DUET_BACKEND_OPENCL;
      else if (strcmp(arg, "all") == 0)
        o->backend = BENCH_BACKEND_ALL;
      else
        return bad("bad --backend '%s': give cuda, opencl or all", arg);
      /* What this build lacks is bad usage, as a peer that is not built is (exit 2). */
      if (o->backend != BENCH_BACKEND_ALL && !duet_backend_built((duet_backend)o->backend))
        return bad(
            "--backend %s: that backend is not built into this duet (configure "
            "--with-cuda / --with-opencl; see 'duet-bench list')",
            arg);
      return 0;
    case 'd':
      if (strcmp(arg, "all") == 0)
        o->device = BENCH_DEVICE_ALL;
      else if (number(arg, 0, 1024, &v))
        return bad("bad --device '%s': give a number or all", arg);
      else
        o->device = (int)v;
      return 0;
    case OPT_VARIANT: o->variants = arg; return 0;
    case OPT_TA: o->ta = 1; return 0;
    case OPT_TB: o->tb = 1; return 0;
    case OPT_LDA:
    case OPT_LDB:
    case OPT_LDC:
      if (number(arg, 1, 1ull << 21, &v)) return bad("bad leading dimension '%s'", arg);
      *(c == OPT_LDA ? &o->lda : c == OPT_LDB ? &o->ldb : &o->ldc) = (size_t)v;
      return 0;
    case 'r':
      if (number(arg, 1, 10000, &v)) return bad("bad --reps '%s': give 1 to 10000", arg);
      o->reps = (int)v;
      o->reps_given = 1;
      return 0;
    case 'w':
      if (number(arg, 0, 1000, &v)) return bad("bad --warmup '%s': give 0 to 1000", arg);
      o->warmup = (int)v;
      o->warmup_given = 1;
      return 0;
    case OPT_CSV:
    case OPT_JSON: {
      bench_format f = c == OPT_CSV ? BENCH_OUT_CSV : BENCH_OUT_JSON;
      if (o->format != BENCH_OUT_TABLE && o->format != f)
        return bad("%s", "--csv and --json exclude each other");
      o->format = f;
      return 0;
    }
    case OPT_TOTAL: o->total = 1; return 0;
    case OPT_CPU: o->cpu = 1; return 0;
    case OPT_NO_VERIFY: o->verify = 0; return 0;
    case OPT_PLOT:
      if (!*arg) return bad("%s", "--plot needs a file name");
      o->plot = arg;
      return 0;
    case OPT_SUITE: o->suite = 1; return 0;
    case OPT_SAVE:
      if (!*arg) return bad("%s", "--save needs a file name (without .csv, .json, .png)");
      o->save = arg;
      return 0;
    case OPT_SEED:
      if (number(arg, 0, ~0ull, &v)) return bad("bad --seed '%s'", arg);
      o->seed = v;
      return 0;
  }
  if (c >= BENCH_OPT_GRID && c <= BENCH_OPT_OPTIONS) return bench_kernel_option(c, arg, o);
  return bad("unhandled option '%s'", arg ? arg : "");
}

static int parse_command(const char *cmd, bench_opts *o) {
  if (strcmp(cmd, "list") == 0) {
    o->list = 1;
    return 0;
  }
  if (strcmp(cmd, "launch") == 0) {
    o->launch = 1;
    return 0;
  }
  if (strcmp(cmd, "kernel") == 0) {
    o->user_kernel = 1;
    return 0;
  }
  if (strcmp(cmd, "plan") == 0) {
    o->plan = 1;
    return 0;
  }
  if (strcmp(cmd, "overlap") == 0 || strcmp(cmd, "kernels") == 0) {
    *(cmd[0] == 'o' ? &o->overlap : &o->kernels) = 1;
    return 0;
  }
  if (strcmp(cmd, "all") == 0) {
    o->routines = (1u << BENCH_NROUTINES) - 1;
    return 0;
  }
  for (int r = 0; r < BENCH_NROUTINES; r++)
    if (strcmp(cmd, bench_routine_name((bench_routine)r)) == 0) {
      o->routines = 1u << r;
      return 0;
    }
  return bad(
      "unknown command '%s': give list, gemm, transpose, copy, all, launch, overlap, "
      "plan, kernels or kernel",
      cmd);
}

int bench_parse_opts(int argc, char **argv, bench_opts *o) {
  memset(o, 0, sizeof *o);
  o->backend = BENCH_BACKEND_ALL;
  o->device = BENCH_DEVICE_DEFAULT;
  o->reps = BENCH_DEFAULT_REPS;
  o->warmup = 3;
  o->batch = 1;
  o->verify = 1;
  o->seed = 1;
  const char *hook = getenv("DUET_BENCH_TEST_WRONG_SIZE");
  o->wrong_size = hook && strcmp(hook, "1") == 0;
  const char *scale = getenv("DUET_BENCH_TEST_SUITE_SCALE");
  o->suite_scale = scale ? atoi(scale) : 0;

  int backend_given = 0, st, c;
  size_t dims[3] = {0, 0, 0};
  /* Our own messages: getopt's would name the libtool wrapper's binary, not duet-bench. */
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":m:n:k:b:d:r:w:h", long_opts, NULL)) != -1) {
    if (c == 'h') {
      usage(stdout);
      return 1;
    }
    if (c == OPT_VERSION) {
      printf("duet-bench (duet) %s\n", duet_version());
      return 1;
    }
    if (c == ':') return bad("option '%s' needs a value", argv[optind - 1]);
    if (c == '?') return bad("unknown option '%s'", argv[optind - 1]);
    if (c == 'b') backend_given = 1;
    if ((st = parse_option(c, optarg, o, dims))) return st;
  }
  /* kernel takes FILE and NAME after it; no other command takes an argument. */
  const int operands = optind < argc && strcmp(argv[optind], "kernel") == 0 ? 2 : 0;
  if (operands && argc - optind != 3) return bad("%s", "kernel needs a FILE and a kernel NAME");
  if (optind < argc - 1 - operands)
    return bad("unexpected argument '%s'", argv[optind + 1 + operands]);
  if (optind < argc) {
    if ((st = parse_command(argv[optind], o))) return st;
  } else {
    o->default_run = 1;
    o->routines = (1u << BENCH_NROUTINES) - 1;
    if (!backend_given) o->backend = DUET_BACKEND_AUTO;
  }
  if (dims[0] || dims[1] || dims[2]) {
    if (o->nsizes) return bad("%s", "give either -m/-n/-k or --sizes, not both");
    size_t base = dims[1] ? dims[1] : dims[0] ? dims[0] : dims[2];
    for (int i = 0; i < 3; i++)
      if (!dims[i]) dims[i] = base;
    o->sizes[0] = (bench_size){.m = dims[0], .n = dims[1], .k = dims[2]};
    o->nsizes = 1;
  }
  if (o->user_kernel) return bench_kernel_check(o, argv[optind + 1], argv[optind + 2]);
  if (bench_kernel_given(o))
    return bad("%s",
               "--grid, --block, --shared, --arg, --options and --bytes are the kernel "
               "command's");
  if (o->suite || o->save) return check_suite(o);
  if ((st = check_layout(o))) return st;
  if (o->plan) {
    if (o->cpu || o->total || o->plot || o->batch != 1 || o->format != BENCH_OUT_TABLE)
      return bad("%s", "plan takes none of --cpu, --total, --plot, --batch, --csv and --json");
    return bench_plan_check(o)
               ? bad("%s", "plan takes one size and --variant of duet_sgemm's variants or all")
               : 0;
  }
  if (o->overlap) return check_own(o, "overlap");
#ifndef DUET_BENCH_INTERNALS
  if (o->kernels)
    return bad("%s",
               "kernels is not built into this duet-bench: it reads libduet's internals "
               "(configure --enable-bench-internals)");
#endif
  if (o->kernels) return check_own(o, "kernels");
  return o->launch ? check_launch(o) : check_variants(o);
}
