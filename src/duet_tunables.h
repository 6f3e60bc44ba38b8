/* SPDX-License-Identifier: MIT */
/* The tuning database: every tunable of every kernel, with one value per device set, in the
 * manner of CLBlast's database. It is the single source of the values: the core sizes launches
 * from it, the OpenCL backend passes them as -D options when it builds a kernel group, and the
 * CUDA kernels instantiate their templates from it at build time (kernels_cu/common.cuh), one
 * instantiation per set. A context resolves one set for its device (src/tuning.c); DUET_TUNING
 * names another, and on OpenCL DUET_TUNE overrides single values.
 * Plain C preprocessor only: nvcc includes this file too. */
#ifndef DUET_TUNABLES_H
#define DUET_TUNABLES_H

/* The sets, in the order of the value columns below. Which device gets which set is decided in
 * src/tuning.c from what the backend reports (device type, vendor, compute capability). */
#define DUET__TUNING_SETS(X)    \
  X(DEFAULT, "default")         \
  X(NVIDIA_SM80, "nvidia-sm80") \
  X(CPU, "cpu")
#define DUET__SET_COUNT 3
/* M(set index, ...) once per set: lets CUDA instantiate a kernel for every set. */
#define DUET__FOR_EACH_SET(M, ...) M(0, __VA_ARGS__) M(1, __VA_ARGS__) M(2, __VA_ARGS__)

