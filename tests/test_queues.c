/* SPDX-License-Identifier: MIT */
/* Pinned host memory, enqueued copies and families of contexts (duet_ctx_create_shared): copies
 * from pinned and pageable memory come back exact; a write on one member, a kernel on a second
 * and a read on a third, ordered by duet_event_wait alone, give the CPU's transpose; buffers of
 * one member work on all; each member's scratch arena is its own; and a family destroyed in
 * every order of its members, buffers and events runs clean (ASan and LSan in CI); the pipeline
 * runs right under every QUEUE_FLUSH policy and on OpenCL queues without profiling. Bad
 * arguments of these calls are test_errors' cases; two threads on one family, test_threads'. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duet_launch.h"
#include "harness.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Host memory of n floats: pinned (freed through ctx) or pageable. */
typedef struct {
  duet_ctx *ctx;
  float *p;
} host_mem;

static int host_get(host_mem *h, duet_ctx *ctx, int pinned, size_t n) {
  h->ctx = pinned ? ctx : NULL;
  h->p = NULL;
  if (pinned) return duet_host_alloc(ctx, n * sizeof(float), (void **)&h->p);
  h->p = malloc(n * sizeof(float));
  return h->p ? DUET_OK : DUET_ENOMEM;
}

static void host_put(host_mem *h) {
  if (h->ctx)
    duet_host_free(h->ctx, h->p);
  else
    free(h->p);
  h->p = NULL;
}

/* Whole and partial writes and reads, enqueued on `on` into a buffer of `owner` (the same
 * context, or another of its family), with pinned or pageable memory; exact. */
static void copies(const harness_dev *dev, duet_ctx *owner, duet_ctx *on, int pinned,
                   const char *how) {
  enum { N = 100003, OFF = 7, PART = 4099 };
  harness_case c;
  harness_case_begin(&c, dev, "async copies %s memory, %s", pinned ? "pinned" : "pageable", how);
  host_mem src = {0}, dst = {0};
  duet_buf *buf = NULL;
  int st = host_get(&src, on, pinned, N);
  if (!st) st = host_get(&dst, on, pinned, N);
  if (!st) st = duet_buf_create(owner, N * sizeof(float), &buf);
  if (!harness_expect_status(&c, st, DUET_OK, on, "setup")) goto done;
  harness_rng r = harness_rng_make(c.seed);
  for (size_t i = 0; i < N; i++) src.p[i] = harness_random_float(harness_rng_next(&r));
  for (size_t i = 0; i < N; i++) dst.p[i] = -1.0f;
  /* The whole buffer, then a part at an odd offset over it from further into src. */
  st = duet_buf_write_async(on, buf, 0, src.p, N * sizeof(float));
  if (!st) st = duet_buf_write_async(on, buf, OFF * sizeof(float), src.p + 2 * OFF, PART * 4);
  if (!st) st = duet_buf_read_async(on, buf, 0, dst.p, N * sizeof(float));
  if (!st) st = duet_finish(on);
  if (!harness_expect_status(&c, st, DUET_OK, on, "write, write part, read, finish")) goto done;
  for (size_t i = 0; i < N; i++) {
    const float want = i >= OFF && i < OFF + PART ? src.p[i + OFF] : src.p[i];
    if (!harness_expect(&c, harness_bits_of(dst.p[i]) == harness_bits_of(want),
                        "element %zu: %a, want %a", i, dst.p[i], want))
      break;
  }
  /* A part read into the middle of host memory leaves the rest alone. */
  for (size_t i = 0; i < N; i++) dst.p[i] = -1.0f;
  st = duet_buf_read_async(on, buf, OFF * sizeof(float), dst.p + 3, PART * sizeof(float));
  if (!st) st = duet_finish(on);
  if (!harness_expect_status(&c, st, DUET_OK, on, "read part")) goto done;
  for (size_t i = 0; i < N; i++) {
    const float want = i >= 3 && i < 3 + PART ? src.p[i - 3 + 2 * OFF] : -1.0f;
    if (!harness_expect(&c, harness_bits_of(dst.p[i]) == harness_bits_of(want),
                        "after a part read, element %zu: %a, want %a", i, dst.p[i], want))
      break;
  }
done:
  duet_buf_destroy(buf);
  host_put(&src);
  host_put(&dst);
  harness_case_end(&c);
}

