/* SPDX-License-Identifier: MIT */
/* SGEMM, the two fast steps: "register" (2D register blocking) and "fast" (everything that gets
 * to cuBLAS). Row-major C = alpha * op(A) * op(B) + beta * C, op(A) m x k, op(B) k x n.
 * Compiled after common.cl; kernels_cu/gemm_fast.cuh holds the CUDA twins, line for line.
 *
 * Tunables (-D options; the defaults below are the H100 values, NVIDIA OpenCL):
 *   GEMM_REG_BM, GEMM_REG_BN    tile of C per work-group of the register kernel     (128, 128)
 *   GEMM_REG_BK                 k depth of one step through local memory             (8)
 *   GEMM_REG_TM, GEMM_REG_TN    outputs per work-item, rows x columns               (8, 8)
 *   GEMM_FAST_BM, GEMM_FAST_BN  tile of C per work-group of the fast kernel          (256, 128)
 *   GEMM_FAST_BK                k depth of one local-memory buffer                   (8)
 *   GEMM_FAST_WM, GEMM_FAST_WN  tile of C per warp (32 work-items)                   (64, 64)
 *   GEMM_FAST_TM, GEMM_FAST_TN  outputs per work-item, multiples of 4                (16, 8)
 *   GEMM_FAST_BAND              block order: band_order() of common.cl, tile columns (8)
 * Few tiles (n = 1024 on 132 SMs): 128/128/8, 32/64, 8/8 with split-K (see duet_sgemm_fast).
 * A CPU (PoCL): 64/64/8, 32/64, 8/8 (64 work-items; 32/32/16, 16/32, 4/4 is as fast).
 * Assumed: TM, TN and BK multiples of 4; (WM/TM) * (WN/TN) = 32 (the layout is made for 32-wide
 * warps, and is correct on any device); BM/4, BN/4 and BK/4 divide the work-group size and each
 * of BM * BK / 4, BN * BK / 4 is a multiple of it (checked by #error).
 * Work-groups:
 *   register: (GEMM_REG_BN / GEMM_REG_TN) x (GEMM_REG_BM / GEMM_REG_TM) work-items.
 *   fast: 1D, 32 * (BM / WM) * (BN / WN) work-items, grid (ceil(n / BN), min(ceil(m / BM),
 *     65535), splits); get_num_groups(2) > 1 is split-K (see duet_sgemm_fast).
 *   splitk_reduce: TRANSPOSE_TILE x TRANSPOSE_ROWS (the copy's block; the kernel itself takes
 *     any 2D work-group and any grid).
 * Local memory (the last, __local argument):
 *   register: (BM + BN) * BK floats.
 *   fast: 2 * BK * (BM + BN + 8) floats (two buffers, rows padded by 4 floats) + 16 bytes:
 *     NVIDIA's OpenCL places a __local argument on a 4-byte boundary only, and the float4
 *     accesses need 16, so the kernel rounds the pointer up (128x128x8: 16656 bytes).
 * No kernel assumes divisibility: any m, n, k >= 1 and any ld. 16-byte loads and stores are used
 * only where the base pointer is 16-byte aligned and the ld a multiple of 4; everything else
 * takes a scalar path into the same local layout. Out-of-matrix parts of a tile are zero-filled
 * in local memory, and C is written only inside its m x n elements. k == 0 and alpha == 0 never
 * reach these kernels. Plain OpenCL C 1.2: no vendor extension is needed. */
#ifndef GEMM_REG_BM
#define GEMM_REG_BM 128
#endif
#ifndef GEMM_REG_BN
#define GEMM_REG_BN 128
#endif
#ifndef GEMM_REG_BK
#define GEMM_REG_BK 8
#endif
#ifndef GEMM_REG_TM
#define GEMM_REG_TM 8
#endif
#ifndef GEMM_REG_TN
#define GEMM_REG_TN 8
#endif
#ifndef GEMM_FAST_BM
#define GEMM_FAST_BM 256
#endif
#ifndef GEMM_FAST_BN
#define GEMM_FAST_BN 128
#endif
#ifndef GEMM_FAST_BK
#define GEMM_FAST_BK 8
#endif
#ifndef GEMM_FAST_WM
#define GEMM_FAST_WM 64
#endif
#ifndef GEMM_FAST_WN
#define GEMM_FAST_WN 64
#endif
#ifndef GEMM_FAST_TM
#define GEMM_FAST_TM 16
#endif
#ifndef GEMM_FAST_TN
#define GEMM_FAST_TN 8
#endif
#ifndef GEMM_FAST_BAND
#define GEMM_FAST_BAND 8
#endif

/* ------------------------------------------------------------------------------------------ */
/* register: 2D register blocking (the course step after local-memory tiling).                 */

