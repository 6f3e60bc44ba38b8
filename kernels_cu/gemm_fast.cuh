/* SPDX-License-Identifier: MIT */
/* SGEMM, the two fast steps: "register" (2D register blocking) and "fast" (everything that gets
 * to cuBLAS). Row-major C = alpha * op(A) * op(B) + beta * C, op(A) m x k, op(B) k x n.
 * Device-side bodies only: the __global__ wrappers and the launch geometry live elsewhere.
 * Include after common.cuh (idx_t, operand, row_of_op, col_of_op, store_c, band_order).
 * kernels_cl/gemm_fast.cl holds the OpenCL twins; the two files follow the same lines.
 *
 * register<BM, BN, BK, TM, TN>
 *   block (BN/TN) x (BM/TM) threads (blockDim.x = BN/TN, blockDim.y = BM/TM), one BM x BN tile
 *   of C, each thread a TM x TN micro-tile in registers, BK-deep steps through shared memory.
 *   Shared memory (dynamic): (BM + BN) * BK floats = sgemm_register_smem<...>() bytes.
 *   Needs BM*BK and BK*BN to be multiples of the thread count.
 *
 * fast<BM, BN, BK, WM, WN, TM, TN, BAND>
 *   1D block of sgemm_fast_threads<...>() = 32 * (BM/WM) * (BN/WN) threads: one warp per
 *   WM x WN warp tile, a warp's 32 lanes as (WM/TM) x (WN/TN), each lane TM x TN outputs taken as
 *   (TM/4) x (TN/4) sub-tiles of 4 x 4 spaced 4*(WM/TM) rows and 4*(WN/TN) columns apart, so that
 *   the inner loop reads shared memory in float4s that the lanes of a warp share or that lie side
 *   by side. BAND: block order (common.cuh's band_order), BAND tile columns at a time.
 *   Shared memory (dynamic): two buffers of BK * (BM + 4 + BN + 4) floats (rows padded by 4
 *     floats) and 16 bytes of slack:
 *     sgemm_fast_smem<...>() = 2 * BK * (BM + BN + 8) * 4 + 16 bytes (256x128x8: 25104 bytes).
 *     The slack is for the OpenCL twin, whose __local argument may start on a 4-byte boundary
 *     (it rounds its pointer up); CUDA's dynamic shared memory is aligned already.
 *   Wrapper: __launch_bounds__(sgemm_fast_threads<...>(), sgemm_fast_min_blocks<...>()).
 *   Split-K over gridDim.z (see sgemm_fast_body).
 *   H100 (measured, docs/results/h100.md): <256, 128, 8, 64, 64, 16, 8, 8>, 256 threads, one block
 *   per SM (253 registers, no spill); where that gives fewer tiles than SMs (n = 1024):
 *   <128, 128, 8, 32, 64, 8, 8, 16>, 256 threads, two blocks per SM, with 4-way split-K.
 *   Assumed (static_assert): TM, TN, BK multiples of 4; (WM/TM) * (WN/TN) = 32; BM/4 and BN/4
 *   divide the thread count, and BM * BK / 4, BN * BK / 4 are multiples of it.
 *
 * No kernel assumes divisibility: any m, n, k >= 1 and any ld. 16-byte loads and stores are used
 * only where the base pointer is 16-byte aligned and the ld a multiple of 4; everything else
 * takes a scalar path into the same shared layout. Out-of-matrix parts of a tile are zero-filled
 * in shared memory, and C is written only inside its m x n elements. k == 0 and alpha == 0 never
 * reach these kernels. */
#ifndef DUET_CU_GEMM_FAST_CUH
#define DUET_CU_GEMM_FAST_CUH

#include <stdint.h>

/* Split-K, where the grid has slices along z (kernels/builtin.h has the same for the kernels
 * written once, with pointers for the references): slice z takes k in [beg, end) =
 * [z * kc, min(k, (z + 1) * kc)), kc = ceil(k / slices) rounded up to a multiple of `step`, and
 * writes its partial product into its own m x ldc slab of the workspace, so c moves there,
 * alpha becomes 1 and beta 0: the reduction applies alpha and beta once, to the whole sum, as
 * BLAS does (alpha = 3e38 on each slice overflows where it does not on the sum, and alpha = inf
 * makes inf - inf of slices of either sign). With one slice: all of k, and c, alpha and beta as
 * they are. */
struct k_range {
  idx_t beg, end;
};
__device__ __forceinline__ k_range splitk_slice(idx_t k, int step, idx_t m, idx_t ldc,
                                                float *__restrict__ &c, float &alpha, float &beta) {
  const int slices = gridDim.z;
  k_range r = {0, k};
  if (slices > 1) {
    const idx_t kc = ((k + slices - 1) / slices + step - 1) / step * step;
    r.beg = min(k, (idx_t)blockIdx.z * kc);
    r.end = min(k, r.beg + kc);
    c += (idx_t)blockIdx.z * m * ldc;
    alpha = 1.0f;
    beta = 0.0f;
  }
  return r;
}

