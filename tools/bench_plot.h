/* SPDX-License-Identifier: MIT */
/* The --plot PNG (bench_plot.c). */
#ifndef DUET_BENCH_PLOT_H
#define DUET_BENCH_PLOT_H

#include "bench.h"

int bench_plot(const char *png, const bench_results *all);

#endif
