/* SPDX-License-Identifier: MIT */
/* shuffle's sum in one launch (REDUCE_ONE_PASS: shuffle_once in kernels_cu/reduce.cu and
 * kernels_cl/reduce.cl) under load:
 * many launches of each size on one context, the input changing from one launch to the next (two
 * arrays in turn), every result compared bit for bit with the two-pass sum of the same array on
 * a context of the same device with REDUCE_ONE_PASS=0 (by design the same tree), and with the
 * double sum's error bound. A partial read before its block had written it leaves the other
 * array's term in the sum; a ticket counted wrong gives no sum (the guard value) or an early one.
 * The launches of one context pass shuffle_once's epoch count (2047), so its wrap runs too. Then
 * ticket words that a launch which did not finish could leave (DUET_TEST_STALE_TICKET): each
 * must be taken over by the next launch, whose sum must be right.
 * PoCL takes its compute units from POCL_MAX_PTHREAD_COUNT when it starts, so this program sets
 * it to 32 (more threads than the machine has cores: groups are preempted between their store
 * and their ticket) before anything touches OpenCL. DUET_TEST_REDUCE_REPEAT=N runs N times the
 * launches (a longer stress on a GPU), DUET_TEST_REDUCE_LAUNCHES=N at most N a case. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duet_launch.h"
#include "harness.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define GUARD 0x7fc01234u /* a NaN no sum makes: out[0] before every launch */

typedef struct {
  duet_ctx *ctx;
  duet_buf *in[2], *out;
} side;

/* The kernels of one shuffle call on s's context, as its plan has them (duet__describe). */
static int plan_of(side *s, size_t n, char *buf, size_t len) {
  duet__description d;
  duet__describe(s->ctx, &d);
  int st = duet_reduce_sum(s->ctx, DUET_REDUCE_SHUFFLE, n, s->in[0], s->out);
  duet__describe(s->ctx, NULL);
  buf[0] = '\0';
  for (unsigned i = 0; !st && i < d.n; i++)
    snprintf(buf + strlen(buf), len - strlen(buf), "%s%s x %zu", i ? ", " : "",
             d.step[i].kernel->name, d.step[i].launch.grid[0]);
  return st;
}

/* One sum of in[v] on s into out[0], guarded first; its value in *got. */
static int sum_once(side *s, int v, size_t n, float *got) {
  const uint32_t guard = GUARD;
  int st = duet_buf_write(s->out, 0, &guard, sizeof guard);
  if (!st) st = duet_reduce_sum(s->ctx, DUET_REDUCE_SHUFFLE, n, s->in[v], s->out);
  if (!st) st = duet_buf_read(s->out, 0, got, sizeof *got);
  return st;
}

/* A context with DUET_TUNE=tune, two input buffers of n floats (host's, where given) and out. */
static int side_open(harness_case *c, const harness_dev *dev, side *s, const char *tune, size_t n,
                     float *const host[2]) {
  memset(s, 0, sizeof *s);
  int st = harness_create_with_env(&s->ctx, "DUET_TUNE", tune, dev->backend, dev->device);
  if (!harness_expect_status(c, st, DUET_OK, NULL, "duet_ctx_create")) {
    s->ctx = NULL;
    return 0;
  }
  for (int v = 0; v < 2 && !st; v++) {
    st = duet_buf_create(s->ctx, (n ? n : 1) * sizeof(float), &s->in[v]);
    if (!st && n && host[v]) st = duet_buf_write(s->in[v], 0, host[v], n * sizeof(float));
  }
  if (!st) st = duet_buf_create(s->ctx, sizeof(float), &s->out);
  return harness_expect_status(c, st, DUET_OK, s->ctx, "setup");
}

static void side_close(side *s) {
  for (int v = 0; v < 2; v++) duet_buf_destroy(s->in[v]);
  duet_buf_destroy(s->out);
  duet_ctx_destroy(s->ctx);
}

/* The arrays and their two-pass sums on a REDUCE_ONE_PASS=0 context. */
typedef struct {
  size_t n;
  float *host[2];
  float two_pass[2];
  double bound[2], ref[2];
} data;

static int data_make(harness_case *c, const harness_dev *dev, data *d, size_t n) {
  d->n = n;
  for (int v = 0; v < 2; v++) {
    d->host[v] = malloc((n ? n : 1) * sizeof(float));
    if (!harness_expect(c, d->host[v] != NULL, "no host memory")) return 0;
    double sum = 0, mag = 0;
    for (size_t i = 0; i < n; i++) {
      d->host[v][i] = harness_random_unit(harness_hash(c->seed + (uint64_t)v, i));
      sum += d->host[v][i];
      mag += fabs(d->host[v][i]);
    }
    d->ref[v] = sum;
    d->bound[v] = (double)n * 0x1p-24 * mag; /* any order of n - 1 additions */
  }
  side two;
  int ok = side_open(c, dev, &two, "REDUCE_ONE_PASS=0", n, d->host);
  for (int v = 0; v < 2 && ok; v++)
    ok = harness_expect_status(c, sum_once(&two, v, n, &d->two_pass[v]), DUET_OK, two.ctx,
                               "two-pass duet_reduce_sum");
  if (two.ctx) side_close(&two);
  return ok;
}

static void data_free(data *d) {
  for (int v = 0; v < 2; v++) free(d->host[v]);
}