#define REG_NX (GEMM_REG_BN / GEMM_REG_TN)
#define REG_NY (GEMM_REG_BM / GEMM_REG_TM)
#define REG_NT (REG_NX * REG_NY)
#if (GEMM_REG_BM * GEMM_REG_BK) % REG_NT || (GEMM_REG_BK * GEMM_REG_BN) % REG_NT
#error "register: each work-item must load whole shares of the tiles"
#endif

inline void sgemm_register_body(int ta, int tb, idx_t m, idx_t n, idx_t k, float alpha,
                                __global const float *restrict a, idx_t lda,
                                __global const float *restrict b, idx_t ldb, float beta,
                                __global float *restrict c, idx_t ldc, __local float *smem) {
  const int BM = GEMM_REG_BM, BN = GEMM_REG_BN, BK = GEMM_REG_BK, TM = GEMM_REG_TM,
            TN = GEMM_REG_TN;
  __local float *as = smem; /* BM x BK, row-major: as[r * BK + p] = op(A)(m0 + r, p0 + p) */
  __local float *bs =
      smem + BM * BK; /* BK x BN, row-major: bs[p * BN + q] = op(B)(p0 + p, n0 + q) */
  const int tx = get_local_id(0), ty = get_local_id(1), t = ty * REG_NX + tx;
  const idx_t n0 = (idx_t)get_group_id(0) * BN;
  FOR_EACH_TILE_Y(tile, m, GEMM_REG_BM) {
    const idx_t m0 = tile * BM;
    float acc[GEMM_REG_TM][GEMM_REG_TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
      for (int j = 0; j < TN; j++) acc[i][j] = 0.0f;

    for (idx_t p0 = 0; p0 < k; p0 += BK) {
      /* All work-items copy the two tiles; consecutive work-items take consecutive elements of
       * the dimension that is contiguous in memory (k for A, m for A^T), so the loads coalesce.
       * Elements outside the matrices become zeros. */
#pragma unroll
      for (int l = 0; l < GEMM_REG_BM * GEMM_REG_BK / REG_NT; l++) {
        const int e = t + l * REG_NT;
        const int r = ta ? e % BM : e / BK, p = ta ? e / BM : e % BK;
        const operand ar = row_of_op(ta, m0 + r, lda);
        as[r * BK + p] = (m0 + r < m && p0 + p < k) ? a[ar.base + (p0 + p) * ar.step] : 0.0f;
      }
#pragma unroll
      for (int l = 0; l < GEMM_REG_BK * GEMM_REG_BN / REG_NT; l++) {
        const int e = t + l * REG_NT;
        const int p = tb ? e % BK : e / BN, q = tb ? e / BK : e % BN;
        const operand bc = col_of_op(tb, n0 + q, ldb);
        bs[p * BN + q] = (p0 + p < k && n0 + q < n) ? b[bc.base + (p0 + p) * bc.step] : 0.0f;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      /* Each work-item: TM values of A and TN values of B per step p give TM * TN products. */
#pragma unroll
      for (int p = 0; p < BK; p++) {
        float af[GEMM_REG_TM], bf[GEMM_REG_TN];
#pragma unroll
        for (int i = 0; i < TM; i++) af[i] = as[(ty * TM + i) * BK + p];
#pragma unroll
        for (int j = 0; j < TN; j++) bf[j] = bs[p * BN + tx * TN + j];
#pragma unroll
        for (int i = 0; i < TM; i++)
#pragma unroll
          for (int j = 0; j < TN; j++) acc[i][j] += af[i] * bf[j];
      }
      /* The next step overwrites both tiles: wait until every work-item is done with them. */
      barrier(CLK_LOCAL_MEM_FENCE);
    }
#pragma unroll
    for (int i = 0; i < TM; i++) {
      const idx_t row = m0 + ty * TM + i;
#pragma unroll
      for (int j = 0; j < TN; j++) {
        const idx_t col = n0 + tx * TN + j;
        if (row < m && col < n) store_c(c, row * ldc + col, alpha, acc[i][j], beta);
      }
    }
  }
}

#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemm_register)
__kernel __attribute__((reqd_work_group_size(REG_NX, REG_NY, 1))) void duet_sgemm_register(
    duet__gemm_scalars s, __global const float *restrict a, __global const float *restrict b,
    __global float *restrict c, __local float *smem) {
  sgemm_register_body(GEMM_SCALARS_AROUND(s, a, b, c), smem);
}
#endif

/* ------------------------------------------------------------------------------------------ */
/* fast                                                                                        */

#define FAST_WARPS_N (GEMM_FAST_BN / GEMM_FAST_WN)
#define FAST_NT (32 * (GEMM_FAST_BM / GEMM_FAST_WM) * FAST_WARPS_N)
#define FAST_LM (GEMM_FAST_WM / GEMM_FAST_TM) /* lanes of a warp along m */
#define FAST_LN (GEMM_FAST_WN / GEMM_FAST_TN) /* lanes of a warp along n */
#define FAST_SA (GEMM_FAST_BM + 4)            /* local row strides: rows padded by 4 floats */
#define FAST_SB (GEMM_FAST_BN + 4)
#define FAST_TILE (GEMM_FAST_BK * (FAST_SA + FAST_SB))      /* floats in one buffer */
#define FAST_GA (GEMM_FAST_BM * GEMM_FAST_BK / 4 / FAST_NT) /* float4 groups per item */
#define FAST_GB (GEMM_FAST_BN * GEMM_FAST_BK / 4 / FAST_NT)
#if FAST_LM * FAST_LN != 32
#error "fast: a warp's 32 lanes must tile the warp tile exactly"
#endif
#if GEMM_FAST_TM % 4 || GEMM_FAST_TN % 4 || GEMM_FAST_BK % 4
#error "fast: micro-tiles are made of 4 x 4 pieces, and BK a multiple of 4"
#endif
#if GEMM_FAST_BM % GEMM_FAST_WM || GEMM_FAST_BN % GEMM_FAST_WN
#error "fast: warp tiles must tile the block tile"
#endif
#if (GEMM_FAST_BM * GEMM_FAST_BK / 4) % FAST_NT || (GEMM_FAST_BN * GEMM_FAST_BK / 4) % FAST_NT
#error "fast: each work-item loads whole float4 groups"
#endif

/* One operand tile of R rows (along m for A, n for B) by BK (along k), loaded by FAST_NT
 * work-items as float4 groups of 4 consecutive elements in memory, G groups per work-item, and
 * stored k-major in local memory with a row stride of SR = R + 4 floats: s[p * SR + r]. The
 * inner loop reads it as float4s along m (A, hence "A transposed") or along n (B).
 *   kcont (A when !ta, B when tb): memory runs along k. Group g is k offset 4 * (g % (BK/4)),
 *     row g / (BK/4): a warp reads whole 32-byte row pieces (BK = 8: 16 rows x 2 groups), and
 *     transposes them into local memory with 4 scalar stores each; the 4-float pad puts the
 *     two k offsets of a warp 16 banks apart, so the stores are conflict-free. An item's groups
 *     sit 4 * NT / BK rows apart.
 *   otherwise (A^T, B): memory runs along m or n. Group g is k offset g / (R/4), row offset
 *     4 * (g % (R/4)): a warp reads 512 contiguous bytes and stores one float4, conflict-free.
 *     R/4 divides NT, so an item's groups share their rows and sit NT / (R/4) k apart. */
#define LOADER_DG(kcont, R) ((kcont) ? 4 * FAST_NT / GEMM_FAST_BK : FAST_NT / ((R) / 4))
#if FAST_NT % (GEMM_FAST_BM / 4) || FAST_NT % (GEMM_FAST_BN / 4)
#error "fast: BM/4 and BN/4 must divide the work-group size"
#endif
typedef struct {
  __global const float *src; /* this item's first group in the current k tile */
  idx_t gstep;               /* pointer distance from one of its groups to the next */
  idx_t step;                /* pointer step from one k tile to the next */
  int at;                    /* where the first group goes in the local tile */
  int kq;                    /* its k offset inside the tile */
  int valid;                 /* kcont: how many of its groups have their row inside the matrix
                                (0..G); else: how many of its 4 rows exist (0..4) */
} tile_loader;

inline tile_loader loader_init(const bool kcont, const int R, const int G, __global const float *x,
                               idx_t ld, idx_t row0, idx_t rows, idx_t kbeg, int t) {
  const int BK = GEMM_FAST_BK, SR = R + 4, DG = LOADER_DG(kcont, R);
  tile_loader L;
  if (kcont) {
    const int q = 4 * (t % (BK / 4)), r = t / (BK / 4);
    const idx_t rl = rows - (row0 + r); /* rows left from this item's first */
    L.at = q * SR + r;
    L.kq = q;
    L.valid = rl <= 0 ? 0 : (rl >= (idx_t)(G - 1) * DG + 1 ? G : (int)((rl + DG - 1) / DG));
    L.src = x + (row0 + r) * ld + kbeg + q;
    L.gstep = (idx_t)DG * ld;
    L.step = BK;
  } else {
    const int r = 4 * (t % (R / 4)), q = t / (R / 4);
    const idx_t rl = rows - (row0 + r);
    L.at = q * SR + r;
    L.kq = q;
    L.valid = rl >= 4 ? 4 : (rl <= 0 ? 0 : (int)rl);
    L.src = x + (kbeg + q) * ld + row0 + r;
    L.gstep = (idx_t)DG * ld;
    L.step = (idx_t)BK * ld;
  }
  return L;
}

/* Load one k tile, of which the first kl (1..BK) k indices exist; vec: 16-byte loads allowed
 * (aligned base and ld % 4 == 0). Zeros outside the matrix. */
inline void loader_load(const bool kcont, const int R, const int G, float4 *v, int kl, bool vec,
                        const tile_loader *L) {
  const int DG = LOADER_DG(kcont, R);
  for (int l = 0; l < G; l++) { /* G is a constant once inlined: the loop unrolls */
    __global const float *s = L->src + l * L->gstep;
    const int q = kcont ? L->kq : L->kq + l * DG;
    /* e: how many of the group's 4 elements exist */
    const int e = kcont ? (l < L->valid ? min(4, max(0, kl - q)) : 0) : (q < kl ? L->valid : 0);
    if (e == 4) {
      if (vec) /* aligned: a float4 load (vload4 compiles to 4 scalar loads on NVIDIA) */
        v[l] = *(__global const float4 *)s;
      else
        v[l] = (float4)(s[0], s[1], s[2], s[3]);
    } else { /* the k tail, the last rows of m or n, or outside */
      v[l].x = e > 0 ? s[0] : 0.0f;
      v[l].y = e > 1 ? s[1] : 0.0f;
      v[l].z = e > 2 ? s[2] : 0.0f;
      v[l].w = 0.0f;
    }
  }
}

/* Load a k tile known to lie wholly inside the matrix (interior work-groups, all but the last
 * k tile): no guard, so no branch in the loop. vec: 16-byte loads, else 4 scalar ones. */
inline void loader_load_full(const bool vec, const int G, float4 *v, const tile_loader *L) {
  for (int l = 0; l < G; l++) { /* G is a constant once inlined: the loop unrolls */
    __global const float *s = L->src + l * L->gstep;
    v[l] = vec ? *(__global const float4 *)s : (float4)(s[0], s[1], s[2], s[3]);
  }
}

/* Store the loaded groups into the k-major tile s[p * SR + r]. */
inline void loader_store(const bool kcont, const int R, const int G, __local float *s,
                         const float4 *v, const tile_loader *L) {
  const int SR = R + 4, DG = LOADER_DG(kcont, R);
  for (int l = 0; l < G; l++) { /* G is a constant once inlined: the loop unrolls */
    if (kcont) {
      __local float *d = s + L->at + l * DG;
      d[0 * SR] = v[l].x;
      d[1 * SR] = v[l].y;
      d[2 * SR] = v[l].z;
      d[3 * SR] = v[l].w;
    } else {
      *(__local float4 *)(s + L->at + l * DG * SR) = v[l];
    }
  }
}

/* C(row, col..col+3) of this item's 4-wide piece: alpha * acc + beta * C, beta == 0 never
 * reading C, only columns < n written. */
inline void store_c4(__global float *restrict c, idx_t row, idx_t col, idx_t n, idx_t ldc, bool vec,
                     float alpha, float4 v, float beta) {
  __global float *d = c + row * ldc + col;
  if (vec && col + 3 < n) {
    float4 o = alpha * v;
    if (beta != 0.0f) o += beta * *(__global const float4 *)d;
    *(__global float4 *)d = o;
  } else {
    const float e[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int j = 0; j < 4; j++)
      if (col + j < n) store_c(d, j, alpha, e[j], beta);
  }
}

/* How the k loop loads: GUARDED (any tile), FULL_VEC and FULL_SCALAR (tiles wholly inside the
 * matrix, with and without 16-byte loads). */
#define GUARDED 0
#define FULL_VEC 1
#define FULL_SCALAR 2

/* k tiles *kt .. kt_end-1, each: prefetch the next one into registers, multiply this one, store
 * the next one into the other buffer, barrier. mode picks the loads of the prefetch. */
inline void k_tiles(const bool KA, const bool KB, const int mode, int *kt, int kt_end, int nk,
                    idx_t kbeg, idx_t kend, __local float *smem, tile_loader *la, tile_loader *lb,
                    float4 *ra, float4 *rb, bool va, bool vb, bool active, int am, int bn,
                    float acc[GEMM_FAST_TM][GEMM_FAST_TN]) {
  const int BM = GEMM_FAST_BM, BN = GEMM_FAST_BN, BK = GEMM_FAST_BK, TM = GEMM_FAST_TM,
            TN = GEMM_FAST_TN, LM = FAST_LM, LN = FAST_LN;
  for (; *kt < kt_end; (*kt)++) {
    const int k0 = *kt;
    __local float *cur = smem + (k0 & 1) * FAST_TILE, *nxt = smem + ((k0 & 1) ^ 1) * FAST_TILE;
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
        loader_load_full(mode == FULL_VEC, FAST_GA, ra, la);
        loader_load_full(mode == FULL_VEC, FAST_GB, rb, lb);
      }
    }
    if (active) {
      __local const float *as = cur + am, *bs = cur + BK * FAST_SA + bn;
#pragma unroll
      for (int p = 0; p < BK; p++) {
        float af[GEMM_FAST_TM], bf[GEMM_FAST_TN];
#pragma unroll
        for (int i = 0; i < TM / 4; i++) {
          const float4 v = *(__local const float4 *)(as + p * FAST_SA + i * 4 * LM);
          af[4 * i + 0] = v.x;
          af[4 * i + 1] = v.y;
          af[4 * i + 2] = v.z;
          af[4 * i + 3] = v.w;
        }
#pragma unroll
        for (int j = 0; j < TN / 4; j++) {
          const float4 v = *(__local const float4 *)(bs + p * FAST_SB + j * 4 * LN);
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
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

/* This work-item's place in the work-group: its warp's tile and the first row / column it
 * reads. */
typedef struct {
  int t, wm0, wn0, am, bn;
} lane_place;
inline lane_place lane_place_of(void) {
  const int t = get_local_id(0), lane = t & 31, warp = t >> 5;
  lane_place me;
  me.t = t;
  me.wm0 = (warp / FAST_WARPS_N) * GEMM_FAST_WM;
  me.wn0 = (warp % FAST_WARPS_N) * GEMM_FAST_WN;
  me.am = me.wm0 + 4 * (lane / FAST_LN);
  me.bn = me.wn0 + 4 * (lane % FAST_LN);
  return me;
}

/* acc = the product of op(A)'s rows m0.. and op(B)'s columns n0.. over k in [kbeg, kend)
 * (kbeg a multiple of BK), for this item's micro-tile. Starts and ends with the local buffers
 * free: every item has passed the last barrier. m_read >= m and n_read >= n: the rows of op(A)
 * and columns of op(B) that exist in memory (more than m and n where the core padded a packed
 * copy to whole tiles). Rows and columns past m and n feed only accumulators that are never
 * stored, so a tile inside m_read x n_read loads without guards, whatever they hold. */
inline void mac_tile(const bool KA, const bool KB, lane_place me, idx_t m, idx_t n, idx_t m_read,
                     idx_t n_read, idx_t m0, idx_t n0, idx_t kbeg, idx_t kend,
                     __global const float *restrict a, idx_t lda, bool va,
                     __global const float *restrict b, idx_t ldb, bool vb, __local float *smem,
                     float acc[GEMM_FAST_TM][GEMM_FAST_TN]) {
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
  barrier(CLK_LOCAL_MEM_FENCE);

  /* Work-groups inside what may be read prefetch k tiles 1 .. nk-2 without guards (only the last
   * k tile can be partial); everything else, and the last steps, go through the guarded loads. */
  int kt = 0;
  if (m0 + BM <= m_read && n0 + BN <= n_read) {
    if (va && vb)
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
inline void store_tile(lane_place me, idx_t m, idx_t n, idx_t m0, idx_t n0,
                       __global float *restrict c, idx_t ldc, bool vc, float alpha, float beta,
                       float acc[GEMM_FAST_TM][GEMM_FAST_TN]) {
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
          const float4 v = (float4)(acc[4 * i + ii][4 * j + 0], acc[4 * i + ii][4 * j + 1],
                                    acc[4 * i + ii][4 * j + 2], acc[4 * i + ii][4 * j + 3]);
          store_c4(c, row, n0 + bn + j * 4 * LN, n, ldc, vc, alpha, v, beta);
        }
      }
    }
}

/* float4s of the local pointer rounded up into the 16 bytes of slack the launch adds: NVIDIA's
 * OpenCL gives a __local argument a 4-byte boundary only (float4 accesses then fault as
 * CL_OUT_OF_RESOURCES). */
inline __local float *align16(__local float *p) {
  return (__local float *)(((uintptr_t)p + 15) & ~(uintptr_t)15);
}

/* The grid of tiles: one work-group per tile (a y grid-stride loop past the 65535 cap), or
 * split-K slices over get_num_groups(2). */
inline void fast_tiles(const bool KA, const bool KB, idx_t m, idx_t n, idx_t k, float alpha,
                       __global const float *restrict a, idx_t lda,
                       __global const float *restrict b, idx_t ldb, float beta,
                       __global float *restrict c, idx_t ldc, idx_t m_read, idx_t n_read,
                       __local float *smem) {
  const int BM = GEMM_FAST_BM, BN = GEMM_FAST_BN, BK = GEMM_FAST_BK;
  smem = align16(smem);
  /* Split-K (common.cl): the slices are whole BK steps of k. */
  const k_range ks = splitk_slice(k, BK, m, ldc, &c, &alpha, &beta);
  const idx_t kbeg = ks.beg, kend = ks.end;
  const bool va = (lda & 3) == 0 && ((uintptr_t)a & 15) == 0;
  const bool vb = (ldb & 3) == 0 && ((uintptr_t)b & 15) == 0;
  const bool vc = (ldc & 3) == 0 && ((uintptr_t)c & 15) == 0;

  /* Block order: a bijection of the grid, BAND tile columns at a time, so the work-groups
   * resident at once share A and B panels in L2. The y grid-stride loop below then steps from
   * the swizzled row, which keeps every tile covered once however num_groups(1) was capped. */
  const tile_xy sw = band_order(GEMM_FAST_BAND);
  const idx_t n0 = (idx_t)sw.x * BN;
  const lane_place me = lane_place_of();
  for (idx_t ty = sw.y; ty * BM < m; ty += get_num_groups(1)) {
    float acc[GEMM_FAST_TM][GEMM_FAST_TN];
    mac_tile(KA, KB, me, m, n, m_read, n_read, ty * BM, n0, kbeg, kend, a, lda, va, b, ldb, vb,
             smem, acc);
    store_tile(me, m, n, ty * BM, n0, c, ldc, vc, alpha, beta, acc);
  }
}

/* A work-item's micro-tile as a partial product in a workspace slot of BM * BN floats, float4 g
 * of item t at float4 g * NT + t (coalesced), so that item t of the summing group reads exactly
 * what item t of each publishing group wrote. Read back through volatile pointers: another
 * work-group wrote it during this launch, and a cached copy must not serve the read. `add`:
 * acc += the slot, else acc = the slot. */
inline void put_partial(__global float *slot, float acc[GEMM_FAST_TM][GEMM_FAST_TN]) {
  const int TN = GEMM_FAST_TN;
  __global float4 *dst = (__global float4 *)slot + get_local_id(0);
#pragma unroll
  for (int g = 0; g < GEMM_FAST_TM * GEMM_FAST_TN / 4; g++) {
    const int i = g / (TN / 4), j = 4 * (g % (TN / 4));
    dst[g * FAST_NT] = (float4)(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
  }
}
inline void get_partial(__global const float *slot, bool add,
                        float acc[GEMM_FAST_TM][GEMM_FAST_TN]) {
  const int TN = GEMM_FAST_TN;
  volatile __global const float4 *src = (volatile __global const float4 *)slot + get_local_id(0);
#pragma unroll
  for (int g = 0; g < GEMM_FAST_TM * GEMM_FAST_TN / 4; g++) {
    const int i = g / (TN / 4), j = 4 * (g % (TN / 4));
    const float4 v = src[g * FAST_NT];
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
/* Whether stream-K group g owns an iteration: its range [g * iters / units, (g + 1) * iters /
 * units) is empty where there are fewer iterations than groups. */
inline bool sk_owns(idx_t g, idx_t iters, uint units) {
  return (g + 1) * iters / units > g * iters / units;
}
/* Takes a ticket on a tile's flag and returns the flag as it was, a flag of another epoch
 * counting as zero. */
inline int sk_take_ticket(__global int *flag, int epoch) {
  int old = atomic_add(flag, 0);
  for (;;) {
    const int cur = old / SK_FLAG_EPOCH == epoch ? old : epoch * SK_FLAG_EPOCH;
    const int seen = atomic_cmpxchg(flag, old, cur + 1);
    if (seen == old) return cur;
    old = seen;
  }
}
/* A work-item's part of a partial, published: its own stores, its own fence, then its own stamp
 * (the launch's epoch). OpenCL 1.2 orders a fence within one work-item only, so no work-item
 * may publish another's stores: a barrier and one work-item's atomic do not make the group's
 * stores visible to other groups first. */
inline void sk_publish(__global float *slot, __global int *stamp, int epoch,
                       float acc[GEMM_FAST_TM][GEMM_FAST_TN]) {
  put_partial(slot, acc);
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  atomic_xchg(stamp, epoch);
}
/* Waits until the work-item of the same place in the group that wrote `slot` has stamped it with
 * this launch's epoch, then reads it (acc = or += it) and clears the stamp for the next launch. */
inline void sk_consume(__global const float *slot, __global int *stamp, int epoch, bool add,
                       float acc[GEMM_FAST_TM][GEMM_FAST_TN]) {
  while (atomic_add(stamp, 0) != epoch) {
  }
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  get_partial(slot, add, acc);
  *stamp = 0;
}

/* Stream-K (1D grid of num_groups(0) work-groups, `units` of them stream-K groups): C's T tiles
 * in band order, the first num_groups(0) - units whole, one per group; the other S tiles' k
 * iterations (S * ceil(k / BK) of them, nk per tile) cut into `units` equal ranges, one per
 * stream-K group, so that the last wave of tiles keeps every compute unit busy instead of
 * leaving some idle. A tile whose k iterations fall to c groups is summed by the last of them to
 * take its ticket: the others write their partial products to the workspace, each work-item
 * stamping its own part (sk_publish); the last one's work-items each wait for the stamps of the
 * parts they read (sk_consume) and add the partials in k order, so the result does not depend on
 * which finishes last. It waits only for groups that have already taken their ticket, so it needs
 * no group to be resident beside it (PoCL may run them one after another). Where the tiles have
 * fewer iterations than there are groups, some groups' ranges are empty; they take no part in
 * any tile, so a tile counts and sums only the groups between its first and last that own an
 * iteration (sk_owns).
 *   work: units + S slots of BM * BN floats (the partial of tile s by group u is slot u + s,
 *   unique since a later tile starts in the same or a later group); flags: S ints (SK_FLAG_*:
 *   the tickets taken and the call's epoch, 1..SK_EPOCHS), then a stamp per slot and work-item
 *   ((units + S) * NT ints: 0, or the epoch of the launch that published that part). A flag or a
 *   stamp that carries another epoch counts as zero, so one that a failed launch left behind
 *   cannot poison a later call (the core zeroes the flags before an epoch comes round again);
 *   the last group of a tile sets its flag back to zero and clears the stamps it read, so a
 *   launch replayed with the same epoch works too. */
inline void fast_stream_k(const bool KA, const bool KB, idx_t m, idx_t n, idx_t k, float alpha,
                          __global const float *restrict a, idx_t lda,
                          __global const float *restrict b, idx_t ldb, float beta,
                          __global float *restrict c, idx_t ldc, idx_t m_read, idx_t n_read,
                          __local float *smem, uint units, int epoch, __global float *work,
                          __global int *flags, __local int *ticket) {
  const int BM = GEMM_FAST_BM, BN = GEMM_FAST_BN, BK = GEMM_FAST_BK;
  smem = align16(smem);
  const bool va = (lda & 3) == 0 && ((uintptr_t)a & 15) == 0;
  const bool vb = (ldb & 3) == 0 && ((uintptr_t)b & 15) == 0;
  const bool vc = (ldc & 3) == 0 && ((uintptr_t)c & 15) == 0;
  const uint tiles_n = (uint)((n + BN - 1) / BN), tiles_m = (uint)((m + BM - 1) / BM);
  const uint group = (uint)get_group_id(0);
  const uint whole = (uint)get_num_groups(0) - units, s_tiles = tiles_n * tiles_m - whole;
  /* One walk for both kinds of group, over iterations numbered tile by tile in band order: a
   * whole tile's group takes its tile's nk, a stream-K group its share of the rest. */
  const idx_t nk = (k + BK - 1) / BK, iters = (idx_t)s_tiles * nk, base = (idx_t)whole * nk;
  const bool sk = group >= whole;
  const idx_t u = (idx_t)group - whole; /* stream-K groups only */
  const lane_place me = lane_place_of();
  /* this work-item's stamp of slot x: stamps[x * NT] */
  __global int *const stamps = flags + s_tiles + me.t;
  float acc[GEMM_FAST_TM][GEMM_FAST_TN];
  for (idx_t it = sk ? base + u * iters / units : (idx_t)group * nk,
             hi = sk ? base + (u + 1) * iters / units : it + nk;
       it < hi;) {
    const idx_t tile = it / nk, k0 = it - tile * nk, k1 = min(hi - tile * nk, nk);
    const idx_t s = tile - whole; /* its index among the shared tiles */
    const tile_xy p = band_tile((uint)tile, tiles_n, tiles_m, GEMM_FAST_BAND);
    const idx_t m0 = (idx_t)p.y * BM, n0 = (idx_t)p.x * BN;
    mac_tile(KA, KB, me, m, n, m_read, n_read, m0, n0, k0 * BK, min(k, k1 * BK), a, lda, va, b, ldb,
             vb, smem, acc);
    it = tile * nk + k1;
    bool store = true;
    if (k0 > 0 || k1 < nk) {
      /* The groups of this tile's first and last iterations: the group of iteration x is
       * ((x + 1) * units - 1) / iters; between them, those whose range is empty take no part. */
      const idx_t first = ((s * nk + 1) * units - 1) / iters;
      const idx_t last = ((s + 1) * nk * units - 1) / iters;
      int count = 0;
      for (idx_t g = first; g <= last; g++) count += sk_owns(g, iters, units);
      __global int *const flag = flags + s;
      if (me.t == 0) *ticket = sk_take_ticket(flag, epoch);
      barrier(CLK_LOCAL_MEM_FENCE);
      /* The next ticket is taken after mac_tile's barriers: every item has read this one. */
      store = (*ticket & SK_FLAG_COUNT) + 1 >= count; /* the last to take a ticket sums */
      __global float *const slot = work + (idx_t)BM * BN * (u + s); /* this group's partial */
      if (!store) {
        sk_publish(slot, stamps + (u + s) * FAST_NT, epoch, acc);
      } else {
        /* The first group of a tile reaches it at the end of its range, after the others, so
         * it is mostly the last, and its own partial is the sum's first term; any other puts
         * its own in its slot (its work-items read back only what they wrote) and starts from
         * the first's. */
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
        if (me.t == 0) *flag = 0; /* every group of the tile has taken its ticket */
      }
    }
    if (store) store_tile(me, m, n, m0, n0, c, ldc, vc, alpha, beta, acc);
  }
}

#define FAST_BY_TRANSPOSES(CALL) \
  do {                           \
    if (!ta) {                   \
      if (!tb)                   \
        CALL(true, false);       \
      else                       \
        CALL(true, true);        \
    } else {                     \
      if (!tb)                   \
        CALL(false, false);      \
      else                       \
        CALL(false, true);       \
    }                            \
  } while (0)

/* fast: C = alpha * op(A) * op(B) + beta * C, on the matrices that start a_off, b_off and c_off
 * floats into their buffers (a piece of C, as the core's strip plans take; OpenCL 1.2 cannot
 * offset a buffer on the host without sub-buffer alignment rules), reading up to m_read >= m rows
 * of op(A) and n_read >= n columns of op(B) (mac_tile).
 * get_num_groups(2) == 1: BLAS semantics, beta == 0 never reads C.
 * get_num_groups(2) > 1 (split-K): slice z takes k in [z * kc, min(k, (z + 1) * kc)),
 *   kc = ceil(k / splits) rounded up to a multiple of BK, and writes acc to c + z * m * ldc (a
 *   workspace; alpha and beta are ignored and C not read); then duet_sgemm_splitk_reduce adds
 *   the slices into C with alpha and beta.
 * The transposes decide which loader runs (memory along k or along m/n): one copy of the body per
 * combination, so the inner loops carry no branch on them. */
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemm_fast)
__kernel __attribute__((reqd_work_group_size(FAST_NT, 1, 1))) void duet_sgemm_fast(
    int ta, int tb, idx_t m, idx_t n, idx_t k, float alpha, __global const float *restrict a,
    idx_t a_off, idx_t lda, __global const float *restrict b, idx_t b_off, idx_t ldb, float beta,
    __global float *restrict c, idx_t c_off, idx_t ldc, idx_t m_read, idx_t n_read,
    __local float *smem) {
  a += a_off;
  b += b_off;
  c += c_off;
#define TILES(KA, KB) \
  fast_tiles(KA, KB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, m_read, n_read, smem)
  FAST_BY_TRANSPOSES(TILES);
#undef TILES
}
#endif

/* fast over a stream-K grid: the same, BLAS semantics, over a 1D grid whose last `units`
 * work-groups share the last tiles' k iterations (fast_stream_k; `work` their partial products,
 * `flags` their tickets and stamps; units_epoch: the units in its low 32 bits, the call's epoch
 * above). Its own kernels, as in CUDA, where one function for both grids cost the tiled one 4% at
 * 4096, and one per transpose combination, named for it (ta and tb, passed so that every fast
 * kernel takes one argument list, must be the name's): in one function for all four, CUDA's
 * stream-K kernel ran 5% slower at 2048 (H100). */
#define FAST_SK_KERNEL(NAME, KA, KB)                                                              \
  __kernel __attribute__((reqd_work_group_size(FAST_NT, 1, 1))) void NAME(                        \
      int ta, int tb, idx_t m, idx_t n, idx_t k, float alpha, __global const float *restrict a,   \
      idx_t a_off, idx_t lda, __global const float *restrict b, idx_t b_off, idx_t ldb,           \
      float beta, __global float *restrict c, idx_t c_off, idx_t ldc, idx_t m_read, idx_t n_read, \
      idx_t units_epoch, __global float *work, __global int *flags, __local float *smem) {        \
    __local int ticket;                                                                           \
    fast_stream_k(KA, KB, m, n, k, alpha, a + a_off, lda, b + b_off, ldb, beta, c + c_off, ldc,   \
                  m_read, n_read, smem, (uint)(units_epoch & 0xffffffff),                         \
                  (int)(units_epoch >> 32), work, flags, &ticket);                                \
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
 * reads C). One work-item per element, any 2D work-group, grid-stride in both directions. */
#ifndef TRANSPOSE_TILE
#define TRANSPOSE_TILE 32
#endif
#ifndef TRANSPOSE_ROWS
#define TRANSPOSE_ROWS 8
#endif
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemm_splitk_reduce)
__kernel BLOCK(TRANSPOSE_TILE, TRANSPOSE_ROWS) void duet_sgemm_splitk_reduce(
    idx_t m, idx_t n, int splits, __global const float *restrict work, float alpha, float beta,
    __global float *restrict c, idx_t c_off, idx_t ldc) {
  const idx_t slab = m * n;
  c += c_off;
  for (idx_t i = get_global_id(1); i < m; i += get_global_size(1))
    for (idx_t j = get_global_id(0); j < n; j += get_global_size(0)) {
      __global const float *w = work + i * n + j;
      float s = 0.0f;
      for (int z = 0; z < splits; z++) s += w[z * slab];
      store_c(c, i * ldc + j, alpha, s, beta);
    }
}
#endif