/* CHUNKS matrices, each written on w, transposed on k after waiting for the write's event, and
 * read on r after waiting for the transpose's: only the events order the three queues. */
static void pipeline(const harness_dev *dev, duet_ctx *w, duet_ctx *k, duet_ctx *r,
                     const char *how) {
  enum { CHUNKS = 6, ROWS = 157, COLS = 263, E = ROWS * COLS };
  harness_case c;
  harness_case_begin(&c, dev, "write, event, transpose, event, read on %s, %d chunks of %dx%d", how,
                     CHUNKS, ROWS, COLS);
  host_mem in = {0}, out = {0};
  duet_buf *a[CHUNKS] = {0}, *t[CHUNKS] = {0};
  duet_event *written[CHUNKS] = {0}, *done[CHUNKS] = {0};
  int st = host_get(&in, w, 1, (size_t)CHUNKS * E);
  if (!st) st = host_get(&out, r, 1, (size_t)CHUNKS * E);
  /* Buffers of all three members, each used on the others. */
  for (int i = 0; i < CHUNKS && !st; i++) {
    st = duet_buf_create(i % 2 ? w : r, E * sizeof(float), &a[i]);
    if (!st) st = duet_buf_create(i % 2 ? k : w, E * sizeof(float), &t[i]);
    if (!st) st = duet_event_create(w, &written[i]);
    if (!st) st = duet_event_create(k, &done[i]);
  }
  if (!harness_expect_status(&c, st, DUET_OK, w, "setup")) goto end;
  harness_rng g = harness_rng_make(c.seed);
  for (size_t i = 0; i < (size_t)CHUNKS * E; i++)
    in.p[i] = harness_random_unit(harness_rng_next(&g));
  for (size_t i = 0; i < (size_t)CHUNKS * E; i++) out.p[i] = -1.0f;
  for (int i = 0; i < CHUNKS && !st; i++) {
    st = duet_buf_write_async(w, a[i], 0, in.p + (size_t)i * E, E * sizeof(float));
    if (!st) st = duet_event_record(written[i]);
    if (!st) st = duet_event_wait(k, written[i]);
    if (!st) st = duet_transpose(k, DUET_TRANSPOSE_AUTO, ROWS, COLS, a[i], COLS, t[i], ROWS);
    if (!st) st = duet_event_record(done[i]);
    if (!st) st = duet_event_wait(r, done[i]);
    if (!st) st = duet_buf_read_async(r, t[i], 0, out.p + (size_t)i * E, E * sizeof(float));
  }
  if (!st) st = duet_finish(r);
  if (!harness_expect_status(&c, st, DUET_OK, NULL, "the pipeline")) {
    harness_case_fail(&c, "w: %s; k: %s; r: %s", duet_ctx_last_error(w), duet_ctx_last_error(k),
                      duet_ctx_last_error(r));
    goto end;
  }
  for (int i = 0; i < CHUNKS; i++) {
    const float *src = in.p + (size_t)i * E, *got = out.p + (size_t)i * E;
    for (size_t y = 0; y < ROWS; y++)
      for (size_t x = 0; x < COLS; x++)
        if (got[x * ROWS + y] != src[y * COLS + x]) {
          harness_case_fail(&c, "chunk %d: out(%zu,%zu) = %g, want %g", i, x, y, got[x * ROWS + y],
                            src[y * COLS + x]);
          i = CHUNKS, y = ROWS, x = COLS;
        }
  }
end:
  duet_finish(w);
  duet_finish(k);
  for (int i = 0; i < CHUNKS; i++) {
    duet_buf_destroy(a[i]);
    duet_buf_destroy(t[i]);
    duet_event_destroy(written[i]);
    duet_event_destroy(done[i]);
  }
  host_put(&in);
  host_put(&out);
  harness_case_end(&c);
}

