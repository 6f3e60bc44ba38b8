/* SPDX-License-Identifier: MIT */
/* The plan command: what duet_sgemm would run for one shape on each selected device, as
 * duet_sgemm_plan describes it, without running it. */
#include <stdio.h>
#include <string.h>

#include "bench_commands.h"

static const duet_gemm_variant all_variants[] = {DUET_GEMM_AUTO,      DUET_GEMM_NAIVE,
                                                 DUET_GEMM_COALESCED, DUET_GEMM_TILED,
                                                 DUET_GEMM_REGISTER,  DUET_GEMM_FAST};
#define N_VARIANTS (sizeof all_variants / sizeof all_variants[0])

int bench_plan_check(const bench_opts *o) {
  if (o->nsizes > 1) return 1;
  if (!o->variants || !strcmp(o->variants, "all")) return 0;
  char buf[256];
  if (strlen(o->variants) >= sizeof buf) return 1;
  strcpy(buf, o->variants);
  for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    duet_gemm_variant v;
    if (duet_gemm_variant_parse(tok, &v)) return 1;
  }
  return 0;
}

/* One device's plan for variant v: its text, or why there is none. */
static int plan_one(const bench_dev *d, const bench_opts *o, duet_gemm_variant v) {
  const bench_size s = o->nsizes ? o->sizes[0] : (bench_size){.m = 1024, .n = 1024, .k = 1024};
  const duet_trans ta = o->ta ? DUET_TRANS : DUET_NO_TRANS;
  const duet_trans tb = o->tb ? DUET_TRANS : DUET_NO_TRANS;
  const size_t lda = o->lda ? o->lda : o->ta ? s.m : s.k, ldb = o->ldb ? o->ldb : o->tb ? s.k : s.n;
  char text[8192];
  const int st = duet_sgemm_plan(d->ctx, v, ta, tb, s.m, s.n, s.k, lda, ldb, text, sizeof text);
  printf("%s", text);
  if (st) printf("  cannot run here: %s: %s\n", duet_status_name(st), duet_ctx_last_error(d->ctx));
  return st != DUET_OK && st != DUET_EUNSUPPORTED && st != DUET_EBUILD;
}

int bench_plan(const bench_opts *o, bench_dev *devs, int ndev) {
  int failed = 0;
  for (int i = 0; i < ndev; i++) {
    printf("%s%s %d: %s, tuning set %s\n", i ? "\n" : "", duet_backend_name(devs[i].backend),
           devs[i].device, devs[i].info.name, duet_ctx_tuning(devs[i].ctx));
    for (size_t v = 0; v < N_VARIANTS; v++) {
      const char *name = duet_gemm_variant_name(all_variants[v]);
      char list[260];
      snprintf(list, sizeof list, ",%s,", o->variants ? o->variants : "auto");
      char want[32];
      snprintf(want, sizeof want, ",%s,", name);
      if (strcmp(list, ",all,") && !strstr(list, want)) continue;
      failed |= plan_one(&devs[i], o, all_variants[v]);
    }
  }
  return failed;
}
