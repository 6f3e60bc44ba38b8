/* SPDX-License-Identifier: MIT */
/* The kernel manifest: one row per kernel of kernels_cu/ and kernels_cl/ (see manifest.h). */
#include "manifest.h"

#define T(name) t[DUET__T_##name]
#define F sizeof(float)

const duet__group_desc duet__groups[DUET__G_COUNT] = {
#define DUET__GROUP_ROW(id, name, source, from, to) {name, source, from, to},
    DUET__GROUPS(DUET__GROUP_ROW)
#undef DUET__GROUP_ROW
};

/* ---- shapes: what a block covers and needs, as the kernel files assume it ---------------- */

/* copy and scale: a TILE x TILE tile per block of TILE x ROWS threads. */
static void shape_copy(const int *t, duet__shape *s) {
  *s = (duet__shape){
      T(TRANSPOSE_TILE), T(TRANSPOSE_TILE), T(TRANSPOSE_TILE), T(TRANSPOSE_ROWS), 0, 0};
}
/* naive transpose: one element per thread, so the tile is the block. */
static void shape_transpose_naive(const int *t, duet__shape *s) {
  *s = (duet__shape){
      T(TRANSPOSE_TILE), T(TRANSPOSE_ROWS), T(TRANSPOSE_TILE), T(TRANSPOSE_ROWS), 0, 0};
}
static void shape_transpose_staged(unsigned tile, unsigned rows, unsigned pad, duet__shape *s) {
  *s = (duet__shape){tile, tile, tile, rows, (size_t)tile * (tile + pad) * F, 0};
}
static void shape_transpose_coalesced(const int *t, duet__shape *s) {
  shape_transpose_staged(T(TRANSPOSE_TILE), T(TRANSPOSE_ROWS), 0, s);
}
static void shape_transpose_padded(const int *t, duet__shape *s) {
  shape_transpose_staged(T(TRANSPOSE_PADDED_TILE), T(TRANSPOSE_PADDED_ROWS), 1, s);
}
/* padded-tall: TILE columns by TALL_TILE rows, and 8 rows more in shared memory for the shift
 * that aligns its stores to 32-byte sectors. */
static void shape_transpose_padded_tall(const int *t, duet__shape *s) {
  const unsigned cols = T(TRANSPOSE_TILE), tall = T(TRANSPOSE_TALL_TILE);
  *s = (duet__shape){cols, tall, cols, T(TRANSPOSE_TALL_ROWS), (size_t)(tall + 8) * (cols + 1) * F,
                     0};
}
/* naive and coalesced sgemm: one thread per element of C. naive runs x down the rows of C, so
 * every warp's loads of A and stores of C are strided (the uncoalesced textbook first version). */
static void shape_sgemm_coalesced(const int *t, duet__shape *s) {
  *s = (duet__shape){T(GEMM_SIMPLE_X), T(GEMM_SIMPLE_Y), T(GEMM_SIMPLE_X), T(GEMM_SIMPLE_Y), 0, 0};
}
static void shape_sgemm_naive(const int *t, duet__shape *s) {
  shape_sgemm_coalesced(t, s);
  s->x_walks_rows = 1;
}
static void shape_sgemm_tiled(const int *t, duet__shape *s) {
  const unsigned g = T(GEMM_TILE);
  *s = (duet__shape){g, g, g, g, 2 * (size_t)g * g * F, 0};
}

/* register: a BM x BN tile of C per block of (BN/TN) x (BM/TM) threads, the A and B tiles of
 * one BK step in shared memory. */
static void shape_sgemm_register(const int *t, duet__shape *s) {
  const unsigned bm = T(GEMM_REG_BM), bn = T(GEMM_REG_BN);
  *s = (duet__shape){
      bn, bm, bn / T(GEMM_REG_TN), bm / T(GEMM_REG_TM), (size_t)(bm + bn) * T(GEMM_REG_BK) * F, 0};
}
/* fast: a 1D block of one warp per WM x WN piece of the BM x BN tile; two BK-deep buffers with
 * rows padded by 4 floats, and 16 bytes for OpenCL to align its __local pointer. The small
 * variant is the same kernel at the GEMM_FAST_SMALL_ values. */
