/* SPDX-License-Identifier: MIT */
/* Per-device records and their programs: memory, then the disk cache, then a build from source
 * (see opencl_programs.h). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cache.h"
#include "nvidia_jit.h"
#include "opencl_programs.h"

#define MAX_SOURCES 8

/* One program of a device: its key (the options, then each source, each ended by a NUL) and,
 * once built, the program. `lock` is held while it is built, so that contexts asking for it at
 * once build it once; other programs build meanwhile. Never removed before its device. */
typedef struct entry {
  struct entry *next;
  char *key;
  size_t klen;
  pthread_mutex_t lock;
  cl_program program;
} entry;

struct duet__cl_device {
  struct duet__cl_device *next;
  cl_device_id id;
  cl_context context;
  unsigned refs;
  pthread_mutex_t lock; /* guards entries */
  entry *entries;
  /* The device, driver and platform, for the disk cache's key: a driver update makes binaries
   * stale (intel compute-runtime issue 125). */
  char description[1024];
  /* NVIDIA's compute capability, whose PTX binaries the disk cache keeps as CUBINs; 0: another
   * vendor's device. */
  cl_uint nv_major, nv_minor;
  int cubin_refused; /* the driver refused a cached CUBIN: store PTX from now on */
};

static pthread_mutex_t devices_lock = PTHREAD_MUTEX_INITIALIZER;
static duet__cl_device *devices;

static void describe(duet__cl_device *d) {
  static const cl_device_info infos[] = {CL_DEVICE_NAME, CL_DEVICE_VENDOR, CL_DRIVER_VERSION,
                                         CL_DEVICE_VERSION};
  size_t at = 0;
  const size_t n = sizeof d->description;
  for (size_t i = 0; i < sizeof infos / sizeof infos[0] && at + 2 < n; i++) {
    size_t got = 0;
    if (duet__cl.clGetDeviceInfo(d->id, infos[i], n - at - 2, d->description + at, &got) !=
            CL_SUCCESS ||
        !got)
      got = 1;
    at += got - 1; /* got counts the NUL */
    d->description[at++] = '\n';
  }
  cl_platform_id platform;
  size_t got = 0;
  if (at + 2 < n &&
      duet__cl.clGetDeviceInfo(d->id, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL) ==
          CL_SUCCESS &&
      duet__cl.clGetPlatformInfo(platform, CL_PLATFORM_VERSION, n - at - 1, d->description + at,
                                 &got) == CL_SUCCESS &&
      got)
    at += got - 1;
  d->description[at] = '\0';
}

cl_int duet__cl_device_acquire(cl_device_id id, duet__cl_device **out) {
  cl_int err = CL_SUCCESS;
  pthread_mutex_lock(&devices_lock);
  duet__cl_device *d = devices;
  while (d && d->id != id) d = d->next;
  if (d) {
    d->refs++;
  } else if (!(d = calloc(1, sizeof *d))) {
    err = CL_OUT_OF_HOST_MEMORY;
  } else {
    d->id = id;
    d->context = duet__cl.clCreateContext(NULL, 1, &id, NULL, NULL, &err);
    if (d->context) {
      d->refs = 1;
      pthread_mutex_init(&d->lock, NULL);
      describe(d);
      if (duet__cl.clGetDeviceInfo(id, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof d->nv_major,
                                   &d->nv_major, NULL) != CL_SUCCESS ||
          duet__cl.clGetDeviceInfo(id, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof d->nv_minor,
                                   &d->nv_minor, NULL) != CL_SUCCESS)
        d->nv_major = d->nv_minor = 0;
      d->next = devices;
      devices = d;
    } else {
      free(d);
      d = NULL;
    }
  }
  pthread_mutex_unlock(&devices_lock);
  *out = d;
  return err;
}

void duet__cl_device_release(duet__cl_device *d) {
  if (!d) return;
  pthread_mutex_lock(&devices_lock);
  const int last = --d->refs == 0;
  if (last) {
    duet__cl_device **p = &devices;
    while (*p != d) p = &(*p)->next;
    *p = d->next;
  }
  pthread_mutex_unlock(&devices_lock);
  if (!last) return;
  for (entry *e = d->entries, *next; e; e = next) {
    next = e->next;
    if (e->program) duet__cl.clReleaseProgram(e->program);
    pthread_mutex_destroy(&e->lock);
    free(e->key);
    free(e);
  }
  pthread_mutex_destroy(&d->lock);
  duet__cl.clReleaseContext(d->context);
  free(d);
}

