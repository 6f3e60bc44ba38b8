/* SPDX-License-Identifier: MIT */
/* Users' programs on CUDA: NVRTC (opened at run time, nvrtc_loader.c) compiles duet_kernel.h and
 * the source for the device's own architecture (PTX where NVRTC does not know it: target()), and
 * the CUBIN it gives is loaded through the runtime's library API (cudaLibraryLoadData), so that
 * neither libnvrtc nor libcuda is linked.
 * Kernels are looked up by name (DUET_KERNEL makes them extern "C") and launched with
 * cudaLaunchKernel on the context's stream. The parameters' sizes come from the driver's
 * cuKernelGetParamInfo (CUDA 12.4), reached through cudaGetDriverEntryPointByVersion, for as
 * many parameters as the CUBIN says the kernel has (cubin_params.h). CUBINs are kept in the
 * disk cache (src/cache.h), so that a later process skips NVRTC, and in memory while a program
 * of the same key is alive, so that a second context on the device (or a second create of the
 * same source) loads nothing, as OpenCL's programs are shared (opencl_programs.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "cubin_params.h"
#include "cuda_internal.h"
#include "nvrtc_loader.h"

/* Beyond this much dynamic shared memory a kernel must opt in. */
#define DEFAULT_SHARED_LIMIT (48 * 1024)

static int use_device(duet_ctx *ctx) {
  cudaError_t err = cudaSetDevice(duet_ctx_device(ctx));
  return err == cudaSuccess ? DUET_OK : duet__cu_fail(ctx, err, "cudaSetDevice");
}

static char *program_log(nvrtcProgram prog) {
  size_t len = 0;
  duet__nvrtc.nvrtcGetProgramLogSize(prog, &len);
  char *log = malloc(len + 1);
  if (log && duet__nvrtc.nvrtcGetProgramLog(prog, log) == NVRTC_SUCCESS)
    log[len] = '\0';
  else if (log)
    log[0] = '\0';
  return log;
}

/* What NVRTC compiles for the device: "sm_XY", a CUBIN, where NVRTC knows the device's
 * architecture; else "compute_XY", PTX for the newest architecture it knows that the device
 * runs, which the driver compiles when it loads it (an NVRTC older than the device). Where NVRTC
 * knows none that old, or cannot list them, sm_XY, for NVRTC to say why not. The test hook
 * DUET_TEST_NVRTC_PTX=1 takes the PTX path as if NVRTC did not know the device. */
static void target(const duet_ctx *ctx, char out[24]) {
  const int cc = ctx->caps.cc_major * 10 + ctx->caps.cc_minor;
  int n = 0, best = 0, known = 1;
  int *archs = NULL;
  if (duet__nvrtc.nvrtcGetNumSupportedArchs(&n) == NVRTC_SUCCESS && n > 0 &&
      (archs = malloc((size_t)n * sizeof *archs)) &&
      duet__nvrtc.nvrtcGetSupportedArchs(archs) == NVRTC_SUCCESS) {
    known = 0;
    for (int i = 0; i < n; i++) {
      known |= archs[i] == cc;
      if (archs[i] <= cc && archs[i] > best) best = archs[i];
    }
  }
  free(archs);
  const char *hook = duet__getenv("DUET_TEST_NVRTC_PTX");
  if (hook && strcmp(hook, "1") == 0) known = 0;
  if (known || !best)
    snprintf(out, 24, "sm_%d", cc);
  else
    snprintf(out, 24, "compute_%d", best);
}

/* Source and options to a CUBIN, or to PTX (NUL included) where target is compute_XY, for the
 * device (NVRTC is loaded). *cubin is malloc'd. */
