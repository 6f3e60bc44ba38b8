/* SPDX-License-Identifier: MIT */
/* A program outside the tree: build with  cc transpose.c $(pkg-config --cflags --libs duet)
 * Transposes a small matrix on the best device duet finds and checks the result. */
#include <duet.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  enum { ROWS = 300, COLS = 200 };
  static float in[ROWS * COLS], out[ROWS * COLS];
  for (int i = 0; i < ROWS * COLS; i++) in[i] = (float)rand() / RAND_MAX - 0.5f;

  duet_ctx *ctx;
  int status = duet_ctx_create(&ctx, DUET_BACKEND_AUTO, -1);
  if (status) {
    fprintf(stderr, "no context: %s (%s)\n", duet_strerror(status), duet_ctx_last_error(NULL));
    return status == DUET_ENODEV ? 77 : 1;
  }
  duet_device_info info;
  duet_ctx_info(ctx, &info);
  duet_buf *a = NULL, *b = NULL;
  if ((status = duet_buf_create(ctx, sizeof in, &a)) ||
      (status = duet_buf_create(ctx, sizeof out, &b)) ||
      (status = duet_buf_write(a, 0, in, sizeof in)) ||
      (status = duet_transpose(ctx, DUET_TRANSPOSE_AUTO, ROWS, COLS, a, COLS, b, ROWS)) ||
      (status = duet_buf_read(b, 0, out, sizeof out))) {
    fprintf(stderr, "duet: %s: %s\n", duet_strerror(status), duet_ctx_last_error(ctx));
    return 1;
  }
  int wrong = 0;
  for (int r = 0; r < ROWS; r++)
    for (int c = 0; c < COLS; c++) wrong += out[c * ROWS + r] != in[r * COLS + c];
  printf("duet %s on %s (%s): %dx%d transpose, %d wrong elements\n", duet_version(), info.name,
         duet_backend_name(info.backend), ROWS, COLS, wrong);
  duet_buf_destroy(a);
  duet_buf_destroy(b);
  duet_ctx_destroy(ctx);
  return wrong != 0;
}
