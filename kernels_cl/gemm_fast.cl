/* SPDX-License-Identifier: MIT */
/* SGEMM fast (everything that gets to cuBLAS), its stream-K kernels and the split-K reduction.
 * Row-major C = alpha * op(A) * op(B) + beta * C, op(A) m x k, op(B) k x n.
 * Written once for both backends in the dialect of src/duet_kernel.h and kernels_cl/builtin.h
 * (which says how each backend builds it). Eight groups build this file: gemm_fast (the big tile,
 * the stream-K kernels, the reduction), gemm_fast_tiny (fast and stream-K, the latter for
 * split-K summed in its one launch: src/gemm_plan.c, fuse_splits), and gemm_fast_small, _tall,
 * _wide, _mid, _narrow and _flat (fast alone; on CUDA the small and tiny tiles also take the
 * cluster kernels, fast_cluster_tiles), each with the GEMM_FAST_TINY_, ... values under the
 * GEMM_FAST_ names: -D options renamed on OpenCL, a namespace of its own on CUDA,
 * kernels_cu/gemm_fast.inc.
 *
 * Tunables (values per tuning set in src/duet_tunables.h, whose DUET__FAST_RULES check them
 * wherever a set or a DUET_TUNE override is applied; the STATIC_CHECKs below build-fail the same
 * values, without naming the rule):
 *   GEMM_FAST_BM, GEMM_FAST_BN  tile of C per block                         (default 128, 128)
 *   GEMM_FAST_BK                k depth of one shared-memory buffer          (8)
 *   GEMM_FAST_WM, GEMM_FAST_WN  tile of C per warp (32 threads)              (32, 64)
 *   GEMM_FAST_TM, GEMM_FAST_TN  outputs per thread, multiples of 4           (8, 8)
 *   GEMM_FAST_BAND              block order: band_order() of common.*, tile columns (16)
 *   GEMM_FAST_FOUR_BODIES       OpenCL: 1, each fast kernel holds the four transpose bodies (as
 *                               on CUDA); 0, its own alone (see FAST_KERNEL)        (0)
 *   GEMM_SPLITK_REDUCE_TILE, GEMM_SPLITK_REDUCE_ROWS  the split-K reduction's block (the kernel
 *                               itself takes any 2D block and any grid)
 * Assumed: TM, TN and BK multiples of 4; (WM/TM) * (WN/TN) = 32 (the layout is made for 32-wide
 * warps, and is correct on any device); BM/4, BN/4 and BK/4 divide the block size and each of
 * BM * BK / 4, BN * BK / 4 is a multiple of it.
 * Blocks:
 *   fast: 1D, FAST_NT = 32 * (BM / WM) * (BN / WN) threads, grid (ceil(n / BN), min(ceil(m /
 *     BM), 65535), splits); grid dimension 2 > 1 is split-K (see FAST_KERNEL). CUDA asks
 *     the compiler for FAST_MIN_BLOCKS resident blocks per SM (a register cap).
 *   fast stream-K: the same block over a 1D grid (see fast_stream_k); at the tiny tile, every
 *     tile shared, a block per tile and k slice.
 *   splitk_reduce: GEMM_SPLITK_REDUCE_TILE x GEMM_SPLITK_REDUCE_ROWS.
 * Shared memory (dynamic; on OpenCL the last, __local argument):
 *   fast: 2 * BK * (BM + BN + 8) floats (two buffers, rows padded by 4 floats) + 16 bytes:
 *     NVIDIA's OpenCL places a __local argument on a 4-byte boundary only, and the float4
 *     accesses need 16, so the kernel rounds the pointer up there (128x128x8: 16656 bytes).
 * No kernel assumes divisibility: any m, n, k >= 1 and any ld. 16-byte loads and stores are used
 * only where the base pointer is 16-byte aligned and the ld a multiple of 4; everything else
 * takes a scalar path into the same shared layout. Out-of-matrix parts of a tile are zero-filled
 * in shared memory, and C is written only inside its m x n elements. k == 0 and alpha == 0 never
 * reach these kernels.
 * Backend-specific code, each in a small #if that says why: fast's bodies per kernel (CUDA
 * builds ahead of time and takes four, see FAST_KERNEL) and CUDA's nn and tn bodies alone at the
 * big tile (FAST_ALONE), the stream-K partials' loads and
 * stores (CUDA's L2-only __ldcg/__stcg, OpenCL's volatile loads), the reads of stream-K flags and
 * stamps (a volatile load, an atomic add of 0), the rounding of the shared pointer (OpenCL
 * only, see above), the cluster kernels (CUDA only: OpenCL has no thread-block clusters) and
 * the edge loads' FAST_EDGE_LOADS (off for CUDA's big tile, GEMM_FAST_EDGE_LOADS for OpenCL's). */
#if !defined(GEMM_FAST_BM) || !defined(GEMM_FAST_BN) || !defined(GEMM_FAST_BK) || \
    !defined(GEMM_FAST_WM) || !defined(GEMM_FAST_WN) || !defined(GEMM_FAST_TM) || \
    !defined(GEMM_FAST_TN) || !defined(GEMM_FAST_BAND)
#error "the tunables come from the tuning set: -D on OpenCL, kernels_cu/gemm_fast.inc on CUDA"
#endif

#define FAST_WARPS_N (GEMM_FAST_BN / GEMM_FAST_WN)
#define FAST_NT (32 * (GEMM_FAST_BM / GEMM_FAST_WM) * FAST_WARPS_N)
#define FAST_LM (GEMM_FAST_WM / GEMM_FAST_TM) /* lanes of a warp along m */
#define FAST_LN (GEMM_FAST_WN / GEMM_FAST_TN) /* lanes of a warp along n */
#define FAST_SA (GEMM_FAST_BM + 4)            /* shared row strides: rows padded by 4 floats */
#define FAST_SB (GEMM_FAST_BN + 4)
#define FAST_TILE (GEMM_FAST_BK * (FAST_SA + FAST_SB))      /* floats in one buffer */
#define FAST_GA (GEMM_FAST_BM * GEMM_FAST_BK / 4 / FAST_NT) /* float4 groups per thread */
#define FAST_GB (GEMM_FAST_BN * GEMM_FAST_BK / 4 / FAST_NT)
/* Resident blocks per SM to ask of CUDA's compiler (__launch_bounds__):
 *   up to 64 accumulators and one float4 of A and of B per thread and k tile, or up to 32
 *     accumulators and more of them (the tall and wide tiles' 4 + 1 float4s): 512 threads per
 *     SM, a cap of 128 registers (128x128x8, 256 threads: 2 blocks; without it nvcc gave the
 *     tall and wide tiles 165 registers, 3 blocks of 128 threads);
 *   more accumulators (16 x 8), or 64 and more prefetch registers (the mid and flat tiles' 3
 *     float4s of 128 threads): 256 threads per SM, up to 255 registers (nvidia-sm80's big tile
 *     fits them without spills: docs/results/tuning-notes.md; its mid tile spilled under the
 *     cap of 168 that 3 blocks leave, and ran 4096 x 64 x 16384 11% faster at 2 blocks than the
 *     tiny tile: docs/results/h200.md, thirty-second session). */
#define FAST_MAX1(x) ((x) > 1 ? (x) : 1)
#define FAST_MIN_BLOCKS                                                     \
  (GEMM_FAST_TM * GEMM_FAST_TN > 64 ||                                      \
           (GEMM_FAST_TM * GEMM_FAST_TN > 32 &&                             \
            (GEMM_FAST_BM + GEMM_FAST_BN) * GEMM_FAST_BK / 4 > 2 * FAST_NT) \
       ? FAST_MAX1(256 / FAST_NT)                                           \
       : 512 / FAST_NT)
STATIC_CHECK((FAST_LM * FAST_LN) == 32, fast_warp_lanes_tile_the_warp_tile);
STATIC_CHECK(GEMM_FAST_TM % 4 == 0 && GEMM_FAST_TN % 4 == 0 && GEMM_FAST_BK % 4 == 0,
             fast_micro_tiles_of_4x4_and_BK_a_multiple_of_4);
STATIC_CHECK(GEMM_FAST_BM % GEMM_FAST_WM == 0 && GEMM_FAST_BN % GEMM_FAST_WN == 0,
             fast_warp_tiles_tile_the_block_tile);
STATIC_CHECK((GEMM_FAST_BM * GEMM_FAST_BK / 4) % FAST_NT == 0 &&
                 (GEMM_FAST_BN * GEMM_FAST_BK / 4) % FAST_NT == 0,
             fast_each_thread_loads_whole_float4_groups);
