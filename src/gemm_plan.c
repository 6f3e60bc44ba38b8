/* SPDX-License-Identifier: MIT */
/* The GEMM plan (src/gemm_plan.h): every decision of a duet_sgemm call, made here once, from
 * the device's capabilities, the tunable values and the shape. Pure: no context, no device. */
#include <string.h>

#include "duet_internal.h"
#include "gemm_plan.h"

#define T(name) ((size_t)tun[DUET__T_##name])

/* Indexed by duet_gemm_variant; AUTO is resolved per call (auto_order). */
const duet__variant duet__gemm_variants[DUET__GEMM_VARIANTS] = {
    [DUET_GEMM_AUTO] = {"auto", DUET__K_SGEMM_TILED},
    [DUET_GEMM_NAIVE] = {"naive", DUET__K_SGEMM_NAIVE},
    [DUET_GEMM_COALESCED] = {"coalesced", DUET__K_SGEMM_COALESCED},
    [DUET_GEMM_TILED] = {"tiled", DUET__K_SGEMM_TILED},
    [DUET_GEMM_REGISTER] = {"register", DUET__K_SGEMM_REGISTER},
    [DUET_GEMM_FAST] = {"fast", DUET__K_SGEMM_FAST_NN},
};

/* AUTO's order of preference: fast, the fastest on every device measured (docs/results/), then
 * tiled. A single row or column of C is fast's too: its plan gives it a GEMV kernel (gemv_piece;
 * the rule that sent m = 1 to coalesced predates the skinny and GEMV kernels, and coalesced ran
 * 1 x 4096 x 4096 at 0.04 of cuBLAS on the H100). AUTO takes the first whose every kernel fits
 * the device, down to naive: a device limited to 128 work-items, or a kernel group that failed to
 * build, hands the call to the next. */
#define AUTO_LEN 5
static const duet_gemm_variant auto_order[AUTO_LEN] = {
    DUET_GEMM_FAST, DUET_GEMM_TILED, DUET_GEMM_REGISTER, DUET_GEMM_COALESCED, DUET_GEMM_NAIVE};
/* Where m, n and k are all at most GEMM_AUTO_TILED_MAX, tiled first: the call is one launch's
 * latency, and tiled's small block starts sooner than fast's (docs/results/tuning-notes.md). */
static const duet_gemm_variant auto_order_small[AUTO_LEN] = {
    DUET_GEMM_TILED, DUET_GEMM_FAST, DUET_GEMM_REGISTER, DUET_GEMM_COALESCED, DUET_GEMM_NAIVE};
/* Where C has at most GEMM_AUTO_COALESCED_MAX elements and more than one row and column,
 * coalesced first: a work-item an element with k in its loop, where fast's tiles would leave
 * nearly all of their lanes idle (PoCL: 4 x 4 x 65536 in 0.99 ms against fast's 2.56; from
 * about 40 elements fast's tiles in k slices are the faster, docs/results/tuning-notes.md). */
static const duet_gemm_variant auto_order_tiny_c[AUTO_LEN] = {
    DUET_GEMM_COALESCED, DUET_GEMM_FAST, DUET_GEMM_TILED, DUET_GEMM_REGISTER, DUET_GEMM_NAIVE};

/* Stream-K's flags (kernels_cl/gemm_fast.cl, fast_stream_k) count a tile's units in 10 bits. */
enum { SK_MAX_UNITS = 0x3ff };

static size_t units(const duet__gemm_caps *c) { return c->units ? c->units : 1; }
static size_t round_up(size_t x, size_t g) { return duet__ceil_div(x, g) * g; }

int duet__gemm_kernel_fits(const duet__gemm_caps *caps, const int *tun, duet__kernel k) {
  duet__shape s;
  if (caps->unusable[k]) return 0;
  duet__manifest[k].shape(tun, &s);
  return duet__shape_fits(&s, caps->max_block_threads, caps->kernel_threads[k], caps->shared_bytes);
}

/* The piece of C one block of fast's big kernel (small 0) or of its small one covers. */
typedef struct {
  size_t m, n;
} tile;
static tile fast_tile(const int *tun, int small) {
  return small ? (tile){T(GEMM_FAST_SMALL_BM), T(GEMM_FAST_SMALL_BN)}
               : (tile){T(GEMM_FAST_BM), T(GEMM_FAST_BN)};
}
static size_t tiles_over(tile d, size_t rows, size_t cols) {
  return duet__ceil_div(rows, d.m) * duet__ceil_div(cols, d.n);
}

/* The inputs every rule below reads. */
typedef struct {
  const duet__gemm_caps *caps;
  const int *tun;
  const duet__gemm_shape *s;
} inputs;

static size_t big_tiles(const inputs *x, size_t rows, size_t cols) {
  return tiles_over(fast_tile(x->tun, 0), rows, cols);
}
/* Whether the piece fills at least GEMM_FAST_BIG_FILL_PCT percent of the big tiles over it. */
static int big_fills(const inputs *x, size_t rows, size_t cols) {
  const int *tun = x->tun;
  const tile big = fast_tile(tun, 0);
  return (double)rows * (double)cols * 100.0 >= (double)T(GEMM_FAST_BIG_FILL_PCT) *
                                                    (double)big_tiles(x, rows, cols) *
                                                    (double)big.m * (double)big.n;
}
static size_t waves(const inputs *x, size_t rows, size_t cols) {
  return duet__ceil_div(big_tiles(x, rows, cols), units(x->caps));
}

/* One of the tiles fast's plain kernel comes in, for the cost model below. */
typedef struct {
  duet__kernel kernel;
  tile t;
  size_t bk, per_cu, pct; /* k step, blocks resident on a unit, multiply-add rate (percent) */
  int lone_waits;         /* a block alone on a unit waits for its loads (every tile but the big) */
  size_t min_k;           /* the least k of a slice where k is split (0: GEMM_SPLITK_MIN_K's) */
  size_t fuse;            /* the most k slices summed in the launch (fuse_splits), 0 none */
  duet__kernel cluster;   /* its cluster kernel for these transposes (sums the slices through a
                             cluster's shared memory), or 0 (COPY): none */
  size_t cluster_most;    /* the most slices a cluster of it takes; 0 none */
  size_t cluster_k;       /* ... each shorter than this where its units run at most half the
                             blocks they hold (GEMM_SPLITK_CLUSTER_TINY_K, _SMALL_K), 0 any */
  const unsigned *slots;  /* the cluster kernel's resident clusters per size (caps), 0 unknown */
} tile_kind;