/* ------------------------------------------------------------------------------------------ */
/* register: 2D register blocking (the course step after shared-memory tiling).                */

template <int BM, int BN, int BK, int TM, int TN>
__host__ __device__ constexpr int sgemm_register_threads() {
  return (BM / TM) * (BN / TN);
}
/* Dynamic shared memory in bytes: an A tile of BM x BK and a B tile of BK x BN floats. */
template <int BM, int BN, int BK, int TM, int TN>
__host__ __device__ constexpr size_t sgemm_register_smem() {
  return (size_t)(BM + BN) * BK * sizeof(float);
}

template <int BM, int BN, int BK, int TM, int TN>
__device__ __forceinline__ void sgemm_register_body(int ta, int tb, idx_t m, idx_t n, idx_t k,
                                                    float alpha, const float *__restrict__ a,
                                                    idx_t lda, const float *__restrict__ b,
                                                    idx_t ldb, float beta, float *__restrict__ c,
                                                    idx_t ldc, float *smem) {
  constexpr int NX = BN / TN, NY = BM / TM, NT = NX * NY;
  static_assert(BM % TM == 0 && BN % TN == 0, "the micro-tile must divide the tile");
  static_assert((BM * BK) % NT == 0 && (BK * BN) % NT == 0, "each thread loads whole shares");
  float *as = smem;           /* BM x BK, row-major: as[r * BK + p] = op(A)(m0 + r, p0 + p) */
  float *bs = smem + BM * BK; /* BK x BN, row-major: bs[p * BN + q] = op(B)(p0 + p, n0 + q) */
  const int tx = threadIdx.x, ty = threadIdx.y, t = ty * NX + tx;
  const idx_t n0 = (idx_t)blockIdx.x * BN;
  FOR_EACH_TILE_Y(tile, m, BM) {
    const idx_t m0 = tile * BM;
    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
      for (int j = 0; j < TN; j++) acc[i][j] = 0.0f;

    for (idx_t p0 = 0; p0 < k; p0 += BK) {
      /* All threads copy the two tiles; consecutive threads take consecutive elements of the
       * dimension that is contiguous in memory (k for A, m for A^T), so the loads coalesce.
       * Elements outside the matrices become zeros. */
#pragma unroll
      for (int l = 0; l < BM * BK / NT; l++) {
        const int e = t + l * NT;
        const int r = ta ? e % BM : e / BK, p = ta ? e / BM : e % BK;
        const operand ar = row_of_op(ta, m0 + r, lda);
        as[r * BK + p] = (m0 + r < m && p0 + p < k) ? a[ar.base + (p0 + p) * ar.step] : 0.0f;
      }
#pragma unroll
      for (int l = 0; l < BK * BN / NT; l++) {
        const int e = t + l * NT;
        const int p = tb ? e % BK : e / BN, q = tb ? e / BK : e % BN;
        const operand bc = col_of_op(tb, n0 + q, ldb);
        bs[p * BN + q] = (p0 + p < k && n0 + q < n) ? b[bc.base + (p0 + p) * bc.step] : 0.0f;
      }
      __syncthreads();
      /* Each thread: TM values of A and TN values of B per step p give TM * TN products. */
#pragma unroll
      for (int p = 0; p < BK; p++) {
        float af[TM], bf[TN];
#pragma unroll
        for (int i = 0; i < TM; i++) af[i] = as[(ty * TM + i) * BK + p];
#pragma unroll
        for (int j = 0; j < TN; j++) bf[j] = bs[p * BN + tx * TN + j];
#pragma unroll
        for (int i = 0; i < TM; i++)
#pragma unroll
          for (int j = 0; j < TN; j++) acc[i][j] += af[i] * bf[j];
      }
      /* The next step overwrites both tiles: wait until every thread is done with them. */
      __syncthreads();
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

/* ------------------------------------------------------------------------------------------ */
/* fast                                                                                        */

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN>
__host__ __device__ constexpr int sgemm_fast_threads() {
  return 32 * (BM / WM) * (BN / WN);
}
/* Dynamic shared memory in bytes: two buffers, each an A^T tile (BK x (BM + 4)) and a B tile
 * (BK x (BN + 4)), and 16 bytes of alignment slack (see the banner). */
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN>
__host__ __device__ constexpr size_t sgemm_fast_smem() {
  return (size_t)2 * BK * (BM + BN + 8) * sizeof(float) + 16;
}
/* Resident blocks per SM to ask of the compiler: __launch_bounds__(threads, this).
 *   up to 64 accumulators and one float4 of A and of B per thread and k tile: 512 threads per
 *     SM, a cap of 128 registers (128x128x8, 256 threads: 2 blocks);
 *   up to 64 accumulators but more prefetch registers: a cap of about 168 registers;
 *   more accumulators (8 x 16): 256 threads per SM, up to 255 registers. */
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN>
__host__ __device__ constexpr int sgemm_fast_min_blocks() {
  return TM * TN > 64 ? (256 / sgemm_fast_threads<BM, BN, BK, WM, WN, TM, TN>() > 1
                             ? 256 / sgemm_fast_threads<BM, BN, BK, WM, WN, TM, TN>()
                             : 1)
         : (BM + BN) * BK / 4 <= 2 * sgemm_fast_threads<BM, BN, BK, WM, WN, TM, TN>()
             ? 512 / sgemm_fast_threads<BM, BN, BK, WM, WN, TM, TN>()
             : (65536 / 168 / sgemm_fast_threads<BM, BN, BK, WM, WN, TM, TN>() > 1
                    ? 65536 / 168 / sgemm_fast_threads<BM, BN, BK, WM, WN, TM, TN>()
                    : 1);
}

namespace duet_fast {

/* One operand tile of R rows (along m for A, n for B) by BK (along k), loaded by NT threads as
 * float4 groups of 4 consecutive elements in memory, G groups per thread, and stored k-major
 * in shared memory with a row stride of SR = R + 4 floats: s[p * SR + r]. The inner loop reads
 * it as float4s along m (A, hence "A transposed") or along n (B).
 *   KCONT (A when !ta, B when tb): memory runs along k. Group g is k offset 4 * (g % (BK/4)),
 *     row g / (BK/4): a warp reads whole 32-byte row pieces (BK = 8: 16 rows x 2 groups), and
 *     transposes them into shared memory with 4 scalar stores each; the 4-float pad puts the
 *     two k offsets of a warp 16 banks apart, so the stores are conflict-free. A thread's groups
 *     sit 4 * NT / BK rows apart.
 *   otherwise (A^T, B): memory runs along m or n. Group g is k offset g / (R/4), row offset
 *     4 * (g % (R/4)): a warp reads 512 contiguous bytes and stores one float4, conflict-free.
 *     R/4 divides NT, so a thread's groups share their rows and sit NT / (R/4) k apart. */
template <int R, int BK, int NT, bool KCONT>
struct tile_loader {
  static constexpr int G = R * BK / 4 / NT;
  static constexpr int SR = R + 4;                              /* shared row stride */
  static constexpr int DG = KCONT ? 4 * NT / BK : NT / (R / 4); /* rows / k between groups */
  static_assert((R * BK / 4) % NT == 0, "each thread loads whole float4 groups");
  static_assert(KCONT ? NT % (BK / 4) == 0 : NT % (R / 4) == 0, "group layout");
  const float *src; /* this thread's first group in the current k tile */
  idx_t gstep;      /* pointer distance from one of its groups to the next */
  idx_t step;       /* pointer step from one k tile to the next */
  int at;           /* where the first group goes in the shared tile */
  int kq;           /* its k offset inside the tile */
  int valid;        /* KCONT: how many of its groups have their row inside the matrix (0..G);
                       else: how many of its 4 rows exist (0..4) */

  __device__ __forceinline__ void init(const float *x, idx_t ld, idx_t row0, idx_t rows, idx_t kbeg,
                                       int t) {
    if (KCONT) {
      const int q = 4 * (t % (BK / 4)), r = t / (BK / 4);
      const idx_t rl = rows - (row0 + r); /* rows left from this thread's first */
      at = q * SR + r;
      kq = q;
      valid = rl <= 0 ? 0 : (rl >= (idx_t)(G - 1) * DG + 1 ? G : (int)((rl + DG - 1) / DG));
      src = x + (row0 + r) * ld + kbeg + q;
      gstep = (idx_t)DG * ld;
      step = BK;
    } else {
      const int r = 4 * (t % (R / 4)), q = t / (R / 4);
      const idx_t rl = rows - (row0 + r);
      at = q * SR + r;
      kq = q;
      valid = rl >= 4 ? 4 : (rl <= 0 ? 0 : (int)rl);
      src = x + (kbeg + q) * ld + row0 + r;
      gstep = (idx_t)DG * ld;
      step = (idx_t)BK * ld;
    }
  }

  /* Load one k tile, of which the first kl (1..BK) k indices exist; vec: 16-byte loads allowed
   * (aligned base and ld % 4 == 0). Zeros outside the matrix. */
  __device__ __forceinline__ void load(float4 (&v)[G], int kl, bool vec) const {
#pragma unroll
    for (int l = 0; l < G; l++) {
      const float *s = src + l * gstep;
      const int q = KCONT ? kq : kq + l * DG;
      /* e: how many of the group's 4 elements exist */
      const int e = KCONT ? (l < valid ? min(4, max(0, kl - q)) : 0) : (q < kl ? valid : 0);
      if (e == 4) {
        if (vec)
          v[l] = *reinterpret_cast<const float4 *>(s);
        else
          v[l] = make_float4(s[0], s[1], s[2], s[3]);
      } else { /* the k tail, the last rows of m or n, or outside */
        v[l].x = e > 0 ? s[0] : 0.0f;
        v[l].y = e > 1 ? s[1] : 0.0f;
        v[l].z = e > 2 ? s[2] : 0.0f;
        v[l].w = 0.0f;
      }
    }
  }

  /* Load a k tile known to lie wholly inside the matrix (interior blocks, all but the last k
   * tile): no guard, so no branch in the loop. VEC: 16-byte loads, else 4 scalar ones. */
  template <bool VEC>
  __device__ __forceinline__ void load_full(float4 (&v)[G]) const {
#pragma unroll
    for (int l = 0; l < G; l++) {
      const float *s = src + l * gstep;
      v[l] = VEC ? *reinterpret_cast<const float4 *>(s) : make_float4(s[0], s[1], s[2], s[3]);
    }
  }

  __device__ __forceinline__ void advance() { src += step; }

  /* Store the loaded groups into the k-major tile s[p * SR + r]. */
  __device__ __forceinline__ void store(float *s, const float4 (&v)[G]) const {
#pragma unroll
    for (int l = 0; l < G; l++) {
      if (KCONT) {
        float *d = s + at + l * DG;
        d[0 * SR] = v[l].x;
        d[1 * SR] = v[l].y;
        d[2 * SR] = v[l].z;
        d[3 * SR] = v[l].w;
      } else {
        *reinterpret_cast<float4 *>(s + at + l * DG * SR) = v[l];
      }
    }
  }
};

/* How the k loop loads: GUARDED (any tile), FULL_VEC and FULL_SCALAR (tiles wholly inside the
 * matrix, with and without 16-byte loads). */
enum { GUARDED = 0, FULL_VEC = 1, FULL_SCALAR = 2 };
template <int M>
struct load_mode {
  static constexpr int value = M;
};

/* C(row, col..col+3) of this thread's 4-wide piece: alpha * acc + beta * C, beta == 0 never
 * reading C, only columns < n written. */
__device__ __forceinline__ void store_c4(float *__restrict__ c, idx_t row, idx_t col, idx_t n,
                                         idx_t ldc, bool vec, float alpha, float4 v, float beta) {
  float *d = c + row * ldc + col;
  if (vec && col + 3 < n) {
    float4 o = make_float4(alpha * v.x, alpha * v.y, alpha * v.z, alpha * v.w);
    if (beta != 0.0f) {
      const float4 old = *reinterpret_cast<const float4 *>(d);
      o.x += beta * old.x;
      o.y += beta * old.y;
      o.z += beta * old.z;
      o.w += beta * old.w;
    }
    *reinterpret_cast<float4 *>(d) = o;
  } else {
    const float e[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int j = 0; j < 4; j++)
      if (col + j < n) store_c(d, j, alpha, e[j], beta);
  }
}

/* This thread's place in the block: its warp's tile and the first row / column it reads. */
template <int BM, int BN, int WM, int WN, int TM, int TN>
struct lane_place {
  static constexpr int WARPS_N = BN / WN, LM = WM / TM, LN = WN / TN;
  int t, wm0, wn0, am, bn;
  __device__ __forceinline__ lane_place() {
    t = threadIdx.x;
    const int lane = t & 31, warp = t >> 5;
    wm0 = (warp / WARPS_N) * WM;
    wn0 = (warp % WARPS_N) * WN;
    am = wm0 + 4 * (lane / LN);
    bn = wn0 + 4 * (lane % LN);
  }
};

/* acc = the product of op(A)'s rows m0.. and op(B)'s columns n0.. over k in [kbeg, kend)
 * (kbeg a multiple of BK), for this thread's micro-tile. Starts and ends with the shared
 * buffers free: every thread has passed the last barrier. m_read >= m and n_read >= n: the rows
 * of op(A) and columns of op(B) that exist in memory (more than m and n where the core padded a
 * packed copy to whole tiles). Rows and columns past m and n feed only accumulators that are
 * never stored, so a tile inside m_read x n_read loads without guards, whatever they hold. */
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, bool KA, bool KB>
__device__ __forceinline__ void mac_tile(idx_t m, idx_t n, idx_t m_read, idx_t n_read, idx_t m0,
                                         idx_t n0, idx_t kbeg, idx_t kend,
                                         const float *__restrict__ a, idx_t lda, bool va,
                                         const float *__restrict__ b, idx_t ldb, bool vb,
                                         float *smem, float (&acc)[TM][TN]) {
  constexpr int NT = sgemm_fast_threads<BM, BN, BK, WM, WN, TM, TN>();
  constexpr int LM = WM / TM, LN = WN / TN; /* lanes of a warp along m and along n */
  constexpr int SA = BM + 4, SB = BN + 4;   /* shared row strides (tile_loader::SR) */
  constexpr int TILE = BK * (SA + SB);      /* floats in one buffer */
  static_assert(LM * LN == 32, "a warp's 32 lanes must tile the warp tile exactly");
  static_assert(TM % 4 == 0 && TN % 4 == 0, "micro-tiles are made of 4 x 4 pieces");
  static_assert(BM % WM == 0 && BN % WN == 0 && BK % 4 == 0, "tile shapes");
  const lane_place<BM, BN, WM, WN, TM, TN> me;
  const int am = me.am, bn = me.bn;
  const int nk = (int)((kend - kbeg + BK - 1) / BK);
  /* A warp whose whole warp tile lies outside C skips the arithmetic (edge tiles of ragged
   * sizes get cheaper); it still loads and reaches every barrier. */
  const bool active = m0 + me.wm0 < m && n0 + me.wn0 < n;

  tile_loader<BM, BK, NT, KA> la;
  tile_loader<BN, BK, NT, KB> lb;
  la.init(a, lda, m0, m, kbeg, me.t);
  lb.init(b, ldb, n0, n, kbeg, me.t);
  float4 ra[tile_loader<BM, BK, NT, KA>::G], rb[tile_loader<BN, BK, NT, KB>::G];

#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++) acc[i][j] = 0.0f;

  if (nk > 0) {
    const int kl = (int)min((idx_t)BK, kend - kbeg);
    la.load(ra, kl, va);
    lb.load(rb, kl, vb);
    la.store(smem, ra);
    lb.store(smem + BK * SA, rb);
  }
  __syncthreads();

  /* One k tile: prefetch the next one into registers, multiply this one, store the next one
   * into the other buffer, barrier. MODE picks the loads of the prefetch. */
  int kt = 0;
  auto k_tiles = [&](auto mode, int kt_end) {
    constexpr int MODE = decltype(mode)::value;
    for (; kt < kt_end; kt++) {
      float *cur = smem + (kt & 1) * TILE, *nxt = smem + ((kt & 1) ^ 1) * TILE;
      const bool more = MODE != GUARDED || kt + 1 < nk;
      /* Prefetch: the next k tile's loads are in flight while this one is multiplied. */
      if (more) {
        la.advance();
        lb.advance();
        if (MODE == GUARDED) {
          const int kl = (int)min((idx_t)BK, kend - kbeg - (idx_t)(kt + 1) * BK);
          la.load(ra, kl, va);
          lb.load(rb, kl, vb);
        } else {
          la.template load_full<MODE == FULL_VEC>(ra);
          lb.template load_full<MODE == FULL_VEC>(rb);
        }
      }
      if (active) {
        const float *as = cur + am, *bs = cur + BK * SA + bn;
#pragma unroll
        for (int p = 0; p < BK; p++) {
          float af[TM], bf[TN];
#pragma unroll
          for (int i = 0; i < TM / 4; i++) {
            const float4 v = *reinterpret_cast<const float4 *>(as + p * SA + i * 4 * LM);
            af[4 * i + 0] = v.x;
            af[4 * i + 1] = v.y;
            af[4 * i + 2] = v.z;
            af[4 * i + 3] = v.w;
          }
#pragma unroll
          for (int j = 0; j < TN / 4; j++) {
            const float4 v = *reinterpret_cast<const float4 *>(bs + p * SB + j * 4 * LN);
            bf[4 * j + 0] = v.x;
            bf[4 * j + 1] = v.y;
            bf[4 * j + 2] = v.z;
            bf[4 * j + 3] = v.w;
          }
#pragma unroll
          for (int i = 0; i < TM; i++)
#pragma unroll
            for (int j = 0; j < TN; j++) acc[i][j] = fmaf(af[i], bf[j], acc[i][j]);
        }
      }
      /* The other buffer was last read before the previous barrier: fill it now. */
      if (more) {
        la.store(nxt, ra);
        lb.store(nxt + BK * SA, rb);
      }
      __syncthreads();
    }
  };
  /* Blocks inside what may be read prefetch k tiles 1 .. nk-2 without guards (only the last k
   * tile can be partial); everything else, and the last steps, go through the guarded loads. */
  if (m0 + BM <= m_read && n0 + BN <= n_read) {
    if (va && vb)
      k_tiles(load_mode<FULL_VEC>(), nk - 2);
    else
      k_tiles(load_mode<FULL_SCALAR>(), nk - 2);
  }
  k_tiles(load_mode<GUARDED>(), nk);
}

/* C's tile at (m0, n0) = alpha * acc + beta * C: 4 x 4 pieces, each row of a piece one float4
 * where C allows it. */
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN>
__device__ __forceinline__ void store_tile(idx_t m, idx_t n, idx_t m0, idx_t n0,
                                           float *__restrict__ c, idx_t ldc, bool vc, float alpha,
                                           float beta, const float (&acc)[TM][TN]) {
  constexpr int LM = WM / TM, LN = WN / TN;
  const lane_place<BM, BN, WM, WN, TM, TN> me;
#pragma unroll
  for (int i = 0; i < TM / 4; i++)
#pragma unroll
    for (int ii = 0; ii < 4; ii++) {
      const idx_t row = m0 + me.am + i * 4 * LM + ii;
      if (row < m) {
#pragma unroll
        for (int j = 0; j < TN / 4; j++) {
          const float4 v = make_float4(acc[4 * i + ii][4 * j + 0], acc[4 * i + ii][4 * j + 1],
                                       acc[4 * i + ii][4 * j + 2], acc[4 * i + ii][4 * j + 3]);
          store_c4(c, row, n0 + me.bn + j * 4 * LN, n, ldc, vc, alpha, v, beta);
        }
      }
    }
}

/* The grid of tiles: one block per tile (a y grid-stride loop past the 65535 cap), or split-K
 * slices over gridDim.z. */
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int BAND, bool KA, bool KB>
__device__ __forceinline__ void fast_tiles(idx_t m, idx_t n, idx_t k, float alpha,
                                           const float *__restrict__ a, idx_t lda,
                                           const float *__restrict__ b, idx_t ldb, float beta,
                                           float *__restrict__ c, idx_t ldc, idx_t m_read,
                                           idx_t n_read, float *smem) {
  /* Split-K (common.cuh): the slices are whole BK steps of k. */
  const k_range ks = splitk_slice(k, BK, m, ldc, c, alpha, beta);
  const idx_t kbeg = ks.beg, kend = ks.end;
  const bool va = (lda & 3) == 0 && ((uintptr_t)a & 15) == 0;
  const bool vb = (ldb & 3) == 0 && ((uintptr_t)b & 15) == 0;
  const bool vc = (ldc & 3) == 0 && ((uintptr_t)c & 15) == 0;

  /* Block order: a bijection of the grid, BAND tile columns at a time, so the blocks resident at
   * once share A and B panels in L2. The y grid-stride loop below then steps from the swizzled
   * row, which keeps every tile covered once however gridDim.y was capped. */
  const tile_xy sw = band_order(BAND);
  const idx_t n0 = (idx_t)sw.x * BN;
  for (idx_t ty = sw.y; ty * BM < m; ty += gridDim.y) {
    float acc[TM][TN];
    mac_tile<BM, BN, BK, WM, WN, TM, TN, KA, KB>(m, n, m_read, n_read, ty * BM, n0, kbeg, kend, a,
                                                 lda, va, b, ldb, vb, smem, acc);
    store_tile<BM, BN, BK, WM, WN, TM, TN>(m, n, ty * BM, n0, c, ldc, vc, alpha, beta, acc);
  }
}

/* A thread's micro-tile as a partial product in a workspace slot of BM * BN floats, float4 g of
 * thread t at float4 g * NT + t (coalesced), so that thread t of the summing block reads exactly
 * what thread t of each publishing block wrote. `add`: acc += the slot, else acc = the slot. */
template <int NT, int TM, int TN>
__device__ __forceinline__ void put_partial(float *slot, const float (&acc)[TM][TN]) {
  float4 *dst = reinterpret_cast<float4 *>(slot) + threadIdx.x;
#pragma unroll
  for (int g = 0; g < TM * TN / 4; g++) {
    const int i = g / (TN / 4), j = 4 * (g % (TN / 4));
    __stcg(dst + g * NT, make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]));
  }
}
template <int NT, int TM, int TN>
__device__ __forceinline__ void get_partial(const float *slot, bool add, float (&acc)[TM][TN]) {
  const float4 *src = reinterpret_cast<const float4 *>(slot) + threadIdx.x;
#pragma unroll
  for (int g = 0; g < TM * TN / 4; g++) {
    const int i = g / (TN / 4), j = 4 * (g % (TN / 4));
    const float4 v = __ldcg(src + g * NT); /* L2: another block wrote it during this launch */
    acc[i][j] = add ? acc[i][j] + v.x : v.x;
    acc[i][j + 1] = add ? acc[i][j + 1] + v.y : v.y;
    acc[i][j + 2] = add ? acc[i][j + 2] + v.z : v.z;
    acc[i][j + 3] = add ? acc[i][j + 3] + v.w : v.w;
  }
}

/* A stream-K flag: SK_FLAG_COUNT bits of tickets taken, and the epoch above them (SK_FLAG_EPOCH,
 * 1..SK_EPOCHS; 0 after a reset; the bits between are zero). src/gemm.c holds the same layout
 * (at most SK_FLAG_COUNT units share a tile). */
constexpr int SK_FLAG_COUNT = 0x3ff, SK_FLAG_EPOCH = 0x100000;
/* Whether stream-K block g owns an iteration: its range [g * iters / units, (g + 1) * iters /
 * units) is empty where there are fewer iterations than blocks. */
__device__ __forceinline__ bool sk_owns(idx_t g, idx_t iters, unsigned units) {
  return (g + 1) * iters / units > g * iters / units;
}
/* Takes a ticket on a tile's flag and returns the flag as it was, a flag of another epoch
 * counting as zero. */
__device__ __forceinline__ int sk_take_ticket(int *flag, int epoch) {
  int old = *(volatile int *)flag;
  for (;;) {
    const int cur = old / SK_FLAG_EPOCH == epoch ? old : epoch * SK_FLAG_EPOCH;
    const int seen = atomicCAS(flag, old, cur + 1);
    if (seen == old) return cur;
    old = seen;
  }
}
/* A thread's part of a partial, published: its own stores, its own fence, then its own stamp (the
 * launch's epoch). The thread that reads the part waits for that stamp alone, so no thread's
 * stores are published by another's atomic (the OpenCL twin's reason: there a fence orders one
 * work-item's accesses only). */
template <int NT, int TM, int TN>
__device__ __forceinline__ void sk_publish(float *slot, int *stamp, int epoch,
                                           const float (&acc)[TM][TN]) {
  put_partial<NT>(slot, acc);
  __threadfence();
  atomicExch(stamp, epoch);
}
/* Waits until the thread of the same place in the block that wrote `slot` has stamped it with this
 * launch's epoch, then reads it (acc = or += it, through L2) and clears the stamp for the next
 * launch. */
template <int NT, int TM, int TN>
__device__ __forceinline__ void sk_consume(const float *slot, int *stamp, int epoch, bool add,
                                           float (&acc)[TM][TN]) {
  while (*(volatile int *)stamp != epoch) {
  }
  __threadfence();
  get_partial<NT>(slot, add, acc);
  *stamp = 0;
}

/* Stream-K (1D grid of gridDim.x blocks, `units` of them stream-K blocks): C's T tiles in band
 * order, the first gridDim.x - units whole, one per block; the other S tiles' k iterations
 * (S * ceil(k / BK) of them, nk per tile) cut into `units` equal ranges, one per stream-K block,
 * so that the last wave of tiles keeps every SM busy instead of leaving some idle. A tile whose
 * k iterations fall to c blocks is summed by the last of them to take its ticket: the others
 * write their partial products to the workspace, each thread stamping its own part (sk_publish);
 * the last one's threads each wait for the stamps of the parts they read (sk_consume) and add the
 * partials in k order, so the result does not depend on which finishes last. It waits only for
 * blocks that have already taken their ticket, so it needs no block to be resident beside it.
 * Where the tiles have fewer iterations than there are blocks, some blocks' ranges are empty; they
 * take no part in any tile, so a tile counts and sums only the blocks between its first and last
 * that own an iteration (sk_owns).
 *   work: units + S slots of BM * BN floats (the partial of tile s by block u is slot u + s,
 *   unique since a later tile starts in the same or a later block); flags: S ints (SK_FLAG_*:
 *   the tickets taken and the call's epoch, 1..SK_EPOCHS), then a stamp per slot and thread
 *   ((units + S) * NT ints: 0, or the epoch of the launch that published that part). A flag or a
 *   stamp that carries another epoch counts as zero, so one that a failed launch left behind
 *   cannot poison a later call (the core zeroes the flags before an epoch comes round again); the
 *   last block of a tile sets its flag back to zero and clears the stamps it read, so a launch
 *   replayed with the same epoch works too. */
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int BAND, bool KA, bool KB>
__device__ __forceinline__ void fast_stream_k(idx_t m, idx_t n, idx_t k, float alpha,
                                              const float *__restrict__ a, idx_t lda,
                                              const float *__restrict__ b, idx_t ldb, float beta,
                                              float *__restrict__ c, idx_t ldc, idx_t m_read,
                                              idx_t n_read, float *smem, unsigned units, int epoch,
                                              float *work, int *flags) {
  constexpr int NT = sgemm_fast_threads<BM, BN, BK, WM, WN, TM, TN>();
  __shared__ int ticket;
  const bool va = (lda & 3) == 0 && ((uintptr_t)a & 15) == 0;
  const bool vb = (ldb & 3) == 0 && ((uintptr_t)b & 15) == 0;
  const bool vc = (ldc & 3) == 0 && ((uintptr_t)c & 15) == 0;
  const unsigned tiles_n = (unsigned)((n + BN - 1) / BN), tiles_m = (unsigned)((m + BM - 1) / BM);
  const unsigned whole = gridDim.x - units, s_tiles = tiles_n * tiles_m - whole;
  /* One walk for both kinds of block, over iterations numbered tile by tile in band order: a
   * whole tile's block takes its tile's nk, a stream-K block its share of the rest. */
  const idx_t nk = (k + BK - 1) / BK, iters = (idx_t)s_tiles * nk, base = (idx_t)whole * nk;
  const bool sk = blockIdx.x >= whole;
  const idx_t u = blockIdx.x - whole;                /* stream-K blocks only */
  int *const stamps = flags + s_tiles + threadIdx.x; /* this thread's stamp of slot x: [x * NT] */
  float acc[TM][TN];
  for (idx_t it = sk ? base + u * iters / units : blockIdx.x * nk,
             hi = sk ? base + (u + 1) * iters / units : it + nk;
       it < hi;) {
    const idx_t tile = it / nk, k0 = it - tile * nk, k1 = min(hi - tile * nk, nk);
    const idx_t s = tile - whole; /* its index among the shared tiles */
    const tile_xy p = band_tile((unsigned)tile, tiles_n, tiles_m, BAND);
    const idx_t m0 = (idx_t)p.y * BM, n0 = (idx_t)p.x * BN;
    mac_tile<BM, BN, BK, WM, WN, TM, TN, KA, KB>(
        m, n, m_read, n_read, m0, n0, k0 * BK, min(k, k1 * BK), a, lda, va, b, ldb, vb, smem, acc);
    it = tile * nk + k1;
    bool store = true;
    if (k0 > 0 || k1 < nk) {
      /* The blocks of this tile's first and last iterations: block of iteration x is
       * ((x + 1) * units - 1) / iters; between them, those whose range is empty take no part. */
      const idx_t first = ((s * nk + 1) * units - 1) / iters;
      const idx_t last = ((s + 1) * nk * units - 1) / iters;
      int count = 0;
      for (idx_t g = first; g <= last; g++) count += sk_owns(g, iters, units);
      int *const flag = flags + s;
      if (threadIdx.x == 0) ticket = sk_take_ticket(flag, epoch);
      __syncthreads();
      /* The next ticket is taken after mac_tile's barriers: every thread has read this one. */
      store = (ticket & SK_FLAG_COUNT) + 1 >= count;       /* the last to take a ticket sums */
      float *const slot = work + (idx_t)BM * BN * (u + s); /* this block's partial */
      if (!store) {
        sk_publish<NT>(slot, stamps + (u + s) * NT, epoch, acc);
      } else {
        /* The first block of a tile reaches it at the end of its range, after the others, so it
         * is mostly the last, and its own partial is the sum's first term; any other puts its
         * own in its slot (its threads read back only what they wrote) and starts from the
         * first's. */
        if (u != first) {
          put_partial<NT>(slot, acc);
          sk_consume<NT>(work + (idx_t)BM * BN * (first + s), stamps + (first + s) * NT, epoch,
                         false, acc);
        }
        for (idx_t g = first + 1; g <= last; g++) {
          if (g == u)
            get_partial<NT>(slot, true, acc);
          else if (sk_owns(g, iters, units))
            sk_consume<NT>(work + (idx_t)BM * BN * (g + s), stamps + (g + s) * NT, epoch, true,
                           acc);
        }
        if (threadIdx.x == 0) *flag = 0; /* every block of the tile has taken its ticket */
      }
    }
    if (store) store_tile<BM, BN, BK, WM, WN, TM, TN>(m, n, m0, n0, c, ldc, vc, alpha, beta, acc);
  }
}

} /* namespace duet_fast */

/* Calls f(ka, kb) with the transposes as compile-time flags: they decide which loader runs
 * (memory along k or along m/n), so there is one copy of the kernel per combination and the inner
 * loops carry no branch on them. */
template <bool V>
struct flag {
  static constexpr bool value = V;
};
template <class F>
__device__ __forceinline__ void by_transposes(int ta, int tb, F f) {
  if (!ta) {
    if (!tb)
      f(flag<true>(), flag<false>());
    else
      f(flag<true>(), flag<true>());
  } else {
    if (!tb)
      f(flag<false>(), flag<false>());
    else
      f(flag<false>(), flag<true>());
  }
}

/* fast: C = alpha * op(A) * op(B) + beta * C over a 1D block of sgemm_fast_threads<...>() threads
 * and sgemm_fast_smem<...>() bytes of dynamic shared memory, grid
 * (ceil(n / BN), min(ceil(m / BM), 65535), splits).
 * gridDim.z == 1: BLAS semantics, beta == 0 never reads C.
 * gridDim.z > 1 (split-K): slice z takes k in [z * kc, min(k, (z + 1) * kc)),
 *   kc = ceil(k / splits) rounded up to a multiple of BK, and writes acc to c + z * m * ldc (a
 *   workspace; alpha and beta are ignored and C not read); then sgemm_splitk_reduce_body adds
 *   the slices into C with alpha and beta. */
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int BAND>
__device__ __forceinline__ void sgemm_fast_body(int ta, int tb, idx_t m, idx_t n, idx_t k,
                                                float alpha, const float *__restrict__ a, idx_t lda,
                                                const float *__restrict__ b, idx_t ldb, float beta,
                                                float *__restrict__ c, idx_t ldc, idx_t m_read,
                                                idx_t n_read, float *smem) {
  by_transposes(ta, tb, [&](auto ka, auto kb) {
    duet_fast::fast_tiles<BM, BN, BK, WM, WN, TM, TN, BAND, decltype(ka)::value,
                          decltype(kb)::value>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, m_read,
                                               n_read, smem);
  });
}

/* Split-K reduction: C = alpha * (sum over z of work[z * m * n + i * n + j]) + beta * C (the
 * slices hold plain partial products; beta == 0 never reads C). One thread per element, any 2D
 * block, grid-stride in both directions. */
__device__ __forceinline__ void sgemm_splitk_reduce_body(idx_t m, idx_t n, int splits,
                                                         const float *__restrict__ work,
                                                         float alpha, float beta,
                                                         float *__restrict__ c, idx_t ldc) {
  const idx_t slab = m * n;
  for (idx_t i = (idx_t)blockIdx.y * blockDim.y + threadIdx.y; i < m;
       i += (idx_t)gridDim.y * blockDim.y)
    for (idx_t j = (idx_t)blockIdx.x * blockDim.x + threadIdx.x; j < n;
         j += (idx_t)gridDim.x * blockDim.x) {
      const float *w = work + i * n + j;
      float s = 0.0f;
      for (int z = 0; z < splits; z++) s += w[z * slab];
      store_c(c, i * ldc + j, alpha, s, beta);
    }
}

#endif