/* The device memory of the scratch arguments (none of `user`) of the launches that a fast
 * sgemm would make on ctx, up to max; how many. A's ld is off the vector width and the multiply
 * long (n = 1024), so fast copies A into the arena first (GEMM_PACK_MIN_INTENSITY). */
enum { SM = 64, SN = 1024, SK = 64, SLDA = SK + 1 };
static int scratch_of(duet_ctx *ctx, duet_buf *const *user, size_t nuser, void **out, int max,
                      int *status) {
  duet__description d;
  duet__describe(ctx, &d);
  *status = duet_sgemm(ctx, DUET_GEMM_FAST, DUET_NO_TRANS, DUET_NO_TRANS, SM, SN, SK, 1.0f, user[0],
                       SLDA, user[1], SN, 0.0f, user[2], SN);
  duet__describe(ctx, NULL);
  int n = 0;
  for (unsigned s = 0; s < d.n && !*status; s++)
    for (unsigned i = 0; i < d.step[s].nargs; i++) {
      const duet__arg *a = &d.step[s].args[i];
      int mine = a->kind != DUET__ARG_MEM;
      for (size_t u = 0; u < nuser && !mine; u++) mine = a->u.mem == duet_buf_native(user[u]);
      for (int j = 0; j < n && !mine; j++) mine = a->u.mem == out[j];
      if (!mine && n < max) out[n++] = a->u.mem;
    }
  return n;
}

/* Two members' fast sgemm plans take their scratch from two disjoint arenas, and both run
 * right at the same time. */
static void arenas(const harness_dev *dev, duet_ctx *p, duet_ctx *m) {
  harness_case c;
  harness_case_begin(&c, dev, "arena: each member of a family its own scratch");
  duet_buf *user[3] = {0};
  int st = DUET_OK;
  for (int i = 0; i < 3 && !st; i++) st = duet_buf_create(i ? m : p, SN * SK * 4, &user[i]);
  void *sp[8], *sm[8];
  int np = 0, nm = 0, stp = DUET_OK, stm = DUET_OK;
  if (!st) np = scratch_of(p, user, 3, sp, 8, &stp);
  if (!st) nm = scratch_of(m, user, 3, sm, 8, &stm);
  if (!harness_expect_status(&c,
                             st    ? st
                             : stp ? stp
                                   : stm,
                             DUET_OK, st || stp ? p : m, "describe fast sgemm"))
    goto end;
  if (np == 0 || nm == 0) {
    harness_case_skip(&c, "fast takes no scratch for %dx%dx%d with lda %d on this device", SM, SN,
                      SK, SLDA);
    goto skipped;
  }
  for (int i = 0; i < np; i++)
    for (int j = 0; j < nm; j++)
      harness_expect(&c, sp[i] != sm[j], "scratch %p of the first member is the second's too",
                     sp[i]);
end:
  harness_case_end(&c);
skipped:
  for (int i = 0; i < 3; i++) duet_buf_destroy(user[i]);
}

/* Objects of a family, destroyed in the order of a permutation. */
enum { ROOT, MEMBER, BUF, EVENT, NOBJ };
static const char *const obj_names[NOBJ] = {"root", "member", "member's buffer", "member's event"};

/* Makes a family with a buffer and an event on the member, has both contexts use them (their
 * kernels loaded, the root's buffer on the member and the member's on the root, pinned memory
 * freed through the other context), and destroys the four in the order given. */
