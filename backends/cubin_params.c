/* SPDX-License-Identifier: MIT */
/* A CUBIN's kernel parameter count (cubin_params.h). The driver offers each parameter's offset
 * and size (cuKernelGetParamInfo) but not their number, and asking for one past the last is an
 * error that compute-sanitizer reports as the program's; the CUBIN that NVRTC gave holds the
 * count. Each function's .nv.info.<name> section is a list of attributes, each a format byte,
 * an attribute byte, then by format: 2 bytes (EIFMT_NVAL 1, none and padding; EIFMT_BVAL 2, a
 * byte and padding; EIFMT_HVAL 3, a 2-byte value) or a 2-byte size and that many bytes
 * (EIFMT_SVAL 4); EIATTR_KPARAM_INFO (0x17, SVAL) describes one parameter. Seen in NVRTC 13.0's
 * and nvcc 13.0's CUBINs for sm_80 and sm_90 (readelf -x .nv.info.NAME). Anything else is
 * "unknown": the caller falls back to asking the driver until it refuses. */
#include "cubin_params.h"

#include <elf.h>
#include <stdint.h>
#include <string.h>

enum { FMT_NVAL = 1, FMT_HVAL = 3, FMT_SVAL = 4, KPARAM_INFO = 0x17 };

/* The attributes in [p, end): the number of KPARAM_INFO, or -1 on a format not known. */
static int count_params(const unsigned char *p, const unsigned char *end) {
  int count = 0;
  while (p < end) {
    if (end - p < 4) return -1;
    const unsigned fmt = p[0], attr = p[1], value = (unsigned)p[2] | (unsigned)p[3] << 8;
    if (fmt >= FMT_NVAL && fmt <= FMT_HVAL) {
      p += 4;
    } else if (fmt == FMT_SVAL && (size_t)(end - p - 4) >= value) {
      count += attr == KPARAM_INFO;
      p += 4 + value;
    } else {
      return -1;
    }
  }
  return count;
}

int duet__cubin_param_count(const void *cubin, size_t len, const char *name) {
  const unsigned char *base = cubin;
  Elf64_Ehdr eh;
  if (!cubin || len < sizeof eh) return -1;
  memcpy(&eh, base, sizeof eh);
  if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_shentsize != sizeof(Elf64_Shdr) ||
      eh.e_shoff > len || eh.e_shnum > (len - eh.e_shoff) / sizeof(Elf64_Shdr) ||
      eh.e_shstrndx >= eh.e_shnum)
    return -1;
  Elf64_Shdr names;
  memcpy(&names, base + eh.e_shoff + (size_t)eh.e_shstrndx * sizeof names, sizeof names);
  if (names.sh_offset > len || names.sh_size > len - names.sh_offset) return -1;
  static const char prefix[] = ".nv.info.";
  const size_t plen = sizeof prefix - 1, nlen = strlen(name);
  for (unsigned i = 0; i < eh.e_shnum; i++) {
    Elf64_Shdr sh;
    memcpy(&sh, base + eh.e_shoff + (size_t)i * sizeof sh, sizeof sh);
    if (sh.sh_name >= names.sh_size || names.sh_size - sh.sh_name < plen + nlen + 1) continue;
    const char *sname = (const char *)base + names.sh_offset + sh.sh_name;
    if (memcmp(sname, prefix, plen) != 0 || memcmp(sname + plen, name, nlen + 1) != 0) continue;
    if (sh.sh_offset > len || sh.sh_size > len - sh.sh_offset) return -1;
    return count_params(base + sh.sh_offset, base + sh.sh_offset + sh.sh_size);
  }
  return -1;
}
