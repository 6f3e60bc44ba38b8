/* SPDX-License-Identifier: MIT */
/* Users' own kernels: duet_program_create and duet_launch on every backend and device, each
 * part of duet_kernel.h's dialect checked against a CPU reference, and every check that
 * duet_launch makes before it enqueues (bad sources and options, names, argument counts and
 * kinds, blocks and shared memory past the limits, NULLs), with the destroy orders. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* One source for every case: each kernel exercises a part of the dialect. */
static const char source[] =
    "#include <duet_kernel.h>\n"
    "DUET_KERNEL void add(DUET_GLOBAL const float *DUET_RESTRICT a,\n"
    "                     DUET_GLOBAL const float *DUET_RESTRICT b,\n"
    "                     DUET_GLOBAL float *DUET_RESTRICT c, int n) {\n"
    "  const size_t i = DUET_GLOBAL_IDX(0);\n"
    "  if (i < (size_t)n) c[i] = a[i] + b[i];\n"
    "}\n"
    /* Each block reverses its piece through dynamic shared memory. */
    "DUET_KERNEL void reverse(DUET_GLOBAL const float *in, DUET_GLOBAL float *out\n"
    "                         DUET_SHARED_PARAM(float, tile)) {\n"
    "  DUET_SHARED_BIND(float, tile);\n"
    "  const unsigned t = DUET_THREAD_IDX(0), nb = DUET_BLOCK_DIM(0);\n"
    "  const size_t base = (size_t)DUET_BLOCK_IDX(0) * nb;\n"
    "  tile[t] = in[base + t];\n"
    "  DUET_BARRIER();\n"
    "  out[base + t] = tile[nb - 1 - t];\n"
    "}\n"
    /* One block fills all m floats of its dynamic shared memory, then writes them back
     * reversed: a launch's shared bytes must really be there, every one of them. */
    "DUET_KERNEL void fill_shared(DUET_GLOBAL const float *in, DUET_GLOBAL float *out, int m\n"
    "                             DUET_SHARED_PARAM(float, tile)) {\n"
    "  DUET_SHARED_BIND(float, tile);\n"
    "  const int t = (int)DUET_THREAD_IDX(0), nb = (int)DUET_BLOCK_DIM(0);\n"
    "  for (int j = t; j < m; j += nb) tile[j] = in[j];\n"
    "  DUET_BARRIER();\n"
    "  for (int j = t; j < m; j += nb) out[j] = tile[m - 1 - j];\n"
    "}\n"
    /* Every index and size in three dimensions, coded into one int per thread. */
    "DUET_KERNEL void where(DUET_GLOBAL int *out, DUET_GLOBAL int *sizes) {\n"
    "  const size_t x = DUET_GLOBAL_IDX(0), y = DUET_GLOBAL_IDX(1), z = DUET_GLOBAL_IDX(2);\n"
    "  const size_t at = (z * DUET_GLOBAL_SIZE(1) + y) * DUET_GLOBAL_SIZE(0) + x;\n"
    "  int code = 0;\n"
    "  for (int d = 2; d >= 0; d--) {\n"
    "    unsigned t = d == 0 ? DUET_THREAD_IDX(0) : d == 1 ? DUET_THREAD_IDX(1) : "
    "DUET_THREAD_IDX(2);\n"
    "    unsigned b = d == 0 ? DUET_BLOCK_IDX(0) : d == 1 ? DUET_BLOCK_IDX(1) : "
    "DUET_BLOCK_IDX(2);\n"
    "    code = code * 100 + (int)(b * 10 + t);\n"
    "  }\n"
    "  out[at] = code;\n"
    "  if (at == 0) {\n"
    "    sizes[0] = (int)DUET_GRID_DIM(0); sizes[1] = (int)DUET_GRID_DIM(1);\n"
    "    sizes[2] = (int)DUET_GRID_DIM(2); sizes[3] = (int)DUET_BLOCK_DIM(0);\n"
    "    sizes[4] = (int)DUET_BLOCK_DIM(1); sizes[5] = (int)DUET_BLOCK_DIM(2);\n"
    "    sizes[6] = (int)DUET_GLOBAL_SIZE(0); sizes[7] = (int)DUET_GLOBAL_SIZE(1);\n"
    "    sizes[8] = (int)DUET_GLOBAL_SIZE(2);\n"
    "  }\n"
    "}\n"
    /* Atomics: every thread adds 1 to an int and its index's low bits to a float. */
    "DUET_KERNEL void atomics(DUET_GLOBAL int *count, DUET_GLOBAL float *sum, int n) {\n"
    "  const size_t i = DUET_GLOBAL_IDX(0);\n"
    "  DUET_SHARED int local_count[1];\n"
    "  if (DUET_THREAD_IDX(0) == 0) local_count[0] = 0;\n"
    "  DUET_BARRIER();\n"
    "  if (i < (size_t)n) {\n"
    "    DUET_ATOMIC_ADD_INT(&local_count[0], 1);\n"
    "    DUET_ATOMIC_ADD_FLOAT(sum, (float)(i & 7));\n"
    "  }\n"
    "  DUET_BARRIER();\n"
    "  if (DUET_THREAD_IDX(0) == 0) DUET_ATOMIC_ADD_INT(count, local_count[0]);\n"
    "}\n"
    /* The last block sums the blocks' sums: thread 0 of each stores its block's, fences for the
     * device and takes a ticket; the block with the last ticket fences and reads them all. */
    "DUET_KERNEL void last_block(DUET_GLOBAL const float *in, volatile DUET_GLOBAL float *part,\n"
    "                            DUET_GLOBAL int *ticket, DUET_GLOBAL float *out, int n) {\n"
    "  DUET_SHARED int last[1];\n"
    "  const unsigned b = DUET_BLOCK_IDX(0), nb = DUET_GRID_DIM(0);\n"
    "  if (DUET_THREAD_IDX(0) == 0) {\n"
    "    float s = 0.0f;\n"
    "    for (unsigned j = 0; j < DUET_BLOCK_DIM(0); j++) {\n"
    "      const size_t i = (size_t)b * DUET_BLOCK_DIM(0) + j;\n"
    "      if (i < (size_t)n) s += in[i];\n"
    "    }\n"
    "    part[b] = s;\n"
    "    DUET_GLOBAL_FENCE();\n"
    "    last[0] = DUET_ATOMIC_ADD_INT(ticket, 1) == (int)nb - 1;\n"
    "  }\n"
    "  DUET_BARRIER();\n"
    "  if (last[0] && DUET_THREAD_IDX(0) == 0) {\n"
    "    DUET_GLOBAL_FENCE();\n"
    "    float t = 0.0f;\n"
    "    for (unsigned j = 0; j < nb; j++) t += part[j];\n"
    "    out[0] = t;\n"
    "  }\n"
    "}\n"
    /* Vector loads and stores: out = 2 * in, four floats and four ints at a time. */
    "DUET_KERNEL void vectors(DUET_GLOBAL const float *in, DUET_GLOBAL float *out,\n"
    "                         DUET_GLOBAL int *ints, int n4) {\n"
    "  const size_t i = DUET_GLOBAL_IDX(0);\n"
    "  if (i >= (size_t)n4) return;\n"
    "  float4 v = DUET_LOAD4(i, in);\n"
    "  DUET_STORE4(DUET_MAKE_FLOAT4(2 * v.x, 2 * v.y, 2 * v.z, 2 * v.w), i, out);\n"
    "  int4 w = DUET_LOAD4(i, ints);\n"
    "  DUET_STORE4(DUET_MAKE_INT4(w.x + 1, w.y + 1, w.z + 1, w.w + 1), i, ints);\n"
    "  float2 h = DUET_LOAD2(2 * i, in);\n"
    "  DUET_STORE2(DUET_MAKE_FLOAT2(h.y, h.x), 2 * i, out + 4 * (size_t)n4);\n"
    "}\n"
    /* Sub-group sums by shuffles where the device has them; else out[0] = -1. */
    "DUET_KERNEL void shuffles(DUET_GLOBAL const float *in, DUET_GLOBAL float *out,\n"
    "                          DUET_GLOBAL int *lanes) {\n"
    "  const size_t i = DUET_GLOBAL_IDX(0);\n"
    "#ifdef DUET_HAVE_SHUFFLE\n"
    "  float v = in[i];\n"
    "  for (int d = DUET_SUBGROUP_SIZE / 2; d > 0; d /= 2) v += DUET_SHUFFLE_DOWN(v, d);\n"
    "  int x = DUET_SHUFFLE_XOR_INT((int)DUET_SUBGROUP_LANE(), 1);\n"
    "  float first = DUET_SHUFFLE(in[i], 0);\n"
    "  out[i] = DUET_SUBGROUP_LANE() == 0 ? v : first;\n"
    "  lanes[i] = x;\n"
    "#else\n"
    "  if (i == 0) out[0] = -1.0f;\n"
    "  (void)in; (void)lanes;\n"
    "#endif\n"
    "}\n"
    /* Every shuffle at every lane, the lanes counted over the block's linear thread ids. */
    "DUET_KERNEL void shuffle_lanes(DUET_GLOBAL const float *in, DUET_GLOBAL float *f,\n"
    "                               DUET_GLOBAL int *n) {\n"
    "  const unsigned t = DUET_THREAD_IDX(1) * DUET_BLOCK_DIM(0) + DUET_THREAD_IDX(0);\n"
    "  const size_t i = (size_t)DUET_BLOCK_IDX(0) * DUET_BLOCK_DIM(0) * DUET_BLOCK_DIM(1) + t;\n"
    "#ifdef DUET_HAVE_SHUFFLE\n"
    "  const float v = in[i];\n"
    "  const int w = (int)(i * 7 + 1);\n"
    "  const unsigned size = DUET_SUBGROUP_SIZE;\n"
    "  f[3 * i] = DUET_SHUFFLE_DOWN(v, 5);\n"
    "  f[3 * i + 1] = DUET_SHUFFLE_XOR(v, (size / 2) | 1);\n"
    "  f[3 * i + 2] = DUET_SHUFFLE(v, 3);\n"
    "  n[5 * i] = (int)DUET_SUBGROUP_LANE();\n"
    "  n[5 * i + 1] = (int)size;\n"
    "  n[5 * i + 2] = DUET_SHUFFLE_DOWN_INT(w, 1);\n"
    "  n[5 * i + 3] = DUET_SHUFFLE_XOR_INT(w, size - 1);\n"
    "  n[5 * i + 4] = DUET_SHUFFLE_INT(w, size - 2);\n"
    "#else\n"
    "  if (i == 0) n[1] = -1;\n"
    "  (void)in; (void)f;\n"
    "#endif\n"
    "}\n"
    /* The scalar kinds, each written out so that a swapped value shows. */
    "DUET_KERNEL void scalars(DUET_GLOBAL float *out, int i, DUET_I64 l, float f, unsigned u) {\n"
    "  out[0] = (float)i; out[1] = (float)l; out[2] = f; out[3] = (float)u;\n"
    "  out[4] = (float)(l >> 32);\n"
    "}\n"
    "DUET_KERNEL void options(DUET_GLOBAL float *out) {\n"
    "#ifdef SCALE\n"
    "  out[0] = SCALE * OFFSET;\n"
    "#else\n"
    "  out[0] = -1.0f;\n"
    "#endif\n"
    "}\n";

