/* SPDX-License-Identifier: MIT */
/* Variant names: "auto" is row 0 of every table, the variants follow in enum order. */
#include <string.h>

#include "duet_internal.h"

const char *duet__variant_name(const duet__variant *table, size_t n, int v) {
  return (v >= 0 && (size_t)v < n) ? table[v].name : NULL;
}

int duet__variant_parse(const duet__variant *table, size_t n, const char *name, int *v) {
  if (!name || !v) return duet__fail(NULL, DUET_EINVAL, "variant parse: NULL argument");
  for (size_t i = 0; i < n; i++)
    if (strcmp(table[i].name, name) == 0) {
      *v = (int)i;
      return DUET_OK;
    }
  return duet__fail(NULL, DUET_EINVAL, "unknown variant name '%s'", name);
}
