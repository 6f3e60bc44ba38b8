/* SPDX-License-Identifier: MIT */
/* Sizes checked against the machine before a block allocates anything: its host memory against
 * the physical memory sysconf reports, one set of its device buffers against each device's
 * global memory. Without the check, `gemm -n 70000` asks for about 100 GB of host memory and is
 * killed by the kernel's out-of-memory killer without a word. */
#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include "bench.h"
#include "bench_fit.h"
#include "bench_format.h"
#include "bench_verify.h"

/* The machine's physical memory in bytes, or 0 where sysconf cannot tell. */
static double physical_bytes(void) {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? (double)pages * (double)page : 0;
}

static void refuse(bench_routine r, bench_size s, const char *where, double need, double have,
                   char *why, size_t len) {
  char size[64], n[32], h[32];
  bench_size_str(r, s, size, sizeof size);
  bench_bytes_str(need, n, sizeof n);
  bench_bytes_str(have, h, sizeof h);
  snprintf(why, len, "%s %s needs %s of %s, which has %s", bench_routine_name(r), size, n, where,
           h);
}

int bench_fit_host(bench_routine r, bench_size s, int verify, char *why, size_t len) {
  const double need = bench_host_bytes(r, s, verify), phys = physical_bytes();
  if (phys == 0 || need <= BENCH_HOST_SHARE * phys) return 0;
  refuse(r, s, "host memory", need, phys, why, len);
  return -1;
}

int bench_fit_device(bench_routine r, bench_size s, const bench_dev *dev, char *why, size_t len) {
  size_t a, b, out;
  bench_host_elems(r, s, &a, &b, &out);
  const double need = 4.0 * ((double)a + (double)b + (double)out);
  if (need <= (double)dev->info.global_mem_bytes) return 0;
  char where[320];
  snprintf(where, sizeof where, "device memory on %s:%d (%s)", duet_backend_name(dev->backend),
           dev->device, dev->info.name);
  refuse(r, s, where, need, (double)dev->info.global_mem_bytes, why, len);
  return -1;
}
