/* SPDX-License-Identifier: MIT */
/* duet-bench: command dispatch, device selection and the loop over blocks (routine x size). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bench_commands.h"
#include "bench_fit.h"
#include "bench_format.h"
#include "bench_kernel.h"
#include "bench_launch.h"
#include "bench_opts.h"
#include "bench_output.h"
#include "bench_plot.h"
#include "bench_rows.h"
#include "bench_run.h"
#include "bench_suite.h"
#include "bench_util.h"
#include "bench_verify.h"

static const duet_backend all_backends[] = {DUET_BACKEND_CUDA, DUET_BACKEND_OPENCL};
#define N_BACKENDS (sizeof all_backends / sizeof all_backends[0])

static int dev_open(bench_dev *d, duet_backend b, int device) {
  memset(d, 0, sizeof *d);
  int st = duet_ctx_create(&d->ctx, b, device);
  if (st) return st;
  d->backend = duet_ctx_backend(d->ctx);
  d->device = duet_ctx_device(d->ctx);
  if ((st = duet_ctx_info(d->ctx, &d->info))) {
    fprintf(stderr, "duet-bench: duet_ctx_info: %s\n", duet_ctx_last_error(d->ctx));
    duet_ctx_destroy(d->ctx);
    d->ctx = NULL;
    return st;
  }
  d->is_cpu = d->info.type == DUET_DEVICE_CPU;
  d->peers = calloc(1, sizeof *d->peers);
  if (!d->peers) {
    duet_ctx_destroy(d->ctx);
    d->ctx = NULL;
    return DUET_ENOMEM;
  }
  return DUET_OK;
}

static void dev_close(bench_dev *d) {
  bench_peers_close(d->peers);
  duet_ctx_destroy(d->ctx);
  memset(d, 0, sizeof *d);
}

/* The tuning set the device got and every value its kernels use, wrapped under the device. */
static void print_tuning(const duet_ctx *ctx) {
  const char *name;
  int value, col = printf("%14s tuning %s:", "", duet_ctx_tuning(ctx));
  for (int i = 0; duet_ctx_tunable(ctx, i, &name, &value) == DUET_OK; i++) {
    char item[64];
    int len = snprintf(item, sizeof item, " %s=%d", name, value);
    if (col + len > 100) col = printf("\n%21s", "");
    col += printf("%s", item);
  }
  printf("\n");
}

/* The plot and --save's files are written after the whole run: a path that cannot be written is
 * bad usage, said before the run rather than after it. A file made only to find out is removed
 * again. */
static int plot_path_writable(const char *path, const char *what) {
  const int existed = access(path, F_OK) == 0;
  FILE *f = fopen(path, "a");
  if (!f) {
    fprintf(stderr, "duet-bench: cannot write the %s '%s': %s\n", what, path, strerror(errno));
    return 0;
  }
  fclose(f);
  if (!existed) remove(path);
  return 1;
}

/* --save's files, checked as --plot's is: FILE.csv stands for the four. */
static int save_path_writable(const char *prefix) {
  char *csv = bench_xmalloc(strlen(prefix) + 5);
  sprintf(csv, "%s.csv", prefix);
  const int ok = plot_path_writable(csv, "--save file");
  free(csv);
  return ok;
}

static int do_list(void) {
  printf("duet %s\nbackends compiled in:", duet_version());
  for (size_t i = 0; i < N_BACKENDS; i++)
    if (duet_backend_built(all_backends[i])) printf(" %s", duet_backend_name(all_backends[i]));
  printf("\npeers compiled in: %s\n", bench_peer_names());
  bench_peers_list();
  printf("\n");
  printf("%-8s %-4s %-5s %5s %10s %13s  %s\n", "backend", "dev", "type", "CUs", "memory",
         "shared/block", "name");
  int found = 0, failed = 0;
  for (size_t i = 0; i < N_BACKENDS; i++) {
    duet_backend b = all_backends[i];
    int count = 0;
    if (!duet_backend_built(b)) continue;
    if (duet_device_count(b, &count) || count == 0) {
      printf("%-8s (no device)\n", duet_backend_name(b));
      continue;
    }
    for (int dn = 0; dn < count; dn++) {
      bench_dev d;
      if (dev_open(&d, b, dn)) {
        printf("%-8s %-4d (cannot open: %s)\n", duet_backend_name(b), dn,
               duet_ctx_last_error(NULL));
        failed = 1;
        continue;
      }
      char mem[32], shared[32];
      bench_bytes_str((double)d.info.global_mem_bytes, mem, sizeof mem);
      bench_bytes_str((double)d.info.shared_mem_bytes, shared, sizeof shared);
      printf("%-8s %-4d %-5s %5u %10s %13s  %s (%s)\n", duet_backend_name(b), dn,
             d.is_cpu ? "cpu" : "gpu", d.info.compute_units, mem, shared, d.info.name,
             d.info.version);
      print_tuning(d.ctx);
      found++;
      dev_close(&d);
    }
  }
  if (!found) printf("\nno device: duet-bench has nothing to run on here\n");
  return failed;
}

