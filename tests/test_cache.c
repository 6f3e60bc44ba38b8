/* SPDX-License-Identifier: MIT */
/* The program cache on OpenCL: memory (a second context on a device reuses what the open ones
 * built) and disk (hit, miss, corrupt, truncated and swapped entries, stale keys, an unwritable
 * directory, DUET_CACHE_DIR=off, the XDG default, two processes filling one directory at once,
 * test hooks that must not be served from it, and a user program that #includes a file). Where a
 * program came from is what the library says under DUET_VERBOSE=1 ("built from source", "loaded
 * from the disk cache", "reused from memory"), read back from stderr; every run's copy is checked
 * bit for bit. Each case points DUET_CACHE_DIR (or XDG_CACHE_HOME) at a directory of its own under
 * a temporary root, removed at the end. Runs on the first OpenCL device; without one, exit 77. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "zygote.h"

#define ROWS 19
#define COLS 23

static char root[256];      /* the temporary root */
static const char *self;    /* this program, to run again as a child */
static harness_dev the_dev; /* label only: the cases open their own contexts */
static int child;           /* this process is a child of case_two_processes */

/* What one run printed under DUET_VERBOSE=1, counted for the copy kernel. */
typedef struct {
  int built, loaded, reused;
  char text[16384];
} notes;

static int count(const char *text, const char *what) {
  int n = 0;
  for (const char *p = text; (p = strstr(p, what)); p += strlen(what)) n++;
  return n;
}

/* A context on the device, one duet_copy checked bit for bit, and (unless keep) the context
 * destroyed; 0 when all of it worked. */
static int copy_once(harness_case *c, duet_ctx **keep) {
  duet_ctx *ctx = NULL;
  duet_buf *in = NULL, *out = NULL;
  float host[ROWS * COLS], got[ROWS * COLS];
  for (int i = 0; i < ROWS * COLS; i++) host[i] = 1.5f * (float)i - 7.0f;
  int st = duet_ctx_create(&ctx, DUET_BACKEND_OPENCL, the_dev.device);
  if (!st && child) { /* the parent checks that its children open its device */
    duet_device_info info;
    if (duet_ctx_info(ctx, &info) == DUET_OK)
      fprintf(stderr, "test_cache child: opened %s\n", info.name);
  }
  if (!st) st = duet_buf_create(ctx, sizeof host, &in);
  if (!st) st = duet_buf_create(ctx, sizeof host, &out);
  if (!st) st = duet_buf_write(in, 0, host, sizeof host);
  if (!st) st = duet_copy(ctx, ROWS, COLS, in, COLS, out, COLS);
  if (!st) st = duet_buf_read(out, 0, got, sizeof got);
  if (c) harness_expect_status(c, st, DUET_OK, ctx, "copy");
  if (st && child)
    fprintf(stderr, "test_cache child: %s: %s\n", duet_status_name(st), duet_ctx_last_error(ctx));
  if (!st && memcmp(host, got, sizeof got) != 0) {
    if (c) harness_case_fail(c, "the copy differs from its input");
    if (child) fprintf(stderr, "test_cache child: the copy differs from its input\n");
    st = DUET_EBACKEND;
  }
  duet_buf_destroy(in);
  duet_buf_destroy(out);
  if (keep && !st)
    *keep = ctx;
  else
    duet_ctx_destroy(ctx);
  return st;
}

/* copy_once with stderr captured into n. */
static int copy_noted(harness_case *c, notes *n, duet_ctx **keep) {
  char path[300];
  snprintf(path, sizeof path, "%s/stderr.txt", root);
  fflush(stderr);
  const int saved = dup(2), fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
  dup2(fd, 2);
  setenv("DUET_VERBOSE", "1", 1);
  const int st = copy_once(c, keep);
  unsetenv("DUET_VERBOSE");
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  const ssize_t got = pread(fd, n->text, sizeof n->text - 1, 0);
  close(fd);
  n->text[got > 0 ? got : 0] = '\0';
  n->built = count(n->text, "duet_copy of kernel group copy: built from source");
  n->loaded = count(n->text, "duet_copy of kernel group copy: loaded from the disk cache");
  n->reused = count(n->text, "duet_copy of kernel group copy: reused from memory");
  return st;
}

