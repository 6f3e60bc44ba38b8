/* SPDX-License-Identifier: MIT */
/* duet-coldstart: what a fresh process pays before its first fast sgemm, with the program cache
 * cold, warm and off. Each run is a new process (this program run again with --child): it opens
 * a context, times its first fast n x n x n sgemm up to duet_finish, a second one (the steady
 * cost, to subtract), then opens a second context on the same device while the first is open and
 * times that context's first sgemm. The first row's cache is an empty directory, the second row
 * runs on what the first left there, the third has the cache off. Results are checked against a
 * CPU reference on a sample of C. Not a test: it prints times.
 * usage: duet-coldstart [-b cuda|opencl] [-d DEVICE] [-n N] [-r RUNS] [-k]
 * -r RUNS: each row's cells are medians over RUNS processes (default 1).
 * -k: the first call is a kernel of one's own instead (duet_program_create and duet_launch: NVRTC
 * on CUDA, whose CUBIN the disk cache keeps), a one-line kernel: its cost is the compiler's start
 * and the dialect's header, not the kernel's size.
 * On NVIDIA's OpenCL, run it with CUDA_CACHE_DISABLE=1 (the driver's own cache off); on PoCL
 * with POCL_KERNEL_CACHE=0. DUET_VERBOSE=1 prints where each program came from. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "duet.h"

extern char **environ;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct {
  duet_ctx *ctx;
  duet_buf *a, *b, *c;
  duet_program *prog; /* -k: the kernel of one's own, made by the first call */
} session;

/* -k: the first call is a kernel of one's own instead of the fast sgemm, through
 * duet_program_create and duet_launch (NVRTC on CUDA): x = 2 x + 1 over A's n * n floats. */
static int own_kernel;
static const char scale_source[] =
    "DUET_KERNEL void scale(DUET_GLOBAL float *x, float a, int n) {\n"
    "  const size_t i = DUET_GLOBAL_IDX(0);\n"
    "  if (i < (size_t)n) x[i] = a * x[i] + 1.0f;\n"
    "}\n";

/* The checked sgemm: C = A * B on n x n matrices of small integers (exact in float). */
static float *host_a, *host_b;

static int fail(const duet_ctx *ctx, const char *what, int st) {
  fprintf(stderr, "duet-coldstart: %s: %s: %s\n", what, duet_status_name(st),
          duet_ctx_last_error(ctx));
  return 1;
}

static int open_session(session *s, duet_backend b, int dev, size_t n, double *ms) {
  const size_t bytes = n * n * sizeof(float);
  const double t0 = now();
  int st = duet_ctx_create(&s->ctx, b, dev);
  *ms = 1e3 * (now() - t0);
  if (st) return fail(NULL, "duet_ctx_create", st);
  if ((st = duet_buf_create(s->ctx, bytes, &s->a)) ||
      (st = duet_buf_create(s->ctx, bytes, &s->b)) ||
      (st = duet_buf_create(s->ctx, bytes, &s->c)) ||
      (st = duet_buf_write(s->a, 0, host_a, bytes)) ||
      (st = duet_buf_write(s->b, 0, host_b, bytes)) || (st = duet_finish(s->ctx)))
    return fail(s->ctx, "buffers", st);
  return 0;
}

static int launch_own(session *s, size_t n) {
  int st = s->prog ? DUET_OK : duet_program_create(s->ctx, scale_source, NULL, &s->prog);
  if (st) return fail(s->ctx, "duet_program_create", st);
  const size_t grid[3] = {(n * n + 255) / 256, 1, 1};
  const unsigned block[3] = {256, 1, 1};
  const duet_arg args[] = {duet_arg_buf(s->a), duet_arg_f32(2.0f), duet_arg_i32((int)(n * n))};
  st = duet_launch(s->prog, "scale", grid, block, 0, args, 3);
  return st ? fail(s->ctx, "duet_launch scale", st) : 0;
}

/* The timed call, up to duet_finish: the fast sgemm, or (-k) the kernel of one's own, whose
 * first call on a context builds (or fetches) its program. */