/* A tile of the four that starts at nn, for the transposes ta, tb, at per_cu blocks a unit and
 * pct percent of the small tile's multiply-add rate. */
static tile_kind kind_of(duet__kernel nn, int ta, int tb, size_t bm, size_t bn, size_t bk,
                         size_t per_cu, size_t pct) {
  return (tile_kind){
      duet__kernel_for_trans(nn, ta, tb), {bm, bn}, bk, per_cu, pct, 1, 0, 0, 0, 0, 0, NULL};
}

int duet__gemm_is_cluster(duet__kernel k) {
  k = duet__kernel_vector(k);
  return k >= DUET__K_SGEMM_FAST_SMALL_CS_NN && k <= DUET__K_SGEMM_FAST_TINY_CS_TT;
}
/* a scalar twin shares its tile's table: the same block and shared memory */
int duet__gemm_cluster_table(duet__kernel k) {
  return duet__kernel_vector(k) >= DUET__K_SGEMM_FAST_TINY_CS_NN;
}

/* The small and tiny tiles' cluster kernels (kernels_cl/gemm_fast.cl, fast_cluster_tiles), where
 * GEMM_SPLITK_CLUSTER allows them, the device has clusters and the kernel fits. */
static void with_cluster(const inputs *x, tile_kind *f, duet__kernel cs_nn) {
  const int *tun = x->tun;
  const duet__kernel cs = duet__kernel_for_trans(cs_nn, x->s->ta, x->s->tb);
  const size_t most =
      T(GEMM_SPLITK_CLUSTER) < x->caps->cluster_max ? T(GEMM_SPLITK_CLUSTER) : x->caps->cluster_max;
  if (most < 2 || !duet__gemm_kernel_fits(x->caps, tun, cs)) return;
  const int tiny = duet__gemm_cluster_table(cs); /* 1: the tiny tile's, 0: the small's */
  f->cluster = cs;
  f->cluster_most = most;
  f->cluster_k = tiny ? T(GEMM_SPLITK_CLUSTER_TINY_K) : T(GEMM_SPLITK_CLUSTER_SMALL_K);
  f->slots = x->caps->cluster_slots[tiny];
}

/* Whether plain fast kernel k is the tiny tile's, whose stream-K kernel sums split-K's slices in
 * its one launch: the small tile's partial products, four times as large, made that sum slower
 * than the reduction's launch on the H200 (docs/results/h200.md, nineteenth session). */
static int has_fused(duet__kernel k) {
  return k >= DUET__K_SGEMM_FAST_TINY_NN && k <= DUET__K_SGEMM_FAST_TINY_TT;
}
static duet__kernel fused_kernel(duet__kernel k) {
  return (duet__kernel)(k - DUET__K_SGEMM_FAST_TINY_NN + DUET__K_SGEMM_FAST_TINY_SK_NN);
}

/* The most k slices of tile kernel k that its launch sums (GEMM_SPLITK_FUSE, where k has a
 * stream-K kernel that fits the device), else 0. */
static size_t fuse_limit(const inputs *x, duet__kernel k) {
  const int *tun = x->tun;
  return has_fused(k) && duet__gemm_kernel_fits(x->caps, tun, fused_kernel(k)) ? T(GEMM_SPLITK_FUSE)
                                                                               : 0;
}

/* A k step's multiply-adds of one block of tile f, in the model's cycles. */
static double step_macs(const inputs *x, const tile_kind *f) {
  const int *tun = x->tun;
  return (double)(f->t.m * f->t.n * f->bk) / (double)T(GEMM_COST_LANES) * 100.0 / (double)f->pct;
}

/* A k step on a unit running conc blocks of tile f at once: their multiply-adds together, or one
 * block's and the latency of its loads where that is longer (share: the part of that latency a
 * lone block of f waits, 0 to 1). */
static double step_cycles(const inputs *x, const tile_kind *f, size_t conc, double share) {
  const int *tun = x->tun;
  const double mac = step_macs(x, f), step = (double)conc * mac;
  const double wait = share * (double)T(GEMM_COST_LAT) * (double)f->bk / 8.0;
  return step > mac + wait ? step : mac + wait;
}

/* The model's cycles for a piece on tile f in s k slices, on its busiest unit: its blocks' k
 * steps, the unit running up to per_cu blocks at once, a step taking the longer of their
 * multiply-adds together and one block's plus the loads' latency (a lone block waits for its
 * loads, several hide each other's; the latency counted per 8 of the step's k, as it was fitted;
 * the big tile, built to run alone on a unit, hides its own);
 * then, for s > 1, the reduction's launch (none where the launch sums its slices: fuse_splits)
 * and the partial products' traffic. Only comparisons of its values matter
 * (docs/results/tuning-notes.md). */
static double piece_cost(const inputs *x, const duet__gemm_piece *q, const tile_kind *f, size_t s) {
  const int *tun = x->tun;
  const size_t u = units(x->caps);
  const size_t busiest = duet__ceil_div(tiles_over(f->t, q->rows, q->cols) * s, u);
  const size_t conc = busiest < f->per_cu ? busiest : f->per_cu;
  const size_t kc = round_up(duet__ceil_div(x->s->k, s), f->bk); /* as splitk_slice cuts k */
  const double lat = (double)T(GEMM_COST_LAT);
  double cost = (double)duet__ceil_div(busiest, f->per_cu) * (double)(kc / f->bk) *
                step_cycles(x, f, conc, f->lone_waits ? 1.0 : 0.0);
  if (s > 1)
    cost += (s <= f->fuse ? 0.0 : (double)T(GEMM_SPLITK_LAUNCH) * lat) +
            (double)s * (double)q->rows * (double)q->cols / (double)u / (double)T(GEMM_SPLITK_BW);
  return cost;
}

/* Whether the piece's operands, its rows of op(A) and columns of op(B), are more than the
 * device's last-level cache holds (not known: no), so that its loads come from memory. */
static int streams_operands(const inputs *x, const duet__gemm_piece *q) {
  const double bytes = ((double)q->rows + (double)q->cols) * (double)x->s->k * sizeof(float);
  return x->caps->cache_bytes && bytes > (double)x->caps->cache_bytes;
}

/* The share of its loads' latency that a block alone on its unit waits in a cluster kernel of
 * tile f: all of it where the operands stream from memory, GEMM_COST_CLUSTER_WAIT_PCT where they
 * fit in the cache. */
