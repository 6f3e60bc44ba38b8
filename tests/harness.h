/* SPDX-License-Identifier: MIT */
/* The test harness shared by every tests/test_*.c: device enumeration, case reporting, seeded
 * random data, guarded device matrices and the CPU-checked transpose/copy/sgemm cases.
 *
 * Environment: DUET_BACKEND (cuda|opencl|auto) and DUET_DEVICE (an index) restrict which
 * contexts run; DUET_OPENCL_PLATFORM is applied by the library itself; DUET_TEST_SEED repeats a
 * run's random data; DUET_TEST_LARGE=1 forces the large tier on (0 forces it off). */
#ifndef HARNESS_H
#define HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "duet.h"

/* ---- devices and contexts ------------------------------------------------------------------ */
typedef struct {
  duet_ctx *ctx;
  duet_backend backend;
  int device;
  duet_device_info info;
  char label[64];        /* "<backend> dev<N> <short device name>", no spaces inside a field */
  int large;             /* run the large tier here */
  const char *large_why; /* why not, when !large */
} harness_dev;

typedef void (*harness_ctx_fn)(const harness_dev *dev, void *user);

/* Reads the environment, prints the seed. Call first. */
void harness_init(const char *program);
/* Calls fn once per selected backend x device with a fresh context, destroyed afterwards.
 * Returns how many contexts ran. */
int harness_for_each_ctx(harness_ctx_fn fn, void *user);
/* For programs that make their own contexts: counts n contexts as run, as harness_for_each_ctx
 * does (a program that ran none exits 77). */
void harness_contexts_ran(int n);
/* duet_ctx_create with the environment variable `name` set to value (NULL: unset) for that one
 * call; the old value is put back after. */
int harness_create_with_env(duet_ctx **ctx, const char *name, const char *value, duet_backend b,
                            int device);

/* An environment variable as it was, to be put back by harness_env_restore: the library reads
 * its settings at context creation, so tests change them around a call and must not leak the
 * change into the cases after. */
typedef struct {
  const char *name; /* not copied: a literal, or a string that outlives the save */
  char *value;      /* a copy of the old value; NULL: it was unset */
} harness_env;
/* Saves name's value. */
harness_env harness_env_save(const char *name);
/* Saves name's value, then sets it to value (NULL: unsets it). */
harness_env harness_env_set(const char *name, const char *value);
/* Puts the saved value back (or unsets the variable) and frees the copy. */
void harness_env_restore(harness_env *saved);
/* Prints "harness: N passed, N failed, N skipped"; returns the exit status (0, 1 or 77). */
int harness_end(void);

/* Whether device_bytes fit the device and host_bytes fit this host's memory; else says why.
 * Sizes are estimates: both are checked against totals, not against what is free. */
int harness_fits(const harness_dev *dev, double device_bytes, double host_bytes, char *why,
                 size_t n);

/* ---- cases --------------------------------------------------------------------------------- */
typedef struct {
  char label[64];      /* the device's label, or "host - -" */
  const duet_ctx *ctx; /* whose last_error a FAIL line quotes; NULL for host cases */
  char what[192];      /* "<routine> <variant> <params>" */
  uint64_t seed;
  int failed;
  double started; /* seconds, monotonic: the PASS/FAIL line reports each case's wall time */
  char detail[2048];
} harness_case;

