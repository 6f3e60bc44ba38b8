/* SPDX-License-Identifier: MIT */
/* SGEMV: one row or one column of C, a matrix-vector product, as fast's plans cut them
 * (src/gemm_plan.c, gemv_piece). Written once for both backends in the dialect of
 * src/duet_kernel.h and kernels_cl/builtin.h (which says how each backend builds it); its own
 * group, so that a cold OpenCL build of a GEMV is a program of a few lines.
 *
 * Tunables (values per tuning set in src/duet_tunables.h; -D options on OpenCL, one
 * instantiation per set on CUDA):
 *   GEMV_THREADS   threads per block of both kernels (256 on the H100's set and the CPU's)
 *   GEMV_LX        duet_sgemv: threads along the outputs, 4 outputs each (a block covers
 *                  4 * GEMV_LX outputs; its GEMV_THREADS / GEMV_LX groups of threads split k)
 *   GEMV_DOT_LANES duet_sgemv_dot: threads per output (GEMV_THREADS / GEMV_DOT_LANES outputs a
 *                  block)
 *   GEMV_UNROLL    float4 loads of the big operand in flight per thread and step
 *   GEMV_SYNC_ROWS duet_sgemv: 0, or a barrier after every GEMV_SYNC_ROWS rows of v a thread
 *                  reads (for CPUs: gemv_rows_synced says why)
 * Shared memory: static, duet_sgemv 4 * GEMV_THREADS floats, duet_sgemv_dot GEMV_THREADS floats
 * where the device has no warp shuffles (PoCL), none where it has.
 *
 * Orientation-free: the plan hands each kernel the big operand v (L rows or columns of it, k
 * long), the vector u (k floats, stride up) and C's L outputs (stride cl), so that
 *   c[l * cl] = alpha * sum_p u[p * up] v(l, p) + beta * c[l * cl]   (beta 0 reads no C)
 * duet_sgemv reads v along the outputs, v(l, p) = v[p * ldv + l] (one row of C with B not
 * transposed: v = B; one column with A transposed: v = A stored k x m); duet_sgemv_dot reads it
 * along k, v(l, p) = v[l * ldv + p] (one column with A not transposed, one row with B^T): each
 * output a dot product.
 *
 * Both are bound by reading v once: float4 loads, GEMV_UNROLL of them in flight per thread,
 * the vector through the cache. Grid: x over the outputs (a block per 4 * GEMV_LX, or per
 * GEMV_THREADS / GEMV_DOT_LANES of them), z the k slices the plan chose to fill the device. With
 * one slice a block stores its outputs. With S slices each output's S partial sums go to `work`
 * (S x the grid's outputs, at [z][block][output in block]), and the thread that stores the last
 * of them (a ticket per output, or per float4 of outputs, in `flags`, carrying the call's epoch
 * as stream-K's tickets do) adds all S in slice order and stores C: one launch, and the same
 * sum whichever block finishes last (no float atomics). The ticket pairs one thread's stores,
 * fence and atomic with another's atomic, fence and loads, which OpenCL 1.2 orders (no thread
 * waits for another's stores, and no barrier sits in a branch: docs/correctness.md, "Stream-K's
 * publish"). Any L, k, ld, offset and alignment: duet_sgemv shifts its outputs so that float4s
 * of v are aligned where ldv is a multiple of 4 (else scalar loads), duet_sgemv_dot peels each
 * row's first floats up to an aligned one. */
#if !defined(GEMV_THREADS) || !defined(GEMV_LX) || !defined(GEMV_DOT_LANES) || \
    !defined(GEMV_UNROLL) || !defined(GEMV_SYNC_ROWS)