static int compile(duet_ctx *ctx, const char *text, const char *const *options, unsigned n,
                   const char *to, char **cubin, size_t *len) {
  char arch[48];
  snprintf(arch, sizeof arch, "--gpu-architecture=%s", to);
  const int ptx = strncmp(to, "compute_", 8) == 0;
  nvrtcResult (*get_size)(nvrtcProgram, size_t *) =
      ptx ? duet__nvrtc.nvrtcGetPTXSize : duet__nvrtc.nvrtcGetCUBINSize;
  nvrtcResult (*get)(nvrtcProgram, char *) =
      ptx ? duet__nvrtc.nvrtcGetPTX : duet__nvrtc.nvrtcGetCUBIN;
  const char **opts = malloc((n + 1) * sizeof *opts);
  if (!opts) return duet__fail(ctx, DUET_ENOMEM, "duet_program_create: out of host memory");
  opts[0] = arch;
  for (unsigned i = 0; i < n; i++) opts[i + 1] = options[i];
  nvrtcProgram prog;
  nvrtcResult r = duet__nvrtc.nvrtcCreateProgram(&prog, text, "source", 0, NULL, NULL);
  if (r != NVRTC_SUCCESS) {
    free(opts);
    return duet__fail(ctx, r == NVRTC_ERROR_OUT_OF_MEMORY ? DUET_ENOMEM : DUET_EBACKEND,
                      "duet_program_create: cuda: nvrtcCreateProgram failed: %s",
                      duet__nvrtc.nvrtcGetErrorString(r));
  }
  int status = DUET_OK;
  r = duet__nvrtc.nvrtcCompileProgram(prog, (int)n + 1, opts);
  if (r != NVRTC_SUCCESS) {
    char *log = program_log(prog);
    status = duet__fail(ctx, DUET_EBUILD,
                        "duet_program_create: cuda: NVRTC did not compile it (%s) for %s; log:\n%s",
                        duet__nvrtc.nvrtcGetErrorString(r), to, log && *log ? log : "(no log)");
    free(log);
  } else if ((r = get_size(prog, len)) != NVRTC_SUCCESS || !(*cubin = malloc(*len)) ||
             (r = get(prog, *cubin)) != NVRTC_SUCCESS) {
    status =
        r == NVRTC_SUCCESS
            ? duet__fail(ctx, DUET_ENOMEM, "duet_program_create: out of memory")
            : duet__fail(ctx, DUET_EBACKEND, "duet_program_create: cuda: nvrtcGet%s failed: %s",
                         ptx ? "PTX" : "CUBIN", duet__nvrtc.nvrtcGetErrorString(r));
    if (r != NVRTC_SUCCESS) {
      free(*cubin);
      *cubin = NULL;
    }
  }
  duet__nvrtc.nvrtcDestroyProgram(&prog);
  free(opts);
  return status;
}

/* The CUBIN's key in the disk cache (src/cache.h): what was compiled, for which architecture,
 * by which NVRTC, for which driver. parts[4] is malloc'd. */
enum { KEY_PARTS = 6 };
static int cubin_key(duet_ctx *ctx, const char *text, const char *const *options, unsigned n,
                     char bufs[3][32], const char *parts[KEY_PARTS]) {
  int major = 0, minor = 0, driver = 0;
  duet__nvrtc.nvrtcVersion(&major, &minor);
  cudaDriverGetVersion(&driver);
  char to[24];
  target(ctx, to); /* the device, and what is compiled for it: a CUBIN or PTX */
  snprintf(bufs[0], 32, "sm_%d%d %s", ctx->caps.cc_major, ctx->caps.cc_minor, to);
  snprintf(bufs[1], 32, "nvrtc %d.%d", major, minor);
  snprintf(bufs[2], 32, "driver %d", driver);
  size_t len = 1;
  for (unsigned i = 0; i < n; i++) len += strlen(options[i]) + 1;
  char *joined = malloc(len);
  if (!joined) return duet__fail(ctx, DUET_ENOMEM, "duet_program_create: out of host memory");
  joined[0] = '\0';
  for (unsigned i = 0; i < n; i++) strcat(strcat(joined, options[i]), " ");
  const char *all[KEY_PARTS] = {"cuda cubin", bufs[0], bufs[1], bufs[2], joined, text};
  memcpy(parts, all, sizeof all);
  return DUET_OK;
}

