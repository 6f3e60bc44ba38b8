/* SPDX-License-Identifier: MIT */
/* Which tunable values a context gets: the database of src/duet_tunables.h, a set chosen from
 * what the backend says of the device, and the environment's overrides. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duet_internal.h"

/* The database, one row per tunable and one column per set. */
static const int values[DUET__T_COUNT][DUET__SET_COUNT] = {
#define DUET__TUNABLE_ROW(name, ...) {__VA_ARGS__},
    DUET__TUNABLES(DUET__TUNABLE_ROW)
#undef DUET__TUNABLE_ROW
};
/* A row with a value missing would be padded with 0 silently: refuse to build instead. */
#define DUET__TUNABLE_CHECK(name, ...)                                          \
  _Static_assert(sizeof((int[]){__VA_ARGS__}) == DUET__SET_COUNT * sizeof(int), \
                 "tunable " #name " needs one value per tuning set");
DUET__TUNABLES(DUET__TUNABLE_CHECK)
#undef DUET__TUNABLE_CHECK
_Static_assert(DUET__SET_COUNT == DUET__SET_COUNT_, "DUET__SET_COUNT must count the sets");

static const char *const tunable_names[DUET__T_COUNT] = {
#define DUET__TUNABLE_NAME(name, ...) #name,
    DUET__TUNABLES(DUET__TUNABLE_NAME)
#undef DUET__TUNABLE_NAME
};

static const char *const set_names[DUET__SET_COUNT] = {
#define DUET__SET_NAME(id, name) name,
    DUET__TUNING_SETS(DUET__SET_NAME)
#undef DUET__SET_NAME
};

const char *duet__tunable_name(duet__tunable t) { return tunable_names[t]; }
const char *duet__set_name(duet__tuning_set s) { return set_names[s]; }
int duet__tunable_default(duet__tuning_set s, duet__tunable t) { return values[t][s]; }

const char *duet_tuning_set_name(int i) {
  return i >= 0 && i < DUET__SET_COUNT ? set_names[i] : NULL;
}

/* The device's set: CPUs share one; NVIDIA GPUs from compute capability 8.0 (A100, H100) have
 * their own, measured on an H100 and an H200; every other device gets the defaults. */
static duet__tuning_set pick(const duet__caps *c) {
  if (c->type == DUET_DEVICE_CPU) return DUET__SET_CPU;
  if (c->nvidia && c->cc_major >= 8) return DUET__SET_NVIDIA_SM80;
  return DUET__SET_DEFAULT;
}

/* Where one backend's compiler measures otherwise on a set's devices, that backend refines the
 * set (any value on a backend that compiles at run time; only plan tunables on one that does not).
 *   nvidia-sm80 on OpenCL, TRANSPOSE_AUTO_ALIGN 0: AUTO keeps padded at an unaligned ld_out,
 *   where NVIDIA's OpenCL build of padded-tall is slower than padded.
 *   nvidia-sm80 on OpenCL, TRANSPOSE_PADDED_BAND 8: faster there than CUDA's 32 at the sizes
 *   where AUTO takes padded.
 *   nvidia-sm80 on OpenCL, GEMM_FAST_TINY_BK 16: NVIDIA's OpenCL build of the tiny tile ran
 *   tall and thin shapes 15-20% faster with k steps of 16 than 8, where nvcc's ran them slower.
 *   nvidia-sm80 on OpenCL, GEMM_FAST_SHALLOW_K 0: NVIDIA's OpenCL build of the big tile ran
 *   k = 64 and 128 faster than its small tile, where CUDA's ran them slower.
 *   nvidia-sm80 on OpenCL, GEMM_FAST_MID_PCT 110: NVIDIA's OpenCL build of the mid tile ran
 *   997^3-1023^3, 128 x 16384 x 1024 and deep k with a small C 2-14% faster than the small tile,
 *   where nvcc's (168 registers, spilling) ran them slower.
 *   nvidia-sm80 on OpenCL, GEMM_SPLITK_LAUNCH 64: NVIDIA's OpenCL spends about 5 us of host
 *   time on each enqueue; at 200^3-320^3 split-K's two launches ran 0.013-0.022 ms from one run
 *   to the next, one launch of the tiny tile a steady 0.013-0.016 (CUDA: two launches faster).
 *   nvidia-sm80 on OpenCL, GEMM_SPLITK_FUSE 4: the tiny tile's split-K summed in its one launch
 *   ran 997^3-1024^3 up to 9% faster than the plans of one launch or two before it, and
 *   nvcc's 256^3 and 512^3 4-9% slower than the reduction's second launch (CUDA keeps 0).
 *   nvidia-sm80 on OpenCL, GEMM_FAST_MID_BK 16, GEMM_FAST_FLAT_BK 16: NVIDIA's OpenCL build of
 *   the mid tile ran every shape it takes 3-12% faster with k steps of 16 than 8 (256^2 x 16384,
 *   128 x 16384 x 1024, 640 x 1536 x 4096; none slower), and the flat tile 64 x 4096 x 16384 5%
 *   faster; nvcc's are built with the set's 8.
 *   nvidia-sm80 on OpenCL, GEMM_FAST_MID_THIN_MIN_K 0: NVIDIA's OpenCL ran C one mid tile wide
 *   13% faster on it than on the tiny tile at k = 4096 too (4096 x 33 x 4096), where CUDA's
 *   ran it 2% slower.
 *   nvidia-sm80 on CUDA, GEMM_FAST_MID_PER_CU 2: nvcc builds the mid (and flat) tile for 2
 *   blocks an SM (FAST_MIN_BLOCKS in kernels_cl/gemm_fast.cl: at 3 it spilled).
 *   nvidia-sm80 on OpenCL, GEMM_PACK_MIN_INTENSITY 220: with both operands packed in one launch,
 *   NVIDIA's OpenCL ran 801^3 (200 flops a copied byte) 5% slower and 851^3 (213) 1% slower,
 *   901^3-1023^3 and 1000 x 1000 x 997 (225-256) 3-10% faster; CUDA's 128 packs 703^3-801^3
 *   faster. On the H100 (thirty-fifth session) packing at 64 or 128 ran OpenCL's 513^3-831^3
 *   2-10% slower, and never packing 961^3-1023^3 within 1.5% either way, 997^3 2% slower.
 *   nvidia-sm80 on OpenCL, GEMM_AUTO_TILED_MAX 168: on the H100 NVIDIA's OpenCL ran tiled
 *   faster than fast at 136^3-168^3 (0.0104 ms against 0.0125-0.0128 at 136^3-160^3, 0.0120
 *   against 0.0127 at 168^3), level at 176^3 and slower from 192^3; CUDA's crossing is 128.
 * The timings: docs/results/tuning-notes.md. */
static const struct {
  duet__tuning_set set;
  duet_backend backend;
  duet__tunable tunable;
  int value;
} refinements[] = {
    {DUET__SET_NVIDIA_SM80, DUET_BACKEND_OPENCL, DUET__T_TRANSPOSE_AUTO_ALIGN, 0},
    {DUET__SET_NVIDIA_SM80, DUET_BACKEND_OPENCL, DUET__T_TRANSPOSE_PADDED_BAND, 8},
    {DUET__SET_NVIDIA_SM80, DUET_BACKEND_OPENCL, DUET__T_GEMM_FAST_SHALLOW_K, 0},
    {DUET__SET_NVIDIA_SM80, DUET_BACKEND_OPENCL, DUET__T_GEMM_FAST_TINY_BK, 16},
    {DUET__SET_NVIDIA_SM80, DUET_BACKEND_OPENCL, DUET__T_GEMM_FAST_MID_PCT, 110},
    {DUET__SET_NVIDIA_SM80, DUET_BACKEND_OPENCL, DUET__T_GEMM_SPLITK_LAUNCH, 64},
    {DUET__SET_NVIDIA_SM80, DUET_BACKEND_OPENCL, DUET__T_GEMM_SPLITK_FUSE, 4},
    {DUET__SET_NVIDIA_SM80, DUET_BACKEND_OPENCL, DUET__T_GEMM_PACK_MIN_INTENSITY, 220},
    {DUET__SET_NVIDIA_SM80, DUET_BACKEND_OPENCL, DUET__T_GEMM_AUTO_TILED_MAX, 168},
    {DUET__SET_NVIDIA_SM80, DUET_BACKEND_OPENCL, DUET__T_GEMM_FAST_MID_BK, 16},
    {DUET__SET_NVIDIA_SM80, DUET_BACKEND_OPENCL, DUET__T_GEMM_FAST_FLAT_BK, 16},
    {DUET__SET_NVIDIA_SM80, DUET_BACKEND_OPENCL, DUET__T_GEMM_FAST_MID_THIN_MIN_K, 0},
    {DUET__SET_NVIDIA_SM80, DUET_BACKEND_CUDA, DUET__T_GEMM_FAST_MID_PER_CU, 2},
};

/* The tunables some kernel is built with; the rest steer the core's plans alone. */
static duet__tmask kernel_tunables(void) {
  duet__tmask used = 0;
  for (int k = 0; k < DUET__K_COUNT; k++) used |= duet__manifest[k].tunables;
  return used;
}

/* The rules next to the database's rows (DUET__RULE in src/duet_tunables.h): the first that the
 * values t break, as "NAME: text", or NULL. */
static const char *broken_rule(const int *t) {
#define T(name) t[DUET__T_##name]
#undef DUET__RULE
#define DUET__RULE(name, ok, text) \
  if (!(ok)) return #name ": " text;
#define DUET__NO_ROW(...)
  DUET__TUNABLES(DUET__NO_ROW)
  return NULL;
#undef T
#undef DUET__RULE
#define DUET__RULE(name, ok, text)
}

/* Every set of the database keeps the rules, checked as the library compiles: a column's values
 * as constants (three sets, as DUET__FOR_EACH_SET has it), each rule asserted over each. */
#define DUET__SET_VALUES(name, v0, v1, v2) \
  DUET__V0_##name = (v0), DUET__V1_##name = (v1), DUET__V2_##name = (v2),
enum { DUET__TUNABLES(DUET__SET_VALUES) DUET__V_END };
#undef DUET__SET_VALUES
#undef DUET__RULE
#define DUET__RULE(name, ok, text) \
  _Static_assert(ok, "a tuning set breaks the rule " #name ": " text);
#define T(name) DUET__V0_##name
DUET__TUNABLES(DUET__NO_ROW)
#undef T
#define T(name) DUET__V1_##name
DUET__TUNABLES(DUET__NO_ROW)
#undef T
#define T(name) DUET__V2_##name
DUET__TUNABLES(DUET__NO_ROW)
#undef T
#undef DUET__RULE
#define DUET__RULE(name, ok, text)
#undef DUET__NO_ROW

/* Tunables whose 0 means "off" or "always" rather than nothing. */
static int zero_allowed(int t) {
  return t == DUET__T_TRANSPOSE_AUTO_ALIGN || t == DUET__T_TRANSPOSE_VEC ||
         t == DUET__T_GEMM_FAST_STRIPS || t == DUET__T_GEMM_FAST_STREAMK_PCT ||
         t == DUET__T_GEMM_PACK_MIN_INTENSITY || t == DUET__T_GEMM_FAST_SKINNY ||
         t == DUET__T_GEMM_FAST_SKINNY_DOT || t == DUET__T_REDUCE_ONE_PASS ||
         t == DUET__T_STENCIL_MIN_BLOCKS || t == DUET__T_QUEUE_FLUSH ||
         t == DUET__T_GEMM_FAST_GEMV || t == DUET__T_GEMM_FAST_SHALLOW_K ||
         t == DUET__T_GEMM_FAST_SHALLOW_TINY_K || t == DUET__T_GEMM_FAST_BIG_FILL_PCT ||
         t == DUET__T_GEMM_AUTO_TILED_MAX || t == DUET__T_GEMM_AUTO_COALESCED_MAX ||
         t == DUET__T_GEMM_FAST_THIN || t == DUET__T_GEMM_FAST_MID_PCT ||
         t == DUET__T_GEMM_SPLITK_FUSE || t == DUET__T_GEMM_FAST_NARROW_PCT ||
         t == DUET__T_GEMM_FAST_MID_THIN_PCT || t == DUET__T_GEMM_FAST_MID_THIN_MIN_K ||
         t == DUET__T_GEMM_SPLITK_CLUSTER || t == DUET__T_GEMM_FAST_EDGE_LOADS ||
         t == DUET__T_LAUNCH_OVERLAP || t == DUET__T_GEMM_FAST_BIG_SPLIT_PCT ||
         t == DUET__T_GEMM_COST_CLUSTER_WAIT_PCT || t == DUET__T_GEMV_SYNC_ROWS ||
         t == DUET__T_GEMM_FAST_SKINNY_FILL_PCT || t == DUET__T_REDUCE_ITEMS_MAX ||
         t == DUET__T_GEMM_SPLITK_CLUSTER_TINY_K || t == DUET__T_GEMM_SPLITK_CLUSTER_SMALL_K ||
         t == DUET__T_TRANSPOSE_AUTO_REGISTER || t == DUET__T_GEMM_FAST_K_STOP;
}

/* The most DUET_TUNE takes: 4096, or 2^20 for a depth of k (a name ending in _K: a set's floor
 * on k may lie past 4096, as nvidia-sm80's GEMM_FAST_MID_THIN_MIN_K 8192 does). */
static long tunable_max(int t) {
  const size_t len = strlen(tunable_names[t]);
  return len > 2 && !strcmp(tunable_names[t] + len - 2, "_K") ? 1L << 20 : 4096;
}

/* Names tunables had before, still accepted by DUET_TUNE (deprecated): padded-tall's in duet
 * 0.1.0, and stream-K's percentage, first named like a switch. */
static const struct {
  const char *old;
  duet__tunable t;
} renamed[] = {
    {"TRANSPOSE_WIDE_TILE", DUET__T_TRANSPOSE_TALL_TILE},
    {"TRANSPOSE_WIDE_ROWS", DUET__T_TRANSPOSE_TALL_ROWS},
    {"GEMM_FAST_STREAMK", DUET__T_GEMM_FAST_STREAMK_PCT},
};

/* The tunable called p[0..len) (its name, or a name in `renamed`), or -1. */
static int tunable_named(const char *p, size_t len) {
  for (int i = 0; i < DUET__T_COUNT; i++)
    if (strlen(tunable_names[i]) == len && !strncmp(p, tunable_names[i], len)) return i;
  for (size_t i = 0; i < sizeof renamed / sizeof renamed[0]; i++)
    if (strlen(renamed[i].old) == len && !strncmp(p, renamed[i].old, len)) return renamed[i].t;
  return -1;
}

/* $DUET_TUNE: "NAME=V,NAME=V", each V a positive integer (zero_allowed ones may be 0). A backend
 * whose kernels are compiled ahead of time takes only the values that steer the core's plans. */
static int apply_overrides(duet_ctx *ctx, const char *spec) {
  static const char F[] = "duet_ctx_create: DUET_TUNE";
  const duet__tmask built_in = ctx->caps.runtime_compile ? 0 : kernel_tunables();
  const char *p = spec;
  while (*p) {
    const char *eq = strchr(p, '='), *end = strchr(p, ',');
    if (!end) end = p + strlen(p);
    const int t = eq && eq < end ? tunable_named(p, (size_t)(eq - p)) : -1;
    if (t < 0)
      return duet__fail(ctx, DUET_EINVAL, "%s='%s': '%.*s' is not NAME=VALUE with a known NAME", F,
                        spec, (int)(end - p), p);
    long v;
    if (duet__parse_count(eq + 1, (size_t)(end - eq - 1), tunable_max(t), &v) ||
        (v == 0 && !zero_allowed(t)))
      return duet__fail(ctx, DUET_EINVAL, "%s='%s': %s needs an integer in %d..%ld", F, spec,
                        tunable_names[t], zero_allowed(t) ? 0 : 1, tunable_max(t));
    if (t < 128 && built_in >> t & 1) /* DUET__TBIT: tunables past 127 build no kernel */
      return duet__fail(ctx, DUET_EUNSUPPORTED,
                        "%s='%s': the %s backend's kernels are compiled ahead of time with %s; "
                        "DUET_TUNING picks one of its sets",
                        F, spec, ctx->ops->name, tunable_names[t]);
    ctx->tun[t] = (int)v;
    p = *end ? end + 1 : end;
  }
  return DUET_OK;
}

void duet__tuning_refine(duet__tuning_set set, duet_backend backend, int runtime_compile,
                         int *tun) {
  for (size_t r = 0; r < sizeof refinements / sizeof refinements[0]; r++)
    if (refinements[r].set == set && refinements[r].backend == backend &&
        (runtime_compile || !(kernel_tunables() >> refinements[r].tunable & 1)))
      tun[refinements[r].tunable] = refinements[r].value;
}

int duet__tuning_resolve(duet_ctx *ctx) {
  ctx->set = pick(&ctx->caps);
  const char *name = duet__getenv("DUET_TUNING");
  if (name) {
    int found = -1;
    for (int s = 0; s < DUET__SET_COUNT; s++)
      if (!strcmp(name, set_names[s])) found = s;
    if (found < 0)
      return duet__fail(ctx, DUET_EINVAL, "duet_ctx_create: DUET_TUNING='%s' is not a tuning set",
                        name);
    ctx->set = (duet__tuning_set)found;
  }
  for (int t = 0; t < DUET__T_COUNT; t++) ctx->tun[t] = values[t][ctx->set];
  duet__tuning_refine(ctx->set, ctx->ops->id, ctx->caps.runtime_compile, ctx->tun);
  const char *spec = duet__getenv("DUET_TUNE");
  int status = spec ? apply_overrides(ctx, spec) : DUET_OK;
  const char *rule = status ? NULL : broken_rule(ctx->tun);
  if (rule)
    return duet__fail(
        ctx, DUET_EINVAL,
        "duet_ctx_create: the tunables of set %s%s%s%s break the rule %s (src/duet_tunables.h)",
        set_names[ctx->set], spec ? " with DUET_TUNE='" : "", spec ? spec : "", spec ? "'" : "",
        rule);
  return status;
}

char *duet__group_options(const duet_ctx *ctx, duet__group g) {
  duet__tmask used = 0;
  for (int k = 0; k < DUET__K_COUNT; k++)
    if (duet__manifest[k].group == g) used |= duet__manifest[k].tunables;
  size_t len = 1;
  for (int pass = 0; pass < 2; pass++) { /* measure, then write: no length limit */
    char *out = pass ? malloc(len) : NULL;
    if (pass && !out) return NULL;
    size_t at = 0;
    const duet__group_desc *gd = &duet__groups[g];
    for (int t = 0; t < DUET__T_COUNT; t++) {
      if (t >= 128 || !(used >> t & 1)) continue; /* past 127: no kernel's (DUET__TBIT) */
      const char *name = tunable_names[t], *to = "";
      /* A group that shares its source file renames its tunables to the file's names. */
      if (gd->from && !strncmp(name, gd->from, strlen(gd->from))) {
        name += strlen(gd->from);
        to = gd->to;
      }
      at += (size_t)snprintf(out ? out + at : NULL, out ? len - at : 0, "%s-D%s%s=%d",
                             at ? " " : "", to, name, ctx->tun[t]);
    }
    if (gd->define) /* the group's own switch (manifest.h) */
      at += (size_t)snprintf(out ? out + at : NULL, out ? len - at : 0, "%s-D%s=1", at ? " " : "",
                             gd->define);
    if (pass) {
      if (!at) out[0] = '\0';
      return out;
    }
    len = at + 1;
  }
  return NULL;
}

const char *duet_ctx_tuning(const duet_ctx *ctx) { return ctx ? set_names[ctx->set] : ""; }

int duet_ctx_tunable(const duet_ctx *ctx, int i, const char **name, int *value) {
  int status = duet__check_ctx(ctx, "duet_ctx_tunable");
  if (status) return status;
  if (!name || !value)
    return duet__fail(ctx, DUET_EINVAL, "duet_ctx_tunable: %s is NULL", name ? "value" : "name");
  if (i < 0 || i >= DUET__T_COUNT)
    return duet__fail(ctx, DUET_EINVAL, "duet_ctx_tunable: no tunable %d (there are %d)", i,
                      DUET__T_COUNT);
  *name = tunable_names[i];
  *value = ctx->tun[i];
  return DUET_OK;
}