#error "the GEMV tunables come from the tuning set: -D on OpenCL, kernels_cu/gemm_gemv.cu on CUDA"
#endif
#define GEMV_LT (4 * GEMV_LX)                  /* duet_sgemv: outputs per block */
#define GEMV_KG (GEMV_THREADS / GEMV_LX)       /* duet_sgemv: groups of threads along k */
#define GEMV_R (GEMV_THREADS / GEMV_DOT_LANES) /* duet_sgemv_dot: outputs per block */
STATIC_CHECK(GEMV_THREADS % GEMV_LX == 0, gemv_lx_divides_threads);
STATIC_CHECK(GEMV_THREADS % GEMV_DOT_LANES == 0 && 32 % GEMV_DOT_LANES == 0, gemv_dot_lanes);

/* The parameters of both (the manifest's GEMV_SIG): the outputs and k, alpha, v, u, beta, C,
 * then the call's epoch, the slices' partial sums and their tickets (unused with one slice). */
#define GEMV_PARAMS                                                                                \
  idx_t L, idx_t k, float alpha, DUET_GLOBAL const float *DUET_RESTRICT v, idx_t v_off, idx_t ldv, \
      DUET_GLOBAL const float *DUET_RESTRICT u, idx_t u_off, idx_t up, float beta,                 \
      DUET_GLOBAL float *DUET_RESTRICT c, idx_t c_off, idx_t cl, int epoch,                        \
      DUET_GLOBAL float *work, DUET_GLOBAL int *flags

/* Slice z of S's share of k: [beg, end), kc = ceil(k / S) rounded up to `step`. */
INLINE_FN k_range gemv_slice(idx_t k, int step) {
  const idx_t S = (idx_t)DUET_GRID_DIM(2);
  const idx_t kc = ((k + S - 1) / S + step - 1) / step * step;
  k_range r;
  r.beg = min(k, (idx_t)DUET_BLOCK_IDX(2) * kc);
  r.end = min(k, r.beg + kc);
  return r;
}

/* Partial sums the finishing thread has in flight at once: it waits a round trip to L2 per
 * batch of them, the slices' whole cost in a deep-k call. */
#define GEMV_FINISH_LOADS 8

/* duet_sgemv's last step, in one of the block's first GEMV_LX threads: its sums s of outputs
 * l0 .. l0 + 3 (those in [0, L)) stored, or, with S slices, published as this slice's part
 * ([z][block][thread]), and summed over the slices in order by the thread that takes the last
 * ticket. */
INLINE_FN void gemv_finish4(idx_t L, float alpha, float beta, DUET_GLOBAL float *DUET_RESTRICT c,
                            idx_t cl, idx_t l0, float4 s, int epoch, DUET_GLOBAL float *work,
                            DUET_GLOBAL int *flags) {
  const int S = (int)DUET_GRID_DIM(2);
  if (S > 1) {
    const idx_t part = (idx_t)DUET_BLOCK_IDX(0) * GEMV_LX + DUET_THREAD_IDX(0);
    const idx_t parts = (idx_t)DUET_GRID_DIM(0) * GEMV_LX;
    DUET_GLOBAL float4 *w4 = (DUET_GLOBAL float4 *)work + part;
    CROSS_STORE4(w4 + (idx_t)DUET_BLOCK_IDX(2) * parts, s);
    DUET_GLOBAL_FENCE();
    if (epoch_ticket(flags + part, epoch) != S - 1) return;
    DUET_GLOBAL_FENCE();
    s = DUET_MAKE_FLOAT4(0.0f, 0.0f, 0.0f, 0.0f);
    int z = 0;
    for (; z + GEMV_FINISH_LOADS - 1 < S; z += GEMV_FINISH_LOADS) { /* added in slice order */
      float4 x[GEMV_FINISH_LOADS];
#pragma unroll
      for (int q = 0; q < GEMV_FINISH_LOADS; q++) x[q] = CROSS_LOAD4(w4 + (z + q) * parts);
#pragma unroll
      for (int q = 0; q < GEMV_FINISH_LOADS; q++) {
        s.x += x[q].x;
        s.y += x[q].y;
        s.z += x[q].z;
        s.w += x[q].w;
      }
    }
    for (; z < S; z++) {
      const float4 x = CROSS_LOAD4(w4 + z * parts);
      s.x += x.x;
      s.y += x.y;
      s.z += x.z;
      s.w += x.w;
    }
  }
  if (l0 >= 0 && l0 < L) store_c(c, l0 * cl, alpha, s.x, beta);
  if (l0 + 1 >= 0 && l0 + 1 < L) store_c(c, (l0 + 1) * cl, alpha, s.y, beta);
  if (l0 + 2 >= 0 && l0 + 2 < L) store_c(c, (l0 + 2) * cl, alpha, s.z, beta);
  if (l0 + 3 >= 0 && l0 + 3 < L) store_c(c, (l0 + 3) * cl, alpha, s.w, beta);
}

