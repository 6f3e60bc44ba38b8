/* SPDX-License-Identifier: MIT */
/* Enumeration of backend x device contexts, case reporting and the seeded PRNG. */
#include "harness.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct {
  const char *program;
  uint64_t seed;
  unsigned long long cases; /* cases begun: each one's seed derives from it */
  unsigned passed, failed, skipped;
  int contexts; /* contexts that ran over the whole program */
} H;

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- random data ----------------------------------------------------------------------------- */
static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

harness_rng harness_rng_make(uint64_t seed) {
  harness_rng r;
  for (int i = 0; i < 4; i++) r.s[i] = splitmix64(&seed);
  return r;
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t harness_rng_next(harness_rng *r) { /* xoshiro256** */
  uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return out;
}

uint64_t harness_hash(uint64_t key, uint64_t i) {
  uint64_t x = key ^ i * 0xd1b54a32d192ed03ull;
  return splitmix64(&x);
}

float harness_random_unit(uint64_t u) {
  /* (x + 0.5) / 2^24 is never 0, so no element can pass for an untouched zeroed buffer. */
  double mag = ((double)(u >> 40) + 0.5) / 16777216.0;
  return (float)((u & 1) ? -mag : mag);
}

float harness_random_float(uint64_t u) {
  /* Biased exponents 64..191 stay clear of zero, denormals (which some devices flush), inf and
   * NaN, while still spanning magnitudes that no arithmetic detour would preserve bit-exactly. */
  return harness_float_of((uint32_t)(u >> 63) << 31 | (uint32_t)(64 + ((u >> 32) & 127)) << 23 |
                          (uint32_t)(u & 0x7fffff));
}

/* ---- cases --------------------------------------------------------------------------------- */
void harness_case_begin(harness_case *c, const harness_dev *dev, const char *fmt, ...) {
  memset(c, 0, sizeof *c);
  snprintf(c->label, sizeof c->label, "%s", dev ? dev->label : "host - -");
  c->ctx = dev ? dev->ctx : NULL;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->what, sizeof c->what, fmt, ap);
  va_end(ap);
  uint64_t x = H.seed + ++H.cases * 0xd1b54a32d192ed03ull;
  c->seed = splitmix64(&x);
  c->started = now_s();
}

static void vappend(harness_case *c, const char *fmt, va_list ap) {
  size_t used = strlen(c->detail);
  if (used + 8 >= sizeof c->detail) return; /* the first failures say the most; drop the rest */
  int n = snprintf(c->detail + used, sizeof c->detail - used, "      ");
  used += (size_t)n;
  n = vsnprintf(c->detail + used, sizeof c->detail - used, fmt, ap);
  used = n < 0 ? used : used + (size_t)n;
  if (used + 1 < sizeof c->detail)
    strcpy(c->detail + used, "\n");
  else
    c->detail[sizeof c->detail - 2] = '\n';
}

void harness_case_fail(harness_case *c, const char *fmt, ...) {
  c->failed = 1;
  va_list ap;
  va_start(ap, fmt);
  vappend(c, fmt, ap);
  va_end(ap);
}

int harness_expect(harness_case *c, int cond, const char *fmt, ...) {
  if (cond) return 1;
  c->failed = 1;
  va_list ap;
  va_start(ap, fmt);
  vappend(c, fmt, ap);
  va_end(ap);
  return 0;
}

int harness_expect_status(harness_case *c, int status, int want, const duet_ctx *ctx,
                          const char *call) {
  return harness_expect(c, status == want, "%s returned %s (%d), want %s; last_error: \"%s\"", call,
                        duet_status_name(status), status, duet_status_name(want),
                        duet_ctx_last_error(ctx));
}

int harness_case_end(harness_case *c) {
  printf("%s  %s  %s  seed=%#llx  %.2f s\n", c->failed ? "FAIL" : "PASS", c->label, c->what,
         (unsigned long long)c->seed, now_s() - c->started);
  if (!c->failed) {
    H.passed++;
    return 1;
  }
  fputs(c->detail, stdout);
  if (c->ctx) printf("      last_error: \"%s\"\n", duet_ctx_last_error(c->ctx));
  H.failed++;
  return 0;
}

