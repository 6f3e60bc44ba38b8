/* SPDX-License-Identifier: MIT */
/* backends/nvidia_jit.c alone, no OpenCL: a small valid PTX becomes a CUBIN (an ELF) where the
 * CUDA driver and a device are present, and a broken one fails with the JIT's reason; without
 * the driver (CI) every call fails cleanly, naming libcuda.so.1, and the valid case says SKIP. */
#include <stdlib.h>
#include <string.h>

#include "../backends/nvidia_jit.h"
#include "harness.h"

/* One empty kernel, the form NVIDIA's OpenCL compiler writes (its PTX for sm_80 and later). */
static const char good_ptx[] =
    "//\n.version 7.0\n.target sm_80\n.address_size 64\n\n.visible .entry "
    "duet_empty()\n{\n\tret;\n}\n";
static const char bad_ptx[] = "//\n.version 7.0\n.target sm_80\n.address_size 64\nnot ptx at all\n";

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
  int got = duet__nv_ptx_to_cubin(good_ptx, strlen(good_ptx), 8, 0, &cubin, &size, why, sizeof why);
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

  harness_case_begin(&c, NULL, "nvidia_jit: a broken PTX fails with a reason and no CUBIN");
  why[0] = '\0';
  cubin = NULL;
  got = duet__nv_ptx_to_cubin(bad_ptx, strlen(bad_ptx), 8, 0, &cubin, &size, why, sizeof why);
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
  got = duet__nv_ptx_to_cubin(bad_ptx, strlen(bad_ptx), 8, 0, &cubin, &size, small, 4);
  harness_expect(&c, got == -1 && cubin == NULL, "returned %d", got);
  harness_expect(&c, memchr(small, '\0', 4) != NULL && small[4] == 'x',
                 "the reason was not ended inside its 4 bytes, or went past them");
  harness_case_end(&c);
  return harness_end();
}
