/* SPDX-License-Identifier: MIT */
/* The float sum of an array: passes of one kernel, each summing blocks of its input into one
 * value per block, until one value is left in out[0]; shuffle may run its two passes as one
 * launch (REDUCE_ONE_PASS). The tree depends only on n, the variant and the tuning set, so the
 * reproducible variants give the same bits on every run. */
#include "duet_internal.h"

/* Indexed by duet_reduce_variant. AUTO takes shuffle: the fastest of the reproducible ones by
 * design (it reads the input once with vector loads, then combines a few hundred sums). */
static const duet__variant reduce_variants[] = {
    [DUET_REDUCE_AUTO] = {"auto", DUET__K_REDUCE_SHUFFLE},
    [DUET_REDUCE_NAIVE] = {"naive", DUET__K_REDUCE_NAIVE},
    [DUET_REDUCE_SEQUENTIAL] = {"sequential", DUET__K_REDUCE_SEQUENTIAL},
    [DUET_REDUCE_SHUFFLE] = {"shuffle", DUET__K_REDUCE_SHUFFLE},
    [DUET_REDUCE_ATOMIC] = {"atomic", DUET__K_REDUCE_ATOMIC},
};
#define N_REDUCE (sizeof reduce_variants / sizeof reduce_variants[0])

const char *duet_reduce_variant_name(duet_reduce_variant v) {
  return duet__variant_name(reduce_variants, N_REDUCE, (int)v);
}

int duet_reduce_variant_parse(const char *name, duet_reduce_variant *v) {
  int i = 0, status = duet__variant_parse(reduce_variants, N_REDUCE, name, v ? &i : NULL);
  if (!status) *v = (duet_reduce_variant)i;
  return status;
}

/* shuffle_once's epochs, 1..REDUCE_EPOCHS, as kernels_cu/reduce.cu and kernels_cl/reduce.cl
 * count them (a ticket word holds its launch's epoch above 20 bits of tickets). */
enum { REDUCE_EPOCHS = 0x7ff, REDUCE_TICKETS = 0xfffff };

/* The passes being built: step i reads args[i] = (n, in, out[, part, ticket, epoch]) over
 * `blocks` blocks. */
typedef struct {
  duet__step steps[DUET__MAX_STEPS];
  duet__arg args[DUET__MAX_STEPS][6];
  unsigned n;
} passes;

static duet__arg *add_pass(passes *p, duet__kernel k, size_t n, duet__arg in, duet__arg out,
                           size_t blocks) {
  duet__arg *a = p->args[p->n];
  a[0] = duet__arg_i64(n);
  a[1] = in;
  a[2] = out;
  p->steps[p->n] = (duet__step){k, 1, n, 1, a, 3, blocks};
  p->n++;
  return a;
}

/* naive and sequential: a block sums `per` elements, so each pass divides the count by `per`
 * (256 or 512 with the default block), ping-ponging between two arena regions; 2^40 floats
 * take five passes. */
static int tree_passes(duet_ctx *ctx, duet__kernel k, size_t n, const duet_buf *in, duet_buf *out,
                       passes *p) {
  const size_t per = (size_t)ctx->tun[DUET__T_REDUCE_BLOCK] * (k == DUET__K_REDUCE_NAIVE ? 1 : 2);
  const size_t first = duet__ceil_div(n, per);
  void *a = NULL, *b = NULL;
  int status = DUET_OK;
  if (first > 1) status = duet__arena(ctx, DUET__ARENA_REDUCE_A, first * sizeof(float), &a);
  if (!status && first > per)
    status = duet__arena(ctx, DUET__ARENA_REDUCE_B, duet__ceil_div(first, per) * sizeof(float), &b);
  if (status) return status;
  duet__arg from = duet__arg_mem(in);
  for (size_t count = n;; count = duet__ceil_div(count, per)) {
    const size_t blocks = count > per ? duet__ceil_div(count, per) : 1;
    const duet__arg to = blocks == 1 ? duet__arg_mem(out) : duet__arg_scratch(p->n % 2 ? b : a);
    if (p->n == DUET__MAX_STEPS)
      return duet__fail(ctx, DUET_EINVAL, "duet_reduce_sum: %zu floats need more than %d passes", n,
                        DUET__MAX_STEPS);
    add_pass(p, k, count, from, to, blocks);
    if (blocks == 1) return DUET_OK;
    from = to;
  }
}