/* dev may be NULL for checks that need no device. */
void harness_case_begin(harness_case *c, const harness_dev *dev, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Marks the case failed and appends one line of detail. */
void harness_case_fail(harness_case *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Fails the case with the message unless cond; returns cond. */
int harness_expect(harness_case *c, int cond, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Fails the case unless status == want, quoting last_error of ctx (NULL: the thread's). */
int harness_expect_status(harness_case *c, int status, int want, const duet_ctx *ctx,
                          const char *call);
/* Prints the PASS or FAIL line and, on FAIL, the detail and last_error; counts it; returns 1
 * when it passed. */
int harness_case_end(harness_case *c);
/* Prints and counts a SKIP line for a case that will not run, instead of harness_case_end. */
void harness_case_skip(harness_case *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- random data ----------------------------------------------------------------------------- */
typedef struct {
  uint64_t s[4];
} harness_rng;

harness_rng harness_rng_make(uint64_t seed);
uint64_t harness_rng_next(harness_rng *r);
/* Element i of a random stream keyed by `key`: a counter, so that large matrices fill in
 * parallel. The two below turn its 64 bits into a matrix element. */
uint64_t harness_hash(uint64_t key, uint64_t i);
float harness_random_unit(uint64_t u);  /* uniform in [-1, 1], never 0 */
float harness_random_float(uint64_t u); /* any sign, exponent and mantissa; finite, normal */

/* A float's bits and back, for bit-exact comparisons and guard values. */
static inline uint32_t harness_bits_of(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}
static inline float harness_float_of(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* The host loops of a case (references, fills, comparisons) run on OpenMP threads only from this
 * many iterations (multiply-adds for a reference): below it a team's start and barrier cost more
 * than the loop, and on a GPU machine that runs several test programs at once, each with a
 * thread per core, the teams' waiting threads take the cores from each other's. */
#define HARNESS_OMP_MIN ((size_t)1 << 16)

/* ---- guarded device matrices ------------------------------------------------------------- */
/* Every matrix buffer ends in HARNESS_TAIL guard floats past ((rows-1)*ld + cols), and holds
 * guards in the ld padding too: each matrix gets its own guard NaN so that a value moved from
 * one buffer's guards into another's is caught. An odd count catches vector-width overruns. */
#define HARNESS_TAIL 67
#define HARNESS_POISON_BITS 0x7fc0deadu /* the NaN that outputs hold before a kernel runs */

typedef enum { HARNESS_FILL_UNIT, HARNESS_FILL_BITS, HARNESS_FILL_POISON } harness_fill;

typedef struct {
  duet_ctx *ctx;
  size_t rows, cols, ld;
  size_t span;    /* floats the matrix covers, (rows-1)*ld + cols; 0 when empty */
  size_t len;     /* floats in the buffer */
  uint32_t guard; /* bits of the padding and tail */
  float *host;    /* len floats: what was last written to the device */
  duet_buf *buf;
} harness_mat;

/* Floats a rows x cols matrix with this ld covers, or SIZE_MAX when that overflows. */
size_t harness_span(size_t rows, size_t cols, size_t ld);
/* A buffer of span + HARNESS_TAIL floats; returns a duet status, DUET_ENOMEM for host memory. */
int harness_mat_init(harness_mat *m, duet_ctx *ctx, size_t rows, size_t cols, size_t ld);
/* The same with a buffer of exactly len floats (len may be below the span: a too-small one). */
int harness_mat_init_len(harness_mat *m, duet_ctx *ctx, size_t rows, size_t cols, size_t ld,
                         size_t len);
void harness_mat_free(harness_mat *m);
/* Fills the matrix elements, guards the rest, and writes it all to the device. */
int harness_mat_fill(harness_mat *m, harness_fill how, harness_rng *r);
/* Reads the whole buffer into dst (len floats; dst may be m->host). */
int harness_mat_read(const harness_mat *m, float *dst);
/* Fails c when a padding or tail float of got differs in its bits from m's guard. */
int harness_mat_check_guards(harness_case *c, const harness_mat *m, const float *got,
                             const char *name);
/* Reads the device buffer back and fails c unless every bit equals what was written. */
int harness_mat_check_unchanged(harness_case *c, const harness_mat *m, const char *name);

/* ---- CPU-checked cases --------------------------------------------------------------------- */
#define HARNESS_COPY ((duet_transpose_variant)-1) /* as a variant: duet_copy instead */
/* Every transpose variant, AUTO, then the copy (HARNESS_COPY): HARNESS_MOVES of them. */
extern const duet_transpose_variant harness_moves[];
#define HARNESS_MOVES 7

/* One bit-exact transpose (or copy) of a rows x cols matrix with ld_in = cols + pad_in and
 * ld_out = out's cols + pad_out. Returns 1 when it passed (or was skipped). */
int harness_run_move(const harness_dev *dev, duet_transpose_variant v, size_t rows, size_t cols,
                     size_t pad_in, size_t pad_out);
/* Whether got is one element of C = alpha * op(A) op(B) + beta * C0 as float arithmetic gives
 * it, with BLAS's rules (k == 0 or alpha == 0: C = beta * C0; beta == 0: C0 is not read, so
 * NaN there cannot leak), extremes included: `sum` is the exact dot product and `mag` the sum of
 * its terms' magnitudes, the error allowed `tol` relative to |alpha| mag + |beta C0|. Either
 * term that float arithmetic may overflow may be inf of its sign (and inf - inf NaN); alpha = inf
 * with a sum too small for its sign to be certain may give anything; a NaN alpha (k > 0) or beta
 * (beta != 0) gives NaN. */
int harness_sgemm_element_ok(double sum, double mag, size_t k, float alpha, float beta, float c0,
                             float got, double tol);
/* One sgemm against a double-accumulating CPU reference; padded adds to lda, ldb and ldc. */
int harness_run_sgemm(const harness_dev *dev, duet_gemm_variant v, duet_trans ta, duet_trans tb,
                      size_t m, size_t n, size_t k, float alpha, float beta, int padded);

#endif