cl_context duet__cl_device_context(const duet__cl_device *d) { return d->context; }

/* ---- building --------------------------------------------------------------------------- */

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The build log, or NULL; the caller frees it. */
static char *build_log(cl_device_id dev, cl_program prog) {
  size_t len = 0;
  duet__cl.clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
  char *log = malloc(len + 1);
  if (log &&
      duet__cl.clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, len, log, NULL) == CL_SUCCESS)
    log[len] = '\0';
  else if (log)
    log[0] = '\0';
  return log;
}

/* Whether log[0, n) holds word, case-blind. */
static int mentions(const char *log, size_t n, const char *word) {
  const size_t w = strlen(word);
  for (size_t at = 0; at + w <= n; at++) {
    size_t i = 0;
    while (i < w && (log[at + i] | 0x20) == (word[i] | 0x20)) i++;
    if (i == w) return 1;
  }
  return 0;
}

/* A compiler that ignores -Werror still logs "warning"; case-blind, as vendors differ. One line
 * is not about the source: NVIDIA's driver (580.159 on the H100) logs "Warning: Function K is a
 * kernel, so overriding noinline attribute" for every kernel it compiles, a one-line kernel
 * included, whatever the options, and never when the build comes from its cache. */
static int has_warning(const char *log) {
  while (log && *log) {
    const char *end = strchr(log, '\n');
    const size_t n = end ? (size_t)(end - log) : strlen(log);
    if (mentions(log, n, "warning") &&
        !mentions(log, n, "is a kernel, so overriding noinline attribute"))
      return 1;
    log += n + (end != NULL);
  }
  return 0;
}

int duet__cl_werror(void) {
  const char *werror = duet__getenv("DUET_OPENCL_WERROR");
  return werror && strcmp(werror, "1") == 0;
}

static int build_failed(duet_ctx *ctx, const char *log, const char *why, const char *what,
                        const char *options) {
  return duet__fail(ctx, DUET_EBUILD, "opencl: building %s failed: %s; options: %s; log:\n%s", what,
                    why, options, log ? log : "(no log)");
}

/* The register cap a program was built with (-cl-nv-maxrregcount=N, which acts in ptxas), or 0. */
static unsigned nv_register_cap_of(const char *options) {
  static const char flag[] = "-cl-nv-maxrregcount=";
  const char *at = strstr(options, flag);
  return at ? (unsigned)strtoul(at + sizeof flag - 1, NULL, 10) : 0;
}

/* What the disk cache keeps of an NVIDIA program's PTX binary: the CUBIN libcuda's JIT makes of
 * it (nvidia_jit.h) under the build's register cap, which the driver loads without ptxas. Only
 * where the caller asks for one (cubin); not for a program built with
 * -cl-kernel-arg-info (the user's): a CUBIN loses that information, and from_cache would build
 * such a program from source again; nor once the driver refused a cached CUBIN. NULL, with the
 * reason in why, keeps the PTX. */
static void *nv_cubin(const duet__cl_device *d, int cubin_ok, const char *options,
                      const unsigned char *bin, size_t size, size_t *cubin_size, char *why,
                      size_t wlen) {
  if (!cubin_ok) {
    snprintf(why, wlen,
             "a CUBIN is not asked for (the driver's cache is on, or not a GEMM kernel)");
    return NULL;
  }
  if (__atomic_load_n(&d->cubin_refused, __ATOMIC_RELAXED)) {
    snprintf(why, wlen, "the driver refused a CUBIN");
    return NULL;
  }
  if (strstr(options, "-cl-kernel-arg-info")) {
    snprintf(why, wlen, "its kernels' argument info is asked for");
    return NULL;
  }
  char *ptx = malloc(size + 1);
  void *cubin = NULL;
  if (!ptx) {
    snprintf(why, wlen, "out of host memory");
    return NULL;
  }
  memcpy(ptx, bin, size);
  ptx[size] = '\0';
  if (!strstr(ptx, ".entry"))
    snprintf(why, wlen, "the driver's binary is not PTX");
  else
    duet__nv_ptx_to_cubin(ptx, strlen(ptx), (int)d->nv_major, (int)d->nv_minor,
                          nv_register_cap_of(options), &cubin, cubin_size, why, wlen);
  free(ptx);
  return cubin;
}

