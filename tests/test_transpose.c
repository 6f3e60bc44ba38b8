/* SPDX-License-Identifier: MIT */
/* Transpose (every variant) and copy, bit-exact against the CPU, with guarded buffers. */
#include "harness.h"

typedef struct {
  size_t rows, cols;
} shape;

/* {300, 260}: ld_in 260 takes padded's float4 loads, with edge tiles on both sides, and ld_out
 * 300 (not a multiple of 8) shifts padded-tall's pieces over more than one tall tile.
 * {70, 2200}: more tile columns than a band of the block order holds at any set's tile and band
 * (32 tiles of 64 or of 32 columns), and a narrower last band. */
static const shape small[] = {{1, 1},   {1, 1000},  {1000, 1},   {31, 33},   {32, 32},
                              {33, 31}, {100, 257}, {1000, 999}, {300, 260}, {70, 2200}};
/* More tiles down the rows than one launch may have (CUDA caps gridDim.y at 65535), so the
 * kernels' grid-stride loop over y is exercised on every device, cheaply. */
static const shape tall = {(1u << 21) + 1, 1};
static const shape empty[] = {{0, 5}, {5, 0}};
/* 46341^2 > 2^31 elements: 32-bit index arithmetic anywhere overflows. */
static const shape large[] = {{8193, 8191}, {1, 1u << 24}, {1u << 24, 1}, {46341, 46341}};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void run_all_ops(const harness_dev *dev, shape s, size_t pad_in, size_t pad_out) {
  for (size_t i = 0; i < HARNESS_MOVES; i++)
    harness_run_move(dev, harness_moves[i], s.rows, s.cols, pad_in, pad_out);
}

static void run(const harness_dev *dev, void *user) {
  (void)user;
  for (size_t i = 0; i < COUNT(small); i++) {
    run_all_ops(dev, small[i], 0, 0);
    run_all_ops(dev, small[i], 3, 17);
  }
  run_all_ops(dev, tall, 0, 0);
  for (size_t i = 0; i < COUNT(empty); i++) run_all_ops(dev, empty[i], 0, 0);
  for (size_t i = 0; i < COUNT(large); i++) {
    if (dev->large) {
      run_all_ops(dev, large[i], 0, 0);
    } else {
      harness_case c;
      harness_case_begin(&c, dev, "transpose+copy all %zux%zu", large[i].rows, large[i].cols);
      harness_case_skip(&c, "%s", dev->large_why);
    }
  }
  if (dev->large) run_all_ops(dev, large[0], 3, 17);
}

int main(void) {
  harness_init("test_transpose");
  harness_for_each_ctx(run, NULL);
  return harness_end();
}