/* Fails c unless the run's program came from where `want` says: 'b'uilt, 'l'oaded, 'r'eused. */
static void expect_from(harness_case *c, const notes *n, char want, const char *when) {
  const int ok = want == 'b'   ? n->built == 1 && !n->loaded && !n->reused
                 : want == 'l' ? n->loaded == 1 && !n->built && !n->reused
                               : n->reused == 1 && !n->built && !n->loaded;
  harness_expect(
      c, ok, "%s: want the copy kernel %s; built %d, loaded %d, reused %d; notes:\n%.600s", when,
      want == 'b'   ? "built from source"
      : want == 'l' ? "loaded from the disk cache"
                    : "reused from memory",
      n->built, n->loaded, n->reused, n->text);
}

/* A fresh directory root/name, made the cache; its path in dir (300 bytes). */
static void use_dir(const char *name, char *dir) {
  snprintf(dir, 300, "%s/%s", root, name);
  mkdir(dir, 0700);
  setenv("DUET_CACHE_DIR", dir, 1);
}

/* The entries (*.bin) of dir, the first one's path in first (may be NULL); temporaries count in
 * *tmps (may be NULL). */
static int entries(const char *dir, char *first, int *tmps) {
  DIR *d = opendir(dir);
  int n = 0;
  if (tmps) *tmps = 0;
  for (struct dirent *e; d && (e = readdir(d));) {
    const size_t len = strlen(e->d_name);
    if (len > 4 && strcmp(e->d_name + len - 4, ".bin") == 0) {
      if (first && !n) snprintf(first, 600, "%s/%s", dir, e->d_name);
      n++;
    } else if (tmps && strncmp(e->d_name, ".tmp-", 5) == 0) {
      ++*tmps;
    }
  }
  if (d) closedir(d);
  return n;
}

static long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* ---- cases ---------------------------------------------------------------------------------- */

static void case_miss_hit(void) {
  harness_case c;
  harness_case_begin(&c, &the_dev, "cache: a miss builds and stores, a fresh context loads it");
  char dir[300], first[600];
  notes n;
  use_dir("hit", dir);
  if (!copy_noted(&c, &n, NULL)) expect_from(&c, &n, 'b', "empty cache");
  harness_expect(&c, entries(dir, first, NULL) == 1, "want one entry in %s", dir);
  if (!copy_noted(&c, &n, NULL)) expect_from(&c, &n, 'l', "second context");
  harness_case_end(&c);
}

static void case_memory(void) {
  harness_case c;
  harness_case_begin(&c, &the_dev, "cache: a second context reuses the open one's programs");
  notes n;
  duet_ctx *first = NULL;
  setenv("DUET_CACHE_DIR", "off", 1);
  if (!copy_noted(&c, &n, &first)) {
    expect_from(&c, &n, 'b', "first context");
    if (!copy_noted(&c, &n, NULL)) expect_from(&c, &n, 'r', "second context");
  }
  duet_ctx_destroy(first);
  /* With every context gone, the record went with them: built again (the disk cache is off). */
  if (!copy_noted(&c, &n, NULL)) expect_from(&c, &n, 'b', "after both were destroyed");
  harness_case_end(&c);
}

/* Damages the only entry of a fresh cache with `damage`, then expects a rebuild that the
 * library explains with `says`, and a valid entry again after it. */