static int call(session *s, size_t n, double *ms) {
  const double t0 = now();
  int st = DUET_OK;
  if (own_kernel) {
    if (launch_own(s, n)) return 1;
  } else {
    st = duet_sgemm(s->ctx, DUET_GEMM_FAST, DUET_NO_TRANS, DUET_NO_TRANS, n, n, n, 1.0f, s->a, n,
                    s->b, n, 0.0f, s->c, n);
  }
  if (!st) st = duet_finish(s->ctx);
  *ms = 1e3 * (now() - t0);
  return st ? fail(s->ctx, own_kernel ? "scale" : "duet_sgemm fast", st) : 0;
}

/* After a session's first call: 64 elements of C against a double-precision dot product, or
 * (-k) of A against 2 a + 1. */
static int check(session *s, size_t n) {
  float *row = malloc(n * sizeof *row);
  int bad = !row;
  for (int t = 0; t < 64 && !bad; t++) {
    const size_t i = (size_t)t * 7919 % n, j = (size_t)t * 104729 % n;
    if (duet_buf_read(own_kernel ? s->a : s->c, i * n * sizeof(float), row, n * sizeof(float)))
      bad = 1;
    double want = own_kernel ? 2.0 * host_a[i * n + j] + 1.0 : 0.0;
    for (size_t p = 0; !own_kernel && p < n; p++)
      want += (double)host_a[i * n + p] * host_b[p * n + j];
    if (!bad && fabs(row[j] - want) > 1e-4 * fabs(want) + 1e-3) {
      fprintf(stderr, "duet-coldstart: %s[%zu][%zu] = %g, want %g\n", own_kernel ? "A" : "C", i, j,
              row[j], want);
      bad = 1;
    }
  }
  free(row);
  return bad;
}

static void close_session(session *s) {
  duet_program_destroy(s->prog);
  duet_buf_destroy(s->a);
  duet_buf_destroy(s->b);
  duet_buf_destroy(s->c);
  duet_ctx_destroy(s->ctx);
}

/* One process's row: ctx, first, steady, ctx2, first2 in ms. */
static int child(duet_backend b, int dev, size_t n) {
  host_a = malloc(n * n * sizeof(float));
  host_b = malloc(n * n * sizeof(float));
  if (!host_a || !host_b) return 1;
  for (size_t i = 0; i < n * n; i++) {
    host_a[i] = (float)((i * 37 + 11) % 7) - 3.0f;
    host_b[i] = (float)((i * 53 + 5) % 5) - 2.0f;
  }
  session s1 = {0}, s2 = {0};
  double t[5];
  int bad = open_session(&s1, b, dev, n, &t[0]) || call(&s1, n, &t[1]) || check(&s1, n) ||
            call(&s1, n, &t[2]) || open_session(&s2, b, dev, n, &t[3]) || call(&s2, n, &t[4]) ||
            check(&s2, n);
  if (!bad) {
    duet_device_info info;
    if (duet_ctx_info(s1.ctx, &info) == DUET_OK) printf("device %s\n", info.name);
    printf("row %.1f %.1f %.1f %.1f %.1f\n", t[0], t[1], t[2], t[3], t[4]);
  }
  close_session(&s2);
  close_session(&s1);
  free(host_a);
  free(host_b);
  return bad;
}

/* Runs this program again with --child and DUET_CACHE_DIR=cache: one process's times in t. */
static int sample(char **argv, const char *cache, int say_device, double t[5]) {
  char line[512];
  int fds[2];
  if (setenv("DUET_CACHE_DIR", cache, 1) || pipe(fds)) return 1;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  pid_t pid;
  const int err = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  if (err) {
    fprintf(stderr, "duet-coldstart: cannot run itself: %s\n", strerror(err));
    close(fds[0]);
    return 1;
  }
  FILE *out = fdopen(fds[0], "r");
  int got = 0;
  while (out && fgets(line, sizeof line, out)) {
    if (!strncmp(line, "device ", 7) && say_device) printf("device: %s", line + 7);
    if (sscanf(line, "row %lf %lf %lf %lf %lf", &t[0], &t[1], &t[2], &t[3], &t[4]) == 5) got = 1;
  }
  if (out) fclose(out);
  int status = 0;
  waitpid(pid, &status, 0);
  return !got || !WIFEXITED(status) || WEXITSTATUS(status);
}