typedef struct {
  duet_ctx *ctx;
  duet_program *prog;
  harness_case *c;
} env;

static int ok(harness_case *c, const duet_ctx *ctx, int status, const char *call) {
  return harness_expect_status(c, status, DUET_OK, ctx, call);
}

static duet_buf *make_buf(harness_case *c, duet_ctx *ctx, size_t bytes, const void *init) {
  duet_buf *b = NULL;
  if (!ok(c, ctx, duet_buf_create(ctx, bytes, &b), "duet_buf_create")) return NULL;
  if (init && !ok(c, ctx, duet_buf_write(b, 0, init, bytes), "duet_buf_write")) {
    duet_buf_destroy(b);
    return NULL;
  }
  return b;
}

static const size_t one[3] = {1, 1, 1};
static const unsigned one_block[3] = {1, 1, 1};

/* ---- the dialect, checked against the CPU ----------------------------------------------- */

static void case_add(const harness_dev *dev, duet_program *prog) {
  harness_case c;
  enum { N = 1000 };
  harness_case_begin(&c, dev, "program add n=%d (blocks of 128, the last one partial)", N);
  static float a[N], b[N], got[N];
  for (int i = 0; i < N; i++) a[i] = (float)i * 0.5f, b[i] = (float)(N - i);
  duet_buf *da = make_buf(&c, dev->ctx, sizeof a, a), *db = make_buf(&c, dev->ctx, sizeof b, b),
           *dc = make_buf(&c, dev->ctx, sizeof got, NULL);
  if (da && db && dc) {
    const size_t grid[3] = {(N + 127) / 128, 1, 1};
    const unsigned block[3] = {128, 1, 1};
    duet_arg args[] = {duet_arg_buf(da), duet_arg_buf(db), duet_arg_buf(dc), duet_arg_i32(N)};
    if (ok(&c, dev->ctx, duet_launch(prog, "add", grid, block, 0, args, COUNT(args)),
           "duet_launch") &&
        ok(&c, dev->ctx, duet_buf_read(dc, 0, got, sizeof got), "duet_buf_read")) {
      int wrong = 0;
      for (int i = 0; i < N; i++) wrong += got[i] != a[i] + b[i];
      harness_expect(&c, wrong == 0, "%d of %d sums wrong", wrong, N);
    }
  }
  duet_buf_destroy(da);
  duet_buf_destroy(db);
  duet_buf_destroy(dc);
  harness_case_end(&c);
}