STATIC_CHECK(FAST_NT % (GEMM_FAST_BM / 4) == 0 && FAST_NT % (GEMM_FAST_BN / 4) == 0,
             fast_BM_and_BN_over_4_divide_the_block);

/* One operand tile of R rows (along m for A, n for B) by BK (along k), loaded by FAST_NT threads
 * as float4 groups of 4 consecutive elements in memory, G groups per thread, and stored k-major in
 * shared memory with a row stride of SR = R + 4 floats: s[p * SR + r]. The inner loop reads it as
 * float4s along m (A, hence "A transposed") or along n (B).
 *   kcont (A when !ta, B when tb): memory runs along k. Group g is k offset 4 * (g % (BK/4)),
 *     row g / (BK/4): a warp reads whole 32-byte row pieces (BK = 8: 16 rows x 2 groups), and
 *     transposes them into shared memory with 4 scalar stores each; the 4-float pad puts the
 *     two k offsets of a warp 16 banks apart, so the stores are conflict-free. A thread's groups
 *     sit 4 * NT / BK rows apart.
 *   otherwise (A^T, B): memory runs along m or n. Group g is k offset g / (R/4), row offset
 *     4 * (g % (R/4)): a warp reads 512 contiguous bytes and stores one float4, conflict-free.
 *     R/4 divides NT, so a thread's groups share their rows and sit NT / (R/4) k apart.
 * kcont, R and G are constants wherever these functions are inlined, so their branches fold and
 * their loops unroll. */
#define LOADER_DG(kcont, R) ((kcont) ? 4 * FAST_NT / GEMM_FAST_BK : FAST_NT / ((R) / 4))
/* FAST_EDGE_LOADS 1: edge tiles take the unguarded loads too (loader_load_full, mac_tile); 0:
 * only tiles inside what may be read, the kernels' code as before the edge loads. The big tile
 * takes 0 on CUDA (kernels_cu/gemm_fast.inc: its four-body kernel ran 4096^3 nt 7% slower built
 * with them on the H200, the same ptxas lottery as its register caps) and OpenCL's takes
 * GEMM_FAST_EDGE_LOADS (nvidia-sm80: 0, 2048^3 to 8192^3 3-4% faster without them on NVIDIA's
 * OpenCL, H200); its plans have few edge tiles for their work. The other tiles take 1. */
#if !defined(FAST_EDGE_LOADS) && defined(GEMM_FAST_EDGE_LOADS) /* OpenCL's big tile */
#define FAST_EDGE_LOADS GEMM_FAST_EDGE_LOADS
#elif !defined(FAST_EDGE_LOADS)
#define FAST_EDGE_LOADS 1
#endif
#undef EDGE_ROW /* CUDA includes this file once per tile, the big tile's without them */
#undef EDGE_GROUP
#undef EDGE_LAST
#undef SC_LAST
#if FAST_EDGE_LOADS
#define EDGE_ROW(L, row, past) ((L).valid > 0 ? (row) : (past))
#define EDGE_GROUP(G, l, L) ((G) == 1 ? 0 : min((l), (L)->last))
#define EDGE_LAST(L, v) ((L).last = (v))
#define SC_LAST(L) ((L)->last)
#else
#define EDGE_LAST(L, v) ((void)0)
#define EDGE_ROW(L, row, past) row
#define EDGE_GROUP(G, l, L) l
#define SC_LAST(L) 0
#endif
/* FAST_SCALAR 1 (the gemm_fast*_scalar groups, chosen by the plan where an operand's ld is not a
 * multiple of 4: src/gemm_plan.c, GEMM_FAST_SCALAR): the operands load in the scalar layout
 * (loader_init below), lanes reading consecutive floats at any alignment; 0: in float4 groups,
 * with a float at a time for an operand without 16-byte loads. Kernels of their own rather than
 * a branch in every kernel: the branch cost the aligned loads registers and speed
 * (docs/results/h200.md, twenty-sixth session). */
#undef FAST_SCALAR
#if defined(GEMM_FAST_SCALAR)
#define FAST_SCALAR GEMM_FAST_SCALAR
#else
#define FAST_SCALAR 0
#endif
typedef struct {
  DUET_GLOBAL const float *src; /* this thread's first group in the current k tile */
  idx_t gstep;                  /* pointer distance from one of its groups to the next */
  idx_t step;                   /* pointer step from one k tile to the next */
  int at;                       /* where the first group goes in the shared tile */
  int kq;                       /* its k offset inside the tile */
  int valid;                    /* kcont: how many of its groups have their row inside the matrix
                                   (0..G); else: how many of its 4 rows exist (0..4) */
#if FAST_EDGE_LOADS
  int last; /* kcont: the group whose row the unguarded loads read for the groups past the
               matrix (valid - 1, or 0); else G - 1 */
#endif
} tile_loader;

/* How many of `count` rows, `spacing` apart, lie inside the matrix, where `left` rows of it are
 * left from the first of them (left <= 0: none). */
INLINE_FN int rows_inside(idx_t left, int count, int spacing) {
  return left <= 0
             ? 0
             : (left >= (idx_t)(count - 1) * spacing + 1 ? count
                                                         : (int)((left + spacing - 1) / spacing));
}

#if !FAST_SCALAR /* the vector layout */
INLINE_FN tile_loader loader_init(const bool kcont, const int R, const int G,
                                  DUET_GLOBAL const float *x, idx_t ld, idx_t row0, idx_t rows,
                                  idx_t kbeg, int t) {
  const int BK = GEMM_FAST_BK, SR = R + 4, DG = LOADER_DG(kcont, R);
  tile_loader L;
  if (kcont) {
    const int q = 4 * (t % (BK / 4)), r = t / (BK / 4);
    const idx_t rl = rows - (row0 + r); /* rows left from this thread's first */
    L.at = q * SR + r;
    L.kq = q;
    L.valid = rows_inside(rl, G, DG);
    EDGE_LAST(L, L.valid > 0 ? L.valid - 1 : 0);
    /* a thread whose rows all lie past the matrix reads its last row (loader_load_full) */
    L.src = x + (EDGE_ROW(L, row0 + r, rows - 1)) * ld + kbeg + q;
    L.gstep = (idx_t)DG * ld;
    L.step = BK;
  } else {
    const int r = 4 * (t % (R / 4)), q = t / (R / 4);
    const idx_t rl = rows - (row0 + r);
    L.at = q * SR + r;
    L.kq = q;
    L.valid = rl >= 4 ? 4 : (rl <= 0 ? 0 : (int)rl);
    EDGE_LAST(L, G - 1);
    /* a thread whose 4 rows all lie past the matrix reads the last 4-aligned ones there are */
    L.src = x + (kbeg + q) * ld + EDGE_ROW(L, row0 + r, (rows - 1) & ~(idx_t)3);
    L.gstep = (idx_t)DG * ld;
    L.step = (idx_t)BK * ld;
  }
  return L;
}

/* Load one k tile, of which the first kl (1..BK) k indices exist; vec: 16-byte loads allowed
 * (aligned base and ld % 4 == 0). Zeros outside the matrix. */
INLINE_FN void loader_load(const bool kcont, const int R, const int G, float4 *v, int kl, bool vec,
                           const tile_loader *L) {
  const int DG = LOADER_DG(kcont, R);
  for (int l = 0; l < G; l++) { /* G is a constant once inlined: the loop unrolls */
    DUET_GLOBAL const float *s = L->src + l * L->gstep;
    const int q = kcont ? L->kq : L->kq + l * DG;
    /* e: how many of the group's 4 elements exist */
    const int e = kcont ? (l < L->valid ? min(4, max(0, kl - q)) : 0) : (q < kl ? L->valid : 0);
    if (e == 4) {
      if (vec)
        v[l] = GLOBAL_CONST_FLOAT4(s);
      else
        v[l] = DUET_MAKE_FLOAT4(s[0], s[1], s[2], s[3]);
    } else { /* the k tail, the last rows of m or n, or outside */
      v[l].x = e > 0 ? s[0] : 0.0f;
      v[l].y = e > 1 ? s[1] : 0.0f;
      v[l].z = e > 2 ? s[2] : 0.0f;
      v[l].w = 0.0f;
    }
  }
}

/* Load a k tile whose k indices all exist (any k tile but a slice's last): no guard, so no
 * branch in the loop. vec: 16-byte loads, else 4 scalar ones. Rows past the matrix (m or n)
 * feed only accumulators that are never stored, so they may hold anything, and no load leaves
 * the operand's memory (mac_tile, edge tiles): memory along k (kcont), a group past the matrix
 * rereads group `last`'s row; memory along m or n, a float4 reaches at most 3 elements past the
 * matrix's rows, which lie in the next k row's memory (this is never the last k row) as long as
 * the ld is at least 3. */