/* --save FILE: the suite's plot as FILE.png (and .gp, .dat). */
static int save_plot(const char *prefix, const bench_results *all) {
  char *png = bench_xmalloc(strlen(prefix) + 5);
  sprintf(png, "%s.png", prefix);
  const int failed = bench_suite_plot(png, all);
  free(png);
  return failed;
}

/* The devices this run uses: the best one for the default run, else the selected backends'. */
static int open_devices(const bench_opts *o, bench_dev *devs, int *ndev) {
  *ndev = 0;
  if (o->backend == DUET_BACKEND_AUTO) {
    int dn = o->device == BENCH_DEVICE_ALL ? BENCH_DEVICE_DEFAULT : o->device;
    if (dev_open(&devs[0], DUET_BACKEND_AUTO, dn)) {
      fprintf(stderr, "duet-bench: no device to run on: %s\n", duet_ctx_last_error(NULL));
      return 1;
    }
    *ndev = 1;
    return 0;
  }
  for (size_t i = 0; i < N_BACKENDS; i++) {
    duet_backend b = all_backends[i];
    int explicit_backend = o->backend == (int)b, count = 0;
    if (o->backend != BENCH_BACKEND_ALL && !explicit_backend) continue;
    if (!duet_backend_built(b)) continue; /* named with --backend: refused by bench_opts.c */
    if (duet_device_count(b, &count) || count == 0) {
      if (!explicit_backend) continue;
      fprintf(stderr, "duet-bench: %s has no device\n", duet_backend_name(b));
      return 1;
    }
    int first = o->device == BENCH_DEVICE_ALL ? 0 : o->device;
    int last = o->device == BENCH_DEVICE_ALL ? count - 1 : o->device;
    if (o->device >= count) {
      fprintf(stderr, "duet-bench: %s has %d device%s, no device %d\n", duet_backend_name(b), count,
              count == 1 ? "" : "s", o->device);
      if (explicit_backend) return 1;
      continue;
    }
    for (int dn = first; dn <= last && *ndev < BENCH_MAX_DEVS; dn++) {
      if (dev_open(&devs[*ndev], b, dn)) {
        fprintf(stderr, "duet-bench: cannot open %s device %d: %s\n", duet_backend_name(b), dn,
                duet_ctx_last_error(NULL));
        return 1;
      }
      ++*ndev;
    }
  }
  if (*ndev == 0) {
    fprintf(stderr, "duet-bench: no device to run on (see 'duet-bench list')\n");
    return 1;
  }
  return 0;
}

/* Default sweeps: short enough for the default run to finish in under a minute on PoCL. */
static int default_sizes(bench_routine r, int is_cpu, bench_size *out) {
  /* vadd, reduce and stencil: n x n floats as one array (2^24 and 2^28 on GPUs) */
  static const size_t gpu[BENCH_NROUTINES][2] = {{1024, 2048},  {4096, 8192},  {4096, 8192},
                                                 {4096, 16384}, {4096, 16384}, {4096, 16384}};
  static const size_t cpu[BENCH_NROUTINES][2] = {{128, 256},   {1024, 2048}, {1024, 2048},
                                                 {1024, 2048}, {1024, 2048}, {1024, 2048}};
  const size_t *s = is_cpu ? cpu[r] : gpu[r];
  for (int i = 0; i < 2; i++) out[i] = (bench_size){.m = s[i], .n = s[i], .k = s[i]};
  return 2;
}