static double cluster_wait(const inputs *x, const duet__gemm_piece *q, const tile_kind *f) {
  const int *tun = x->tun;
  if (!f->lone_waits) return 0.0;
  return streams_operands(x, q) ? 1.0 : (double)T(GEMM_COST_CLUSTER_WAIT_PCT) / 100.0;
}

/* The model's cycles for a piece on tile f's cluster kernel in s k slices (2 <= s): as
 * piece_cost's, but its rounds those the clusters resident at once allow (the backend's count,
 * which clusters bound to one GPC of the device make fewer than units * per_cu / s: on an H200,
 * 62 clusters of 4 small tiles, not 66), and no reduction: the slices are summed through shared
 * memory in the launch (docs/results/h200.md, twenty-fourth session). A lone block waits for its
 * loads where the operands stream from memory, and as GEMM_COST_CLUSTER_WAIT_PCT says where they
 * do not: from the cache its one-body kernel ran a block alone on a unit at 0.87 of two blocks'
 * rate (1000^3 and 1024^3), where GEMM_COST_LAT makes it 0.67; from memory 64 x 4096 x 16384 ran
 * in 2 slices a cluster at 0.35 of cuBLAS, against 0.70 in 6 slices and a reduction (H200,
 * thirty-first session). */
static double cluster_cost(const inputs *x, const duet__gemm_piece *q, const tile_kind *f,
                           size_t s) {
  const size_t u = units(x->caps);
  const size_t tiles = tiles_over(f->t, q->rows, q->cols);
  const size_t busiest = duet__ceil_div(tiles * s, u); /* blocks on the busiest unit */
  const size_t conc = busiest < f->per_cu ? busiest : f->per_cu;
  size_t slots = f->slots[s] ? f->slots[s] : u * f->per_cu / s;
  if (!slots) slots = 1;
  const size_t kc = round_up(duet__ceil_div(x->s->k, s), f->bk);
  return (double)duet__ceil_div(tiles, slots) * (double)(kc / f->bk) *
         step_cycles(x, f, conc, cluster_wait(x, q, f));
}

/* The most k slices a piece may take: GEMM_SPLITK_MAX, each of at least GEMM_SPLITK_MIN_K, their
 * partial products in at most GEMM_SPLITK_MAX_MIB; 1 where the reduction does not fit. */
static size_t max_slices(const inputs *x, const duet__gemm_piece *q) {
  const int *tun = x->tun;
  size_t s = T(GEMM_SPLITK_MAX);
  const size_t by_k = x->s->k / T(GEMM_SPLITK_MIN_K);
  const size_t by_mem = (T(GEMM_SPLITK_MAX_MIB) << 20) / (q->rows * q->cols * sizeof(float));
  if (by_k < s) s = by_k;
  if (by_mem < s) s = by_mem;
  if (!duet__gemm_kernel_fits(x->caps, tun, DUET__K_SGEMM_SPLITK_REDUCE)) s = 1;
  return s ? s : 1;
}

/* How fast covers a piece: the tiny tile (or the tall or wide one where the piece is thin on
 * that side alone, GEMM_FAST_THIN) in one slice where k is at most GEMM_FAST_SHALLOW_TINY_K; the
 * big tile where it gives enough tiles to fill the compute units, the piece fills enough of them
 * (GEMM_FAST_BIG_FILL_PCT) and k is deeper than GEMM_FAST_SHALLOW_K, else the small, the mid
 * (GEMM_FAST_MID_PCT, or GEMM_FAST_MID_THIN_PCT where the piece is one of them across), the flat
 * (GEMM_FAST_MID_THIN_PCT), the tiny, the tall, the narrow (GEMM_FAST_NARROW_PCT) or the wide
 * tile (GEMM_FAST_THIN), in one launch or split along k, or the big tile split along k
 * (GEMM_FAST_BIG_SPLIT_PCT), whichever piece_cost finds fastest.
 * The slice counts tried: 1, the most that give the busiest unit b blocks for b up to four rounds
 * of resident blocks, and the most allowed (at n = 1024 on 132 units: 64 small tiles in 4 slices;
 * 128 x 128 x 65536: 4 tiny tiles in 132). */