/* GEMV_SCALAR_ROWS 1: rows of an ldv not a multiple of 4 go through gemv_rows' scalar form,
 * GEMV_UNROLL rows in flight; 0: one row at a time, as at the outputs' edges. CUDA only: on the
 * H200 it took 1 x 4097 x 4097 from 0.0245 to 0.0216 ms there (cuBLAS 0.0204), where NVIDIA's
 * OpenCL ran it 9% slower (0.0239 -> 0.0261; docs/results/h200.md, twentieth session). */
#if defined(DUET_CUDA)
#define GEMV_SCALAR_ROWS 1
#else
#define GEMV_SCALAR_ROWS 0
#endif
/* duet_sgemv's blocks resident on a unit, as a register cap for CUDA (OpenCL's comes from the
 * manifest): 48 warps. Beside the scalar form nvcc gave it 58 registers (4 blocks of 256), and
 * large rows of C ran 15-25% slower than at 40 (docs/results/h200.md, twenty-first session). */
#define GEMV_MIN_BLOCKS (GEMV_THREADS >= 1536 ? 1 : 1536 / GEMV_THREADS)

/* v's floats l0 .. l0 + 3 of row p: one float4 (vec: aligned there), else four floats */
INLINE_FN float4 gemv_load4(const bool vec, DUET_GLOBAL const float *DUET_RESTRICT x) {
  return vec ? GLOBAL_CONST_FLOAT4(x) : DUET_MAKE_FLOAT4(x[0], x[1], x[2], x[3]);
}

/* acc plus w times each of x's four floats */
INLINE_FN float4 gemv_axpy4(float w, float4 x, float4 acc) {
  acc.x = fma(w, x.x, acc.x);
  acc.y = fma(w, x.y, acc.y);
  acc.z = fma(w, x.z, acc.z);
  acc.w = fma(w, x.w, acc.w);
  return acc;
}

/* duet_sgemv's sums of outputs l0 .. l0 + 3, all inside [0, L), over rows p, p + GEMV_KG, ...
 * below end: GEMV_UNROLL rows' loads in flight at once, float4s where vec (ldv a multiple of 4,
 * the outputs shifted to an aligned float4), four floats each where not (GEMV_SCALAR_ROWS). vec
 * is a constant where this is inlined, so each form is its own loop. */
INLINE_FN float4 gemv_rows(const bool vec, DUET_GLOBAL const float *DUET_RESTRICT v, idx_t ldv,
                           DUET_GLOBAL const float *DUET_RESTRICT u, idx_t up, idx_t l0, idx_t p,
                           idx_t end) {
  float4 acc = DUET_MAKE_FLOAT4(0.0f, 0.0f, 0.0f, 0.0f);
  DUET_GLOBAL const float *row = v + p * ldv + l0;
  const idx_t step = GEMV_KG * ldv;
  for (; p + (GEMV_UNROLL - 1) * GEMV_KG < end;
       p += GEMV_UNROLL * GEMV_KG, row += GEMV_UNROLL * step) {
    float4 x[GEMV_UNROLL];
    float w[GEMV_UNROLL];
#pragma unroll
    for (int q = 0; q < GEMV_UNROLL; q++) {
      x[q] = gemv_load4(vec, row + q * step);
      w[q] = u[(p + q * GEMV_KG) * up];
    }
#pragma unroll
    for (int q = 0; q < GEMV_UNROLL; q++) {
      acc.x = fma(w[q], x[q].x, acc.x);
      acc.y = fma(w[q], x[q].y, acc.y);
      acc.z = fma(w[q], x[q].z, acc.z);
      acc.w = fma(w[q], x[q].w, acc.w);
    }
  }
  for (; p < end; p += GEMV_KG, row += step) {
    const float4 x = gemv_load4(vec, row);
    acc = gemv_axpy4(u[p * up], x, acc);
  }
  return acc;
}