static void case_reverse(const harness_dev *dev, duet_program *prog) {
  harness_case c;
  enum { B = 64, BLOCKS = 5, N = B * BLOCKS };
  harness_case_begin(&c, dev, "program reverse: dynamic shared memory and the barrier, %d blocks",
                     BLOCKS);
  float in[N], got[N];
  for (int i = 0; i < N; i++) in[i] = (float)i + 0.25f;
  duet_buf *din = make_buf(&c, dev->ctx, sizeof in, in),
           *dout = make_buf(&c, dev->ctx, sizeof got, NULL);
  if (din && dout) {
    const size_t grid[3] = {BLOCKS, 1, 1};
    const unsigned block[3] = {B, 1, 1};
    duet_arg args[] = {duet_arg_buf(din), duet_arg_buf(dout)};
    if (ok(&c, dev->ctx, duet_launch(prog, "reverse", grid, block, B * sizeof(float), args, 2),
           "duet_launch") &&
        ok(&c, dev->ctx, duet_buf_read(dout, 0, got, sizeof got), "duet_buf_read")) {
      int wrong = 0;
      for (int i = 0; i < N; i++) wrong += got[i] != in[(i / B) * B + (B - 1 - i % B)];
      harness_expect(&c, wrong == 0, "%d of %d elements wrong", wrong, N);
    }
  }
  duet_buf_destroy(din);
  duet_buf_destroy(dout);
  harness_case_end(&c);
}

/* A launch with this many bytes of dynamic shared memory works and uses every one of them. On
 * CUDA past 48 KiB this needs the kernel's opt-in (cudaFuncAttributeMaxDynamicSharedMemorySize). */
static void case_big_shared(const harness_dev *dev, duet_program *prog, size_t bytes,
                            const char *what) {
  harness_case c;
  harness_case_begin(&c, dev, "program fill_shared: %zu bytes of dynamic shared memory (%s)", bytes,
                     what);
  if (bytes > dev->info.shared_mem_bytes) {
    harness_case_skip(&c, "the device allows %zu bytes a block", dev->info.shared_mem_bytes);
    return;
  }
  const int m = (int)(bytes / sizeof(float));
  float *in = malloc(bytes), *got = malloc(bytes);
  if (!harness_expect(&c, in && got, "out of host memory")) {
    free(in);
    free(got);
    harness_case_end(&c);
    return;
  }
  for (int i = 0; i < m; i++) in[i] = (float)(i % 4099) - 7.0f;
  duet_buf *din = make_buf(&c, dev->ctx, bytes, in), *dout = make_buf(&c, dev->ctx, bytes, NULL);
  if (din && dout) {
    const unsigned block[3] = {256, 1, 1};
    duet_arg args[] = {duet_arg_buf(din), duet_arg_buf(dout), duet_arg_i32(m)};
    if (ok(&c, dev->ctx, duet_launch(prog, "fill_shared", one, block, bytes, args, 3),
           "duet_launch") &&
        ok(&c, dev->ctx, duet_buf_read(dout, 0, got, bytes), "duet_buf_read")) {
      int wrong = 0;
      for (int i = 0; i < m; i++) wrong += got[i] != in[m - 1 - i];
      harness_expect(&c, wrong == 0, "%d of %d elements wrong", wrong, m);
    }
  }
  duet_buf_destroy(din);
  duet_buf_destroy(dout);
  free(in);
  free(got);
  harness_case_end(&c);
}

static void case_where(const harness_dev *dev, duet_program *prog) {
  harness_case c;
  const size_t grid[3] = {3, 2, 2};
  const unsigned block[3] = {4, 3, 2};
  enum { GX = 12, GY = 6, GZ = 4, N = GX * GY * GZ };
  harness_case_begin(&c, dev, "program where: every index and size in 3D, grid 3x2x2 block 4x3x2");
  int got[N], sizes[9];
  duet_buf *out = make_buf(&c, dev->ctx, sizeof got, NULL),
           *dsizes = make_buf(&c, dev->ctx, sizeof sizes, NULL);
  duet_arg args[] = {duet_arg_buf(out), duet_arg_buf(dsizes)};
  if (out && dsizes &&
      ok(&c, dev->ctx, duet_launch(prog, "where", grid, block, 0, args, 2), "duet_launch") &&
      ok(&c, dev->ctx, duet_buf_read(out, 0, got, sizeof got), "duet_buf_read") &&
      ok(&c, dev->ctx, duet_buf_read(dsizes, 0, sizes, sizeof sizes), "duet_buf_read")) {
    int wrong = 0;
    for (int z = 0; z < GZ; z++)
      for (int y = 0; y < GY; y++)
        for (int x = 0; x < GX; x++) {
          const int pos[3] = {x, y, z};
          int code = 0;
          for (int d = 2; d >= 0; d--)
            code = code * 100 + (int)(pos[d] / (int)block[d] * 10 + pos[d] % (int)block[d]);
          wrong += got[(z * GY + y) * GX + x] != code;
        }
    harness_expect(&c, wrong == 0, "%d of %d threads saw other indices", wrong, N);
    for (int d = 0; d < 3; d++)
      harness_expect(&c,
                     sizes[d] == (int)grid[d] && sizes[3 + d] == (int)block[d] &&
                         sizes[6 + d] == (int)(grid[d] * block[d]),
                     "dimension %d: grid %d, block %d, global %d", d, sizes[d], sizes[3 + d],
                     sizes[6 + d]);
  }
  duet_buf_destroy(out);
  duet_buf_destroy(dsizes);
  harness_case_end(&c);
}

