/* SPDX-License-Identifier: MIT */
/* The kernel manifest: one row per kernel of kernels_cu/ and kernels_cl/ (see manifest.h). */
#include "manifest.h"

#define T(name) t[DUET__T_##name]
#define F sizeof(float)

const duet__group_desc duet__groups[DUET__G_COUNT] = {
#define DUET__GROUP_ROW(id, name, source, from, to, after_prior, define) \
  {name, source, from, to, after_prior, define},
    DUET__GROUPS(DUET__GROUP_ROW)
#undef DUET__GROUP_ROW
};

/* ---- shapes: what a block covers and needs, as the kernel files assume it ---------------- */

/* copy and scale (TRANSPOSE_TILE, _ROWS), split-K's reduction (GEMM_SPLITK_REDUCE_TILE, _ROWS):
 * a tile x tile tile per block of tile x rows threads. */
static void shape_square(unsigned tile, unsigned rows, duet__shape *s) {
  *s = (duet__shape){.tile_x = tile, .tile_y = tile, .block_x = tile, .block_y = rows};
}
static void shape_copy(const int *t, duet__shape *s) {
  shape_square(T(TRANSPOSE_TILE), T(TRANSPOSE_ROWS), s);
}
static void shape_splitk_reduce(const int *t, duet__shape *s) {
  shape_square(T(GEMM_SPLITK_REDUCE_TILE), T(GEMM_SPLITK_REDUCE_ROWS), s);
}
/* naive transpose: one element per thread, so the tile is the block. */
static void shape_transpose_naive(const int *t, duet__shape *s) {
  *s = (duet__shape){.tile_x = T(TRANSPOSE_TILE),
                     .tile_y = T(TRANSPOSE_ROWS),
                     .block_x = T(TRANSPOSE_TILE),
                     .block_y = T(TRANSPOSE_ROWS)};
}
/* coalesced and padded: a tile x tile tile staged in shared memory, its rows padded by `pad`
 * floats, moved by tile x rows threads. */
static void shape_transpose_staged(unsigned tile, unsigned rows, unsigned pad, duet__shape *s) {
  *s = (duet__shape){.tile_x = tile,
                     .tile_y = tile,
                     .block_x = tile,
                     .block_y = rows,
                     .shared_bytes = (size_t)tile * (tile + pad) * F};
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
  *s = (duet__shape){.tile_x = cols,
                     .tile_y = tall,
                     .block_x = cols,
                     .block_y = T(TRANSPOSE_TALL_ROWS),
                     .shared_bytes = (size_t)(tall + 8) * (cols + 1) * F};
}
/* register transpose: a 4 x 4 block per thread, REG_X x REG_Y threads, no shared memory. */
static void shape_transpose_register(const int *t, duet__shape *s) {
  *s = (duet__shape){.tile_x = 4 * T(TRANSPOSE_REG_X),
                     .tile_y = 4 * T(TRANSPOSE_REG_Y),
                     .block_x = T(TRANSPOSE_REG_X),
                     .block_y = T(TRANSPOSE_REG_Y)};
}
/* naive and coalesced sgemm: one thread per element of C. naive runs x down the rows of C, so
 * every warp's loads of A and stores of C are strided (the uncoalesced textbook first version). */
static void shape_sgemm_coalesced(const int *t, duet__shape *s) {
  *s = (duet__shape){.tile_x = T(GEMM_SIMPLE_X),
                     .tile_y = T(GEMM_SIMPLE_Y),
                     .block_x = T(GEMM_SIMPLE_X),
                     .block_y = T(GEMM_SIMPLE_Y)};
}
static void shape_sgemm_naive(const int *t, duet__shape *s) {
  shape_sgemm_coalesced(t, s);
  s->x_walks_rows = 1;
}
/* tiled: TILE x TILE threads over a TILE x TILE tile of C, a tile of A and one of B in shared
 * memory. */
static void shape_sgemm_tiled(const int *t, duet__shape *s) {
  const unsigned g = T(GEMM_TILE);
  *s = (duet__shape){
      .tile_x = g, .tile_y = g, .block_x = g, .block_y = g, .shared_bytes = 2 * (size_t)g * g * F};
}

