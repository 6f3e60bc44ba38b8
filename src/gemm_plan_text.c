/* SPDX-License-Identifier: MIT */
/* A GEMM plan as text (duet__gemm_plan_format, src/gemm_plan.h): what DUET_VERBOSE prints and
 * duet_sgemm_plan returns. It describes the plan that src/gemm_plan.c made; it decides nothing. */
#include <stdarg.h>
#include <stdio.h>

#include "duet_internal.h"
#include "gemm_plan.h"

typedef struct {
  char *buf;
  size_t len, need;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const size_t at = t->need < t->len ? t->need : t->len;
  const int n = vsnprintf(t->buf ? t->buf + at : NULL, t->len - at, fmt, ap);
  va_end(ap);
  if (n > 0) t->need += (size_t)n;
}

static void put_kernel(text *t, const int *tun, duet__kernel k) {
  const duet__kernel_desc *d = &duet__manifest[k];
  duet__shape s;
  d->shape(tun, &s);
  put(t, "%s [%s, %u x %u tile, %u x %u block]", d->name, duet__groups[d->group].name, s.tile_y,
      s.tile_x, s.block_x, s.block_y);
}

size_t duet__gemm_plan_format(const duet__gemm_plan *p, const duet__gemm_shape *s, const int *tun,
                              char *buf, size_t len) {
  text t = {buf, buf ? len : 0, 0};
  if (buf && len) buf[0] = '\0';
  put(&t, "sgemm %zu x %zu x %zu %c%c lda %zu ldb %zu, %s", s->m, s->n, s->k, s->ta ? 't' : 'n',
      s->tb ? 't' : 'n', s->lda, s->ldb, duet__gemm_variants[s->variant].name);
  if (s->variant != p->variant) put(&t, " -> %s", duet__gemm_variants[p->variant].name);
  switch (p->form) {
    case DUET__GEMM_NOTHING: put(&t, ": nothing to compute\n"); return t.need;
    case DUET__GEMM_SCALE:
    case DUET__GEMM_SIMPLE:
      put(&t, ": %sC = ", p->form == DUET__GEMM_SCALE ? "beta * " : "");
      put_kernel(&t, tun, p->kernel);
      put(&t, "\n");
      return t.need;
    case DUET__GEMM_FAST: break;
  }
  put(&t, ": %u piece%s, %u launch%s", p->npieces, p->npieces == 1 ? "" : "s", p->launches,
      p->launches == 1 ? "" : "es");
  if (p->work_bytes) put(&t, ", work %zu bytes", p->work_bytes);
  if (p->flag_bytes) put(&t, ", flags %zu bytes", p->flag_bytes);
  put(&t, "\n");
  for (int i = 0; i < 2; i++) {
    const duet__gemm_pack *pk = &p->pack[i];
    if (!pk->on) continue;
    put(&t,
        "  pack %c: %zu x %zu into ld %zu, readable to %zu, %zu bytes, %zu tiles of "
        "duet_sgemm_pack\n",
        i ? 'B' : 'A', pk->rows, pk->cols, pk->ld, pk->reach, pk->bytes, pk->tiles);
  }
  for (unsigned i = 0; i < p->npieces; i++) {
    const duet__gemm_piece *q = &p->piece[i];
    put(&t, "  piece %u: C[%zu:%zu, %zu:%zu] ", i, q->r0, q->r0 + q->rows, q->c0, q->c0 + q->cols);
    put_kernel(&t, tun, q->kernel);
    if (q->thin) put(&t, ", thin %s", q->thin == DUET__THIN_ROWS ? "rows" : "columns");
    if (q->blocks) put(&t, ", %zu blocks", q->blocks);
    if (q->sk_slices)
      put(&t, ", split-K summed in the launch: %zu tiles in %u k slices each", q->sk_tiles,
          q->sk_slices);
    else if (q->sk_tiles)
      put(&t, ", stream-K: the last %zu tiles shared by %zu units", q->sk_tiles, q->sk_units);
    if (q->splits > 1 && duet__gemm_is_gemv(q->kernel))
      put(&t, ", %u k slices summed in order by the last to finish", q->splits);
    else if (q->splits > 1 && duet__gemm_is_cluster(q->kernel))
      put(&t, ", %u k slices, a cluster of their blocks a tile, summed through its shared memory",
          q->splits);
    else if (q->splits > 1)
      put(&t, ", %u k slices, then duet_sgemm_splitk_reduce (%zu blocks, %u lane%s an element)",
          q->splits, q->reduce_grid, q->reduce_lanes, q->reduce_lanes == 1 ? "" : "s");
    if (q->work_bytes) put(&t, ", work %zu bytes", q->work_bytes);
    put(&t, "\n");
  }
  return t.need;
}
