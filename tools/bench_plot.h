/* SPDX-License-Identifier: MIT */
/* The --plot PNG (bench_plot.c). */
#ifndef DUET_BENCH_PLOT_H
#define DUET_BENCH_PLOT_H

#include <stdio.h>

#include "bench.h"

int bench_plot(const char *png, const bench_results *all);
/* Shared with the suite's plot (bench_suite_plot.c): a gnuplot single-quoted string; png's name
 * with ".png" replaced by ext (malloc'd); and the end of a plot: gnuplot run on gp_name where it
 * is installed, what was written said on stderr (empty: nothing was timed); nonzero when gnuplot
 * failed. */
void bench_gp_quoted(FILE *f, const char *s);
char *bench_plot_name(const char *png, const char *ext);
int bench_plot_render(const char *png, const char *gp_name, const char *dat_name, int empty);

#endif
