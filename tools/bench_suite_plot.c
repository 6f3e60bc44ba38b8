/* SPDX-License-Identifier: MIT */
/* gemm --suite's plot: each shape's ratio to the vendor (the vendor's median over AUTO's), one
 * series per device and vendor, with the lines at 1 and at the target; a device with no vendor
 * (PoCL without CLBlast) gets tiled's ratio instead. FILE.dat and FILE.gp go beside FILE.png, as
 * for the other plots (bench_plot.c), so that it can be redrawn without rerunning. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_format.h"
#include "bench_plot.h"
#include "bench_suite.h"
#include "bench_util.h"

typedef struct {
  const char *backend, *what;
  int device;
  size_t off; /* the ratio's member of bench_suite_line */
} series;

static double ratio_at(const bench_suite_line *l, size_t off) {
  return *(const double *)((const char *)l + off);
}

static int has(const bench_suite_line *l, size_t nl, const char *backend, int device, size_t off) {
  for (size_t i = 0; i < nl; i++)
    if (l[i].device == device && !strcmp(l[i].backend, backend) && ratio_at(&l[i], off) > 0)
      return 1;
  return 0;
}

/* The series, at most 3 per device line. */
static size_t all_series(const bench_suite_line *l, size_t nl, series *out) {
  size_t n = 0;
  for (size_t i = 0; i < nl; i++) {
    int seen = 0;
    for (size_t j = 0; j < n && !seen; j++)
      seen = out[j].device == l[i].device && !strcmp(out[j].backend, l[i].backend);
    if (seen) continue;
    const size_t before = n;
    const series vendors[] = {
        {l[i].backend, "cuBLAS", l[i].device, offsetof(bench_suite_line, vs_cublas)},
        {l[i].backend, "CLBlast", l[i].device, offsetof(bench_suite_line, vs_clblast)}};
    for (size_t v = 0; v < 2; v++)
      if (has(l, nl, l[i].backend, l[i].device, vendors[v].off)) out[n++] = vendors[v];
    const series tiled = {l[i].backend, "tiled", l[i].device, offsetof(bench_suite_line, vs_tiled)};
    if (n == before && has(l, nl, l[i].backend, l[i].device, tiled.off)) out[n++] = tiled;
  }
  return n;
}

int bench_suite_plot(const char *png, const bench_results *all) {
  size_t nl;
  bench_suite_line *l = bench_suite_all_lines(all, &nl);
  series *sr = bench_xmalloc((3 * nl + 1) * sizeof *sr);
  const size_t ns = all_series(l, nl, sr);
  /* x of each line: its shape's number, from 0 */
  int *x = bench_xmalloc((nl + 1) * sizeof *x), shapes = 0;
  for (size_t i = 0; i < nl; i++)
    x[i] = i && bench_same_size(l[i - 1].size, l[i].size) ? x[i - 1] : shapes++;
  char *dat_name = bench_plot_name(png, ".dat"), *gp_name = bench_plot_name(png, ".gp");
  FILE *dat = fopen(dat_name, "w"), *gp = fopen(gp_name, "w");
  int failed = !dat || !gp;
  double lo = BENCH_SUITE_TARGET, hi = 1;
  if (failed) {
    fprintf(stderr, "duet-bench: --plot: cannot write %s\n", !dat ? dat_name : gp_name);
  } else {
    for (size_t s = 0; s < ns; s++) {
      fprintf(dat, "# %s:%d, %s's median over AUTO's\n", sr[s].backend, sr[s].device, sr[s].what);
      for (size_t i = 0; i < nl; i++) {
        const double v = ratio_at(&l[i], sr[s].off);
        if (l[i].device != sr[s].device || strcmp(l[i].backend, sr[s].backend) || !(v > 0))
          continue;
        char size[64];
        bench_size_str(BENCH_GEMM, l[i].size, size, sizeof size);
        fprintf(dat, "%d %.6g # %s\n", x[i], v, size);
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      fprintf(dat, "\n\n");
    }
    fprintf(gp,
            "# duet-bench gemm --suite plot: gnuplot %s\n"
            "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
            "  set terminal pngcairo noenhanced size 1400,720\n"
            "} else {\n  set terminal png noenhanced size 1400,720\n}\nset output ",
            gp_name);
    bench_gp_quoted(gp, png);
    fprintf(gp,
            "\nset title 'duet-bench gemm --suite: AUTO against the vendor, per shape (above 1: "
            "AUTO is faster)'\nset ylabel 'median of the vendor / median of AUTO'\n"
            "set logscale y 2\nset yrange [%.4g:%.4g]\nset xrange [-0.5:%.1f]\n"
            "set grid ytics\nset key outside right top\nset bmargin 14\n"
            "set arrow from -0.5,1 to %.1f,1 nohead lc rgb 'black'\n"
            "set arrow from -0.5,%.2f to %.1f,%.2f nohead dt 2 lc rgb 'red'\n"
            "set xtics rotate by 90 right font ',8' (",
            lo / 1.25, hi * 1.25, shapes - 0.5, shapes - 0.5, BENCH_SUITE_TARGET, shapes - 0.5,
            BENCH_SUITE_TARGET);
    for (size_t i = 0; i < nl; i++) {
      if (i && x[i] == x[i - 1]) continue;
      char size[64];
      bench_size_str(BENCH_GEMM, l[i].size, size, sizeof size);
      fprintf(gp, "%s", x[i] ? ", \\\n  " : "");
      bench_gp_quoted(gp, size);
      fprintf(gp, " %d", x[i]);
    }
    fprintf(gp, ")\n");
    for (size_t s = 0; s < ns; s++) {
      char title[96];
      snprintf(title, sizeof title, "%s:%d / %s", sr[s].backend, sr[s].device, sr[s].what);
      fprintf(gp, "%s", s ? ", \\\n     " : "plot ");
      bench_gp_quoted(gp, s ? "" : dat_name);
      fprintf(gp, " index %zu using 1:2 with linespoints title ", s);
      bench_gp_quoted(gp, title);
    }
    fprintf(gp, "\n");
  }
  if (dat && fclose(dat)) failed = 1;
  if (gp && fclose(gp)) failed = 1;
  if (!failed) failed = bench_plot_render(png, gp_name, dat_name, ns == 0);
  free(dat_name);
  free(gp_name);
  free(x);
  free(sr);
  free(l);
  return failed;
}