static void case_atomics(const harness_dev *dev, duet_program *prog) {
  harness_case c;
  enum { N = 3001 };
  harness_case_begin(&c, dev, "program atomics: int (shared and global) and float adds, n=%d", N);
  int count = 0;
  float sum = 0;
  duet_buf *dcount = make_buf(&c, dev->ctx, sizeof count, &count),
           *dsum = make_buf(&c, dev->ctx, sizeof sum, &sum);
  if (dcount && dsum) {
    const size_t grid[3] = {(N + 63) / 64, 1, 1};
    const unsigned block[3] = {64, 1, 1};
    duet_arg args[] = {duet_arg_buf(dcount), duet_arg_buf(dsum), duet_arg_i32(N)};
    if (ok(&c, dev->ctx, duet_launch(prog, "atomics", grid, block, 0, args, 3), "duet_launch") &&
        ok(&c, dev->ctx, duet_buf_read(dcount, 0, &count, sizeof count), "duet_buf_read") &&
        ok(&c, dev->ctx, duet_buf_read(dsum, 0, &sum, sizeof sum), "duet_buf_read")) {
      double want = 0; /* small integers: every order of the adds gives the same float */
      for (int i = 0; i < N; i++) want += i & 7;
      harness_expect(&c, count == N, "count = %d, want %d", count, N);
      harness_expect(&c, sum == (float)want, "sum = %.1f, want %.1f", sum, want);
    }
  }
  duet_buf_destroy(dcount);
  duet_buf_destroy(dsum);
  harness_case_end(&c);
}

/* DUET_GLOBAL_FENCE in use: the partial sums are small integers, so any order of the adds gives
 * the exact total, and every block must have taken its ticket. */
static void case_last_block(const harness_dev *dev, duet_program *prog) {
  harness_case c;
  enum { BLOCK = 64, BLOCKS = 257, N = BLOCK * BLOCKS - 5 };
  harness_case_begin(&c, dev, "program last_block: %d blocks' sums published by DUET_GLOBAL_FENCE",
                     BLOCKS);
  static float in[N];
  double want = 0;
  for (int i = 0; i < N; i++) want += in[i] = (float)(i & 15);
  int ticket = 0;
  float out = -1.0f;
  duet_buf *din = make_buf(&c, dev->ctx, sizeof in, in),
           *dpart = make_buf(&c, dev->ctx, BLOCKS * sizeof(float), NULL),
           *dticket = make_buf(&c, dev->ctx, sizeof ticket, &ticket),
           *dout = make_buf(&c, dev->ctx, sizeof out, &out);
  if (din && dpart && dticket && dout) {
    const size_t grid[3] = {BLOCKS, 1, 1};
    const unsigned block[3] = {BLOCK, 1, 1};
    duet_arg args[] = {duet_arg_buf(din), duet_arg_buf(dpart), duet_arg_buf(dticket),
                       duet_arg_buf(dout), duet_arg_i32(N)};
    if (ok(&c, dev->ctx, duet_launch(prog, "last_block", grid, block, 0, args, COUNT(args)),
           "duet_launch") &&
        ok(&c, dev->ctx, duet_buf_read(dout, 0, &out, sizeof out), "duet_buf_read") &&
        ok(&c, dev->ctx, duet_buf_read(dticket, 0, &ticket, sizeof ticket), "duet_buf_read")) {
      harness_expect(&c, ticket == BLOCKS, "ticket = %d, want %d", ticket, BLOCKS);
      harness_expect(&c, out == (float)want, "sum = %.1f, want %.1f", out, want);
    }
  }
  duet_buf_destroy(din);
  duet_buf_destroy(dpart);
  duet_buf_destroy(dticket);
  duet_buf_destroy(dout);
  harness_case_end(&c);
}

static void case_vectors(const harness_dev *dev, duet_program *prog) {
  harness_case c;
  enum { N4 = 50, N = 4 * N4 };
  harness_case_begin(&c, dev, "program vectors: float4, int4 and float2 loads and stores");
  float in[N], got[2 * N];
  int ints[N];
  for (int i = 0; i < N; i++) in[i] = (float)i - 7.5f, ints[i] = 3 * i;
  duet_buf *din = make_buf(&c, dev->ctx, sizeof in, in),
           *dout = make_buf(&c, dev->ctx, sizeof got, NULL),
           *dints = make_buf(&c, dev->ctx, sizeof ints, ints);
  if (din && dout && dints) {
    const size_t grid[3] = {(N4 + 31) / 32, 1, 1};
    const unsigned block[3] = {32, 1, 1};
    duet_arg args[] = {duet_arg_buf(din), duet_arg_buf(dout), duet_arg_buf(dints),
                       duet_arg_i32(N4)};
    if (ok(&c, dev->ctx, duet_launch(prog, "vectors", grid, block, 0, args, 4), "duet_launch") &&
        ok(&c, dev->ctx, duet_buf_read(dout, 0, got, sizeof got), "duet_buf_read") &&
        ok(&c, dev->ctx, duet_buf_read(dints, 0, ints, sizeof ints), "duet_buf_read")) {
      int wrong = 0;
      for (int i = 0; i < N; i++) wrong += got[i] != 2 * in[i] || ints[i] != 3 * i + 1;
      /* The float2 half: pairs 2i (i < N4) swapped into out + N. */
      for (int p = 0; p < N4; p++) {
        const int at = 4 * p;
        wrong += got[N + at] != in[at + 1] || got[N + at + 1] != in[at];
      }
      harness_expect(&c, wrong == 0, "%d elements wrong", wrong);
    }
  }
  duet_buf_destroy(din);
  duet_buf_destroy(dout);
  duet_buf_destroy(dints);
  harness_case_end(&c);
}

static void case_shuffles(const harness_dev *dev, duet_program *prog) {
  harness_case c;
  enum { N = 256 };
  harness_case_begin(&c, dev, "program shuffles: sub-group sums, xor and broadcast");
  float in[N], got[N];
  int lanes[N];
  for (int i = 0; i < N; i++) in[i] = (float)(i % 13);
  duet_buf *din = make_buf(&c, dev->ctx, sizeof in, in),
           *dout = make_buf(&c, dev->ctx, sizeof got, NULL),
           *dlanes = make_buf(&c, dev->ctx, sizeof lanes, NULL);
  int skipped = 0;
  if (din && dout && dlanes) {
    const size_t grid[3] = {N / 128, 1, 1};
    const unsigned block[3] = {128, 1, 1};
    duet_arg args[] = {duet_arg_buf(din), duet_arg_buf(dout), duet_arg_buf(dlanes)};
    if (ok(&c, dev->ctx, duet_launch(prog, "shuffles", grid, block, 0, args, 3), "duet_launch") &&
        ok(&c, dev->ctx, duet_buf_read(dout, 0, got, sizeof got), "duet_buf_read") &&
        ok(&c, dev->ctx, duet_buf_read(dlanes, 0, lanes, sizeof lanes), "duet_buf_read")) {
      if (got[0] == -1.0f) {
        skipped = 1;
      } else {
        /* The width is where the lanes start again: lanes[i] = lane ^ 1. */
        int width = 0;
        for (int i = 1; i < N && !width; i++)
          if ((lanes[i] ^ 1) == 0) width = i;
        harness_expect(&c, width > 1 && N % width == 0, "no sub-group width found (%d)", width);
        int wrong = 0;
        for (int g = 0; width > 1 && g < N; g += width) {
          float want = 0;
          for (int i = g; i < g + width; i++) want += in[i];
          wrong += got[g] != want;
          for (int i = g + 1; i < g + width; i++)
            wrong += got[i] != in[g] || lanes[i] != ((i - g) ^ 1);
        }
        harness_expect(&c, wrong == 0, "%d wrong (sub-group width %d)", wrong, width);
      }
    }
  }
  duet_buf_destroy(din);
  duet_buf_destroy(dout);
  duet_buf_destroy(dlanes);
  if (skipped)
    harness_case_skip(&c, "the device has no sub-group shuffles (DUET_HAVE_SHUFFLE undefined)");
  else
    harness_case_end(&c);
}