INLINE_FN void loader_load_full(const bool kcont, const int R, const bool vec, const int G,
                                float4 *v, const tile_loader *L) {
  (void)kcont, (void)R;
  for (int l = 0; l < G; l++) { /* G is a constant once inlined: the loop unrolls */
    DUET_GLOBAL const float *s = L->src + EDGE_GROUP(G, l, L) * L->gstep;
    v[l] = vec ? GLOBAL_CONST_FLOAT4(s) : DUET_MAKE_FLOAT4(s[0], s[1], s[2], s[3]);
  }
}

/* Store the loaded groups into the k-major tile s[p * SR + r]. */
INLINE_FN void loader_store(const bool kcont, const int R, const int G, SHARED_PTR float *s,
                            const float4 *v, const tile_loader *L) {
  const int SR = R + 4, DG = LOADER_DG(kcont, R);
  for (int l = 0; l < G; l++) { /* G is a constant once inlined: the loop unrolls */
    if (kcont) {
      SHARED_PTR float *d = s + L->at + l * DG;
      d[0 * SR] = v[l].x;
      d[1 * SR] = v[l].y;
      d[2 * SR] = v[l].z;
      d[3 * SR] = v[l].w;
    } else {
      LOCAL_FLOAT4(s + L->at + l * DG * SR) = v[l];
    }
  }
}

#else /* FAST_SCALAR: the scalar layout */
/* Element e (0 .. 4G - 1, kept in component e % 4 of v[e / 4]) of thread t is element e * NT + t
 * of the tile in memory order, so that a warp's lanes read consecutive floats whatever the
 * operand's alignment (a warp instruction touches the sectors one float4 instruction of the
 * vector layout touches, where that layout's scalar fallback touches each sector four times):
 *   kcont: k offset t % BK, row t / BK + e * (NT / BK); a warp reads 32 / BK rows' BK floats.
 *   otherwise: row offset (e % P) * NT + t % R and k offset (e / P) * DQ + t / R, where P = R /
 *     NT (or 1) elements share a k row and DQ = NT / R (or 1); a warp reads 32 consecutive floats
 *     of one k row.
 * The shared layout s[p * SR + r] is the vector layout's, so the multiply is the same code. */
#define SC_P(R) ((R) > FAST_NT ? (R) / FAST_NT : 1)
#define SC_DQ(R) (FAST_NT > (R) ? FAST_NT / (R) : 1)
#define SC_DS (FAST_NT / GEMM_FAST_BK) /* kcont: rows between a thread's elements */
#define FAST_MAX_G (FAST_GA > FAST_GB ? FAST_GA : FAST_GB)
STATIC_CHECK(FAST_NT % GEMM_FAST_BK == 0, scalar_layout_a_warp_reads_whole_k_rows);
STATIC_CHECK((GEMM_FAST_BM % FAST_NT == 0 || FAST_NT % GEMM_FAST_BM == 0) &&
                 (GEMM_FAST_BN % FAST_NT == 0 || FAST_NT % GEMM_FAST_BN == 0),
             scalar_layout_tile_rows_and_block_divide);

INLINE_FN tile_loader loader_init(const bool kcont, const int R, const int G,
                                  DUET_GLOBAL const float *x, idx_t ld, idx_t row0, idx_t rows,
                                  idx_t kbeg, int t) {
  const int BK = GEMM_FAST_BK, SR = R + 4, E = 4 * G;
  tile_loader L;
  if (kcont) {
    const int q = t % BK, r = t / BK;
    const idx_t rl = rows - (row0 + r);
    L.at = q * SR + r;
    L.kq = q;
    L.valid = rows_inside(rl, E, SC_DS);
    EDGE_LAST(L, L.valid > 0 ? L.valid - 1 : 0);
    L.src = x + (EDGE_ROW(L, row0 + r, rows - 1)) * ld + kbeg + q;
    L.gstep = (idx_t)SC_DS * ld;
    L.step = BK;
  } else {
    const int P = SC_P(R), r = t % R, q = t / R;
    const idx_t rl = rows - (row0 + r);
    L.at = q * SR + r;
    L.kq = q;
    L.valid = rows_inside(rl, P, FAST_NT);
    /* the unguarded loads read the matrix's last column in place of those past it: its offset
     * from src (src is that column already where all of them are past) */
    EDGE_LAST(L, L.valid > 0 ? (int)(rows - 1 - (row0 + r)) : 0);
    L.src = x + (kbeg + q) * ld + EDGE_ROW(L, row0 + r, rows - 1);
    L.gstep = (idx_t)SC_DQ(R) * ld;
    L.step = (idx_t)BK * ld;
  }
  return L;
}

/* Whether element e exists in a k tile whose first kl k indices do. */
INLINE_FN bool sc_exists(const bool kcont, const int R, int e, int kl, const tile_loader *L) {
  if (kcont) return e < L->valid && L->kq < kl;
  const int P = SC_P(R);
  return e % P < L->valid && L->kq + (e / P) * SC_DQ(R) < kl;
}

/* The elements' loads walk one pointer down the operand, gstep at a time (each k row, or each row
 * of a kcont operand, has an address of its own: held across the k loop, a pointer per element
 * made nvcc spill in the four-body kernels, docs/results/tuning-notes.md); an element of a row
 * that shares its k row (P > 1) is an offset from it. guarded:
 * zeros for what does not exist (kl: the k indices of the tile that do); else unguarded, where
 * (FAST_EDGE_LOADS) rows or columns past the matrix read its last, so no load leaves it. */
INLINE_FN void sc_load(const bool kcont, const int R, const int G, float4 *v, bool guarded, int kl,
                       const tile_loader *L) {
  const int P = kcont ? 1 : SC_P(R), E = 4 * G;
  const bool edge = !guarded && FAST_EDGE_LOADS;
  DUET_GLOBAL const float *row = L->src;
  float x[4 * FAST_MAX_G];
  for (int e = 0; e < E; e++) { /* E is a constant once inlined: the loop unrolls */
    const int j = e % P;
    if (e > 0 && j == 0 && (!edge || !kcont || e <= SC_LAST(L))) row += L->gstep;
    const int off = edge && j >= L->valid ? SC_LAST(L) : j * FAST_NT;
    const DUET_GLOBAL float *at = kcont ? row : row + off;
    x[e] = !guarded || sc_exists(kcont, R, e, kl, L) ? *at : 0.0f;
  }
  for (int l = 0; l < G; l++)
    v[l] = DUET_MAKE_FLOAT4(x[4 * l], x[4 * l + 1], x[4 * l + 2], x[4 * l + 3]);
}

/* Load one k tile, of which the first kl (1..BK) k indices exist; zeros outside the matrix.
 * (vec is the vector layout's; these loads are scalar.) */
INLINE_FN void loader_load(const bool kcont, const int R, const int G, float4 *v, int kl, bool vec,
                           const tile_loader *L) {
  (void)vec;
  sc_load(kcont, R, G, v, true, kl, L);
}

/* Load a k tile whose k indices all exist, unguarded (loader_load_full of the vector layout
 * says when). */
INLINE_FN void loader_load_full(const bool kcont, const int R, const bool vec, const int G,
                                float4 *v, const tile_loader *L) {
  (void)vec;
  sc_load(kcont, R, G, v, false, GEMM_FAST_BK, L);
}

/* Store the loaded elements into the k-major tile s[p * SR + r]: consecutive lanes, consecutive
 * words along r (or, kcont, along p: rows SR apart). */
INLINE_FN void loader_store(const bool kcont, const int R, const int G, SHARED_PTR float *s,
                            const float4 *v, const tile_loader *L) {
  const int SR = R + 4, P = SC_P(R);
  for (int l = 0; l < G; l++) { /* G is a constant once inlined: the loop unrolls */
    const float x[4] = {v[l].x, v[l].y, v[l].z, v[l].w};
#pragma unroll
    for (int c = 0; c < 4; c++) {
      const int e = 4 * l + c;
      if (kcont)
        s[L->at + e * SC_DS] = x[c];
      else
        s[L->at + (e / P) * SC_DQ(R) * SR + (e % P) * FAST_NT] = x[c];
    }
  }
}
#endif /* FAST_SCALAR */

/* C(row, col..col+3) of this thread's 4-wide piece: alpha * acc + beta * C, beta == 0 never
 * reading C, only columns < n written. */
