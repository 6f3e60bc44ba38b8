/* SPDX-License-Identifier: MIT */
/* sgemm: every variant, transpose combination, ld and alpha/beta against a double CPU GEMM. */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

typedef struct {
  size_t m, n, k;
} mnk;

/* {40, 50, 1030} gives fast a single tile on a small device and so its split-K plan; {129, 67,
 * 77} crosses the edges of every tile shape in the tuning sets; {65, 65, 1030} on a 2-unit CPU
 * cuts a row and a column of tiles off as strips, split along k where they are one tile;
 * {190, 170, 333} is 9 of the CPU's 64 x 64 tiles, which leave a unit idle: stream-K; fast runs
 * {1, 300, 255}, {3, 700, 301} (B not transposed) and {255, 1, 300}, {521, 2, 130} (A transposed)
 * as skinny strips, split along k, and the same shapes' other transposes (B transposed, A not)
 * as skinny-dot strips (on the cpu set, GEMM_FAST_SKINNY_DOT 0, as tall and wide tiles: the
 * "skinnydot" run below takes skinny-dot there). A row or a column of C is a GEMV (sgemv or
 * sgemv-dot by transpose): {1, 300, 255}, {255, 1, 300}, k = 1 ({517, 1, 1}, {1, 517, 1}), split
 * along k on a CPU ({1, 130, 2049}, {5, 1, 1500}, {1, 1, 1000}), deep ({1, 1, 100003}, {3, 1,
 * 65537}); the padded lds (+3, +5) take its unaligned paths, and {65, 65, 1030}, {129, 67, 77} and
 * {100, 257, 129} its offsets (a row or column cut off as a strip). */
static const mnk small[] = {
    {1, 1, 1},       {1, 1, 7},      {7, 5, 3},       {16, 16, 16},  {17, 31, 33},   {64, 64, 64},
    {100, 257, 129}, {255, 1, 300},  {1, 300, 255},   {300, 200, 0}, {0, 5, 5},      {40, 50, 1030},
    {129, 67, 77},   {65, 65, 1030}, {190, 170, 333}, {3, 700, 301}, {521, 2, 130},  {517, 1, 1},
    {1, 517, 1},     {1, 130, 2049}, {5, 1, 1500},    {1, 1, 1000},  {1, 1, 100003}, {3, 1, 65537}};
/* 4095 x 4097 with an odd k: fast's unaligned path at a size with full waves; 1024^2 x 4096:
 * its split-K plan on a large device; 2817 x 1537: a last row and column of the H100's big tiles
 * that fast cuts off as strips (156 tiles, two waves, 132 without them); stream-K on the H100:
 * 2300 x 1530 x 999 is 108 big tiles (one wave, 18% of it idle, tiles shared by three SMs, a
 * partial last k tile), 3071 x 3073 x 300 300 tiles in three waves, a quarter of their slots
 * idle. */
static const mnk large[] = {{1025, 2049, 513}, {2048, 2048, 2048}, {1, 1u << 20, 64},
                            {1u << 20, 1, 64}, {4095, 4097, 1027}, {1024, 1024, 4096},
                            {2817, 1537, 300}, {2300, 1530, 999},  {3071, 3073, 300},
                            {1, 4097, 4099},   {4099, 1, 4097},    {1, 1, 1u << 22},
                            {7, 1, 1u << 21}};
