/* SPDX-License-Identifier: MIT */
/* A GEMM call's plan as a value: which variant runs, how C is cut into pieces, the kernel,
 * orientation, k slices and stream-K share of each piece, and the scratch each needs. One pure
 * function computes it from the device's capabilities, the tunable values and the call's shape
 * (src/gemm_plan.c); src/gemm.c turns it into launches. Nothing here touches a context, so the
 * plan of any shape on any (fabricated) device can be computed and tested on the host
 * (tests/test_plan.c). */
#ifndef DUET_GEMM_PLAN_H
#define DUET_GEMM_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "duet_internal.h"

/* Indexed by duet_gemm_variant: each variant's name and, but for fast, its one kernel. */
#define DUET__GEMM_VARIANTS (DUET_GEMM_FAST + 1)
extern const duet__variant duet__gemm_variants[DUET__GEMM_VARIANTS];

/* What the plan needs to know of the device. kernel_threads and unusable are what loading
 * kernels taught (a kernel's own block limit, a group that failed to build); a plan made
 * before any load assumes every kernel loads and is limited by the device alone. */
typedef struct {
  unsigned units;                         /* compute units (0 counts as 1) */
  unsigned max_block_threads;             /* the device's block limit */
  size_t shared_bytes;                    /* shared memory one block may have */
  size_t cache_bytes;                     /* the last-level cache, 0: not known */
  unsigned kernel_threads[DUET__K_COUNT]; /* 0: not known, the device's limit applies */
  unsigned char unusable[DUET__K_COUNT];  /* 1: kernel k failed to load */
  /* the most clusters of s blocks (1 <= s <= DUET__CLUSTER_MAX) of the small (cluster_slots[0])
   * and the tiny tile's cluster kernel (cluster_slots[1]) resident at once; 0 for all of them:
   * no clusters (the plan never takes those kernels). The backend reports them as it loads the
   * kernel; before that, cluster_max > 0 alone says the device has clusters. */
  unsigned cluster_max; /* the most blocks of a cluster, 0: none */
  unsigned cluster_slots[2][DUET__CLUSTER_MAX + 1];
} duet__gemm_caps;

/* One call, as duet_sgemm takes it (leading dimensions of A and B decide packing; alpha and
 * beta only whether anything is multiplied). */
typedef struct {
  duet_gemm_variant variant; /* may be DUET_GEMM_AUTO */
  int ta, tb;
  size_t m, n, k, lda, ldb;
  float alpha, beta;
} duet__gemm_shape;

/* The thin side of a skinny piece, as the skinny kernels read it. */
typedef enum { DUET__THIN_NONE, DUET__THIN_ROWS, DUET__THIN_COLS } duet__thin;

/* A piece of C that fast computes with one kernel: rows [r0, r0 + rows), columns [c0, c0 +
 * cols). */
typedef struct {
  size_t r0, rows, c0, cols;
  duet__kernel kernel; /* fast at any tile, a stream-K kernel, skinny, skinny-dot, or GEMV */
  unsigned splits;     /* k slices; above 1, partial products into the work region and then
                          DUET__K_SGEMM_SPLITK_REDUCE (GEMV and the cluster kernels: summed in
                          their own launch) */
  size_t sk_tiles;     /* stream-K: the last tiles whose k iterations the units share; 0 none */
  size_t sk_units;     /* stream-K: the blocks that share them, one a compute unit, or ... */
  unsigned sk_slices;  /* ... split-K summed in its one launch: every tile in sk_slices k slices,
                          a block each (sk_units = tiles x sk_slices); 0: not that */
  size_t blocks;       /* a 1D grid (skinny, stream-K), else 0: the kernel's tiles over the piece */
  size_t reduce_grid;  /* split-K: the reduction's 1D grid */
  unsigned reduce_lanes; /* split-K: the reduction's threads per element of C (reduction_lanes) */
  duet__thin thin;       /* skinny, skinny-dot and GEMV: the thin side */
  size_t work_bytes;     /* of the work region: split-K partials or stream-K slots */
  size_t flag_bytes;     /* of the flags region: stream-K's tickets */
} duet__gemm_piece;