static void case_damaged(const char *name, void (*damage)(const char *path), const char *says) {
  harness_case c;
  harness_case_begin(&c, &the_dev, "cache: a %s entry is rebuilt, never trusted", name);
  char dir[300], path[600];
  notes n;
  use_dir(name, dir);
  if (copy_once(&c, NULL) || entries(dir, path, NULL) != 1) {
    harness_case_fail(&c, "no entry to damage in %s", dir);
    harness_case_end(&c);
    return;
  }
  damage(path);
  if (!copy_noted(&c, &n, NULL)) {
    expect_from(&c, &n, 'b', "damaged entry");
    harness_expect(&c, strstr(n.text, says) != NULL, "the notes do not say '%s':\n%.600s", says,
                   n.text);
  }
  if (!copy_noted(&c, &n, NULL)) expect_from(&c, &n, 'l', "after the rebuild");
  harness_case_end(&c);
}

static void flip_bytes(const char *path) {
  const int fd = open(path, O_RDWR);
  const long size = file_size(path);
  unsigned char b;
  for (long at = size / 2; at < size / 2 + 3 && fd >= 0; at++)
    if (pread(fd, &b, 1, at) == 1) {
      b ^= 0x5a;
      if (pwrite(fd, &b, 1, at) != 1) break;
    }
  if (fd >= 0) close(fd);
}

static void truncate_half(const char *path) {
  if (truncate(path, file_size(path) / 2) != 0) perror(path);
}

/* Two entries whose files trade contents: each then holds the other's key, as a collision of
 * their names would; both must be rebuilt. */
static void case_swapped(void) {
  harness_case c;
  harness_case_begin(&c, &the_dev, "cache: an entry holding another key is a miss");
  char dir[300], a[600], b[640], tmp[620];
  notes n;
  use_dir("swap", dir);
  copy_once(&c, NULL);
  entries(dir, a, NULL);
  setenv("DUET_TUNE", "TRANSPOSE_ROWS=2", 1);
  copy_once(&c, NULL);
  unsetenv("DUET_TUNE");
  DIR *d = opendir(dir);
  b[0] = '\0';
  for (struct dirent *e; d && (e = readdir(d));) {
    snprintf(tmp, sizeof tmp, "%s/%s", dir, e->d_name);
    if (strstr(e->d_name, ".bin") && strcmp(tmp, a) != 0) snprintf(b, sizeof b, "%s", tmp);
  }
  if (d) closedir(d);
  snprintf(tmp, sizeof tmp, "%s.swap", a);
  if (!harness_expect(&c, b[0] && !rename(a, tmp) && !rename(b, a) && !rename(tmp, b),
                      "cannot swap two entries in %s", dir)) {
    harness_case_end(&c);
    return;
  }
  if (!copy_noted(&c, &n, NULL)) {
    expect_from(&c, &n, 'b', "swapped entry");
    harness_expect(&c, strstr(n.text, "holds another key") != NULL,
                   "the notes do not say it holds another key:\n%.600s", n.text);
  }
  harness_case_end(&c);
}

/* Options (a tunable) and the driver (the test hook DUET_TEST_CACHE_SALT stands for an update)
 * are in the key: either changed, the entry is not used. */
static void case_stale(const char *var, const char *value) {
  harness_case c;
  harness_case_begin(&c, &the_dev, "cache: %s=%s is another key", var, value);
  char dir[300];
  notes n;
  use_dir(var, dir);
  copy_once(&c, NULL);
  setenv(var, value, 1);
  if (!copy_noted(&c, &n, NULL)) expect_from(&c, &n, 'b', "changed key");
  harness_expect(&c, entries(dir, NULL, NULL) == 2, "want 2 entries, found %d",
                 entries(dir, NULL, NULL));
  if (!copy_noted(&c, &n, NULL)) expect_from(&c, &n, 'l', "changed key, second run");
  unsetenv(var);
  if (!copy_noted(&c, &n, NULL)) expect_from(&c, &n, 'l', "first key again");
  harness_case_end(&c);
}