INLINE_FN void store_c4(DUET_GLOBAL float *DUET_RESTRICT c, idx_t row, idx_t col, idx_t n,
                        idx_t ldc, bool vec, float alpha, float4 v, float beta) {
  DUET_GLOBAL float *d = c + row * ldc + col;
  if (vec && col + 3 < n) {
    float4 o = DUET_MAKE_FLOAT4(alpha * v.x, alpha * v.y, alpha * v.z, alpha * v.w);
    if (beta != 0.0f) {
      const float4 old = GLOBAL_CONST_FLOAT4(d);
      o.x += beta * old.x;
      o.y += beta * old.y;
      o.z += beta * old.z;
      o.w += beta * old.w;
    }
    GLOBAL_FLOAT4(d) = o;
  } else {
    const float e[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int j = 0; j < 4; j++)
      if (col + j < n) store_c(d, j, alpha, e[j], beta);
  }
}

/* FAST_K_STOP 1: a guarded k tile multiplies only the k that exist, where fewer than BK are left
 * (the rest are zeros); 0: all BK steps. OpenCL's GEMM_FAST_K_STOP (nvidia-sm80's tiny tile in
 * steps of 16 spends 15 of 16 on zeros at k = 1); CUDA builds 0: the early stop raised nvcc's
 * spills in four nvidia-sm80 kernels (docs/results/misses.md, "4096^2 x 1"). */
#if defined(GEMM_FAST_K_STOP)
#define FAST_K_STOP GEMM_FAST_K_STOP
#else
#define FAST_K_STOP 0
#endif

/* How the k loop loads: GUARDED (any tile), FULL_VEC and FULL_SCALAR (tiles wholly inside the
 * matrix, with and without 16-byte loads). */
#define GUARDED 0
#define FULL_VEC 1
#define FULL_SCALAR 2

/* k tiles *kt .. kt_end-1, each: prefetch the next one into registers, multiply this one, store
 * the next one into the other buffer, barrier. mode (a constant where inlined) picks the loads
 * of the prefetch. */
INLINE_FN void k_tiles(const bool KA, const bool KB, const int mode, int *kt, int kt_end, int nk,
                       idx_t kbeg, idx_t kend, SHARED_PTR float *smem, tile_loader *la,
                       tile_loader *lb, float4 *ra, float4 *rb, bool va, bool vb, bool active,
                       int am, int bn, float acc[GEMM_FAST_TM][GEMM_FAST_TN]) {
  const int BM = GEMM_FAST_BM, BN = GEMM_FAST_BN, BK = GEMM_FAST_BK, TM = GEMM_FAST_TM,
            TN = GEMM_FAST_TN, LM = FAST_LM, LN = FAST_LN;
  for (; *kt < kt_end; (*kt)++) {
    const int k0 = *kt;
    SHARED_PTR float *cur = smem + (k0 & 1) * FAST_TILE;
    SHARED_PTR float *nxt = smem + ((k0 & 1) ^ 1) * FAST_TILE;
    const bool more = mode != GUARDED || k0 + 1 < nk;
    /* Prefetch: the next k tile's loads are in flight while this one is multiplied. */
    if (more) {
      la->src += la->step;
      lb->src += lb->step;
      if (mode == GUARDED) {
        const int kl = (int)min((idx_t)BK, kend - kbeg - (idx_t)(k0 + 1) * BK);
        loader_load(KA, BM, FAST_GA, ra, kl, va, la);
        loader_load(KB, BN, FAST_GB, rb, kl, vb, lb);
      } else {
        loader_load_full(KA, BM, mode == FULL_VEC, FAST_GA, ra, la);
        loader_load_full(KB, BN, mode == FULL_VEC, FAST_GB, rb, lb);
      }
    }
    if (active) {
      SHARED_PTR const float *as = cur + am;
      SHARED_PTR const float *bs = cur + BK * FAST_SA + bn;
#if FAST_K_STOP
      const int steps = mode == GUARDED ? (int)min((idx_t)BK, kend - kbeg - (idx_t)k0 * BK) : BK;
#endif
#pragma unroll
      for (int p = 0; p < BK; p++) {
#if FAST_K_STOP
        if (p >= steps) continue; /* not break: the loop keeps its count, so it unrolls */
#endif
        float af[GEMM_FAST_TM], bf[GEMM_FAST_TN];
#pragma unroll
        for (int i = 0; i < TM / 4; i++) {
          const float4 v = LOCAL_CONST_FLOAT4(as + p * FAST_SA + i * 4 * LM);
          af[4 * i + 0] = v.x;
          af[4 * i + 1] = v.y;
          af[4 * i + 2] = v.z;
          af[4 * i + 3] = v.w;
        }
#pragma unroll
        for (int j = 0; j < TN / 4; j++) {
          const float4 v = LOCAL_CONST_FLOAT4(bs + p * FAST_SB + j * 4 * LN);
          bf[4 * j + 0] = v.x;
          bf[4 * j + 1] = v.y;
          bf[4 * j + 2] = v.z;
          bf[4 * j + 3] = v.w;
        }
#pragma unroll
        for (int i = 0; i < TM; i++)
#pragma unroll
          for (int j = 0; j < TN; j++) acc[i][j] = fma(af[i], bf[j], acc[i][j]);
      }
    }
    /* The other buffer was last read before the previous barrier: fill it now. */
    if (more) {
      loader_store(KA, BM, FAST_GA, nxt, ra, la);
      loader_store(KB, BN, FAST_GB, nxt + BK * FAST_SA, rb, lb);
    }
    LOCAL_BARRIER();
  }
}

/* This thread's place in the block: its warp's tile and the first row / column it reads. */
typedef struct {
  int t, wm0, wn0, am, bn;
} lane_place;
INLINE_FN lane_place lane_place_of(void) {
  const int t = (int)DUET_THREAD_IDX(0), lane = t & 31, warp = t >> 5;
  lane_place me;
  me.t = t;
  me.wm0 = (warp / FAST_WARPS_N) * GEMM_FAST_WM;
  me.wn0 = (warp % FAST_WARPS_N) * GEMM_FAST_WN;
  me.am = me.wm0 + 4 * (lane / FAST_LN);
  me.bn = me.wn0 + 4 * (lane % FAST_LN);
  return me;
}

/* acc = the product of op(A)'s rows m0.. and op(B)'s columns n0.. over k in [kbeg, kend)
 * (kbeg a multiple of BK), for this thread's micro-tile. Starts and ends with the shared
 * buffers free: every thread has passed the last barrier. m_read >= m and n_read >= n: the rows
 * of op(A) and columns of op(B) that exist in memory (more than m and n where the core padded a
 * packed copy to whole tiles). Rows and columns past m and n feed only accumulators that are
 * never stored, so a tile inside m_read x n_read loads without guards, whatever they hold. */
INLINE_FN void mac_tile(const bool KA, const bool KB, lane_place me, idx_t m, idx_t n, idx_t m_read,
                        idx_t n_read, idx_t m0, idx_t n0, idx_t kbeg, idx_t kend,
                        DUET_GLOBAL const float *DUET_RESTRICT a, idx_t lda, bool va,
                        DUET_GLOBAL const float *DUET_RESTRICT b, idx_t ldb, bool vb,
                        SHARED_PTR float *smem, float acc[GEMM_FAST_TM][GEMM_FAST_TN]) {
  const int BM = GEMM_FAST_BM, BN = GEMM_FAST_BN, BK = GEMM_FAST_BK, TM = GEMM_FAST_TM,
            TN = GEMM_FAST_TN;
  const int am = me.am, bn = me.bn;
  const int nk = (int)((kend - kbeg + BK - 1) / BK);
  /* A warp whose whole warp tile lies outside C skips the arithmetic (edge tiles of ragged
   * sizes get cheaper); it still loads and reaches every barrier. */
  const bool active = m0 + me.wm0 < m && n0 + me.wn0 < n;

  tile_loader la = loader_init(KA, BM, FAST_GA, a, lda, m0, m, kbeg, me.t);
  tile_loader lb = loader_init(KB, BN, FAST_GB, b, ldb, n0, n, kbeg, me.t);
  float4 ra[FAST_GA], rb[FAST_GB];

#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++) acc[i][j] = 0.0f;

  if (nk > 0) {
    const int kl = (int)min((idx_t)BK, kend - kbeg);
    loader_load(KA, BM, FAST_GA, ra, kl, va, &la);
    loader_load(KB, BN, FAST_GB, rb, kl, vb, &lb);
    loader_store(KA, BM, FAST_GA, smem, ra, &la);
    loader_store(KB, BN, FAST_GB, smem + BK * FAST_SA, rb, &lb);
  }
  LOCAL_BARRIER();

  /* k tiles 1 .. nk-2 are prefetched without guards (only the last k tile can be partial), the
   * last steps through the guarded loads. An edge tile's loads past m or n stay inside the
   * operand (loader_load_full) where its memory runs along k or its ld is at least 3, which m, n
   * >= 4 ensure; otherwise only a tile inside what may be read skips the guards. Edge tiles all
   * guarded ran 1000^3 (15 of 64 tiles) 16% slower than 1024^3 for the work (H200). */
  int kt = 0;
  const bool edge_ok = FAST_EDGE_LOADS && (KA || m >= 4) && (KB || n >= 4);
  if (edge_ok || (m0 + BM <= m_read && n0 + BN <= n_read)) {
    if (!FAST_SCALAR && va && vb) /* the scalar layout has one kind of loads: one loop */
      k_tiles(KA, KB, FULL_VEC, &kt, nk - 2, nk, kbeg, kend, smem, &la, &lb, ra, rb, va, vb, active,
              am, bn, acc);
    else
      k_tiles(KA, KB, FULL_SCALAR, &kt, nk - 2, nk, kbeg, kend, smem, &la, &lb, ra, rb, va, vb,
              active, am, bn, acc);
  }
  k_tiles(KA, KB, GUARDED, &kt, nk, nk, kbeg, kend, smem, &la, &lb, ra, rb, va, vb, active, am, bn,
          acc);
}

