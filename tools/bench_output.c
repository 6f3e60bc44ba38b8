/* SPDX-License-Identifier: MIT */
/* The three output formats on stdout: a table (streamed block by block), CSV (streamed) and
 * JSON (one document at the end). Rows that are not timed have no numbers in any format. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "bench_format.h"
#include "bench_output.h"
#include "bench_rows.h"
#include "bench_suite.h"

static const char *verify_mode(const bench_result *r) {
  if (r->verdict == BENCH_V_SKIPPED || r->verdict == BENCH_V_ERROR) return "";
  if (r->routine == BENCH_GEMM || r->def->check == BENCH_CHECK_GEMM)
    return r->sampled ? "sampled" : "full";
  return "exact";
}

/* About four significant digits without an exponent: 0.006123, 12.35, 4567. */
static void fmt_num(double v, char *buf, size_t len) {
  int decimals = v >= 1000 ? 0 : v >= 100 ? 1 : v >= 10 ? 2 : v >= 1 ? 3 : 4;
  snprintf(buf, len, "%.*f", decimals, v);
}

static void dev_label(const bench_result *r, char *buf, size_t len) {
  if (r->device < 0)
    snprintf(buf, len, "%s", r->backend);
  else
    snprintf(buf, len, "%s:%d", r->backend, r->device);
}

/* ---- table ------------------------------------------------------------------------------- */
static int last_routine = -1;

static void table_header(const bench_opts *o, bench_routine r) {
  static const char *const what[BENCH_NROUTINES] = {
      "C (m x n) = A (m x k) * B (k x n), FP32, row-major; GFLOP/s = 2mnk / median",
      "out = in^T, FP32; GB/s = 2 * rows * cols * 4 bytes (read + write) / median",
      "out = in, FP32; GB/s = 2 * rows * cols * 4 bytes (read + write) / median",
      "c = a + b over n = m * n floats; GB/s = 12 n bytes / median (buf_copy: 8 n); vs ref: "
      "GB/s over buf_copy's",
      "out[0] = sum of n = m * n floats; GB/s = 4 n bytes read / median (buf_copy: 8 n); vs "
      "ref: GB/s over buf_copy's",
      "1D stencil of radius r (-rR in the variant) over n = m * n floats; GB/s = 8 n / median; "
      "vs ref: GB/s over buf_copy's"};
  printf("\n%s: %s\n", bench_routine_name(r), what[r]);
  printf("%-14s %-9s %-15s %10s %21s %9s %7s", "size", "device", "variant", "median ms",
         "min-max ms", bench_rate_unit(r), "vs ref");
  if (o->total) printf(" %10s", "total ms");
  printf("  verified\n");
}

static void table_row(const bench_opts *o, const bench_result *r) {
  char size[64], dev[32], med[32] = "-", lo[32], hi[32], range[64] = "-", rate[32] = "-",
                          vs[32] = "-", total[32] = "-";
  bench_size_str(r->routine, r->size, size, sizeof size);
  dev_label(r, dev, sizeof dev);
  if (r->timed) {
    fmt_num(r->med, med, sizeof med);
    fmt_num(r->min, lo, sizeof lo);
    fmt_num(r->max, hi, sizeof hi);
    snprintf(range, sizeof range, "%s-%s", lo, hi);
    snprintf(rate, sizeof rate, r->rate < 10 ? "%.2f" : "%.1f", r->rate);
    if (!isnan(r->vs_ref)) snprintf(vs, sizeof vs, "%.2f", r->vs_ref);
  }
  if (r->total_timed) fmt_num(r->tmed, total, sizeof total);
  printf("%-14s %-9s %-15s %10s %21s %9s %7s", size, dev, r->variant, med, range, rate, vs);
  if (o->total) printf(" %10s", total);
  printf("  %s", bench_verdict_name(r->verdict));
  if (r->verdict == BENCH_V_YES && r->sampled) printf(" (sampled)");
  if (r->note[0]) printf(": %s", r->note);
  putchar('\n');
}

/* ---- CSV --------------------------------------------------------------------------------- */

static const char csv_header[] =
    "routine,m,n,k,backend,device,device_name,variant,median_ms,min_ms,max_ms,reps,warmup,sets,"
    "rate,rate_unit,vs_ref,reference,verified,verify_mode,rel_error,tolerance,total_median_ms,"
    "total_min_ms,total_max_ms,note,op,lda,ldb,ldc,batch,warmup_ms\n";