static void shape_fast(unsigned bm, unsigned bn, unsigned bk, unsigned wm, unsigned wn,
                       duet__shape *s) {
  *s = (duet__shape){bn, bm, 32 * (bm / wm) * (bn / wn), 1, 2 * (size_t)bk * (bm + bn + 8) * F + 16,
                     0};
}
static void shape_sgemm_fast(const int *t, duet__shape *s) {
  shape_fast(T(GEMM_FAST_BM), T(GEMM_FAST_BN), T(GEMM_FAST_BK), T(GEMM_FAST_WM), T(GEMM_FAST_WN),
             s);
}
static void shape_sgemm_fast_small(const int *t, duet__shape *s) {
  shape_fast(T(GEMM_FAST_SMALL_BM), T(GEMM_FAST_SMALL_BN), T(GEMM_FAST_SMALL_BK),
             T(GEMM_FAST_SMALL_WM), T(GEMM_FAST_SMALL_WN), s);
}
/* skinny: 64 x 4 threads over 256 outputs along the strip, 4 of them per thread for each of up
 * to SKINNY_S thin rows, and the 4 k groups' partial sums in shared memory. The plan gives its
 * grid (1D, gemm.c). */
static void shape_sgemm_skinny(const int *t, duet__shape *s) {
  *s = (duet__shape){256, T(GEMM_SKINNY_S), 64, 4, (size_t)4 * T(GEMM_SKINNY_S) * 256 * F, 0};
}
/* skinny-dot: a warp per output along the strip, 8 of them per block, and the thin operand's
 * 512-wide chunk of k in shared memory (its room also holds the lanes' partial sums). */
static void shape_sgemm_skinny_dot(const int *t, duet__shape *s) {
  *s = (duet__shape){8, T(GEMM_SKINNY_S), 32, 8, (size_t)T(GEMM_SKINNY_S) * 512 * F, 0};
}

/* vector add, reduction, stencil: 1D blocks over a 1D grid that the routine gives (the plan's
 * `blocks`); the tile is what one block covers in one step. Their shared memory is static. */
static void shape_line(unsigned block, unsigned per_thread, duet__shape *s) {
  *s = (duet__shape){block * per_thread, 1, block, 1, 0, 0};
}
static void shape_vector_add(const int *t, duet__shape *s) { shape_line(T(VADD_BLOCK), 4, s); }
static void shape_reduce(const int *t, duet__shape *s) { shape_line(T(REDUCE_BLOCK), 1, s); }
static void shape_stencil(const int *t, duet__shape *s) { shape_line(T(STENCIL_BLOCK), 1, s); }
static void shape_stencil_register(const int *t, duet__shape *s) {
  shape_line(T(STENCIL_BLOCK), T(STENCIL_VEC), s);
}

/* ---- the rows -------------------------------------------------------------------------------- */
#define MOVE_SIG "llmlml" /* rows, cols, in, ld_in, out, ld_out */
#define GEMM_SIG "gmmm"   /* the scalars (duet__gemm_scalars), a, b, c */
/* fast: each matrix with its offset in floats, so that a plan can give it a piece of C */
#define FAST_SIG                                                                       \
  "iilllfmllmllfmlllls" /* ta, tb, m, n, k, alpha, a, a_off, lda, b, b_off, ldb, beta, \
                           c, c_off, ldc, m_read, n_read, scratch */
/* fast over a stream-K grid: FAST_SIG's matrices, then units, work, flags (see gemm.c) */
#define FAST_SK_SIG "iilllfmllmllfmlllllmms"
#define FAST_SK_ROW(NAME) \
  { NAME, DUET__G_GEMM_FAST, FAST_SK_SIG, FAST_TUNABLES(GEMM_FAST_), shape_sgemm_fast }