/* C's tile at (m0, n0) = alpha * acc + beta * C: 4 x 4 pieces, each row of a piece one float4
 * where C allows it. */
INLINE_FN void store_tile(lane_place me, idx_t m, idx_t n, idx_t m0, idx_t n0,
                          DUET_GLOBAL float *DUET_RESTRICT c, idx_t ldc, bool vc, float alpha,
                          float beta, float acc[GEMM_FAST_TM][GEMM_FAST_TN]) {
  const int TM = GEMM_FAST_TM, TN = GEMM_FAST_TN, LM = FAST_LM, LN = FAST_LN;
  const int am = me.am, bn = me.bn;
#pragma unroll
  for (int i = 0; i < TM / 4; i++)
#pragma unroll
    for (int ii = 0; ii < 4; ii++) {
      const idx_t row = m0 + am + i * 4 * LM + ii;
      if (row < m) {
#pragma unroll
        for (int j = 0; j < TN / 4; j++) {
          const float4 v = DUET_MAKE_FLOAT4(acc[4 * i + ii][4 * j + 0], acc[4 * i + ii][4 * j + 1],
                                            acc[4 * i + ii][4 * j + 2], acc[4 * i + ii][4 * j + 3]);
          store_c4(c, row, n0 + bn + j * 4 * LN, n, ldc, vc, alpha, v, beta);
        }
      }
    }
}

/* OpenCL only: the shared pointer rounded up into the 16 bytes of slack the launch adds, since
 * NVIDIA's OpenCL gives a __local argument a 4-byte boundary only (float4 accesses then fault as
 * CL_OUT_OF_RESOURCES). CUDA's dynamic shared memory is 16-byte aligned already. */
#if defined(DUET_OPENCL)
#define ALIGN16(p) ((__local float *)(((uintptr_t)(p) + 15) & ~(uintptr_t)15))
#else
#define ALIGN16(p) (p)
#endif

/* The grid of tiles: one block per tile (a y grid-stride loop past the 65535 cap), or split-K
 * slices over grid dimension 2. */
INLINE_FN void fast_tiles(const bool KA, const bool KB, idx_t m, idx_t n, idx_t k, float alpha,
                          DUET_GLOBAL const float *DUET_RESTRICT a, idx_t lda,
                          DUET_GLOBAL const float *DUET_RESTRICT b, idx_t ldb, float beta,
                          DUET_GLOBAL float *DUET_RESTRICT c, idx_t ldc, idx_t m_read, idx_t n_read,
                          SHARED_PTR float *smem) {
  const int BM = GEMM_FAST_BM, BN = GEMM_FAST_BN, BK = GEMM_FAST_BK;
  smem = ALIGN16(smem);
  /* Split-K (builtin.h): the slices are whole BK steps of k. */
  const k_range ks = splitk_slice(k, BK, m, ldc, &c, &alpha, &beta);
  const idx_t kbeg = ks.beg, kend = ks.end;
  const bool va = vec4_rows(a, lda), vb = vec4_rows(b, ldb), vc = vec4_rows(c, ldc);

  /* Block order: a bijection of the grid, BAND tile columns at a time, so the blocks resident
   * at once share A and B panels in L2. The y grid-stride loop below then steps from the
   * swizzled row, which keeps every tile covered once however the grid's y was capped. */
  const tile_xy sw = band_order(GEMM_FAST_BAND);
  const idx_t n0 = (idx_t)sw.x * BN;
  const lane_place me = lane_place_of();
  for (idx_t ty = sw.y; ty * BM < m; ty += DUET_GRID_DIM(1)) {
    float acc[GEMM_FAST_TM][GEMM_FAST_TN];
    mac_tile(KA, KB, me, m, n, m_read, n_read, ty * BM, n0, kbeg, kend, a, lda, va, b, ldb, vb,
             smem, acc);
    store_tile(me, m, n, ty * BM, n0, c, ldc, vc, alpha, beta, acc);
  }
}

/* A thread's micro-tile as a partial product in a workspace slot of BM * BN floats, float4 g of
 * thread t at float4 g * NT + t (coalesced), so that thread t of the summing block reads exactly
 * what thread t of each publishing block wrote. Another block wrote it during this launch, so a
 * cached copy must not serve the read: CUDA loads and stores it in L2 only (__ldcg, __stcg),
 * OpenCL (C 1.2 has no cache operators) reads it through volatile pointers. `add`: acc += the
 * slot, else acc = the slot. */
#if defined(DUET_CUDA)
#define PARTIAL_STORE(p, v) __stcg((p), (v))
#define PARTIAL_LOAD(p) __ldcg(p)
typedef const float4 partial_src;
#else
#define PARTIAL_STORE(p, v) (*(p) = (v))
#define PARTIAL_LOAD(p) (*(p))
typedef volatile __global const float4 partial_src;
#endif
INLINE_FN void put_partial(DUET_GLOBAL float *slot, float acc[GEMM_FAST_TM][GEMM_FAST_TN]) {
  const int TN = GEMM_FAST_TN;
  DUET_GLOBAL float4 *dst = (DUET_GLOBAL float4 *)slot + DUET_THREAD_IDX(0);
#pragma unroll
  for (int g = 0; g < GEMM_FAST_TM * GEMM_FAST_TN / 4; g++) {
    const int i = g / (TN / 4), j = 4 * (g % (TN / 4));
    PARTIAL_STORE(dst + g * FAST_NT,
                  DUET_MAKE_FLOAT4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]));
  }
}
INLINE_FN void get_partial(DUET_GLOBAL const float *slot, bool add,
                           float acc[GEMM_FAST_TM][GEMM_FAST_TN]) {
  const int TN = GEMM_FAST_TN;
  partial_src *src = (partial_src *)slot + DUET_THREAD_IDX(0);
#pragma unroll
  for (int g = 0; g < GEMM_FAST_TM * GEMM_FAST_TN / 4; g++) {
    const int i = g / (TN / 4), j = 4 * (g % (TN / 4));
    const float4 v = PARTIAL_LOAD(src + g * FAST_NT);
    acc[i][j] = add ? acc[i][j] + v.x : v.x;
    acc[i][j + 1] = add ? acc[i][j + 1] + v.y : v.y;
    acc[i][j + 2] = add ? acc[i][j + 2] + v.z : v.z;
    acc[i][j + 3] = add ? acc[i][j + 3] + v.w : v.w;
  }
}

/* A stream-K flag: SK_FLAG_COUNT bits of tickets taken, and the epoch above them (SK_FLAG_EPOCH,
 * 1..SK_EPOCHS; 0 after a reset; the bits between are zero). src/gemm.c holds the same layout
 * (at most SK_FLAG_COUNT units share a tile). */
#define SK_FLAG_COUNT 0x3ff
#define SK_FLAG_EPOCH 0x100000
/* Whether stream-K block g owns an iteration: its range [g * iters / units, (g + 1) * iters /
 * units) is empty where there are fewer iterations than blocks. */
INLINE_FN bool sk_owns(idx_t g, idx_t iters, unsigned units) {
  return (g + 1) * iters / units > g * iters / units;
}
/* A flag or stamp as it is now, past any cache: CUDA a volatile load, OpenCL C 1.2 (no atomic
 * load) an atomic add of 0. */
#if defined(DUET_CUDA)
#define SK_READ(p) (*(volatile int *)(p))
#else
#define SK_READ(p) atomic_add((p), 0)
#endif
/* Takes a ticket on a tile's flag and returns the flag as it was, a flag of another epoch
 * counting as zero. */