static void csv_row(const bench_result *r) {
  printf("%s,%zu,%zu,", bench_routine_name(r->routine), r->size.m, r->size.n);
  if (r->routine == BENCH_GEMM) printf("%zu", r->size.k);
  printf(",%s,", r->backend);
  if (r->device >= 0) printf("%d", r->device);
  putchar(',');
  bench_csv_str(r->device_name);
  putchar(',');
  bench_csv_str(r->variant);
  bench_csv_num(r->med, r->timed);
  bench_csv_num(r->min, r->timed);
  bench_csv_num(r->max, r->timed);
  bench_csv_num(r->reps, r->timed);
  bench_csv_num(r->warmup, r->timed);
  bench_csv_num(r->sets, r->timed);
  bench_csv_num(r->rate, r->timed);
  printf(",%s", bench_rate_unit(r->routine));
  bench_csv_num(r->vs_ref, r->timed);
  printf(",%s,%s,%s", r->reference ? r->reference : "", bench_verdict_name(r->verdict),
         verify_mode(r));
  bench_csv_num(r->error, 1);
  bench_csv_num(r->tol, r->def->check == BENCH_CHECK_GEMM);
  bench_csv_num(r->tmed, r->total_timed);
  bench_csv_num(r->tmin, r->total_timed);
  bench_csv_num(r->tmax, r->total_timed);
  putchar(',');
  bench_csv_str(r->note);
  /* gemm: op(A) op(B) ("nn" .. "tt") and the leading dimensions, after the older columns */
  if (r->routine == BENCH_GEMM)
    printf(",%c%c,%zu,%zu,%zu", r->size.ta ? 't' : 'n', r->size.tb ? 't' : 'n', bench_lda(r->size),
           bench_ldb(r->size), bench_ldc(r->size));
  else
    printf(",,,,");
  bench_csv_num(r->batch, r->timed);
  bench_csv_num(r->warmup_ms, r->timed);
  putchar('\n');
}

/* ---- JSON -------------------------------------------------------------------------------- */

static void json_row(const bench_result *r) {
  printf("    {\"routine\": \"%s\", \"m\": %zu, \"n\": %zu", bench_routine_name(r->routine),
         r->size.m, r->size.n);
  bench_json_num("k", (double)r->size.k, r->routine == BENCH_GEMM);
  if (r->routine == BENCH_GEMM)
    printf(", \"op\": \"%c%c\", \"lda\": %zu, \"ldb\": %zu, \"ldc\": %zu", r->size.ta ? 't' : 'n',
           r->size.tb ? 't' : 'n', bench_lda(r->size), bench_ldb(r->size), bench_ldc(r->size));
  printf(", \"backend\": \"%s\"", r->backend);
  bench_json_num("device", r->device, r->device >= 0);
  printf(", \"device_name\": ");
  bench_json_str(r->device_name);
  printf(", \"variant\": ");
  bench_json_str(r->variant);
  printf(",\n     \"timed\": %s", r->timed ? "true" : "false");
  bench_json_num("median_ms", r->med, r->timed);
  bench_json_num("min_ms", r->min, r->timed);
  bench_json_num("max_ms", r->max, r->timed);
  bench_json_num("reps", r->reps, r->timed);
  bench_json_num("warmup", r->warmup, r->timed);
  bench_json_num("sets", r->sets, r->timed);
  bench_json_num("batch", r->batch, r->timed);
  bench_json_num("warmup_ms", r->warmup_ms, r->timed);
  bench_json_num("rate", r->rate, r->timed);
  printf(", \"rate_unit\": \"%s\"", bench_rate_unit(r->routine));
  bench_json_num("vs_ref", r->vs_ref, r->timed);
  printf(", \"reference\": ");
  if (r->reference)
    bench_json_str(r->reference);
  else
    printf("null");
  printf(",\n     \"verified\": \"%s\", \"verify_mode\": \"%s\"", bench_verdict_name(r->verdict),
         verify_mode(r));
  bench_json_num("rel_error", r->error, 1);
  bench_json_num("tolerance", r->tol, r->def->check == BENCH_CHECK_GEMM);
  bench_json_num("total_median_ms", r->tmed, r->total_timed);
  bench_json_num("total_min_ms", r->tmin, r->total_timed);
  bench_json_num("total_max_ms", r->tmax, r->total_timed);
  printf(", \"note\": ");
  bench_json_str(r->note);
  printf("}");
}

static void json_doc(const bench_opts *o, bench_dev *devs, int ndev, const bench_results *all) {
  char batch[32];
  printf("{\n  \"tool\": \"duet-bench\", \"version\": \"%s\",\n", duet_version());
  printf(
      "  \"timing\": {\"method\": \"device events around each run, median of reps\", "
      "\"warmup\": %d, \"reps\": %d, \"batch\": %s, \"reps_adaptive\": %s, "
      "\"total_method\": \"host monotonic clock around blocking write, kernel, read\"},\n",
      o->warmup, o->reps, bench_batch_json(o, batch, sizeof batch),
      o->reps_given ? "false" : "true");
  printf("  \"verify\": %s, \"seed\": %llu,\n", o->verify ? "true" : "false",
         (unsigned long long)o->seed);
  bench_json_devices(devs, ndev);
  printf(",\n  \"results\": [");
  for (size_t i = 0; i < all->n; i++) {
    printf("%s\n", i ? "," : "");
    json_row(&all->r[i]);
  }
  printf("\n  ]\n}\n");
}

