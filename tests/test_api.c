/* SPDX-License-Identifier: MIT */
/* The API around the kernels: status codes and names, backends, contexts and the environment
 * that steers them, buffers and events. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- host-only checks ---------------------------------------------------------------------- */
static void check_status_table(void) {
  static const struct {
    int code;
    const char *name, *msg;
  } table[] = {
#define ROW(name, code, msg) {code, "DUET_" #name, msg},
      DUET_STATUS_MAP(ROW)
#undef ROW
  };
  harness_case c;
  for (size_t i = 0; i < COUNT(table); i++) {
    harness_case_begin(&c, NULL, "duet_strerror+duet_status_name %s", table[i].name);
    const char *msg = duet_strerror(table[i].code), *name = duet_status_name(table[i].code);
    harness_expect(&c, msg && strcmp(msg, table[i].msg) == 0, "duet_strerror(%d) = \"%s\"",
                   table[i].code, msg ? msg : "(null)");
    harness_expect(&c, name && strcmp(name, table[i].name) == 0, "duet_status_name(%d) = \"%s\"",
                   table[i].code, name ? name : "(null)");
    harness_case_end(&c);
  }
  static const int unknown[] = {1, -8, 12345, INT_MIN, INT_MAX};
  for (size_t i = 0; i < COUNT(unknown); i++) {
    harness_case_begin(&c, NULL, "duet_strerror+duet_status_name unknown-%d", unknown[i]);
    const char *msg = duet_strerror(unknown[i]), *name = duet_status_name(unknown[i]);
    harness_expect(&c, msg && *msg, "duet_strerror gave %s", msg ? "\"\"" : "NULL");
    harness_expect(&c, name && strcmp(name, "DUET_UNKNOWN") == 0, "duet_status_name = \"%s\"",
                   name ? name : "(null)");
    harness_case_end(&c);
  }
  harness_case_begin(&c, NULL, "duet_version");
  harness_expect(&c, duet_version() && *duet_version(), "empty or NULL");
  char header[32];
  snprintf(header, sizeof header, "%d.%d.%d", DUET_VERSION_MAJOR, DUET_VERSION_MINOR,
           DUET_VERSION_PATCH);
  harness_expect(&c, duet_version() && strcmp(duet_version(), header) == 0,
                 "duet_version() = %s, but duet.h says %s", duet_version(), header);
  harness_case_end(&c);
}

static void check_backend_names(void) {
  static const struct {
    duet_backend b;
    const char *name;
  } table[] = {{DUET_BACKEND_AUTO, "auto"},
               {DUET_BACKEND_CUDA, "cuda"},
               {DUET_BACKEND_OPENCL, "opencl"},
               {(duet_backend)99, "unknown"},
               {(duet_backend)-1, "unknown"}};
  harness_case c;
  harness_case_begin(&c, NULL, "duet_backend_name all");
  for (size_t i = 0; i < COUNT(table); i++) {
    const char *got = duet_backend_name(table[i].b);
    harness_expect(&c, got && strcmp(got, table[i].name) == 0, "duet_backend_name(%d) = \"%s\"",
                   (int)table[i].b, got ? got : "(null)");
  }
  harness_case_end(&c);
}

/* Transpose and gemm share the contract: names in enum order, NULL and EINVAL off the table. */
typedef const char *(*name_fn)(int v);
typedef int (*parse_fn)(const char *name, int *v);
static const char *tname(int v) { return duet_transpose_variant_name((duet_transpose_variant)v); }
static const char *gname(int v) { return duet_gemm_variant_name((duet_gemm_variant)v); }
static int tparse(const char *s, int *v) {
  duet_transpose_variant t = (duet_transpose_variant)-7;
  int st = duet_transpose_variant_parse(s, &t);
  *v = (int)t;
  return st;
}
static int gparse(const char *s, int *v) {
  duet_gemm_variant g = (duet_gemm_variant)-7;
  int st = duet_gemm_variant_parse(s, &g);
  *v = (int)g;
  return st;
}