static void tile_piece(const inputs *x, duet__gemm_piece *q) {
  const int *tun = x->tun;
  const size_t u = units(x->caps), k = x->s->k;
  const int ta = x->s->ta, tb = x->s->tb;
  q->splits = 1;
  const duet__kernel tiny = duet__kernel_for_trans(DUET__K_SGEMM_FAST_TINY_NN, ta, tb);
  /* the piece's columns fit one tall tile across, its rows one wide tile (GEMM_FAST_THIN) */
  const int thin_cols = T(GEMM_FAST_THIN) && q->cols <= T(GEMM_FAST_TALL_BN);
  const int thin_rows = T(GEMM_FAST_THIN) && q->rows <= T(GEMM_FAST_WIDE_BM);
  /* ... or one narrow tile across (GEMM_FAST_NARROW_PCT) */
  const int narrow_cols = thin_cols && T(GEMM_FAST_NARROW_PCT) && q->cols <= T(GEMM_FAST_NARROW_BN);
  /* ... or, too thick for those, one mid tile across and at least one high, or one flat tile
   * high and at least one across (GEMM_FAST_MID_THIN_PCT, from GEMM_FAST_MID_THIN_MIN_K of k) */
  const size_t thin_pct = k >= (size_t)T(GEMM_FAST_MID_THIN_MIN_K) ? T(GEMM_FAST_MID_THIN_PCT) : 0;
  const int mid_cols = thin_pct && q->cols > T(GEMM_FAST_TALL_BN) &&
                       q->cols <= T(GEMM_FAST_MID_BN) && q->rows >= T(GEMM_FAST_MID_BM);
  const int flat_rows = thin_pct && q->rows > T(GEMM_FAST_WIDE_BM) &&
                        q->rows <= T(GEMM_FAST_FLAT_BM) && q->cols >= T(GEMM_FAST_FLAT_BN);
  if (k <= T(GEMM_FAST_SHALLOW_TINY_K) && duet__gemm_kernel_fits(x->caps, tun, tiny)) {
    /* a C thin on one side only takes the thin tile of that side (as many outputs a block as
     * the tiny tile, none of them past the C's thin side) */
    const duet__kernel thin = duet__kernel_for_trans(
        thin_cols ? DUET__K_SGEMM_FAST_TALL_NN : DUET__K_SGEMM_FAST_WIDE_NN, ta, tb);
    q->kernel = thin_cols != thin_rows && duet__gemm_kernel_fits(x->caps, tun, thin) ? thin : tiny;
    return;
  }
  if (big_tiles(x, q->rows, q->cols) * 100 >= u * T(GEMM_FAST_BIG_PCT) &&
      big_fills(x, q->rows, q->cols) && k > T(GEMM_FAST_SHALLOW_K)) {
    q->kernel = duet__kernel_for_trans(DUET__K_SGEMM_FAST_NN, ta, tb);
    return;
  }
  /* the tall and wide tiles (at the tiny tile's residency and rate) where the piece's thin side
   * fits one of them across, weighed first so that they win a tie: the model's time is the same
   * where the square tiles' extra outputs hide in idle units, and theirs are loads saved */
  const duet__kernel small = duet__kernel_for_trans(DUET__K_SGEMM_FAST_SMALL_NN, ta, tb);
  const size_t tiny_cu = T(GEMM_FAST_TINY_PER_CU), tiny_pct = T(GEMM_FAST_TINY_PCT);
  tile_kind kinds[8];
  int nkinds = 0;
  /* the mid tile as a thin one (at its own residency) replaces its weighing as a square one;
   * weighed before the small tile, it never meets the square one's rule against as many slices */
  if (mid_cols)
    kinds[nkinds++] =
        kind_of(DUET__K_SGEMM_FAST_MID_NN, ta, tb, T(GEMM_FAST_MID_BM), T(GEMM_FAST_MID_BN),
                T(GEMM_FAST_MID_BK), T(GEMM_FAST_MID_PER_CU), thin_pct);
  if (flat_rows)
    kinds[nkinds++] =
        kind_of(DUET__K_SGEMM_FAST_FLAT_NN, ta, tb, T(GEMM_FAST_FLAT_BM), T(GEMM_FAST_FLAT_BN),
                T(GEMM_FAST_FLAT_BK), T(GEMM_FAST_MID_PER_CU), thin_pct);
  if (narrow_cols) /* before the tall tile, whose model time it ties where it computes less */
    kinds[nkinds++] =
        kind_of(DUET__K_SGEMM_FAST_NARROW_NN, ta, tb, T(GEMM_FAST_NARROW_BM),
                T(GEMM_FAST_NARROW_BN), T(GEMM_FAST_NARROW_BK), tiny_cu, T(GEMM_FAST_NARROW_PCT));
  if (thin_cols)
    kinds[nkinds++] = kind_of(DUET__K_SGEMM_FAST_TALL_NN, ta, tb, T(GEMM_FAST_TALL_BM),
                              T(GEMM_FAST_TALL_BN), T(GEMM_FAST_TALL_BK), tiny_cu, tiny_pct);
  if (thin_rows)
    kinds[nkinds++] = kind_of(DUET__K_SGEMM_FAST_WIDE_NN, ta, tb, T(GEMM_FAST_WIDE_BM),
                              T(GEMM_FAST_WIDE_BN), T(GEMM_FAST_WIDE_BK), tiny_cu, tiny_pct);
  kinds[nkinds++] =
      kind_of(DUET__K_SGEMM_FAST_SMALL_NN, ta, tb, T(GEMM_FAST_SMALL_BM), T(GEMM_FAST_SMALL_BN),
              T(GEMM_FAST_SMALL_BK), T(GEMM_FAST_SMALL_PER_CU), 100);
  /* the mid tile only where the small tiles leave units idle: on C of more small tiles its
   * higher rate in the model (where it stands in for fewer k slices) did not hold */
  if (!mid_cols && T(GEMM_FAST_MID_PCT) && tiles_over(fast_tile(tun, 1), q->rows, q->cols) < u)
    kinds[nkinds++] =
        kind_of(DUET__K_SGEMM_FAST_MID_NN, ta, tb, T(GEMM_FAST_MID_BM), T(GEMM_FAST_MID_BN),
                T(GEMM_FAST_MID_BK), T(GEMM_FAST_MID_PER_CU), T(GEMM_FAST_MID_PCT));
  kinds[nkinds++] = kind_of(DUET__K_SGEMM_FAST_TINY_NN, ta, tb, T(GEMM_FAST_TINY_BM),
                            T(GEMM_FAST_TINY_BN), T(GEMM_FAST_TINY_BK), tiny_cu, tiny_pct);
  /* the big tile in k slices, one block a unit (GEMM_FAST_BIG_SPLIT_PCT), each at least
   * GEMM_FAST_BIG_SPLIT_MIN_K deep, where the piece fills its tiles and k is not too shallow for
   * it; weighed last, so that a tie keeps the smaller tiles */
  if (T(GEMM_FAST_BIG_SPLIT_PCT) && big_fills(x, q->rows, q->cols) && k > T(GEMM_FAST_SHALLOW_K)) {
    const tile big = fast_tile(tun, 0);
    kinds[nkinds] = kind_of(DUET__K_SGEMM_FAST_NN, ta, tb, big.m, big.n, T(GEMM_FAST_BK), 1,
                            T(GEMM_FAST_BIG_SPLIT_PCT));
    kinds[nkinds].lone_waits = 0;
    kinds[nkinds++].min_k = T(GEMM_FAST_BIG_SPLIT_MIN_K);
  }
  for (int i = 0; i < nkinds; i++) {
    kinds[i].fuse = fuse_limit(x, kinds[i].kernel);
    if (kinds[i].kernel == small) with_cluster(x, &kinds[i], DUET__K_SGEMM_FAST_SMALL_CS_NN);
    if (kinds[i].kernel == tiny) with_cluster(x, &kinds[i], DUET__K_SGEMM_FAST_TINY_CS_NN);
  }
  const size_t smax = max_slices(x, q);
  const duet__kernel mid = duet__kernel_for_trans(DUET__K_SGEMM_FAST_MID_NN, ta, tb);
  size_t small_slices = 0; /* the small tile's cheapest slice count (weighed before the mid) */
  double best = -1.0;
  q->kernel = small; /* the plan's fallback: every other tile is weighed where it fits */
  for (int i = 0; i < nkinds; i++) {
    const tile_kind *f = &kinds[i];
    if (f->kernel != small && !duet__gemm_kernel_fits(x->caps, tun, f->kernel)) continue;
    const size_t tiles = tiles_over(f->t, q->rows, q->cols);
    double kind_best = -1.0;
    size_t kind_slices = 1;
    size_t most = smax; /* the most slices this tile takes: fewer where it wants deeper ones */
    if (f->min_k && k / f->min_k < most) most = k / f->min_k ? k / f->min_k : 1;
    for (size_t b = 0; b <= 4 * f->per_cu + 1; b++) {
      /* b = 0: one slice; then the most slices with b blocks on the busiest unit; last the most
       * allowed */
      size_t s = b == 0 ? 1 : b > 4 * f->per_cu ? most : b * u / tiles;
      if (s < 1 || (b && s < 2)) continue;
      if (s > most) s = most;
      s = duet__ceil_div(k, round_up(duet__ceil_div(k, s), f->bk)); /* no empty slice */
      const double c = piece_cost(x, q, f, s);
      if (kind_best < 0 || c < kind_best) kind_best = c, kind_slices = s;
    }
    if (f->kernel == small) small_slices = kind_slices;
    /* the mid tile only where it takes fewer k slices than the small tile would: where it took
     * as many or more (512^2 x 32768 on NVIDIA's OpenCL, 37 against 33), its rate in the model
     * did not hold (docs/results/tuning-notes.md) */
    const int mid_no_fewer = f->kernel == mid && small_slices && kind_slices >= small_slices;
    if (!mid_no_fewer && (best < 0 || kind_best < best))
      best = kind_best, q->kernel = f->kernel, q->splits = (unsigned)kind_slices;
    /* the cluster kernel in 2 .. GEMM_SPLITK_CLUSTER slices, where it is cheaper still (a tie
     * keeps the plain kernel) */
    for (size_t s = 2; s <= f->cluster_most && s <= smax; s++) {
      const size_t kc = round_up(duet__ceil_div(k, s), f->bk);
      if (duet__ceil_div(k, kc) != s) continue; /* an empty slice */
      /* at most half the blocks a unit holds: too few to hide each step's loads, over too many
       * steps (three of the tiny tile's four hid them: 896^2 x 1024 on the H100, h100.md) */
      if (f->cluster_k && kc >= f->cluster_k && duet__ceil_div(tiles * s, u) <= f->per_cu / 2)
        continue;
      const double c = cluster_cost(x, q, f, s);
      if (c < best) best = c, q->kernel = f->cluster, q->splits = (unsigned)s;
    }
  }
}