/* ---- entry points ------------------------------------------------------------------------ */
void bench_output_begin(const bench_opts *o, bench_dev *devs, int ndev) {
  if (o->suite) {
    bench_suite_begin(o, devs, ndev);
    return;
  }
  if (o->format == BENCH_OUT_CSV) fputs(csv_header, stdout);
  if (o->format != BENCH_OUT_TABLE) return;
  printf("duet-bench %s: device-event times, median of %s%d run%s after %d warm-up run%s\n",
         duet_version(), o->reps_given ? "" : "up to ", o->reps, o->reps == 1 ? "" : "s", o->warmup,
         o->warmup == 1 ? "" : "s");
  bench_batch_line(o);
  if (!o->reps_given)
    printf("(at least %d runs, fewer past %.1f s a row); ", BENCH_MIN_REPS,
           BENCH_BUDGET_MS / 1000.0);
  printf("random inputs in [-1, 1), seed %llu; peers: ", (unsigned long long)o->seed);
  printf("%s\n", bench_peer_names());
  bench_device_lines(devs, ndev, o->nsizes ? "" : ", its type's default sizes");
  if (bench_rows_auto_left_out(o))
    printf(
        "auto is left out of all: it repeats the variant it picks (--variant all,auto adds "
        "it)\n");
  if (!o->verify) printf("VERIFICATION SKIPPED (--no-verify): no result below was checked\n");
  fflush(stdout);
}

void bench_output_block(const bench_opts *o, const bench_result *r, size_t n) {
  if (n == 0) return;
  if (o->suite) {
    bench_suite_block(o, r, n);
    return;
  }
  if (o->format == BENCH_OUT_TABLE) {
    if (last_routine != (int)r[0].routine) table_header(o, r[0].routine);
    last_routine = (int)r[0].routine;
    for (size_t i = 0; i < n; i++) table_row(o, &r[i]);
  } else if (o->format == BENCH_OUT_CSV) {
    for (size_t i = 0; i < n; i++) csv_row(&r[i]);
  }
  fflush(stdout);
}

void bench_output_end(const bench_opts *o, bench_dev *devs, int ndev, const bench_results *all) {
  if (o->suite) return; /* bench_suite_end, called by main: it can fail to write its files */
  if (o->format == BENCH_OUT_JSON) json_doc(o, devs, ndev, all);
  if (o->format != BENCH_OUT_TABLE) return;
  printf(
      "\nvs ref: row rate / reference rate (above 1: faster than the reference), per "
      "device.\n  gemm: cublas where cuBLAS runs, else the fastest duet variant; transpose, "
      "copy, vadd,\n  reduce and stencil: buf_copy (duet_buf_copy, the vendor's "
      "device-to-device copy, 8 bytes\n  per element). CPU rows use the first device's.\n");
  if (o->verify)
    printf(
        "verified: before timing, against a CPU reference; failed rows are not timed. "
        "gemm: relative\n  Frobenius error <= %.0e (cublas-tf32: <= %.0e) against a "
        "double-precision product, sampled\n  (%d elements) above %.0f^3 multiply-adds or "
        "%.0f^2 outputs; transpose and copy: all, bit-exact. vadd and stencil: bit-exact\n  "
        "(stencil: sampled above 2^28 multiply-adds); reduce: within 1e-6 of sum |x| of a "
        "double sum.\n",
        BENCH_GEMM_TOL, BENCH_TF32_TOL, BENCH_SAMPLES, cbrt((double)BENCH_FULL_VERIFY_MACS),
        sqrt((double)BENCH_FULL_VERIFY_ELEMS));
  else
    printf("verified: SKIPPED (--no-verify).\n");
  printf(
      "Inputs that fit in a device's cache (its L2, as the device reports it) rotate among up\n"
      "to %d sets.",
      BENCH_MAX_SETS);
  if (o->total)
    printf(
        " total ms: host clock around the blocking\n  host-to-device writes, the kernel and "
        "the device-to-host read.");
  if (o->cpu)
    printf(
        "\nCPU rows: one thread, host clock, at most one warm-up, at least %d runs; gemm up "
        "to %.0f^3\n  multiply-adds, transpose up to %.0f^2 elements.",
        BENCH_MIN_CPU_REPS, cbrt((double)BENCH_CPU_GEMM_MACS), sqrt((double)BENCH_CPU_MOVE_ELEMS));
  putchar('\n');
  (void)all;
}
