/* SPDX-License-Identifier: MIT */
/* The catalogue of rows and the peers they run (bench_rows.c). */
#ifndef DUET_BENCH_ROWS_H
#define DUET_BENCH_ROWS_H

#include "bench.h"

const bench_row_def *bench_rows(size_t *n);
/* Whether the row runs in this block: selected by --variant, or the routine's reference. */
int bench_row_selected(const bench_opts *o, const bench_row_def *row);
/* Whether `name` names a row of a selected routine (for option checking). */
int bench_row_name_known(unsigned routines, const char *name);
/* Whether this build has a row of that name (a peer configure did not find has none). */
int bench_row_name_built(unsigned routines, const char *name);
/* Whether the row runs on dev. A peer row runs only where its library opens: the first time it
 * does not, stderr says so once and that peer's rows are left out. */
int bench_row_runs_on(const bench_row_def *row, const bench_dev *dev);
/* The peer whose row `name` is (BENCH_PEER_NONE for duet's rows and unknown names). */
bench_peer_id bench_row_peer(unsigned routines, const char *name);
/* Whether a selected routine's auto row is left out (by --variant all, or by default). */
int bench_rows_auto_left_out(const bench_opts *o);
/* Sets vs_ref and reference of the block's rows r[0..n); see the definition for the rules. */
void bench_rows_apply_reference(bench_result *r, size_t n);

void bench_peers_close(bench_peers *p);
const char *bench_peer_names(void); /* those compiled in, e.g. "cuBLAS, CLBlast", or "none" */
/* Opens the peer's library (once); 0, or -1 with the file and dlerror() in err. NONE: 0. */
int bench_peer_load(bench_peer_id id, char *err, size_t len);
/* One line per peer compiled in: the library it opened, or why it did not. */
void bench_peers_list(void);

#endif