static void check_variant_names(const char *routine, name_fn name, parse_fn parse,
                                const char *const *names, int n) {
  harness_case c;
  harness_case_begin(&c, NULL, "variant-names %s", routine);
  for (int v = 0; v < n; v++) {
    const char *got = name(v);
    int back = -1, st = parse(names[v], &back);
    harness_expect(&c, got && strcmp(got, names[v]) == 0, "name(%d) = \"%s\", want \"%s\"", v,
                   got ? got : "(null)", names[v]);
    harness_expect(&c, st == DUET_OK && back == v, "parse(\"%s\") = %s, %d", names[v],
                   duet_status_name(st), back);
  }
  harness_expect(&c, name(-1) == NULL && name(n) == NULL && name(99) == NULL,
                 "an unknown value has a name");
  static const char *const bogus[] = {"bogus", "", "naive ", "AUTO"};
  for (size_t i = 0; i < COUNT(bogus); i++) {
    int back = -7, st = parse(bogus[i], &back);
    harness_expect(&c, st == DUET_EINVAL && back == -7, "parse(\"%s\") = %s and wrote %d", bogus[i],
                   duet_status_name(st), back);
  }
  harness_case_end(&c);
}

/* A valid name with nowhere to put the result is bad input, not a crash. */
/* "padded-wide" and DUET_TRANSPOSE_PADDED_WIDE, padded-tall's names in duet 0.1.0, still work;
 * the variant's name is the new one. */
static void check_deprecated_names(void) {
  harness_case c;
  harness_case_begin(&c, NULL, "transpose padded-wide, the deprecated name of padded-tall");
  duet_transpose_variant v = DUET_TRANSPOSE_AUTO;
  harness_expect_status(&c, duet_transpose_variant_parse("padded-wide", &v), DUET_OK, NULL,
                        "duet_transpose_variant_parse(\"padded-wide\")");
  harness_expect(&c, v == DUET_TRANSPOSE_PADDED_TALL, "\"padded-wide\" parsed as %d", (int)v);
  harness_expect(&c, DUET_TRANSPOSE_PADDED_WIDE == DUET_TRANSPOSE_PADDED_TALL,
                 "DUET_TRANSPOSE_PADDED_WIDE is not DUET_TRANSPOSE_PADDED_TALL");
  const char *name = duet_transpose_variant_name(DUET_TRANSPOSE_PADDED_WIDE);
  harness_expect(&c, name && !strcmp(name, "padded-tall"), "its name is \"%s\"",
                 name ? name : "(null)");
  harness_case_end(&c);
}

static void check_variant_parse_null(void) {
  harness_case c;
  harness_case_begin(&c, NULL, "variant parse of valid names into NULL");
  harness_expect(&c, duet_transpose_variant_parse("naive", NULL) == DUET_EINVAL,
                 "duet_transpose_variant_parse(\"naive\", NULL) is not DUET_EINVAL");
  harness_expect(&c, duet_gemm_variant_parse("tiled", NULL) == DUET_EINVAL,
                 "duet_gemm_variant_parse(\"tiled\", NULL) is not DUET_EINVAL");
  harness_expect(&c, duet_gemm_variant_parse(NULL, NULL) == DUET_EINVAL,
                 "duet_gemm_variant_parse(NULL, NULL) is not DUET_EINVAL");
  harness_case_end(&c);
}

