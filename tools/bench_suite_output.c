/* SPDX-License-Identifier: MIT */
/* gemm --suite's output: a table line per shape and device as each block ends, then a summary
 * per device (geometric means, shapes under the target, AUTO against duet's own variants, the
 * bandwidth of m = 1 and n = 1); CSV (a row per shape and device) and JSON (the same with every
 * row's numbers, and the summary) at the end, on stdout or into --save's files. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_format.h"
#include "bench_rows.h"
#include "bench_suite.h"
#include "bench_util.h"

/* The table's lines so far: a shape's number is its block's. */
static int shapes_seen;

/* v in fmt, "-" for NaN; followed by mark where it is not 0. */
static void cell(char *buf, size_t len, double v, const char *fmt, char mark) {
  if (isnan(v)) {
    snprintf(buf, len, "-");
    return;
  }
  int at = snprintf(buf, len, fmt, v);
  if (mark && at >= 0 && (size_t)at + 1 < len) buf[at] = mark, buf[at + 1] = '\0';
}

static void dev_label(const char *backend, int device, char *buf, size_t len) {
  snprintf(buf, len, "%s:%d", backend, device);
}

/* Whether AUTO runs `variant` on this line: then AUTO's row and that variant's are one plan timed
 * twice, and a gap between them is the timing's spread, not AUTO's choice. */
static int auto_runs(const bench_suite_line *l, const char *variant) {
  return l->pick[0] && variant && strcmp(l->pick, variant) == 0;
}

/* The ratios the table marks and the summary counts and lists, each rule here alone: under the
 * vendor target; AUTO slower than duet's best variant or than tiled where it runs another
 * variant. */
static int under_target(const bench_suite_line *l, double v) {
  (void)l;
  return v < BENCH_SUITE_TARGET;
}
static int slower_than_best(const bench_suite_line *l, double v) {
  return v < BENCH_SUITE_SLOWER && !auto_runs(l, l->best);
}
static int slower_than_tiled(const bench_suite_line *l, double v) {
  return v < BENCH_SUITE_SLOWER && !auto_runs(l, "tiled");
}

void bench_suite_begin(const bench_opts *o, bench_dev *devs, int ndev) {
  if (o->format != BENCH_OUT_TABLE) return;
  int cpu = 0, gpu = 0;
  bench_size tmp[BENCH_MAX_SIZES];
  for (int d = 0; d < ndev; d++) *(devs[d].is_cpu ? &cpu : &gpu) = 1;
  printf("duet-bench %s: gemm --suite: C = op(A) op(B), FP32, row-major; ", duet_version());
  if (o->suite_scale > 1) /* bench_suite_sizes gives every device the CPUs' list, scaled */
    printf("%d shapes on every device (the CPUs' list, dimensions over 16 divided by %d)",
           bench_suite_sizes(o, BENCH_GEMM, 1, tmp), o->suite_scale);
  else {
    if (gpu) printf("%d shapes on GPUs", bench_suite_sizes(o, BENCH_GEMM, 0, tmp));
    if (cpu)
      printf("%s%d shapes on CPUs", gpu ? ", " : "", bench_suite_sizes(o, BENCH_GEMM, 1, tmp));
  }
  printf("\ndevice-event times, median of %s%d run%s after %d warm-up run%s",
         o->reps_given ? "" : "up to ", o->reps, o->reps == 1 ? "" : "s", o->warmup,
         o->warmup == 1 ? "" : "s");
  if (!o->reps_given)
    printf(" (at least %d, fewer past %.1f s a row)", BENCH_MIN_REPS, BENCH_BUDGET_MS / 1000.0);
  printf("; random inputs in [-1, 1), seed %llu\n", (unsigned long long)o->seed);
  bench_batch_line(o);
  printf("rows: %s; peers built: %s\n", o->variants ? o->variants : BENCH_SUITE_VARIANTS,
         bench_peer_names());
  bench_device_lines(devs, ndev, "");
  if (!o->verify) printf("VERIFICATION SKIPPED (--no-verify): no result below was checked\n");
  printf("\n%3s %-30s %-10s %-9s %9s %-10s %9s %-10s %9s %10s %9s %10s %8s %8s %7s  %s\n", "#",
         "shape", "class", "device", "auto ms", "auto runs", "best ms", "best", "cuBLAS ms",
         "CLBlast ms", "vs cuBLAS", "vs CLBlast", "vs best", "vs tiled", "GB/s", "verified");
  fflush(stdout);
}

