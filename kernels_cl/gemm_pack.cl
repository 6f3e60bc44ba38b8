/* SPDX-License-Identifier: MIT */
/* The packing of fast's operands (src/gemm_plan.c, plan_pack): A, B or both copied into the
 * context's arena at a leading dimension that is a multiple of 4, in one launch, so that fast
 * loads them 16 bytes at a time. Written once for both backends in the dialect of
 * src/duet_kernel.h and kernels_cl/builtin.h (which says how each backend builds it); its own
 * group, so that a cold OpenCL build of it is a program of a few lines.
 *
 * One launch for both operands, not a duet_copy each: on the H200 it ran 997^3 and 1023^3 (tt,
 * ld 1031) 3% faster on CUDA, a pack of one operand 1% slower than duet_copy's
 * (docs/results/h200.md, twenty-seventh session).
 *
 * Tunables (the copy's, src/duet_tunables.h): a TRANSPOSE_TILE x TRANSPOSE_TILE tile per block
 * of TRANSPOSE_TILE x TRANSPOSE_ROWS threads, each thread a column of the tile, coalesced along
 * rows as duet_copy is. Grid: 1D, tiles_a blocks over A's tiles (row-major, ceil(cols_a / TILE)
 * of them a row of tiles), then B's. Any rows, cols and ld >= cols; an operand with no rows
 * (one not packed) has no tiles. */
#if !defined(TRANSPOSE_TILE) || !defined(TRANSPOSE_ROWS)
#error "the copy's tunables come from the tuning set: -D on OpenCL, kernels_cu/gemm_pack.cu on CUDA"
#endif
STATIC_CHECK(TRANSPOSE_TILE % TRANSPOSE_ROWS == 0, pack_rows_divide_the_tile);

/* Tile t of a rows x cols matrix, from in (ld_in) to out (ld_out); t in 32 bits, as the core
 * caps a grid at 2^32 blocks (src/launch.c). */
INLINE_FN void pack_tile(idx_t rows, idx_t cols, DUET_GLOBAL const float *DUET_RESTRICT in,
                         idx_t ld_in, DUET_GLOBAL float *DUET_RESTRICT out, idx_t ld_out,
                         unsigned t) {
  const unsigned across = (unsigned)((cols + TRANSPOSE_TILE - 1) / TRANSPOSE_TILE);
  const idx_t col = (idx_t)(t % across) * TRANSPOSE_TILE + (idx_t)DUET_THREAD_IDX(0);
  const idx_t row0 = (idx_t)(t / across) * TRANSPOSE_TILE + (idx_t)DUET_THREAD_IDX(1);
  if (col >= cols) return;
  for (int j = 0; j < TRANSPOSE_TILE; j += TRANSPOSE_ROWS) {
    const idx_t row = row0 + j;
    if (row < rows) out[row * ld_out + col] = in[row * ld_in + col];
  }
}

#if !defined(DUET_KERNEL_ONLY) || defined(DUET_WANT_duet_sgemm_pack)
DUET_KERNEL KERNEL_BLOCK(TRANSPOSE_TILE, TRANSPOSE_ROWS) void duet_sgemm_pack(
    idx_t rows_a, idx_t cols_a, DUET_GLOBAL const float *DUET_RESTRICT a, idx_t lda,
    DUET_GLOBAL float *DUET_RESTRICT pa, idx_t ldpa, idx_t rows_b, idx_t cols_b,
    DUET_GLOBAL const float *DUET_RESTRICT b, idx_t ldb, DUET_GLOBAL float *DUET_RESTRICT pb,
    idx_t ldpb, idx_t tiles_a) {
  AFTER_PRIOR_LAUNCH();
  const unsigned t = (unsigned)DUET_BLOCK_IDX(0);
  if (t < (unsigned)tiles_a)
    pack_tile(rows_a, cols_a, a, lda, pa, ldpa, t);
  else
    pack_tile(rows_b, cols_b, b, ldb, pb, ldpb, t - (unsigned)tiles_a);
}
#endif