static void check_backends(void) {
  static const duet_backend all[] = {DUET_BACKEND_CUDA, DUET_BACKEND_OPENCL};
  harness_case c;
  harness_case_begin(&c, NULL, "duet_device_count auto");
  int n = -1;
  harness_expect_status(&c, duet_device_count(DUET_BACKEND_AUTO, &n), DUET_EINVAL, NULL,
                        "duet_device_count(AUTO)");
  harness_expect(&c, n == -1, "bad input wrote %d into count", n);
  harness_expect_status(&c, duet_device_count((duet_backend)7, &n), DUET_EINVAL, NULL,
                        "duet_device_count(7)");
  harness_expect(&c, n == -1, "bad input wrote %d into count", n);
  harness_case_end(&c);
  for (size_t i = 0; i < COUNT(all); i++) {
    const char *name = duet_backend_name(all[i]);
    int built = duet_backend_built(all[i]);
    harness_case_begin(&c, NULL, "duet_backend_built+duet_device_count %s (%s)", name,
                       built ? "built" : "not built");
    harness_expect(&c, built == 0 || built == 1, "duet_backend_built = %d", built);
    n = -1;
    int st = duet_device_count(all[i], &n);
    if (built)
      harness_expect(&c, st == DUET_OK && n >= 0, "duet_device_count = %s, count %d: \"%s\"",
                     duet_status_name(st), n, duet_ctx_last_error(NULL));
    else
      harness_expect(&c, st == DUET_ENOTBUILT || (st == DUET_OK && n == 0),
                     "duet_device_count of an unbuilt backend = %s, count %d", duet_status_name(st),
                     n);
    harness_case_end(&c);
    /* A built backend without a device says why: the runtime's reason reaches the error text
     * (CI's machine has the CUDA runtime but no driver: cudaErrorInsufficientDriver). */
    harness_case_begin(&c, NULL, "duet_ctx_create %s without a device names the reason", name);
    if (!built || n > 0) {
      harness_case_skip(&c, "%s", built ? "it has a device" : "not built");
    } else {
      duet_ctx *ctx = NULL;
      harness_expect_status(&c, duet_ctx_create(&ctx, all[i], 0), DUET_ENODEV, NULL,
                            "duet_ctx_create");
      const char *why = duet_ctx_last_error(NULL);
      harness_expect(
          &c,
          strstr(why, ": ") && strlen(why) > strlen("cuda: device 0 does not exist (0 devices)"),
          "no reason given: \"%s\"", why);
      harness_case_end(&c);
    }
    harness_case_begin(&c, NULL, "duet_ctx_create %s unbuilt", name);
    if (built) {
      harness_case_skip(&c, "%s is built", name);
      continue;
    }
    duet_ctx *ctx = (duet_ctx *)&c; /* must come back NULL */
    harness_expect_status(&c, duet_ctx_create(&ctx, all[i], 0), DUET_ENOTBUILT, NULL,
                          "duet_ctx_create");
    harness_expect(&c, ctx == NULL, "*ctx is not NULL after a failure");
    harness_expect(&c, *duet_ctx_last_error(NULL), "duet_ctx_last_error(NULL) is empty");
    harness_case_end(&c);
  }
}

/* ---- contexts and the environment ---------------------------------------------------------- */
typedef struct {
  const char *var, *value;
  int auto_backend; /* create with DUET_BACKEND_AUTO instead of the device's backend */
  int device;       /* -1: leave it to $DUET_DEVICE; -2: this device; -3: one past the last */
  int want;
  const char *mention; /* last_error must contain it */
} env_case;

static const env_case env_cases[] = {
    {"DUET_BACKEND", "bogus", 1, -2, DUET_EINVAL, "DUET_BACKEND"},
    {"DUET_BACKEND", "CUDA ", 1, -2, DUET_EINVAL, "DUET_BACKEND"},
    {"DUET_DEVICE", "abc", 0, -1, DUET_EINVAL, "DUET_DEVICE"},
    {"DUET_DEVICE", "-1", 0, -1, DUET_EINVAL, "DUET_DEVICE"},
    {"DUET_DEVICE", "0x", 0, -1, DUET_EINVAL, "DUET_DEVICE"},
    {"DUET_DEVICE", "99999999999999999999", 0, -1, DUET_EINVAL, "DUET_DEVICE"},
    {"DUET_DEVICE", " 0", 0, -1, DUET_EINVAL, "DUET_DEVICE"},
    {"DUET_DEVICE", "+0", 0, -1, DUET_EINVAL, "DUET_DEVICE"},
    {"DUET_DEVICE", "0 ", 0, -1, DUET_EINVAL, "DUET_DEVICE"},
    {"DUET_DEVICE", "abc", 0, -2, DUET_OK, NULL}, /* an explicit index does not read it */
    {"DUET_DEVICE", NULL, 0, -3, DUET_ENODEV, NULL},
    {"DUET_TUNING", "no-such-set", 0, -2, DUET_EINVAL, "DUET_TUNING"},
    {"DUET_TUNING", "cpu", 0, -2, DUET_OK, NULL}, /* any set on any device */
};