static void case_unwritable(void) {
  harness_case c;
  harness_case_begin(&c, &the_dev, "cache: a directory that cannot be made costs only the cache");
  char file[300], dir[340];
  notes n;
  snprintf(file, sizeof file, "%s/a-file", root);
  const int fd = open(file, O_WRONLY | O_CREAT, 0600);
  if (fd >= 0) close(fd);
  snprintf(dir, sizeof dir, "%s/sub", file); /* under a regular file: even root cannot */
  setenv("DUET_CACHE_DIR", dir, 1);
  if (!copy_noted(&c, &n, NULL)) {
    expect_from(&c, &n, 'b', "unwritable");
    harness_expect(&c, count(n.text, "cache: cannot") == 1,
                   "want one note that the cache cannot be written:\n%.600s", n.text);
  }
  if (!copy_noted(&c, &n, NULL)) {
    expect_from(&c, &n, 'b', "unwritable, again");
    harness_expect(&c, count(n.text, "cache: cannot") == 0, "the note came again:\n%.600s", n.text);
  }
  harness_case_end(&c);
}

/* DUET_CACHE_DIR=off writes nothing; unset, the cache is $XDG_CACHE_HOME/duet. */
static void case_off_and_default(void) {
  harness_case c;
  harness_case_begin(&c, &the_dev,
                     "cache: off writes nothing; the default is $XDG_CACHE_HOME/duet");
  char xdg[300], dir[340];
  notes n;
  snprintf(xdg, sizeof xdg, "%s/xdg", root);
  mkdir(xdg, 0700);
  snprintf(dir, sizeof dir, "%s/duet", xdg);
  harness_env saved = harness_env_set("XDG_CACHE_HOME", xdg);
  setenv("DUET_CACHE_DIR", "off", 1);
  for (int i = 0; i < 2; i++)
    if (!copy_noted(&c, &n, NULL)) expect_from(&c, &n, 'b', "off");
  harness_expect(&c, entries(dir, NULL, NULL) == 0, "DUET_CACHE_DIR=off wrote into %s", dir);
  unsetenv("DUET_CACHE_DIR");
  copy_once(&c, NULL);
  harness_expect(&c, entries(dir, NULL, NULL) == 1, "want one entry in %s", dir);
  if (!copy_noted(&c, &n, NULL)) expect_from(&c, &n, 'l', "default directory");
  harness_env_restore(&saved);
  harness_case_end(&c);
}

/* How a child ended, in words. */
static void ended(const zygote_result *r, char *why, size_t n) {
  if (!r->started)
    snprintf(why, n, "not started");
  else if (WIFEXITED(r->status))
    snprintf(why, n, "exit status %d", WEXITSTATUS(r->status));
  else if (WIFSIGNALED(r->status))
    snprintf(why, n, "killed by signal %d (%s)", WTERMSIG(r->status),
             strsignal(WTERMSIG(r->status)));
  else
    snprintf(why, n, "wait status %#x", r->status);
}

/* Two processes building into one empty directory at once: both right, on this device, the
 * entry whole. The children start from the zygote (zygote.h), as from a shell: a process started
 * by this one, which has loaded the OpenCL drivers by now, may not see the same platforms. Each
 * runs under DUET_VERBOSE=1; its output is printed whole when it fails: its status, the
 * library's last error and notes. */
