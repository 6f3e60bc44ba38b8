/* SPDX-License-Identifier: MIT */
/* How duet-bench names and formats what it prints, shared by every command's output: routine
 * and size names, rates, verdicts, CSV and JSON fields, the device lines. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "bench_format.h"

static const char *const routine_names[BENCH_NROUTINES] = {"gemm", "transpose", "copy",
                                                           "vadd", "reduce",    "stencil"};

const char *bench_routine_name(bench_routine r) { return routine_names[r]; }

/* Bytes per element moved: vadd reads two arrays and writes one, reduce reads one, the
 * stencil (like the copies) reads one and writes one; its reuse stays in the caches. */
static double bytes_per_elem(bench_routine r) {
  return r == BENCH_VADD ? 12.0 : r == BENCH_REDUCE ? 4.0 : 8.0;
}

double bench_rate(bench_routine r, bench_size s, double ms) {
  double work = r == BENCH_GEMM ? 2.0 * (double)s.m * (double)s.n * (double)s.k
                                : bytes_per_elem(r) * (double)s.m * (double)s.n;
  return work / (ms * 1e6);
}

double bench_row_rate(const bench_row_def *row, bench_size s, double ms) {
  if (bench_is_vector(row->routine) && row->kind == BENCH_ROW_REF && row->peer == BENCH_PEER_NONE)
    return bench_rate(BENCH_COPY, s, ms);
  return bench_rate(row->routine, s, ms);
}

const char *bench_rate_unit(bench_routine r) { return r == BENCH_GEMM ? "GFLOP/s" : "GB/s"; }

void bench_size_str(bench_routine r, bench_size s, char *buf, size_t len) {
  if (r == BENCH_GEMM)
    snprintf(buf, len, "%zux%zux%zu", s.m, s.n, s.k);
  else if (bench_is_vector(r))
    snprintf(buf, len, "%zu", s.m * s.n);
  else
    snprintf(buf, len, "%zux%zu", s.m, s.n);
}

const char *bench_verdict_name(bench_verdict v) {
  switch (v) {
    case BENCH_V_YES: return "yes";
    case BENCH_V_NO: return "no";
    case BENCH_V_SKIPPED: return "skipped";
    case BENCH_V_ERROR: return "error";
  }
  return "?";
}

void bench_csv_str(const char *s) {
  if (!strpbrk(s, ",\"\n")) {
    fputs(s, stdout);
    return;
  }
  putchar('"');
  for (; *s; s++) {
    if (*s == '"') putchar('"');
    putchar(*s == '\n' ? ' ' : *s);
  }
  putchar('"');
}

void bench_csv_num(double v, int present) {
  putchar(',');
  if (present && !isnan(v)) printf("%.6g", v);
}

void bench_json_str(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      printf("\\%c", c);
    else if (c < 0x20)
      printf("\\u%04x", c);
    else
      putchar(c);
  }
  putchar('"');
}

void bench_json_num(const char *key, double v, int present) {
  printf(", \"%s\": ", key);
  if (present && isfinite(v))
    printf("%.6g", v);
  else
    printf("null");
}

/* "devices": [...], without a comma or newline after it. */
void bench_json_devices(bench_dev *devs, int ndev) {
  printf("  \"devices\": [");
  for (int d = 0; d < ndev; d++) {
    const duet_device_info *i = &devs[d].info;
    printf("%s\n    {\"backend\": \"%s\", \"device\": %d, \"name\": ", d ? "," : "",
           duet_backend_name(devs[d].backend), devs[d].device);
    bench_json_str(i->name);
    printf(", \"version\": ");
    bench_json_str(i->version);
    printf(
        ", \"type\": \"%s\", \"compute_units\": %u, \"global_mem_bytes\": %zu, "
        "\"shared_mem_bytes\": %zu, \"cache_bytes\": %zu}",
        devs[d].is_cpu ? "cpu" : "gpu", i->compute_units, i->global_mem_bytes, i->shared_mem_bytes,
        i->cache_bytes);
  }
  printf("\n  ]");
}

void bench_device_lines(bench_dev *devs, int ndev, const char *extra) {
  for (int d = 0; d < ndev; d++)
    printf("  %s:%d  %s (%s, %u compute units, %zu MiB cache%s)\n",
           duet_backend_name(devs[d].backend), devs[d].device, devs[d].info.name,
           devs[d].is_cpu ? "CPU" : "GPU", devs[d].info.compute_units,
           devs[d].info.cache_bytes >> 20, extra);
}

void bench_bytes_str(double bytes, char *buf, size_t len) {
  const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  while (bytes >= 1024 && u < 5) bytes /= 1024, u++;
  snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", bytes, unit[u]);
}