INLINE_FN int sk_take_ticket(DUET_GLOBAL int *flag, int epoch) {
  int old = SK_READ(flag);
  for (;;) {
    const int cur = old / SK_FLAG_EPOCH == epoch ? old : epoch * SK_FLAG_EPOCH;
    const int seen = ATOMIC_CAS_INT(flag, old, cur + 1);
    if (seen == old) return cur;
    old = seen;
  }
}
/* A thread's part of a partial, published: its own stores, its own fence, then its own stamp
 * (the launch's epoch). The thread that reads the part waits for that stamp alone, so no
 * thread's stores are published by another's atomic: OpenCL 1.2 orders a fence within one
 * work-item only, and a barrier and one work-item's atomic do not make the group's stores
 * visible to other groups first. */
INLINE_FN void sk_publish(DUET_GLOBAL float *slot, DUET_GLOBAL int *stamp, int epoch,
                          float acc[GEMM_FAST_TM][GEMM_FAST_TN]) {
  put_partial(slot, acc);
  DUET_GLOBAL_FENCE();
  ATOMIC_XCHG_INT(stamp, epoch);
}
/* Waits until the thread of the same place in the block that wrote `slot` has stamped it with
 * this launch's epoch, then reads it (acc = or += it) and clears the stamp for the next launch. */
INLINE_FN void sk_consume(DUET_GLOBAL const float *slot, DUET_GLOBAL int *stamp, int epoch,
                          bool add, float acc[GEMM_FAST_TM][GEMM_FAST_TN]) {
  while (SK_READ(stamp) != epoch) {
  }
  DUET_GLOBAL_FENCE();
  get_partial(slot, add, acc);
  *stamp = 0;
}

/* Stream-K (1D grid, `units` of its blocks stream-K blocks): C's T tiles in band order, the
 * first (grid size - units) whole, one per block; the other S tiles' k iterations
 * (S * ceil(k / BK) of them, nk per tile) cut into `units` equal ranges, one per stream-K block,
 * so that the last wave of tiles keeps every compute unit busy instead of leaving some idle. A
 * tile whose k iterations fall to c blocks is summed by the last of them to take its ticket: the
 * others write their partial products to the workspace, each thread stamping its own part
 * (sk_publish); the last one's threads each wait for the stamps of the parts they read
 * (sk_consume) and add the partials in k order, so the result does not depend on which finishes
 * last. It waits only for blocks that have already taken their ticket, so it needs no block to
 * be resident beside it (PoCL may run them one after another). Where the tiles have fewer
 * iterations than there are blocks, some blocks' ranges are empty; they take no part in any
 * tile, so a tile counts and sums only the blocks between its first and last that own an
 * iteration (sk_owns).
 *   work: units + S slots of BM * BN floats (the partial of tile s by block u is slot u + s,
 *   unique since a later tile starts in the same or a later block); flags: S ints (SK_FLAG_*:
 *   the tickets taken and the call's epoch, 1..SK_EPOCHS), then a stamp per slot and thread
 *   ((units + S) * NT ints: 0, or the epoch of the launch that published that part). A flag or
 *   a stamp that carries another epoch counts as zero, so one that a failed launch left behind
 *   cannot poison a later call (the core zeroes the flags before an epoch comes round again);
 *   the last block of a tile sets its flag back to zero and clears the stamps it read, so a
 *   launch replayed with the same epoch works too. */
INLINE_FN void fast_stream_k(const bool KA, const bool KB, idx_t m, idx_t n, idx_t k, float alpha,
                             DUET_GLOBAL const float *DUET_RESTRICT a, idx_t lda,
                             DUET_GLOBAL const float *DUET_RESTRICT b, idx_t ldb, float beta,
                             DUET_GLOBAL float *DUET_RESTRICT c, idx_t ldc, idx_t m_read,
                             idx_t n_read, SHARED_PTR float *smem, unsigned units, int epoch,
                             DUET_GLOBAL float *work, DUET_GLOBAL int *flags,
                             SHARED_PTR int *ticket) {
  const int BM = GEMM_FAST_BM, BN = GEMM_FAST_BN, BK = GEMM_FAST_BK;
  smem = ALIGN16(smem);
  const bool va = vec4_rows(a, lda), vb = vec4_rows(b, ldb), vc = vec4_rows(c, ldc);
  const unsigned tiles_n = (unsigned)((n + BN - 1) / BN), tiles_m = (unsigned)((m + BM - 1) / BM);
  const unsigned group = DUET_BLOCK_IDX(0);
  const unsigned whole = DUET_GRID_DIM(0) - units, s_tiles = tiles_n * tiles_m - whole;
  /* One walk for both kinds of block, over iterations numbered tile by tile in band order: a
   * whole tile's block takes its tile's nk, a stream-K block its share of the rest. */
  const idx_t nk = (k + BK - 1) / BK, iters = (idx_t)s_tiles * nk, base = (idx_t)whole * nk;
  const bool sk = group >= whole;
  const idx_t u = (idx_t)group - whole; /* stream-K blocks only */
  const lane_place me = lane_place_of();
  /* this thread's stamp of slot x: stamps[x * NT] */
  DUET_GLOBAL int *const stamps = flags + s_tiles + me.t;
  float acc[GEMM_FAST_TM][GEMM_FAST_TN];
  for (idx_t it = sk ? base + u * iters / units : (idx_t)group * nk,
             hi = sk ? base + (u + 1) * iters / units : it + nk;
       it < hi;) {
    const idx_t tile = it / nk, k0 = it - tile * nk, k1 = min(hi - tile * nk, nk);
    const idx_t s = tile - whole; /* its index among the shared tiles */
    const tile_xy p = band_tile((unsigned)tile, tiles_n, tiles_m, GEMM_FAST_BAND);
    const idx_t m0 = (idx_t)p.y * BM, n0 = (idx_t)p.x * BN;
    mac_tile(KA, KB, me, m, n, m_read, n_read, m0, n0, k0 * BK, min(k, k1 * BK), a, lda, va, b, ldb,
             vb, smem, acc);
    it = tile * nk + k1;
    bool store = true;
    if (k0 > 0 || k1 < nk) {
      /* The blocks of this tile's first and last iterations: the block of iteration x is
       * ((x + 1) * units - 1) / iters; between them, those whose range is empty take no part. */
      const idx_t first = ((s * nk + 1) * units - 1) / iters;
      const idx_t last = ((s + 1) * nk * units - 1) / iters;
      int count = 0;
      for (idx_t g = first; g <= last; g++) count += sk_owns(g, iters, units);
      DUET_GLOBAL int *const flag = flags + s;
      if (me.t == 0) *ticket = sk_take_ticket(flag, epoch);
      LOCAL_BARRIER();
      /* The next ticket is taken after mac_tile's barriers: every thread has read this one. */
      store = (*ticket & SK_FLAG_COUNT) + 1 >= count; /* the last to take a ticket sums */
      DUET_GLOBAL float *const slot = work + (idx_t)BM * BN * (u + s); /* this block's partial */
      if (!store) {
        sk_publish(slot, stamps + (u + s) * FAST_NT, epoch, acc);
      } else {
        /* The first block of a tile reaches it at the end of its range, after the others, so
         * it is mostly the last, and its own partial is the sum's first term; any other puts
         * its own in its slot (its threads read back only what they wrote) and starts from the
         * first's. */
        if (u != first) {
          put_partial(slot, acc);
          sk_consume(work + (idx_t)BM * BN * (first + s), stamps + (first + s) * FAST_NT, epoch,
                     false, acc);
        }
        for (idx_t g = first + 1; g <= last; g++) {
          if (g == u)
            get_partial(slot, true, acc);
          else if (sk_owns(g, iters, units))
            sk_consume(work + (idx_t)BM * BN * (g + s), stamps + (g + s) * FAST_NT, epoch, true,
                       acc);
        }
        if (me.t == 0) *flag = 0; /* every block of the tile has taken its ticket */
      }
    }
    if (store) store_tile(me, m, n, m0, n0, c, ldc, vc, alpha, beta, acc);
  }
}

