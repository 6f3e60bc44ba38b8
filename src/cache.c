/* SPDX-License-Identifier: MIT */
/* The disk cache of built programs (see cache.h). An entry's file is named after a hash of its
 * key and holds: "DUETC01\n", the key's length, the blob's length and a checksum of both (three
 * little-endian 64-bit words), the key, the blob. The name only finds the file; the key inside
 * decides whether it is the entry asked for, so two keys with one name cost a rebuild, never a
 * wrong program. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "duet_internal.h"

/* Raised whenever the file layout, what goes into a key or what is stored under one changes:
 * older entries then miss (2: NVIDIA's CUBINs assembled under the build's register cap). */
#define CACHE_FORMAT "duet-cache-2"
#define HEADER 32
static const char magic[8] = "DUETC01\n";

static uint64_t fnv1a(uint64_t h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}
#define FNV_BASIS 0xcbf29ce484222325ull

static void put64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static uint64_t get64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

/* The key as one string: every part as its length, ':', its bytes and '\n', so that no two lists
 * of parts give the same string; the cache's format and duet's version come first. The test
 * hook DUET_TEST_CACHE_SALT is one more part, standing for a driver update. NULL when out of
 * memory. */
static char *key_text(const char *const *parts, unsigned n, size_t *len) {
  const char *salt = duet__getenv("DUET_TEST_CACHE_SALT");
  const char *fixed[] = {CACHE_FORMAT, PACKAGE_VERSION, salt ? salt : ""};
  const unsigned nfixed = sizeof fixed / sizeof fixed[0];
  size_t total = 1;
  for (unsigned i = 0; i < nfixed + n; i++)
    total += strlen(i < nfixed ? fixed[i] : parts[i - nfixed]) + 24;
  char *key = malloc(total), *at = key;
  if (!key) return NULL;
  for (unsigned i = 0; i < nfixed + n; i++) {
    const char *part = i < nfixed ? fixed[i] : parts[i - nfixed];
    const size_t plen = strlen(part);
    at += snprintf(at, total - (size_t)(at - key), "%zu:", plen);
    memcpy(at, part, plen);
    at += plen;
    *at++ = '\n';
  }
  *at = '\0';
  *len = (size_t)(at - key);
  return key;
}

/* The cache's directory into dir (n bytes): 1, or 0 when the cache is off or has no home. */
static int cache_dir(char *dir, size_t n) {
  const char *env = duet__getenv("DUET_CACHE_DIR"), *xdg = duet__getenv("XDG_CACHE_HOME");
  const char *home = duet__getenv("HOME");
  int w;
  if (env && strcmp(env, "off") == 0) return 0;
  if (env)
    w = snprintf(dir, n, "%s", env);
  else if (xdg && xdg[0] == '/') /* the XDG spec ignores a relative path */
    w = snprintf(dir, n, "%s/duet", xdg);
  else if (home)
    w = snprintf(dir, n, "%s/.cache/duet", home);
  else
    return 0;
  return w > 0 && (size_t)w < n;
}

int duet__cache_on(void) {
  char dir[PATH_MAX];
  return cache_dir(dir, sizeof dir);
}

/* Whether text has a line that starts, after blanks, with '#', blanks and "include". */
static int includes(const char *text) {
  for (const char *line = text; line;) {
    const char *p = line + strspn(line, " \t");
    if (*p == '#' && strncmp(p + 1 + strspn(p + 1, " \t"), "include", 7) == 0) return 1;
    line = strchr(line, '\n');
    if (line) line++;
  }
  return 0;
}

int duet__cache_keyable(const char *const *sources, unsigned nsources, const char *options) {
  for (const char *o = options; o && (o = strstr(o, "-I")); o += 2)
    if (o == options || o[-1] == ' ') return 0;
  for (unsigned i = 0; i < nsources; i++)
    if (includes(sources[i])) return 0;
  return 1;
}

/* The entry's directory and path (PATH_MAX bytes each) and its key; 0 when there is none. */
static int locate(const char *const *parts, unsigned n, char *dir, char *path, char **key,
                  size_t *klen) {
  if (!cache_dir(dir, PATH_MAX) || !(*key = key_text(parts, n, klen))) return 0;
  const uint64_t h = fnv1a(FNV_BASIS, *key, *klen);
  const int w = snprintf(path, PATH_MAX, "%s/%016llx.bin", dir, (unsigned long long)h);
  if (w > 0 && w < PATH_MAX) return 1;
  free(*key);
  return 0;
}

