/* Kernel geometry shared by the core (which sizes each launch) and the kernels (which assume it).
 * The CUDA kernels include this file; the OpenCL kernels receive the same values as -D build
 * options, so one edit here retunes both backends and the launch descriptors together.
 * Each kernel file still carries #ifndef defaults so it reads standalone. To try other values,
 * configure with the same -D in both CPPFLAGS and NVCCFLAGS, e.g. -DDUET_GEMM_TILE=16. */
#ifndef DUET_TUNABLES_H
#define DUET_TUNABLES_H

/* Transpose and copy: a TRANSPOSE_TILE x TRANSPOSE_TILE tile moved by a
 * TRANSPOSE_TILE x TRANSPOSE_ROWS block, so each thread moves TILE/ROWS elements. */
#ifndef DUET_TRANSPOSE_TILE
#define DUET_TRANSPOSE_TILE 32
#endif
#ifndef DUET_TRANSPOSE_ROWS
#define DUET_TRANSPOSE_ROWS 8
#endif

/* padded-wide: the padded transpose with a WIDE_TILE x WIDE_TILE tile and a
 * WIDE_TILE x WIDE_ROWS block, for rows that do not start on 128-byte boundaries. */
#ifndef DUET_TRANSPOSE_WIDE_TILE
#define DUET_TRANSPOSE_WIDE_TILE 64
#endif
#ifndef DUET_TRANSPOSE_WIDE_ROWS
#define DUET_TRANSPOSE_WIDE_ROWS 16
#endif

/* Tiled transposes: blocks start in order of their linear id, x fastest. Taken row by row, the
 * blocks resident at one time would read a few long rows of `in` but write short pieces into
 * every row of `out`. Numbering tiles in bands TRANSPOSE_BAND tiles wide makes the resident set
 * a square patch, so reads and writes both land in long runs of DRAM pages. */
#ifndef DUET_TRANSPOSE_BAND
#define DUET_TRANSPOSE_BAND 32
#endif

/* Naive and coalesced sgemm: one thread per element of C in a SIMPLE_X x SIMPLE_Y block. */
#ifndef DUET_GEMM_SIMPLE_X
#define DUET_GEMM_SIMPLE_X 32
#endif
#ifndef DUET_GEMM_SIMPLE_Y
#define DUET_GEMM_SIMPLE_Y 8
#endif

/* Tiled sgemm: GEMM_TILE x GEMM_TILE threads, each computing one element of C from
 * GEMM_TILE x GEMM_TILE tiles of A and B staged in shared memory. */
#ifndef DUET_GEMM_TILE
#define DUET_GEMM_TILE 32
#endif

/* CUDA caps gridDim.y and gridDim.z at 65535. Launches never ask for more: kernels walk their
 * y tiles in a grid-stride loop instead, on both backends so that the geometry matches. */
#define DUET_MAX_GRID_Y 65535

#endif