static void table_line(int index, const bench_suite_line *l) {
  char size[64], dev[32], a[24], b[24], cu[24], cl[24], vcu[24], vcl[24], vb[24], vt[24], bw[24];
  bench_size_str(BENCH_GEMM, l->size, size, sizeof size);
  dev_label(l->backend, l->device, dev, sizeof dev);
  cell(a, sizeof a, l->auto_ms, "%.4f", 0);
  cell(b, sizeof b, l->best_ms, "%.4f", 0);
  cell(cu, sizeof cu, l->cublas_ms, "%.4f", 0);
  cell(cl, sizeof cl, l->clblast_ms, "%.4f", 0);
  cell(vcu, sizeof vcu, l->vs_cublas, "%.2f", under_target(l, l->vs_cublas) ? '!' : 0);
  cell(vcl, sizeof vcl, l->vs_clblast, "%.2f", under_target(l, l->vs_clblast) ? '!' : 0);
  cell(vb, sizeof vb, l->vs_best, "%.2f", slower_than_best(l, l->vs_best) ? '<' : 0);
  cell(vt, sizeof vt, l->vs_tiled, "%.2f", slower_than_tiled(l, l->vs_tiled) ? '<' : 0);
  cell(bw, sizeof bw, l->gbps, "%.1f", 0);
  printf("%3d %-30s %-10s %-9s %9s %-10s %9s %-10s %9s %10s %9s %10s %8s %8s %7s  %s", index, size,
         l->size.tag ? l->size.tag : "", dev, a, l->pick[0] ? l->pick : "-", b,
         l->best ? l->best : "-", cu, cl, vcu, vcl, vb, vt, bw, bench_verdict_name(l->verdict));
  if (l->verdict != BENCH_V_YES && l->note[0]) printf(" (%s: %s)", l->note_variant, l->note);
  putchar('\n');
}

void bench_suite_block(const bench_opts *o, const bench_result *r, size_t n) {
  if (o->format != BENCH_OUT_TABLE || n == 0 || r[0].routine != BENCH_GEMM) return;
  bench_suite_line lines[BENCH_MAX_DEVS];
  const size_t count = bench_suite_lines(r, n, lines, BENCH_MAX_DEVS);
  shapes_seen++;
  for (size_t i = 0; i < count; i++) table_line(shapes_seen, &lines[i]);
  fflush(stdout);
}

/* ---- the summary per device --------------------------------------------------------------- */
typedef struct {
  double log_sum;
  size_t n, under;
} ratio_stats;

typedef struct {
  const char *backend, *name;
  int device;
  size_t shapes, rows, failed, slower_best, slower_tiled;
  ratio_stats cublas, clblast;
} dev_summary;

static void add_ratio(ratio_stats *s, const bench_suite_line *l, double v) {
  if (isnan(v) || !(v > 0)) return;
  s->log_sum += log(v);
  s->n++;
  s->under += under_target(l, v);
}

static double geomean(const ratio_stats *s) { return s->n ? exp(s->log_sum / (double)s->n) : NAN; }

/* The devices in the order their lines first appear; *n their count. Freed by the caller. */
static dev_summary *summarize(const bench_suite_line *l, size_t nl, size_t *n) {
  dev_summary *s = bench_xmalloc((nl + 1) * sizeof *s);
  *n = 0;
  for (size_t i = 0; i < nl; i++) {
    size_t d = 0;
    while (d < *n && !(s[d].device == l[i].device && strcmp(s[d].backend, l[i].backend) == 0)) d++;
    if (d == *n) {
      memset(&s[d], 0, sizeof s[d]);
      s[d].backend = l[i].backend;
      s[d].name = l[i].device_name;
      s[d].device = l[i].device;
      ++*n;
    }
    s[d].shapes++;
    s[d].rows += l[i].nrows;
    for (size_t q = 0; q < l[i].nrows; q++)
      s[d].failed += l[i].rows[q].verdict == BENCH_V_NO || l[i].rows[q].verdict == BENCH_V_ERROR;
    add_ratio(&s[d].cublas, &l[i], l[i].vs_cublas);
    add_ratio(&s[d].clblast, &l[i], l[i].vs_clblast);
    s[d].slower_best += slower_than_best(&l[i], l[i].vs_best);
    s[d].slower_tiled += slower_than_tiled(&l[i], l[i].vs_tiled);
  }
  return s;
}