/* Reads all of fd; NULL when it cannot, or when the file is larger than an entry may be. */
static unsigned char *read_all(int fd, size_t *len) {
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_size < 0 || (uint64_t)st.st_size > ((uint64_t)1 << 31))
    return NULL;
  const size_t size = (size_t)st.st_size;
  unsigned char *buf = malloc(size ? size : 1);
  size_t got = 0;
  while (buf && got < size) {
    const ssize_t r = read(fd, buf + got, size - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += (size_t)r;
  }
  *len = got;
  return buf;
}

int duet__cache_load(const char *const *parts, unsigned nparts, void **data, size_t *len) {
  char dir[PATH_MAX], path[PATH_MAX], *key;
  size_t klen, size = 0;
  *data = NULL;
  *len = 0;
  if (!locate(parts, nparts, dir, path, &key, &klen)) return 0;
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    free(key);
    return 0;
  }
  unsigned char *buf = read_all(fd, &size);
  close(fd);
  const char *bad = NULL;
  uint64_t stored_klen = 0, dlen = 0;
  if (!buf)
    bad = "unreadable";
  else if (size < HEADER || memcmp(buf, magic, sizeof magic) != 0)
    bad = "not a cache entry";
  else if ((stored_klen = get64(buf + 8)) > size - HEADER ||
           (dlen = get64(buf + 16)) != size - HEADER - stored_klen)
    bad = "truncated";
  else if (fnv1a(fnv1a(FNV_BASIS, buf + HEADER, (size_t)stored_klen), buf + HEADER + stored_klen,
                 (size_t)dlen) != get64(buf + 24))
    bad = "corrupt (its checksum does not match)";
  int hit = 0;
  if (bad) {
    duet__note("cache: %s is %s; rebuilding", path, bad);
    unlink(path);
  } else if (stored_klen != klen || memcmp(buf + HEADER, key, klen) != 0) {
    duet__note("cache: %s holds another key; rebuilding", path); /* a hash collision */
  } else if ((*data = malloc(dlen ? (size_t)dlen : 1))) {
    memcpy(*data, buf + HEADER + klen, (size_t)dlen);
    *len = (size_t)dlen;
    hit = 1;
  }
  free(buf);
  free(key);
  return hit;
}

/* Creates dir and its missing parents, private to the user. */
static int make_dirs(const char *dir) {
  char p[PATH_MAX];
  snprintf(p, sizeof p, "%s", dir);
  for (char *s = p + 1;; s++) {
    const char c = *s;
    if (c != '/' && c != '\0') continue;
    *s = '\0';
    if (mkdir(p, 0700) != 0 && errno != EEXIST) return -1;
    *s = c;
    if (!c) break;
  }
  return 0;
}

static int write_all(int fd, const void *data, size_t n) {
  const char *p = data;
  while (n) {
    const ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* One note per directory that cannot be written, not one per program. */
static void note_unwritable(const char *dir, const char *what, int err) {
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  static char noted[PATH_MAX];
  pthread_mutex_lock(&lock);
  const int fresh = strcmp(noted, dir) != 0;
  if (fresh) snprintf(noted, sizeof noted, "%s", dir);
  pthread_mutex_unlock(&lock);
  if (fresh)
    duet__note("cache: cannot %s in %s (%s); programs are built without the disk cache", what, dir,
               strerror(err));
}

void duet__cache_store(const char *const *parts, unsigned nparts, const void *data, size_t len) {
  char dir[PATH_MAX], path[PATH_MAX], tmp[PATH_MAX + 16], *key;
  size_t klen;
  if (!locate(parts, nparts, dir, path, &key, &klen)) return;
  unsigned char header[HEADER];
  memcpy(header, magic, sizeof magic);
  put64(header + 8, klen);
  put64(header + 16, len);
  put64(header + 24, fnv1a(fnv1a(FNV_BASIS, key, klen), data, len));
  snprintf(tmp, sizeof tmp, "%s/.tmp-XXXXXX", dir);
  const char *what = NULL; /* the step that failed */
  int fd = -1, err = 0;
  if (make_dirs(dir) != 0)
    what = "create the directory", err = errno;
  else if ((fd = mkstemp(tmp)) < 0)
    what = "create a file", err = errno;
  if (fd >= 0) {
    if (write_all(fd, header, sizeof header) || write_all(fd, key, klen) ||
        write_all(fd, data, len))
      what = "write a file", err = errno;
    if (close(fd) != 0 && !what) what = "write a file", err = errno;
    if (!what && rename(tmp, path) != 0) what = "rename a file", err = errno;
    if (what) unlink(tmp);
  }
  if (what) note_unwritable(dir, what, err);
  free(key);
}

void duet__cache_remove(const char *const *parts, unsigned nparts) {
  char dir[PATH_MAX], path[PATH_MAX], *key;
  size_t klen;
  if (!locate(parts, nparts, dir, path, &key, &klen)) return;
  unlink(path);
  free(key);
}
