/* SPDX-License-Identifier: MIT */
/* What a CUBIN says of a kernel's parameters, read from its ELF without the driver. */
#ifndef DUET_CUBIN_PARAMS_H
#define DUET_CUBIN_PARAMS_H

#include <stddef.h>

/* How many parameters kernel `name` (an extern "C" name) of this CUBIN takes: the number of
 * EIATTR_KPARAM_INFO attributes in its section .nv.info.<name>, one per parameter. -1 where the
 * CUBIN is not laid out as expected (not a little-endian ELF64, no such section, an attribute of
 * an unknown format), which the caller must take as "unknown". Reads only within len bytes. */
int duet__cubin_param_count(const void *cubin, size_t len, const char *name);

#endif