static int destroy_in_order(const harness_dev *dev, const int *order, char *why, size_t n) {
  duet_ctx *root = NULL, *member = NULL;
  duet_buf *buf = NULL, *rbuf = NULL;
  duet_event *ev = NULL;
  float *pin = NULL;
  int st = duet_ctx_create(&root, dev->backend, dev->device);
  if (!st) st = duet_ctx_create_shared(&member, root);
  if (!st) st = duet_buf_create(member, 64 * 64 * 4, &buf);
  if (!st) st = duet_buf_create(root, 64 * 64 * 4, &rbuf);
  if (!st) st = duet_event_create(member, &ev);
  if (!st) st = duet_host_alloc(member, 64 * 64 * 4, (void **)&pin);
  if (!st) {
    for (int i = 0; i < 64 * 64; i++) pin[i] = (float)i;
    st = duet_buf_write_async(root, buf, 0, pin, 64 * 64 * 4);
  }
  if (!st) st = duet_event_record(ev);
  if (!st) st = duet_event_wait(root, ev);
  if (!st) st = duet_copy(root, 64, 64, buf, 64, rbuf, 64);
  if (!st) st = duet_finish(root);
  if (!st) st = duet_transpose(member, DUET_TRANSPOSE_AUTO, 64, 64, rbuf, 64, buf, 64);
  if (!st) st = duet_buf_read_async(member, buf, 0, pin, 64 * 64 * 4);
  if (!st) st = duet_finish(member);
  if (!st && (pin[1] != 64.0f || pin[64] != 1.0f)) {
    snprintf(why, n, "the transpose came back wrong: %g, %g", pin[1], pin[64]);
    st = DUET_EINVAL;
  } else if (st) {
    snprintf(why, n, "%s: %s / %s", duet_status_name(st), duet_ctx_last_error(root),
             member ? duet_ctx_last_error(member) : duet_ctx_last_error(NULL));
  }
  if (pin) duet_host_free(root, pin); /* allocated on the member, freed through the root */
  duet_buf_destroy(rbuf);
  for (int i = 0; i < NOBJ; i++) switch (order[i]) {
      case ROOT: duet_ctx_destroy(root); break;
      case MEMBER: duet_ctx_destroy(member); break;
      case BUF: duet_buf_destroy(buf); break;
      default: duet_event_destroy(ev); break;
    }
  return st;
}

static int next_permutation(int *a, int n) {
  int i = n - 2;
  while (i >= 0 && a[i] >= a[i + 1]) i--;
  if (i < 0) return 0;
  int j = n - 1;
  while (a[j] <= a[i]) j--;
  int t = a[i];
  a[i] = a[j], a[j] = t;
  for (int l = i + 1, r = n - 1; l < r; l++, r--) t = a[l], a[l] = a[r], a[r] = t;
  return 1;
}

static void destroy_orders(const harness_dev *dev) {
  int order[NOBJ] = {ROOT, MEMBER, BUF, EVENT};
  do {
    harness_case c;
    harness_case_begin(&c, dev, "family destroyed in the order %s, %s, %s, %s", obj_names[order[0]],
                       obj_names[order[1]], obj_names[order[2]], obj_names[order[3]]);
    char why[512] = "";
    harness_expect(&c, destroy_in_order(dev, order, why, sizeof why) == DUET_OK, "%s", why);
    harness_case_end(&c);
  } while (next_permutation(order, NOBJ));
}

/* A member of a member belongs to the root's family, and outlives both. */
static void grandchild(const harness_dev *dev) {
  harness_case c;
  harness_case_begin(&c, dev, "a member's member: the root's family, usable after both died");
  duet_ctx *member = NULL, *grand = NULL;
  duet_buf *rb = NULL, *gb = NULL;
  float v[16], back[16];
  for (int i = 0; i < 16; i++) v[i] = (float)(i * 3 + 1);
  int st = duet_ctx_create_shared(&member, dev->ctx);
  if (!st) st = duet_ctx_create_shared(&grand, member);
  if (!st) st = duet_buf_create(dev->ctx, sizeof v, &rb);
  duet_ctx_destroy(member);
  if (!st) st = duet_buf_create(grand, sizeof v, &gb);
  if (!st) st = duet_buf_write(rb, 0, v, sizeof v);
  if (!st) st = duet_copy(grand, 4, 4, rb, 4, gb, 4);
  if (!st) st = duet_buf_read(gb, 0, back, sizeof back);
  if (harness_expect_status(&c, st, DUET_OK, grand ? grand : dev->ctx, "member of a member"))
    harness_expect(&c, memcmp(v, back, sizeof v) == 0, "the copy on the grandchild is wrong");
  duet_buf_destroy(rb);
  duet_buf_destroy(gb);
  duet_ctx_destroy(grand);
  harness_case_end(&c);
}