/* Each shuffle, float and int, at every lane against the CPU: a wrong lane, mode, clamp or
 * operand order in duet_kernel.h (inline PTX on NVIDIA's OpenCL) shows. A lane past the last
 * keeps its own value on NVIDIA (CUDA, or OpenCL through PTX); OpenCL's sub-groups leave it
 * undefined, so only NVIDIA's are checked. 2D blocks on NVIDIA, where a warp is 32 consecutive
 * linear thread ids. */
static void case_shuffle_lanes(const harness_dev *dev, duet_program *prog, unsigned bx,
                               unsigned by) {
  harness_case c;
  enum { BLOCKS = 2 };
  const unsigned threads = bx * by;
  const size_t n = (size_t)BLOCKS * threads;
  harness_case_begin(&c, dev, "program shuffle_lanes: every shuffle at every lane, block %ux%u", bx,
                     by);
  const int nvidia = dev->backend == DUET_BACKEND_CUDA || strstr(dev->info.vendor, "NVIDIA");
  float *in = malloc(n * sizeof *in), *f = malloc(3 * n * sizeof *f);
  int *got = malloc(5 * n * sizeof *got);
  duet_buf *din = NULL, *df = NULL, *dn = NULL;
  int skipped = 0;
  if (harness_expect(&c, in && f && got, "out of host memory")) {
    for (size_t i = 0; i < n; i++) in[i] = (float)((i * 37) % 101) - 50.0f;
    memset(got, 0, 5 * n * sizeof *got);
    din = make_buf(&c, dev->ctx, n * sizeof *in, in);
    df = make_buf(&c, dev->ctx, 3 * n * sizeof *f, NULL);
    dn = make_buf(&c, dev->ctx, 5 * n * sizeof *got, got);
  }
  const size_t grid[3] = {BLOCKS, 1, 1};
  const unsigned block[3] = {bx, by, 1};
  duet_arg args[] = {duet_arg_buf(din), duet_arg_buf(df), duet_arg_buf(dn)};
  if (din && df && dn &&
      ok(&c, dev->ctx, duet_launch(prog, "shuffle_lanes", grid, block, 0, args, 3),
         "duet_launch") &&
      ok(&c, dev->ctx, duet_buf_read(df, 0, f, 3 * n * sizeof *f), "duet_buf_read") &&
      ok(&c, dev->ctx, duet_buf_read(dn, 0, got, 5 * n * sizeof *got), "duet_buf_read")) {
    const int w = got[1];
    if (w == -1) {
      skipped = 1;
    } else if (harness_expect(&c, w >= 4 && threads % (unsigned)w == 0 && (!nvidia || w == 32),
                              "DUET_SUBGROUP_SIZE = %d (block of %u threads%s)", w, threads,
                              nvidia ? ", NVIDIA: want 32" : "")) {
      int wrong = 0;
      for (size_t i = 0; i < n && wrong < 5; i++) {
        const int lane = (int)(i % threads % (unsigned)w), *g = &got[5 * i];
        const size_t first = i - (size_t)lane;
        const int down = lane + 5 < w, down1 = lane + 1 < w;
        const float want_f[3] = {down ? in[i + 5] : in[i],
                                 in[first + (size_t)(lane ^ ((w / 2) | 1))], in[first + 3]};
        const int want_n[5] = {lane, w, (int)((down1 ? i + 1 : i) * 7 + 1),
                               (int)((first + (size_t)(lane ^ (w - 1))) * 7 + 1),
                               (int)((first + (size_t)w - 2) * 7 + 1)};
        for (int k = 0; k < 3; k++)
          if (f[3 * i + k] != want_f[k] && (k != 0 || down || nvidia)) {
            wrong++;
            harness_case_fail(&c, "thread %zu (lane %d): float shuffle %d gave %g, want %g", i,
                              lane, k, f[3 * i + k], want_f[k]);
          }
        for (int k = 0; k < 5; k++)
          if (g[k] != want_n[k] && (k != 2 || down1 || nvidia)) {
            wrong++;
            harness_case_fail(&c, "thread %zu (lane %d): int value %d is %d, want %d", i, lane, k,
                              g[k], want_n[k]);
          }
      }
    }
  }
  duet_buf_destroy(din);
  duet_buf_destroy(df);
  duet_buf_destroy(dn);
  free(in);
  free(f);
  free(got);
  if (skipped)
    harness_case_skip(&c, "the device has no sub-group shuffles (DUET_HAVE_SHUFFLE undefined)");
  else
    harness_case_end(&c);
}

static void case_scalars(const harness_dev *dev, duet_program *prog) {
  harness_case c;
  harness_case_begin(&c, dev, "program scalars: i32, i64 (past 2^32), f32, unsigned");
  float got[5];
  duet_buf *out = make_buf(&c, dev->ctx, sizeof got, NULL);
  const long long big = (5LL << 32) + 7;
  duet_arg args[] = {duet_arg_buf(out), duet_arg_i32(-3), duet_arg_i64(big), duet_arg_f32(2.5f),
                     duet_arg_i32(9)};
  if (out &&
      ok(&c, dev->ctx, duet_launch(prog, "scalars", one, one_block, 0, args, 5), "duet_launch") &&
      ok(&c, dev->ctx, duet_buf_read(out, 0, got, sizeof got), "duet_buf_read"))
    harness_expect(&c,
                   got[0] == -3.0f && got[1] == (float)big && got[2] == 2.5f && got[3] == 9.0f &&
                       got[4] == 5.0f,
                   "got %g %g %g %g %g", got[0], got[1], got[2], got[3], got[4]);
  duet_buf_destroy(out);
  harness_case_end(&c);
}

/* ---- options ----------------------------------------------------------------------------- */

