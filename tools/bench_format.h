/* SPDX-License-Identifier: MIT */
/* Names and formats shared by every command's output (bench_format.c). */
#ifndef DUET_BENCH_FORMAT_H
#define DUET_BENCH_FORMAT_H

#include <stdio.h>

#include "bench.h"

const char *bench_routine_name(bench_routine r);
double bench_rate(bench_routine r, bench_size s, double ms);
/* The row's rate: the routine's, except that the copy reference of a vector routine moves
 * 8 bytes per element. */
double bench_row_rate(const bench_row_def *row, bench_size s, double ms);
const char *bench_rate_unit(bench_routine r);
void bench_size_str(bench_routine r, bench_size s, char *buf, size_t len);
const char *bench_verdict_name(bench_verdict v);
/* The fields of CSV and JSON on stdout, and (the f forms) on another stream: a CSV number comes
 * after a comma, a JSON number after ", \"key\": "; absent or NaN, empty or null. */
void bench_csv_str(const char *s);
void bench_csv_num(double v, int present);
void bench_json_str(const char *s);
void bench_json_num(const char *key, double v, int present);
void bench_json_devices(bench_dev *devs, int ndev);
void bench_csv_fstr(FILE *f, const char *s);
void bench_csv_fnum(FILE *f, double v, int present);
void bench_json_fstr(FILE *f, const char *s);
void bench_json_fnum(FILE *f, const char *key, double v, int present);
void bench_json_fdevices(FILE *f, bench_dev *devs, int ndev);
/* One line per device: "  cuda:0  NAME (GPU, N compute units<extra>)". */
void bench_device_lines(bench_dev *devs, int ndev, const char *extra);
/* The table header's line on --batch, if any (nothing at 1). */
void bench_batch_line(const bench_opts *o);
/* --batch as a JSON value into buf: the number, or "auto" quoted. */
const char *bench_batch_json(const bench_opts *o, char *buf, size_t len);
/* "512 B", "1.5 GiB". */
void bench_bytes_str(double bytes, char *buf, size_t len);

#endif
