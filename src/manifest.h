/* SPDX-License-Identifier: MIT */
/* The kernel manifest: the one description of every kernel of both trees (src/manifest.c holds
 * the rows). A backend turns a row plus the context's tunable values into a loaded kernel; the
 * core sizes every launch from the row's shape function and checks every argument list against
 * the row's signature. Adding a kernel: docs/manifest.md's checklist. */
#ifndef DUET_MANIFEST_H
#define DUET_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include "duet_tunables.h"

/* Program groups: X(ID, name, source, from, to, after_prior, define). A group is one program built
 * from one kernel source file, kernels_cu/<source>.cu and kernels_cl/<source>.cl; OpenCL builds
 * each group on the first use of one of its kernels. A file may serve two groups with different
 * tunables: from/to rename the tunables' prefix in the group's -D options (GEMM_FAST_SMALL_BM
 * reaches the file as GEMM_FAST_BM), so one source holds one algorithm at several tile shapes.
 * after_prior 1: every kernel of the source begins with AFTER_PRIOR_LAUNCH (kernels_cl/builtin.h),
 * so a backend may launch it to overlap the launch before it (src/launch.c decides). define: a
 * macro its build sets to 1 (OpenCL: one more -D option; CUDA: the file that compiles the group,
 * kernels_cu/gemm_fast_scalar.cu), or NULL: the gemm_fast*_scalar groups are fast's kernels
 * again, loading their operands in the scalar layout (GEMM_FAST_SCALAR in kernels_cl/gemm_fast.cl,
 * the plan's GEMM_FAST_SCALAR). */