/* Stream-K for a piece that takes the big tile, where its tiles leave at least
 * GEMM_FAST_STREAMK_PCT percent of their waves' block slots idle (n = 3072 on 132 units: 288 tiles
 * in 3 waves, 27% idle), or are all whole and fill less than one wave: the last tiles, one wave's
 * worth and the remainder (or all of them, under one wave), are shared out by k iteration among one
 * block per unit. Returns how many tiles that is, 0 for none (docs/results/tuning-notes.md has the
 * measurements behind the rule). The kernel numbers tiles and units in 32 bits. */
static size_t stream_k_tiles(const inputs *x, size_t rows, size_t cols) {
  const int *tun = x->tun;
  const size_t pct = T(GEMM_FAST_STREAMK_PCT), u = units(x->caps);
  const size_t tiles = big_tiles(x, rows, cols), slots = duet__ceil_div(tiles, u) * u;
  const tile big = fast_tile(x->tun, 0);
  const int whole = rows % big.m == 0 && cols % big.n == 0;
  if (!pct || tiles >= UINT32_MAX || u > SK_MAX_UNITS) return 0;
  if ((slots - tiles) * 100 < pct * slots && !(tiles < u && whole)) return 0;
  return tiles < u ? tiles : tiles % u + u;
}

/* A piece at most GEMM_SKINNY_S rows or columns thin takes a skinny kernel, a matrix-vector
 * product, where its other operand is read along the strip (thin rows with B not transposed, thin
 * columns with A transposed), else skinny-dot, a dot product per output (thin columns with A read
 * along its rows, thin rows with B^T; GEMM_FAST_SKINNY_DOT 0 leaves those to the tiles);
 * docs/results/tuning-notes.md says what the small tile did with such a strip. Its grid: one block
 * per tile_x outputs along the strip, split along k until the blocks give each compute unit about
 * four, with at least 64 of k per slice. Where the device cannot take the kernel's block (128
 * work-items) or its group did not build, the piece takes a tile: slower, never refused; so does
 * a strip that fills less than GEMM_FAST_SKINNY_FILL_PCT of the outputs of its blocks (on PoCL
 * strips of 16 to 32 outputs in skinny's 256 ran up to 3.5x slower than the tiles, one of 64
 * about as fast: docs/results/tuning-notes.md). The kernels take the orientation as their
 * thin_rows argument (kernels_cl/gemm_skinny.cl). Returns whether it took the piece. */
static int skinny_piece(const inputs *x, duet__gemm_piece *q) {
  const int *tun = x->tun, ta = x->s->ta, tb = x->s->tb;
  const size_t thin = T(GEMM_SKINNY_S);
  duet__kernel kernel;
  duet__thin side;
  if (!T(GEMM_FAST_SKINNY)) return 0;
  if ((q->rows <= thin && !tb) || (q->cols <= thin && ta)) {
    kernel = DUET__K_SGEMM_SKINNY;
    side = !tb && q->rows <= thin ? DUET__THIN_ROWS : DUET__THIN_COLS;
  } else if (((q->cols <= thin && !ta) || (q->rows <= thin && tb)) && T(GEMM_FAST_SKINNY_DOT)) {
    kernel = DUET__K_SGEMM_SKINNY_DOT;
    side = !ta && q->cols <= thin ? DUET__THIN_COLS : DUET__THIN_ROWS;
  } else {
    return 0;
  }
  if (!duet__gemm_kernel_fits(x->caps, tun, kernel)) return 0;
  duet__shape s;
  duet__manifest[kernel].shape(tun, &s);
  const size_t len = side == DUET__THIN_ROWS ? q->cols : q->rows,
               blocks = duet__ceil_div(len, s.tile_x);
  if (len * 100 < T(GEMM_FAST_SKINNY_FILL_PCT) * blocks * s.tile_x) return 0;
  q->kernel = kernel;
  q->thin = side;
  q->blocks = blocks;
  size_t splits = duet__ceil_div(4 * units(x->caps), q->blocks);
  if (splits > x->s->k / 64) splits = x->s->k / 64;
  q->splits = splits > 1 ? (unsigned)splits : 1;
  q->sk_tiles = 0;
  return 1;
}

