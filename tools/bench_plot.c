/* SPDX-License-Identifier: MIT */
/* --plot: throughput against size, one panel per routine and one line per device x variant.
 * Writes FILE.dat and FILE.gp next to FILE.png and runs gnuplot on them when it is installed, so
 * that the plot can be redrawn or restyled later without rerunning the benchmark. */
#include "config.h"

#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "bench_format.h"
#include "bench_plot.h"
#include "bench_util.h"

extern char **environ;

static int same_series(const bench_result *a, const bench_result *b) {
  return a->routine == b->routine && a->device == b->device &&
         strcmp(a->backend, b->backend) == 0 && strcmp(a->variant, b->variant) == 0;
}

/* gnuplot's single-quoted strings escape a quote by doubling it. */
void bench_gp_quoted(FILE *f, const char *s) {
  fputc('\'', f);
  for (; *s; s++) {
    if (*s == '\'') fputc('\'', f);
    fputc(*s, f);
  }
  fputc('\'', f);
}

static int same_block(const bench_result *a, const bench_result *b) {
  return a->routine == b->routine && bench_same_size(a->size, b->size);
}

/* x of a row: how many sizes of its routine came before its size (blocks run in sweep order). */
static int x_of(const bench_results *all, const bench_result *r) {
  int x = 0;
  for (size_t i = 0; i < all->n && !same_block(&all->r[i], r); i++)
    if (all->r[i].routine == r->routine && (i == 0 || !same_block(&all->r[i - 1], &all->r[i]))) x++;
  return x;
}

static int has_timed(const bench_results *all, bench_routine routine) {
  for (size_t i = 0; i < all->n; i++)
    if (all->r[i].routine == routine && all->r[i].timed) return 1;
  return 0;
}

/* gnuplot's autoscale warns of an "empty range" when every point of a panel has one x (a single
 * size) or one y, so each panel gets explicit ranges: x over its sizes with a margin, y
 * autoscaled unless it would be empty. Ranges carry over between panels, hence every panel
 * sets both. */
static void write_ranges(FILE *gp, const bench_results *all, bench_routine routine) {
  int xmax = 0;
  double lo = 0, hi = 0;
  for (size_t i = 0; i < all->n; i++) {
    const bench_result *r = &all->r[i];
    if (r->routine != routine || !r->timed) continue;
    int x = x_of(all, r);
    if (x > xmax) xmax = x;
    if (!(r->rate > 0 && r->rate < HUGE_VAL)) continue; /* NaN or inf: gnuplot skips it too */
    if (lo == 0 || r->rate < lo) lo = r->rate;
    if (r->rate > hi) hi = r->rate;
  }
  fprintf(gp, "set xrange [-0.3:%.1f]\n", xmax + 0.3);
  if (lo > 0 && hi > lo)
    fprintf(gp, "set autoscale y\n");
  else if (lo > 0)
    fprintf(gp, "set yrange [%.6g:%.6g]\n", lo / 2, lo * 2);
  else /* no positive rate: log scale has nothing to show; a fixed range keeps gnuplot quiet */
    fprintf(gp, "set yrange [0.1:10]\n");
}

/* One .dat block per series, and its clause of the panel's plot command in gp. */
static void write_series(FILE *dat, FILE *gp, const char *dat_name, const bench_results *all,
                         bench_routine routine, int *index) {
  int nseries = 0;
  for (size_t i = 0; i < all->n; i++) {
    const bench_result *r = &all->r[i];
    if (r->routine != routine || !r->timed) continue;
    int seen = 0;
    for (size_t j = 0; j < i && !seen; j++) seen = all->r[j].timed && same_series(&all->r[j], r);
    if (seen) continue;
    char label[160];
    if (r->device < 0)
      snprintf(label, sizeof label, "%s %s", r->backend, r->variant);
    else
      snprintf(label, sizeof label, "%s:%d %s", r->backend, r->device, r->variant);
    fprintf(dat, "# %s %s\n# x size %s\n", bench_routine_name(routine), label,
            bench_rate_unit(routine));
    for (size_t j = i; j < all->n; j++) {
      const bench_result *q = &all->r[j];
      if (!q->timed || !same_series(q, r)) continue;
      char size[64];
      bench_size_str(routine, q->size, size, sizeof size);
      fprintf(dat, "%d \"%s\" %.6g\n", x_of(all, q), size, q->rate);
    }
    fprintf(dat, "\n\n");
    fprintf(gp, "%s", nseries ? ", \\\n     " : "plot ");
    bench_gp_quoted(gp, nseries ? "" : dat_name);
    fprintf(gp, " index %d using 1:3:xtic(2) with linespoints title ", (*index)++);
    bench_gp_quoted(gp, label);
    nseries++;
  }
  if (nseries) fprintf(gp, "\n");
}