static void check_env_case(const harness_dev *dev, const env_case *e, int count) {
  int device = e->device == -2 ? dev->device : e->device == -3 ? count : e->device;
  harness_case c;
  harness_case_begin(&c, dev, "duet_ctx_create %s=%s%s%s device=%d", e->var,
                     e->value ? "'" : "(unset)", e->value ? e->value : "", e->value ? "'" : "",
                     device);
  duet_backend b = e->auto_backend ? DUET_BACKEND_AUTO : dev->backend;
  duet_ctx *ctx;
  int st = harness_create_with_env(&ctx, e->var, e->value, b, device);
  const char *why = duet_ctx_last_error(NULL);
  if (strcmp(e->var, "DUET_OPENCL_PLATFORM") == 0)
    /* A filter that matches no platform leaves 0 devices, which is no error in itself: the
     * failure may come as EINVAL or ENODEV, but it must name the variable. */
    harness_expect(&c, st == DUET_EINVAL || st == DUET_ENODEV, "returned %s: \"%s\"",
                   duet_status_name(st), why);
  else
    harness_expect_status(&c, st, e->want, NULL, "duet_ctx_create");
  if (e->want != DUET_OK) harness_expect(&c, ctx == NULL, "*ctx is not NULL after a failure");
  if (e->mention)
    harness_expect(&c, strstr(why, e->mention) != NULL, "last_error does not name %s: \"%s\"",
                   e->mention, why);
  if (st == DUET_OK && e->auto_backend)
    harness_expect(&c, duet_ctx_backend(ctx) == dev->backend, "AUTO resolved to %s",
                   duet_backend_name(duet_ctx_backend(ctx)));
  /* Every case that succeeds lands on this device, by index or through $DUET_DEVICE. */
  if (st == DUET_OK)
    harness_expect(&c, duet_ctx_device(ctx) == dev->device, "duet_ctx_device = %d, want %d",
                   duet_ctx_device(ctx), dev->device);
  if (st == DUET_OK) duet_ctx_destroy(ctx);
  harness_case_end(&c);
}

static void check_env(const harness_dev *dev) {
  int count = 0;
  duet_device_count(dev->backend, &count);
  char mine[16], past[16];
  snprintf(mine, sizeof mine, "%d", dev->device);
  snprintf(past, sizeof past, "%d", count);
  int cuda_devices = 0;
  duet_device_count(DUET_BACKEND_CUDA, &cuda_devices);
  const env_case here[] = {
      /* DUET_BACKEND=<this backend> makes AUTO pick it, whichever other backend has devices. */
      {"DUET_BACKEND", duet_backend_name(dev->backend), 1, -2, DUET_OK, NULL},
      {"DUET_DEVICE", mine, 0, -1, DUET_OK, NULL},
      {"DUET_DEVICE", past, 0, -1, DUET_ENODEV, NULL},
      {"DUET_OPENCL_PLATFORM", "duet-no-such-platform", 0, -2, DUET_ENODEV, "DUET_OPENCL_PLATFORM"},
      /* Every backend checks an override's name; a kernel's value needs kernels compiled at
       * run time (OpenCL), and CUDA refuses it. */
      {"DUET_TUNE", "NO_SUCH_TUNABLE=4", 0, -2, DUET_EINVAL, "DUET_TUNE"},
      {"DUET_TUNE", "GEMM_TILE=16", 0, -2,
       dev->backend == DUET_BACKEND_OPENCL ? DUET_OK : DUET_EUNSUPPORTED, NULL},
      /* Values that steer the core's plans alone are taken everywhere, 0 included. */
      {"DUET_TUNE", "GEMM_PACK_MIN_INTENSITY=0,GEMM_FAST_STRIPS=0", 0, -2, DUET_OK, NULL},
      /* A value is at most 4096, a depth of k (a name ending in _K) at most 2^20. */
      {"DUET_TUNE", "GEMM_FAST_MID_THIN_MIN_K=16385,GEMM_SPLITK_MIN_K=1048576", 0, -2, DUET_OK,
       NULL},
      {"DUET_TUNE", "GEMM_FAST_MID_THIN_MIN_K=1048577", 0, -2, DUET_EINVAL, "0..1048576"},
      {"DUET_TUNE", "GEMM_FAST_STRIPS=4097", 0, -2, DUET_EINVAL, "0..4096"},
  };
  for (size_t i = 0; i < COUNT(here); i++)
    if (strcmp(here[i].var, "DUET_OPENCL_PLATFORM") || dev->backend == DUET_BACKEND_OPENCL)
      check_env_case(dev, &here[i], count);
  for (size_t i = 0; i < COUNT(env_cases); i++) check_env_case(dev, &env_cases[i], count);
  /* AUTO with a filter that matches no platform, where no other backend has a device: the
   * failure names the filter. */
  static const env_case auto_filter = {
      "DUET_OPENCL_PLATFORM", "duet-no-such-platform", 1, -2, DUET_ENODEV, "DUET_OPENCL_PLATFORM"};
  if (dev->backend == DUET_BACKEND_OPENCL && !cuda_devices)
    check_env_case(dev, &auto_filter, count);
}