/* Whether k is a GEMV kernel: one launch whatever its k slices (no reduction pass). */
int duet__gemm_is_gemv(duet__kernel k) { return k == DUET__K_SGEMV || k == DUET__K_SGEMV_DOT; }

/* Whether a piece's k slices are summed by duet_sgemm_splitk_reduce (not in the launch: GEMV,
 * the cluster kernels). */
static int reduces(const duet__gemm_piece *q) {
  return q->splits > 1 && !duet__gemm_is_gemv(q->kernel) && !duet__gemm_is_cluster(q->kernel);
}

/* A piece one row or one column thin is a matrix-vector product, bound by reading its big
 * operand once: a GEMV kernel. sgemv where that operand is read along the outputs (a row with B
 * not transposed: B's rows; a column with A transposed: A's stored rows), else sgemv-dot, a dot
 * product per output along k (a column with A not transposed, a row with B^T); a 1 x 1 piece
 * takes a dot product where either operand is contiguous along k. Its grid: a block per tile_x
 * outputs (sgemv one more, for the shift that aligns its float4s), split along k until the
 * blocks give each compute unit GEMV_ALONG_PER_CU (sgemv) or GEMV_SPLIT_PER_CU (sgemv-dot), with
 * at least GEMV_SPLIT_MIN_K of k per slice and at most GEMV_SPLIT_MAX slices; the slices' partial
 * sums go to the arena (slices x the grid's outputs) and their tickets to the flags region (an
 * int per output of sgemv-dot, per float4 of outputs of sgemv). Where the kernel does not fit the
 * device, skinny or the tiles take the piece. *took says whether it took the piece. */
enum { GEMV_SPLIT_MAX = 256 };
static int gemv_piece(const inputs *x, duet__gemm_piece *q, int *took) {
  const int *tun = x->tun, ta = x->s->ta, tb = x->s->tb;
  duet__kernel kernel;
  duet__thin side;
  *took = 0;
  if (!T(GEMM_FAST_GEMV) || (q->rows != 1 && q->cols != 1)) return DUET_OK;
  if (q->cols == 1 && !ta)
    kernel = DUET__K_SGEMV_DOT, side = DUET__THIN_COLS;
  else if (q->rows == 1 && tb)
    kernel = DUET__K_SGEMV_DOT, side = DUET__THIN_ROWS;
  else if (q->rows == 1)
    kernel = DUET__K_SGEMV, side = DUET__THIN_ROWS;
  else
    kernel = DUET__K_SGEMV, side = DUET__THIN_COLS;
  if (!duet__gemm_kernel_fits(x->caps, tun, kernel)) return DUET_OK;
  duet__shape s;
  duet__manifest[kernel].shape(tun, &s);
  const size_t len = side == DUET__THIN_ROWS ? q->cols : q->rows, k = x->s->k;
  const int along = kernel == DUET__K_SGEMV;
  *took = 1;
  q->kernel = kernel;
  q->thin = side;
  q->sk_tiles = 0;
  q->blocks = duet__ceil_div(len + (along ? 3 : 0), s.tile_x);
  const size_t per_cu = along ? T(GEMV_ALONG_PER_CU) : T(GEMV_SPLIT_PER_CU);
  size_t splits = duet__ceil_div(units(x->caps) * per_cu, q->blocks);
  if (splits > k / T(GEMV_SPLIT_MIN_K)) splits = k / T(GEMV_SPLIT_MIN_K);
  if (splits > GEMV_SPLIT_MAX) splits = GEMV_SPLIT_MAX;
  q->splits = splits > 1 ? (unsigned)splits : 1;
  q->work_bytes = q->flag_bytes = 0;
  if (q->splits == 1) return DUET_OK;
  q->flag_bytes = q->blocks * (along ? s.tile_x / 4 : s.tile_x) * sizeof(int);
  if (__builtin_mul_overflow((size_t)q->splits * q->blocks, s.tile_x * sizeof(float),
                             &q->work_bytes))
    return DUET_ENOMEM;
  return DUET_OK;
}

/* The split-K reduction (kernels_cl/gemm_fast.cl): its threads per element of C, and its 1D
 * grid, a block per step of its walk over C (a row piece of block_x columns by lanes each), at
 * most GEMM_SPLITK_REDUCE_PER_CU per unit (the kernel strides over the rest). The slices of an
 * element are shared among min(splits, block_y) lanes only where C has too few elements to give
 * each thread of that grid one (128 x 128 in 256 slices); otherwise one thread sums them all,
 * with its slices' loads in flight (1024 x 1024 in 4 slices ran 25% slower shared among 4
 * lanes on the H100: docs/results/h100.md, tenth session; 512^3 in 6 slices 30% faster alone
 * with 4 blocks a unit than shared among lanes with 16 on the H200, fourteenth session). */
static void plan_reduction(const inputs *x, duet__gemm_piece *q) {
  const int *tun = x->tun;
  duet__shape r;
  duet__manifest[DUET__K_SGEMM_SPLITK_REDUCE].shape(tun, &r);
  const size_t most = units(x->caps) * T(GEMM_SPLITK_REDUCE_PER_CU);
  const size_t threads = most * r.block_x * r.block_y;
  size_t lanes = 1;
  if ((double)q->rows * (double)q->cols < (double)threads)
    lanes = q->splits < r.block_y ? q->splits : r.block_y;
  const size_t steps =
      duet__ceil_div(q->rows, r.block_y / lanes) * duet__ceil_div(q->cols, r.block_x);
  q->reduce_lanes = (unsigned)lanes;
  q->reduce_grid = steps < most ? steps : most;
}

/* Split-K summed in its one launch: a piece of the tiny tile in at most
 * GEMM_SPLITK_FUSE k slices (fuse_limit) runs as stream-K at that tile over all of its tiles, a
 * block per tile and slice (the same k ranges where the slices divide the tile's k steps); the
 * last of a tile's blocks to finish adds the others' partial products, in k order, and stores C
 * (kernels_cl/gemm_fast.cl, fast_stream_k). No reduction launch, and the partials are read back
 * from the cache they were just written to rather than by a pass over all of them. */