/* The program's binary for the disk cache, taken after its kernels were made: some drivers
 * (ARM's) compile at clCreateKernel. Stores nothing when any step fails; says in note what it
 * stored (NVIDIA: a CUBIN, or the PTX and why). */
static void store_binary(const duet__cl_device *d, cl_program prog, int cubin_ok,
                         const char *options, const char *const *parts, unsigned nparts, char *note,
                         size_t nlen) {
  note[0] = '\0';
  cl_uint nk = 0;
  if (duet__cl.clCreateKernelsInProgram(prog, 0, NULL, &nk) != CL_SUCCESS) return;
  cl_kernel *ks = calloc(nk ? nk : 1, sizeof *ks);
  if (!ks) return;
  const cl_int made = duet__cl.clCreateKernelsInProgram(prog, nk, ks, NULL);
  for (cl_uint i = 0; made == CL_SUCCESS && i < nk; i++) duet__cl.clReleaseKernel(ks[i]);
  free(ks);
  size_t size = 0;
  if (made != CL_SUCCESS ||
      duet__cl.clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) !=
          CL_SUCCESS ||
      !size)
    return;
  unsigned char *bin = malloc(size);
  if (bin &&
      duet__cl.clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) == CL_SUCCESS) {
    char why[512] = "";
    size_t cubin_size = 0;
    void *cubin = d->nv_major
                      ? nv_cubin(d, cubin_ok, options, bin, size, &cubin_size, why, sizeof why)
                      : NULL;
    if (cubin) {
      duet__cache_store(parts, nparts, cubin, cubin_size);
      snprintf(note, nlen, ", as a CUBIN");
    } else {
      duet__cache_store(parts, nparts, bin, size);
      if (d->nv_major) snprintf(note, nlen, ", as PTX: %.400s", why);
    }
    free(cubin);
  }
  free(bin);
}

/* Whether a program built with -cl-kernel-arg-info from a binary kept that information (the
 * spec promises it only for programs built from source; PoCL 5 keeps it), so that user kernels'
 * argument kinds are still checked. */
static int keeps_arg_info(cl_program prog, const char *options) {
  cl_kernel k;
  cl_uint n = 0;
  if (!strstr(options, "-cl-kernel-arg-info") ||
      duet__cl.clCreateKernelsInProgram(prog, 1, &k, &n) != CL_SUCCESS || n == 0)
    return 1;
  cl_uint nargs = 0;
  cl_kernel_arg_address_qualifier space;
  int kept =
      duet__cl.clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL) != CL_SUCCESS ||
      nargs == 0 ||
      duet__cl.clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof space, &space,
                                  NULL) != CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
  duet__cl.clReleaseKernel(k);
  return kept;
}

/* The cached binary built, or NULL: a binary the driver refuses is removed from the cache. */
static cl_program from_cache(duet__cl_device *d, const char *options, const char *const *parts,
                             unsigned nparts) {
  void *bin;
  size_t size;
  if (!duet__cache_load(parts, nparts, &bin, &size)) return NULL;
  cl_int err, status = CL_SUCCESS;
  const unsigned char *b = bin;
  cl_program prog =
      duet__cl.clCreateProgramWithBinary(d->context, 1, &d->id, &size, &b, &status, &err);
  if (prog && (status != CL_SUCCESS ||
               duet__cl.clBuildProgram(prog, 1, &d->id, options, NULL, NULL) != CL_SUCCESS)) {
    duet__cl.clReleaseProgram(prog);
    prog = NULL;
  }
  if (!prog && size >= 4 && memcmp(bin, "\177ELF", 4) == 0)
    __atomic_store_n(&d->cubin_refused, 1, __ATOMIC_RELAXED);
  free(bin);
  if (!prog) {
    duet__note("opencl: the driver refused a cached binary; removed, building from source");
    duet__cache_remove(parts, nparts);
  } else if (!keeps_arg_info(prog, options)) {
    duet__note(
        "opencl: a program from a cached binary lost its kernel argument info; building "
        "from source");
    duet__cl.clReleaseProgram(prog);
    prog = NULL;
  }
  return prog;
}