/* The value the "options" kernel writes when built with these options. */
static int options_value(harness_case *c, duet_ctx *ctx, const char *src, const char *options,
                         float *value) {
  duet_program *prog = NULL;
  int status = duet_program_create(ctx, src, options, &prog);
  if (status) return status;
  duet_buf *out = make_buf(c, ctx, sizeof *value, NULL);
  duet_arg args[] = {duet_arg_buf(out)};
  if (out && ok(c, ctx, duet_launch(prog, "options", one, one_block, 0, args, 1), "duet_launch"))
    ok(c, ctx, duet_buf_read(out, 0, value, sizeof *value), "duet_buf_read");
  duet_buf_destroy(out);
  duet_program_destroy(prog);
  return DUET_OK;
}

static void case_options(const harness_dev *dev) {
  harness_case c;
  float v = 0;
  harness_case_begin(&c, dev, "program options -DSCALE=3 -D OFFSET=2.5f");
  if (ok(&c, dev->ctx, options_value(&c, dev->ctx, source, "  -DSCALE=3 -D OFFSET=2.5f ", &v),
         "duet_program_create"))
    harness_expect(&c, v == 7.5f, "got %g, want 7.5", v);
  harness_case_end(&c);

  harness_case_begin(&c, dev, "program options -I DIR: a header of the user's");
  char dir[] = "/tmp/duet-test-program-XXXXXX", path[128], opt[160];
  if (harness_expect(&c, mkdtemp(dir) != NULL, "mkdtemp failed")) {
    snprintf(path, sizeof path, "%s/scale.h", dir);
    FILE *f = fopen(path, "w");
    if (harness_expect(&c, f != NULL, "cannot write %s", path)) {
      fputs("#define SCALE 4\n#define OFFSET 0.5f\n", f);
      fclose(f);
      static const char with_include[] =
          "#include \"scale.h\"\nDUET_KERNEL void options(DUET_GLOBAL float *out) {\n"
          "  out[0] = SCALE * OFFSET;\n}\n";
      snprintf(opt, sizeof opt, "-I%s", dir);
      if (ok(&c, dev->ctx, options_value(&c, dev->ctx, with_include, opt, &v),
             "duet_program_create"))
        harness_expect(&c, v == 2.0f, "got %g, want 2", v);
      unlink(path);
    }
    rmdir(dir);
  }
  harness_case_end(&c);

  static const char *const bad[] = {
      "-O3", "-DX -cl-fast-relaxed-math", "-D", "-I", "-D =1", "--use_fast_math"};
  for (size_t i = 0; i < COUNT(bad); i++) {
    harness_case_begin(&c, dev, "program options '%s' is DUET_EINVAL", bad[i]);
    duet_program *prog = (duet_program *)&c;
    harness_expect_status(&c, duet_program_create(dev->ctx, source, bad[i], &prog), DUET_EINVAL,
                          dev->ctx, "duet_program_create");
    harness_expect(&c, prog == NULL, "prog was not set to NULL");
    harness_case_end(&c);
  }
}

/* ---- bad sources and launches ---------------------------------------------------------- */

static void case_bad_source(const harness_dev *dev) {
  harness_case c;
  harness_case_begin(&c, dev, "program bad source: DUET_EBUILD with the compiler's log");
  static const char broken[] =
      "DUET_KERNEL void broken(DUET_GLOBAL float *x) {\n  x[0] = duet_no_such_name;\n}\n";
  duet_program *prog = NULL;
  if (harness_expect_status(&c, duet_program_create(dev->ctx, broken, NULL, &prog), DUET_EBUILD,
                            dev->ctx, "duet_program_create"))
    harness_expect(&c, strstr(duet_ctx_last_error(dev->ctx), "duet_no_such_name") != NULL,
                   "the last error does not quote the log: %.300s", duet_ctx_last_error(dev->ctx));
  harness_expect(&c, prog == NULL, "prog was set");
  duet_program_destroy(prog);
  harness_case_end(&c);
}

/* A launch that must fail with DUET_EINVAL and leave the output as it was. */
static void expect_refused(const harness_dev *dev, duet_program *prog, const char *what,
                           const char *kernel, const size_t grid[3], const unsigned block[3],
                           size_t shared, const duet_arg *args, unsigned nargs, duet_buf *watch,
                           const char *must_say) {
  harness_case c;
  harness_case_begin(&c, dev, "program refuses %s", what);
  float before[8], after[8];
  int status = duet_buf_read(watch, 0, before, sizeof before);
  if (ok(&c, dev->ctx, status, "duet_buf_read") &&
      harness_expect_status(&c, duet_launch(prog, kernel, grid, block, shared, args, nargs),
                            DUET_EINVAL, dev->ctx, "duet_launch")) {
    if (must_say)
      harness_expect(&c, strstr(duet_ctx_last_error(dev->ctx), must_say) != NULL,
                     "the last error does not say '%s': %s", must_say,
                     duet_ctx_last_error(dev->ctx));
    if (ok(&c, dev->ctx, duet_finish(dev->ctx), "duet_finish") &&
        ok(&c, dev->ctx, duet_buf_read(watch, 0, after, sizeof after), "duet_buf_read"))
      harness_expect(&c, memcmp(before, after, sizeof before) == 0, "the output changed");
  }
  harness_case_end(&c);
}