/* `launches` one-pass sums on s, in[0] and in[1] in turn, each the two-pass sum's bits. */
static void hammer(harness_case *c, side *s, const data *d, int launches) {
  int wrong = 0;
  for (int l = 0; l < launches && !c->failed; l++) {
    const int v = l & 1;
    float got = 0;
    int st = sum_once(s, v, d->n, &got);
    if (!harness_expect_status(c, st, DUET_OK, s->ctx, "duet_reduce_sum")) return;
    if (harness_bits_of(got) != harness_bits_of(d->two_pass[v]) && !wrong++)
      harness_case_fail(c, "launch %d: %a (bits %08x), two passes gave %a; the other array's: %a",
                        l, got, harness_bits_of(got), d->two_pass[v], d->two_pass[!v]);
  }
  harness_expect(c, !wrong, "%d of %d launches differ from two passes", wrong, launches);
  for (int v = 0; v < 2; v++)
    harness_expect(c, fabs(d->two_pass[v] - d->ref[v]) <= d->bound[v],
                   "array %d: %a, the double sum %a, beyond the bound %g", v, d->two_pass[v],
                   d->ref[v], d->bound[v]);
}

/* A case's launches: times DUET_TEST_REDUCE_REPEAT, at most DUET_TEST_REDUCE_LAUNCHES (a short
 * run under compute-sanitizer, which needs each path once, not thousands of launches). */
static int launches_of(int base) {
  const char *r = getenv("DUET_TEST_REDUCE_REPEAT"), *cap = getenv("DUET_TEST_REDUCE_LAUNCHES");
  const int n = base * (r && atoi(r) > 0 ? atoi(r) : 1);
  return cap && atoi(cap) > 0 && atoi(cap) < n ? atoi(cap) : n;
}

/* Each size on one REDUCE_ONE_PASS=1 context: its plan (one launch of shuffle_once where the
 * grid has several blocks, shuffle alone where one block suffices), then the launches. */
static void stress(const harness_dev *dev, void *user) {
  (void)user;
  static const struct {
    size_t n;
    int launches;
  } sizes[] = {{0, 10},     {1, 20},      {1000, 100},           {2049, 300},
               {4099, 800}, {65537, 800}, {(1u << 20) + 7, 300}, {(1u << 22) + 3, 60}};
  harness_case c;
  harness_case_begin(&c, dev, "duet_ctx_create DUET_TUNE=REDUCE_ONE_PASS=1");
  side once;
  int ok = side_open(&c, dev, &once, "REDUCE_ONE_PASS=1", (1u << 22) + 3, (float *[2]){NULL, NULL});
  harness_case_end(&c);
  if (!ok) {
    if (once.ctx) side_close(&once);
    return;
  }
  printf("      %u compute units\n", dev->info.compute_units);
  int total = 0;
  for (size_t i = 0; i < COUNT(sizes); i++) {
    const size_t n = sizes[i].n;
    const int launches = launches_of(sizes[i].launches);
    harness_case_begin(&c, dev, "reduce_sum shuffle one pass n=%zu x%d launches", n, launches);
    data d = {0};
    char plan[400];
    int st = data_make(&c, dev, &d, n) ? DUET_OK : DUET_EINVAL;
    for (int v = 0; v < 2 && !st && n; v++)
      st = duet_buf_write(once.in[v], 0, d.host[v], n * sizeof(float));
    if (!st) st = plan_of(&once, n, plan, sizeof plan);
    if (!c.failed && harness_expect_status(&c, st, DUET_OK, once.ctx, "setup")) {
      const int one = strstr(plan, "duet_reduce_shuffle_once") != NULL;
      printf("      plan: %s\n", plan);
      harness_expect(&c, !strchr(plan, ','), "more than one launch: %s", plan);
      if (n <= 1000) harness_expect(&c, !one, "one block, yet shuffle_once: %s", plan);
      if (n >= 65537) harness_expect(&c, one, "several blocks, yet no shuffle_once: %s", plan);
      hammer(&c, &once, &d, launches);
      total += launches;
    }
    data_free(&d);
    harness_case_end(&c);
  }
  printf("      %d launches on one context (the epochs wrap after 2047 one-pass launches)\n",
         total);
  side_close(&once);
}

/* Ticket words a launch that stopped half-way could leave, or garbage: the last epoch with 7
 * tickets taken; epoch 0 with every ticket taken (the first add carries into epoch 1); all ones.
 * The first launch of a fresh context has epoch 1, so none of them is its own. */
static void stale(const harness_dev *dev, void *user) {
  (void)user;
  static const char *const words[] = {"2145386503", "1048575", "4294967295"};
  const size_t n = 65537;
  for (size_t i = 0; i < COUNT(words); i++) {
    harness_case c;
    harness_case_begin(&c, dev, "reduce_sum shuffle one pass, stale ticket word %s", words[i]);
    data d = {0};
    side s;
    memset(&s, 0, sizeof s);
    int ok = data_make(&c, dev, &d, n);
    if (ok) {
      harness_env saved = harness_env_set("DUET_TEST_STALE_TICKET", words[i]);
      ok = side_open(&c, dev, &s, "REDUCE_ONE_PASS=1", n, d.host);
      if (ok) hammer(&c, &s, &d, launches_of(40)); /* the ticket is made, stale, at the first */
      harness_env_restore(&saved);
    }
    if (s.ctx) side_close(&s);
    data_free(&d);
    harness_case_end(&c);
  }
}

int main(void) {
  setenv("POCL_MAX_PTHREAD_COUNT", "32", 1);
  harness_init("test_reduce_once");
  harness_for_each_ctx(stress, NULL);
  harness_for_each_ctx(stale, NULL);
  return harness_end();
}