/* Builds from source into *out; a failure is recorded on ctx. */
static int from_source(duet_ctx *ctx, const duet__cl_device *d, unsigned nsrc,
                       const char *const *srcs, const char *options, int werror, const char *what,
                       cl_program *out) {
  cl_int err;
  cl_program prog =
      duet__cl.clCreateProgramWithSource(d->context, nsrc, (const char **)srcs, NULL, &err);
  if (!prog) return duet__cl_fail(ctx, err, "clCreateProgramWithSource");
  err = duet__cl.clBuildProgram(prog, 1, &d->id, options, NULL, NULL);
  char *log = err != CL_SUCCESS || werror ? build_log(d->id, prog) : NULL;
  int status = DUET_OK;
  if (err != CL_SUCCESS) {
    char why[64];
    snprintf(why, sizeof why, "%s (%d)", duet__cl_error_name(err), (int)err);
    status = build_failed(ctx, log, why, what, options);
  } else if (werror && has_warning(log)) {
    status =
        build_failed(ctx, log, "its log has a warning, and DUET_OPENCL_WERROR=1", what, options);
  }
  free(log);
  if (status)
    duet__cl.clReleaseProgram(prog);
  else
    *out = prog;
  return status;
}

/* Finds or adds the entry of key[0, klen) (ENOMEM: NULL). */
static entry *entry_of(duet__cl_device *d, const char *key, size_t klen) {
  pthread_mutex_lock(&d->lock);
  entry *e = d->entries;
  while (e && (e->klen != klen || memcmp(e->key, key, klen) != 0)) e = e->next;
  if (!e && (e = calloc(1, sizeof *e)) && (e->key = malloc(klen))) {
    memcpy(e->key, key, klen);
    e->klen = klen;
    pthread_mutex_init(&e->lock, NULL);
    e->next = d->entries;
    d->entries = e;
  } else if (e && !e->key) {
    free(e);
    e = NULL;
  }
  pthread_mutex_unlock(&d->lock);
  return e;
}

int duet__cl_program_get(duet_ctx *ctx, duet__cl_device *d, unsigned nsrc, const char *const *srcs,
                         const char *options, const char *what, int cubin, cl_program *out) {
  const int werror = duet__cl_werror();
  *out = NULL;
  if (nsrc > MAX_SOURCES)
    return duet__fail(ctx, DUET_EINVAL, "opencl: %s has %u sources, more than %d", what, nsrc,
                      MAX_SOURCES);
  size_t klen = strlen(options) + sizeof " -Werror";
  for (unsigned i = 0; i < nsrc; i++) klen += strlen(srcs[i]) + 1;
  char *key = malloc(klen);
  if (!key) return duet__fail(ctx, DUET_ENOMEM, "opencl: out of host memory");
  /* The key starts with the options as they are built: options, NUL, each source and NUL. */
  size_t at = (size_t)snprintf(key, klen, "%s%s", options, werror ? " -Werror" : "") + 1;
  const char *full_options = key;
  for (unsigned i = 0; i < nsrc; i++) {
    const size_t n = strlen(srcs[i]) + 1;
    memcpy(key + at, srcs[i], n);
    at += n;
  }
  entry *e = entry_of(d, key, at);
  if (!e) {
    free(key);
    return duet__fail(ctx, DUET_ENOMEM, "opencl: out of host memory");
  }
  int status = DUET_OK;
  pthread_mutex_lock(&e->lock);
  if (e->program) {
    duet__note("opencl: %s: reused from memory", what);
  } else {
    const char *parts[MAX_SOURCES + 3] = {"opencl", d->description, full_options};
    for (unsigned i = 0; i < nsrc; i++) parts[3 + i] = srcs[i];
    const double t0 = now();
    const int disk = duet__cache_on() && duet__cache_keyable(srcs, nsrc, full_options);
    cl_program prog = disk ? from_cache(d, full_options, parts, 3 + nsrc) : NULL;
    if (prog) {
      duet__note("opencl: %s: loaded from the disk cache in %.3f s", what, now() - t0);
    } else if (!(status = from_source(ctx, d, nsrc, srcs, full_options, werror, what, &prog))) {
      const double t1 = now();
      char stored[600] = "";
      if (disk) store_binary(d, prog, cubin, full_options, parts, 3 + nsrc, stored, sizeof stored);
      duet__note("opencl: %s: built from source in %.3f s (%.3f s more to cache it%s)", what,
                 t1 - t0, now() - t1, stored);
    }
    e->program = prog;
  }
  if (e->program) {
    duet__cl.clRetainProgram(e->program);
    *out = e->program;
  }
  pthread_mutex_unlock(&e->lock);
  free(key);
  return status;
}
