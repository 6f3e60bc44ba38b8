/* SPDX-License-Identifier: MIT */
/* What an odd leading dimension costs: times the padded transpose and the copy kernel on an
 * n x n matrix stored with ld = n, and again with ld rounded up to a multiple of 32 floats
 * (128 bytes), on the best device duet finds.
 * Build:  cc ld_alignment.c $(pkg-config --cflags --libs duet)
 * Run:    ./a.out [n] [reps]      (defaults 4095 and 25)
 * With ld = 4095 most rows start off a 128-byte boundary, so each warp's 32 floats touch five
 * 32-byte sectors instead of four; rounding ld up costs n * 31 floats and restores the rate. */
#include <duet.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  duet_ctx *ctx;
  duet_event *start, *stop;
} timer;

static int by_value(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

/* Median of reps runs after 3 warm-up runs; copy != 0 times duet_copy instead. */
static int median_ms(timer *t, int copy, size_t n, duet_buf *in, duet_buf *out, size_t ld, int reps,
                     float *ms) {
  float *runs = malloc(sizeof *runs * (size_t)reps);
  if (!runs) return DUET_ENOMEM;
  int status = DUET_OK;
  for (int i = -3; i < reps && !status; i++) {
    status = duet_event_record(t->start);
    if (!status)
      status = copy ? duet_copy(t->ctx, n, n, in, ld, out, ld)
                    : duet_transpose(t->ctx, DUET_TRANSPOSE_PADDED, n, n, in, ld, out, ld);
    if (!status) status = duet_event_record(t->stop);
    if (!status && i >= 0) status = duet_event_elapsed_ms(t->start, t->stop, &runs[i]);
  }
  if (!status) {
    qsort(runs, (size_t)reps, sizeof *runs, by_value);
    *ms = runs[reps / 2];
  }
  free(runs);
  return status;
}

/* One line: both kernels at this ld, on random data. */
static int measure(timer *t, size_t n, size_t ld, int reps) {
  const size_t elems = (n - 1) * ld + n, bytes = elems * sizeof(float);
  float *host = malloc(bytes);
  duet_buf *in = NULL, *out = NULL;
  int status = host ? DUET_OK : DUET_ENOMEM;
  if (!status) status = duet_buf_create(t->ctx, bytes, &in);
  if (!status) status = duet_buf_create(t->ctx, bytes, &out);
  if (!status) {
    for (size_t i = 0; i < elems; i++) host[i] = (float)rand() / (float)RAND_MAX - 0.5f;
    status = duet_buf_write(in, 0, host, bytes);
  }
  float padded = 0, copy = 0;
  if (!status) status = median_ms(t, 0, n, in, out, ld, reps, &padded);
  if (!status) status = median_ms(t, 1, n, in, out, ld, reps, &copy);
  if (!status) {
    const double gb = 2.0 * (double)n * (double)n * sizeof(float) / 1e6; /* per ms: GB/s */
    printf("%6zu %6zu %-7s   %9.4f %8.0f   %9.4f %8.0f\n", n, ld, ld % 32 ? "no" : "yes", padded,
           gb / padded, copy, gb / copy);
  }
  duet_buf_destroy(in);
  duet_buf_destroy(out);
  free(host);
  return status;
}

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 4095;
  const int reps = argc > 2 ? atoi(argv[2]) : 25;
  if (n == 0 || reps < 1) {
    fprintf(stderr, "usage: %s [n > 0] [reps > 0]\n", argv[0]);
    return 2;
  }
  timer t = {0};
  int status = duet_ctx_create(&t.ctx, DUET_BACKEND_AUTO, -1);
  if (status) {
    fprintf(stderr, "no context: %s (%s)\n", duet_strerror(status), duet_ctx_last_error(NULL));
    return status == DUET_ENODEV ? 77 : 1;
  }
  duet_device_info info;
  if (!status) status = duet_ctx_info(t.ctx, &info);
  if (!status) status = duet_event_create(t.ctx, &t.start);
  if (!status) status = duet_event_create(t.ctx, &t.stop);
  if (!status) {
    printf("%s on %s: padded transpose and copy, median of %d runs, GB/s read + write\n",
           duet_backend_name(info.backend), info.name, reps);
    printf("%6s %6s %-7s   %9s %8s   %9s %8s\n", "n", "ld", "aligned", "padded ms", "GB/s",
           "copy ms", "GB/s");
    const size_t aligned = (n + 31) / 32 * 32;
    status = measure(&t, n, n, reps);
    if (!status && aligned != n) status = measure(&t, n, aligned, reps);
  }
  if (status) fprintf(stderr, "duet: %s: %s\n", duet_strerror(status), duet_ctx_last_error(t.ctx));
  duet_event_destroy(t.start);
  duet_event_destroy(t.stop);
  duet_ctx_destroy(t.ctx);
  return status ? 1 : 0;
}