#define TRANSPOSE_TUNABLES (DUET__TBIT(TRANSPOSE_TILE) | DUET__TBIT(TRANSPOSE_ROWS))
#define STAGED_TUNABLES                                                                  \
  (TRANSPOSE_TUNABLES | DUET__TBIT(TRANSPOSE_BAND) | DUET__TBIT(TRANSPOSE_PADDED_TILE) | \
   DUET__TBIT(TRANSPOSE_PADDED_ROWS) | DUET__TBIT(TRANSPOSE_PADDED_BAND) |               \
   DUET__TBIT(TRANSPOSE_VEC) | DUET__TBIT(TRANSPOSE_TALL_TILE) | DUET__TBIT(TRANSPOSE_TALL_ROWS))
#define SIMPLE_TUNABLES (DUET__TBIT(GEMM_SIMPLE_X) | DUET__TBIT(GEMM_SIMPLE_Y))
#define REG_TUNABLES                                                             \
  (DUET__TBIT(GEMM_REG_BM) | DUET__TBIT(GEMM_REG_BN) | DUET__TBIT(GEMM_REG_BK) | \
   DUET__TBIT(GEMM_REG_TM) | DUET__TBIT(GEMM_REG_TN))
#define FAST_TUNABLES(P)                                                           \
  (DUET__TBIT(P##BM) | DUET__TBIT(P##BN) | DUET__TBIT(P##BK) | DUET__TBIT(P##WM) | \
   DUET__TBIT(P##WN) | DUET__TBIT(P##TM) | DUET__TBIT(P##TN) | DUET__TBIT(P##BAND))

#define VADD_TUNABLES DUET__TBIT(VADD_BLOCK)
#define REDUCE_ROW(NAME)                                                               \
  {                                                                                    \
    NAME, DUET__G_REDUCE, "lmm", DUET__TBIT(REDUCE_BLOCK) | DUET__TBIT(REDUCE_UNROLL), \
        shape_reduce                                                                   \
  }
#define STENCIL_ROW(NAME, SHAPE) \
  { NAME, DUET__G_STENCIL, "limmm", DUET__TBIT(STENCIL_BLOCK) | DUET__TBIT(STENCIL_VEC), SHAPE }

const duet__kernel_desc duet__manifest[DUET__K_COUNT] = {
    [DUET__K_COPY] = {"duet_copy", DUET__G_COPY, MOVE_SIG, TRANSPOSE_TUNABLES, shape_copy},
    [DUET__K_SCALE] = {"duet_scale", DUET__G_COPY, "llfml", TRANSPOSE_TUNABLES, shape_copy},
    [DUET__K_TRANSPOSE_NAIVE] = {"duet_transpose_naive", DUET__G_TRANSPOSE, MOVE_SIG,
                                 TRANSPOSE_TUNABLES, shape_transpose_naive},
    [DUET__K_TRANSPOSE_COALESCED] = {"duet_transpose_coalesced", DUET__G_TRANSPOSE, MOVE_SIG "s",
                                     STAGED_TUNABLES, shape_transpose_coalesced},
    [DUET__K_TRANSPOSE_PADDED] = {"duet_transpose_padded", DUET__G_TRANSPOSE, MOVE_SIG "s",
                                  STAGED_TUNABLES, shape_transpose_padded},
    [DUET__K_TRANSPOSE_PADDED_TALL] = {"duet_transpose_padded_tall", DUET__G_TRANSPOSE,
                                       MOVE_SIG "s", STAGED_TUNABLES, shape_transpose_padded_tall},
    [DUET__K_SGEMM_NAIVE] = {"duet_sgemm_naive", DUET__G_GEMM, GEMM_SIG, SIMPLE_TUNABLES,
                             shape_sgemm_naive},
    [DUET__K_SGEMM_COALESCED] = {"duet_sgemm_coalesced", DUET__G_GEMM, GEMM_SIG, SIMPLE_TUNABLES,
                                 shape_sgemm_coalesced},
    [DUET__K_SGEMM_TILED] = {"duet_sgemm_tiled", DUET__G_GEMM, GEMM_SIG "s",
                             SIMPLE_TUNABLES | DUET__TBIT(GEMM_TILE), shape_sgemm_tiled},
    [DUET__K_SGEMM_REGISTER] = {"duet_sgemm_register", DUET__G_GEMM_FAST, GEMM_SIG "s",
                                REG_TUNABLES, shape_sgemm_register},
    /* grid z: split-K slices writing into a workspace (see gemm.c) */
    [DUET__K_SGEMM_FAST] = {"duet_sgemm_fast", DUET__G_GEMM_FAST, FAST_SIG,
                            FAST_TUNABLES(GEMM_FAST_), shape_sgemm_fast},
    [DUET__K_SGEMM_FAST_SMALL] = {"duet_sgemm_fast", DUET__G_GEMM_FAST_SMALL, FAST_SIG,
                                  FAST_TUNABLES(GEMM_FAST_SMALL_), shape_sgemm_fast_small},
    /* a 1D grid whose last `units` blocks run stream-K (gemm.c gives the grid); one kernel per
     * transpose combination, in this order (gemm.c) */
    [DUET__K_SGEMM_FAST_SK_NN] = FAST_SK_ROW("duet_sgemm_fast_sk_nn"),
    [DUET__K_SGEMM_FAST_SK_NT] = FAST_SK_ROW("duet_sgemm_fast_sk_nt"),
    [DUET__K_SGEMM_FAST_SK_TN] = FAST_SK_ROW("duet_sgemm_fast_sk_tn"),
    [DUET__K_SGEMM_FAST_SK_TT] = FAST_SK_ROW("duet_sgemm_fast_sk_tt"),
    /* m, n, splits, work, alpha, beta, c, c_off, ldc: C = alpha * sum of the slices + beta * C */
    [DUET__K_SGEMM_SPLITK_REDUCE] = {"duet_sgemm_splitk_reduce", DUET__G_GEMM_FAST, "llimffmll",
                                     TRANSPOSE_TUNABLES, shape_copy},
    /* fast's arguments (a strip's plan takes it in place of the small tile); grid z: split-K */
    [DUET__K_SGEMM_SKINNY] = {"duet_sgemm_skinny", DUET__G_GEMM_SKINNY, FAST_SIG,
                              DUET__TBIT(GEMM_SKINNY_S), shape_sgemm_skinny},
    [DUET__K_SGEMM_SKINNY_DOT] = {"duet_sgemm_skinny_dot", DUET__G_GEMM_SKINNY, FAST_SIG,
                                  DUET__TBIT(GEMM_SKINNY_S), shape_sgemm_skinny_dot},
    /* n, a, b, c */
    [DUET__K_VECTOR_ADD] = {"duet_vector_add", DUET__G_VECTOR, "lmmm", VADD_TUNABLES,
                            shape_vector_add},
    /* n, in, out: one pass, a sum per block into out[block] (atomic: added into out[0]) */
    [DUET__K_REDUCE_NAIVE] = REDUCE_ROW("duet_reduce_naive"),
    [DUET__K_REDUCE_SEQUENTIAL] = REDUCE_ROW("duet_reduce_sequential"),
    [DUET__K_REDUCE_SHUFFLE] = REDUCE_ROW("duet_reduce_shuffle"),
    [DUET__K_REDUCE_ATOMIC] = REDUCE_ROW("duet_reduce_atomic"),
    /* n, radius, weights, in, out */
    [DUET__K_STENCIL_NAIVE] = STENCIL_ROW("duet_stencil_naive", shape_stencil),
    [DUET__K_STENCIL_SHARED] = STENCIL_ROW("duet_stencil_shared", shape_stencil),
    /* the register window for radius <= 4 and for radius <= 16 */
    [DUET__K_STENCIL_REGISTER4] = STENCIL_ROW("duet_stencil_register4", shape_stencil_register),
    [DUET__K_STENCIL_REGISTER16] = STENCIL_ROW("duet_stencil_register16", shape_stencil_register),
};