/* The shapes of device d whose ratio (the member at offset off) `keep` takes, with it (and the
 * best variant's name), wrapped at 100 columns; "none" without. */
static void list_kept(const bench_suite_line *l, size_t nl, const dev_summary *d, size_t off,
                      int (*keep)(const bench_suite_line *, double), int with_best) {
  int col = 60, first = 1;
  for (size_t i = 0; i < nl; i++) {
    const double v = *(const double *)((const char *)&l[i] + off);
    if (l[i].device != d->device || strcmp(l[i].backend, d->backend) != 0 || !keep(&l[i], v))
      continue;
    char size[64], item[128];
    bench_size_str(BENCH_GEMM, l[i].size, size, sizeof size);
    if (with_best)
      snprintf(item, sizeof item, "%s (%.2f, %s; AUTO runs %s)", size, v,
               l[i].best ? l[i].best : "-", l[i].pick[0] ? l[i].pick : "?");
    else
      snprintf(item, sizeof item, "%s (%.2f)", size, v);
    if (!first) col += printf(",");
    if (col + 1 + (int)strlen(item) > 100)
      col = printf("\n      ") - 1;
    else if (!first)
      col += printf(" ");
    col += printf("%s", item);
    first = 0;
  }
  printf("%s\n", first ? "none" : "");
}

static void ratio_line(const char *vs, const ratio_stats *s, const bench_suite_line *l, size_t nl,
                       const dev_summary *d, size_t off) {
  if (!s->n) {
    printf("    vs %-8s -: no shape ran on both\n", vs);
    return;
  }
  printf("    vs %-8s geomean %.3f over %zu shapes, %zu under %.2f: ", vs, geomean(s), s->n,
         s->under, BENCH_SUITE_TARGET);
  list_kept(l, nl, d, off, under_target, 0);
}

static void table_summary(const bench_suite_line *l, size_t nl, const dev_summary *s, size_t ns) {
  printf(
      "\nvs X: X's median over AUTO's (above 1: AUTO is faster). '!' marks a ratio under %.2f "
      "(issue 22's\n  target: every shape >= %.2f of cuBLAS, geomean >= 0.95); '<' marks AUTO "
      "slower than duet's best\n  variant or tiled where it runs another variant (under %.2f: "
      "medians of one kernel differ by a\n  percent or two; where AUTO runs that variant, the two "
      "rows are one plan timed twice). An OpenCL\n  GPU's cuBLAS is the same shape's CUDA row (the "
      "same inputs; "
      "the same GPU by name, else the\n  first CUDA device). auto runs: the variant AUTO picks "
      "(duet_sgemm_plan). GB/s (m = 1,\n  n = 1): the bytes of A, B and C over AUTO's median.\n",
      BENCH_SUITE_TARGET, BENCH_SUITE_TARGET, BENCH_SUITE_SLOWER);
  for (size_t d = 0; d < ns; d++) {
    printf("\nsummary %s:%d (%s): %zu shapes, %zu rows, %zu failed verification or could not run\n",
           s[d].backend, s[d].device, s[d].name, s[d].shapes, s[d].rows, s[d].failed);
    ratio_line("cuBLAS", &s[d].cublas, l, nl, &s[d], offsetof(bench_suite_line, vs_cublas));
    ratio_line("CLBlast", &s[d].clblast, l, nl, &s[d], offsetof(bench_suite_line, vs_clblast));
    printf("    AUTO slower than duet's best variant on %zu shapes: ", s[d].slower_best);
    list_kept(l, nl, &s[d], offsetof(bench_suite_line, vs_best), slower_than_best, 1);
    printf("    AUTO slower than tiled on %zu shapes: ", s[d].slower_tiled);
    list_kept(l, nl, &s[d], offsetof(bench_suite_line, vs_tiled), slower_than_tiled, 0);
    printf("    m = 1, n = 1 against buf_copy (read + write) of as many bytes as their matrix:");
    for (size_t i = 0; i < nl; i++) {
      if (l[i].device != s[d].device || strcmp(l[i].backend, s[d].backend) || isnan(l[i].gbps))
        continue;
      char size[64], copy[64];
      bench_size_str(BENCH_GEMM, l[i].size, size, sizeof size);
      printf("\n      %-22s %8.1f GB/s, ", size, l[i].gbps);
      if (isnan(l[i].copy_gbps)) {
        printf("no buf_copy timed");
        continue;
      }
      bench_size_str(BENCH_COPY, l[i].copy_size, copy, sizeof copy);
      printf("%.2f of the copy (%.1f GB/s at %s)", l[i].vs_copy, l[i].copy_gbps, copy);
    }
    putchar('\n');
  }
}

