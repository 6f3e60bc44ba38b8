/* SPDX-License-Identifier: MIT */
/* The disk cache of built programs, backend-neutral: a blob (an OpenCL binary, a CUBIN or PTX)
 * under a key given as parts (the source, the options, the backend, the device, the driver
 * version...), to which the cache adds its own format version and duet's version. One file per
 * key in $DUET_CACHE_DIR, else $XDG_CACHE_HOME/duet, else ~/.cache/duet; DUET_CACHE_DIR=off
 * turns it off. Each file holds its full key and a checksum of key and blob, and is written to
 * a temporary file in the same directory and renamed into place, so that processes sharing the
 * directory see either no entry or a whole one. A corrupt, truncated or colliding entry is a
 * miss, never trusted. A directory that cannot be written costs only the cache (one note under
 * DUET_VERBOSE). */
#ifndef DUET_CACHE_H
#define DUET_CACHE_H

#include <stddef.h>

/* Whether the cache has a directory (DUET_CACHE_DIR is not "off"): a caller need not prepare
 * what it would store otherwise. */
int duet__cache_on(void);
/* Whether a program of these sources and options can be keyed by them: not when an option adds
 * an include path (-I) or a source has an #include line, since the files those name may change
 * while the key would not (such a program is still built, and shared in memory). */
int duet__cache_keyable(const char *const *sources, unsigned nsources, const char *options);
/* The blob stored under the key, malloc'd into *data (the caller frees it), its size in *len:
 * 1; or 0 when there is none, or the entry is not a whole, matching one (then *data is NULL). */
int duet__cache_load(const char *const *key_parts, unsigned nparts, void **data, size_t *len);
/* Stores data[0, len) under the key, replacing any entry; failures only cost the cache. */
void duet__cache_store(const char *const *key_parts, unsigned nparts, const void *data, size_t len);
/* Removes the key's entry: the caller could not use what it loaded (a driver that refuses a
 * binary it wrote). */
void duet__cache_remove(const char *const *key_parts, unsigned nparts);

#endif