/* Events of two members of a family compare on the device's clock: start on the root, then on
 * the member (after waiting for start) mid and, after a copy, end; the times must run in that
 * order, backwards when asked backwards. An event of another family is refused, the context
 * still usable. */
static void elapsed_across(const harness_dev *dev, duet_ctx *member) {
  enum { N = 1 << 20 };
  harness_case c;
  harness_case_begin(&c, dev, "duet_event_elapsed_ms between the root's and a member's events");
  duet_event *start = NULL, *mid = NULL, *end = NULL, *stranger = NULL;
  duet_ctx *other = NULL;
  duet_buf *a = NULL, *b = NULL;
  float to_mid = -1, to_end = -1, back = 1;
  int st = duet_event_create(dev->ctx, &start);
  if (!st) st = duet_event_create(member, &mid);
  if (!st) st = duet_event_create(member, &end);
  if (!st) st = duet_buf_create(dev->ctx, N * sizeof(float), &a);
  if (!st) st = duet_buf_create(member, N * sizeof(float), &b);
  if (!harness_expect_status(&c, st, DUET_OK, member, "setup")) goto done;
  st = duet_event_record(start);
  if (!st) st = duet_event_wait(member, start);
  if (!st) st = duet_event_record(mid);
  if (!st) st = duet_buf_copy(b, a, N * sizeof(float)); /* on b's context, the member */
  if (!st) st = duet_event_record(end);
  if (!harness_expect_status(&c, st, DUET_OK, member, "record, wait, record, copy, record"))
    goto done;
  st = duet_event_elapsed_ms(start, mid, &to_mid);
  if (!st) st = duet_event_elapsed_ms(start, end, &to_end);
  if (!st) st = duet_event_elapsed_ms(end, start, &back);
  if (harness_expect_status(&c, st, DUET_OK, dev->ctx, "duet_event_elapsed_ms across members"))
    harness_expect(&c, to_mid >= 0 && to_end >= to_mid && back <= 0 && isfinite(to_end),
                   "start to mid %g ms, start to end %g ms, end to start %g ms: not in order",
                   to_mid, to_end, back);
  /* Another root on the same device: a family of its own. */
  st = duet_ctx_create(&other, dev->backend, dev->device);
  if (!st) st = duet_event_create(other, &stranger);
  if (!st) st = duet_event_record(stranger);
  if (!harness_expect_status(&c, st, DUET_OK, other, "a second family's event")) goto done;
  float ms = 42;
  st = duet_event_elapsed_ms(start, stranger, &ms);
  harness_expect_status(&c, st, DUET_EINVAL, dev->ctx, "elapsed to another family's event");
  harness_expect(&c, strstr(duet_ctx_last_error(dev->ctx), "different families") != NULL,
                 "the refusal does not say why: %s", duet_ctx_last_error(dev->ctx));
  harness_expect(&c, ms == 42, "the refused call wrote ms");
  st = duet_event_elapsed_ms(stranger, start, &ms);
  harness_expect_status(&c, st, DUET_EINVAL, other, "elapsed from another family's event");
  harness_expect_status(&c, duet_finish(dev->ctx), DUET_OK, dev->ctx, "finish after the refusals");
done:
  duet_event_destroy(start);
  duet_event_destroy(mid);
  duet_event_destroy(end);
  duet_event_destroy(stranger);
  duet_buf_destroy(a);
  duet_buf_destroy(b);
  duet_ctx_destroy(other);
  harness_case_end(&c);
}

