/* SPDX-License-Identifier: MIT */
/* `duet-bench kernels`: what the compiler made of every duet kernel on each device, the course's
 * occupancy lesson applied to duet's own kernels: the block each is launched with, its shared
 * memory (dynamic, and what it declares itself), registers and local (spilled) or private memory
 * per thread, the largest block it allows, and where the backend can tell (CUDA's occupancy API)
 * how many blocks of it a multiprocessor holds at once and the share of the multiprocessor's
 * warps that makes. Loading a kernel builds its OpenCL group, so the first run on a device takes
 * as long as its builds. Nothing is timed. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "bench_commands.h"
#include "bench_util.h"
#include "duet_launch.h"

/* A number, or "-" where the backend cannot tell (negative). */
static void cell(long v, int width) {
  if (v < 0)
    printf(" %*s", width, "-");
  else
    printf(" %*ld", width, v);
}

static int run_device(bench_dev *dev) {
  int bad = 0;
  printf("\n%s:%d  %s (%s, tuning %s)\n", duet_backend_name(dev->backend), dev->device,
         dev->info.name, dev->info.version, duet_ctx_tuning(dev->ctx));
  printf("%-28s %-16s %9s %8s %8s %5s %8s %7s %9s %9s\n", "kernel", "group", "block", "dyn sh",
         "own sh", "regs", "local B", "max thr", "blocks/SM", "occupancy");
  for (int k = 0; k < DUET__K_COUNT; k++) {
    duet__kernel_attrs a;
    bench_progress("kernels %s:%d: loading kernel %d of %d", duet_backend_name(dev->backend),
                   dev->device, k + 1, DUET__K_COUNT);
    const int st = duet__kernel_attrs_get(dev->ctx, k, &a);
    bench_progress_done();
    if (st) {
      /* A kernel the context's tuning set does not compile is no failure of the bench. */
      const char *why = duet_ctx_last_error(dev->ctx);
      printf("%-28s %-16s not loaded: %s: %.*s\n", a.kernel->name, a.group, duet_status_name(st),
             (int)strcspn(why, "\n"), why);
      bad |= st != DUET_EBUILD && st != DUET_EUNSUPPORTED;
      continue;
    }
    char block[32];
    snprintf(block, sizeof block, "%ux%u", a.block_x, a.block_y);
    printf("%-28s %-16s %9s", a.kernel->name, a.group, block);
    cell((long)a.shared_bytes, 8);
    cell(a.static_shared_bytes, 8);
    cell(a.registers, 5);
    cell(a.private_bytes, 8);
    cell((long)a.max_threads, 7);
    cell(a.blocks_per_unit, 9);
    if (a.occupancy < 0)
      printf(" %9s\n", "-");
    else
      printf(" %8.0f%%\n", 100.0 * a.occupancy);
  }
  return bad;
}

int bench_kernels(const bench_opts *o, bench_dev *devs, int ndev) {
  (void)o;
  int bad = 0;
  printf("duet-bench %s kernels: every kernel of the manifest as loaded on each device\n",
         duet_version());
  for (int d = 0; d < ndev; d++) bad |= run_device(&devs[d]);
  printf(
      "\nblock: threads launched per block. dyn sh: the launch's dynamic shared (OpenCL __local "
      "argument)\n  bytes. own sh: shared memory the kernel declares (CUDA), or OpenCL's "
      "CL_KERNEL_LOCAL_MEM_SIZE,\n  which counts a __local argument already set. regs: per "
      "thread. local B: local memory per\n  thread (CUDA: spills), or OpenCL's private memory. "
      "max thr: the largest block the kernel\n  allows. blocks/SM and occupancy: "
      "cudaOccupancyMaxActiveBlocksPerMultiprocessor at the\n  launch's block and dynamic shared "
      "memory, and its warps over the multiprocessor's most.\n  -: the backend does not tell.\n");
  if (bad) fprintf(stderr, "duet-bench: some kernels could not be loaded (see above)\n");
  return bad;
}
