/* SPDX-License-Identifier: MIT */
/* PTX to CUBIN through libcuda's JIT linker (nvidia_jit.h). */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dl_table.h"
#include "nvidia_jit.h"

/* The driver API's own values (cuda.h), which this file does not include: the OpenCL backend
 * builds without the CUDA toolkit. */
#define CU_JIT_MAX_REGISTERS 0
#define CU_JIT_ERROR_LOG_BUFFER 5
#define CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES 6
#define CU_JIT_TARGET 9
#define CU_JIT_INPUT_PTX 1

typedef struct {
  int (*init)(unsigned flags);
  int (*device_get)(int *dev, int ordinal);
  int (*primary_retain)(void **ctx, int dev);
  int (*primary_release)(int dev);
  int (*push)(void *ctx);
  int (*pop)(void **ctx);
  int (*link_create)(unsigned n, int *options, void **values, void **state);
  int (*link_add)(void *state, int type, void *data, size_t size, const char *name, unsigned n,
                  int *options, void **values);
  int (*link_complete)(void *state, void **cubin, size_t *size);
  int (*link_destroy)(void *state);
} cu_api;

static cu_api cu;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512]; /* empty once cu is filled and cuInit succeeded */

static void load(void) {
  /* The versioned names are the symbols cuda.h maps these calls to. */
  static const char *const names[] = {"cuInit",
                                      "cuDeviceGet",
                                      "cuDevicePrimaryCtxRetain",
                                      "cuDevicePrimaryCtxRelease_v2",
                                      "cuCtxPushCurrent_v2",
                                      "cuCtxPopCurrent_v2",
                                      "cuLinkCreate_v2",
                                      "cuLinkAddData_v2",
                                      "cuLinkComplete",
                                      "cuLinkDestroy"};
  cu_api api;
  void *const slots[] = {
      &api.init, &api.device_get,  &api.primary_retain, &api.primary_release, &api.push,
      &api.pop,  &api.link_create, &api.link_add,       &api.link_complete,   &api.link_destroy};
  if (duet__dl_table("libcuda.so.1", "the CUDA driver ", "", names, slots,
                     sizeof names / sizeof *names, load_error, sizeof load_error))
    return;
  const int err = api.init(0);
  if (err)
    snprintf(load_error, sizeof load_error, "cuInit failed (CUresult %d)", err);
  else
    cu = api;
}

/* Assembles under a pushed context: the linker needs one, though the target is explicit. */
static int link_ptx(const char *ptx, size_t len, int target, unsigned max_registers, void **cubin,
                    size_t *size, char *why, size_t wlen) {
  char log[2048] = "";
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_TARGET,
                   CU_JIT_MAX_REGISTERS};
  void *values[] = {log, (void *)(size_t)sizeof log, (void *)(size_t)target,
                    (void *)(size_t)max_registers};
  void *state = NULL, *out = NULL;
  size_t n = 0;
  int err = cu.link_create(max_registers ? 4 : 3, options, values, &state);
  if (!err)
    err = cu.link_add(state, CU_JIT_INPUT_PTX, (void *)ptx, len + 1, "duet.ptx", 0, NULL, NULL);
  if (!err) err = cu.link_complete(state, &out, &n);
  /* The CUBIN belongs to the linker's state: copied out before it goes. */
  if (!err && (*cubin = malloc(n)) != NULL) {
    memcpy(*cubin, out, n);
    *size = n;
  }
  if (state) cu.link_destroy(state);
  if (err)
    snprintf(why, wlen, "the JIT linker failed (CUresult %d): %.400s", err, log);
  else if (!*cubin)
    snprintf(why, wlen, "out of host memory");
  return err || !*cubin ? -1 : 0;
}

int duet__nv_ptx_to_cubin(const char *ptx, size_t len, int major, int minor, unsigned max_registers,
                          void **cubin, size_t *size, char *why, size_t wlen) {
  *cubin = NULL;
  *size = 0;
  if (pthread_once(&load_once, load) != 0 || load_error[0]) {
    snprintf(why, wlen, "%s", load_error[0] ? load_error : "pthread_once failed");
    return -1;
  }
  int dev = 0, err = cu.device_get(&dev, 0);
  void *ctx = NULL, *popped = NULL;
  if (!err) err = cu.primary_retain(&ctx, dev);
  if (err) {
    snprintf(why, wlen, "no CUDA context for the JIT (CUresult %d)", err);
    return -1;
  }
  int status = -1;
  if ((err = cu.push(ctx)) != 0) {
    snprintf(why, wlen, "cuCtxPushCurrent failed (CUresult %d)", err);
  } else {
    status = link_ptx(ptx, len, 10 * major + minor, max_registers, cubin, size, why, wlen);
    cu.pop(&popped);
  }
  cu.primary_release(dev);
  return status;
}