static int device_sizes(const bench_opts *o, bench_routine r, const bench_dev *d, bench_size *out) {
  if (o->suite) return bench_suite_sizes(o, r, d->is_cpu, out);
  if (!o->nsizes) {
    const int n = default_sizes(r, d->is_cpu, out);
    for (int i = 0; i < n && r == BENCH_GEMM; i++) out[i].ta = o->ta, out[i].tb = o->tb;
    return n;
  }
  memcpy(out, o->sizes, (size_t)o->nsizes * sizeof *out);
  return o->nsizes;
}

static int has_size(const bench_size *s, int n, bench_size x) {
  for (int i = 0; i < n; i++)
    if (bench_same_size(s[i], x)) return 1;
  return 0;
}

static double work(bench_size s) { return (double)s.m * (double)s.n * (double)s.k; }

/* The union of the devices' sweeps, smallest first, in the order given where work ties. */
static int block_sizes(const bench_opts *o, bench_routine r, bench_dev *devs, int ndev,
                       bench_size *out) {
  int n = 0;
  bench_size mine[BENCH_MAX_SIZES];
  for (int d = 0; d < ndev; d++) {
    int k = device_sizes(o, r, &devs[d], mine);
    for (int i = 0; i < k; i++)
      if (!has_size(out, n, mine[i]) && n < BENCH_MAX_SIZES) out[n++] = mine[i];
  }
  if (o->nsizes || o->suite) return n; /* keep the user's order, or the suite's classes' */
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && work(out[j]) < work(out[j - 1]); j--) {
      bench_size t = out[j];
      out[j] = out[j - 1];
      out[j - 1] = t;
    }
  return n;
}

static void run_block(const bench_opts *o, bench_routine r, bench_size s, bench_dev *devs, int ndev,
                      bench_results *all) {
  bench_host h;
  size_t first = all->n;
  char size[64];
  bench_size_str(r, s, size, sizeof size);
  bench_progress("%s %s: random inputs%s", bench_routine_name(r), size,
                 o->verify ? " and the CPU reference" : "");
  if (bench_host_init(&h, r, s, o->seed, o->verify)) {
    bench_progress_done();
    fprintf(stderr, "duet-bench: %s %s: out of host memory for the inputs and reference\n",
            bench_routine_name(r), size);
    bench_host_free(&h);
    exit(1);
  }
  bench_size mine[BENCH_MAX_SIZES];
  for (int d = 0; d < ndev; d++)
    if (has_size(mine, device_sizes(o, r, &devs[d], mine), s))
      bench_run_device(o, &devs[d], &h, all);
  bench_run_cpu(o, &h, all);
  bench_host_free(&h);
  bench_progress_done();
  bench_rows_apply_reference(all->r + first, all->n - first);
  bench_output_block(o, all->r + first, all->n - first);
}

/* Whether block (r, s) fits the host and the devices that run it; else says why on stderr. */
static int fits(const bench_opts *o, bench_routine r, bench_size s, const bench_dev *devs,
                int ndev) {
  char why[512];
  bench_size mine[BENCH_MAX_SIZES];
  int bad = bench_fit_host(r, s, o->verify, why, sizeof why);
  for (int d = 0; d < ndev && !bad; d++)
    if (has_size(mine, device_sizes(o, r, &devs[d], mine), s))
      bad = bench_fit_device(r, s, &devs[d], why, sizeof why);
  if (bad)
    fprintf(stderr, "duet-bench: %s: refused before allocating anything; give a smaller size\n",
            why);
  return !bad;
}

/* launch's three shapes (bench_launch.c) at its one size. */
static int launch_fits(const bench_opts *o, const bench_dev *devs, int ndev) {
  const bench_size s = o->nsizes ? o->sizes[0] : (bench_size){.m = 1, .n = 1, .k = 1};
  int fit = 1;
  for (int r = 0; r < BENCH_NMATRIX && fit; r++) fit = fits(o, (bench_routine)r, s, devs, ndev);
  return fit;
}