static void case_two_processes(void) {
  harness_case c;
  harness_case_begin(&c, &the_dev, "cache: two processes fill one empty directory at once");
  char dir[300], dev[16], cache_env[320], name[sizeof((duet_device_info *)0)->name] = "";
  notes n;
  duet_ctx *mine = NULL;
  duet_device_info info;
  if (duet_ctx_create(&mine, DUET_BACKEND_OPENCL, the_dev.device) == DUET_OK &&
      duet_ctx_info(mine, &info) == DUET_OK)
    snprintf(name, sizeof name, "%s", info.name);
  duet_ctx_destroy(mine); /* the children start with no context open here */
  zygote_note_env_changes("test_cache");
  use_dir("procs", dir);
  snprintf(dev, sizeof dev, "%d", the_dev.device);
  snprintf(cache_env, sizeof cache_env, "DUET_CACHE_DIR=%s", dir);
  /* This process unset DUET_TUNE and the salt after the zygote started: the children too. */
  const char *const argv[] = {self, "--child", dev, NULL};
  const char *const env[] = {cache_env, "DUET_VERBOSE=1", "DUET_TUNE", "DUET_TEST_CACHE_SALT",
                             NULL};
  const zygote_cmd cmd[2] = {{argv, env}, {argv, env}};
  static zygote_result res[2];
  zygote_run(cmd, 2, res);
  for (int i = 0; i < 2; i++) {
    char why[96];
    ended(&res[i], why, sizeof why);
    if (!harness_expect(
            &c, res[i].started && WIFEXITED(res[i].status) && WEXITSTATUS(res[i].status) == 0,
            "child %d (%s --child %s): %s after %.0f ms; its output (%zu bytes):\n%s", i, self, dev,
            why, res[i].ms, res[i].bytes, res[i].output))
      continue;
    /* The child names the device it opened: the parent's, or the test proves nothing. */
    char want[sizeof name + 32];
    snprintf(want, sizeof want, "test_cache child: opened %s\n", name);
    harness_expect(&c, *name && strstr(res[i].output, want) != NULL,
                   "child %d did not open this process's device (%s); its output:\n%s", i, name,
                   res[i].output);
  }
  int tmps;
  harness_expect(&c, entries(dir, NULL, &tmps) == 1 && tmps == 0,
                 "want one entry and no temporary file in %s", dir);
  if (!copy_noted(&c, &n, NULL)) expect_from(&c, &n, 'l', "after the two processes");
  harness_case_end(&c);
}

/* A test hook that breaks a build is an option, so part of the key: a valid entry for the
 * kernel does not hide the failure. */
static void case_hooks(void) {
  harness_case c;
  harness_case_begin(&c, &the_dev, "cache: DUET_TEST_BREAK_GROUPS still fails with an entry");
  char dir[300];
  use_dir("hooks", dir);
  copy_once(&c, NULL);
  setenv("DUET_TEST_BREAK_GROUPS", "copy", 1);
  duet_ctx *ctx = NULL;
  if (harness_expect_status(&c, duet_ctx_create(&ctx, DUET_BACKEND_OPENCL, the_dev.device), DUET_OK,
                            NULL, "duet_ctx_create")) {
    duet_buf *in = NULL, *out = NULL;
    int st = duet_buf_create(ctx, sizeof(float), &in);
    if (!st) st = duet_buf_create(ctx, sizeof(float), &out);
    if (!st) st = duet_copy(ctx, 1, 1, in, 1, out, 1);
    harness_expect(&c, st == DUET_EBUILD, "copy returned %s, want DUET_EBUILD: %s",
                   duet_status_name(st), duet_ctx_last_error(ctx));
    duet_buf_destroy(in);
    duet_buf_destroy(out);
    duet_ctx_destroy(ctx);
  }
  unsetenv("DUET_TEST_BREAK_GROUPS");
  harness_case_end(&c);
}

/* Writes x[0] = VALUE with VALUE from an #include'd header through duet_program_create;
 * *got its value. */
static int run_include(harness_case *c, const char *incdir, float *got) {
  static const char src[] =
      "#include \"value.h\"\n"
      "DUET_KERNEL void put(DUET_GLOBAL float *x) { x[0] = VALUE; }\n";
  char options[400];
  snprintf(options, sizeof options, "-I%s", incdir);
  duet_ctx *ctx = NULL;
  duet_buf *x = NULL;
  duet_program *prog = NULL;
  const size_t grid[3] = {1, 1, 1};
  const unsigned block[3] = {1, 1, 1};
  int st = duet_ctx_create(&ctx, DUET_BACKEND_OPENCL, the_dev.device);
  if (!st) st = duet_buf_create(ctx, sizeof(float), &x);
  if (!st) st = duet_program_create(ctx, src, options, &prog);
  if (!st) {
    const duet_arg args[] = {duet_arg_buf(x)};
    st = duet_launch(prog, "put", grid, block, 0, args, 1);
  }
  if (!st) st = duet_buf_read(x, 0, got, sizeof *got);
  harness_expect_status(c, st, DUET_OK, ctx, "put");
  duet_program_destroy(prog);
  duet_buf_destroy(x);
  duet_ctx_destroy(ctx);
  return st;
}