static void fuse_splits(const inputs *x, duet__gemm_piece *q) {
  if (q->splits < 2 || q->splits > fuse_limit(x, q->kernel)) return;
  duet__shape s;
  duet__manifest[q->kernel].shape(x->tun, &s);
  const size_t tiles = tiles_over((tile){s.tile_y, s.tile_x}, q->rows, q->cols);
  if (tiles * q->splits >= UINT32_MAX) return; /* the kernel numbers blocks in 32 bits */
  q->kernel = fused_kernel(q->kernel);
  q->sk_tiles = tiles;
  q->sk_slices = q->splits;
  q->sk_units = tiles * q->splits;
  q->blocks = q->sk_units;
  q->splits = 1;
}

/* A piece's kernel, slices, stream-K share and scratch: a GEMV kernel where it takes the piece,
 * else a skinny one, else the tiles. The tiles' model (a loop over tiles and slice counts) is
 * weighed only where neither takes it: a skinny call paid for it on the host
 * (docs/results/h100.md). */
static int plan_piece(const inputs *x, duet__gemm_piece *q) {
  const int *tun = x->tun;
  int gemv;
  const int status = gemv_piece(x, q, &gemv);
  if (status || gemv) return status;
  if (!skinny_piece(x, q)) {
    tile_piece(x, q);
    q->sk_tiles = q->kernel == duet__kernel_for_trans(DUET__K_SGEMM_FAST_NN, x->s->ta, x->s->tb) &&
                          q->splits == 1
                      ? stream_k_tiles(x, q->rows, q->cols)
                      : 0;
  }
  if (q->sk_tiles) {
    q->kernel = duet__kernel_for_trans(DUET__K_SGEMM_FAST_SK_NN, x->s->ta, x->s->tb);
    q->sk_units = units(x->caps);
    q->blocks = big_tiles(x, q->rows, q->cols) - q->sk_tiles + q->sk_units;
  } else {
    fuse_splits(x, q);
  }
  if (q->sk_tiles) {
    /* a slot of partial products per stream-K block and per shared tile; a flag per shared
     * tile, then a stamp per slot and work-item of the kernel (each owns TM x TN of the tile) */
    duet__shape t;
    duet__manifest[q->kernel].shape(tun, &t);
    const size_t slots = q->sk_units + q->sk_tiles;
    if (__builtin_mul_overflow(slots, (size_t)t.tile_x * t.tile_y * sizeof(float), &q->work_bytes))
      return DUET_ENOMEM;
    q->flag_bytes = (q->sk_tiles + slots * t.block_x * t.block_y) * sizeof(int);
  } else if (reduces(q) && __builtin_mul_overflow((size_t)q->splits * q->rows,
                                                  q->cols * sizeof(float), &q->work_bytes)) {
    return DUET_ENOMEM;
  }
  if (reduces(q)) plan_reduction(x, q);
  return DUET_OK;
}

/* The pieces of C: all of it, or, where the big tile's last row or column of tiles is at most
 * half full and cutting it off takes a wave of tiles off the rest (n = 4097 on 132 units: 561
 * tiles in 5 waves, 512 in 4 without them) and the rest fills its big tiles
 * (GEMM_FAST_BIG_FILL_PCT, so that it takes them), the rest plus that strip, which takes the
 * small tile and split-K as few tiles do, or a skinny kernel. */
static int cut_pieces(const inputs *x, duet__gemm_plan *p) {
  const int *tun = x->tun;
  const size_t m = x->s->m, n = x->s->n, u = units(x->caps);
  const tile big = fast_tile(tun, 0);
  const size_t cut_m = m > big.m && m % big.m <= big.m / 2 ? m % big.m : 0;
  const size_t cut_n = n > big.n && n % big.n <= big.n / 2 ? n % big.n : 0;
  unsigned best = 0; /* bit 0: cut rows, bit 1: cut columns */
  if (T(GEMM_FAST_STRIPS) && (cut_m || cut_n) &&
      big_tiles(x, m, n) * 100 >= u * T(GEMM_FAST_BIG_PCT)) {
    size_t best_waves = waves(x, m, n);
    for (unsigned o = 1; o < 4; o++) {
      if (((o & 1) && !cut_m) || ((o & 2) && !cut_n)) continue;
      const size_t rm = m - (o & 1 ? cut_m : 0), rn = n - (o & 2 ? cut_n : 0);
      if (!big_fills(x, rm, rn)) continue; /* the rest would not take the big tile either */
      const size_t w = waves(x, rm, rn);
      if (w < best_waves) best_waves = w, best = o;
    }
  }
  const size_t mm = m - (best & 1 ? cut_m : 0), nn = n - (best & 2 ? cut_n : 0);
  p->npieces = 0;
  p->piece[p->npieces++] = (duet__gemm_piece){.r0 = 0, .rows = mm, .c0 = 0, .cols = nn};
  if (nn < n)
    p->piece[p->npieces++] = (duet__gemm_piece){.r0 = 0, .rows = mm, .c0 = nn, .cols = n - nn};
  if (mm < m) p->piece[p->npieces++] = (duet__gemm_piece){.r0 = mm, .rows = m - mm, .cols = n};
  for (unsigned i = 0; i < p->npieces; i++) {
    duet__gemm_piece *q = &p->piece[i];
    if (plan_piece(x, q)) return DUET_ENOMEM;
    if (q->work_bytes > p->work_bytes) p->work_bytes = q->work_bytes;
    if (q->flag_bytes > p->flag_bytes) p->flag_bytes = q->flag_bytes;
    p->launches += 1 + reduces(q);
  }
  return DUET_OK;
}

/* An operand whose ld is not a multiple of 4 loads one float at a time (what that costs:
 * docs/results/tuning-notes.md). Where the multiply does at least GEMM_PACK_MIN_INTENSITY flops per
 * byte the copy moves, it is copied into the arena at an ld that is, padded along the tiles'
 * side (m for A, n for B) to a whole number of `tile`s, so that the ragged last row or column of
 * tiles loads without guards too (kernels_cl/gemm_fast.cl, mac_tile); the padding is never
 * written. `tile_rows`: that side is the stored rows (A, B^T), else the stored columns. */
