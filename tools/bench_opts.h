/* SPDX-License-Identifier: MIT */
/* The command line (bench_opts.c). */
#ifndef DUET_BENCH_OPTS_H
#define DUET_BENCH_OPTS_H

#include "bench.h"

/* 0: run; 1: help was printed, exit 0; 2: a usage error was reported, exit 2. */
int bench_parse_opts(int argc, char **argv, bench_opts *o);

#endif