/* DUET_VERBOSE=1 prints each failure once: a failed duet_ctx_create used to print it twice
 * (once on the context it was opening, once more as the thread's error). */
static void check_verbose_once(const harness_dev *dev) {
  harness_case c;
  harness_case_begin(&c, dev, "DUET_VERBOSE=1 prints a failed duet_ctx_create once");
  FILE *tmp = tmpfile();
  int saved = dup(2);
  if (!harness_expect(&c, tmp && saved >= 0, "cannot capture stderr")) {
    harness_case_end(&c);
    return;
  }
  fflush(stderr);
  dup2(fileno(tmp), 2);
  duet_ctx *ctx = NULL;
  int st = harness_create_with_env(&ctx, "DUET_VERBOSE", "1", dev->backend, 1 << 20);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  char line[1024];
  int lines = 0;
  rewind(tmp);
  while (fgets(line, sizeof line, tmp))
    if (!strncmp(line, "duet:", 5)) lines++;
  fclose(tmp);
  harness_expect_status(&c, st, DUET_ENODEV, NULL, "duet_ctx_create device 2^20");
  harness_expect(&c, lines == 1, "%d lines printed, want 1", lines);
  harness_case_end(&c);
}

static void check_ctx(const harness_dev *dev) {
  harness_case c;
  harness_case_begin(&c, dev, "duet_ctx_info+duet_ctx_device+native-handles");
  const duet_device_info *in = &dev->info;
  harness_expect(&c, duet_ctx_backend(dev->ctx) == dev->backend, "duet_ctx_backend = %s",
                 duet_backend_name(duet_ctx_backend(dev->ctx)));
  harness_expect(&c, in->backend == dev->backend, "info.backend = %d", (int)in->backend);
  harness_expect(&c, in->name[0] != '\0', "info.name is empty");
  harness_expect(&c, in->compute_units > 0, "info.compute_units = 0");
  harness_expect(&c, in->max_block_threads > 0, "info.max_block_threads = 0");
  harness_expect(&c, in->global_mem_bytes > 0, "info.global_mem_bytes = 0");
  harness_expect(&c, duet_ctx_device(dev->ctx) == dev->device, "duet_ctx_device = %d",
                 duet_ctx_device(dev->ctx));
  harness_expect(&c, duet_ctx_native_queue(dev->ctx) != NULL, "duet_ctx_native_queue is NULL");
  harness_expect(&c, duet_ctx_native_queue(NULL) == NULL && duet_buf_native(NULL) == NULL,
                 "a native handle of NULL is not NULL");
  harness_case_end(&c);

  harness_case_begin(&c, dev, "duet_ctx_create second-context-same-device");
  duet_ctx *two = NULL;
  int st = duet_ctx_create(&two, dev->backend, dev->device);
  if (harness_expect_status(&c, st, DUET_OK, NULL, "duet_ctx_create")) {
    duet_device_info info;
    st = duet_ctx_info(two, &info);
    harness_expect_status(&c, st, DUET_OK, two, "duet_ctx_info");
    harness_expect(&c, st || strcmp(info.name, in->name) == 0, "device name \"%s\" != \"%s\"",
                   info.name, in->name);
    harness_expect_status(&c, duet_finish(two), DUET_OK, two, "duet_finish");
  }
  duet_ctx_destroy(two);
  duet_ctx_destroy(NULL);
  harness_case_end(&c);
}

/* A context destroyed before its buffers and events: they are still destroyed safely, in either
 * order, and a buffer kept past its context still reads back what was written (ASan and
 * valgrind runs of this case catch any use after free). */