/* X(NAME, default, nvidia-sm80, cpu). Kernel files name the same tunables without the DUET
 * prefix. The course twins of kernels_cl/ carry #ifndef fallbacks equal to the default column, so
 * each compiles alone; the GEMM kernels written once for both backends (gemm_fast.cl,
 * gemm_skinny.cl, over builtin.h) have none: the OpenCL
 * backend always passes the values, and kernels_cu/ defines them per set.
 *
 * TRANSPOSE_TILE, _ROWS   transpose and copy: a TILE x TILE tile moved by a TILE x ROWS block
 * TRANSPOSE_BAND          tiled transposes: tile columns per band of the block order
 * TRANSPOSE_PADDED_TILE, _ROWS  padded's tile side and block rows (TILE x ROWS threads)
 * TRANSPOSE_PADDED_BAND   padded: its own TRANSPOSE_BAND (its tiles may be larger)
 * TRANSPOSE_VEC           padded: 1 loads float4s along rows of `in` where ld_in allows; 0 never
 * TRANSPOSE_TALL_TILE     padded-tall: rows of `in` per tile (TRANSPOSE_TILE columns), the
 *                         length of the sector-aligned pieces of out's rows it writes
 * TRANSPOSE_TALL_ROWS     padded-tall: rows of threads in a block of TRANSPOSE_TILE columns
 * TRANSPOSE_REG_X, _REG_Y register: its block, REG_X x REG_Y threads over 4 REG_X columns and
 *                         4 REG_Y rows of `in`, a 4 x 4 block each (cpu 2 x 128: on PoCL over 2
 *                         cores the fastest of 1-8 x 8-128 at 1024^2-4096^2; tuning-notes)
 * TRANSPOSE_AUTO_REGISTER 1: transpose AUTO takes register where it fits (a CPU: 6-8x padded
 *                         on PoCL); 0: the staged variants
 * TRANSPOSE_AUTO_ALIGN    transpose AUTO takes padded-tall when ld_out is not a multiple of this
 *                         many floats (NVIDIA's 128-byte segments); 0: never
 * GEMM_SIMPLE_X, _Y       naive and coalesced sgemm: one thread per element, X x Y blocks
 * GEMM_TILE               tiled sgemm: TILE x TILE threads over TILE x TILE tiles of A and B
 * GEMM_REG_*              register sgemm: a BM x BN tile of C in BK steps, TM x TN per thread
 * GEMM_FAST_*             fast sgemm (kernels_cl/gemm_fast.cl states the rules they follow):
 *                         BM x BN tile, BK deep, WM x WN per warp, TM x TN per thread, BAND
 * GEMM_FAST_BODIES        OpenCL, the big tile: the transpose bodies each fast kernel holds: 1
 *                         its own alone (the shortest cold build), 2 its own and the one with
 *                         both operands the other way round (which never runs: NVIDIA's compiler
 *                         schedules the pair faster than one body or four), 4 all four, picked
 *                         by ta and tb (docs/results/h200.md, twenty-second session); the other
 *                         tiles take their own body alone. CUDA's are set in
 *                         kernels_cu/gemm_fast.inc
 * GEMM_FAST_EDGE_LOADS    OpenCL, the big tile: 1, its edge tiles take the unguarded loads for
 *                         all but their last k tile (FAST_EDGE_LOADS in kernels_cl/gemm_fast.cl;
 *                         the other tiles always do); 0, only tiles inside what may be read.
 *                         CUDA's big tile is built with 0 (kernels_cu/gemm_fast.inc)
 * GEMM_FAST_K_STOP        OpenCL, every tile: 1, the last k tile of a slice multiplies only
 *                         the k that exist (the rest are zeros), where the k step is deeper than
 *                         what is left: k of 1 on NVIDIA's OpenCL's tiny tile in steps of 16
 *                         spends 15 of 16 steps on zeros (4096^2 x 1 at 0.80 of cuBLAS on the
 *                         H100); 0, every step. CUDA builds 0 (kernels_cl/gemm_fast.cl: an early
 *                         stop raised nvcc's spills in four nvidia-sm80 kernels). Untimed on a GPU
 *                         (docs/results/misses.md, "4096^2 x 1")
 * GEMM_FAST_SMALL_*       the same kernel at a smaller tile, for shapes with few big tiles
 * GEMM_FAST_TINY_*        the same kernel at a third tile, for C of few small tiles
 * GEMM_FAST_MID_*         the same kernel at a tile between the small and the tiny one, for a
 *                         C of fewer small tiles than compute units (1000 x 1000: 64 small
 *                         tiles, 128 mid ones)
 * GEMM_FAST_MID_PER_CU    the mid tile's blocks resident on a unit at once
 * GEMM_FAST_MID_PCT       the mid tile's multiply-add rate in the cost model, in percent of the
 *                         small tile's; 0: never weighed (every set; NVIDIA's OpenCL refines it,
 *                         src/tuning.c)
 * GEMM_FAST_TALL_*, GEMM_FAST_WIDE_*  the same kernel at a tall and a wide tile, for a C whose
 *                         columns (tall) or rows (wide) fit one tile across: 65536 x 32 on the
 *                         tiny tile's 64 x 64 computes twice its outputs
 * GEMM_FAST_NARROW_*      the same kernel at the tall tile's height and half its width (16 columns
 *                         on the GPU sets), for a C at most GEMM_FAST_NARROW_BN columns wide:
 *                         4096 x 16 on the tall tile computes twice its outputs
 * GEMM_FAST_NARROW_PCT    the narrow tile's multiply-add rate in the cost model (at the tiny
 *                         tile's blocks a unit), in percent of the small tile's; 0: never weighed
 *                         (nvidia-sm80: 80, the tall tile's rate, on both backends)
 * GEMM_FAST_FLAT_*        the same kernel at the mid tile turned on its side (64 x 128 on the
 *                         GPU sets), for a C whose rows fit one across: cuBLAS's tile for 64 x
 *                         4096 x 16384, where the tiny tile's 64 x 64 ran at 0.70 of it
 * GEMM_FAST_MID_THIN_PCT  the mid and flat tiles' multiply-add rate in the cost model (at
 *                         GEMM_FAST_MID_PER_CU blocks a unit), in percent of the small tile's,
 *                         where C is thin on one side alone and that side fits one of them across
 *                         but not a tall (wide) tile: more columns than GEMM_FAST_TALL_BN, at most
 *                         GEMM_FAST_MID_BN, and at least GEMM_FAST_MID_BM rows (the mid tile), or
 *                         the same of rows for the flat one; 0: never (nvidia-sm80: 100)
 * GEMM_FAST_MID_THIN_MIN_K  ... where k is at least this (nvidia-sm80 8192: on CUDA the thin
 *                         mid and flat tiles ran k = 16384 12-21% faster than the tiny tile, the
 *                         mid tile k = 4096 2% and k = 1024 8% slower, where the tiny tile's
 *                         cluster kernel sums its slices in its one launch; NVIDIA's OpenCL,
 *                         without clusters, 0)
 * GEMM_FAST_THIN          1: the cost model also weighs the tall tile for a piece at most
 *                         GEMM_FAST_TALL_BN columns wide and the wide tile for one at most
 *                         GEMM_FAST_WIDE_BM rows high (each at the tiny tile's blocks a unit and
 *                         rate); 0: never
 * GEMM_FAST_BIG_PCT       fast takes the big tile where it gives at least this percentage of
 *                         the compute units' count in tiles (and k > GEMM_FAST_SHALLOW_K, and
 *                         GEMM_FAST_BIG_FILL_PCT holds),
 *                         else the small, mid, tiny, tall or wide tile, with or without split-K,
 *                         whichever the plan's cost model (src/gemm_plan.c, tile_piece) finds
 *                         fastest:
 * GEMM_FAST_BIG_FILL_PCT  ... and where C fills at least this percentage of the big tiles that
 *                         cover it (65536 x 32 fills a quarter of its 256 x 128 tiles); 0: any
 * GEMM_FAST_BIG_SPLIT_PCT the big tile's multiply-add rate in that cost model, in percent of the
 *                         small tile's, where it is weighed in k slices (a piece of too few big
 *                         tiles that fills them, GEMM_FAST_BIG_FILL_PCT: 512 x 512 x 32768 in 8
 *                         tiles of 33 slices) at one block a unit, as it runs whole; 0: never
 * GEMM_FAST_BIG_SPLIT_MIN_K  ... in slices of at least this much k (at 250 of k a slice it ran
 *                         3-20% slower than the smaller tiles: docs/results/h200.md, thirtieth
 *                         session)
 * GEMM_FAST_SMALL_PER_CU, GEMM_FAST_TINY_PER_CU  blocks of that tile resident on a unit at once
 * GEMM_FAST_TINY_PCT      the tiny tile's multiply-add rate, in percent of the small tile's
 * GEMM_FAST_SHALLOW_K     k at most this takes the small tile even where the big one fills the
 *                         units (its blocks overlap one's stores with another's loop); 0: never
 * GEMM_FAST_SHALLOW_TINY_K  k at most this takes the tiny tile in one slice wherever it fits
 *                         (a C bound by its stores: more, smaller blocks a unit keep more
 *                         stores in flight); 0: never
 * GEMM_COST_LANES         the model's multiply-adds per cycle and unit
 * GEMM_COST_LAT           the model's cycles of a k step's loads (what a lone block waits), per
 *                         8 of the step's k (fitted on steps of 8; a tile of another depth
 *                         keeps the slices it was measured best at)
 * GEMM_COST_CLUSTER_WAIT_PCT  the share of that wait, in percent, that a block alone on its unit
 *                         pays in a cluster kernel where the piece's operands fit in the device's
 *                         last-level cache or its size is not known (past it: all of it); 0: none
 *                         (docs/results/tuning-notes.md)
 * GEMM_SPLITK_MIN_K, _MAX split-K: at most _MAX slices, each of at least _MIN_K of k ...
 * GEMM_SPLITK_MAX_MIB     ... whose partial products take at most this many MiB of scratch
 * GEMM_SPLITK_LAUNCH      the model's cost of the reduction's launch, in GEMM_COST_LATs (NVIDIA's
 *                         OpenCL refines it: src/tuning.c)
 * GEMM_SPLITK_BW          the model's partial-product floats written and read per cycle and unit
 * GEMM_SPLITK_REDUCE_PER_CU  the reduction's blocks per unit (a grid-stride 1D grid)
 * GEMM_SPLITK_FUSE        split-K of the tiny tile in at most this many slices runs as one
 *                         launch, stream-K's kernel at that tile over every tile (a block a tile
 *                         and slice; the last of a tile's blocks adds the others' partial
 *                         products in k order): no reduction launch; 0 never (NVIDIA's OpenCL
 *                         refines it: src/tuning.c)
 * GEMM_SPLITK_CLUSTER     split-K of the small or tiny tile in at most this many slices may run
 *                         as one launch of thread-block clusters (a cluster per tile, a block
 *                         per slice, summed through the cluster's shared memory); the plan
 *                         weighs it only where the backend has clusters (CUDA, compute
 *                         capability 9.0); 0 never
 * GEMM_SPLITK_CLUSTER_TINY_K, _SMALL_K  ... and, where its units run at most half the blocks
 *                         they hold (the tile's _PER_CU), only in k slices shorter than this
 *                         (rounded up to the tile's k step) at the tiny and the small tile; 0:
 *                         any. Too few blocks a unit wait for each k step's loads, which the
 *                         model does not price, and the longer the slice the more steps: on the
 *                         H200 the tiny tile's cluster ran 512^2 x 2048 (2 slices of 1024, a
 *                         block a unit) at 0.49 of cuBLAS, 512^3 (2 of 256) at 1.01-1.30; the small
 *                         tile's 1024^2 x 2048 (1024) 7% slower than in 4 slices and the
 *                         reduction, 997^3 (504) 13% faster (docs/results/h200.md,
 *                         thirty-fourth session). On the H100 the tiny tile's 384^2 x 1024 (3 of
 *                         341) ran 0.0249 ms against 0.0166 in 11 slices and the reduction,
 *                         512^2 x 768 (2 of 384) 0.0279 against 0.0233 in clusters of 4, while
 *                         at 256 the floor would cost 512^3 its 2 slices (0.0160 -> 0.0169 ms in
 *                         4): 320; with three blocks a unit the tiny tile's 896^2 x 1024 (2 of
 *                         512) ran 0.0530 ms against 0.0565 on the floor's plan, so three of
 *                         four are not under-full (docs/results/h100.md, thirty-fifth session)
 * GEMM_SPLITK_REDUCE_TILE, _ROWS  split-K's reduction: its block, TILE columns of a row by ROWS
 *                         lanes that share out the slices (the kernel takes any block)
 * GEMM_FAST_STRIPS        1: where the big tiles' last row or column is at most half full and
 *                         cutting it off saves a wave of tiles (the rest filling its big tiles
 *                         as GEMM_FAST_BIG_FILL_PCT asks), fast runs it as a strip of its own
 *                         (small tiles, split-K); 0: never
 * GEMM_FAST_STREAMK_PCT   stream-K: where the big tiles leave at least this percentage of their
 *                         waves' block slots idle, fast shares the last tiles' k iterations out
 *                         among one block per compute unit (src/gemm_plan.c); 0: never
 * GEMM_AUTO_TILED_MAX     AUTO takes tiled first where m, n and k are all at most this (one
 *                         launch of a small kernel beats fast's larger block there); 0: never
 * GEMM_AUTO_COALESCED_MAX AUTO takes coalesced first where C has at most this many elements and
 *                         is neither one row nor one column (those are GEMV's): one work-item an
 *                         element, k in its loop, where fast's smallest tile would leave most of
 *                         its lanes idle; 0: never
 * GEMM_PACK_MIN_INTENSITY fast copies an operand whose ld is not a multiple of 4 into the arena
 *                         at one that is (vector loads), where the multiply does at least this
 *                         many flops per byte the copies move (nvidia-sm80 128: on the H100
 *                         CUDA ran 703^3-799^3 10-14% faster packed, 575^3 4%, 639^3 3% slower;
 *                         docs/results/h100.md, thirty-fifth session)
 * GEMM_FAST_SCALAR        1: where an operand's ld is not a multiple of 4 and it is not packed
 *                         (GEMM_PACK_MIN_INTENSITY), fast's pieces run their scalar twins (the
 *                         gemm_fast*_scalar groups: lanes load consecutive floats at any
 *                         alignment); 0: fast's own kernels, which load such an operand a float
 *                         at a time in the float4 groups' layout
 * GEMM_SKINNY_S           skinny sgemm: the most rows (or columns) of C a strip may have
 * GEMM_FAST_SKINNY        1: fast runs a strip of at most GEMM_SKINNY_S rows or columns of C
 *                         with a skinny kernel: skinny where the other operand is read along the
 *                         strip (rows with B not transposed, columns with A transposed), else
 *                         skinny-dot, a dot product per output; 0: never
 * GEMM_FAST_SKINNY_DOT    1: with GEMM_FAST_SKINNY, skinny-dot takes the strips it fits; 0: those
 *                         strips keep the tiles (on PoCL the tall and wide tiles ran them
 *                         1.3-2.7x faster: docs/results/tuning-notes.md)
 * GEMM_FAST_SKINNY_FILL_PCT  skinny and skinny-dot take a strip only where it fills at least
 *                         this percentage of the outputs of their blocks along it; a shorter one
 *                         keeps the tiles (0: any strip)
 * GEMM_FAST_GEMV          1: fast (and so AUTO) runs a piece of C one row or one column thin
 *                         with a GEMV kernel: sgemv where the big operand is read along the
 *                         outputs (a row with B not transposed, a column with A transposed),
 *                         else sgemv-dot, a dot product per output; 0: never (skinny takes it)
 * GEMV_THREADS            GEMV: threads per block of both kernels
 * GEMV_LX                 sgemv: threads along the outputs (4 each); the block's other
 *                         GEMV_THREADS / GEMV_LX groups of threads split k
 * GEMV_DOT_LANES          sgemv-dot: threads per output (a divisor of 32)
 * GEMV_UNROLL             GEMV: float4 loads of the big operand in flight per thread and step
 * GEMV_SYNC_ROWS          sgemv: 0, or a barrier after every this many rows of the big operand
 *                         a thread reads, so that a CPU's OpenCL, which runs a block's threads
 *                         one after another between barriers, reads each row along its length
 *                         (kernels_cl/gemm_gemv.cl, gemv_rows_synced)
 * GEMV_SPLIT_PER_CU       sgemv-dot: k is split into slices (one launch: the last thread to
 *                         finish an output adds its slices in order) until the blocks reach this
 *                         many per compute unit ...
 * GEMV_ALONG_PER_CU       ... and the same for sgemv (the big operand read along the outputs) ...
 * GEMV_SPLIT_MIN_K        ... with at least this much of k per slice
 * VADD_BLOCK, _PER_CU     vector add: threads per block, and blocks per compute unit of its
 *                         grid-stride grid (float4 per step)
 * REDUCE_BLOCK            reduction: threads per block of every variant (a power of two >= 64)
 * REDUCE_PER_CU           shuffle and atomic: blocks per compute unit of the first pass's grid
 * REDUCE_UNROLL           shuffle and atomic: float4 loads in flight per thread and step
 * REDUCE_ITEMS_MAX        shuffle and atomic: the most float4s a thread of the first pass reads;
 *                         where the grid of REDUCE_PER_CU would give it more, more blocks (0:
 *                         no bound). On a CPU's OpenCL a thread's grid-stride loop runs whole
 *                         before the next thread's, one float4 a page or more apart
 * REDUCE_ONE_PASS         1: shuffle sums its blocks' sums in the same launch (the last block to
 *                         finish, by an atomic ticket; the same bits as two passes); 0: a second
 *                         launch of one block does (the default set's choice: the ticket rests
 *                         on each device's fences and volatile reads, tried so far on PoCL)
 * STENCIL_BLOCK           stencil: threads per block of naive, shared and the register window
 *                         of radius 4 (>= 64)
 * STENCIL_VEC             stencil register (radius <= 4): consecutive outputs per thread (a
 *                         multiple of 4)
 * STENCIL_R16_BLOCK       stencil register, the window of radius 16 (radius > 4), staged in
 *                         shared memory: threads per block (a multiple of 32)
 * STENCIL_R16_VEC         ... and its consecutive outputs per thread (4, 8, 16 or 32)
 * STENCIL_PER_CU          stencil register (radius <= 4): blocks per compute unit of its
 *                         grid-stride grid
 * STENCIL_R16_PER_CU      the same for the register window of radius 16 (radius > 4)
 * STENCIL_MIN_BLOCKS      stencil register4, OpenCL: blocks per compute unit the compiler must
 *                         leave room for in registers (NVIDIA's -cl-nv-maxrregcount); 0: the
 *                         compiler's choice. A grid of more blocks than fit at once runs a
 *                         second, part-empty wave. CUDA's build ignores it (kernels_cu/stencil.cu)
 * STENCIL_AUTO            the variant stencil AUTO takes (a duet_stencil_variant: 1 naive,
 *                         2 shared, 3 register)
 * QUEUE_FLUSH             OpenCL: 0 submits (clFlush) after copies, events and waits only; 1
 *                         after every kernel too, in a family of several queues; 2 after every
 *                         kernel. NVIDIA's runtime holds enqueued commands back until a flush.
 *                         CUDA ignores it (a launch is submitted when it is made)
 * LAUNCH_OVERLAP          CUDA, compute capability 9.0: 1 launches the kernels written once
 *                         (the GEMM groups) with programmatic stream serialization, so that
 *                         their blocks are placed while the launch before them finishes (each
 *                         waits for it in its first statement: AFTER_PRIOR_LAUNCH in
 *                         kernels_cl/builtin.h); 0 never. OpenCL has no such launch
 *
 * Where the values come from: nvidia-sm80 measured on an H100 and an H200, cpu on PoCL, default
 * the H100's shapes where they are safe on any GPU (docs/results/tuning-notes.md).
 */