void harness_case_skip(harness_case *c, const char *fmt, ...) {
  char why[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  printf("SKIP  %s  %s  (%s)\n", c->label, c->what, why);
  H.skipped++;
}

/* ---- resources ---------------------------------------------------------------------------- */
int harness_fits(const harness_dev *dev, double device_bytes, double host_bytes, char *why,
                 size_t n) {
  const double gib = 1024.0 * 1024.0 * 1024.0;
  double host = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
  if (device_bytes > (double)dev->info.global_mem_bytes) {
    snprintf(why, n, "needs %.1f GiB of device memory, the device has %.1f GiB", device_bytes / gib,
             (double)dev->info.global_mem_bytes / gib);
    return 0;
  }
  /* Leave a quarter of the host to everything else: overcommitted pages would kill the test
   * with the OOM killer instead of skipping it. */
  if (host > 0 && host_bytes > 0.75 * host) {
    snprintf(why, n, "needs %.1f GiB of host memory, the host has %.1f GiB", host_bytes / gib,
             host / gib);
    return 0;
  }
  return 1;
}

static void env_put(const char *name, const char *value) {
  if (value)
    setenv(name, value, 1);
  else
    unsetenv(name);
}

harness_env harness_env_save(const char *name) {
  const char *old = getenv(name);
  harness_env saved = {name, old ? strdup(old) : NULL};
  return saved;
}

harness_env harness_env_set(const char *name, const char *value) {
  harness_env saved = harness_env_save(name);
  env_put(name, value);
  return saved;
}

void harness_env_restore(harness_env *saved) {
  env_put(saved->name, saved->value);
  free(saved->value);
  saved->value = NULL;
}

int harness_create_with_env(duet_ctx **ctx, const char *name, const char *value, duet_backend b,
                            int device) {
  harness_env saved = harness_env_set(name, value);
  *ctx = (duet_ctx *)&saved; /* any non-NULL value: a failure must clear it */
  int st = duet_ctx_create(ctx, b, device);
  harness_env_restore(&saved);
  return st;
}

/* ---- setup and summary ----------------------------------------------------------------------- */
static const char *env(const char *name) {
  const char *v = getenv(name);
  return v && *v ? v : NULL;
}

static void config_error(const char *name, const char *value, const char *should_be) {
  harness_case c;
  harness_case_begin(&c, NULL, "harness %s", name);
  harness_case_fail(&c, "%s='%s' is not %s", name, value, should_be);
  harness_case_end(&c);
}

void harness_init(const char *program) {
  /* Line buffering keeps the last case in the log when a kernel takes the process down. */
  setvbuf(stdout, NULL, _IOLBF, 0);
  H.program = program;
  const char *s = env("DUET_TEST_SEED");
  if (s) {
    char *end;
    errno = 0;
    H.seed = strtoull(s, &end, 0);
    if (errno || *end) config_error("DUET_TEST_SEED", s, "a number");
  } else {
    uint64_t x = (uint64_t)time(NULL) << 20 ^ (uint64_t)getpid();
    H.seed = splitmix64(&x);
  }
  printf("%s: seed %#llx (DUET_TEST_SEED=%#llx repeats this run's data)\n", program,
         (unsigned long long)H.seed, (unsigned long long)H.seed);
}

void harness_contexts_ran(int n) { H.contexts += n; }

int harness_end(void) {
  printf("harness: %u passed, %u failed, %u skipped\n", H.passed, H.failed, H.skipped);
  if (H.failed) return 1;
  if (!H.contexts) return 77; /* the reason was printed by harness_for_each_ctx */
  if (!H.passed) {
    printf("SKIP: %s ran no case\n", H.program);
    return 77;
  }
  return 0;
}

/* ---- devices --------------------------------------------------------------------------------- */
static void set_label(harness_dev *d, const char *name) {
  char shortname[29];
  snprintf(shortname, sizeof shortname, "%s", *name ? name : "?");
  /* One whitespace-free token, so that the fields of a case line split on spaces. */
  for (char *p = shortname; *p; p++)
    if (isspace((unsigned char)*p)) *p = '-';
  snprintf(d->label, sizeof d->label, "%s dev%d %s", duet_backend_name(d->backend), d->device,
           shortname);
}

static void pick_tier(harness_dev *d) {
  const char *large = env("DUET_TEST_LARGE");
  if (large && strcmp(large, "0") == 0) {
    d->large_why = "DUET_TEST_LARGE=0";
  } else if (large && strcmp(large, "1") == 0) {
    d->large = 1;
  } else if (d->info.type != DUET_DEVICE_GPU) {
    d->large_why = "not a GPU; set DUET_TEST_LARGE=1";
  } else {
    d->large = 1;
  }
}

static void run_one(duet_backend b, int device, harness_ctx_fn fn, void *user) {
  harness_dev d;
  memset(&d, 0, sizeof d);
  d.backend = b;
  d.device = device;
  set_label(&d, "");
  harness_case c;
  harness_case_begin(&c, &d, "duet_ctx_create");
  int status = duet_ctx_create(&d.ctx, b, device);
  if (!harness_expect_status(&c, status, DUET_OK, NULL, "duet_ctx_create")) {
    harness_case_end(&c);
    return;
  }
  status = duet_ctx_info(d.ctx, &d.info);
  if (!harness_expect_status(&c, status, DUET_OK, d.ctx, "duet_ctx_info")) {
    harness_case_end(&c);
    duet_ctx_destroy(d.ctx);
    return;
  }
  set_label(&d, d.info.name);
  pick_tier(&d);
  printf("# %s: %s, %s, %s, %u CUs, %zu MiB%s%s\n", d.label, d.info.name, d.info.vendor,
         d.info.version, d.info.compute_units, d.info.global_mem_bytes >> 20,
         d.large ? "" : "; large tier off: ", d.large ? "" : d.large_why);
  H.contexts++;
  fn(&d, user);
  /* Errors of asynchronous work that no case waited for surface here. */
  status = duet_finish(d.ctx);
  if (status) {
    harness_case_begin(&c, &d, "duet_finish after-all-cases");
    harness_expect_status(&c, status, DUET_OK, d.ctx, "duet_finish");
    harness_case_end(&c);
  }
  duet_ctx_destroy(d.ctx);
}

int harness_for_each_ctx(harness_ctx_fn fn, void *user) {
  static const duet_backend backends[] = {DUET_BACKEND_CUDA, DUET_BACKEND_OPENCL};
  const char *want_backend = env("DUET_BACKEND"), *want_device = env("DUET_DEVICE");
  if (want_backend && strcmp(want_backend, "cuda") && strcmp(want_backend, "opencl") &&
      strcmp(want_backend, "auto")) {
    config_error("DUET_BACKEND", want_backend, "one of cuda, opencl, auto");
    return 0;
  }
  long only = -1;
  if (want_device) {
    char *end;
    errno = 0;
    only = strtol(want_device, &end, 10);
    if (errno || *end || only < 0 || only > 1 << 20) {
      config_error("DUET_DEVICE", want_device, "a device index");
      return 0;
    }
  }
  char none[512] = ""; /* why each backend ran nothing, for the all-skipped message */
  struct {
    const char *backend;
    char why[96];
  } idle[2];
  int n_idle = 0, ran = 0;
  for (size_t i = 0; i < sizeof backends / sizeof backends[0]; i++) {
    duet_backend b = backends[i];
    const char *name = duet_backend_name(b);
    if (want_backend && strcmp(want_backend, "auto") && strcmp(want_backend, name)) continue;
    size_t used = strlen(none);
    const char *sep = used ? "; " : "";
    if (!duet_backend_built(b)) {
      snprintf(none + used, sizeof none - used, "%s%s: not built", sep, name);
      continue;
    }
    int count = 0, status = duet_device_count(b, &count);
    if (status) {
      harness_case c;
      harness_case_begin(&c, NULL, "duet_device_count %s", name);
      harness_expect_status(&c, status, DUET_OK, NULL, "duet_device_count");
      harness_case_end(&c);
      snprintf(none + used, sizeof none - used, "%s%s: duet_device_count failed", sep, name);
      continue;
    }
    if (count == 0 || only >= count) {
      idle[n_idle].backend = name;
      if (count == 0)
        snprintf(idle[n_idle].why, sizeof idle[0].why, "0 devices");
      else
        snprintf(idle[n_idle].why, sizeof idle[0].why, "DUET_DEVICE=%ld, only %d device%s", only,
                 count, count == 1 ? "" : "s");
      snprintf(none + used, sizeof none - used, "%s%s: %s", sep, name, idle[n_idle++].why);
      continue;
    }
    int first = only >= 0 ? (int)only : 0, last = only >= 0 ? (int)only : count - 1;
    for (int dev = first; dev <= last; dev++, ran++) run_one(b, dev, fn, user);
  }
  if (!ran) {
    printf("SKIP: no device on any backend (%s)\n", *none ? none : "DUET_BACKEND selects none");
    return 0;
  }
  /* A backend with nothing to run while another ran is one skipped case, not a silent gap. */
  for (int i = 0; i < n_idle; i++) {
    harness_case c;
    harness_case_begin(&c, NULL, "all");
    snprintf(c.label, sizeof c.label, "%s - -", idle[i].backend);
    harness_case_skip(&c, "%s", idle[i].why);
  }
  return ran;
}