/* (1, 0) must not read C, (0, 1.5) must not read A or B, (2.5, -0.5) mixes everything. */
static const float alpha_beta[][2] = {{1.0f, 0.0f}, {2.5f, -0.5f}, {0.0f, 1.5f}};
static const duet_gemm_variant variants[] = {DUET_GEMM_NAIVE, DUET_GEMM_COALESCED,
                                             DUET_GEMM_TILED, DUET_GEMM_REGISTER,
                                             DUET_GEMM_FAST,  DUET_GEMM_AUTO};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void run(const harness_dev *dev, void *user) {
  (void)user;
  for (size_t s = 0; s < COUNT(small); s++)
    for (int padded = 0; padded <= 1; padded++)
      for (size_t ab = 0; ab < COUNT(alpha_beta); ab++)
        for (int t = 0; t < 4; t++)
          for (size_t v = 0; v < COUNT(variants); v++)
            harness_run_sgemm(dev, variants[v], (duet_trans)(t >> 1), (duet_trans)(t & 1),
                              small[s].m, small[s].n, small[s].k, alpha_beta[ab][0],
                              alpha_beta[ab][1], padded);
  for (size_t s = 0; s < COUNT(large); s++) {
    if (!dev->large) {
      harness_case c;
      harness_case_begin(&c, dev, "sgemm all m=%zu n=%zu k=%zu", large[s].m, large[s].n,
                         large[s].k);
      harness_case_skip(&c, "%s", dev->large_why);
      continue;
    }
    for (size_t ab = 0; ab < 2; ab++)
      for (size_t v = 0; v < COUNT(variants); v++)
        harness_run_sgemm(dev, variants[v], DUET_NO_TRANS, DUET_NO_TRANS, large[s].m, large[s].n,
                          large[s].k, alpha_beta[ab][0], alpha_beta[ab][1], 0);
    /* fast's other transposes at every shape: a loader per combination, GEMV's two kernels on
     * each side */
    for (int t = 1; t < 4; t++)
      harness_run_sgemm(dev, DUET_GEMM_FAST, (duet_trans)(t >> 1), (duet_trans)(t & 1), large[s].m,
                        large[s].n, large[s].k, 2.5f, -0.5f, t == 3);
  }
}

/* fast with a tuning that makes it take a plan at every size: the packing of operands with
 * unaligned lds (which pays only for long multiplies: the copies into the arena, padded to whole
 * tiles that the kernels read past m and n, at every transpose, lds odd and even), stream-K
 * wherever a unit would idle, or both. */
typedef struct {
  const char *spec, *tag;
} tuned;

/* *d: dev with a context of its own under DUET_TUNE=t->spec, labelled with t->tag; a case of its
 * own (`env` names what else the environment holds), SKIP where CUDA refuses a kernel's tunable
 * (its kernels are compiled with the set's values). Returns whether it was made. */
static int tuned_ctx(const harness_dev *dev, const tuned *t, const char *env, harness_dev *d) {
  *d = *dev;
  harness_case c;
  harness_case_begin(&c, dev, "duet_ctx_create %sDUET_TUNE=%s", env, t->spec);
  const int st = harness_create_with_env(&d->ctx, "DUET_TUNE", t->spec, dev->backend, dev->device);
  if (st == DUET_EUNSUPPORTED && dev->backend == DUET_BACKEND_CUDA) {
    harness_case_skip(&c, "CUDA's kernels are compiled ahead of time with the set's values");
    return 0;
  }
  int ok = harness_expect_status(&c, st, DUET_OK, NULL, "duet_ctx_create");
  harness_case_end(&c);
  if (ok) snprintf(d->label, sizeof d->label, "%.50s@%s", dev->label, t->tag);
  return ok;
}

static void run_tuned(const harness_dev *dev, void *user) {
  harness_dev d;
  if (!tuned_ctx(dev, user, "", &d)) return;
  for (size_t s = 0; s < COUNT(small); s++)
    for (int padded = 0; padded <= 1; padded++)
      for (int tr = 0; tr < 4; tr++)
        harness_run_sgemm(&d, DUET_GEMM_FAST, (duet_trans)(tr >> 1), (duet_trans)(tr & 1),
                          small[s].m, small[s].n, small[s].k, 2.5f, -0.5f, padded);
  duet_ctx_destroy(d.ctx);
}

/* Variant v at each shape, every transpose, ld (packed and padded), and alpha and beta (1, 0) and
 * (2.5, -0.5). */
static void each_shape(const harness_dev *d, duet_gemm_variant v, const mnk *shapes, size_t n) {
  for (size_t s = 0; s < n; s++)
    for (int padded = 0; padded <= 1; padded++)
      for (size_t ab = 0; ab < 2; ab++)
        for (int tr = 0; tr < 4; tr++)
          harness_run_sgemm(d, v, (duet_trans)(tr >> 1), (duet_trans)(tr & 1), shapes[s].m,
                            shapes[s].n, shapes[s].k, alpha_beta[ab][0], alpha_beta[ab][1], padded);
}

/* A row or a column of C through sgemv in the forms the tuning sets do not give this device: each
 * thread's k loop without barriers (the GPU sets) and the synced steps with groups of threads
 * along k and a ragged last step (GEMV_SYNC_ROWS 3; the cpu set's block is one group), over
 * blocks that C's outputs fill, cross or miss ({1, 1029, 77}: a block of the cpu set's 1024 and
 * a few more), in k slices ({1, 130, 2049}, {3, 1, 65537}), at every transpose (sgemv-dot takes
 * the other two), ld, alpha and beta. */