static void check_destroy_order(const harness_dev *dev) {
  for (int events_first = 0; events_first <= 1; events_first++) {
    harness_case c;
    harness_case_begin(&c, dev, "destroy the context before its buffers and events (%s first)",
                       events_first ? "events" : "buffers");
    duet_ctx *ctx = NULL;
    duet_buf *buf = NULL;
    duet_event *ev = NULL;
    const float want[4] = {1.5f, -2.0f, 3.25f, 4.0f};
    float got[4] = {0};
    int st = duet_ctx_create(&ctx, dev->backend, dev->device);
    if (!st) st = duet_buf_create(ctx, sizeof want, &buf);
    if (!st) st = duet_buf_write(buf, 0, want, sizeof want);
    if (!st) st = duet_event_create(ctx, &ev);
    if (!st) st = duet_event_record(ev);
    if (harness_expect_status(&c, st, DUET_OK, ctx, "setup")) {
      duet_ctx_destroy(ctx);
      duet_ctx_destroy(ctx); /* a second destroy of a context still held open is harmless */
      if (events_first) {
        duet_event_destroy(ev);
        ev = NULL;
      }
      harness_expect_status(&c, duet_buf_read(buf, 0, got, sizeof got), DUET_OK, NULL,
                            "duet_buf_read after duet_ctx_destroy");
      harness_expect(&c, !memcmp(got, want, sizeof want), "the buffer lost its contents");
      duet_buf_destroy(buf);
      duet_event_destroy(ev);
    } else {
      duet_buf_destroy(buf);
      duet_event_destroy(ev);
      duet_ctx_destroy(ctx);
    }
    harness_case_end(&c);
  }
}

/* ---- buffers and events -------------------------------------------------------------------- */
static void fill_bytes(unsigned char *p, size_t n, harness_rng *r) {
  for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(harness_rng_next(r) >> 56);
}

static int read_equals(harness_case *c, const duet_buf *buf, const unsigned char *want, size_t n,
                       const char *what) {
  unsigned char *got = malloc(n);
  if (!harness_expect(c, got != NULL, "no host memory")) return 0;
  int st = duet_buf_read(buf, 0, got, n);
  size_t i = 0;
  while (i < n && got[i] == want[i]) i++;
  int ok =
      harness_expect(c, st == DUET_OK && i == n, "%s: read %s, first differing byte %zu of %zu",
                     what, duet_status_name(st), i, n);
  free(got);
  return ok;
}

/* Round trips through one buffer: whole writes, a write inside it, vendor copies of all of it
 * and of a prefix; every read compares with a host mirror of what the buffer must hold. */
static void check_buffer_size(const harness_dev *dev, size_t bytes) {
  harness_case c;
  harness_case_begin(&c, dev, "buffers write/read/copy bytes=%zu", bytes);
  harness_rng r = harness_rng_make(c.seed);
  unsigned char *a = malloc(bytes), *b = malloc(bytes), *patch = malloc(7);
  duet_buf *src = NULL, *dst = NULL;
  int st = DUET_ENOMEM;
  if (a && b && patch) st = duet_buf_create(dev->ctx, bytes, &src);
  if (!st) st = duet_buf_create(dev->ctx, bytes, &dst);
  if (harness_expect_status(&c, st, DUET_OK, dev->ctx, "duet_buf_create")) {
    harness_expect(&c, duet_buf_size(src) == bytes, "duet_buf_size = %zu", duet_buf_size(src));
    harness_expect(&c, duet_buf_native(src) && duet_buf_native(src) != duet_buf_native(dst),
                   "duet_buf_native: %p and %p", duet_buf_native(src), duet_buf_native(dst));
    fill_bytes(a, bytes, &r);
    fill_bytes(b, bytes, &r);
    harness_expect_status(&c, duet_buf_write(src, 0, a, bytes), DUET_OK, dev->ctx, "write src");
    harness_expect_status(&c, duet_buf_write(dst, 0, b, bytes), DUET_OK, dev->ctx, "write dst");
    read_equals(&c, src, a, bytes, "src after write");
    size_t off = bytes > 7 ? bytes / 2 - 3 : 0, n = bytes - off < 7 ? bytes - off : 7;
    fill_bytes(patch, n, &r);
    memcpy(a + off, patch, n);
    harness_expect_status(&c, duet_buf_write(src, off, patch, n), DUET_OK, dev->ctx, "write patch");
    unsigned char tail[7];
    st = duet_buf_read(src, off, tail, n);
    harness_expect(&c, st == DUET_OK && memcmp(tail, patch, n) == 0, "offset read: %s",
                   duet_status_name(st));
    read_equals(&c, src, a, bytes, "src after patch");
    size_t prefix = bytes / 3; /* the rest of dst must keep b */
    memcpy(b, a, prefix);
    harness_expect_status(&c, duet_buf_copy(dst, src, prefix), DUET_OK, dev->ctx, "copy prefix");
    read_equals(&c, dst, b, bytes, "dst after prefix copy");
    harness_expect_status(&c, duet_buf_copy(dst, src, 0), DUET_OK, dev->ctx, "copy 0 bytes");
    harness_expect_status(&c, duet_buf_copy(dst, src, bytes), DUET_OK, dev->ctx, "copy all");
    read_equals(&c, dst, a, bytes, "dst after full copy");
    read_equals(&c, src, a, bytes, "src after copies");
  }
  duet_buf_destroy(src);
  duet_buf_destroy(dst);
  duet_buf_destroy(NULL);
  free(a);
  free(b);
  free(patch);
  harness_case_end(&c);
}