/* The rows the whole run will add, for the progress line's "row k of N", and their work, for its
 * estimate of the time left. */
static int count_rows(const bench_opts *o, bench_dev *devs, int ndev,
                      bench_size sizes[][BENCH_MAX_SIZES], const int *nsizes, double *work) {
  int rows = 0;
  *work = 0;
  bench_size mine[BENCH_MAX_SIZES];
  for (int r = 0; r < BENCH_NROUTINES; r++)
    for (int i = 0; i < nsizes[r]; i++) {
      const int before = rows;
      for (int d = 0; d < ndev; d++)
        if (has_size(mine, device_sizes(o, (bench_routine)r, &devs[d], mine), sizes[r][i]))
          rows += bench_device_rows(o, &devs[d], (bench_routine)r, sizes[r][i]);
      rows += bench_cpu_rows(o, (bench_routine)r, sizes[r][i]);
      *work += (rows - before) * bench_work((bench_routine)r, sizes[r][i]);
    }
  return rows;
}

int main(int argc, char **argv) {
  bench_opts o;
  int st = bench_parse_opts(argc, argv, &o);
  if (st) return st == 1 ? 0 : st;
  if (o.list) return do_list();
  if (o.plot && !plot_path_writable(o.plot, "plot")) return 2;
  if (o.save && !save_path_writable(o.save)) return 2;

  bench_dev devs[BENCH_MAX_DEVS];
  int ndev = 0;
  if (open_devices(&o, devs, &ndev)) {
    for (int d = 0; d < ndev; d++) dev_close(&devs[d]);
    free(o.kern.source);
    return 1;
  }
  if (o.launch || o.overlap || o.kernels || o.user_kernel || o.plan) {
    st = o.plan                                     ? bench_plan(&o, devs, ndev)
         : o.launch && !launch_fits(&o, devs, ndev) ? 2
         : o.launch                                 ? bench_launch(&o, devs, ndev)
         : o.overlap                                ? bench_overlap(&o, devs, ndev)
         : o.user_kernel                            ? bench_kernel(&o, devs, ndev)
                                                    : bench_kernels(&o, devs, ndev);
    free(o.kern.source);
    for (int d = 0; d < ndev; d++) dev_close(&devs[d]);
    return st;
  }
  bench_results all = {0};
  bench_size sizes[BENCH_NROUTINES][BENCH_MAX_SIZES];
  int nsizes[BENCH_NROUTINES] = {0};
  for (int r = 0; r < BENCH_NROUTINES; r++)
    if (o.routines & (1u << r)) nsizes[r] = block_sizes(&o, (bench_routine)r, devs, ndev, sizes[r]);
  int fit = 1;
  for (int r = 0; r < BENCH_NROUTINES; r++)
    for (int i = 0; i < nsizes[r] && fit; i++)
      fit = fits(&o, (bench_routine)r, sizes[r][i], devs, ndev);
  if (!fit) {
    for (int d = 0; d < ndev; d++) dev_close(&devs[d]);
    return 2;
  }
  double work;
  const int rows = count_rows(&o, devs, ndev, sizes, nsizes, &work);
  bench_progress_plan(rows, work);
  bench_output_begin(&o, devs, ndev);
  for (int r = 0; r < BENCH_NROUTINES; r++)
    for (int i = 0; i < nsizes[r]; i++)
      run_block(&o, (bench_routine)r, sizes[r][i], devs, ndev, &all);
  bench_output_end(&o, devs, ndev, &all);

  int failed = 0;
  for (size_t i = 0; i < all.n; i++)
    if (all.r[i].verdict == BENCH_V_NO || all.r[i].verdict == BENCH_V_ERROR) failed = 1;
  if (o.suite && bench_suite_end(&o, devs, ndev, &all)) failed = 1;
  if (o.plot && (o.suite ? bench_suite_plot(o.plot, &all) : bench_plot(o.plot, &all))) failed = 1;
  if (o.save && save_plot(o.save, &all)) failed = 1;
  if (failed)
    fprintf(stderr, "duet-bench: some results failed verification or could not run (see above)\n");
  for (int d = 0; d < ndev; d++) dev_close(&devs[d]);
  free(all.r);
  return failed;
}