static const mnk gemv[] = {{1, 300, 255}, {255, 1, 300},  {1, 1029, 77}, {1029, 1, 77},
                           {1, 517, 1},   {1, 130, 2049}, {5, 1, 1500},  {1, 1, 1000},
                           {3, 1, 65537}, {1, 4100, 33}};
static void run_gemv(const harness_dev *dev, void *user) {
  harness_dev d;
  if (!tuned_ctx(dev, user, "", &d)) return;
  each_shape(&d, DUET_GEMM_FAST, gemv, COUNT(gemv));
  duet_ctx_destroy(d.ctx);
}

/* fast as a GPU of 132 units plans it (DUET_TEST_UNITS, and the cost model's values of the
 * nvidia-sm80 set in DUET_TUNE, the device's own tiles): C of a few tiles with k cut into tens to
 * hundreds of slices, summed by the reduction's lanes in their fixed order; the tiny tile; one
 * slice per tile where k is short; at every transpose and ld, with and without beta. */
static const mnk deep[] = {{40, 50, 1030}, {33, 17, 9000}, {129, 67, 2051},
                           {1, 70, 4000},  {70, 3, 3001},  {200, 190, 777}};
static void run_deep(const harness_dev *dev, void *user) {
  harness_dev d;
  if (!tuned_ctx(dev, user, "DUET_TEST_UNITS=132 ", &d)) return;
  each_shape(&d, DUET_GEMM_AUTO, deep, COUNT(deep));
  duet_ctx_destroy(d.ctx);
}

/* The reduction's one-lane walk (no shared sums) as a 132-unit GPU with one reduction block a
 * unit plans it: C of more elements than the reduction's threads, in 9, 14, 19 and 20 slices
 * (each remainder of the four loads a thread keeps in flight). */
static const mnk one_lane[] = {{200, 190, 130}, {210, 200, 333}, {200, 190, 300}, {200, 190, 777}};
static void run_one_lane(const harness_dev *dev, void *user) {
  harness_dev d;
  if (!tuned_ctx(dev, user, "DUET_TEST_UNITS=132 ", &d)) return;
  for (size_t s = 0; s < COUNT(one_lane); s++)
    for (size_t ab = 0; ab < 2; ab++)
      for (int tr = 0; tr < 4; tr++)
        harness_run_sgemm(&d, DUET_GEMM_AUTO, (duet_trans)(tr >> 1), (duet_trans)(tr & 1),
                          one_lane[s].m, one_lane[s].n, one_lane[s].k, alpha_beta[ab][0],
                          alpha_beta[ab][1], (int)ab);
  duet_ctx_destroy(d.ctx);
}

/* Shapes as a 132-unit GPU plans them under a model's tunables, on the device's own tiles, at
 * every transpose, ld, alpha and beta. */
typedef struct {
  tuned t;
  const mnk *shapes;
  size_t count;
} model_run;
static void run_model(const harness_dev *dev, void *user) {
  const model_run *r = user;
  harness_dev d;
  if (!tuned_ctx(dev, &r->t, "DUET_TEST_UNITS=132 ", &d)) return;
  each_shape(&d, DUET_GEMM_AUTO, r->shapes, r->count);
  duet_ctx_destroy(d.ctx);
}
/* The tall and wide tiles (GEMM_FAST_THIN): C a tile across or less, its long side crossing the
 * tiles' edges, in one launch (k = 48; k = 24, at most GEMM_FAST_SHALLOW_TINY_K, a ragged k step)
 * or in k slices (5 to 257). */
static const mnk thin[] = {{61, 13, 4097}, {13, 61, 4097}, {700, 9, 300},  {9, 700, 300},
                           {4001, 11, 48}, {11, 4001, 48}, {4001, 11, 24}, {11, 4001, 24}};
/* The narrow tile (GEMM_FAST_NARROW_PCT): C at most a narrow tile wide (8 columns on the cpu
 * set, 16 on the GPU sets), ragged along m, in one launch or in k slices. */