static void plan_pack(const inputs *x, duet__gemm_pack *pk, size_t ld, size_t rows, size_t cols,
                      int tile_rows, size_t tile) {
  const int *tun = x->tun;
  const duet__gemm_shape *s = x->s;
  const double copied = 8.0 * (double)rows * (double)cols; /* read and written */
  memset(pk, 0, sizeof *pk);
  if (ld % 4 == 0 || 2.0 * (double)s->m * (double)s->n * (double)s->k <
                         copied * (double)T(GEMM_PACK_MIN_INTENSITY))
    return;
  const size_t padded_rows = tile_rows ? round_up(rows, tile) : rows;
  pk->on = 1;
  pk->rows = rows;
  pk->cols = cols;
  pk->ld = round_up(tile_rows ? cols : round_up(cols, tile), 4);
  pk->reach = tile_rows ? padded_rows : pk->ld;
  pk->bytes = padded_rows * pk->ld * sizeof(float);
  pk->tiles = duet__ceil_div(rows, (size_t)T(TRANSPOSE_TILE)) *
              duet__ceil_div(cols, (size_t)T(TRANSPOSE_TILE));
}

/* An operand left without 16-byte loads (its ld not a multiple of 4, not packed) sends the pieces
 * on fast's kernels to their scalar twins (GEMM_FAST_SCALAR; kernels_cl/gemm_fast.cl, FAST_SCALAR),
 * all of them or, where a twin does not fit or failed to load, none. The plan's costs are the
 * vector kernels': the twins are taken to run at their speed. */
static void with_scalar_twins(const inputs *x, duet__gemm_plan *p) {
  const int *tun = x->tun;
  const duet__gemm_shape *s = x->s;
  const int unaligned = (s->lda % 4 && !p->pack[0].on) || (s->ldb % 4 && !p->pack[1].on);
  if (!T(GEMM_FAST_SCALAR) || !unaligned) return;
  for (unsigned i = 0; i < p->npieces; i++) {
    const duet__kernel k = p->piece[i].kernel;
    if (duet__kernel_is_fast(k) && !duet__gemm_kernel_fits(x->caps, tun, duet__kernel_scalar(k)))
      return;
  }
  for (unsigned i = 0; i < p->npieces; i++)
    p->piece[i].kernel = duet__kernel_scalar(p->piece[i].kernel);
}

static int plan_fast(const inputs *x, duet__gemm_plan *p) {
  const int *tun = x->tun;
  const duet__gemm_shape *s = x->s;
  const tile big = fast_tile(tun, 0), small = fast_tile(tun, 1);
  const size_t tile_m = big.m > small.m ? big.m : small.m;
  const size_t tile_n = big.n > small.n ? big.n : small.n;
  p->form = DUET__GEMM_FAST;
  /* a single row or column of C is one GEMV piece, which takes any ld: a copy would only add a
   * launch and read the operand twice */
  const int gemv = T(GEMM_FAST_GEMV) && (s->m == 1 || s->n == 1);
  if (!gemv) {
    plan_pack(x, &p->pack[0], s->lda, s->ta ? s->k : s->m, s->ta ? s->m : s->k, !s->ta, tile_m);
    plan_pack(x, &p->pack[1], s->ldb, s->tb ? s->n : s->k, s->tb ? s->k : s->n, s->tb, tile_n);
  }
  p->launches = (unsigned)(p->pack[0].on || p->pack[1].on); /* duet_sgemm_pack packs both */
  const int status = cut_pieces(x, p);
  if (!status) with_scalar_twins(x, p);
  return status;
}

static int plan_variant(const inputs *x, duet_gemm_variant v, duet__gemm_plan *p) {
  memset(p, 0, sizeof *p);
  p->variant = v;
  p->units = (unsigned)units(x->caps);
  if (v == DUET_GEMM_FAST) return plan_fast(x, p);
  p->form = DUET__GEMM_SIMPLE;
  p->kernel = duet__gemm_variants[v].kernel;
  p->launches = 1;
  return DUET_OK;
}

unsigned duet__gemm_plan_kernels(const duet__gemm_plan *p, duet__kernel *ids) {
  unsigned char seen[DUET__K_COUNT] = {0};
  unsigned n = 0;
#define ADD(k)                                 \
  do {                                         \
    if (!seen[k]) seen[k] = 1, ids[n++] = (k); \
  } while (0)
  if (p->form == DUET__GEMM_SCALE || p->form == DUET__GEMM_SIMPLE) ADD(p->kernel);
  if (p->form != DUET__GEMM_FAST) return n;
  if (p->pack[0].on || p->pack[1].on) ADD(DUET__K_SGEMM_PACK);
  for (unsigned i = 0; i < p->npieces; i++) {
    ADD(p->piece[i].kernel);
    if (reduces(&p->piece[i])) ADD(DUET__K_SGEMM_SPLITK_REDUCE);
  }
#undef ADD
  return n;
}

static int plan_fits(const inputs *x, const duet__gemm_plan *p) {
  duet__kernel ids[DUET__K_COUNT];
  const unsigned n = duet__gemm_plan_kernels(p, ids);
  for (unsigned i = 0; i < n; i++)
    if (!duet__gemm_kernel_fits(x->caps, x->tun, ids[i])) return 0;
  return 1;
}

int duet__gemm_plan_make(const duet__gemm_caps *caps, const int *tun, const duet__gemm_shape *s,
                         duet__gemm_plan *out) {
  const inputs x = {caps, tun, s};
  memset(out, 0, sizeof *out);
  out->variant = s->variant;
  out->units = (unsigned)units(caps);
  if (s->m == 0 || s->n == 0) return DUET_OK;
  if (s->k == 0 || s->alpha == 0.0f) {
    /* C = beta * C; beta == 0 stores zeros so that NaN in C cannot survive. */
    if (s->beta == 1.0f) return DUET_OK;
    out->form = DUET__GEMM_SCALE;
    out->kernel = DUET__K_SCALE;
    out->launches = 1;
    return DUET_OK;
  }
  if (s->variant != DUET_GEMM_AUTO) return plan_variant(&x, s->variant, out);
  const size_t small = (size_t)tun[DUET__T_GEMM_AUTO_TILED_MAX],
               tiny_c = (size_t)tun[DUET__T_GEMM_AUTO_COALESCED_MAX];
  const duet_gemm_variant *order =
      small && s->m <= small && s->n <= small && s->k <= small          ? auto_order_small
      : s->m > 1 && s->n > 1 && s->m <= tiny_c && s->n <= tiny_c / s->m ? auto_order_tiny_c
                                                                        : auto_order;
  for (unsigned i = 0; i < AUTO_LEN; i++) {
    const int status = plan_variant(&x, order[i], out);
    if (status) return status;
    if (plan_fits(&x, out)) return DUET_OK;
  }
  /* None fits: the first one's plan, whose launch says why. */
  const int status = plan_variant(&x, order[0], out);
  return status ? status : DUET_EUNSUPPORTED;
}