/* fast: C = alpha * op(A) * op(B) + beta * C, with FAST_PARAMS (kernels_cl/builtin.h): on the
 * matrices at their offsets, reading up to m_read >= m rows of op(A) and n_read >= n columns of
 * op(B) (mac_tile).
 * Grid dimension 2 of 1: BLAS semantics, beta == 0 never reads C.
 * More (split-K): slice z takes k in [z * kc, min(k, (z + 1) * kc)), kc = ceil(k / splits)
 *   rounded up to a multiple of BK, and writes acc to c + z * m * ldc (a workspace; alpha and
 *   beta are ignored and C not read); then duet_sgemm_splitk_reduce adds the slices into C with
 *   alpha and beta.
 * The transposes decide which loader runs (memory along k or along m/n), one body per
 * combination, so that the inner loops carry no branch on them. One kernel per combination, named
 * for it (ta and tb, passed so that every fast kernel takes one argument list, must be the
 * name's), holds its own body alone, so that a cold build compiles the one body a call needs
 * (NVIDIA's OpenCL runs ptxas over each), or more. A body runs at another speed alone and among
 * others, at the same register count, as ptxas schedules it otherwise (docs/results/h200.md,
 * twenty-first and twenty-second sessions):
 *   - CUDA: four bodies in the _nn kernel, which kernels_cu/gemm_fast.inc registers under the
 *     four names (nvcc builds ahead of time: their size costs nothing at run time); at the big
 *     tile it registers duet_sgemm_fast_nn_alone and _tn_alone (below) for nn and tn.
 *   - OpenCL: GEMM_FAST_BODIES, which the big tile's group alone is built with (the other tiles
 *     take one body): 1, the kernel's own body; 2, its own and its partner's, the body with both
 *     transposes the other way round, which runs only for the partner's ta and tb, so never for
 *     the kernel's own name (nvidia-sm80: on NVIDIA's OpenCL the pair ran the big tile faster
 *     than four bodies and than one, in about half of four's cold build or less); 4, all four. */
#ifndef GEMM_FAST_BODIES
#define GEMM_FAST_BODIES 1
#endif
#if defined(DUET_CUDA) || GEMM_FAST_BODIES == 4
#define FAST_BODY(KA, KB)      \
  if (!ta) {                   \
    if (!tb)                   \
      FAST_TILES(true, false); \
    else                       \
      FAST_TILES(true, true);  \
  } else if (!tb) {            \
    FAST_TILES(false, false);  \
  } else {                     \
    FAST_TILES(false, true);   \
  }
#elif GEMM_FAST_BODIES == 2
#define FAST_BODY(KA, KB)          \
  if (ta == (KA) && tb == !(KB)) { \
    FAST_TILES(!(KA), !(KB));      \
  } else {                         \
    FAST_TILES(KA, KB);            \
  }
#else
#define FAST_BODY(KA, KB) FAST_TILES(KA, KB)
#endif
#define FAST_TILES(KA, KB) \
  fast_tiles(KA, KB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, m_read, n_read, smem)
#define FAST_KERNEL_WITH(NAME, ATTRIBUTES, BODY)                                 \
  DUET_KERNEL ATTRIBUTES void NAME(FAST_PARAMS DUET_SHARED_PARAM(float, smem)) { \
    AFTER_PRIOR_LAUNCH();                                                        \
    DUET_SHARED_BIND(float, smem);                                               \
    FAST_APPLY_OFFSETS();                                                        \
    BODY;                                                                        \
  }
#define FAST_KERNEL(NAME, KA, KB) \
  FAST_KERNEL_WITH(NAME, KERNEL_BLOCK_MIN(FAST_NT, 1, FAST_MIN_BLOCKS), FAST_BODY(KA, KB))
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemm_fast_nn)
FAST_KERNEL(duet_sgemm_fast_nn, true, false)
#endif
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemm_fast_nt)
FAST_KERNEL(duet_sgemm_fast_nt, true, true)
#endif
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemm_fast_tn)
FAST_KERNEL(duet_sgemm_fast_tn, false, false)
#endif
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemm_fast_tt)
FAST_KERNEL(duet_sgemm_fast_tt, false, true)
#endif
/* CUDA, the big tile (kernels_cu/gemm_fast.inc wants them): fast's nn and tn bodies each alone,
 * under a cap of FAST_ALONE_REGS(MOST) registers: what FAST_MIN_BLOCKS blocks leave a thread (as
 * __launch_bounds__ gives), and at most MOST where a block fills a unit alone (FAST_MIN_BLOCKS 1:
 * nvidia-sm80's 256 x 128 tile). There nn alone under 240 and tn alone under 248 ran faster than
 * among four bodies; nt and tt alone were slower under every cap from 216 to 255, so they stay in
 * the _nn kernel (docs/results/h200.md, twenty-first and twenty-second sessions). */
#if defined(DUET_CUDA) && \
    (defined(DUET_WANT_duet_sgemm_fast_nn_alone) || defined(DUET_WANT_duet_sgemm_fast_tn_alone))
#define FAST_REGS_FIT (65536 / (FAST_NT * FAST_MIN_BLOCKS) / 8 * 8)
#define FAST_REGS_MOST(MOST) (FAST_MIN_BLOCKS == 1 ? (MOST) : 255)
#define FAST_ALONE_REGS(MOST) \
  (FAST_REGS_FIT < FAST_REGS_MOST(MOST) ? FAST_REGS_FIT : FAST_REGS_MOST(MOST))
#define FAST_ALONE(NAME, KA, KB, MOST) \
  FAST_KERNEL_WITH(NAME, KERNEL_MAX_REGS(FAST_ALONE_REGS(MOST)), FAST_TILES(KA, KB))
#ifdef DUET_WANT_duet_sgemm_fast_nn_alone
FAST_ALONE(duet_sgemm_fast_nn_alone, true, false, 240)
#endif
#ifdef DUET_WANT_duet_sgemm_fast_tn_alone
FAST_ALONE(duet_sgemm_fast_tn_alone, false, false, 248)
#endif
#undef FAST_ALONE
#undef FAST_ALONE_REGS
#undef FAST_REGS_MOST
#undef FAST_REGS_FIT
#endif
#undef FAST_KERNEL
#undef FAST_KERNEL_WITH
#undef FAST_TILES
#undef FAST_BODY

/* fast in k slices summed through a thread-block cluster: CUDA only, compute capability 9.0 and
 * up (OpenCL has no clusters; the plan takes these kernels only where the backend reports
 * clusters, src/gemm_plan.c). Grid (ceil(n / BN), min(ceil(m / BM), 65535), S), launched as
 * clusters of 1 x 1 x S blocks: slice z of a tile takes k as splitk_slice cuts it, puts its
 * partial product in its own shared memory (BM * BN floats, float4 g of thread t at g * NT + t),
 * and after the cluster's barrier sums 1/S of the tile's float4 groups from the S blocks' shared
 * memory, in slice order, and stores them into C with alpha and beta. The sum is the
 * reduction's, term for term, without its launch and without the partials' trip through
 * global memory. */
#if defined(DUET_CUDA) && (!defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemm_fast_cs_nn))
/* The cluster's barrier (release, acquire: shared memory written before it is seen after it by
 * every block of the cluster) and a load of float4 x of block `rank`'s shared memory at the
 * address `mine` has in this block's. */
__device__ __forceinline__ void cluster_barrier(void) {
#if __CUDA_ARCH__ >= 900
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::
                   : "memory");
#endif
}
__device__ __forceinline__ float4 cluster_load4(const float4 *mine, unsigned rank) {
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#if __CUDA_ARCH__ >= 900
  unsigned local = (unsigned)__cvta_generic_to_shared(mine), remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(rank));
  asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "r"(remote)
               : "memory");