/* ---- CSV and JSON --------------------------------------------------------------------------- */
static const char *const variants[] = {"naive", "coalesced", "tiled", "register", "fast"};
#define N_VARIANTS (sizeof variants / sizeof *variants)

static const bench_result *row_of(const bench_suite_line *l, const char *variant) {
  for (size_t i = 0; i < l->nrows; i++)
    if (strcmp(l->rows[i].variant, variant) == 0 && l->rows[i].timed) return &l->rows[i];
  return NULL;
}

static void csv(FILE *f, const bench_suite_line *l, size_t nl) {
  fputs("index,shape,class,m,n,k,ta,tb,lda,ldb,ldc,backend,device,device_name,auto_ms,auto_runs,",
        f);
  for (size_t v = 0; v < N_VARIANTS; v++) fprintf(f, "%s_ms,", variants[v]);
  fputs(
      "best_variant,best_ms,cublas_ms,clblast_ms,vs_cublas,vs_clblast,vs_best,vs_tiled,gbps,"
      "vs_copy,verified,note,auto_batch,auto_plan\n",
      f);
  int index = 0;
  for (size_t i = 0; i < nl; i++) {
    const bench_suite_line *x = &l[i];
    const bench_size s = x->size;
    char size[64];
    index += i == 0 || !bench_same_size(l[i - 1].size, s);
    bench_size_str(BENCH_GEMM, s, size, sizeof size);
    fprintf(f, "%d,%s,", index, size);
    bench_csv_fstr(f, s.tag ? s.tag : "");
    fprintf(f, ",%zu,%zu,%zu,%c,%c,%zu,%zu,%zu,%s,%d,", s.m, s.n, s.k, s.ta ? 't' : 'n',
            s.tb ? 't' : 'n', bench_lda(s), bench_ldb(s), bench_ldc(s), x->backend, x->device);
    bench_csv_fstr(f, x->device_name);
    bench_csv_fnum(f, x->auto_ms, 1);
    fprintf(f, ",%s", x->pick);
    for (size_t v = 0; v < N_VARIANTS; v++) {
      const bench_result *r = row_of(x, variants[v]);
      bench_csv_fnum(f, r ? r->med : NAN, 1);
    }
    fprintf(f, ",%s", x->best ? x->best : "");
    const double nums[] = {x->best_ms, x->cublas_ms, x->clblast_ms, x->vs_cublas, x->vs_clblast,
                           x->vs_best, x->vs_tiled,  x->gbps,       x->vs_copy};
    for (size_t v = 0; v < sizeof nums / sizeof *nums; v++) bench_csv_fnum(f, nums[v], 1);
    char note[600] = "";
    if (x->note[0]) snprintf(note, sizeof note, "%s: %s", x->note_variant, x->note);
    fprintf(f, ",%s,", bench_verdict_name(x->verdict));
    bench_csv_fstr(f, note);
    const bench_result *a = row_of(x, "auto");
    bench_csv_fnum(f, a ? a->batch : NAN, 1);
    fputc(',', f);
    bench_csv_fstr(f, x->plan);
    fputc('\n', f);
  }
}