/* The least share of a block's outputs, in percent, that C must fill for the block to take the
 * synced steps (PoCL, 1024 outputs a block: docs/results/tuning-notes.md, "PoCL: sgemv along
 * rows"). */
#ifndef GEMV_SYNC_MIN_FILL
#define GEMV_SYNC_MIN_FILL 50
#endif

/* acc's lane j (0 to 3) plus w * x */
INLINE_FN float4 gemv_fma_lane(float4 acc, int j, float w, float x) {
  if (j == 0)
    acc.x = fma(w, x, acc.x);
  else if (j == 1)
    acc.y = fma(w, x, acc.y);
  else if (j == 2)
    acc.z = fma(w, x, acc.z);
  else
    acc.w = fma(w, x, acc.w);
  return acc;
}

/* duet_sgemv's sums with GEMV_SYNC_ROWS: a CPU's OpenCL (PoCL) runs a block's threads one after
 * another from barrier to barrier, so that gemv_rows' loop over k, inside each thread, reads v
 * down a column: 16 bytes of each row, rows pages apart, each a cache miss of its own. A barrier
 * after every GEMV_SYNC_ROWS of a thread's rows puts the threads' loop inside k's: each step
 * reads its rows along their length. Every thread runs every step (the barrier stays in uniform
 * control flow: the same trip count from the block's beg and end). On PoCL a step unrolled ran
 * 2.7x faster than its loop, and one whose edge outputs (l0 .. l0 + 3 partly outside [0, L))
 * took four guarded loads a row, not a loop of their own, 1.9x slower (docs/results/
 * tuning-notes.md, "PoCL: sgemv along rows"). */
INLINE_FN float4 gemv_rows_synced(const bool vec, DUET_GLOBAL const float *DUET_RESTRICT v,
                                  idx_t ldv, DUET_GLOBAL const float *DUET_RESTRICT u, idx_t up,
                                  idx_t L, idx_t l0, int g, idx_t beg, idx_t end) {
  float4 acc = DUET_MAKE_FLOAT4(0.0f, 0.0f, 0.0f, 0.0f);
  const bool inside = l0 >= 0 && l0 + 4 <= L;
  for (idx_t base = beg; base < end; base += GEMV_KG * GEMV_SYNC_ROWS) {
#pragma unroll
    for (int q = 0; q < GEMV_SYNC_ROWS; q++) {
      const idx_t p = base + g + q * GEMV_KG;
      if (p < end) {
        DUET_GLOBAL const float *row = v + p * ldv + l0;
        const float w = u[p * up];
        if (inside) {
          acc = gemv_axpy4(w, gemv_load4(vec, row), acc);
        } else if (l0 + 4 > 0 && l0 < L) {
#pragma unroll 1
          for (int j = 0; j < 4; j++)
            if (l0 + j >= 0 && l0 + j < L) acc = gemv_fma_lane(acc, j, w, row[j]);
        }
      }
    }
    LOCAL_BARRIER();
  }
  return acc;
}