/* A built program: the loaded library and its CUBIN, kept to count kernels' parameters; one per
 * device and key in the process, shared by every duet_program of that key while one holds it. */
typedef struct cu_program {
  struct cu_program *next;
  int device;
  char *key; /* the disk cache's key parts, each ended by a NUL */
  size_t klen;
  unsigned refs; /* guarded by programs_lock */
  cudaLibrary_t lib;
  void *cubin;
  size_t len;
} cu_program;

static pthread_mutex_t programs_lock = PTHREAD_MUTEX_INITIALIZER;
static cu_program *programs;

static void program_destroy(cu_program *p) {
  if (p->lib) cudaLibraryUnload(p->lib);
  free(p->cubin);
  free(p->key);
  free(p);
}

/* The live program of device and key, with a new reference; NULL if none. */
static cu_program *program_find(int device, const char *key, size_t klen) {
  pthread_mutex_lock(&programs_lock);
  cu_program *p = programs;
  while (p && (p->device != device || p->klen != klen || memcmp(p->key, key, klen) != 0))
    p = p->next;
  if (p) p->refs++;
  pthread_mutex_unlock(&programs_lock);
  return p;
}

/* Publishes a program just built, unless another thread published one of its key meanwhile:
 * then that one (with a new reference) and this one is destroyed. */
static cu_program *program_publish(cu_program *built) {
  pthread_mutex_lock(&programs_lock);
  cu_program *p = programs;
  while (p && (p->device != built->device || p->klen != built->klen ||
               memcmp(p->key, built->key, built->klen) != 0))
    p = p->next;
  if (p) {
    p->refs++;
  } else {
    built->refs = 1;
    built->next = programs;
    programs = built;
  }
  pthread_mutex_unlock(&programs_lock);
  if (p) program_destroy(built);
  return p ? p : built;
}

/* Loads a CUBIN; a refusal is left for the caller to report or to take as a cache miss. */
static cudaError_t load(const void *cubin, cudaLibrary_t *out) {
  cudaError_t err = cudaLibraryLoadData(out, cubin, NULL, NULL, 0, NULL, NULL, 0);
  if (err != cudaSuccess) {
    cudaGetLastError();
    *out = NULL;
  }
  return err;
}

/* From the disk cache where an earlier process compiled the same source for the same device,
 * NVRTC and driver; else compiled, loaded, and stored for the next process. */
int duet__cu_program_build(duet_ctx *ctx, const char *text, const char *const *options, unsigned n,
                           void **out) {
  int status = use_device(ctx);
  if (status) return status;
  const char *unloaded = duet__nvrtc_load();
  if (unloaded)
    return duet__fail(ctx, DUET_EUNSUPPORTED,
                      "duet_program_create: cuda: NVRTC, the CUDA run-time compiler, is needed: "
                      "%s",
                      unloaded);
  char bufs[3][32];
  const char *parts[KEY_PARTS];
  if ((status = cubin_key(ctx, text, options, n, bufs, parts))) return status;
  cu_program *prog = calloc(1, sizeof *prog);
  size_t klen = 0;
  for (unsigned i = 0; i < KEY_PARTS; i++) klen += strlen(parts[i]) + 1;
  if (!prog || !(prog->key = malloc(klen))) {
    free(prog);
    free((char *)parts[4]);
    return duet__fail(ctx, DUET_ENOMEM, "duet_program_create: out of host memory");
  }
  for (unsigned i = 0; i < KEY_PARTS; i++) {
    const size_t len = strlen(parts[i]) + 1;
    memcpy(prog->key + prog->klen, parts[i], len);
    prog->klen += len;
  }
  prog->device = duet_ctx_device(ctx);
  cu_program *live = program_find(prog->device, prog->key, prog->klen);
  if (live) {
    duet__note("cuda: duet_program_create: reused from memory");
    free((char *)parts[4]);
    program_destroy(prog);
    *out = live;
    return DUET_OK;
  }
  int loaded = 0;
  const int disk = duet__cache_keyable(&text, 1, parts[4]);
  if (disk && duet__cache_load(parts, KEY_PARTS, &prog->cubin, &prog->len)) {
    loaded = load(prog->cubin, &prog->lib) == cudaSuccess;
    if (loaded) {
      duet__note("cuda: duet_program_create: loaded from the disk cache");
    } else {
      duet__note("cuda: the driver refused a cached CUBIN; removed, compiling again");
      duet__cache_remove(parts, KEY_PARTS);
      free(prog->cubin);
      prog->cubin = NULL;
    }
  }
  if (!loaded && !(status = compile(ctx, text, options, n, strchr(parts[1], ' ') + 1,
                                    (char **)&prog->cubin, &prog->len))) {
    cudaError_t err = load(prog->cubin, &prog->lib);
    if (err != cudaSuccess)
      status = duet__cu_fail(ctx, err, "cudaLibraryLoadData");
    else if (disk && duet__cache_on())
      duet__cache_store(parts, KEY_PARTS, prog->cubin, prog->len);
  }
  free((char *)parts[4]);
  if (status)
    program_destroy(prog);
  else
    *out = program_publish(prog);
  return status;
}