static void json_rows(FILE *f, const bench_suite_line *x) {
  fprintf(f, ",\n         \"rows\": [");
  for (size_t i = 0; i < x->nrows; i++) {
    const bench_result *r = &x->rows[i];
    fprintf(f, "%s\n          {\"variant\": ", i ? "," : "");
    bench_json_fstr(f, r->variant);
    bench_json_fnum(f, "median_ms", r->med, r->timed);
    bench_json_fnum(f, "min_ms", r->min, r->timed);
    bench_json_fnum(f, "max_ms", r->max, r->timed);
    bench_json_fnum(f, "reps", r->reps, r->timed);
    bench_json_fnum(f, "sets", r->sets, r->timed);
    bench_json_fnum(f, "batch", r->batch, r->timed);
    bench_json_fnum(f, "gflops", r->rate, r->timed);
    fprintf(f, ", \"verified\": \"%s\", \"sampled\": %s", bench_verdict_name(r->verdict),
            r->sampled ? "true" : "false");
    bench_json_fnum(f, "rel_error", r->error, 1);
    fprintf(f, ", \"note\": ");
    bench_json_fstr(f, r->note);
    fputc('}', f);
  }
  fprintf(f, "]");
}

static void json_line(FILE *f, const bench_suite_line *x) {
  fprintf(f, "\n       {\"backend\": \"%s\", \"device\": %d, \"device_name\": ", x->backend,
          x->device);
  bench_json_fstr(f, x->device_name);
  bench_json_fnum(f, "auto_ms", x->auto_ms, 1);
  fprintf(f, ", \"auto_runs\": ");
  bench_json_fstr(f, x->pick);
  fprintf(f, ", \"auto_plan\": ");
  bench_json_fstr(f, x->plan);
  fprintf(f, ", \"best_variant\": ");
  if (x->best)
    bench_json_fstr(f, x->best);
  else
    fputs("null", f);
  const char *const keys[] = {"best_ms", "cublas_ms", "clblast_ms", "vs_cublas", "vs_clblast",
                              "vs_best", "vs_tiled",  "gbps",       "copy_gbps", "vs_copy"};
  const double nums[] = {x->best_ms, x->cublas_ms, x->clblast_ms, x->vs_cublas, x->vs_clblast,
                         x->vs_best, x->vs_tiled,  x->gbps,       x->copy_gbps, x->vs_copy};
  for (size_t v = 0; v < sizeof nums / sizeof *nums; v++) bench_json_fnum(f, keys[v], nums[v], 1);
  fprintf(f, ", \"verified\": \"%s\"", bench_verdict_name(x->verdict));
  json_rows(f, x);
  fputc('}', f);
}

static void json_ratio(FILE *f, const char *key, const ratio_stats *s) {
  fprintf(f, ", \"%s\": {\"shapes\": %zu", key, s->n);
  bench_json_fnum(f, "geomean", geomean(s), s->n);
  fprintf(f, ", \"under_target\": %zu}", s->under);
}

