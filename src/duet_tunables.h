/* Kernel geometry shared by the core (which sizes each launch) and the kernels (which assume it).
 * The CUDA kernels include this file; the OpenCL kernels receive the same values as -D build
 * options, so one edit here retunes both backends and the launch descriptors together.
 * Each kernel file still carries #ifndef defaults so it reads standalone. */
#ifndef DUET_TUNABLES_H
#define DUET_TUNABLES_H

/* Transpose and copy: a TRANSPOSE_TILE x TRANSPOSE_TILE tile moved by a
 * TRANSPOSE_TILE x TRANSPOSE_ROWS block, so each thread moves TILE/ROWS elements. */
#define DUET_TRANSPOSE_TILE 32
#define DUET_TRANSPOSE_ROWS 8

/* Naive and coalesced sgemm: one thread per element of C in a SIMPLE_X x SIMPLE_Y block. */
#define DUET_GEMM_SIMPLE_X 32
#define DUET_GEMM_SIMPLE_Y 8

/* Tiled sgemm: GEMM_TILE x GEMM_TILE threads, each computing one element of C from
 * GEMM_TILE x GEMM_TILE tiles of A and B staged in shared memory. */
#define DUET_GEMM_TILE 32

/* CUDA caps gridDim.y and gridDim.z at 65535. Launches never ask for more: kernels walk their
 * y tiles in a grid-stride loop instead, on both backends so that the geometry matches. */
#define DUET_MAX_GRID_Y 65535

#endif