static int on_path(const char *prog) {
  const char *path = getenv("PATH");
  if (!path) return 0;
  char dir[4096];
  for (const char *p = path; *p;) {
    size_t n = strcspn(p, ":");
    if (n && n + strlen(prog) + 2 < sizeof dir) {
      snprintf(dir, sizeof dir, "%.*s/%s", (int)n, p, prog);
      if (access(dir, X_OK) == 0) return 1;
    }
    p += n + (p[n] == ':');
  }
  return 0;
}

static int run_gnuplot(const char *gp_name) {
  char *argv[] = {"gnuplot", (char *)gp_name, NULL};
  pid_t pid;
  int status;
  if (posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ) != 0) return -1;
  if (waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int bench_plot(const char *png, const bench_results *all) {
  char *dat_name = bench_plot_name(png, ".dat"), *gp_name = bench_plot_name(png, ".gp");
  FILE *dat = fopen(dat_name, "w"), *gp = fopen(gp_name, "w");
  int failed = !dat || !gp, panels = 0, index = 0;
  if (failed) {
    fprintf(stderr, "duet-bench: --plot: cannot write %s\n", !dat ? dat_name : gp_name);
  } else {
    for (int r = 0; r < BENCH_NROUTINES; r++) panels += has_timed(all, (bench_routine)r);
    fprintf(gp, "# duet-bench throughput plot: gnuplot %s\n", gp_name);
    fprintf(gp,
            "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
            "  set terminal pngcairo noenhanced size 1100,%d\n"
            "} else {\n  set terminal png noenhanced size 1100,%d\n}\n",
            380 * (panels ? panels : 1), 380 * (panels ? panels : 1));
    fprintf(gp, "set output ");
    bench_gp_quoted(gp, png);
    fprintf(gp,
            "\nset multiplot layout %d,1\nset key outside right top\nset grid\n"
            "set logscale y\nset xlabel 'size'\n",
            panels ? panels : 1);
    for (int r = 0; r < BENCH_NROUTINES; r++) {
      if (!has_timed(all, (bench_routine)r)) continue;
      fprintf(gp, "set title '%s'\nset ylabel '%s'\n", bench_routine_name((bench_routine)r),
              bench_rate_unit((bench_routine)r));
      write_ranges(gp, all, (bench_routine)r);
      write_series(dat, gp, dat_name, all, (bench_routine)r, &index);
    }
    fprintf(gp, "unset multiplot\n");
  }
  if (dat && fclose(dat)) failed = 1;
  if (gp && fclose(gp)) failed = 1;
  if (!failed) failed = bench_plot_render(png, gp_name, dat_name, !panels);
  free(dat_name);
  free(gp_name);
  return failed;
}

char *bench_plot_name(const char *png, const char *ext) {
  size_t len = strlen(png);
  size_t base = len > 4 && strcmp(png + len - 4, ".png") == 0 ? len - 4 : len;
  char *name = bench_xmalloc(base + strlen(ext) + 1);
  snprintf(name, base + strlen(ext) + 1, "%.*s%s", (int)base, png, ext);
  return name;
}

int bench_plot_render(const char *png, const char *gp_name, const char *dat_name, int empty) {
  if (empty) {
    fprintf(stderr, "duet-bench: --plot: no timed result to plot; wrote %s and %s anyway\n",
            dat_name, gp_name);
  } else if (on_path("gnuplot")) {
    if (run_gnuplot(gp_name) != 0) {
      fprintf(stderr, "duet-bench: gnuplot %s failed; the data is in %s\n", gp_name, dat_name);
      return 1;
    }
    fprintf(stderr, "duet-bench: wrote %s (from %s and %s)\n", png, gp_name, dat_name);
  } else {
    fprintf(stderr,
            "duet-bench: gnuplot is not installed: wrote %s and %s; render them with\n"
            "  gnuplot %s   (Debian: apt-get install gnuplot-nox)\n",
            dat_name, gp_name, gp_name);
  }
  return 0;
}
