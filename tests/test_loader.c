/* SPDX-License-Identifier: MIT */
/* The OpenCL backend opens the ICD loader at run time ($DUET_OPENCL_LIBRARY, else
 * libOpenCL.so.1). Where it cannot be opened, or lacks a function, the backend has no device:
 * duet_device_count gives 0, and duet_ctx_create DUET_ENODEV with the file and dlerror() in the
 * error text; nothing crashes. The loader is opened once per process, so each case runs in a
 * child of its own with the variable set from its start. Exits 77 without the OpenCL backend. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

typedef struct {
  int count_status, count, create_status;
  char error[1024]; /* duet_ctx_create's last error */
} probe_result;

/* In a new process with DUET_OPENCL_LIBRARY=library (NULL: unset): the OpenCL device count,
 * then duet_ctx_create on backend b. Returns 0, or -1 when the child did not report. */
static int probe(const char *library, duet_backend b, probe_result *r) {
  int fd[2];
  memset(r, 0, sizeof *r);
  if (pipe(fd)) return -1;
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) {
    close(fd[0]);
    close(fd[1]);
    return -1;
  }
  if (pid == 0) {
    close(fd[0]);
    if (library)
      setenv("DUET_OPENCL_LIBRARY", library, 1);
    else
      unsetenv("DUET_OPENCL_LIBRARY");
    probe_result mine = {0};
    mine.count_status = duet_device_count(DUET_BACKEND_OPENCL, &mine.count);
    duet_ctx *ctx = NULL;
    mine.create_status = duet_ctx_create(&ctx, b, 0);
    snprintf(mine.error, sizeof mine.error, "%s", duet_ctx_last_error(NULL));
    duet_ctx_destroy(ctx);
    _exit(write(fd[1], &mine, sizeof mine) == (ssize_t)sizeof mine ? 0 : 1);
  }
  close(fd[1]);
  ssize_t got = read(fd[0], r, sizeof *r);
  close(fd[0]);
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  return got == (ssize_t)sizeof *r && WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0 ? 0 : -1;
}

/* A loader that is missing, or a library that is not one: no device, and the reason. */
static void check_unloadable(const char *library, const char *mention) {
  harness_case c;
  harness_case_begin(&c, NULL, "DUET_OPENCL_LIBRARY=%s: no OpenCL device, with the reason",
                     library);
  probe_result r;
  if (harness_expect(&c, probe(library, DUET_BACKEND_OPENCL, &r) == 0,
                     "the child process did not report (it crashed?)")) {
    harness_expect(&c, r.count_status == DUET_OK && r.count == 0,
                   "duet_device_count returned %s with %d devices, want DUET_OK with 0",
                   duet_status_name(r.count_status), r.count);
    harness_expect(&c, r.create_status == DUET_ENODEV, "duet_ctx_create returned %s: \"%s\"",
                   duet_status_name(r.create_status), r.error);
    harness_expect(&c, strstr(r.error, library) != NULL, "the error does not name %s: \"%s\"",
                   library, r.error);
    harness_expect(&c, strstr(r.error, mention) != NULL, "the error does not say \"%s\": \"%s\"",
                   mention, r.error);
    printf("      the reason given: %s\n", r.error);
  }
  harness_case_end(&c);
}

/* DUET_BACKEND_AUTO names the reason of every backend without a device, the loader's too. */
static void check_auto(const char *library) {
  harness_case c;
  harness_case_begin(&c, NULL, "DUET_OPENCL_LIBRARY=%s: AUTO names the loader", library);
  probe_result r;
  if (!harness_expect(&c, probe(library, DUET_BACKEND_AUTO, &r) == 0,
                      "the child process did not report (it crashed?)")) {
    harness_case_end(&c);
  } else if (r.create_status == DUET_OK) {
    harness_case_skip(&c, "another backend has a device");
  } else {
    harness_expect(&c, r.create_status == DUET_ENODEV, "duet_ctx_create returned %s: \"%s\"",
                   duet_status_name(r.create_status), r.error);
    harness_expect(&c, strstr(r.error, library) != NULL, "the error does not name %s: \"%s\"",
                   library, r.error);
    harness_case_end(&c);
  }
}

/* Without the variable, the system's loader: the same devices as this process sees. */
static void check_default(void) {
  harness_case c;
  harness_case_begin(&c, NULL, "DUET_OPENCL_LIBRARY unset: libOpenCL.so.1");
  probe_result r;
  if (!harness_expect(&c, probe(NULL, DUET_BACKEND_OPENCL, &r) == 0,
                      "the child process did not report (it crashed?)")) {
    harness_case_end(&c);
  } else if (r.count == 0) {
    harness_case_skip(&c, "no OpenCL device here: %s", r.error);
  } else {
    harness_expect(&c, r.create_status == DUET_OK, "duet_ctx_create returned %s: \"%s\"",
                   duet_status_name(r.create_status), r.error);
    harness_case_end(&c);
  }
}

int main(void) {
  harness_init("test_loader");
  if (!duet_backend_built(DUET_BACKEND_OPENCL)) {
    printf("SKIP: the OpenCL backend is not built\n");
    return harness_end();
  }
  harness_contexts_ran(1);
  check_unloadable("/nonexistent/libOpenCL.so.1", "cannot open shared object file");
  /* A library that opens but is no OpenCL loader. */
  check_unloadable("libm.so.6", "lacks clGetPlatformIDs");
  check_auto("/nonexistent/libOpenCL.so.1");
  check_default();
  return harness_end();
}