static void json(FILE *f, const bench_opts *o, bench_dev *devs, int ndev, const bench_suite_line *l,
                 size_t nl, const dev_summary *s, size_t ns) {
  char batch[32];
  fprintf(f, "{\n  \"tool\": \"duet-bench\", \"version\": \"%s\", \"command\": \"gemm --suite\",\n",
          duet_version());
  fprintf(f,
          "  \"timing\": {\"method\": \"device events around each run, median of reps\", "
          "\"warmup\": %d, \"reps\": %d, \"batch\": %s, \"reps_adaptive\": %s},\n",
          o->warmup, o->reps, bench_batch_json(o, batch, sizeof batch),
          o->reps_given ? "false" : "true");
  fprintf(f,
          "  \"ratios\": \"other row's median over AUTO's (above 1: AUTO is faster)\", "
          "\"target\": %.2f, \"slower\": %.2f,\n",
          BENCH_SUITE_TARGET, BENCH_SUITE_SLOWER);
  fprintf(f, "  \"verify\": %s, \"seed\": %llu,\n", o->verify ? "true" : "false",
          (unsigned long long)o->seed);
  bench_json_fdevices(f, devs, ndev);
  fprintf(f, ",\n  \"shapes\": [");
  int index = 0;
  for (size_t i = 0; i < nl; i++) {
    const bench_size z = l[i].size;
    if (i == 0 || !bench_same_size(l[i - 1].size, z)) {
      char size[64];
      bench_size_str(BENCH_GEMM, z, size, sizeof size);
      fprintf(f, "%s\n    {\"index\": %d, \"shape\": \"%s\", \"class\": ", i ? "]}," : "", ++index,
              size);
      bench_json_fstr(f, z.tag ? z.tag : "");
      fprintf(f,
              ", \"m\": %zu, \"n\": %zu, \"k\": %zu, \"ta\": %s, \"tb\": %s, \"lda\": %zu, "
              "\"ldb\": %zu, \"ldc\": %zu,\n     \"devices\": [",
              z.m, z.n, z.k, z.ta ? "true" : "false", z.tb ? "true" : "false", bench_lda(z),
              bench_ldb(z), bench_ldc(z));
    } else {
      fputc(',', f);
    }
    json_line(f, &l[i]);
  }
  fprintf(f, "%s\n  ],\n  \"summary\": [", nl ? "]}" : "");
  for (size_t d = 0; d < ns; d++) {
    fprintf(f, "%s\n    {\"backend\": \"%s\", \"device\": %d, \"name\": ", d ? "," : "",
            s[d].backend, s[d].device);
    bench_json_fstr(f, s[d].name);
    fprintf(f, ", \"shapes\": %zu, \"rows\": %zu, \"failed_rows\": %zu", s[d].shapes, s[d].rows,
            s[d].failed);
    json_ratio(f, "vs_cublas", &s[d].cublas);
    json_ratio(f, "vs_clblast", &s[d].clblast);
    fprintf(f, ", \"slower_than_best\": %zu, \"slower_than_tiled\": %zu", s[d].slower_best,
            s[d].slower_tiled);
    fputc('}', f);
  }
  fprintf(f, "\n  ]\n}\n");
}

/* FILE + ext, written by fn; nonzero (said on stderr) when it cannot be. */
static int save(const char *prefix, const char *ext, void (*fn)(FILE *, const void *),
                const void *arg) {
  char path[4096];
  snprintf(path, sizeof path, "%s%s", prefix, ext);
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "duet-bench: --save: cannot write %s\n", path);
    return 1;
  }
  fn(f, arg);
  if (fclose(f)) {
    fprintf(stderr, "duet-bench: --save: cannot write %s\n", path);
    return 1;
  }
  fprintf(stderr, "duet-bench: wrote %s\n", path);
  return 0;
}

typedef struct {
  const bench_opts *o;
  bench_dev *devs;
  int ndev;
  const bench_suite_line *l;
  size_t nl;
  const dev_summary *s;
  size_t ns;
} doc;

static void csv_doc(FILE *f, const void *arg) {
  const doc *d = arg;
  csv(f, d->l, d->nl);
}

static void json_doc(FILE *f, const void *arg) {
  const doc *d = arg;
  json(f, d->o, d->devs, d->ndev, d->l, d->nl, d->s, d->ns);
}

int bench_suite_end(const bench_opts *o, bench_dev *devs, int ndev, const bench_results *all) {
  size_t nl, ns;
  bench_suite_line *l = bench_suite_all_lines(all, &nl);
  dev_summary *s = summarize(l, nl, &ns);
  const doc d = {o, devs, ndev, l, nl, s, ns};
  int failed = 0;
  if (o->format == BENCH_OUT_TABLE) table_summary(l, nl, s, ns);
  if (o->format == BENCH_OUT_CSV) csv_doc(stdout, &d);
  if (o->format == BENCH_OUT_JSON) json_doc(stdout, &d);
  fflush(stdout);
  if (o->save) failed = save(o->save, ".csv", csv_doc, &d) | save(o->save, ".json", json_doc, &d);
  free(l);
  free(s);
  return failed;
}