static int by_value(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* One process's times: the five of its row, then first - steady. */
typedef double times[6];

/* Prints one row: each column's median over the reps samples, which must all have worked. */
static void print_row(const char *label, times *s, int ok, int reps) {
  if (ok < reps) {
    printf("| %-5s | failed in %d of %d runs (see stderr) |\n", label, reps - ok, reps);
    return;
  }
  double m[6], v[reps];
  for (int col = 0; col < 6; col++) {
    for (int i = 0; i < reps; i++) v[i] = s[i][col];
    qsort(v, (size_t)reps, sizeof *v, by_value);
    m[col] = reps % 2 ? v[reps / 2] : 0.5 * (v[reps / 2 - 1] + v[reps / 2]);
  }
  printf("| %-5s | %10.1f | %12.1f | %13.1f | %13.1f | %17.1f | %18.1f |\n", label, m[0], m[1],
         m[2], m[5], m[3], m[4]);
}

int main(int argc, char **argv) {
  duet_backend b = DUET_BACKEND_AUTO;
  int dev = 0, is_child = 0, reps = 1;
  size_t n = 1024;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--child"))
      is_child = 1;
    else if (!strcmp(argv[i], "-b") && i + 1 < argc) {
      ++i;
      b = !strcmp(argv[i], "cuda")     ? DUET_BACKEND_CUDA
          : !strcmp(argv[i], "opencl") ? DUET_BACKEND_OPENCL
                                       : DUET_BACKEND_AUTO;
    } else if (!strcmp(argv[i], "-d") && i + 1 < argc)
      dev = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-n") && i + 1 < argc)
      n = (size_t)strtoul(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "-k"))
      own_kernel = 1;
    else if (!strcmp(argv[i], "-r") && i + 1 < argc && atoi(argv[i + 1]) > 0 &&
             atoi(argv[i + 1]) <= 99)
      reps = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: duet-coldstart [-b cuda|opencl] [-d DEVICE] [-n N] [-r RUNS] [-k]\n");
      return 2;
    }
  }
  if (is_child) return child(b, dev, n ? n : 1);
  /* The child's argv: ours plus --child. */
  char **cargv = calloc((size_t)argc + 2, sizeof *cargv);
  char root[] = "/tmp/duet-coldstart-XXXXXX", dir[sizeof root + 16];
  times *s = calloc(3 * (size_t)reps, sizeof *s);
  if (!cargv || !s || !mkdtemp(root)) {
    fprintf(stderr, "duet-coldstart: cannot make a cache directory: %s\n", strerror(errno));
    return 1;
  }
  for (int i = 0; i < argc; i++) cargv[i] = argv[i];
  cargv[argc] = "--child";
  char what[96];
  if (own_kernel)
    snprintf(what, sizeof what, "a kernel of one's own (scale) over %zu x %zu floats", n, n);
  else
    snprintf(what, sizeof what, "fast sgemm %zu x %zu x %zu", n, n, n);
  printf(
      "duet-coldstart: %s, backend %s, device %d; times in ms, each run a fresh process, each "
      "cell the median of %d run%s\n",
      what, duet_backend_name(b), dev, reps, reps > 1 ? "s" : "");
  /* Run by run, cold then warm then off, so that a change in the machine's load over the
   * runs falls on all three rows alike; each cold run has an empty directory of its own. */
  int ok[3] = {0, 0, 0};
  for (int r = 0; r < reps; r++) {
    snprintf(dir, sizeof dir, "%s/run-%d", root, r);
    const char *cache[3] = {dir, dir, "off"};
    if (mkdir(dir, 0700)) cache[0] = cache[1] = "/nonexistent/cannot-be-made";
    for (int row = 0; row < 3; row++) {
      double *t = s[row * reps + ok[row]];
      if (!sample(cargv, cache[row], r == 0 && row == 0, t)) {
        t[5] = t[1] - t[2];
        ok[row]++;
      }
    }
  }
  const char *call_name = own_kernel ? "launch" : "sgemm";
  printf(
      "| cache | ctx create | first %s | steady %s | first - steady | 2nd ctx create | 2nd ctx "
      "1st %s |\n|---|---|---|---|---|---|---|\n",
      call_name, call_name, call_name);
  static const char *const label[3] = {"cold", "warm", "off"};
  for (int row = 0; row < 3; row++) print_row(label[row], s + row * reps, ok[row], reps);
  char cmd[PATH_MAX + 16];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  const int bad = ok[0] < reps || ok[1] < reps || ok[2] < reps || system(cmd) != 0;
  free(s);
  free(cargv);
  return bad;
}