/* A program built on the root takes buffers of a member, as every routine does. */
static void program_on_member_buffers(const harness_dev *dev, duet_ctx *member) {
  static const char source[] =
      "#include <duet_kernel.h>\n"
      "DUET_KERNEL void twice(DUET_GLOBAL const float *in, DUET_GLOBAL float *out, int n) {\n"
      "  const size_t i = DUET_GLOBAL_IDX(0);\n"
      "  if (i < (size_t)n) out[i] = 2.0f * in[i];\n"
      "}\n";
  enum { N = 1000 };
  harness_case c;
  harness_case_begin(&c, dev, "duet_launch on the root with a member's buffers");
  duet_program *prog = NULL;
  duet_buf *in = NULL, *out = NULL;
  float h[N], back[N];
  for (int i = 0; i < N; i++) h[i] = (float)i - 300.5f;
  int st = duet_program_create(dev->ctx, source, NULL, &prog);
  if (st == DUET_EUNSUPPORTED) {
    harness_case_skip(&c, "no run-time compiler: %s", duet_ctx_last_error(dev->ctx));
    return;
  }
  if (!st) st = duet_buf_create(member, sizeof h, &in);
  if (!st) st = duet_buf_create(member, sizeof h, &out);
  if (!st) st = duet_buf_write(in, 0, h, sizeof h);
  if (!st) {
    const size_t grid[3] = {(N + 127) / 128, 1, 1};
    const unsigned block[3] = {128, 1, 1};
    const duet_arg args[] = {duet_arg_buf(in), duet_arg_buf(out), duet_arg_i32(N)};
    st = duet_launch(prog, "twice", grid, block, 0, args, COUNT(args));
  }
  if (!st) st = duet_finish(dev->ctx);
  if (!st) st = duet_buf_read(out, 0, back, sizeof back);
  if (harness_expect_status(&c, st, DUET_OK, dev->ctx, "program, buffers, launch, read"))
    for (int i = 0; i < N; i++)
      if (!harness_expect(&c, back[i] == 2.0f * h[i], "out[%d] = %g, want %g", i, back[i],
                          2.0f * h[i]))
        break;
  duet_buf_destroy(in);
  duet_buf_destroy(out);
  duet_program_destroy(prog);
  harness_case_end(&c);
}

/* The pipeline under each QUEUE_FLUSH policy (when OpenCL submits a kernel: after copies,
 * events and waits alone; after every kernel in a family of several queues; after every
 * kernel), in a family of three and on a root whose members are gone (policy 1 then flushes
 * no kernel). CUDA takes the value and ignores it. */
static void flush_policies(const harness_dev *dev) {
  for (int policy = 0; policy <= 2; policy++) {
    char spec[32], how[96];
    snprintf(spec, sizeof spec, "QUEUE_FLUSH=%d", policy);
    duet_ctx *root = NULL, *m1 = NULL, *m2 = NULL;
    harness_case c;
    harness_case_begin(&c, dev, "a family of three with DUET_TUNE=%s", spec);
    int st = harness_create_with_env(&root, "DUET_TUNE", spec, dev->backend, dev->device);
    if (!st) st = duet_ctx_create_shared(&m1, root);
    if (!st) st = duet_ctx_create_shared(&m2, root);
    const int ok = harness_expect_status(&c, st, DUET_OK, NULL, "creating the family");
    harness_case_end(&c);
    if (ok) {
      snprintf(how, sizeof how, "%s: root, member, member", spec);
      pipeline(dev, root, m1, m2, how);
      snprintf(how, sizeof how, "%s: one member alone", spec);
      pipeline(dev, m1, m1, m1, how);
      duet_ctx_destroy(m1);
      duet_ctx_destroy(m2);
      m1 = m2 = NULL;
      snprintf(how, sizeof how, "%s: the root, its members gone", spec);
      pipeline(dev, root, root, root, how);
    }
    duet_ctx_destroy(m1);
    duet_ctx_destroy(m2);
    if (root) duet_ctx_destroy(root);
  }
}

/* DUET_OPENCL_PROFILING=0 (OpenCL queues made without profiling, for measuring what it costs):
 * the pipeline across a family still comes out right, and timing two events is refused with
 * DUET_EUNSUPPORTED and why, the context usable after; CUDA ignores the variable. */
