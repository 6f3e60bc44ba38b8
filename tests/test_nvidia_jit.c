/* SPDX-License-Identifier: MIT */
/* backends/nvidia_jit.c alone, no OpenCL: a small valid PTX becomes a CUBIN (an ELF) where the
 * CUDA driver and a device are present, a register cap changes what ptxas makes of a kernel that
 * needs more, and a broken PTX fails with the JIT's reason; without the driver (CI) every call
 * fails cleanly, naming libcuda.so.1, and the cases that need it say SKIP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../backends/nvidia_jit.h"
#include "harness.h"

/* One empty kernel, the form NVIDIA's OpenCL compiler writes (its PTX for sm_80 and later). */
static const char good_ptx[] =
    "//\n.version 7.0\n.target sm_80\n.address_size 64\n\n.visible .entry "
    "duet_empty()\n{\n\tret;\n}\n";
static const char bad_ptx[] = "//\n.version 7.0\n.target sm_80\n.address_size 64\nnot ptx at all\n";

/* A kernel that loads 32 floats, multiplies them in pairs and stores the products: all 32 live
 * at once where registers allow, which a cap of 16 does not. */
static void hungry_ptx(char *buf, size_t len) {
  size_t at =
      (size_t)snprintf(buf, len,
                       "//\n.version 7.0\n.target sm_80\n.address_size 64\n\n.visible .entry "
                       "duet_hungry(.param .u64 p)\n{\n\t.reg .f32 %%f<65>;\n\t.reg .b64 "
                       "%%rd<3>;\n\tld.param.u64 %%rd1, [p];\n\tcvta.to.global.u64 %%rd2, "
                       "%%rd1;\n");
  for (int i = 0; i < 8; i++)
    at += (size_t)snprintf(buf + at, len - at,
                           "\tld.global.v4.f32 {%%f%d, %%f%d, %%f%d, %%f%d}, [%%rd2+%d];\n",
                           4 * i + 1, 4 * i + 2, 4 * i + 3, 4 * i + 4, 16 * i);
  for (int i = 1; i <= 32; i++)
    at +=
        (size_t)snprintf(buf + at, len - at, "\tmul.f32 %%f%d, %%f%d, %%f%d;\n", 32 + i, i, 33 - i);
  for (int i = 1; i <= 32; i++)
    at += (size_t)snprintf(buf + at, len - at, "\tst.global.f32 [%%rd2+%d], %%f%d;\n",
                           512 + 4 * (i - 1), 32 + i);
  snprintf(buf + at, len - at, "\tret;\n}\n");
}

/* Whether this machine cannot run the JIT at all: no driver library, or no device. */
static int no_driver(const char *why) {
  return strstr(why, "libcuda.so.1") || strstr(why, "cuInit") || strstr(why, "no CUDA context");
}

int main(void) {
  harness_init("test_nvidia_jit");
  harness_contexts_ran(1);
  harness_case c;
  char why[512];
  void *cubin = NULL;
  size_t size = 0;

  harness_case_begin(&c, NULL, "nvidia_jit: a valid PTX becomes a CUBIN for sm_80");
  why[0] = '\0';
  int got =
      duet__nv_ptx_to_cubin(good_ptx, strlen(good_ptx), 8, 0, 0, &cubin, &size, why, sizeof why);
  const int driver = !(got != 0 && no_driver(why));
  if (!driver) {
    harness_expect(&c, cubin == NULL && size == 0, "a failure left a CUBIN (%zu bytes)", size);
    harness_case_skip(&c, "no CUDA driver or device here: %s", why);
  } else {
    harness_expect(&c, got == 0, "failed: %s", why);
    harness_expect(&c, got != 0 || (cubin && size > 64 && memcmp(cubin, "\177ELF", 4) == 0),
                   "the result (%zu bytes) is not an ELF", size);
    harness_case_end(&c);
  }
  free(cubin);

  harness_case_begin(&c, NULL, "nvidia_jit: a register cap of 16 reaches ptxas");
  static char hungry[8192];
  hungry_ptx(hungry, sizeof hungry);
  void *free_regs = NULL, *capped = NULL;
  size_t free_size = 0, capped_size = 0;
  why[0] = '\0';
  got = duet__nv_ptx_to_cubin(hungry, strlen(hungry), 8, 0, 0, &free_regs, &free_size, why,
                              sizeof why);
  if (!driver) {
    harness_case_skip(&c, "no CUDA driver or device here");
  } else {
    harness_expect(&c, got == 0, "without a cap: %s", why);
    got = duet__nv_ptx_to_cubin(hungry, strlen(hungry), 8, 0, 16, &capped, &capped_size, why,
                                sizeof why);
    harness_expect(&c, got == 0, "with a cap of 16: %s", why);
    harness_expect(&c,
                   !free_regs || !capped ||
                       (free_size != capped_size || memcmp(free_regs, capped, free_size) != 0),
                   "the capped CUBIN is the uncapped one, byte for byte (%zu bytes)", free_size);
    harness_case_end(&c);
  }
  free(free_regs);
  free(capped);

  harness_case_begin(&c, NULL, "nvidia_jit: a broken PTX fails with a reason and no CUBIN");
  why[0] = '\0';
  cubin = NULL;
  got = duet__nv_ptx_to_cubin(bad_ptx, strlen(bad_ptx), 8, 0, 0, &cubin, &size, why, sizeof why);
  harness_expect(&c, got == -1, "returned %d", got);
  harness_expect(&c, cubin == NULL && size == 0, "a failure left a CUBIN (%zu bytes)", size);
  harness_expect(&c, why[0] != '\0', "no reason given");
  harness_expect(&c, driver || strstr(why, "libcuda.so.1"),
                 "without the driver the reason names libcuda.so.1: %s", why);
  harness_case_end(&c);

  harness_case_begin(&c, NULL, "nvidia_jit: a reason longer than its buffer is cut, not overrun");
  char small[8];
  memset(small, 'x', sizeof small);
  cubin = NULL;
  got = duet__nv_ptx_to_cubin(bad_ptx, strlen(bad_ptx), 8, 0, 0, &cubin, &size, small, 4);
  harness_expect(&c, got == -1 && cubin == NULL, "returned %d", got);
  harness_expect(&c, memchr(small, '\0', 4) != NULL && small[4] == 'x',
                 "the reason was not ended inside its 4 bytes, or went past them");
  harness_case_end(&c);
  return harness_end();
}