/* duet_sgemv: v read along the outputs. Thread (tx, g) owns outputs l0 .. l0 + 3 of its block
 * and k indices beg + g, beg + g + GEMV_KG, ...; its group's partial sums meet in shared memory,
 * added in group order by the block's first GEMV_LX threads, each of which then holds a float4
 * of outputs: stored, or published as its slice's part. */
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemv)
DUET_KERNEL KERNEL_BLOCK_MIN(GEMV_THREADS, 1, GEMV_MIN_BLOCKS) void duet_sgemv(GEMV_PARAMS) {
  DUET_SHARED float red[GEMV_KG * GEMV_LT];
  AFTER_PRIOR_LAUNCH();
  v += v_off;
  u += u_off;
  c += c_off;
  const int tid = (int)DUET_THREAD_IDX(0), tx = tid % GEMV_LX, g = tid / GEMV_LX;
  const bool vec = (ldv & 3) == 0;
  /* outputs shifted by v's misalignment, so that v + p * ldv + l0 is a whole float4 */
  const idx_t shift = vec ? (idx_t)(((uintptr_t)v >> 2) & 3) : 0;
  const idx_t t0 = (idx_t)DUET_BLOCK_IDX(0) * GEMV_LT - shift;
  const idx_t l0 = t0 + 4 * tx; /* t0 >= L: the grid's spare block for the shift, idle */
  const k_range ks = gemv_slice(k, 1);
  float4 acc = DUET_MAKE_FLOAT4(0.0f, 0.0f, 0.0f, 0.0f);
  idx_t p = ks.beg + g;
  /* The synced steps cost every thread of the block a step, live or not: a block whose outputs
   * fill less than GEMV_SYNC_MIN_FILL percent of it (the spare one: none) runs them over an
   * empty k range (no steps, no barriers, the same for all its threads) and each thread's own
   * loop after them. */
  const idx_t live = min(L, t0 + GEMV_LT) - max((idx_t)0, t0);
  const bool synced = GEMV_SYNC_ROWS > 0 && live * 100 >= GEMV_SYNC_MIN_FILL * GEMV_LT;
  if (GEMV_SYNC_ROWS > 0)
    acc = gemv_rows_synced(vec, v, ldv, u, up, L, l0, g, ks.beg, synced ? ks.end : ks.beg);
  if (synced) {                               /* its sums came from the synced steps */
  } else if (vec && l0 >= 0 && l0 + 4 <= L) { /* within the outputs, v's float4s aligned */
    acc = gemv_rows(true, v, ldv, u, up, l0, p, ks.end);
#if GEMV_SCALAR_ROWS
  } else if (l0 >= 0 && l0 + 4 <= L) { /* within the outputs, ldv not a multiple of 4 */
    acc = gemv_rows(false, v, ldv, u, up, l0, p, ks.end);
#endif
  } else if (l0 + 4 > 0 && l0 < L) { /* an edge of the outputs (or ldv not a multiple of 4) */
    const bool e0 = l0 >= 0, e1 = l0 + 1 >= 0 && l0 + 1 < L, e2 = l0 + 2 >= 0 && l0 + 2 < L,
               e3 = l0 + 3 < L;
    for (; p < ks.end; p += GEMV_KG) {
      DUET_GLOBAL const float *row = v + p * ldv + l0;
      const float w = u[p * up];
      if (e0) acc.x = fma(w, row[0], acc.x);
      if (e1) acc.y = fma(w, row[1], acc.y);
      if (e2) acc.z = fma(w, row[2], acc.z);
      if (e3) acc.w = fma(w, row[3], acc.w);
    }
  }
  red[g * GEMV_LT + 4 * tx] = acc.x;
  red[g * GEMV_LT + 4 * tx + 1] = acc.y;
  red[g * GEMV_LT + 4 * tx + 2] = acc.z;
  red[g * GEMV_LT + 4 * tx + 3] = acc.w;
  LOCAL_BARRIER();
  /* no return before or between the barriers: PoCL's work-item loops want none; threads
   * whose outputs all lie outside [0, L) publish no part (no ticket: a block of 1024 outputs
   * over a few took 256 of them a slice) */
  if (tid < GEMV_LX && l0 + 4 > 0 && l0 < L) {
    /* the groups' sums of outputs l0 .. l0 + 3 (tid == tx), in group order */
    float4 s = DUET_MAKE_FLOAT4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int h = 0; h < GEMV_KG; h++) {
      SHARED_PTR const float *r = red + h * GEMV_LT + 4 * tx;
      s.x += r[0];
      s.y += r[1];
      s.z += r[2];
      s.w += r[3];
    }
    gemv_finish4(L, alpha, beta, c, cl, l0, s, epoch, work, flags);
  }
}
#endif