/* An operand of fast copied into the arena at a leading dimension that allows vector loads,
 * padded to whole tiles along m (A) or n (B); both copies are one launch of duet_sgemm_pack. */
typedef struct {
  int on;
  size_t rows, cols; /* the stored matrix copied */
  size_t ld;         /* the copy's */
  size_t reach;      /* how far along m or n the kernels may read it */
  size_t bytes;      /* of the copy, padding included */
  size_t tiles;      /* duet_sgemm_pack's blocks over it (TRANSPOSE_TILE square tiles) */
} duet__gemm_pack;

typedef enum {
  DUET__GEMM_NOTHING, /* m or n is 0, or beta is 1 with nothing to add */
  DUET__GEMM_SCALE,   /* k == 0 or alpha == 0: C = beta * C */
  DUET__GEMM_SIMPLE,  /* one launch of a course kernel over C (naive, coalesced, tiled, register) */
  DUET__GEMM_FAST     /* packs (one launch), then the pieces */
} duet__gemm_form;

#define DUET__GEMM_MAX_PIECES 3
typedef struct {
  duet_gemm_variant variant; /* the variant that runs: AUTO's pick */
  duet__gemm_form form;
  duet__kernel kernel;     /* SCALE and SIMPLE: their one kernel */
  duet__gemm_pack pack[2]; /* FAST: A, B */
  unsigned npieces;
  duet__gemm_piece piece[DUET__GEMM_MAX_PIECES];
  size_t work_bytes, flag_bytes; /* the most any piece needs of each region */
  unsigned units;                /* compute units (the big tile's stream-K: a block each) */
  unsigned launches;             /* what the emitter enqueues */
} duet__gemm_plan;

/* The plan of `shape` on a device with caps and tunable values tun (the context's, indexed by
 * duet__tunable). AUTO takes the first variant of its order whose every kernel fits caps;
 * skinny pieces take their kernel only where it fits, else keep their tile. Returns DUET_OK;
 * DUET_EUNSUPPORTED where AUTO finds no variant that fits (*out is then the plan of the first
 * one it would have taken, whose launch says why); DUET_ENOMEM where a piece's scratch would
 * exceed the address space. Pure: same inputs, same plan. */
int duet__gemm_plan_make(const duet__gemm_caps *caps, const int *tun, const duet__gemm_shape *shape,
                         duet__gemm_plan *out);

/* Whether kernel k's block, at the values tun, fits caps (and k is not known to be unusable).
 * The one test of a block against a device's limits (src/launch.c takes it too). */
int duet__gemm_kernel_fits(const duet__gemm_caps *caps, const int *tun, duet__kernel k);

/* The kernels the plan launches, each once, into ids (at most DUET__K_COUNT); returns how
 * many. */
unsigned duet__gemm_plan_kernels(const duet__gemm_plan *p, duet__kernel *ids);

/* Whether k is a cluster kernel (kernels_cl/gemm_fast.cl, fast_cluster_tiles), whose k slices
 * are summed through a thread-block cluster's shared memory in its one launch. */
int duet__gemm_is_cluster(duet__kernel k);
/* A cluster kernel's table in duet__gemm_caps.cluster_slots: 0 the small tile's, 1 the tiny's. */
int duet__gemm_cluster_table(duet__kernel k);

/* Whether k is a GEMV kernel (sgemv, sgemv-dot), whose k slices are summed inside its one launch
 * (no duet_sgemm_splitk_reduce). */
int duet__gemm_is_gemv(duet__kernel k);

/* The plan as text (src/gemm_plan_text.c): a line for the call, then one per piece and per
 * packed operand, each ending in '\n', into buf (len bytes, always terminated, cut short where it
 * does not fit). Returns the length the whole text needs, as snprintf does. */
size_t duet__gemm_plan_format(const duet__gemm_plan *p, const duet__gemm_shape *shape,
                              const int *tun, char *buf, size_t len);

#endif