/* Drops a reference; the last one unloads the library (outside the lock: it may synchronize). */
void duet__cu_program_free(duet_ctx *ctx, void *prog) {
  (void)ctx;
  cu_program *p = prog, **at;
  pthread_mutex_lock(&programs_lock);
  const int last = --p->refs == 0;
  if (last) {
    for (at = &programs; *at != p; at = &(*at)->next) {
    }
    *at = p->next;
  }
  pthread_mutex_unlock(&programs_lock);
  if (last) program_destroy(p);
}

/* The driver's cuKernelGetParamInfo, or NULL where the driver lacks it. */
typedef int (*param_info_fn)(cudaKernel_t kernel, size_t index, size_t *offset, size_t *size);
static param_info_fn param_info(void) {
  void *fn = NULL;
  enum cudaDriverEntryPointQueryResult found;
  if (cudaGetDriverEntryPointByVersion("cuKernelGetParamInfo", &fn, 12040, cudaEnableDefault,
                                       &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess) {
    cudaGetLastError();
    return NULL;
  }
  param_info_fn typed;
  memcpy(&typed, &fn, sizeof typed);
  return typed;
}

/* The kinds each parameter takes, from its size: all CUDA keeps of a parameter's type. The
 * driver has no call for the number of parameters, and asking for one past the last is an
 * error (CUDA_ERROR_INVALID_VALUE) that compute-sanitizer reports as the program's, once per
 * kernel: so the count comes from the CUBIN (cubin_params.h), and the driver is asked only
 * where that count is unknown, until it refuses. A refusal within the count is not ours to
 * hide or to fail the launch for: the arguments then go unchecked, with a note. */
static int describe_params(duet_ctx *ctx, const cu_program *prog, cudaKernel_t kern,
                           const char *name, duet__user_kernel *k) {
  param_info_fn info = param_info();
  if (!info) return DUET_OK; /* counted stays 0: the arguments go unchecked */
  const int count = duet__cubin_param_count(prog->cubin, prog->len, name);
  for (size_t i = 0; count < 0 || i < (size_t)count; i++) {
    size_t offset, size;
    if (info(kern, i, &offset, &size) != 0) {
      if (count < 0) break; /* past the last parameter */
      duet__note(
          "cuda: duet_launch: %s: the driver has no parameter %zu of the CUBIN's %d; its "
          "arguments go unchecked",
          name, i, count);
      k->nparams = 0;
      return DUET_OK;
    }
    if (i == DUET__USER_MAX_ARGS)
      return duet__fail(ctx, DUET_EINVAL, "duet_launch: %s has more than duet's %d parameters",
                        name, DUET__USER_MAX_ARGS);
    k->accepts[i] = size == 8   ? (1u << DUET__ARG_MEM) | (1u << DUET__ARG_I64)
                    : size == 4 ? (1u << DUET__ARG_I32) | (1u << DUET__ARG_F32)
                                : 0;
    if (!k->accepts[i])
      return duet__fail(ctx, DUET_EINVAL,
                        "duet_launch: %s: parameter %zu is %zu bytes, which no duet_arg passes",
                        name, i, size);
    k->nparams = (unsigned)i + 1;
  }
  k->counted = 1;
  return DUET_OK;
}

int duet__cu_program_kernel(duet_ctx *ctx, void *prog, const char *name, duet__user_kernel *k) {
  int status = use_device(ctx);
  if (status) return status;
  memset(k, 0, sizeof *k);
  cudaKernel_t kern;
  cudaError_t err = cudaLibraryGetKernel(&kern, ((cu_program *)prog)->lib, name);
  if (err == cudaErrorSymbolNotFound || err == cudaErrorInvalidResourceHandle ||
      err == cudaErrorInvalidDeviceFunction || err == cudaErrorInvalidValue) {
    cudaGetLastError();
    return duet__fail(ctx, DUET_EINVAL,
                      "duet_launch: the program has no kernel named '%s' (%s; a kernel must be "
                      "declared with DUET_KERNEL)",
                      name, cudaGetErrorName(err));
  }
  if (err != cudaSuccess) return duet__cu_fail(ctx, err, "cudaLibraryGetKernel");
  struct cudaFuncAttributes attr;
  if ((err = cudaFuncGetAttributes(&attr, (const void *)kern)) != cudaSuccess)
    return duet__cu_fail(ctx, err, "cudaFuncGetAttributes");
  static const enum cudaDeviceAttr dims[3] = {cudaDevAttrMaxBlockDimX, cudaDevAttrMaxBlockDimY,
                                              cudaDevAttrMaxBlockDimZ};
  for (int d = 0; d < 3; d++) {
    int v = 0;
    if ((err = cudaDeviceGetAttribute(&v, dims[d], duet_ctx_device(ctx))) != cudaSuccess)
      return duet__cu_fail(ctx, err, "cudaDeviceGetAttribute");
    k->max_block[d] = (unsigned)v;
  }
  if ((status = describe_params(ctx, prog, kern, name, k))) return status;
  k->fn = kern;
  k->max_threads = (unsigned)attr.maxThreadsPerBlock;
  k->shared_bytes = ctx->caps.shared_bytes > attr.sharedSizeBytes
                        ? ctx->caps.shared_bytes - attr.sharedSizeBytes
                        : 0;
  /* Opted in to all of it once, here, not per launch: the kernel is shared by every context on
   * the device, and a launch that lowered the limit could fail another thread's larger one. */
  if (k->shared_bytes > DEFAULT_SHARED_LIMIT &&
      (err = cudaKernelSetAttributeForDevice(kern, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             (int)k->shared_bytes, duet_ctx_device(ctx))) !=
          cudaSuccess)
    return duet__cu_fail(ctx, err, "cudaKernelSetAttributeForDevice");
  return DUET_OK;
}

void duet__cu_program_kernel_free(duet_ctx *ctx, duet__user_kernel *k) {
  (void)ctx;
  k->fn = NULL; /* freed with its library */
}

int duet__cu_program_launch(duet_ctx *ctx, const duet__user_kernel *k, const duet__launch *l,
                            const duet__arg *args, unsigned nargs) {
  int status = use_device(ctx);
  if (status) return status;
  const cudaKernel_t kern = (cudaKernel_t)k->fn;
  /* cudaLaunchKernel takes each argument's address; every union member starts at u. */
  void *argv[DUET__USER_MAX_ARGS];
  for (unsigned i = 0; i < nargs; i++) argv[i] = (void *)&args[i].u;
  dim3 grid = {(unsigned)l->grid[0], (unsigned)l->grid[1], (unsigned)l->grid[2]};
  dim3 block = {l->block[0], l->block[1], l->block[2]};
  cudaError_t err = cudaLaunchKernel((const void *)kern, grid, block, argv, l->shared_bytes,
                                     (cudaStream_t)duet_ctx_native_queue(ctx));
  return err == cudaSuccess ? DUET_OK : duet__cu_fail(ctx, err, "cudaLaunchKernel");
}