static int write_value(const char *incdir, const char *value) {
  char path[400];
  snprintf(path, sizeof path, "%s/value.h", incdir);
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "#define VALUE %s\n", value);
  return fclose(f);
}

/* An #include'd file is not in the key: a program that includes one is built every time (and
 * shared in memory), never loaded from disk, so that an edit of the file is seen. */
static void case_include(void) {
  harness_case c;
  harness_case_begin(&c, &the_dev, "cache: a program that #includes a file is not kept on disk");
  char dir[300], incdir[300];
  float got = 0;
  use_dir("include", dir);
  snprintf(incdir, sizeof incdir, "%s/headers", root);
  mkdir(incdir, 0700);
  if (harness_expect(&c, !write_value(incdir, "1.0f"), "cannot write %s/value.h", incdir) &&
      !run_include(&c, incdir, &got)) {
    harness_expect(&c, got == 1.0f, "first: x[0] = %g, want 1", got);
    harness_expect(&c, entries(dir, NULL, NULL) == 0, "an entry was stored in %s", dir);
    write_value(incdir, "2.0f");
    if (!run_include(&c, incdir, &got))
      harness_expect(&c, got == 2.0f, "after the header changed: x[0] = %g, want 2", got);
  }
  harness_case_end(&c);
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--child") == 0) {
    the_dev.device = atoi(argv[2]);
    child = 1;
    return copy_once(NULL, NULL) ? 1 : 0;
  }
  /* Before anything loads a driver: case_two_processes starts its children from it. */
  zygote_start();
  harness_init("test_cache");
  /* argv[0] is the program itself (libtool's wrapper runs .libs/ with its library path, which
   * the children inherit); /proc/self/exe would be the tool's under valgrind. */
  self = strchr(argv[0], '/') ? argv[0] : "/proc/self/exe";
  const char *backend = getenv("DUET_BACKEND");
  int n = 0;
  if ((backend && strcmp(backend, "opencl") != 0 && strcmp(backend, "auto") != 0) ||
      duet_device_count(DUET_BACKEND_OPENCL, &n) != DUET_OK || n == 0) {
    harness_case c;
    harness_case_begin(&c, NULL, "program cache");
    harness_case_skip(&c, "no OpenCL device selected: the program cache is OpenCL's");
    return harness_end();
  }
  const char *dev = getenv("DUET_DEVICE");
  the_dev.backend = DUET_BACKEND_OPENCL;
  the_dev.device = dev ? atoi(dev) : 0;
  snprintf(the_dev.label, sizeof the_dev.label, "opencl dev%d -", the_dev.device);
  const char *tmp = getenv("TMPDIR");
  snprintf(root, sizeof root, "%s/duet-test-cache-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(root)) {
    perror(root);
    return 1;
  }
  unsetenv("DUET_TUNE");
  unsetenv("DUET_TEST_CACHE_SALT");
  case_memory();
  case_miss_hit();
  case_damaged("corrupt", flip_bytes, "corrupt");
  case_damaged("truncated", truncate_half, "truncated");
  case_swapped();
  case_stale("DUET_TUNE", "TRANSPOSE_ROWS=2");
  case_stale("DUET_TEST_CACHE_SALT", "driver-2");
  case_unwritable();
  case_off_and_default();
  case_two_processes();
  case_hooks();
  case_include();
  harness_contexts_ran(1);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  if (system(cmd) != 0) fprintf(stderr, "test_cache: cannot remove %s\n", root);
  setenv("DUET_CACHE_DIR", "off", 1);
  return harness_end();
}
