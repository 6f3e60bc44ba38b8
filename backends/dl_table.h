/* SPDX-License-Identifier: MIT */
/* A library opened at run time with a table of its functions: the OpenCL ICD loader for the
 * OpenCL backend (opencl_loader.c), and duet-bench's peers (tools/peer_dl.c), which compiles its
 * own copy, as libduet's is internal to it. */
#ifndef DUET_DL_TABLE_H
#define DUET_DL_TABLE_H

#include <stddef.h>

/* Opens file and resolves names[i] into the function pointer at slots[i], i < n. 0; or -1 with
 * "cannot open <what><file><note>: <dlerror>" or "<what><file> lacks <name>: <dlerror>" in err,
 * the library closed again (nothing was made from it). what describes the file ("the OpenCL
 * loader ", or ""); note follows its name (", named by $VAR", or ""). */
int duet__dl_table(const char *file, const char *what, const char *note, const char *const *names,
                   void *const *slots, size_t n, char *err, size_t len);

/* For an X-macro list of functions: their names after macro expansion (the symbols a library
 * exports: cublasCreate is cublasCreate_v2), and the addresses of the same-named members of a
 * table. */
#define DUET__DL_NAME(name) DUET__DL_STR(name),
#define DUET__DL_STR(name) #name
#define DUET__DL_SLOT(table, name) (void *)&(table).name,

#endif