/* shuffle and atomic: a first pass over a grid the device holds at once, each thread reading
 * many float4s; shuffle then sums the blocks' sums in one block (skipped when the first pass
 * had one): a second launch, or with REDUCE_ONE_PASS the last block of the first to take its
 * ticket (shuffle_once, the same sum in one launch); atomic adds them into out[0], which a
 * one-block pass over nothing has set to 0. */
static int shuffle_passes(duet_ctx *ctx, duet__kernel k, size_t n, const duet_buf *in,
                          duet_buf *out, passes *p) {
  const size_t n4 = duet__ceil_div(n, 4), block = (size_t)ctx->tun[DUET__T_REDUCE_BLOCK],
               items = (size_t)ctx->tun[DUET__T_REDUCE_ITEMS_MAX];
  size_t blocks = duet__grid_blocks(ctx, n4, block * ctx->tun[DUET__T_REDUCE_UNROLL],
                                    ctx->tun[DUET__T_REDUCE_PER_CU]);
  /* REDUCE_ITEMS_MAX: on PoCL 2^24 floats took 14.6 ms in 8 blocks, 3.1 in 512 (32 float4s a
   * thread), 2^26 60.5 in 8 and 9.6 in 2048 (docs/results/tuning-notes.md) */
  const size_t least = items ? duet__ceil_div(n4, block * items) : 0;
  if (blocks < least) blocks = least;
  if (k == DUET__K_REDUCE_ATOMIC) {
    add_pass(p, DUET__K_REDUCE_SHUFFLE, 0, duet__arg_mem(in), duet__arg_mem(out), 1);
    add_pass(p, k, n, duet__arg_mem(in), duet__arg_mem(out), blocks);
    return DUET_OK;
  }
  if (blocks == 1) {
    add_pass(p, k, n, duet__arg_mem(in), duet__arg_mem(out), 1);
    return DUET_OK;
  }
  void *a = NULL, *ticket = NULL;
  const int once = ctx->tun[DUET__T_REDUCE_ONE_PASS] && blocks <= REDUCE_TICKETS;
  int status = duet__arena(ctx, DUET__ARENA_REDUCE_A, blocks * sizeof(float), &a);
  if (!status && once) status = duet__arena(ctx, DUET__ARENA_TICKET, sizeof(unsigned), &ticket);
  if (status) return status;
  if (once) {
    ctx->reduce_epoch = ctx->reduce_epoch % REDUCE_EPOCHS + 1;
    duet__arg *args =
        add_pass(p, DUET__K_REDUCE_SHUFFLE_ONCE, n, duet__arg_mem(in), duet__arg_mem(out), blocks);
    args[3] = duet__arg_scratch(a);
    args[4] = duet__arg_scratch(ticket);
    args[5] = duet__arg_i32(ctx->reduce_epoch);
    p->steps[p->n - 1].nargs = 6;
    return DUET_OK;
  }
  add_pass(p, k, n, duet__arg_mem(in), duet__arg_scratch(a), blocks);
  add_pass(p, k, blocks, duet__arg_scratch(a), duet__arg_mem(out), 1);
  return DUET_OK;
}

int duet_reduce_sum(duet_ctx *ctx, duet_reduce_variant v, size_t n, const duet_buf *in,
                    duet_buf *out) {
  static const char F[] = "duet_reduce_sum";
  int status = duet__check_ctx(ctx, F);
  if (status) return status;
  if ((unsigned)v >= N_REDUCE)
    return duet__fail(ctx, DUET_EINVAL, "%s: unknown variant %d", F, (int)v);
  if ((status = duet__check_vector(ctx, F, "in", in, n)) ||
      (status = duet__check_vector(ctx, F, "out", out, 1)))
    return status;
  if (in == out) return duet__fail(ctx, DUET_EINVAL, "%s: in and out are the same buffer", F);
  const duet__kernel k = reduce_variants[v].kernel;
  passes p;
  p.n = 0;
  status = k == DUET__K_REDUCE_NAIVE || k == DUET__K_REDUCE_SEQUENTIAL
               ? tree_passes(ctx, k, n, in, out, &p)
               : shuffle_passes(ctx, k, n, in, out, &p);
  return status ? status : duet__run(ctx, p.steps, p.n);
}
