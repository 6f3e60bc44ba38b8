/* SPDX-License-Identifier: MIT */
/* What the examples of kernels of your own share: their check run on every device of every
 * backend, one line per device, and the exit status that sums them up. A header of the
 * examples, not of duet: an example built outside the tree needs it beside it. */
#ifndef DUET_EXAMPLES_EACH_DEVICE_H
#define DUET_EXAMPLES_EACH_DEVICE_H

#include <duet.h>
#include <stdio.h>

/* An example's check on one context: the number of wrong results, or -1 when duet failed. */
typedef int (*each_device_fn)(duet_ctx *ctx);

/* Runs `run` on every device of CUDA and OpenCL and prints "BACKEND N (NAME): WHAT: ok" (or
 * FAILED, with the count) for each. Returns the exit status: 0 when every device got it right,
 * 1 when one did not, 77 when there was no device (`prog` says so on stderr). */
static int each_device(const char *prog, const char *what, each_device_fn run) {
  static const duet_backend backends[] = {DUET_BACKEND_CUDA, DUET_BACKEND_OPENCL};
  int ran = 0, failed = 0;
  for (int i = 0; i < 2; i++) {
    int n = 0;
    if (duet_device_count(backends[i], &n)) continue;
    for (int d = 0; d < n; d++) {
      duet_ctx *ctx;
      duet_device_info info;
      if (duet_ctx_create(&ctx, backends[i], d)) continue;
      duet_ctx_info(ctx, &info);
      const int wrong = run(ctx);
      printf("%s %d (%s): %s: %s (%d wrong)\n", duet_backend_name(backends[i]), d, info.name, what,
             wrong == 0 ? "ok" : "FAILED", wrong);
      failed += wrong != 0;
      ran++;
      duet_ctx_destroy(ctx);
    }
  }
  if (!ran) fprintf(stderr, "%s: no CUDA or OpenCL device to run on\n", prog);
  return !ran ? 77 : failed ? 1 : 0;
}

#endif
