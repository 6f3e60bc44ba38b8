/* SPDX-License-Identifier: MIT */
/* backends/cubin_params.c on the host, no GPU: a CUBIN-shaped ELF built here around the
 * .nv.info.add section that NVRTC 13.0 wrote for test_program's add(a, b, c, n) for sm_80
 * (readelf -x .nv.info.add), counted as 4; a kernel without parameters 0; and every malformed
 * or truncated form "unknown" (-1), never a read out of bounds (ASan in CI). */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "../backends/cubin_params.h"
#include "harness.h"

/* NVRTC's attributes for add: NVAL, SVAL PARAM_CBANK, HVAL, four SVAL KPARAM_INFO, HVAL, HVAL,
 * SVAL EXIT_INSTR_OFFSETS. */
static const unsigned char add_info[] = {
    0x04, 0x37, 0x04, 0x00, 0x82, 0x00, 0x00, 0x00, 0x01, 0x35, 0x00, 0x00, 0x04, 0x0a, 0x08, 0x00,
    0x15, 0x00, 0x00, 0x00, 0x60, 0x01, 0x1c, 0x00, 0x03, 0x19, 0x1c, 0x00, 0x04, 0x17, 0x0c, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x18, 0x00, 0x00, 0xf0, 0x11, 0x00, 0x04, 0x17, 0x0c, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x10, 0x00, 0x00, 0xf0, 0x21, 0x00, 0x04, 0x17, 0x0c, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x08, 0x00, 0x00, 0xf0, 0x21, 0x00, 0x04, 0x17, 0x0c, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x21, 0x00, 0x03, 0x1b, 0xff, 0x00,
    0x03, 0x5f, 0x00, 0x00, 0x04, 0x1c, 0x08, 0x00, 0x90, 0x00, 0x00, 0x00, 0x70, 0x01, 0x00, 0x00};
/* NVRTC's for a kernel without parameters, a BVAL among them. */
static const unsigned char none_info[] = {0x04, 0x37, 0x04, 0x00, 0x82, 0x00, 0x00, 0x00,
                                          0x02, 0x4c, 0x01, 0x00, 0x03, 0x5f, 0x01, 0x01};

/* An ELF64 of a null section, .shstrtab, .nv.info.add and .nv.info.none; *len its size. */
static unsigned char *make_elf(const unsigned char *add, size_t add_len, size_t *len) {
  static const char strtab[] = "\0.shstrtab\0.nv.info.add\0.nv.info.none";
  const size_t str_at = sizeof(Elf64_Ehdr), add_at = str_at + sizeof strtab,
               none_at = add_at + add_len, sh_at = (none_at + sizeof none_info + 7) & ~(size_t)7;
  *len = sh_at + 4 * sizeof(Elf64_Shdr);
  unsigned char *e = calloc(1, *len);
  if (!e) return NULL;
  Elf64_Ehdr eh = {0};
  memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_shoff = sh_at;
  eh.e_shentsize = sizeof(Elf64_Shdr);
  eh.e_shnum = 4;
  eh.e_shstrndx = 1;
  memcpy(e, &eh, sizeof eh);
  memcpy(e + str_at, strtab, sizeof strtab);
  memcpy(e + add_at, add, add_len);
  memcpy(e + none_at, none_info, sizeof none_info);
  const Elf64_Shdr sh[4] = {{0},
                            {.sh_name = 1, .sh_offset = str_at, .sh_size = sizeof strtab},
                            {.sh_name = 11, .sh_offset = add_at, .sh_size = add_len},
                            {.sh_name = 24, .sh_offset = none_at, .sh_size = sizeof none_info}};
  memcpy(e + sh_at, sh, sizeof sh);
  return e;
}

static void expect_count(const unsigned char *e, size_t len, const char *name, int want,
                         const char *what) {
  harness_case c;
  harness_case_begin(&c, NULL, "cubin_params %s: %s", name, what);
  const int got = duet__cubin_param_count(e, len, name);
  harness_expect(&c, got == want, "got %d, want %d", got, want);
  harness_case_end(&c);
}

int main(void) {
  harness_init("test_cubin_params");
  harness_contexts_ran(1);
  size_t len;
  unsigned char *e = make_elf(add_info, sizeof add_info, &len);
  if (!e) return 1;
  expect_count(e, len, "add", 4, "NVRTC's four KPARAM_INFO");
  expect_count(e, len, "none", 0, "no parameters");
  expect_count(e, len, "ad", -1, "a prefix of a kernel's name is no kernel");
  expect_count(e, len, "nosuch", -1, "no such section");
  expect_count(NULL, 0, "add", -1, "no CUBIN");

  harness_case c;
  harness_case_begin(&c, NULL, "cubin_params: every truncation is -1 or the count, read in bounds");
  int bad = 0;
  for (size_t cut = 0; cut < len; cut++) {
    unsigned char *t = malloc(cut ? cut : 1); /* ASan sees a read past cut */
    if (!t) return 1;
    memcpy(t, e, cut);
    const int got = duet__cubin_param_count(t, cut, "add");
    bad += got != -1 && got != 4;
    free(t);
  }
  harness_expect(&c, bad == 0, "%d truncations gave another count", bad);
  harness_case_end(&c);

  unsigned char *m = malloc(len);
  if (!m) return 1;
  static const struct {
    size_t at; /* in add_info */
    unsigned char byte;
    const char *what;
  } breaks[] = {{8, 0x05, "an unknown format"},
                {8, 0x00, "format 0"},
                {30, 0xff, "an SVAL size past the section"}};
  const size_t add_at = sizeof(Elf64_Ehdr) + sizeof "\0.shstrtab\0.nv.info.add\0.nv.info.none";
  for (size_t i = 0; i < sizeof breaks / sizeof breaks[0]; i++) {
    memcpy(m, e, len);
    m[add_at + breaks[i].at] = breaks[i].byte;
    expect_count(m, len, "add", -1, breaks[i].what);
  }
  memcpy(m, e, len);
  m[EI_CLASS] = ELFCLASS32;
  expect_count(m, len, "add", -1, "a 32-bit ELF");
  memcpy(m, e, len);
  m[0] = 0;
  expect_count(m, len, "add", -1, "not an ELF");
  free(m);
  free(e);
  return harness_end();
}