static const mnk narrow[] = {{61, 7, 4097}, {700, 6, 300}, {4001, 5, 48}, {257, 8, 1030}};
/* The mid tile (GEMM_FAST_MID_PCT): C of fewer small tiles than units, ragged at its edges, in
 * k slices (on the cpu set's tiles: 3, 4 and 129). */
static const mnk mid[] = {{501, 499, 300}, {130, 1023, 256}, {63, 65, 4097}};
/* The mid and flat tiles as thin ones (GEMM_FAST_MID_THIN_PCT): C one of them across, too wide
 * (high) for the tall (wide) tile, ragged, at a deep k: the first two on the cpu set's tiles (32
 * x 64 flat, 64 x 32 mid), the last two on the GPU sets' (64 x 128, 128 x 64). */
static const mnk mid_thin[] = {
    {700, 29, 2051}, {29, 700, 2051}, {1001, 61, 4097}, {61, 1001, 4097}};
/* The big tile in k slices (GEMM_FAST_BIG_SPLIT_PCT): C of few big tiles that it fills, whole or
 * ragged, in k slices summed by the reduction: on the cpu set's tiles all six (4 to 19 slices),
 * on nvidia-sm80's the last two (11 and 15 slices of 256 x 128 tiles). */
static const mnk big_split[] = {{128, 192, 4000}, {127, 190, 5001}, {250, 120, 3001},
                                {190, 250, 2000}, {512, 256, 3000}, {500, 250, 4000}};

/* k shallower than any tile's k step, under C of many tiles, and k one past a step of 16 */
static const mnk k_stop_shapes[] = {{257, 129, 1}, {130, 300, 5}, {64, 200, 9}, {300, 70, 17}};