/* register: a BM x BN tile of C per block of (BN/TN) x (BM/TM) threads, the A and B tiles of
 * one BK step in shared memory. */
static void shape_sgemm_register(const int *t, duet__shape *s) {
  const unsigned bm = T(GEMM_REG_BM), bn = T(GEMM_REG_BN);
  *s = (duet__shape){.tile_x = bn,
                     .tile_y = bm,
                     .block_x = bn / T(GEMM_REG_TN),
                     .block_y = bm / T(GEMM_REG_TM),
                     .shared_bytes = (size_t)(bm + bn) * T(GEMM_REG_BK) * F};
}
/* fast: a 1D block of one warp per WM x WN piece of the BM x BN tile; two BK-deep buffers with
 * rows padded by 4 floats, and 16 bytes for OpenCL to align its __local pointer. The small,
 * tiny, tall, wide, mid, narrow and flat variants are the same kernel at the GEMM_FAST_SMALL_,
 * _TINY_, _TALL_, _WIDE_, _MID_, _NARROW_ and _FLAT_ values. */
static void shape_fast(unsigned bm, unsigned bn, unsigned bk, unsigned wm, unsigned wn,
                       duet__shape *s) {
  *s = (duet__shape){.tile_x = bn,
                     .tile_y = bm,
                     .block_x = 32 * (bm / wm) * (bn / wn),
                     .block_y = 1,
                     .shared_bytes = 2 * (size_t)bk * (bm + bn + 8) * F + 16};
}
/* shape_sgemm_fast, _small, ...: shape_fast at the tile whose tunables start with P */
#define SHAPE_FAST_AT(fn, P)                                         \
  static void fn(const int *t, duet__shape *s) {                     \
    shape_fast(T(P##BM), T(P##BN), T(P##BK), T(P##WM), T(P##WN), s); \
  }
SHAPE_FAST_AT(shape_sgemm_fast, GEMM_FAST_)
SHAPE_FAST_AT(shape_sgemm_fast_small, GEMM_FAST_SMALL_)
SHAPE_FAST_AT(shape_sgemm_fast_tiny, GEMM_FAST_TINY_)
/* the cluster kernels: fast's block, its shared memory large enough for a BM x BN partial
 * product too (kernels_cl/gemm_fast.cl, fast_cluster_tiles) */
#define SHAPE_CS_AT(fn, P)                                           \
  static void fn(const int *t, duet__shape *s) {                     \
    shape_fast(T(P##BM), T(P##BN), T(P##BK), T(P##WM), T(P##WN), s); \
    const size_t part = (size_t)T(P##BM) * T(P##BN) * F;             \
    if (part > s->shared_bytes) s->shared_bytes = part;              \
    s->z_cluster = 1;                                                \
  }
SHAPE_CS_AT(shape_sgemm_fast_small_cs, GEMM_FAST_SMALL_)
SHAPE_CS_AT(shape_sgemm_fast_tiny_cs, GEMM_FAST_TINY_)
SHAPE_FAST_AT(shape_sgemm_fast_tall, GEMM_FAST_TALL_)
SHAPE_FAST_AT(shape_sgemm_fast_wide, GEMM_FAST_WIDE_)
SHAPE_FAST_AT(shape_sgemm_fast_mid, GEMM_FAST_MID_)
SHAPE_FAST_AT(shape_sgemm_fast_narrow, GEMM_FAST_NARROW_)
SHAPE_FAST_AT(shape_sgemm_fast_flat, GEMM_FAST_FLAT_)
#undef SHAPE_FAST_AT
/* skinny: DUET__SKINNY_LX x DUET__SKINNY_KG threads over DUET__SKINNY_TILE outputs along the
 * strip (DUET__SKINNY_PER_THREAD per thread, for each of up to GEMM_SKINNY_S thin rows), the k
 * groups' partial sums in shared memory. The plan gives its grid (1D, src/gemm_plan.c). */
static void shape_sgemm_skinny(const int *t, duet__shape *s) {
  *s = (duet__shape){
      .tile_x = DUET__SKINNY_TILE,
      .tile_y = T(GEMM_SKINNY_S),
      .block_x = DUET__SKINNY_LX,
      .block_y = DUET__SKINNY_KG,
      .shared_bytes = (size_t)DUET__SKINNY_KG * T(GEMM_SKINNY_S) * DUET__SKINNY_TILE * F};
}
/* skinny-dot: a warp (DUET__DOT_LX lanes) per output along the strip, DUET__DOT_RY of them per
 * block, and the thin operand's DUET__DOT_KC-wide chunk of k in shared memory (its room also
 * holds the lanes' partial sums). */
static void shape_sgemm_skinny_dot(const int *t, duet__shape *s) {
  *s = (duet__shape){.tile_x = DUET__DOT_RY,
                     .tile_y = T(GEMM_SKINNY_S),
                     .block_x = DUET__DOT_LX,
                     .block_y = DUET__DOT_RY,
                     .shared_bytes = (size_t)T(GEMM_SKINNY_S) * DUET__DOT_KC * F};
}

/* GEMV: a 1D block of GEMV_THREADS over 4 * GEMV_LX outputs (sgemv) or GEMV_THREADS /
 * GEMV_DOT_LANES (sgemv-dot), its shared memory static. The plan gives its grid (1D, k slices
 * along z: src/gemm_plan.c). */
static void shape_sgemv(const int *t, duet__shape *s) {
  *s = (duet__shape){
      .tile_x = 4 * T(GEMV_LX), .tile_y = 1, .block_x = T(GEMV_THREADS), .block_y = 1};
}
static void shape_sgemv_dot(const int *t, duet__shape *s) {
  *s = (duet__shape){.tile_x = T(GEMV_THREADS) / T(GEMV_DOT_LANES),
                     .tile_y = 1,
                     .block_x = T(GEMV_THREADS),
                     .block_y = 1};
}

/* vector add, reduction, stencil: 1D blocks over a 1D grid that the routine gives (the step's
 * `blocks`); the tile is what one block covers in one step. Their shared memory is static. */
static void shape_line(unsigned block, unsigned per_thread, duet__shape *s) {
  *s = (duet__shape){.tile_x = block * per_thread, .tile_y = 1, .block_x = block, .block_y = 1};
}
static void shape_vector_add(const int *t, duet__shape *s) { shape_line(T(VADD_BLOCK), 4, s); }
static void shape_reduce(const int *t, duet__shape *s) { shape_line(T(REDUCE_BLOCK), 1, s); }
static void shape_stencil(const int *t, duet__shape *s) { shape_line(T(STENCIL_BLOCK), 1, s); }
static void shape_stencil_register4(const int *t, duet__shape *s) {
  shape_line(T(STENCIL_BLOCK), T(STENCIL_VEC), s);
  s->min_blocks = (unsigned)T(STENCIL_MIN_BLOCKS);
}
/* Its tile (outputs and halo) is a static array of the kernel's own. */
static void shape_stencil_register16(const int *t, duet__shape *s) {
  shape_line(T(STENCIL_R16_BLOCK), T(STENCIL_R16_VEC), s);
}

/* ---- the rows -------------------------------------------------------------------------------- */
/* Signatures (manifest.h: a letter per argument). */
#define IN_OUT_SIG "llmlml" /* rows, cols, in, ld_in, out, ld_out: copy and the transposes */
#define GEMM_SIG "gmmm"     /* the scalars (duet__gemm_scalars), a, b, c */
/* fast's arguments (FAST_PARAMS in kernels_cl/builtin.h): ta, tb, m, n, k, alpha, a, a_off, lda,
 * b, b_off, ldb, beta, c, c_off, ldc, m_read, n_read, each matrix with its offset in floats so
 * that a plan can give it a piece of C. fast takes them and the scratch; stream-K then
 * units_epoch, work, flags (gemm.c) and the scratch; skinny and skinny-dot then thin_rows (the
 * plan's orientation) and the scratch. */
#define FAST_ARGS "iilllfmllmllfmllll"
#define FAST_SIG FAST_ARGS "s"
#define FAST_SK_SIG FAST_ARGS "lmms"
#define SKINNY_SIG FAST_ARGS "is"

/* The tunables each group is built with. */
#define TRANSPOSE_TUNABLES (DUET__TBIT(TRANSPOSE_TILE) | DUET__TBIT(TRANSPOSE_ROWS))
#define STAGED_TUNABLES                                                                  \
  (TRANSPOSE_TUNABLES | DUET__TBIT(TRANSPOSE_BAND) | DUET__TBIT(TRANSPOSE_PADDED_TILE) | \
   DUET__TBIT(TRANSPOSE_PADDED_ROWS) | DUET__TBIT(TRANSPOSE_PADDED_BAND) |               \
   DUET__TBIT(TRANSPOSE_VEC) | DUET__TBIT(TRANSPOSE_TALL_TILE) | DUET__TBIT(TRANSPOSE_TALL_ROWS))
#define REG_TRANSPOSE_TUNABLES \
  (TRANSPOSE_TUNABLES | DUET__TBIT(TRANSPOSE_REG_X) | DUET__TBIT(TRANSPOSE_REG_Y))
#define SIMPLE_TUNABLES (DUET__TBIT(GEMM_SIMPLE_X) | DUET__TBIT(GEMM_SIMPLE_Y))
#define REG_TUNABLES                                                             \
  (DUET__TBIT(GEMM_REG_BM) | DUET__TBIT(GEMM_REG_BN) | DUET__TBIT(GEMM_REG_BK) | \
   DUET__TBIT(GEMM_REG_TM) | DUET__TBIT(GEMM_REG_TN))
/* every tile's build takes GEMM_FAST_K_STOP (OpenCL's; CUDA builds 0) */
#define FAST_TUNABLES(P)                                                             \
  (DUET__TBIT(P##BM) | DUET__TBIT(P##BN) | DUET__TBIT(P##BK) | DUET__TBIT(P##WM) |   \
   DUET__TBIT(P##WN) | DUET__TBIT(P##TM) | DUET__TBIT(P##TN) | DUET__TBIT(P##BAND) | \
   DUET__TBIT(GEMM_FAST_K_STOP))
/* fast at the big tile takes the bodies per kernel and, on OpenCL, the edge loads' switch too
 * (kernels_cl/gemm_fast.cl: FAST_BODY, FAST_EDGE_LOADS); stream-K's kernels, whose group is the
 * same, do not read the bodies and are built with the group's edge loads (a group's build takes
 * the union of its kernels' tunables) */
#define BIG_TUNABLES \
  (FAST_TUNABLES(GEMM_FAST_) | DUET__TBIT(GEMM_FAST_BODIES) | DUET__TBIT(GEMM_FAST_EDGE_LOADS))
/* GEMV: the outputs and k, alpha, v, v_off, ldv, u, u_off, up, beta, c, c_off, cl, then the
 * call's epoch, the k slices' partial sums and their tickets (kernels_cl/gemm_gemv.cl) */
#define GEMV_SIG "llfmllmllfmllimm"
#define GEMV_TUNABLES                                                            \
  (DUET__TBIT(GEMV_THREADS) | DUET__TBIT(GEMV_LX) | DUET__TBIT(GEMV_DOT_LANES) | \
   DUET__TBIT(GEMV_UNROLL) | DUET__TBIT(GEMV_SYNC_ROWS))
#define REDUCE_TUNABLES (DUET__TBIT(REDUCE_BLOCK) | DUET__TBIT(REDUCE_UNROLL))
#define STENCIL_TUNABLES                                                                 \
  (DUET__TBIT(STENCIL_BLOCK) | DUET__TBIT(STENCIL_VEC) | DUET__TBIT(STENCIL_R16_BLOCK) | \
   DUET__TBIT(STENCIL_R16_VEC) | DUET__TBIT(STENCIL_MIN_BLOCKS))

/* One row: the kernel's name in kernels_cu/ and kernels_cl/, its group, signature, tunables and
 * shape. */
#define ROW(NAME, GROUP, SIG, TUNABLES, SHAPE) \
  { .name = (NAME), .group = DUET__G_##GROUP, .sig = (SIG), .tunables = (TUNABLES), .shape = SHAPE }

/* fast's four rows of one kind, a kernel per transpose combination: ids ID_NN, _NT, _TN, _TT in
 * the order duet__kernel_for_trans counts on (each suffixed S), named NAME_nn ... NAME_tt, in group
 * GROUP (suffixed S). */
#define FOUR_ROWS(ID, S, NAME, GROUP, SIG, TUNABLES, SHAPE)                 \
  [DUET__K_##ID##_NN##S] = ROW(NAME "_nn", GROUP##S, SIG, TUNABLES, SHAPE), \
  [DUET__K_##ID##_NT##S] = ROW(NAME "_nt", GROUP##S, SIG, TUNABLES, SHAPE), \
  [DUET__K_##ID##_TN##S] = ROW(NAME "_tn", GROUP##S, SIG, TUNABLES, SHAPE), \
  [DUET__K_##ID##_TT##S] = ROW(NAME "_tt", GROUP##S, SIG, TUNABLES, SHAPE)

/* fast's rows (S empty), and again for their scalar twins (S _SC: the same kernels in the
 * gemm_fast*_scalar groups):
 *   duet_sgemm_fast at the big, small, tiny, tall, wide, mid, narrow and flat tile; grid z:
 *     split-K slices writing into a workspace (src/gemm_plan.c);
 *   duet_sgemm_fast_sk: a 1D grid whose last `units` blocks run stream-K (src/gemm_plan.c gives
 *     the grid); at the tiny tile, split-K summed in its one launch (every tile shared, a block
 *     per tile and k slice: GEMM_SPLITK_FUSE);
 *   duet_sgemm_fast_cs: grid z, k slices summed through a cluster of z blocks' shared memory,
 *     CUDA alone (compute capability 9.0), at the small and the tiny tile. */
#define FAST_ROWS(S)                                                                      \
  FOUR_ROWS(SGEMM_FAST, S, "duet_sgemm_fast", GEMM_FAST, FAST_SIG, BIG_TUNABLES,          \
            shape_sgemm_fast),                                                            \
      FOUR_ROWS(SGEMM_FAST_SMALL, S, "duet_sgemm_fast", GEMM_FAST_SMALL, FAST_SIG,        \
                FAST_TUNABLES(GEMM_FAST_SMALL_), shape_sgemm_fast_small),                 \
      FOUR_ROWS(SGEMM_FAST_TINY, S, "duet_sgemm_fast", GEMM_FAST_TINY, FAST_SIG,          \
                FAST_TUNABLES(GEMM_FAST_TINY_), shape_sgemm_fast_tiny),                   \
      FOUR_ROWS(SGEMM_FAST_TALL, S, "duet_sgemm_fast", GEMM_FAST_TALL, FAST_SIG,          \
                FAST_TUNABLES(GEMM_FAST_TALL_), shape_sgemm_fast_tall),                   \
      FOUR_ROWS(SGEMM_FAST_WIDE, S, "duet_sgemm_fast", GEMM_FAST_WIDE, FAST_SIG,          \
                FAST_TUNABLES(GEMM_FAST_WIDE_), shape_sgemm_fast_wide),                   \
      FOUR_ROWS(SGEMM_FAST_MID, S, "duet_sgemm_fast", GEMM_FAST_MID, FAST_SIG,            \
                FAST_TUNABLES(GEMM_FAST_MID_), shape_sgemm_fast_mid),                     \
      FOUR_ROWS(SGEMM_FAST_NARROW, S, "duet_sgemm_fast", GEMM_FAST_NARROW, FAST_SIG,      \
                FAST_TUNABLES(GEMM_FAST_NARROW_), shape_sgemm_fast_narrow),               \
      FOUR_ROWS(SGEMM_FAST_FLAT, S, "duet_sgemm_fast", GEMM_FAST_FLAT, FAST_SIG,          \
                FAST_TUNABLES(GEMM_FAST_FLAT_), shape_sgemm_fast_flat),                   \
      FOUR_ROWS(SGEMM_FAST_SK, S, "duet_sgemm_fast_sk", GEMM_FAST, FAST_SK_SIG,           \
                FAST_TUNABLES(GEMM_FAST_), shape_sgemm_fast),                             \
      FOUR_ROWS(SGEMM_FAST_TINY_SK, S, "duet_sgemm_fast_sk", GEMM_FAST_TINY, FAST_SK_SIG, \
                FAST_TUNABLES(GEMM_FAST_TINY_), shape_sgemm_fast_tiny),                   \
      FOUR_ROWS(SGEMM_FAST_SMALL_CS, S, "duet_sgemm_fast_cs", GEMM_FAST_SMALL, FAST_SIG,  \
                FAST_TUNABLES(GEMM_FAST_SMALL_), shape_sgemm_fast_small_cs),              \
      FOUR_ROWS(SGEMM_FAST_TINY_CS, S, "duet_sgemm_fast_cs", GEMM_FAST_TINY, FAST_SIG,    \
                FAST_TUNABLES(GEMM_FAST_TINY_), shape_sgemm_fast_tiny_cs),

const duet__kernel_desc duet__manifest[DUET__K_COUNT] = {
    [DUET__K_COPY] = ROW("duet_copy", COPY, IN_OUT_SIG, TRANSPOSE_TUNABLES, shape_copy),
    /* rows, cols, beta, c, ldc: C = beta * C (beta 0 stores zeros) */
    [DUET__K_SCALE] = ROW("duet_scale", COPY, "llfml", TRANSPOSE_TUNABLES, shape_copy),
    [DUET__K_TRANSPOSE_NAIVE] = ROW("duet_transpose_naive", TRANSPOSE, IN_OUT_SIG,
                                    TRANSPOSE_TUNABLES, shape_transpose_naive),
    [DUET__K_TRANSPOSE_COALESCED] = ROW("duet_transpose_coalesced", TRANSPOSE, IN_OUT_SIG "s",
                                        STAGED_TUNABLES, shape_transpose_coalesced),
    [DUET__K_TRANSPOSE_PADDED] = ROW("duet_transpose_padded", TRANSPOSE, IN_OUT_SIG "s",
                                     STAGED_TUNABLES, shape_transpose_padded),
    [DUET__K_TRANSPOSE_PADDED_TALL] = ROW("duet_transpose_padded_tall", TRANSPOSE, IN_OUT_SIG "s",
                                          STAGED_TUNABLES, shape_transpose_padded_tall),
    [DUET__K_TRANSPOSE_REGISTER] = ROW("duet_transpose_register", TRANSPOSE, IN_OUT_SIG,
                                       REG_TRANSPOSE_TUNABLES, shape_transpose_register),
    [DUET__K_SGEMM_NAIVE] =
        ROW("duet_sgemm_naive", GEMM, GEMM_SIG, SIMPLE_TUNABLES, shape_sgemm_naive),
    [DUET__K_SGEMM_COALESCED] =
        ROW("duet_sgemm_coalesced", GEMM, GEMM_SIG, SIMPLE_TUNABLES, shape_sgemm_coalesced),
    [DUET__K_SGEMM_TILED] = ROW("duet_sgemm_tiled", GEMM, GEMM_SIG "s",
                                SIMPLE_TUNABLES | DUET__TBIT(GEMM_TILE), shape_sgemm_tiled),
    [DUET__K_SGEMM_REGISTER] =
        ROW("duet_sgemm_register", GEMM, GEMM_SIG "s", REG_TUNABLES, shape_sgemm_register),
    FAST_ROWS() FAST_ROWS(_SC)
        /* m, n, splits, lanes, work, alpha, beta, c, c_off, ldc: C = alpha * sum of the slices +
         * beta * C, `lanes` threads per element sharing its slices */
        [DUET__K_SGEMM_SPLITK_REDUCE] =
            ROW("duet_sgemm_splitk_reduce", GEMM_FAST, "lliimffmll",
                DUET__TBIT(GEMM_SPLITK_REDUCE_TILE) | DUET__TBIT(GEMM_SPLITK_REDUCE_ROWS),
                shape_splitk_reduce),
    /* fast's arguments (a strip's plan takes it in place of the small tile) and the plan's
     * orientation; grid z: split-K */
    [DUET__K_SGEMM_SKINNY] = ROW("duet_sgemm_skinny", GEMM_SKINNY, SKINNY_SIG,
                                 DUET__TBIT(GEMM_SKINNY_S), shape_sgemm_skinny),
    [DUET__K_SGEMM_SKINNY_DOT] = ROW("duet_sgemm_skinny_dot", GEMM_SKINNY, SKINNY_SIG,
                                     DUET__TBIT(GEMM_SKINNY_S), shape_sgemm_skinny_dot),
    /* a row or a column of C: sgemv reads the big operand along the outputs, sgemv-dot along k */
    [DUET__K_SGEMV] = ROW("duet_sgemv", GEMM_GEMV, GEMV_SIG, GEMV_TUNABLES, shape_sgemv),
    [DUET__K_SGEMV_DOT] =
        ROW("duet_sgemv_dot", GEMM_GEMV, GEMV_SIG, GEMV_TUNABLES, shape_sgemv_dot),
    /* fast's packing (kernels_cl/gemm_pack.cl): A's rows, cols, in, ld_in, out, ld_out, B's, then
     * A's tiles; a 1D grid of both operands' copy tiles (src/gemm_plan.c gives it) */
    [DUET__K_SGEMM_PACK] = ROW("duet_sgemm_pack", GEMM_PACK, IN_OUT_SIG IN_OUT_SIG "l",
                               TRANSPOSE_TUNABLES, shape_copy),
    /* n, a, b, c */
    [DUET__K_VECTOR_ADD] =
        ROW("duet_vector_add", VECTOR, "lmmm", DUET__TBIT(VADD_BLOCK), shape_vector_add),
    /* n, in, out: one pass, a sum per block into out[block] (atomic: added into out[0]) */
    [DUET__K_REDUCE_NAIVE] = ROW("duet_reduce_naive", REDUCE, "lmm", REDUCE_TUNABLES, shape_reduce),
    [DUET__K_REDUCE_SEQUENTIAL] =
        ROW("duet_reduce_sequential", REDUCE, "lmm", REDUCE_TUNABLES, shape_reduce),
    [DUET__K_REDUCE_SHUFFLE] =
        ROW("duet_reduce_shuffle", REDUCE, "lmm", REDUCE_TUNABLES, shape_reduce),
    /* n, in, out, part, ticket, epoch: shuffle's two passes in one launch (src/reduce.c) */
    [DUET__K_REDUCE_SHUFFLE_ONCE] =
        ROW("duet_reduce_shuffle_once", REDUCE, "lmmmmi", REDUCE_TUNABLES, shape_reduce),
    [DUET__K_REDUCE_ATOMIC] =
        ROW("duet_reduce_atomic", REDUCE, "lmm", REDUCE_TUNABLES, shape_reduce),
    /* n, radius, weights, in, out */
    [DUET__K_STENCIL_NAIVE] =
        ROW("duet_stencil_naive", STENCIL, "limmm", STENCIL_TUNABLES, shape_stencil),
    [DUET__K_STENCIL_SHARED] =
        ROW("duet_stencil_shared", STENCIL, "limmm", STENCIL_TUNABLES, shape_stencil),
    /* the register window for radius <= 4 and for radius <= 16 */
    [DUET__K_STENCIL_REGISTER4] =
        ROW("duet_stencil_register4", STENCIL, "limmm", STENCIL_TUNABLES, shape_stencil_register4),
    [DUET__K_STENCIL_REGISTER16] = ROW("duet_stencil_register16", STENCIL, "limmm",
                                       STENCIL_TUNABLES, shape_stencil_register16),
};
