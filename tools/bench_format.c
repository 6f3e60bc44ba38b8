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
  if (r == BENCH_GEMM) {
    /* "MxNxK", then " tn" (op(A), op(B)) when transposed, " ld A/B/C" when not packed */
    int at = snprintf(buf, len, "%zux%zux%zu", s.m, s.n, s.k);
    if ((s.ta || s.tb) && at >= 0 && (size_t)at < len)
      at += snprintf(buf + at, len - (size_t)at, " %c%c", s.ta ? 't' : 'n', s.tb ? 't' : 'n');
    if ((s.lda || s.ldb || s.ldc) && at >= 0 && (size_t)at < len)
      snprintf(buf + at, len - (size_t)at, " ld %zu/%zu/%zu", bench_lda(s), bench_ldb(s),
               bench_ldc(s));
  } else if (bench_is_vector(r))
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

void bench_csv_fstr(FILE *f, const char *s) {
  if (!strpbrk(s, ",\"\n")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s == '\n' ? ' ' : *s, f);
  }
  fputc('"', f);
}

void bench_csv_str(const char *s) { bench_csv_fstr(stdout, s); }

void bench_csv_fnum(FILE *f, double v, int present) {
  fputc(',', f);
  if (present && !isnan(v)) fprintf(f, "%.6g", v);
}

void bench_csv_num(double v, int present) { bench_csv_fnum(stdout, v, present); }

void bench_json_fstr(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

void bench_json_str(const char *s) { bench_json_fstr(stdout, s); }

void bench_json_fnum(FILE *f, const char *key, double v, int present) {
  fprintf(f, ", \"%s\": ", key);
  if (present && isfinite(v))
    fprintf(f, "%.6g", v);
  else
    fputs("null", f);
}

void bench_json_num(const char *key, double v, int present) {
  bench_json_fnum(stdout, key, v, present);
}

/* "devices": [...], without a comma or newline after it. */
void bench_json_fdevices(FILE *f, bench_dev *devs, int ndev) {
  fprintf(f, "  \"devices\": [");
  for (int d = 0; d < ndev; d++) {
    const duet_device_info *i = &devs[d].info;
    fprintf(f, "%s\n    {\"backend\": \"%s\", \"device\": %d, \"name\": ", d ? "," : "",
            duet_backend_name(devs[d].backend), devs[d].device);
    bench_json_fstr(f, i->name);
    fprintf(f, ", \"version\": ");
    bench_json_fstr(f, i->version);
    fprintf(f,
            ", \"type\": \"%s\", \"compute_units\": %u, \"global_mem_bytes\": %zu, "
            "\"shared_mem_bytes\": %zu, \"cache_bytes\": %zu}",
            devs[d].is_cpu ? "cpu" : "gpu", i->compute_units, i->global_mem_bytes,
            i->shared_mem_bytes, i->cache_bytes);
  }
  fprintf(f, "\n  ]");
}

void bench_json_devices(bench_dev *devs, int ndev) { bench_json_fdevices(stdout, devs, ndev); }

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

void bench_batch_line(const bench_opts *o) {
  if (o->batch == BENCH_BATCH_AUTO)
    printf(
        "(each run enough back-to-back launches to last %.1f ms, at most %d, between its two "
        "events, divided by their number: --batch auto)\n",
        BENCH_BATCH_RUN_MS, BENCH_BATCH_MAX);
  else if (o->batch > 1)
    printf("(each run %d back-to-back launches between its two events, divided by %d)\n", o->batch,
           o->batch);
}

const char *bench_batch_json(const bench_opts *o, char *buf, size_t len) {
  if (o->batch == BENCH_BATCH_AUTO)
    snprintf(buf, len, "\"auto\"");
  else
    snprintf(buf, len, "%d", o->batch);
  return buf;
}