static void check_events(const harness_dev *dev) {
  harness_case c;
  harness_case_begin(&c, dev, "events record-copy-record");
  duet_event *start = NULL, *end = NULL;
  duet_buf *x = NULL, *y = NULL;
  const size_t bytes = 1u << 20;
  int st = duet_event_create(dev->ctx, &start);
  if (!st) st = duet_event_create(dev->ctx, &end);
  if (!st) st = duet_buf_create(dev->ctx, bytes, &x);
  if (!st) st = duet_buf_create(dev->ctx, bytes, &y);
  if (harness_expect_status(&c, st, DUET_OK, dev->ctx, "create")) {
    harness_expect_status(&c, duet_event_record(start), DUET_OK, dev->ctx, "duet_event_record");
    harness_expect_status(&c, duet_buf_copy(y, x, bytes), DUET_OK, dev->ctx, "duet_buf_copy");
    harness_expect_status(&c, duet_event_record(end), DUET_OK, dev->ctx, "duet_event_record");
    for (int i = 0; i < 2; i++) { /* asking twice must give an answer twice */
      float ms = -1.0f;
      st = duet_event_elapsed_ms(start, end, &ms);
      harness_expect_status(&c, st, DUET_OK, dev->ctx, "duet_event_elapsed_ms");
      harness_expect(&c, st || (ms >= 0.0f && isfinite(ms)), "elapsed %g ms", ms);
    }
    harness_expect_status(&c, duet_finish(dev->ctx), DUET_OK, dev->ctx, "duet_finish");
  }
  duet_buf_destroy(x);
  duet_buf_destroy(y);
  duet_event_destroy(start);
  duet_event_destroy(end);
  duet_event_destroy(NULL);
  harness_case_end(&c);
}

static void run(const harness_dev *dev, void *user) {
  (void)user;
  check_ctx(dev);
  check_env(dev);
  check_verbose_once(dev);
  static const size_t sizes[] = {1, 4, 4099, (size_t)3 << 20};
  for (size_t i = 0; i < COUNT(sizes); i++) check_buffer_size(dev, sizes[i]);
  check_events(dev);
  check_destroy_order(dev);
}

int main(void) {
  harness_init("test_api");
  check_status_table();
  check_backend_names();
  static const char *const tnames[] = {"auto",   "naive",       "coalesced",
                                       "padded", "padded-tall", "register"};
  static const char *const gnames[] = {"auto", "naive", "coalesced", "tiled", "register", "fast"};
  check_variant_names("transpose", tname, tparse, tnames, (int)COUNT(tnames));
  check_variant_names("gemm", gname, gparse, gnames, (int)COUNT(gnames));
  check_variant_parse_null();
  check_deprecated_names();
  check_backends();
  harness_for_each_ctx(run, NULL);
  return harness_end();
}