static void case_refusals(const harness_dev *dev, duet_program *prog) {
  harness_case c;
  harness_case_begin(&c, dev, "program refusals: setup");
  const float init[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  duet_buf *a = make_buf(&c, dev->ctx, sizeof init, init),
           *b = make_buf(&c, dev->ctx, sizeof init, init),
           *out = make_buf(&c, dev->ctx, sizeof init, init);
  duet_ctx *other = NULL;
  duet_buf *foreign = NULL;
  if (ok(&c, NULL, duet_ctx_create(&other, dev->backend, dev->device), "duet_ctx_create"))
    foreign = make_buf(&c, other, sizeof init, init);
  const int setup = a && b && out && foreign;
  harness_case_end(&c);
  if (setup) {
    const int is_cl = dev->backend == DUET_BACKEND_OPENCL;
    const unsigned block[3] = {2, 1, 1};
    const duet_arg good[] = {duet_arg_buf(a), duet_arg_buf(b), duet_arg_buf(out), duet_arg_i32(2)};
    duet_arg args[5];
    expect_refused(dev, prog, "an unknown kernel name", "no_such_kernel", one, block, 0, good, 4,
                   out, "no_such_kernel");
    expect_refused(dev, prog, "too few arguments", "add", one, block, 0, good, 3, out, "takes 4");
    memcpy(args, good, sizeof good);
    args[4] = duet_arg_i32(1);
    expect_refused(dev, prog, "too many arguments", "add", one, block, 0, args, 5, out, "takes 4");
    memcpy(args, good, sizeof good);
    args[3] = duet_arg_i64(2); /* 8 bytes for a 4-byte int: both backends see it */
    expect_refused(dev, prog, "an i64 for an int parameter", "add", one, block, 0, args, 4, out,
                   "argument 3");
    memcpy(args, good, sizeof good);
    args[1] = duet_arg_i32(0);
    expect_refused(dev, prog, "an i32 for a buffer parameter", "add", one, block, 0, args, 4, out,
                   "argument 1");
    if (is_cl) { /* CUDA keeps only sizes: an f32 for an int is 4 bytes for 4 */
      memcpy(args, good, sizeof good);
      args[3] = duet_arg_f32(2);
      expect_refused(dev, prog, "an f32 for an int parameter (OpenCL argument info)", "add", one,
                     block, 0, args, 4, out, "argument 3");
      memcpy(args, good, sizeof good);
      args[0] = duet_arg_i64(0);
      expect_refused(dev, prog, "an i64 for a buffer parameter (OpenCL argument info)", "add", one,
                     block, 0, args, 4, out, "argument 0");
    }
    memcpy(args, good, sizeof good);
    args[2] = duet_arg_buf(NULL);
    expect_refused(dev, prog, "a NULL buffer", "add", one, block, 0, args, 4, out, "NULL");
    args[2] = duet_arg_buf(foreign);
    expect_refused(dev, prog, "a buffer of another context", "add", one, block, 0, args, 4, out,
                   "another context");
    memcpy(args, good, sizeof good);
    memset(&args[1], 0, sizeof args[1]);
    expect_refused(dev, prog, "an argument not made by duet_arg_*", "add", one, block, 0, args, 4,
                   out, "not made");
    expect_refused(dev, prog, "NULL args with nargs 4", "add", one, block, 0, NULL, 4, out, "NULL");
    expect_refused(dev, prog, "a NULL kernel name", NULL, one, block, 0, good, 4, out, "NULL");
    expect_refused(dev, prog, "a NULL grid", "add", NULL, block, 0, good, 4, out, "NULL");
    expect_refused(dev, prog, "a NULL block", "add", one, NULL, 0, good, 4, out, "NULL");

    const unsigned zero_block[3] = {4, 0, 1};
    expect_refused(dev, prog, "a block with a 0 dimension", "add", one, zero_block, 0, good, 4, out,
                   "block[1]");
    const unsigned too_wide[3] = {dev->info.max_block_threads + 1, 1, 1};
    expect_refused(dev, prog, "a block past the device's threads", "add", one, too_wide, 0, good, 4,
                   out, NULL);
    const unsigned too_many[3] = {dev->info.max_block_threads, 2, 1};
    expect_refused(dev, prog, "a 2D block past the device's threads", "add", one, too_many, 0, good,
                   4, out, "threads");
    const unsigned too_deep[3] = {1, 1, 100000};
    expect_refused(dev, prog, "block z past the device's limit", "add", one, too_deep, 0, good, 4,
                   out, "block[2]");
    const size_t huge_grid[3] = {1, (size_t)1 << 40, 1};
    expect_refused(dev, prog, "a grid past the device's limit", "add", huge_grid, block, 0, good, 4,
                   out, "grid[1]");
    const duet_arg rev[] = {duet_arg_buf(a), duet_arg_buf(out)};
    /* duet_device_info's limit is the one duet_launch holds to (duet.h): one byte past it. */
    expect_refused(dev, prog, "shared bytes one past the device's", "reverse", one, block,
                   dev->info.shared_mem_bytes + 1, rev, 2, out, "shared memory");
    if (is_cl)
      expect_refused(dev, prog, "shared bytes for a kernel without DUET_SHARED_PARAM", "add", one,
                     block, 64, good, 4, out, "DUET_SHARED_PARAM");

    harness_case_begin(&c, dev, "program a 0 grid dimension enqueues nothing, DUET_OK");
    const size_t empty[3] = {4, 0, 1};
    ok(&c, dev->ctx, duet_launch(prog, "add", empty, block, 0, good, 4), "duet_launch");
    harness_case_end(&c);

    harness_case_begin(&c, dev, "program still launches after the refusals");
    float got[8];
    if (ok(&c, dev->ctx, duet_launch(prog, "add", one, block, 0, good, 4), "duet_launch") &&
        ok(&c, dev->ctx, duet_buf_read(out, 0, got, sizeof got), "duet_buf_read"))
      harness_expect(&c, got[0] == 2 && got[1] == 4 && got[2] == 3, "got %g %g %g", got[0], got[1],
                     got[2]);
    harness_case_end(&c);
  }
  duet_buf_destroy(a);
  duet_buf_destroy(b);
  duet_buf_destroy(out);
  duet_buf_destroy(foreign);
  duet_ctx_destroy(other);
}

/* OpenCL only: what argument info lets duet refuse when the program is built. */
static void case_bad_params(const harness_dev *dev) {
  static const struct {
    const char *what, *src, *says;
  } cases[] = {
      {"a char parameter", "DUET_KERNEL void k(DUET_GLOBAL float *x, char c) { x[0] = c; }\n",
       "char"},
      {"a __local parameter before the last",
       "DUET_KERNEL void k(__local float *t, DUET_GLOBAL float *x) { t[0] = 1; x[0] = t[0]; }\n",
       "not the last"},
  };
  for (size_t i = 0; i < COUNT(cases); i++) {
    harness_case c;
    harness_case_begin(&c, dev, "program refuses %s (OpenCL argument info)", cases[i].what);
    duet_program *prog = NULL;
    if (ok(&c, dev->ctx, duet_program_create(dev->ctx, cases[i].src, NULL, &prog),
           "duet_program_create") &&
        harness_expect_status(&c, duet_launch(prog, "k", one, one_block, 0, NULL, 0), DUET_EINVAL,
                              dev->ctx, "duet_launch"))
      harness_expect(&c, strstr(duet_ctx_last_error(dev->ctx), cases[i].says) != NULL,
                     "the last error does not say '%s'", cases[i].says);
    duet_program_destroy(prog);
    harness_case_end(&c);
  }
}

static void case_nulls(const harness_dev *dev) {
  harness_case c;
  duet_program *prog = NULL;
  harness_case_begin(&c, dev, "program_create NULLs");
  harness_expect_status(&c, duet_program_create(NULL, source, NULL, &prog), DUET_EINVAL, NULL,
                        "duet_program_create(NULL ctx)");
  harness_expect_status(&c, duet_program_create(dev->ctx, NULL, NULL, &prog), DUET_EINVAL, dev->ctx,
                        "duet_program_create(NULL source)");
  harness_expect_status(&c, duet_program_create(dev->ctx, source, NULL, NULL), DUET_EINVAL,
                        dev->ctx, "duet_program_create(NULL prog)");
  harness_expect_status(&c, duet_launch(NULL, "add", one, one_block, 0, NULL, 0), DUET_EINVAL, NULL,
                        "duet_launch(NULL prog)");
  duet_program_destroy(NULL);
  harness_case_end(&c);
}

/* The program holds its context: destroyed first, the context stays open for the program. */
static void case_destroy_order(const harness_dev *dev) {
  harness_case c;
  harness_case_begin(&c, dev, "program destroy order: context first, then launch, then program");
  duet_ctx *ctx = NULL;
  duet_program *prog = NULL;
  duet_buf *out = NULL;
  float got[4];
  if (ok(&c, NULL, duet_ctx_create(&ctx, dev->backend, dev->device), "duet_ctx_create") &&
      ok(&c, ctx, duet_program_create(ctx, source, "-DSCALE=2 -DOFFSET=3", &prog),
         "duet_program_create") &&
      (out = make_buf(&c, ctx, sizeof got, NULL))) {
    duet_ctx_destroy(ctx);
    duet_arg args[] = {duet_arg_buf(out)};
    if (ok(&c, ctx, duet_launch(prog, "options", one, one_block, 0, args, 1), "duet_launch") &&
        ok(&c, ctx, duet_buf_read(out, 0, got, sizeof got[0]), "duet_buf_read"))
      harness_expect(&c, got[0] == 6.0f, "got %g, want 6", got[0]);
    duet_program_destroy(prog);
    duet_buf_destroy(out);
  } else {
    duet_program_destroy(prog);
    duet_ctx_destroy(ctx);
  }
  harness_case_end(&c);
}

/* Whether "add" of prog (on ctx) sums 300 elements right. */
static int add_works(harness_case *c, duet_ctx *ctx, duet_program *prog) {
  enum { N = 300 };
  float a[N], got[N];
  for (int i = 0; i < N; i++) a[i] = (float)(i % 17);
  duet_buf *da = make_buf(c, ctx, sizeof a, a), *dc = make_buf(c, ctx, sizeof got, NULL);
  const size_t grid[3] = {(N + 63) / 64, 1, 1};
  const unsigned block[3] = {64, 1, 1};
  int wrong = -1;
  if (da && dc) {
    duet_arg args[] = {duet_arg_buf(da), duet_arg_buf(da), duet_arg_buf(dc), duet_arg_i32(N)};
    if (ok(c, ctx, duet_launch(prog, "add", grid, block, 0, args, 4), "duet_launch") &&
        ok(c, ctx, duet_buf_read(dc, 0, got, sizeof got), "duet_buf_read")) {
      wrong = 0;
      for (int i = 0; i < N; i++) wrong += got[i] != 2 * a[i];
      harness_expect(c, wrong == 0, "%d of %d sums wrong", wrong, N);
    }
  }
  duet_buf_destroy(da);
  duet_buf_destroy(dc);
  return wrong == 0;
}

/* Programs of one source and options on two contexts of a device are one in memory (CUDA and
 * OpenCL alike): each keeps working after the other is destroyed, in either order. */
static void case_shared_programs(const harness_dev *dev) {
  harness_case c;
  harness_case_begin(&c, dev, "program of one source on two contexts, each destroyed first");
  static const char opts[] = "-DTEST_PROGRAM_SHARED=1";
  duet_ctx *other = NULL;
  duet_program *p1 = NULL, *p2 = NULL, *p3 = NULL;
  if (ok(&c, NULL, duet_ctx_create(&other, dev->backend, dev->device), "duet_ctx_create") &&
      ok(&c, dev->ctx, duet_program_create(dev->ctx, source, opts, &p1), "duet_program_create") &&
      ok(&c, other, duet_program_create(other, source, opts, &p2), "duet_program_create")) {
    duet_program_destroy(p1);
    p1 = NULL;
    if (add_works(&c, other, p2) &&
        ok(&c, dev->ctx, duet_program_create(dev->ctx, source, opts, &p3), "duet_program_create")) {
      duet_program_destroy(p2);
      p2 = NULL;
      add_works(&c, dev->ctx, p3);
    }
  }
  duet_program_destroy(p1);
  duet_program_destroy(p2);
  duet_program_destroy(p3);
  duet_ctx_destroy(other);
  harness_case_end(&c);
}

static void run(const harness_dev *dev, void *user) {
  (void)user;
  harness_case c;
  duet_program *prog = NULL;
  harness_case_begin(&c, dev, "program_create of the test source");
  const int status = duet_program_create(dev->ctx, source, NULL, &prog);
  if (status == DUET_EUNSUPPORTED && dev->backend == DUET_BACKEND_CUDA) {
    /* No NVRTC on this machine: every case needs a build. */
    harness_case_skip(&c, "%s", duet_ctx_last_error(dev->ctx));
    return;
  }
  const int built = ok(&c, dev->ctx, status, "duet_program_create");
  harness_case_end(&c);
  if (built) {
    case_add(dev, prog);
    case_reverse(dev, prog);
    case_big_shared(dev, prog, 64 * 1024, "past CUDA's default 48 KiB");
    /* An OpenCL kernel may hold local memory of its own beside the dynamic part (NVIDIA's
     * reports 1 byte for every kernel, so 49151 of 49152 are left on the H100): ask for 1 KiB
     * under the device's limit there, the limit itself on CUDA. */
    if (dev->backend == DUET_BACKEND_OPENCL)
      case_big_shared(dev, prog, dev->info.shared_mem_bytes - 1024,
                      "1 KiB under the device's limit, duet_device_info");
    else
      case_big_shared(dev, prog, dev->info.shared_mem_bytes,
                      "the device's limit, duet_device_info");
    case_where(dev, prog);
    case_atomics(dev, prog);
    case_last_block(dev, prog);
    case_vectors(dev, prog);
    case_shuffles(dev, prog);
    case_shuffle_lanes(dev, prog, 128, 1);
    if (dev->backend == DUET_BACKEND_CUDA || strstr(dev->info.vendor, "NVIDIA"))
      case_shuffle_lanes(dev, prog, 16, 8);
    case_scalars(dev, prog);
    case_refusals(dev, prog);
  }
  duet_program_destroy(prog);
  case_options(dev);
  case_bad_source(dev);
  if (dev->backend == DUET_BACKEND_OPENCL) case_bad_params(dev);
  case_nulls(dev);
  case_destroy_order(dev);
  case_shared_programs(dev);
}

int main(void) {
  harness_init("test_program");
  harness_for_each_ctx(run, NULL);
  return harness_end();
}