/* u's floats p .. p + 3: one float4 where u is contiguous and aligned there. */
INLINE_FN float4 gemv_u4(DUET_GLOBAL const float *DUET_RESTRICT u, idx_t up, idx_t p, bool uvec) {
  if (uvec) return GLOBAL_CONST_FLOAT4(u + p);
  return DUET_MAKE_FLOAT4(u[p * up], u[(p + 1) * up], u[(p + 2) * up], u[(p + 3) * up]);
}
/* acc's four lanes each take one product of x and w: four independent chains, so that the
 * compiler keeps the loads of a step ahead of the arithmetic */
INLINE_FN float4 gemv_dot4(float4 x, float4 w, float4 acc) {
  acc.x = fma(x.x, w.x, acc.x);
  acc.y = fma(x.y, w.y, acc.y);
  acc.z = fma(x.z, w.z, acc.z);
  acc.w = fma(x.w, w.w, acc.w);
  return acc;
}
/* A lane's float4s of one row's body: i = lane, lane + GEMV_DOT_LANES, ... below n4, each with
 * u's floats 4i .. 4i + 3 (body and u aligned to the same k; uvec: u's as one float4); the
 * four chains added at the end in a fixed order. */
INLINE_FN float gemv_dot_body(DUET_GLOBAL const float *DUET_RESTRICT body,
                              DUET_GLOBAL const float *DUET_RESTRICT u, idx_t up, idx_t n4,
                              int lane, bool uvec) {
  float4 acc = DUET_MAKE_FLOAT4(0.0f, 0.0f, 0.0f, 0.0f);
  idx_t i = lane;
  for (; i + (GEMV_UNROLL - 1) * GEMV_DOT_LANES < n4; i += GEMV_UNROLL * GEMV_DOT_LANES) {
    float4 x[GEMV_UNROLL], w[GEMV_UNROLL];
#pragma unroll
    for (int q = 0; q < GEMV_UNROLL; q++) {
      x[q] = GLOBAL_CONST_FLOAT4(body + 4 * (i + q * GEMV_DOT_LANES));
      w[q] = gemv_u4(u, up, 4 * (i + q * GEMV_DOT_LANES), uvec);
    }
#pragma unroll
    for (int q = 0; q < GEMV_UNROLL; q++) acc = gemv_dot4(x[q], w[q], acc);
  }
  for (; i < n4; i += GEMV_DOT_LANES)
    acc = gemv_dot4(GLOBAL_CONST_FLOAT4(body + 4 * i), gemv_u4(u, up, 4 * i, uvec), acc);
  return (acc.x + acc.y) + (acc.z + acc.w);
}

/* duet_sgemv_dot's last step, in an output's first lane: its sum stored at c[at], or, with S
 * slices, published as this slice's part (`part`: [z][block][output in block]) and summed over
 * the slices in order by the lane that takes the last ticket. */
