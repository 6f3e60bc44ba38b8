/* sgemm: every variant, transpose combination, ld and alpha/beta against a double CPU GEMM. */
#include "harness.h"

typedef struct {
  size_t m, n, k;
} mnk;

static const mnk small[] = {{1, 1, 1},     {1, 1, 7},     {7, 5, 3},       {16, 16, 16},
                            {17, 31, 33},  {64, 64, 64},  {100, 257, 129}, {255, 1, 300},
                            {1, 300, 255}, {300, 200, 0}, {0, 5, 5}};
static const mnk large[] = {
    {1025, 2049, 513}, {2048, 2048, 2048}, {1, 1u << 20, 64}, {1u << 20, 1, 64}};
/* (1, 0) must not read C, (0, 1.5) must not read A or B, (2.5, -0.5) mixes everything. */
static const float alpha_beta[][2] = {{1.0f, 0.0f}, {2.5f, -0.5f}, {0.0f, 1.5f}};
static const duet_gemm_variant variants[] = {DUET_GEMM_NAIVE, DUET_GEMM_COALESCED, DUET_GEMM_TILED,
                                             DUET_GEMM_AUTO};
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
  }
}

int main(void) {
  harness_init("test_gemm");
  harness_for_each_ctx(run, NULL);
  return harness_end();
}
