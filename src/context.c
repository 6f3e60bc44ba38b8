/* SPDX-License-Identifier: MIT */
/* Backends compiled in, context creation and the calls that only forward to a backend. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duet_internal.h"

/* The backends compiled into this library, in AUTO's order of preference. */
static const duet__backend_ops *const backends[] = {
#ifdef DUET_HAVE_CUDA
    &duet__cuda_backend,
#endif
#ifdef DUET_HAVE_OPENCL
    &duet__opencl_backend,
#endif
    NULL};

static const duet__backend_ops *find_backend(duet_backend b) {
  for (const duet__backend_ops *const *p = backends; *p; p++)
    if ((*p)->id == b) return *p;
  return NULL;
}

const char *duet_backend_name(duet_backend b) {
  switch (b) {
    case DUET_BACKEND_AUTO: return "auto";
    case DUET_BACKEND_CUDA: return "cuda";
    case DUET_BACKEND_OPENCL: return "opencl";
  }
  return "unknown";
}

int duet_backend_built(duet_backend b) { return find_backend(b) != NULL; }

static int known_backend(duet_backend b) {
  return b == DUET_BACKEND_CUDA || b == DUET_BACKEND_OPENCL;
}

int duet_device_count(duet_backend b, int *count) {
  /* Bad input writes nothing; an unbuilt backend has no devices. */
  if (!count) return duet__fail(NULL, DUET_EINVAL, "duet_device_count: count is NULL");
  if (!known_backend(b))
    return duet__fail(NULL, DUET_EINVAL, "duet_device_count: backend %d is not cuda or opencl",
                      (int)b);
  const duet__backend_ops *ops = find_backend(b);
  if (!ops) {
    *count = 0;
    return duet__fail(NULL, DUET_ENOTBUILT, "duet_device_count: the %s backend is not built",
                      duet_backend_name(b));
  }
  char why[512] = "";
  int status = ops->device_count(count, why, sizeof why);
  if (!status && *count == 0 && *why) duet__note("%s: no device: %s", ops->name, why);
  return status;
}

/* Resolves AUTO through $DUET_BACKEND, then by preference: the first built backend with a
 * device. */
static int resolve_backend(duet_backend b, duet_backend *out) {
  if (b == DUET_BACKEND_AUTO) {
    const char *env = duet__getenv("DUET_BACKEND");
    if (env) {
      if (strcmp(env, "cuda") == 0)
        b = DUET_BACKEND_CUDA;
      else if (strcmp(env, "opencl") == 0)
        b = DUET_BACKEND_OPENCL;
      else if (strcmp(env, "auto") != 0)
        return duet__fail(NULL, DUET_EINVAL,
                          "duet_ctx_create: DUET_BACKEND='%s' is not one of cuda, opencl, auto",
                          env);
    }
  } else if (!known_backend(b)) {
    return duet__fail(NULL, DUET_EINVAL, "duet_ctx_create: backend %d is not auto, cuda or opencl",
                      (int)b);
  }
  if (b != DUET_BACKEND_AUTO) {
    if (!find_backend(b))
      return duet__fail(NULL, DUET_ENOTBUILT, "duet_ctx_create: the %s backend is not built",
                        duet_backend_name(b));
    *out = b;
    return DUET_OK;
  }
  if (!backends[0])
    return duet__fail(NULL, DUET_ENOTBUILT, "duet_ctx_create: no backend is built into duet");
  /* Each backend without a device says why, and the failure names every reason. */
  char whys[1024] = "";
  size_t used = 0;
  for (const duet__backend_ops *const *p = backends; *p; p++) {
    int n = 0;
    char why[512] = "";
    if ((*p)->device_count(&n, why, sizeof why) == DUET_OK && n > 0) {
      *out = (*p)->id;
      return DUET_OK;
    }
    int len =
        snprintf(whys + used, sizeof whys - used, "; %s: %s", (*p)->name, *why ? why : "no device");
    if (len > 0) used = used + (size_t)len < sizeof whys ? used + (size_t)len : sizeof whys - 1;
  }
  return duet__fail(NULL, DUET_ENODEV, "duet_ctx_create: no backend built into duet has a device%s",
                    whys);
}

static int resolve_device(int device, int *out) {
  if (device >= 0) {
    *out = device;
    return DUET_OK;
  }
  const char *env = duet__getenv("DUET_DEVICE");
  if (!env) {
    *out = 0;
    return DUET_OK;
  }
  long v;
  if (duet__parse_count(env, strlen(env), INT_MAX, &v))
    return duet__fail(NULL, DUET_EINVAL,
                      "duet_ctx_create: DUET_DEVICE='%s' is not a non-negative device number", env);
  *out = (int)v;
  return DUET_OK;
}

static int init_lock(duet_ctx *ctx) {
  return pthread_mutex_init(&ctx->load_lock, NULL)
             ? duet__fail(ctx, DUET_ENOMEM, "pthread_mutex_init failed for a new context")
             : DUET_OK;
}