/* The rules the kernels assume of the values, each next to the row of its tunable (the last of
 * those it names): DUET__RULE(NAME, condition, text), the condition over T(NAME), the value in
 * force. The core checks them where a set, a refinement or a DUET_TUNE override is applied
 * (src/tuning.c: DUET_EINVAL naming the rule), and checks every set of this table against them
 * when it compiles. They assume every value at least 1 (0 where 0 means off), which DUET_TUNE's
 * parser checks first; a rule is read only where those before it hold (so the divisions here
 * never divide by 0). A value that only makes a block too large for a device is no rule's
 * business: the launch says DUET_EUNSUPPORTED. Expanded to nothing unless a reader defines it. */
#define DUET__RULE(name, ok, text)
/* register: its work-items, (BM / TM) x (BN / TN) */
#define DUET__REG_NT ((T(GEMM_REG_BM) / T(GEMM_REG_TM)) * (T(GEMM_REG_BN) / T(GEMM_REG_TN)))
/* fast, at each tile (P: GEMM_FAST_, GEMM_FAST_SMALL_, ...); kernels_cl/gemm_fast.cl states them
 * (the #error checks there build-fail the same values, without naming the rule) */
#define DUET__FAST_NT(P) (32 * (T(P##BM) / T(P##WM)) * (T(P##BN) / T(P##WN)))
// clang-format off
#define DUET__FAST_RULES(P)                                                                    \
  DUET__RULE(P##TM, T(P##TM) % 4 == 0 && T(P##TN) % 4 == 0 && T(P##BK) % 4 == 0,                \
             #P "TM, " #P "TN and " #P "BK are multiples of 4 (4 x 4 pieces, float4 loads)")    \
  DUET__RULE(P##WM, T(P##WM) % T(P##TM) == 0 && T(P##WN) % T(P##TN) == 0,                       \
             #P "TM divides " #P "WM and " #P "TN divides " #P "WN (rows or columns of C would " \
             "never be stored)")                                                               \
  DUET__RULE(P##WN, (T(P##WM) / T(P##TM)) * (T(P##WN) / T(P##TN)) == 32,                        \
             "(" #P "WM / " #P "TM) * (" #P "WN / " #P "TN) is 32, a warp's lanes")             \
  DUET__RULE(P##BM, T(P##BM) % T(P##WM) == 0 && T(P##BN) % T(P##WN) == 0,                       \
             #P "WM divides " #P "BM and " #P "WN divides " #P "BN (warp tiles tile the block)") \
  DUET__RULE(P##BN, DUET__FAST_NT(P) % (T(P##BM) / 4) == 0 &&                                   \
                        DUET__FAST_NT(P) % (T(P##BN) / 4) == 0,                                 \
             #P "BM / 4 and " #P "BN / 4 divide the work-group, 32 * (BM / WM) * (BN / WN)")    \
  DUET__RULE(P##BK, T(P##BM) * T(P##BK) / 4 % DUET__FAST_NT(P) == 0 &&                          \
                        T(P##BN) * T(P##BK) / 4 % DUET__FAST_NT(P) == 0,                        \
             #P "BM * " #P "BK / 4 and " #P "BN * " #P "BK / 4 are multiples of the "          \
             "work-group (each work-item loads whole float4 groups)")

#define DUET__TUNABLES(X)                 \
  X(TRANSPOSE_TILE,          32,  32,  32) \
  X(TRANSPOSE_ROWS,           8,   8,   4) \
  DUET__RULE(TRANSPOSE_ROWS, T(TRANSPOSE_TILE) % T(TRANSPOSE_ROWS) == 0,                           \
             "TRANSPOSE_ROWS divides TRANSPOSE_TILE (copy, scale and the tiled transposes step a " \
             "tile by it)")                                                                        \
  X(TRANSPOSE_BAND,          32,   8,  32) \
  X(TRANSPOSE_PADDED_TILE,   32,  64,  32) \
  X(TRANSPOSE_PADDED_ROWS,    8,   8,   4) \
  DUET__RULE(TRANSPOSE_PADDED_ROWS, T(TRANSPOSE_PADDED_TILE) % T(TRANSPOSE_PADDED_ROWS) == 0,      \
             "TRANSPOSE_PADDED_ROWS divides TRANSPOSE_PADDED_TILE")                                \
  X(TRANSPOSE_PADDED_BAND,   32,  32,  32) \
  X(TRANSPOSE_VEC,            0,   1,   0) \
  X(TRANSPOSE_TALL_TILE,    128, 128,  64) \
  X(TRANSPOSE_TALL_ROWS,      8,   8,   4) \
  X(TRANSPOSE_REG_X,          8,   8,   2) \
  X(TRANSPOSE_REG_Y,         32,  32, 128) \
  DUET__RULE(TRANSPOSE_REG_Y, T(TRANSPOSE_REG_X) * T(TRANSPOSE_REG_Y) <= 1024,                     \
             "TRANSPOSE_REG_X * TRANSPOSE_REG_Y is at most 1024 (register's block)")               \
  X(TRANSPOSE_AUTO_ALIGN,    32,  32,   0) \
  X(GEMM_SIMPLE_X,           32,  32,  32) \
  X(GEMM_SIMPLE_Y,            8,   8,   8) \
  X(GEMM_TILE,               32,  32,  16) \
  X(GEMM_REG_BM,             64, 128,  32) \
  X(GEMM_REG_BN,             64, 128,  32) \
  X(GEMM_REG_BK,              8,   8,   8) \
  X(GEMM_REG_TM,              4,   8,   4) \
  X(GEMM_REG_TN,              4,   8,   4) \
  DUET__RULE(GEMM_REG_TM, T(GEMM_REG_BM) % T(GEMM_REG_TM) == 0 &&                                  \
                 T(GEMM_REG_BN) % T(GEMM_REG_TN) == 0,                                             \
             "GEMM_REG_TM divides GEMM_REG_BM and GEMM_REG_TN divides GEMM_REG_BN (rows or "       \
             "columns of C would never be stored)")                                                \
  DUET__RULE(GEMM_REG_BK, T(GEMM_REG_BM) * T(GEMM_REG_BK) % DUET__REG_NT == 0 &&                   \
                 T(GEMM_REG_BK) * T(GEMM_REG_BN) % DUET__REG_NT == 0,                              \
             "GEMM_REG_BM * GEMM_REG_BK and GEMM_REG_BK * GEMM_REG_BN are multiples of the (BM / " \
             "TM) * (BN / TN) work-items (each loads whole shares of the tiles)")                  \
  X(GEMM_FAST_BM,           128, 256,  64) \
  X(GEMM_FAST_BN,           128, 128,  64) \
  X(GEMM_FAST_BK,             8,   8,   8) \
  X(GEMM_FAST_WM,            32,  64,  32) \
  X(GEMM_FAST_WN,            64,  64,  64) \
  X(GEMM_FAST_TM,             8,  16,   8) \
  X(GEMM_FAST_TN,             8,   8,   8) \
  X(GEMM_FAST_BAND,          16,   8,  16) \
  DUET__FAST_RULES(GEMM_FAST_) \
  X(GEMM_FAST_BODIES,         1,   2,   1) \
  DUET__RULE(GEMM_FAST_BODIES,                                                                     \
             T(GEMM_FAST_BODIES) == 1 || T(GEMM_FAST_BODIES) == 2 || T(GEMM_FAST_BODIES) == 4,     \
             "GEMM_FAST_BODIES is 1, 2 or 4 (transpose bodies in each fast kernel)")               \
  X(GEMM_FAST_EDGE_LOADS,     1,   0,   1) \
  DUET__RULE(GEMM_FAST_EDGE_LOADS, T(GEMM_FAST_EDGE_LOADS) <= 1,                                   \
             "GEMM_FAST_EDGE_LOADS is 0 or 1 (edge tiles take the unguarded loads)")               \
  X(GEMM_FAST_SMALL_BM,     128, 128,  64) \
  X(GEMM_FAST_SMALL_BN,     128, 128,  64) \
  X(GEMM_FAST_SMALL_BK,       8,   8,   8) \
  X(GEMM_FAST_SMALL_WM,      32,  32,  32) \
  X(GEMM_FAST_SMALL_WN,      64,  64,  64) \
  X(GEMM_FAST_SMALL_TM,       8,   8,   8) \
  X(GEMM_FAST_SMALL_TN,       8,   8,   8) \
  X(GEMM_FAST_SMALL_BAND,    16,  16,  16) \
  DUET__FAST_RULES(GEMM_FAST_SMALL_) \
  X(GEMM_FAST_TINY_BM,       64,  64,  32) \
  X(GEMM_FAST_TINY_BN,       64,  64,  32) \
  X(GEMM_FAST_TINY_BK,        8,   8,   8) \
  X(GEMM_FAST_TINY_WM,       32,  32,  16) \
  X(GEMM_FAST_TINY_WN,       32,  32,  32) \
  X(GEMM_FAST_TINY_TM,        4,   4,   4) \
  X(GEMM_FAST_TINY_TN,        8,   8,   4) \
  X(GEMM_FAST_TINY_BAND,     16,  16,  16) \
  DUET__FAST_RULES(GEMM_FAST_TINY_) \
  X(GEMM_FAST_TALL_BM,      128, 128,  64) \
  X(GEMM_FAST_TALL_BN,       32,  32,  16) \
  X(GEMM_FAST_TALL_BK,       16,  16,  16) \
  X(GEMM_FAST_TALL_WM,       32,  32,  32) \
  X(GEMM_FAST_TALL_WN,       32,  32,  16) \
  X(GEMM_FAST_TALL_TM,        4,   4,   4) \
  X(GEMM_FAST_TALL_TN,        8,   8,   4) \
  X(GEMM_FAST_TALL_BAND,     16,  16,  16) \
  DUET__FAST_RULES(GEMM_FAST_TALL_) \
  X(GEMM_FAST_WIDE_BM,       32,  32,  16) \
  X(GEMM_FAST_WIDE_BN,      128, 128,  64) \
  X(GEMM_FAST_WIDE_BK,       16,  16,  16) \
  X(GEMM_FAST_WIDE_WM,       32,  32,  16) \
  X(GEMM_FAST_WIDE_WN,       32,  32,  32) \
  X(GEMM_FAST_WIDE_TM,        4,   4,   4) \
  X(GEMM_FAST_WIDE_TN,        8,   8,   4) \
  X(GEMM_FAST_WIDE_BAND,     16,  16,  16) \
  DUET__FAST_RULES(GEMM_FAST_WIDE_) \
  X(GEMM_FAST_MID_BM,       128, 128,  64) \
  X(GEMM_FAST_MID_BN,        64,  64,  32) \
  X(GEMM_FAST_MID_BK,         8,   8,   8) \
  X(GEMM_FAST_MID_WM,        32,  32,  32) \
  X(GEMM_FAST_MID_WN,        64,  64,  32) \
  X(GEMM_FAST_MID_TM,         8,   8,   4) \
  X(GEMM_FAST_MID_TN,         8,   8,   8) \
  X(GEMM_FAST_MID_BAND,      16,  16,  16) \
  DUET__FAST_RULES(GEMM_FAST_MID_) \
  X(GEMM_FAST_NARROW_BM,    128, 128,  64) \
  X(GEMM_FAST_NARROW_BN,     16,  16,   8) \
  X(GEMM_FAST_NARROW_BK,     32,  32,  16) \
  X(GEMM_FAST_NARROW_WM,     32,  32,  64) \
  X(GEMM_FAST_NARROW_WN,     16,  16,   8) \
  X(GEMM_FAST_NARROW_TM,      4,   4,   4) \
  X(GEMM_FAST_NARROW_TN,      4,   4,   4) \
  X(GEMM_FAST_NARROW_BAND,   16,  16,  16) \
  DUET__FAST_RULES(GEMM_FAST_NARROW_) \
  X(GEMM_FAST_FLAT_BM,       64,  64,  32) \
  X(GEMM_FAST_FLAT_BN,      128, 128,  64) \
  X(GEMM_FAST_FLAT_BK,        8,   8,   8) \
  X(GEMM_FAST_FLAT_WM,       64,  64,  32) \
  X(GEMM_FAST_FLAT_WN,       32,  32,  32) \
  X(GEMM_FAST_FLAT_TM,        8,   8,   8) \
  X(GEMM_FAST_FLAT_TN,        8,   8,   4) \
  X(GEMM_FAST_FLAT_BAND,     16,  16,  16) \
  DUET__FAST_RULES(GEMM_FAST_FLAT_) \
  X(GEMM_FAST_NARROW_PCT,     0,  80,   0) \
  X(GEMM_FAST_MID_PER_CU,     3,   3,   1) \
  X(GEMM_FAST_MID_PCT,        0,   0,   0) \
  X(GEMM_FAST_THIN,           1,   1,   1) \
  DUET__RULE(GEMM_FAST_THIN, T(GEMM_FAST_THIN) <= 1,                                               \
             "GEMM_FAST_THIN is 0 (never) or 1 (the tall and wide tiles where they fit)")          \
  X(GEMM_FAST_BIG_PCT,       75,  30,  75) \
  X(GEMM_FAST_BIG_FILL_PCT,  50,  60,  50) \
  X(GEMM_FAST_SMALL_PER_CU,   2,   2,   1) \
  X(GEMM_SPLITK_REDUCE_TILE, 32,  32,  32) \
  X(GEMM_SPLITK_REDUCE_ROWS,  8,   8,   4) \
  X(GEMM_FAST_TINY_PER_CU,    4,   4,   1) \
  X(GEMM_FAST_TINY_PCT,      80,  80,  50) \
  X(GEMM_FAST_SHALLOW_K,      0, 128,   0) \
  X(GEMM_FAST_SHALLOW_TINY_K, 0,  32,   0) \
  X(GEMM_FAST_STRIPS,         1,   1,   1) \
  X(GEMM_FAST_STREAMK_PCT,    5,   5,   5) \
  X(GEMM_PACK_MIN_INTENSITY, 256, 128, 256) \
  X(GEMM_SKINNY_S,            4,   4,   4) \
  DUET__RULE(GEMM_SKINNY_S, T(GEMM_SKINNY_S) <= 32,                                                \
             "GEMM_SKINNY_S is at most 32 (skinny-dot sums a strip's outputs in the 32 lanes of "  \
             "a warp)")                                                                            \
  X(GEMM_FAST_SKINNY,         1,   1,   1) \
  X(GEMM_FAST_SKINNY_DOT,     1,   1,   0) \
  DUET__RULE(GEMM_FAST_SKINNY_DOT, T(GEMM_FAST_SKINNY_DOT) <= 1,                                   \
             "GEMM_FAST_SKINNY_DOT is 0 (strips keep their tiles) or 1 (skinny-dot takes them)")   \
  X(GEMM_FAST_GEMV,           1,   1,   1) \
  X(GEMV_THREADS,           256, 256, 256) \
  DUET__RULE(GEMV_THREADS, T(GEMV_THREADS) % 32 == 0 && T(GEMV_THREADS) <= 1024,                   \
             "GEMV_THREADS is a multiple of 32 up to 1024 (whole warps)")                          \
  X(GEMV_LX,                 32,  32, 256) \
  DUET__RULE(GEMV_LX, T(GEMV_THREADS) % T(GEMV_LX) == 0,                                           \
             "GEMV_LX divides GEMV_THREADS (sgemv's block is whole groups of threads along k)")     \
  X(GEMV_DOT_LANES,          32,  32,   8) \
  DUET__RULE(GEMV_DOT_LANES, 32 % T(GEMV_DOT_LANES) == 0 &&                                        \
                 T(GEMV_THREADS) % T(GEMV_DOT_LANES) == 0,                                         \
             "GEMV_DOT_LANES divides 32 and GEMV_THREADS (an output's lanes sit in one warp)")     \
  X(GEMV_UNROLL,              4,   4,   4) \
  DUET__RULE(GEMV_UNROLL, T(GEMV_UNROLL) <= 16, "GEMV_UNROLL is at most 16 (registers)")           \
  X(GEMV_SYNC_ROWS,           0,   0,  16) \
  DUET__RULE(GEMV_SYNC_ROWS, T(GEMV_SYNC_ROWS) <= 64,                                              \
             "GEMV_SYNC_ROWS is at most 64 (rows between barriers)")                               \
  X(GEMV_SPLIT_PER_CU,        4,   2,   2) \
  X(GEMV_ALONG_PER_CU,        4,   4,   8) \
  X(GEMV_SPLIT_MIN_K,       256, 128, 256) \
  X(VADD_BLOCK,             256, 256, 256) \
  X(VADD_PER_CU,              8,2048,1024) \
  X(REDUCE_BLOCK,           256, 256, 256) \
  DUET__RULE(REDUCE_BLOCK, (T(REDUCE_BLOCK) & (T(REDUCE_BLOCK) - 1)) == 0 &&                       \
                 T(REDUCE_BLOCK) >= 64 && T(REDUCE_BLOCK) <= 1024,                                 \
             "REDUCE_BLOCK is a power of two from 64 to 1024 (the tree halves it; one warp "       \
             "sums the warps' partials)")                                                          \
  X(REDUCE_PER_CU,            4,   8,   4) \
  X(REDUCE_UNROLL,            4,   4,   2) \
  X(REDUCE_ONE_PASS,          0,   1,   1) \
  DUET__RULE(REDUCE_ONE_PASS, T(REDUCE_ONE_PASS) <= 1,                                             \
             "REDUCE_ONE_PASS is 0 (two launches) or 1 (one)")                                     \
  X(STENCIL_BLOCK,          256, 256, 256) \
  DUET__RULE(STENCIL_BLOCK, T(STENCIL_BLOCK) >= 33,                                                \
             "STENCIL_BLOCK is at least 33 (shared loads the 2 * 16 + 1 weights of the largest "   \
             "radius one per work-item)")                                                          \
  X(STENCIL_VEC,              8,   8,   8) \
  DUET__RULE(STENCIL_VEC, T(STENCIL_VEC) % 4 == 0,                                                 \
             "STENCIL_VEC is a multiple of 4 (register loads its window as float4s)")              \
  X(STENCIL_R16_BLOCK,      128, 128, 128) \
  DUET__RULE(STENCIL_R16_BLOCK, T(STENCIL_R16_BLOCK) % 32 == 0,                                    \
             "STENCIL_R16_BLOCK is a multiple of 32 (its tile's rows are a warp's loads)")         \
  X(STENCIL_R16_VEC,          8,   8,   8) \
  DUET__RULE(STENCIL_R16_VEC, T(STENCIL_R16_VEC) % 4 == 0 && 32 % T(STENCIL_R16_VEC) == 0,         \
             "STENCIL_R16_VEC is 4, 8, 16 or 32 (float4s, and rows of the tile's 32 halo floats)") \
  X(STENCIL_PER_CU,           4,2048,2048) \
  X(STENCIL_R16_PER_CU,      32,  32,   4) \
  X(STENCIL_MIN_BLOCKS,       0,   0,   0) \
  DUET__RULE(STENCIL_MIN_BLOCKS, T(STENCIL_MIN_BLOCKS) * T(STENCIL_BLOCK) <= 4096,                 \
             "STENCIL_MIN_BLOCKS * STENCIL_BLOCK is at most 4096 (16 registers a thread in a "     \
             "register file of 65536)")                                                            \
  X(GEMM_FAST_K_STOP,         0,   0,   0) \
  DUET__RULE(GEMM_FAST_K_STOP, T(GEMM_FAST_K_STOP) <= 1,                                           \
             "GEMM_FAST_K_STOP is 0 or 1 (the last k tile stops at k)")                            \
  /* past index 127 only tunables that steer the plans: DUET__TBIT's mask holds 128 bits */       \
  X(STENCIL_AUTO,             3,   3,   3) \
  X(QUEUE_FLUSH,              1,   1,   1) \
  DUET__RULE(QUEUE_FLUSH, T(QUEUE_FLUSH) <= 2, "QUEUE_FLUSH is 0, 1 or 2")                        \
  X(GEMM_SPLITK_CLUSTER,      4,   4,   0) \
  DUET__RULE(GEMM_SPLITK_CLUSTER, T(GEMM_SPLITK_CLUSTER) <= 8,                                     \
             "GEMM_SPLITK_CLUSTER is at most 8 (the portable size of a thread-block cluster)")     \
  X(LAUNCH_OVERLAP,           1,   1,   0) \
  DUET__RULE(LAUNCH_OVERLAP, T(LAUNCH_OVERLAP) <= 1, "LAUNCH_OVERLAP is 0 or 1") \
  X(GEMM_FAST_BIG_SPLIT_PCT,  0, 120,   0) \
  X(GEMM_FAST_BIG_SPLIT_MIN_K, 768, 768, 768) \
  X(GEMM_COST_LANES,         64, 128,   8) \
  X(GEMM_COST_LAT,          500, 500,   1) \
  X(GEMM_SPLITK_MIN_K,       64,  64, 256) \
  X(GEMM_SPLITK_MAX,       1024,1024,   8) \
  X(GEMM_SPLITK_MAX_MIB,     64,  64,  64) \
  X(GEMM_SPLITK_LAUNCH,       8,   8, 256) \
  X(GEMM_SPLITK_BW,           4,   4,   1) \
  X(GEMM_SPLITK_REDUCE_PER_CU, 16,  4,  4) \
  X(GEMM_SPLITK_FUSE,         0,   0,   0) \
  DUET__RULE(GEMM_SPLITK_FUSE, T(GEMM_SPLITK_FUSE) <= 64,                                          \
             "GEMM_SPLITK_FUSE is at most 64 (the last block of a tile adds the others' slices)")  \
  X(GEMM_FAST_MID_THIN_PCT,   0, 100,   0) \
  X(GEMM_FAST_MID_THIN_MIN_K, 0,8192,   0) \
  X(GEMM_FAST_SKINNY_FILL_PCT, 0,  0,  25) \
  DUET__RULE(GEMM_FAST_SKINNY_FILL_PCT, T(GEMM_FAST_SKINNY_FILL_PCT) <= 100,                       \
             "GEMM_FAST_SKINNY_FILL_PCT is at most 100 (a share of the blocks' outputs)")          \
  X(REDUCE_ITEMS_MAX,          0,  0,  32) \
  X(GEMM_COST_CLUSTER_WAIT_PCT, 0,  0,   0) \
  DUET__RULE(GEMM_COST_CLUSTER_WAIT_PCT, T(GEMM_COST_CLUSTER_WAIT_PCT) <= 100,                     \
             "GEMM_COST_CLUSTER_WAIT_PCT is at most 100 (a share of a lone block's wait)")         \
  X(GEMM_SPLITK_CLUSTER_TINY_K, 320, 320, 0) \
  X(GEMM_SPLITK_CLUSTER_SMALL_K, 1024, 1024, 0) \
  X(GEMM_AUTO_TILED_MAX,    128, 128,   0) \
  X(GEMM_AUTO_COALESCED_MAX,  0,   0,  40) \
  X(TRANSPOSE_AUTO_REGISTER,  0,   0,   1) \
  DUET__RULE(TRANSPOSE_AUTO_REGISTER, T(TRANSPOSE_AUTO_REGISTER) <= 1,                             \
             "TRANSPOSE_AUTO_REGISTER is 0 or 1")                                                  \
  X(GEMM_FAST_SCALAR,         0,   0,   0) \
  DUET__RULE(GEMM_FAST_SCALAR, T(GEMM_FAST_SCALAR) <= 1,                                           \
             "GEMM_FAST_SCALAR is 0 or 1 (unaligned operands on the scalar twins)")
// clang-format on

typedef enum {
#define DUET__TUNABLE_ENUM(name, ...) DUET__T_##name,
  DUET__TUNABLES(DUET__TUNABLE_ENUM)
#undef DUET__TUNABLE_ENUM
      DUET__T_COUNT
} duet__tunable;

typedef enum {
#define DUET__SET_ENUM(id, name) DUET__SET_##id,
  DUET__TUNING_SETS(DUET__SET_ENUM)
#undef DUET__SET_ENUM
      DUET__SET_COUNT_
} duet__tuning_set;

/* A bit per tunable, for the manifest's "which tunables does this kernel use": the tunables a
 * kernel is built with come before index 128 (duet__tmask, src/manifest.h, holds 128 bits), which
 * the bit-field of negative width refuses to build otherwise. */
#define DUET__TBIT(name)                                                                          \
  ((duet__tmask)1 << (DUET__T_##name + 0 * sizeof(struct {                                        \
                                         int tunable_index_under_128 : DUET__T_##name < 128 ? 1   \
                                                                                            : -1; \
                                       })))

#endif
