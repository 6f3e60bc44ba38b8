/* SPDX-License-Identifier: MIT */
/* The zygote (zygote.h). One socket pair joins the program and the zygote: a request is a count
 * of commands, then each command's argv and environment settings as length-prefixed strings;
 * the answer is, per command, whether it started, its wait status, its wall time and its
 * output. A socket rather than pipes: send(MSG_NOSIGNAL) turns a zygote that died into an error
 * instead of a SIGPIPE that would end the test. Each child writes its stdout and stderr into an
 * unlinked temporary file of its own, read back after it ends. */
#define _GNU_SOURCE
#include "zygote.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int sock = -1;         /* the program's end */
static pid_t zygote_pid = -1; /* the zygote, to reap */
static int start_errno;       /* why zygote_start failed */
static char **start_env;      /* a copy of environ at zygote_start, for the note */

/* ---- the wire ------------------------------------------------------------------------------ */

static int put(int fd, const void *p, size_t n) {
  for (const char *c = p; n;) {
    const ssize_t k = send(fd, c, n, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    c += k;
    n -= (size_t)k;
  }
  return 0;
}

/* Reads exactly n bytes; -1 on an error or an early end (errno 0 for an orderly one). */
static int get(int fd, void *p, size_t n) {
  for (char *c = p; n;) {
    const ssize_t k = recv(fd, c, n, 0);
    if (k < 0 && errno == EINTR) continue;
    if (k == 0) errno = 0;
    if (k <= 0) return -1;
    c += k;
    n -= (size_t)k;
  }
  return 0;
}

static int put_str(int fd, const char *s, size_t len) {
  const uint32_t n = (uint32_t)len;
  return put(fd, &n, sizeof n) || put(fd, s, len);
}

/* A string sent by put_str, in a new NUL-terminated buffer; NULL when it cannot be read. */
static char *get_str(int fd) {
  uint32_t n;
  if (get(fd, &n, sizeof n) || n > (1u << 20)) return NULL;
  char *s = malloc((size_t)n + 1);
  if (s && get(fd, s, n)) {
    free(s);
    return NULL;
  }
  if (s) s[n] = '\0';
  return s;
}

static int put_list(int fd, const char *const *list) {
  int32_t n = 0;
  while (list && list[n]) n++;
  if (put(fd, &n, sizeof n)) return -1;
  for (int32_t i = 0; i < n; i++)
    if (put_str(fd, list[i], strlen(list[i]))) return -1;
  return 0;
}

static void free_list(char **list) {
  for (char **p = list; p && *p; p++) free(*p);
  free(list);
}

/* A list sent by put_list, NULL-terminated; NULL when it cannot be read. */
static char **get_list(int fd) {
  int32_t n;
  if (get(fd, &n, sizeof n) || n < 0 || n > 4096) return NULL;
  char **list = calloc((size_t)n + 1, sizeof *list);
  for (int32_t i = 0; list && i < n; i++)
    if (!(list[i] = get_str(fd))) {
      free_list(list);
      return NULL;
    }
  return list;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* ---- the zygote's side ----------------------------------------------------------------------- */

typedef struct {
  char **argv, **env;
  pid_t pid;
  int out; /* the unlinked file its stdout and stderr go to */
  int started, status;
  double t0, ms;
} job;

/* An unlinked temporary file, closed on exec: the child writes to its dup2'd copies. */
static int scratch_file(void) {
  const char *dir = getenv("TMPDIR");
  char path[512];
  snprintf(path, sizeof path, "%s/duet-zygote-XXXXXX", dir && *dir ? dir : "/tmp");
  const int fd = mkostemp(path, O_CLOEXEC);
  if (fd >= 0) unlink(path);
  return fd;
}

/* In the new child: its output, its environment, then the program. Never returns. */
static void become(const job *j) {
  if (dup2(j->out, 1) < 0 || dup2(j->out, 2) < 0) _exit(127);
  for (char **e = j->env; *e; e++) {
    char *eq = strchr(*e, '=');
    if (eq) {
      *eq = '\0';
      setenv(*e, eq + 1, 1);
    } else {
      unsetenv(*e);
    }
  }
  execv(j->argv[0], j->argv);
  dprintf(2, "zygote: cannot run %s: %s\n", j->argv[0], strerror(errno));
  _exit(127);
}

/* Sends one job's result: started, status, ms, then its output. */
static int report(int fd, job *j) {
  char buf[ZYGOTE_OUTPUT];
  struct stat st;
  const int32_t head[2] = {j->started, j->status};
  uint64_t bytes = j->out >= 0 && fstat(j->out, &st) == 0 ? (uint64_t)st.st_size : 0;
  ssize_t got = j->out >= 0 ? pread(j->out, buf, sizeof buf - 1, 0) : 0;
  if (!j->started)
    got = snprintf(buf, sizeof buf, "zygote: cannot start %s: %s", j->argv[0], strerror(j->status));
  if (got < 0) got = 0;
  if (!j->started) bytes = (uint64_t)got;
  return put(fd, head, sizeof head) || put(fd, &j->ms, sizeof j->ms) ||
         put(fd, &bytes, sizeof bytes) || put_str(fd, buf, (size_t)got);
}

/* Serves one request; -1 when the program has gone (or sent garbage): time to end. */
static int serve(int fd) {
  int32_t n;
  if (get(fd, &n, sizeof n) || n < 0 || n > 64) return -1;
  job *jobs = calloc((size_t)n ? (size_t)n : 1, sizeof *jobs);
  int bad = !jobs;
  for (int32_t i = 0; !bad && i < n; i++) {
    jobs[i].out = -1;
    bad = !(jobs[i].argv = get_list(fd)) || !(jobs[i].env = get_list(fd)) || !jobs[i].argv[0];
  }
  for (int32_t i = 0; !bad && i < n; i++) {
    job *j = &jobs[i];
    j->out = scratch_file();
    j->t0 = now_ms();
    j->pid = j->out < 0 ? -1 : fork();
    if (j->pid == 0) become(j);
    j->started = j->pid > 0;
    if (!j->started) j->status = errno;
  }
  /* Reaped in the order they end, so that each time is its own. */
  for (int left = bad ? 0 : n; left > 0;) {
    int status;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0 && errno == EINTR) continue;
    if (pid < 0) break;
    for (int32_t i = 0; i < n; i++)
      if (jobs[i].started && jobs[i].pid == pid) {
        jobs[i].status = status;
        jobs[i].ms = now_ms() - jobs[i].t0;
        left--;
      }
  }
  for (int32_t i = 0; !bad && i < n; i++) bad = report(fd, &jobs[i]);
  for (int32_t i = 0; jobs && i < n; i++) {
    free_list(jobs[i].argv);
    free_list(jobs[i].env);
    if (jobs[i].out >= 0) close(jobs[i].out);
  }
  free(jobs);
  return bad ? -1 : 0;
}

/* ---- the program's side ---------------------------------------------------------------------- */

static char **copy_environ(void) {
  size_t n = 0;
  while (environ && environ[n]) n++;
  char **copy = calloc(n + 1, sizeof *copy);
  for (size_t i = 0; copy && i < n; i++)
    if (!(copy[i] = strdup(environ[i]))) {
      free_list(copy);
      return NULL;
    }
  return copy;
}

int zygote_start(void) {
  int fds[2];
  if (sock >= 0) return 0;
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds)) {
    start_errno = errno;
    return -1;
  }
  fflush(NULL); /* nothing buffered here is written twice */
  const pid_t pid = fork();
  if (pid < 0) {
    start_errno = errno;
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  if (pid == 0) {
    close(fds[0]);
    while (serve(fds[1]) == 0) {
    }
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  sock = fds[0];
  zygote_pid = pid;
  start_env = copy_environ();
  atexit(zygote_stop);
  return 0;
}

void zygote_stop(void) {
  if (sock >= 0) close(sock); /* the zygote reads the end of its requests and exits */
  sock = -1;
  while (zygote_pid > 0 && waitpid(zygote_pid, NULL, 0) < 0 && errno == EINTR) {
  }
  zygote_pid = -1;
  free_list(start_env);
  start_env = NULL;
}

static void all_failed(zygote_result *results, int n, const char *fmt, const char *why) {
  for (int i = 0; i < n; i++) {
    memset(&results[i], 0, sizeof results[i]);
    snprintf(results[i].output, sizeof results[i].output, fmt, why);
  }
}

int zygote_run(const zygote_cmd *cmds, int n, zygote_result *results) {
  if (sock < 0) {
    all_failed(results, n, "zygote: not running: %s",
               start_errno ? strerror(start_errno) : "never started, or stopped");
    return -1;
  }
  const int32_t count = n;
  int bad = put(sock, &count, sizeof count);
  for (int i = 0; !bad && i < n; i++)
    bad = put_list(sock, cmds[i].argv) || put_list(sock, cmds[i].env);
  for (int i = 0; !bad && i < n; i++) {
    zygote_result *r = &results[i];
    int32_t head[2];
    uint64_t bytes;
    char *text = NULL;
    bad = get(sock, head, sizeof head) || get(sock, &r->ms, sizeof r->ms) ||
          get(sock, &bytes, sizeof bytes) || !(text = get_str(sock));
    if (!bad) {
      r->started = head[0];
      r->status = head[1];
      r->bytes = (size_t)bytes;
      snprintf(r->output, sizeof r->output, "%s", text);
    }
    free(text);
  }
  if (bad) {
    all_failed(results, n, "zygote: no answer: %s", errno ? strerror(errno) : "it has ended");
    return -1;
  }
  return 0;
}

/* The entry of list whose name (up to '=') is that of var, or NULL. */
static const char *find_var(char **list, const char *var) {
  const size_t len = strcspn(var, "=");
  for (char **p = list; p && *p; p++)
    if (strncmp(*p, var, len) == 0 && (*p)[len] == '=') return *p;
  return NULL;
}

void zygote_note_env_changes(const char *who) {
  if (!start_env) return;
  for (char **e = environ; e && *e; e++) {
    const char *then = find_var(start_env, *e);
    if (!then)
      printf("%s: the environment gained %s since the start\n", who, *e);
    else if (strcmp(then, *e) != 0)
      printf("%s: the environment changed %s to %s since the start\n", who, then, *e);
  }
  for (char **e = start_env; *e; e++)
    if (!find_var(environ, *e)) printf("%s: the environment lost %s since the start\n", who, *e);
}