int duet_ctx_create(duet_ctx **out, duet_backend b, int device) {
  if (!out) return duet__fail(NULL, DUET_EINVAL, "duet_ctx_create: ctx is NULL");
  *out = NULL;
  int status = resolve_backend(b, &b);
  if (status) return status;
  if ((status = resolve_device(device, &device))) return status;
  duet_ctx *ctx = calloc(1, sizeof *ctx);
  if (!ctx) return duet__fail(NULL, DUET_ENOMEM, "duet_ctx_create: out of host memory");
  ctx->ops = find_backend(b);
  ctx->device = device;
  ctx->root = ctx;
  ctx->live = 1;
  if ((status = ctx->ops->ctx_open(ctx, device))) {
    /* No context survives to carry the detail: it becomes the thread's. */
    duet__pass_on(ctx->last_error);
    free(ctx);
    return status;
  }
  /* Tests only: a smaller block limit, so that AUTO's fallbacks and DUET_EUNSUPPORTED run on
   * devices that all allow 1024 threads. */
  const char *cap = duet__getenv("DUET_TEST_MAX_BLOCK_THREADS");
  if (cap && strspn(cap, "0123456789") == strlen(cap) && strlen(cap) < 6 &&
      (unsigned)atoi(cap) < ctx->caps.max_block_threads)
    ctx->caps.max_block_threads = (unsigned)atoi(cap);
  /* Tests only: more compute units than the device has, so that the GEMM plans of a large GPU
   * (k cut into hundreds of slices, the tiny tile) run, and are checked, on a 2-core PoCL. */
  const char *units = duet__getenv("DUET_TEST_UNITS");
  if (units && strspn(units, "0123456789") == strlen(units) && strlen(units) < 5 && atoi(units) > 0)
    ctx->caps.compute_units = (unsigned)atoi(units);
  /* The tunable values every kernel of this context is built and launched with. Nothing is
   * built here: OpenCL groups build on the first call that needs one. */
  if ((status = duet__tuning_resolve(ctx)) || (status = init_lock(ctx))) {
    duet__pass_on(ctx->last_error);
    ctx->ops->ctx_close(ctx);
    free(ctx);
    return status;
  }
  *out = ctx;
  return DUET_OK;
}

/* Failures go to the thread's no-context text, as duet_ctx_create's do: the parent may be in
 * use by another thread, and no new context survives to hold them. */
int duet_ctx_create_shared(duet_ctx **out, duet_ctx *parent) {
  static const char F[] = "duet_ctx_create_shared";
  if (!out) return duet__fail(NULL, DUET_EINVAL, "%s: ctx is NULL", F);
  *out = NULL;
  if (!parent) return duet__fail(NULL, DUET_EINVAL, "%s: parent is NULL", F);
  duet_ctx *ctx = calloc(1, sizeof *ctx);
  if (!ctx) return duet__fail(NULL, DUET_ENOMEM, "%s: out of host memory", F);
  int status;
  /* What was resolved for the parent holds for the family: a member's kernels come from the
   * same programs, so they must see the same tunable values. */
  ctx->ops = parent->ops;
  ctx->device = parent->device;
  ctx->caps = parent->caps;
  ctx->set = parent->set;
  memcpy(ctx->tun, parent->tun, sizeof ctx->tun);
  ctx->root = parent->root;
  ctx->live = 1;
  if ((status = ctx->ops->ctx_open_shared(ctx, parent))) {
    duet__pass_on(ctx->last_error);
    free(ctx);
    return status;
  }
  if ((status = init_lock(ctx))) {
    duet__pass_on(ctx->last_error);
    ctx->ops->ctx_close(ctx);
    free(ctx);
    return status;
  }
  duet__ctx_hold(ctx->root);
  *out = ctx;
  return DUET_OK;
}

static void ctx_free(duet_ctx *ctx) {
  duet_ctx *root = ctx->root;
  for (int k = 0; k < DUET__K_COUNT; k++)
    if (ctx->kernels[k].loaded) ctx->ops->kernel_unload(ctx, &ctx->kernels[k]);
  duet__arena_free(ctx);
  ctx->ops->ctx_close(ctx);
  pthread_mutex_destroy(&ctx->load_lock);
  free(ctx);
  /* A member held its root open: the root's backend state is what the member shared. */
  if (root != ctx) duet__ctx_release(root);
}

void duet__ctx_hold(duet_ctx *ctx) { __atomic_add_fetch(&ctx->live, 1, __ATOMIC_RELAXED); }

void duet__ctx_release(duet_ctx *ctx) {
  if (__atomic_sub_fetch(&ctx->live, 1, __ATOMIC_ACQ_REL) == 0) ctx_free(ctx);
}

void duet_ctx_destroy(duet_ctx *ctx) {
  if (!ctx || ctx->destroyed) return;
  ctx->destroyed = 1;
  duet__ctx_release(ctx); /* the caller's reference */
}

duet_backend duet_ctx_backend(const duet_ctx *ctx) {
  return ctx ? ctx->ops->id : DUET_BACKEND_AUTO;
}

void *duet_ctx_native_queue(const duet_ctx *ctx) {
  return ctx ? ctx->ops->native_queue((duet_ctx *)ctx) : NULL;
}

int duet_ctx_device(const duet_ctx *ctx) { return ctx ? ctx->device : -1; }

int duet_ctx_info(const duet_ctx *ctx, duet_device_info *info) {
  int status = duet__check_ctx(ctx, "duet_ctx_info");
  if (status) return status;
  if (!info) return duet__fail(ctx, DUET_EINVAL, "duet_ctx_info: info is NULL");
  memset(info, 0, sizeof *info);
  info->backend = ctx->ops->id;
  info->type = ctx->caps.type;
  return ctx->ops->ctx_info((duet_ctx *)ctx, info);
}

int duet_finish(duet_ctx *ctx) {
  int status = duet__check_ctx(ctx, "duet_finish");
  return status ? status : ctx->ops->finish(ctx);
}