INLINE_FN void gemv_finish1(float alpha, float beta, DUET_GLOBAL float *DUET_RESTRICT c, idx_t at,
                            idx_t part, float acc, int epoch, DUET_GLOBAL float *work,
                            DUET_GLOBAL int *flags) {
  const int S = (int)DUET_GRID_DIM(2);
  if (S > 1) {
    const idx_t parts = (idx_t)DUET_GRID_DIM(0) * GEMV_R;
    DUET_GLOBAL float *w1 = work + part;
    CROSS_STORE(w1 + (idx_t)DUET_BLOCK_IDX(2) * parts, acc);
    DUET_GLOBAL_FENCE();
    if (epoch_ticket(flags + part, epoch) != S - 1) return;
    DUET_GLOBAL_FENCE();
    acc = 0.0f;
    int z = 0;
    for (; z + GEMV_FINISH_LOADS - 1 < S; z += GEMV_FINISH_LOADS) { /* added in slice order */
      float x[GEMV_FINISH_LOADS];
#pragma unroll
      for (int q = 0; q < GEMV_FINISH_LOADS; q++) x[q] = CROSS_LOAD(w1 + (z + q) * parts);
#pragma unroll
      for (int q = 0; q < GEMV_FINISH_LOADS; q++) acc += x[q];
    }
    for (; z < S; z++) acc += CROSS_LOAD(w1 + z * parts);
  }
  store_c(c, at, alpha, acc, beta);
}

/* duet_sgemv_dot: v read along k. GEMV_DOT_LANES threads per output l: the row's first floats
 * one per lane up to a 16-byte boundary, then float4s (lane i the i-th, i + GEMV_DOT_LANES-th,
 * ...; GEMV_UNROLL in flight), then the last floats one per lane; the lanes' sums meet in a
 * fixed tree (warp shuffles, or shared memory where there are none), and the first lane stores
 * the output or publishes its slice's part. Slices start on multiples of 4 floats. */
#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemv_dot)
DUET_KERNEL KERNEL_BLOCK(GEMV_THREADS, 1) void duet_sgemv_dot(GEMV_PARAMS) {
#if !defined(DUET_CUDA) && !defined(DUET_NVIDIA)
  DUET_SHARED float red[GEMV_THREADS];
#endif
  AFTER_PRIOR_LAUNCH();
  v += v_off;
  u += u_off;
  c += c_off;
  const int tid = (int)DUET_THREAD_IDX(0), lane = tid % GEMV_DOT_LANES;
  const idx_t l = (idx_t)DUET_BLOCK_IDX(0) * GEMV_R + tid / GEMV_DOT_LANES;
  const k_range ks = gemv_slice(k, 4);
  float acc = 0.0f;
  if (l < L) {
    DUET_GLOBAL const float *DUET_RESTRICT row = v + l * ldv;
    idx_t p = ks.beg;
    /* the floats before the first 16-byte boundary, one per lane */
    const idx_t head = min(ks.end, p + (idx_t)((4 - (((uintptr_t)(row + p) >> 2) & 3)) & 3));
    if (p + lane < head) acc = fma(row[p + lane], u[(p + lane) * up], acc);
    p = head;
    const idx_t n4 = (ks.end - p) / 4;
    /* the vector's form decided once, outside the loop, so that each loop keeps its loads
     * together */
    if (up == 1 && ((uintptr_t)(u + p) & 15) == 0)
      acc += gemv_dot_body(row + p, u + p, 1, n4, lane, true);
    else
      acc += gemv_dot_body(row + p, u + p * up, up, n4, lane, false);
    /* the last floats, one per lane */
    const idx_t tail = p + 4 * n4;
    if (tail + lane < ks.end) acc = fma(row[tail + lane], u[(tail + lane) * up], acc);
  }
  /* the lanes' sums: lane 0 ends with ((a0 + a_h) + ...) by halves, on either path */
#if defined(DUET_CUDA) || defined(DUET_NVIDIA)
#pragma unroll
  for (int h = GEMV_DOT_LANES / 2; h > 0; h /= 2) acc += DUET_SHUFFLE_XOR(acc, h);
#else
  red[tid] = acc;
  LOCAL_BARRIER();
  for (int h = GEMV_DOT_LANES / 2; h > 0; h /= 2) {
    if (lane < h) red[tid] += red[tid + h];
    LOCAL_BARRIER();
  }
  acc = red[tid];
#endif
  if (lane == 0 && l < L)
    gemv_finish1(alpha, beta, c, l * cl, (idx_t)DUET_BLOCK_IDX(0) * GEMV_R + tid / GEMV_DOT_LANES,
                 acc, epoch, work, flags);
}
#endif