#define DUET__FAST_GROUPS(X, ID, NAME, DEFINE)                                                     \
  X(GEMM_FAST##ID, "gemm_fast" NAME, "gemm_fast", 0, 0, 1, DEFINE)                                 \
  X(GEMM_FAST_SMALL##ID, "gemm_fast_small" NAME, "gemm_fast", "GEMM_FAST_SMALL_", "GEMM_FAST_", 1, \
    DEFINE)                                                                                        \
  X(GEMM_FAST_TINY##ID, "gemm_fast_tiny" NAME, "gemm_fast", "GEMM_FAST_TINY_", "GEMM_FAST_", 1,    \
    DEFINE)                                                                                        \
  X(GEMM_FAST_TALL##ID, "gemm_fast_tall" NAME, "gemm_fast", "GEMM_FAST_TALL_", "GEMM_FAST_", 1,    \
    DEFINE)                                                                                        \
  X(GEMM_FAST_WIDE##ID, "gemm_fast_wide" NAME, "gemm_fast", "GEMM_FAST_WIDE_", "GEMM_FAST_", 1,    \
    DEFINE)                                                                                        \
  X(GEMM_FAST_MID##ID, "gemm_fast_mid" NAME, "gemm_fast", "GEMM_FAST_MID_", "GEMM_FAST_", 1,       \
    DEFINE)                                                                                        \
  X(GEMM_FAST_NARROW##ID, "gemm_fast_narrow" NAME, "gemm_fast", "GEMM_FAST_NARROW_", "GEMM_FAST_", \
    1, DEFINE)                                                                                     \
  X(GEMM_FAST_FLAT##ID, "gemm_fast_flat" NAME, "gemm_fast", "GEMM_FAST_FLAT_", "GEMM_FAST_", 1,    \
    DEFINE)
#define DUET__GROUPS(X)                                    \
  X(COPY, "copy", "copy", 0, 0, 0, 0)                      \
  X(TRANSPOSE, "transpose", "transpose", 0, 0, 0, 0)       \
  X(GEMM, "gemm", "gemm", 0, 0, 0, 0)                      \
  DUET__FAST_GROUPS(X, , "", 0)                            \
  DUET__FAST_GROUPS(X, _SC, "_scalar", "GEMM_FAST_SCALAR") \
  X(GEMM_SKINNY, "gemm_skinny", "gemm_skinny", 0, 0, 1, 0) \
  X(GEMM_GEMV, "gemm_gemv", "gemm_gemv", 0, 0, 1, 0)       \
  X(GEMM_PACK, "gemm_pack", "gemm_pack", 0, 0, 1, 0)       \
  X(VECTOR, "vector", "vector", 0, 0, 0, 0)                \
  X(REDUCE, "reduce", "reduce", 0, 0, 0, 0)                \
  X(STENCIL, "stencil", "stencil", 0, 0, 0, 0)

typedef enum {
#define DUET__GROUP_ENUM(id, ...) DUET__G_##id,
  DUET__GROUPS(DUET__GROUP_ENUM)
#undef DUET__GROUP_ENUM
      DUET__G_COUNT
} duet__group;

typedef struct {
  const char *name, *source;
  const char *from, *to; /* tunable prefix renamed in the -D options, or NULL */
  int after_prior;       /* its kernels wait for the launch before them themselves */
  const char *define;    /* set to 1 in its build, or NULL */
} duet__group_desc;

extern const duet__group_desc duet__groups[DUET__G_COUNT];

/* fast's kernels (big tile to flat, stream-K's, the clusters'), one run of ids, then the same
 * run again as their scalar twins (the gemm_fast*_scalar groups), each id suffixed _SC. */
#define DUET__FAST_KERNEL_IDS(X, S) \
  X(SGEMM_FAST_NN##S)               \
  X(SGEMM_FAST_NT##S)               \
  X(SGEMM_FAST_TN##S)               \
  X(SGEMM_FAST_TT##S)               \
  X(SGEMM_FAST_SMALL_NN##S)         \
  X(SGEMM_FAST_SMALL_NT##S)         \
  X(SGEMM_FAST_SMALL_TN##S)         \
  X(SGEMM_FAST_SMALL_TT##S)         \
  X(SGEMM_FAST_TINY_NN##S)          \
  X(SGEMM_FAST_TINY_NT##S)          \
  X(SGEMM_FAST_TINY_TN##S)          \
  X(SGEMM_FAST_TINY_TT##S)          \
  X(SGEMM_FAST_TALL_NN##S)          \
  X(SGEMM_FAST_TALL_NT##S)          \
  X(SGEMM_FAST_TALL_TN##S)          \
  X(SGEMM_FAST_TALL_TT##S)          \
  X(SGEMM_FAST_WIDE_NN##S)          \
  X(SGEMM_FAST_WIDE_NT##S)          \
  X(SGEMM_FAST_WIDE_TN##S)          \
  X(SGEMM_FAST_WIDE_TT##S)          \
  X(SGEMM_FAST_MID_NN##S)           \
  X(SGEMM_FAST_MID_NT##S)           \
  X(SGEMM_FAST_MID_TN##S)           \
  X(SGEMM_FAST_MID_TT##S)           \
  X(SGEMM_FAST_NARROW_NN##S)        \
  X(SGEMM_FAST_NARROW_NT##S)        \
  X(SGEMM_FAST_NARROW_TN##S)        \
  X(SGEMM_FAST_NARROW_TT##S)        \
  X(SGEMM_FAST_FLAT_NN##S)          \
  X(SGEMM_FAST_FLAT_NT##S)          \
  X(SGEMM_FAST_FLAT_TN##S)          \
  X(SGEMM_FAST_FLAT_TT##S)          \
  X(SGEMM_FAST_SK_NN##S)            \
  X(SGEMM_FAST_SK_NT##S)            \
  X(SGEMM_FAST_SK_TN##S)            \
  X(SGEMM_FAST_SK_TT##S)            \
  X(SGEMM_FAST_TINY_SK_NN##S)       \
  X(SGEMM_FAST_TINY_SK_NT##S)       \
  X(SGEMM_FAST_TINY_SK_TN##S)       \
  X(SGEMM_FAST_TINY_SK_TT##S)       \
  X(SGEMM_FAST_SMALL_CS_NN##S)      \
  X(SGEMM_FAST_SMALL_CS_NT##S)      \
  X(SGEMM_FAST_SMALL_CS_TN##S)      \
  X(SGEMM_FAST_SMALL_CS_TT##S)      \
  X(SGEMM_FAST_TINY_CS_NN##S)       \
  X(SGEMM_FAST_TINY_CS_NT##S)       \
  X(SGEMM_FAST_TINY_CS_TN##S)       \
  X(SGEMM_FAST_TINY_CS_TT##S)
#define DUET__KERNEL_IDS(X)     \
  X(COPY)                       \
  X(SCALE)                      \
  X(TRANSPOSE_NAIVE)            \
  X(TRANSPOSE_COALESCED)        \
  X(TRANSPOSE_PADDED)           \
  X(TRANSPOSE_PADDED_TALL)      \
  X(TRANSPOSE_REGISTER)         \
  X(SGEMM_NAIVE)                \
  X(SGEMM_COALESCED)            \
  X(SGEMM_TILED)                \
  X(SGEMM_REGISTER)             \
  DUET__FAST_KERNEL_IDS(X, )    \
  DUET__FAST_KERNEL_IDS(X, _SC) \
  X(SGEMM_SPLITK_REDUCE)        \
  X(SGEMM_SKINNY)               \
  X(SGEMM_SKINNY_DOT)           \
  X(SGEMV)                      \
  X(SGEMV_DOT)                  \
  X(SGEMM_PACK)                 \
  X(VECTOR_ADD)                 \
  X(REDUCE_NAIVE)               \
  X(REDUCE_SEQUENTIAL)          \
  X(REDUCE_SHUFFLE)             \
  X(REDUCE_SHUFFLE_ONCE)        \
  X(REDUCE_ATOMIC)              \
  X(STENCIL_NAIVE)              \
  X(STENCIL_SHARED)             \
  X(STENCIL_REGISTER4)          \
  X(STENCIL_REGISTER16)

typedef enum {
#define DUET__KERNEL_ENUM(id) DUET__K_##id,
  DUET__KERNEL_IDS(DUET__KERNEL_ENUM)
#undef DUET__KERNEL_ENUM
      DUET__K_COUNT
} duet__kernel;

/* The most blocks of a thread-block cluster the plan uses (the cluster kernels, CUDA on compute
 * capability 9.0: 8 is the portable limit). */
#define DUET__CLUSTER_MAX 8

/* fast's kernels come in fours, one per transpose combination, their ids in the order nn, nt,
 * tn, tt from the four's first (SGEMM_FAST_NN, _SMALL_NN, _TINY_NN, _TALL_NN, _WIDE_NN, _MID_NN,
 * _NARROW_NN, _FLAT_NN, _SK_NN, _TINY_SK_NN, _SMALL_CS_NN, _TINY_CS_NN): the kernel of the four
 * that starts at nn for op(A) = A^T where ta, op(B) = B^T where tb. */
static inline duet__kernel duet__kernel_for_trans(duet__kernel nn, int ta, int tb) {
  return (duet__kernel)(nn + 2 * !!ta + !!tb);
}

/* fast's kernels and their scalar twins: each run of ids (DUET__FAST_KERNEL_IDS) and a kernel's
 * place in the other. */
#define DUET__FAST_TWIN (DUET__K_SGEMM_FAST_NN_SC - DUET__K_SGEMM_FAST_NN)
static inline int duet__kernel_is_fast(duet__kernel k) {
  return k >= DUET__K_SGEMM_FAST_NN && k <= DUET__K_SGEMM_FAST_TINY_CS_TT_SC;
}
static inline int duet__kernel_is_scalar(duet__kernel k) {
  return k >= DUET__K_SGEMM_FAST_NN_SC && k <= DUET__K_SGEMM_FAST_TINY_CS_TT_SC;
}
/* The vector-layout kernel of k (k itself but for a scalar twin), and k's scalar twin (k itself
 * but for fast's own kernels). */
static inline duet__kernel duet__kernel_vector(duet__kernel k) {
  return duet__kernel_is_scalar(k) ? (duet__kernel)(k - DUET__FAST_TWIN) : k;
}
static inline duet__kernel duet__kernel_scalar(duet__kernel k) {
  return duet__kernel_is_fast(k) && !duet__kernel_is_scalar(k) ? (duet__kernel)(k + DUET__FAST_TWIN)
                                                               : k;
}

/* What one block of a kernel covers and needs, for given tunable values: it computes a
 * tile_x x tile_y piece of its output with block_x x block_y threads and shared_bytes of
 * dynamic shared (CUDA) or __local (OpenCL) memory. The grid covers the output with such
 * tiles, y capped at the backend's grid limit (kernels walk further y tiles in a loop). */
typedef struct {
  unsigned tile_x, tile_y;
  unsigned block_x, block_y;
  size_t shared_bytes;
  int x_walks_rows;    /* the grid's x axis runs along the output's rows, not its columns */
  unsigned min_blocks; /* blocks per compute unit its registers must allow (0: the compiler's
                          choice); the CUDA twin states the same in __launch_bounds__ */
  int z_cluster;       /* the grid's z blocks of one x, y form a thread-block cluster (CUDA) */
} duet__shape;

/* The skinny kernels' fixed geometry (kernels_cl/gemm_skinny.cl, written once for both backends,
 * is written for these values; not tunables: each load compares the kernel's block with the
 * manifest's, so a kernel built for others is refused). skinny: SKINNY_LX x SKINNY_KG threads,
 * SKINNY_KG groups along k, SKINNY_PER_THREAD outputs per thread, SKINNY_TILE along the strip per
 * block. skinny-dot: DOT_LX lanes per output, DOT_RY outputs per block, k in chunks of DOT_KC. */
enum {
  DUET__SKINNY_LX = 64,
  DUET__SKINNY_KG = 4,
  DUET__SKINNY_PER_THREAD = 4,
  DUET__SKINNY_TILE = DUET__SKINNY_PER_THREAD * DUET__SKINNY_LX,
  DUET__DOT_LX = 32,
  DUET__DOT_RY = 8,
  DUET__DOT_KC = 512
};

/* The one test of a block against a device's limits: its threads against the device's and the
 * kernel's own (kernel_threads 0: not known, the device's alone) and its shared bytes. */
static inline int duet__shape_fits(const duet__shape *s, unsigned device_threads,
                                   unsigned kernel_threads, size_t shared_bytes) {
  const unsigned threads = s->block_x * s->block_y;
  return threads <= device_threads && (!kernel_threads || threads <= kernel_threads) &&
         s->shared_bytes <= shared_bytes;
}

/* The scalars of the simple sgemm kernels (naive, coalesced, tiled, register) as one argument
 * by value: NVIDIA's OpenCL enqueue costs time per scalar argument, and a 1 x 1 sgemm is a
 * launch of one of these kernels (docs/results/tuning-notes.md has the measurement).
 * kernels_cl/common.cl declares the same struct, field for field; 64 bytes, no padding. */
typedef struct {
  long long m, n, k, lda, ldb, ldc;
  float alpha, beta;
  int ta, tb;
} duet__gemm_scalars;

/* Argument kinds, one letter each in a signature string, in the kernel's parameter order:
 * m a buffer, l a 64-bit integer, i a 32-bit integer, f a float, g a duet__gemm_scalars, s the
 * shared/__local scratch (CUDA: the launch's dynamic shared memory, not a parameter; OpenCL: a
 * __local argument). */
/* A set of tunables, a bit each (DUET__TBIT): 128 bits, since the database passed 64 rows (GCC's
 * and nvcc's unsigned __int128). */
__extension__ typedef unsigned __int128 duet__tmask;

typedef struct {
  const char *name; /* the kernel's name in kernels_cu/ and kernels_cl/ */
  duet__group group;
  const char *sig;
  duet__tmask tunables; /* DUET__TBIT()s: the values its group is built with */
  void (*shape)(const int *t, duet__shape *s);
} duet__kernel_desc;

extern const duet__kernel_desc duet__manifest[DUET__K_COUNT];

/* ---- tuning (src/tuning.c) ------------------------------------------------------------------ */
const char *duet__tunable_name(duet__tunable t);
const char *duet__set_name(duet__tuning_set s);
/* The database's value of t in set s. */
int duet__tunable_default(duet__tuning_set s, duet__tunable t);

#endif