int main(void) {
  harness_init("test_gemm");
  harness_for_each_ctx(run, NULL);
  static tuned packed = {"GEMM_PACK_MIN_INTENSITY=0", "pack"};
  static tuned stream_k = {"GEMM_FAST_STREAMK_PCT=1", "streamk"};
  /* packed copies padded to whole tiles, read past m and n by the stream-K kernels too */
  static tuned both = {"GEMM_PACK_MIN_INTENSITY=0,GEMM_FAST_STREAMK_PCT=1", "pack+streamk"};
  /* a row or a column of C by skinny, as before GEMV */
  static tuned no_gemv = {"GEMM_FAST_GEMV=0", "nogemv"};
  /* nvidia-sm80's shallow-k rules (k <= 32 on the tiny tile, k <= 128 off the big one) on any
   * device's tiles */
  static tuned shallow = {"GEMM_FAST_SHALLOW_TINY_K=32,GEMM_FAST_SHALLOW_K=128", "shallow"};
  harness_for_each_ctx(run_tuned, &packed);
  harness_for_each_ctx(run_tuned, &stream_k);
  harness_for_each_ctx(run_tuned, &both);
  harness_for_each_ctx(run_tuned, &no_gemv);
  /* skinny-dot on a set that leaves its strips to the tiles (cpu) */
  static tuned skinny_dot = {"GEMM_FAST_SKINNY_DOT=1", "skinnydot"};
  harness_for_each_ctx(run_tuned, &skinny_dot);
  harness_for_each_ctx(run_tuned, &shallow);
  /* the last k tile stopping at k (OpenCL's; CUDA's kernels refuse it): the small shapes, and
   * shallow k under C of many tiles */
  static tuned k_stop = {"GEMM_FAST_K_STOP=1", "kstop"};
  harness_for_each_ctx(run_tuned, &k_stop);
  /* the scalar twins (an operand at an ld not a multiple of 4 loaded in the scalar layout): the
   * small shapes, padded; with stream-K; and below, as a GPU of 132 units plans deep k, thin C
   * and the mid tile, nothing packed */
  static tuned scalar = {"GEMM_FAST_SCALAR=1", "scalar"};
  static tuned scalar_sk = {"GEMM_FAST_SCALAR=1,GEMM_FAST_STREAMK_PCT=1", "scalar+streamk"};
  harness_for_each_ctx(run_tuned, &scalar);
  harness_for_each_ctx(run_tuned, &scalar_sk);
  static tuned gemv_unsynced = {"GEMV_SYNC_ROWS=0,GEMV_THREADS=256,GEMV_LX=32,GEMV_ALONG_PER_CU=4",
                                "gemv-unsynced"};
  static tuned gemv_groups = {"GEMV_SYNC_ROWS=3,GEMV_THREADS=128,GEMV_LX=32", "gemv-groups"};
  harness_for_each_ctx(run_gemv, &gemv_unsynced);
  harness_for_each_ctx(run_gemv, &gemv_groups);
#define H100_MODEL                                                                          \
  "GEMM_SPLITK_MAX=1024,GEMM_SPLITK_MIN_K=8,GEMM_COST_LAT=500,GEMM_COST_LANES=128,"         \
  "GEMM_SPLITK_LAUNCH=8,GEMM_SPLITK_BW=4,GEMM_FAST_SMALL_PER_CU=2,GEMM_FAST_TINY_PER_CU=4," \
  "GEMM_FAST_TINY_PCT="
  static tuned deep_tiny = {H100_MODEL "80", "deep"};
  static tuned deep_small = {H100_MODEL "1", "deep-small"}; /* the tiny tile never pays */
  setenv("DUET_TEST_UNITS", "132", 1);
  static model_run k_stop_shallow = {
      {"GEMM_FAST_K_STOP=1", "kstop-shallow"}, k_stop_shapes, COUNT(k_stop_shapes)};
  harness_for_each_ctx(run_model, &k_stop_shallow);
  harness_for_each_ctx(run_deep, &deep_tiny);
  harness_for_each_ctx(run_deep, &deep_small);
#define SCALAR_UNPACKED ",GEMM_FAST_SCALAR=1,GEMM_PACK_MIN_INTENSITY=4096"
  /* the tiny tile's split-K summed in its launch, as NVIDIA's OpenCL plans it (GEMM_SPLITK_FUSE) */
  static tuned deep_scalar = {H100_MODEL "80,GEMM_SPLITK_FUSE=4" SCALAR_UNPACKED, "deep-scalar"};
  harness_for_each_ctx(run_deep, &deep_scalar);
  static tuned one_lane_model = {H100_MODEL "80,GEMM_SPLITK_REDUCE_PER_CU=1", "one-lane"};
  harness_for_each_ctx(run_one_lane, &one_lane_model);
  static model_run thin_model = {
      {H100_MODEL "80,GEMM_FAST_THIN=1,GEMM_FAST_SHALLOW_TINY_K=32", "thin"}, thin, COUNT(thin)};
  harness_for_each_ctx(run_model, &thin_model);
  static model_run narrow_model = {
      {H100_MODEL "80,GEMM_FAST_THIN=1,GEMM_FAST_NARROW_PCT=80", "narrow"}, narrow, COUNT(narrow)};
  harness_for_each_ctx(run_model, &narrow_model);
  static model_run mid_model = {
      {H100_MODEL "80,GEMM_FAST_MID_PER_CU=3,GEMM_FAST_MID_PCT=110", "mid"}, mid, COUNT(mid)};
  harness_for_each_ctx(run_model, &mid_model);
  static model_run mid_thin_model = {
      {H100_MODEL "80,GEMM_FAST_MID_PER_CU=2,GEMM_FAST_MID_THIN_PCT=100,GEMM_FAST_MID_THIN_MIN_K=0",
       "mid-thin"},
      mid_thin,
      COUNT(mid_thin)};
  harness_for_each_ctx(run_model, &mid_thin_model);
  static model_run thin_scalar = {
      {H100_MODEL "80,GEMM_FAST_THIN=1,GEMM_FAST_SHALLOW_TINY_K=32" SCALAR_UNPACKED, "thin-scalar"},
      thin,
      COUNT(thin)};
  harness_for_each_ctx(run_model, &thin_scalar);
  static model_run mid_scalar = {
      {H100_MODEL "80,GEMM_FAST_MID_PER_CU=3,GEMM_FAST_MID_PCT=110" SCALAR_UNPACKED, "mid-scalar"},
      mid,
      COUNT(mid)};
  harness_for_each_ctx(run_model, &mid_scalar);
  static model_run big_split_model = {
      /* a rate that makes the big tile win wherever it is weighed: these cases test its results */
      {H100_MODEL
       "80,GEMM_FAST_MID_PCT=0,GEMM_FAST_BIG_SPLIT_PCT=400,GEMM_FAST_BIG_SPLIT_MIN_K=256",
       "big-split"},
      big_split,
      COUNT(big_split)};
  harness_for_each_ctx(run_model, &big_split_model);
  unsetenv("DUET_TEST_UNITS");
  return harness_end();
}