static void without_profiling(const harness_dev *dev) {
  harness_env saved = harness_env_set("DUET_OPENCL_PROFILING", "0");
  duet_ctx *root = NULL, *m1 = NULL;
  duet_event *a = NULL, *b = NULL;
  harness_case c;
  harness_case_begin(&c, dev, "a family of two with DUET_OPENCL_PROFILING=0");
  int st = duet_ctx_create(&root, dev->backend, dev->device);
  if (!st) st = duet_ctx_create_shared(&m1, root);
  const int ok = harness_expect_status(&c, st, DUET_OK, NULL, "creating the family");
  harness_case_end(&c);
  if (ok) {
    pipeline(dev, root, m1, m1, "DUET_OPENCL_PROFILING=0: root, member, member");
    harness_case_begin(&c, dev, "duet_event_elapsed_ms with DUET_OPENCL_PROFILING=0");
    float ms = 42;
    st = duet_event_create(root, &a);
    if (!st) st = duet_event_create(m1, &b);
    if (!st) st = duet_event_record(a);
    if (!st) st = duet_event_wait(m1, a);
    if (!st) st = duet_event_record(b);
    if (harness_expect_status(&c, st, DUET_OK, root, "record, wait, record")) {
      const int opencl = dev->backend == DUET_BACKEND_OPENCL;
      st = duet_event_elapsed_ms(a, b, &ms);
      harness_expect_status(&c, st, opencl ? DUET_EUNSUPPORTED : DUET_OK, root,
                            "duet_event_elapsed_ms");
      if (opencl)
        harness_expect(&c, strstr(duet_ctx_last_error(root), "DUET_OPENCL_PROFILING") != NULL,
                       "the refusal does not say why: %s", duet_ctx_last_error(root));
      harness_expect_status(&c, duet_finish(root), DUET_OK, root, "finish after it");
    }
    harness_case_end(&c);
  }
  duet_event_destroy(a);
  duet_event_destroy(b);
  duet_ctx_destroy(m1);
  duet_ctx_destroy(root);
  harness_env_restore(&saved);
}

static void run(const harness_dev *dev, void *user) {
  (void)user;
  duet_ctx *m1 = NULL, *m2 = NULL;
  harness_case c;
  harness_case_begin(&c, dev, "duet_ctx_create_shared twice");
  int st = duet_ctx_create_shared(&m1, dev->ctx);
  if (!st) st = duet_ctx_create_shared(&m2, dev->ctx);
  harness_expect_status(&c, st, DUET_OK, NULL, "duet_ctx_create_shared");
  if (!st) {
    harness_expect(&c, duet_ctx_backend(m1) == dev->backend, "the member's backend differs");
    harness_expect(&c, duet_ctx_device(m1) == dev->device, "the member's device differs");
    harness_expect(&c, strcmp(duet_ctx_tuning(m1), duet_ctx_tuning(dev->ctx)) == 0,
                   "the member's tuning set differs");
    harness_expect(&c,
                   duet_ctx_native_queue(m1) != duet_ctx_native_queue(dev->ctx) &&
                       duet_ctx_native_queue(m1) != duet_ctx_native_queue(m2),
                   "the members share a native queue");
  }
  if (!harness_case_end(&c)) goto done;
  copies(dev, dev->ctx, dev->ctx, 1, "one context");
  copies(dev, dev->ctx, dev->ctx, 0, "one context");
  copies(dev, dev->ctx, m1, 1, "the root's buffer on a member");
  copies(dev, m1, dev->ctx, 0, "a member's buffer on the root");
  pipeline(dev, dev->ctx, m1, m2, "root, member, member");
  pipeline(dev, m2, m2, m2, "one member alone");
  arenas(dev, dev->ctx, m1);
  elapsed_across(dev, m1);
  program_on_member_buffers(dev, m1);
  grandchild(dev);
  destroy_orders(dev);
  flush_policies(dev);
  without_profiling(dev);
done:
  duet_ctx_destroy(m1);
  duet_ctx_destroy(m2);
}

int main(void) {
  harness_init("test_queues");
  harness_for_each_ctx(run, NULL);
  return harness_end();
}