#endif
  return v;
}
INLINE_FN void fast_cluster_tiles(const bool KA, const bool KB, idx_t m, idx_t n, idx_t k,
                                  float alpha, DUET_GLOBAL const float *DUET_RESTRICT a, idx_t lda,
                                  DUET_GLOBAL const float *DUET_RESTRICT b, idx_t ldb, float beta,
                                  DUET_GLOBAL float *DUET_RESTRICT c, idx_t ldc, idx_t m_read,
                                  idx_t n_read, SHARED_PTR float *smem) {
#if __CUDA_ARCH__ >= 900
  const int BM = GEMM_FAST_BM, BN = GEMM_FAST_BN, BK = GEMM_FAST_BK, TN = GEMM_FAST_TN,
            LM = FAST_LM, LN = FAST_LN, G = GEMM_FAST_TM * GEMM_FAST_TN / 4;
  const int slices = (int)DUET_GRID_DIM(2), z = (int)DUET_BLOCK_IDX(2);
  const k_range ks = k_slice(k, BK); /* as splitk_slice cuts k */
  const idx_t kbeg = ks.beg, kend = ks.end;
  const bool va = vec4_rows(a, lda), vb = vec4_rows(b, ldb), vc = vec4_rows(c, ldc);
  const tile_xy sw = band_order(GEMM_FAST_BAND);
  const idx_t n0 = (idx_t)sw.x * BN;
  const lane_place me = lane_place_of();
  float4 *const part = (float4 *)smem + me.t; /* this thread's float4 groups, NT apart */
  const int g0 = z * G / slices, g1 = (z + 1) * G / slices; /* this slice's share of them */
  for (idx_t ty = sw.y; ty * BM < m; ty += DUET_GRID_DIM(1)) {
    float acc[GEMM_FAST_TM][GEMM_FAST_TN];
    mac_tile(KA, KB, me, m, n, m_read, n_read, ty * BM, n0, kbeg, kend, a, lda, va, b, ldb, vb,
             smem, acc);
#pragma unroll
    for (int g = 0; g < G; g++) {
      const int i = g / (TN / 4), j = 4 * (g % (TN / 4));
      part[g * FAST_NT] = make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
    }
    cluster_barrier();
    for (int g = g0; g < g1; g++) {
      float4 sum = cluster_load4(part + g * FAST_NT, 0);
      for (int r = 1; r < slices; r++) {
        const float4 v = cluster_load4(part + g * FAST_NT, (unsigned)r);
        sum.x += v.x;
        sum.y += v.y;
        sum.z += v.z;
        sum.w += v.w;
      }
      const int i = g / (TN / 4), jq = g % (TN / 4);
      const idx_t row = ty * BM + me.am + (i / 4) * 4 * LM + i % 4;
      if (row < m) store_c4(c, row, n0 + me.bn + jq * 4 * LN, n, ldc, vc, alpha, sum, beta);
    }
    /* no block leaves, or overwrites its shared memory, while another may still read it */
    cluster_barrier();
  }
#else
  __trap(); /* the plan launches these kernels only on devices with clusters */
#endif
}
#define FAST_CS_KERNEL(NAME, KA, KB)                                                         \
  DUET_KERNEL KERNEL_BLOCK_MIN(FAST_NT, 1, FAST_MIN_BLOCKS) void NAME(                       \
      FAST_PARAMS DUET_SHARED_PARAM(float, smem)) {                                          \
    AFTER_PRIOR_LAUNCH();                                                                    \
    DUET_SHARED_BIND(float, smem);                                                           \
    FAST_APPLY_OFFSETS();                                                                    \
    fast_cluster_tiles(KA, KB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, m_read, n_read, \
                       smem);                                                                \
  }
FAST_CS_KERNEL(duet_sgemm_fast_cs_nn, true, false)
FAST_CS_KERNEL(duet_sgemm_fast_cs_nt, true, true)
FAST_CS_KERNEL(duet_sgemm_fast_cs_tn, false, false)
FAST_CS_KERNEL(duet_sgemm_fast_cs_tt, false, true)
#undef FAST_CS_KERNEL
#endif

/* fast over a stream-K grid: the same, BLAS semantics, over a 1D grid whose last `units` blocks
 * share the last tiles' k iterations (fast_stream_k; `work` their partial products, `flags`
 * their tickets and stamps; units_epoch: the units in its low 32 bits, the call's epoch above). Its
 * own kernels, not a branch of fast's, and one per transpose combination, named for it (ta and
 * tb, passed so that every fast kernel takes one argument list, must be the name's): one function
 * for both grids, or for all four combinations, ran slower (docs/results/tuning-notes.md). */
#define FAST_SK_KERNEL(NAME, KA, KB)                                                           \
  DUET_KERNEL KERNEL_BLOCK_MIN(FAST_NT, 1, FAST_MIN_BLOCKS) void NAME(                         \
      FAST_PARAMS, idx_t units_epoch, DUET_GLOBAL float *work,                                 \
      DUET_GLOBAL int *flags DUET_SHARED_PARAM(float, smem)) {                                 \
    AFTER_PRIOR_LAUNCH();                                                                      \
    DUET_SHARED_BIND(float, smem);                                                             \
    DUET_SHARED int ticket;                                                                    \
    FAST_APPLY_OFFSETS();                                                                      \
    fast_stream_k(KA, KB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, m_read, n_read, smem,  \
                  (unsigned)(units_epoch & 0xffffffff), (int)(units_epoch >> 32), work, flags, \
                  &ticket);                                                                    \
  }
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemm_fast_sk_nn)
FAST_SK_KERNEL(duet_sgemm_fast_sk_nn, true, false)
#endif
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemm_fast_sk_nt)
FAST_SK_KERNEL(duet_sgemm_fast_sk_nt, true, true)
#endif
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemm_fast_sk_tn)
FAST_SK_KERNEL(duet_sgemm_fast_sk_tn, false, false)
#endif
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemm_fast_sk_tt)
FAST_SK_KERNEL(duet_sgemm_fast_sk_tt, false, true)
#endif
#undef FAST_SK_KERNEL

/* Split-K reduction: C = alpha * (sum over z of work[z * m * n + i * n + j]) + beta * C, C
 * starting c_off floats into its buffer (the slices hold plain partial products; beta == 0 never
 * reads C). The block's GEMM_SPLITK_REDUCE_TILE x lanes take as many consecutive columns of a row;
 * its GEMM_SPLITK_REDUCE_ROWS y lanes share out the slices: lz = `lanes` (the plan's, from 1 to
 * min(splits, ROWS)) lanes per element, slice z to lane z % lz, each lane summing its slices in
 * order, and then the first adds the lanes' sums in lane order (a fixed order: the same bits on
 * every run), ROWS / lz rows of C at a time. So a C of a few tiles, cut into hundreds of slices,
 * still has every lane of the device loading, and a C of many elements (lanes 1) has each thread
 * keep its slices' loads in flight, four at a time, with no shared sums and no barriers. A 1D grid
 * of any size strides over the steps (the plan sizes both, src/gemm_plan.c). */
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemm_splitk_reduce)
#if !defined(GEMM_SPLITK_REDUCE_TILE) || !defined(GEMM_SPLITK_REDUCE_ROWS)
#error "the reduction's block comes from the tuning set (GEMM_SPLITK_REDUCE_TILE, _ROWS)"
#endif
DUET_KERNEL
KERNEL_BLOCK(GEMM_SPLITK_REDUCE_TILE, GEMM_SPLITK_REDUCE_ROWS)
void duet_sgemm_splitk_reduce(idx_t m, idx_t n, int splits, int lanes,
                              DUET_GLOBAL const float *DUET_RESTRICT work, float alpha, float beta,
                              DUET_GLOBAL float *DUET_RESTRICT c, idx_t c_off, idx_t ldc) {
  DUET_SHARED float part[GEMM_SPLITK_REDUCE_ROWS][GEMM_SPLITK_REDUCE_TILE];
  AFTER_PRIOR_LAUNCH();
  const idx_t slab = m * n;
  const int x = (int)DUET_THREAD_IDX(0), y = (int)DUET_THREAD_IDX(1);
  const int lz = lanes < 1                         ? 1
                 : lanes < GEMM_SPLITK_REDUCE_ROWS ? lanes
                                                   : GEMM_SPLITK_REDUCE_ROWS,
            rows = GEMM_SPLITK_REDUCE_ROWS / lz;
  const int lane = y % lz, r = y / lz;
  const idx_t across = (n + GEMM_SPLITK_REDUCE_TILE - 1) / GEMM_SPLITK_REDUCE_TILE;
  const idx_t steps = (m + rows - 1) / rows * across;
  c += c_off;
  /* step q * across + p of the walk, advanced by the grid without a division per step */
  const idx_t grid = (idx_t)DUET_GRID_DIM(0), grid_rows = grid / across, grid_cols = grid % across;
  idx_t q = (idx_t)DUET_BLOCK_IDX(0) / across, p = (idx_t)DUET_BLOCK_IDX(0) % across;
  for (; q * across + p < steps; q += grid_rows, p += grid_cols) {
    if (p >= across) {
      p -= across;
      q++;
    }
    const idx_t i = q * rows + r, j = p * GEMM_SPLITK_REDUCE_TILE + x;
    const bool mine = r < rows && i < m && j < n;
    DUET_GLOBAL const float *w = mine ? work + i * n + j : work;
    float s = 0.0f;
    if (lz == 1) { /* uniform across the grid: no partial sums to share, so no barriers */
      if (mine) {
        int z = 0;
        /* four slices' loads in flight at once, added in slice order all the same */
        for (; z + 4 <= splits; z += 4) {
          const float w0 = w[z * slab], w1 = w[(z + 1) * slab], w2 = w[(z + 2) * slab],
                      w3 = w[(z + 3) * slab];
          s += w0;
          s += w1;
          s += w2;
          s += w3;
        }
        for (; z < splits; z++) s += w[z * slab];
        store_c(c, i * ldc + j, alpha, s, beta);
      }
      continue;
    }
    if (mine)
      for (int z = lane; z < splits; z += lz) s += w[z * slab];
    part[y][x] = s;
    LOCAL_BARRIER();
    if (mine && lane == 0) {
      for (int l = 1; l < lz; l++) s += part[y + l][x];
      store_c(c, i * ldc + j, alpha, s, beta);
    }
    LOCAL_BARRIER();
  }
}
#endif
