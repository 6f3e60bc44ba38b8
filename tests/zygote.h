/* SPDX-License-Identifier: MIT */
/* The zygote: a process forked at the very start of a test program's main, before anything has
 * loaded a GPU driver, that starts the program's child processes on request and reports back
 * how each ended, its wall time and what it wrote to stdout and stderr.
 *
 * Why: on the H100 machine a process started (fork + exec) by a process that had loaded
 * NVIDIA's OpenCL saw only PoCL's platform, while the same program started from a shell saw
 * NVIDIA's too (docs/results/cache.md). A test that checks what several processes do to one
 * device (test_cache's two processes filling one cache) must start them the way a shell would:
 * from a process that has loaded nothing.
 *
 * A child's environment is the program's environment as it was at zygote_start, plus the
 * settings its request names: not this process's environment now, which the library (or a driver
 * it loaded) may have changed since. Children of one request run at once; the zygote ends when
 * zygote_stop closes its end, or when this process exits. */
#ifndef ZYGOTE_H
#define ZYGOTE_H

#include <stddef.h>

/* The most of a child's output that comes back; the rest is counted, not kept. */
#define ZYGOTE_OUTPUT 8192

typedef struct {
  const char *const *argv; /* argv[0] is the file run, a path; NULL-terminated */
  const char *const *env;  /* "NAME=VALUE" sets, "NAME" unsets; NULL-terminated, or NULL */
} zygote_cmd;

typedef struct {
  int started;                /* 0: it never ran (the reason is in output) */
  int status;                 /* its wait status: WIFEXITED(status) etc. */
  double ms;                  /* wall time from its start to its end */
  size_t bytes;               /* what it wrote in all, stdout and stderr together */
  char output[ZYGOTE_OUTPUT]; /* the first of those bytes, NUL-terminated */
} zygote_result;

/* Forks the zygote. Call it first thing in main: before any duet or OpenCL call, before
 * threads. Returns 0, or -1 with errno set (zygote_run then fails with the reason). */
int zygote_start(void);

/* Runs n commands at once from the zygote, waits for all of them and fills results[0..n-1].
 * Returns 0 when the zygote answered (each result says whether its command started and how it
 * ended), -1 when it could not be reached (every result's output says why). */
int zygote_run(const zygote_cmd *cmds, int n, zygote_result *results);

/* Ends the zygote and reaps it. Does nothing without one; may be called twice. */
void zygote_stop(void);

/* Prints to stdout, one line each prefixed with `who`, the variables that this process's
 * environment gained, lost or changed since zygote_start: what a child started from here,
 * rather than from the zygote, would have inherited differently. */
void zygote_note_env_changes(const char *who);

#endif
