/* SPDX-License-Identifier: MIT */
/* Vector add: c = a + b, the first kernel of the course. */
#include "duet_internal.h"

int duet_vector_add(duet_ctx *ctx, size_t n, const duet_buf *a, const duet_buf *b, duet_buf *c) {
  static const char F[] = "duet_vector_add";
  int status = duet__check_ctx(ctx, F);
  if (!status) status = duet__check_vector(ctx, F, "a", a, n);
  if (!status) status = duet__check_vector(ctx, F, "b", b, n);
  if (!status) status = duet__check_vector(ctx, F, "c", c, n);
  if (status || n == 0) return status;
  /* A grid-stride loop of float4s over a grid the device holds at once: a probe on the H100
   * found it at 0.963 of the copy's rate at 2^28 floats, one element per thread at 0.924. */
  const duet__arg args[] = {duet__arg_i64(n), duet__arg_mem(a), duet__arg_mem(b), duet__arg_mem(c)};
  const duet__step step = {
      DUET__K_VECTOR_ADD,
      1,
      n,
      1,
      args,
      DUET__COUNT(args),
      duet__grid_blocks(ctx, duet__ceil_div(n, 4), ctx->tun[DUET__T_VADD_BLOCK],
                        ctx->tun[DUET__T_VADD_PER_CU])};
  return duet__run(ctx, &step, 1);
}
