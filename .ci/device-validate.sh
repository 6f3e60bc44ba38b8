#!/bin/bash
# SPDX-License-Identifier: MIT
# Validation on the lent GPU machine (no libtool there): unpack the `make dist` tarball carried in
# .carry/, build with both backends required, run the whole harness (CUDA, NVIDIA OpenCL and
# PoCL), compute-sanitizer on every CUDA kernel, then the bench. Logs go to $OUT/logs.tar.gz.
# usage: .ci/device-validate.sh [STAGE...]   stages: check sanitize bench tune coldstart
# (default: all), plan (GEMM plans of issue 22's shapes, test_plan, test_manifest per backend), and
# regress: tests/test_regress on every platform (CUDA, NVIDIA OpenCL, PoCL),
# issue 23's cases, on its own (check runs it on CUDA and NVIDIA's OpenCL among the rest); and
# program: test_program on CUDA (CUBIN and PTX paths, memcheck) and NVIDIA's OpenCL; overlap:
# duet-bench overlap alone, with its timelines; cache: test_cache alone on NVIDIA's OpenCL; sweep:
# tools/duet-sweep's kernel variants on both backends, and the SASS of every kernel it built;
# streamk: tests/test_streamk, stream-K's publish under many launches, on every platform;
# gaps: issue 19's three H100 gaps, candidates against the defaults in one call (reduction
# against CUB, stencil r3/r16, overlap on both backends; see the stage below);
# shapes: issue 22's shape classes, AUTO beside cuBLAS and CLBlast, under each DUET_TUNE spec of
# SHAPES_TUNE (the plan's cost model and split-K limits), both backends, a table per spec
# (SHAPES_BACKEND=opencl: NVIDIA's OpenCL alone, for specs of kernel tunables, which CUDA's
# kernels built ahead of time refuse; cuBLAS, which needs a CUDA context, runs only with all);
# onesource: duet-bench's rows of the GEMM kernels written once (kernels_cl/gemm_fast.cl, gemm_skinny.cl), both backends, to set
# beside the same rows of the tarball before them (with sanitize: compute-sanitizer on them);
# suite: duet-bench gemm --suite (issue 22) on CUDA and NVIDIA's OpenCL in one run, into
# $OUT/logs/$SUITE_TAG.{txt,csv,json,png,gp,dat} (SUITE_TAG: suite, or e.g. before / after);
# kernelsrc: registers, spills and SASS of the GEMM kernels written once (GEMV too), from libduet.so.
# fence: test_streamk on NVIDIA's OpenCL alone, then the fences in its programs' binaries (PTX or
# CUBIN) from a fresh cache, counted per program by scope (the nineteenth session's device fence).
# ab: .carry/old/duet-old.tar.gz (an earlier `make dist`) built beside this tarball, the same
# gemm, stencil and reduce rows timed on both in one call.
# gemv: issue 22's one row or column of C (kernels_cl/gemm_gemv.cl) at every transpose against
# cuBLAS and CLBlast, the copy's rate beside it, skinny's (the before), then GEMV_* values swept
# bodies: NVIDIA OpenCL's big-tile fast kernels with one, two and four bodies (GEMM_FAST_BODIES),
# each built by the driver and loaded from a CUBIN, timed at the squares, and what each costs a
# fresh process to build (issue 21: one body ran 2-13% behind the twins on OpenCL, two do not).
# vendor: what cuBLAS launches for VENDOR_SHAPES (m x n x k, comma-separated; default the last
# misses of issue 22's suite), beside duet's AUTO: ncu's kernel names, grids, blocks, clusters,
# registers, times and throughputs per launch (nsys is not on the machine).
# The sanitizer runs every test program, test_manifest included (every kernel of every set).
# CUDA_ARCH (e.g. "-gencode=arch=compute_90,code=sm_90"): the build's architectures (configure's
# default, three of them, takes about 7 of a call's 10 minutes to build).
set -u
OUT=${OUT:-/tmp/out}
repo=$PWD
logs=$OUT/logs
mkdir -p "$logs"
stages=${*:-check sanitize bench tune coldstart}
has() { case " $stages " in *" $1 "*) return 0 ;; esac; return 1; }

# NVIDIA's OpenCL is installed but not registered; PoCL is.
mkdir -p /tmp/icd && echo /usr/lib/libnvidia-opencl.so.1 >/tmp/icd/nvidia.icd
cp /etc/OpenCL/vendors/*.icd /tmp/icd/ 2>/dev/null
export OCL_ICD_VENDORS=/tmp/icd
# CLBlast, unpacked from Debian's packages on the development machine (.carry/ is not in git:
#   (cd /tmp && apt-get download libclblast1 libclblast-dev) &&
#     for d in /tmp/libclblast*.deb; do dpkg -x "$d" .carry/clblast; done).
clb=$repo/.carry/clblast/usr
sed -i "s#^prefix=.*#prefix=$clb#" "$clb/lib/x86_64-linux-gnu/pkgconfig/clblast.pc"
export PKG_CONFIG_PATH=$clb/lib/x86_64-linux-gnu/pkgconfig LD_LIBRARY_PATH=$clb/lib/x86_64-linux-gnu
# NVRTC, which duet_program_create opens on CUDA, where the loader's cache may not list it.
[ -d /usr/local/cuda/lib64 ] && LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/cuda/lib64

{ date -u; nvidia-smi; nvcc --version; clinfo -l; } >"$logs/machine.txt" 2>&1
cat "$logs/machine.txt" | head -30

tarball=$(echo "$repo"/.carry/duet-*.tar.gz)
build() { # build DIR TARBALL CONFIGURE-ARGS...: unpack and build TARBALL in DIR
  local dir=$1 tgz=$2
  shift 2
  rm -rf "$dir" && mkdir -p "$dir" && tar -xzf "$tgz" -C "$dir" --strip-components=1 &&
    (cd "$dir" && ./configure --with-cuda --with-opencl "$@" >"$logs/configure-$(basename "$dir").log" 2>&1 &&
      tail -8 "$logs/configure-$(basename "$dir").log" && make -j16 >"$logs/make-$(basename "$dir").log" 2>&1)
}

# A machine kept warm between calls keeps its build: rebuild only for a new tarball.
if ! cmp -s "$tarball" /tmp/duet.tar.gz; then
  build /tmp/duet "$tarball" ${CUDA_ARCH:+"CUDA_ARCH=$CUDA_ARCH"} || { tail -30 "$logs"/make-duet.log "$logs"/configure-duet.log; exit 1; }
  (cd /tmp/duet && make -j16 check TESTS= >"$logs/make-check-programs.log" 2>&1) || exit 1
  cp "$tarball" /tmp/duet.tar.gz
fi
cd /tmp/duet

# compute-sanitizer crashes under synccheck on the tests' OpenMP threads: one thread for it.
if has sanitize; then # in the background, all at once: small tier, CUDA only, beside make check
  for tool in memcheck racecheck synccheck; do
    for t in ${SANITIZE_TESTS:-test_manifest test_transpose test_gemm test_queues test_program test_course}; do
      [ $t = test_gemm ] && [ $tool != memcheck ] && continue # the others cover its kernels
      # test_program asks for a kernel its program lacks, on purpose: the driver's error for it is
      # the refusal under test, not a fault, so API errors are not reported for that program.
      api=()
      [ $t = test_program ] && api=(--report-api-errors no)
      (OMP_NUM_THREADS=1 DUET_BACKEND=cuda DUET_TEST_LARGE=0 timeout ${SANITIZE_TIMEOUT:-400} \
        compute-sanitizer --tool $tool "${api[@]}" --error-exitcode 9 tests/$t >"$logs/sanitizer-$tool-$t.log" 2>&1
      echo "compute-sanitizer --tool $tool $t: rc=$? $(grep -h -E 'ERROR SUMMARY|RACECHECK SUMMARY|^harness:' "$logs/sanitizer-$tool-$t.log" | tr '\n' ' ')" \
        >"$logs/sanitizer-$tool-$t.summary") &
    done
  done
fi

if has check; then
  echo "=== make check (CUDA and NVIDIA OpenCL, large tier)"
  start=$(date +%s)
  # DUET_OPENCL_WERROR=1: NVIDIA's compiler must build every kernel without a warning too.
  # CUDA_CACHE_DISABLE=1: a build from NVIDIA's cache has no log, so every build is a real one.
  # CHECK_TESTS (e.g. "tests/test_gemm tests/test_course"): those programs alone, so that the
  # harness can be split over calls that each fit the device's 600 s.
  # CHECK_JOBS: make's jobs (12 ran the whole harness in 440 s on the H200, twenty-ninth session).
  CUDA_CACHE_DISABLE=1 DUET_OPENCL_WERROR=1 DUET_OPENCL_PLATFORM=NVIDIA timeout ${CHECK_TIMEOUT:-480} make -j${CHECK_JOBS:-4} check \
    ${CHECK_TESTS:+TESTS="$CHECK_TESTS"} >"$logs/check.log" 2>&1
  echo "make check rc=$? in $(($(date +%s) - start)) s"
  cp tests/*.log "$logs/" 2>/dev/null
  grep -h '^harness:' tests/*.log
  grep -h -E '^(FAIL|ERROR)' tests/*.log | head -20
  grep -h -E '^# (PASS|FAIL|SKIP|ERROR|TOTAL)' tests/test-suite.log
fi

# Issue 23's cases: stream-K with empty groups (5 x 129 x 9 on 132 SMs with
# DUET_TUNE=GEMM_FAST_BIG_PCT=1, a plan tunable that CUDA takes too), stale flags, split-K's
# alpha, AUTO on 128 threads. A case whose plan this device does not take says SKIP (5 x 5 x 9 is
# PoCL's case).
if has regress; then
  echo "=== test_regress (issue 23)"
  CUDA_CACHE_DISABLE=1 timeout ${CHECK_TIMEOUT:-480} tests/test_regress >"$logs/regress.log" 2>&1
  echo "test_regress rc=$?"
  grep -E '^(FAIL|SKIP)|plan _sk_|^harness' "$logs/regress.log" | cut -c1-160
fi

# Stream-K's partials under many launches (docs/correctness.md, "stream-K's publish"): every
# platform, ten times the CI launches, and once under compute-sanitizer's racecheck on CUDA.
if has streamk; then
  echo "=== test_streamk (stream-K's publish)"
  CUDA_CACHE_DISABLE=1 DUET_TEST_STREAMK_REPEAT=10 timeout ${CHECK_TIMEOUT:-480} tests/test_streamk \
    >"$logs/streamk.log" 2>&1
  echo "test_streamk rc=$?"
  grep -E '^(PASS|FAIL|SKIP)|^harness|compute units' "$logs/streamk.log" | cut -c1-160
  DUET_BACKEND=cuda timeout ${CHECK_TIMEOUT:-480} compute-sanitizer --tool racecheck \
    tests/test_streamk >"$logs/streamk-racecheck.log" 2>&1
  echo "test_streamk racecheck rc=$?"
  grep -E 'ERROR SUMMARY|^harness' "$logs/streamk-racecheck.log"
fi

# gaps: issue 19's three remaining H100 gaps, each candidate beside the defaults and the peer
# in the same process where it can be (DUET_TUNE per run; kernel tunables only on OpenCL, whose
# kernels compile at run time; DUET_TUNING=cpu gives CUDA's reduction 2 loads in flight). About
# 5 minutes. Compare:
#  1. reduce: "shuffle" against "cub" (CUDA) at 2^26 (8192) and 2^28 (16384) floats, per run:
#     REDUCE_ONE_PASS=1 (one launch, nvidia-sm80's new value) against 0 (two), grids of 8 and
#     16 blocks per SM; OpenCL's shuffle beside clblast-sum; then duet-sweep's reduce rows
#     (block sizes, loads in flight and grids no set has, one launch and two) at 2^28.
#  2. stencil: auto-r16 "vs ref" (target 0.80) and auto-r3 (0.90) at 2^26 and 2^28. NVIDIA's
#     OpenCL build of register16 took 67-73 registers at 8 outputs a work-item (nvcc: 63), so
#     only 3 of the 4 blocks of 256 per SM fit and the 4th ran as a second wave;
#     STENCIL_MIN_BLOCKS=4 caps it at 64 (-cl-nv-maxrregcount), and the registers of each build
#     are listed from its PTX (ptxas).
#  3. overlap: "of the bound" of the best way on each backend (target 0.87) under QUEUE_FLUSH 1
#     (default), 0 and 2, 32 and 64 chunks, and OpenCL queues without profiling.
# Then shuffle_once's tickets under load (test_reduce_once x10, every platform), test_queues,
# and compute-sanitizer on test_reduce_once, after the timings.
if has gaps; then
  echo "=== gaps (issue 19)"
  PATH=$PATH:/usr/local/cuda/bin
  export DUET_OPENCL_PLATFORM=NVIDIA
  B=tools/duet-bench
  gap() { # gap NAME SET SPEC duet-bench args...: one run under DUET_TUNING=SET, DUET_TUNE=SPEC
    local name=$1 set=$2 spec=$3 envs=()
    shift 3
    [ -n "$set" ] && envs+=("DUET_TUNING=$set")
    [ -n "$spec" ] && envs+=("DUET_TUNE=$spec")
    echo "--- $name: ${envs[*]:-the device set as it is}"
    env "${envs[@]}" $B "$@" 2>"$logs/gaps-$name.err" | tee "$logs/gaps-$name.txt" |
      grep -E '^[0-9]+ ' | sed "s/^/  [$name] /"
  }
  R="reduce --variant shuffle,cub,clblast-sum --sizes 8192,16384 --reps 50"
  echo "=== gaps: reduction (shuffle against cub on each CUDA size)"
  gap reduce-2pass "" REDUCE_ONE_PASS=0 $R --backend all
  gap reduce-1pass "" REDUCE_ONE_PASS=1 $R --backend all
  gap reduce-1pass-pcu16 "" REDUCE_ONE_PASS=1,REDUCE_PER_CU=16 $R --backend all
  # CUDA's kernels are compiled per set: the cpu set's reduction is 256 threads, 2 loads in flight
  gap reduce-u2-1pass-pcu16 cpu REDUCE_ONE_PASS=1,REDUCE_PER_CU=16 $R --backend cuda
  gap reduce-cl-u8-1pass-pcu4 "" REDUCE_ONE_PASS=1,REDUCE_UNROLL=8,REDUCE_PER_CU=4 $R --backend opencl
  # Blocks, loads in flight and grids beyond the sets, two passes and one (sweep_reduce_once),
  # through NVRTC and NVIDIA's OpenCL at 2^28 floats (the "once" rows; compare ms with cub above)
  timeout 180 tools/duet-sweep --only reduce -n 28 -r 30 2>&1 | tee "$logs/gaps-sweep-reduce.txt"
  echo "=== gaps: stencil (auto-r16 vs ref: target 0.80; auto-r3: 0.90)"
  S="stencil --variant auto-r3,auto-r16 --sizes 8192,16384"
  gap stencil-default "" "" $S --backend all
  gap stencil-full-r3 "" STENCIL_PER_CU=2048 $S --backend all
  # The staged radius-16 window (128 threads, 8 outputs, 32 blocks a unit in the sets) around
  # its values, on both backends
  gap stencil-r16-b256 "" STENCIL_R16_BLOCK=256 $S --backend all
  gap stencil-r16-pcu16 "" STENCIL_R16_PER_CU=16 $S --backend all
  gap stencil-r16-pcu64 "" STENCIL_R16_PER_CU=64 $S --backend all
  gap stencil-r16-v16 "" STENCIL_R16_VEC=16 $S --backend all
  # The registers of register16 on each spec: NVIDIA OpenCL's build from an empty cache (its PTX:
  # the cache keeps CUBINs only for the GEMM kernels with CUDA_CACHE_DISABLE=1), and nvcc's.
  arch=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
  for spec in STENCIL_R16_VEC=8 STENCIL_R16_VEC=16 STENCIL_R16_BLOCK=256; do
    d=/tmp/gaps-ptx && rm -rf $d && mkdir -p $d/cache $d/bin
    DUET_CACHE_DIR=$d/cache DUET_TUNE=$spec $B stencil --backend opencl --variant register-r16 --sizes 1024 \
      --reps 1 >/dev/null 2>&1
    tools/duet-sweep --dump $d/cache $d/bin >/dev/null 2>&1
    for f in $d/bin/*.ptx $d/bin/*.cubin; do
      [ -f "$f" ] || continue
      case $f in
      *.ptx) echo "  $spec: $(basename "$f"): ptxas: $(ptxas -arch=$arch -v "$f" -o /dev/null 2>&1 | grep -o 'Used [0-9]* registers')" ;;
      *) echo "  $spec: $(basename "$f"): $(cuobjdump -res-usage "$f" 2>/dev/null | grep -A1 register16 | grep -o 'REG:[0-9]*' | head -1)" ;;
      esac
    done
  done
  echo "  nvcc: $(cuobjdump -res-usage kernels_cu/.libs/stencil.o 2>/dev/null | grep -A1 register16 | grep -o 'REG:[0-9]* STACK:[0-9]*' | head -1)"
  echo "=== gaps: overlap (\"of the bound\": target 0.87 on both backends)"
  O="overlap -n 8192 --reps 7"
  gap overlap-flush1 "" QUEUE_FLUSH=1 $O --backend all
  gap overlap-flush0 "" QUEUE_FLUSH=0 $O --backend opencl
  gap overlap-flush2 "" QUEUE_FLUSH=2 $O --backend opencl
  DUET_BENCH_OVERLAP_CHUNKS=32 gap overlap-chunks32 "" "" $O --backend all
  DUET_BENCH_OVERLAP_CHUNKS=64 gap overlap-chunks64 "" "" $O --backend all
  DUET_OPENCL_PROFILING=0 gap overlap-noprofiling "" "" $O --backend opencl
  DUET_BENCH_OVERLAP_QUEUES=4 gap overlap-queues4 "" "" $O --backend all
  DUET_BENCH_OVERLAP_QUEUES=6 DUET_BENCH_OVERLAP_CHUNKS=24 gap overlap-queues6 "" "" $O --backend all
  for f in "$logs"/gaps-overlap-*.txt; do
    echo "--- $(basename "$f" .txt)"
    grep -E 'of the bound|chunks of|copies in and out at once|alone' "$f" | cut -c1-150
  done
  # What a flush after every kernel costs a small call (host time per call)
  for f in 0 2; do
    DUET_TUNE=QUEUE_FLUSH=$f $B launch --backend opencl >"$logs/gaps-launch-flush$f.txt" 2>&1
    echo "--- launch, QUEUE_FLUSH=$f"
    tail -12 "$logs/gaps-launch-flush$f.txt"
  done
  echo "=== gaps: correctness"
  CUDA_CACHE_DISABLE=1 DUET_OPENCL_WERROR=1 DUET_TEST_REDUCE_REPEAT=10 timeout 300 tests/test_reduce_once \
    >"$logs/gaps-reduce-once.log" 2>&1
  echo "test_reduce_once x10 rc=$?"
  grep -E '^(FAIL|SKIP)|plan:|^harness' "$logs/gaps-reduce-once.log" | sort | uniq -c | cut -c1-160
  timeout 300 tests/test_queues >"$logs/gaps-queues.log" 2>&1
  echo "test_queues rc=$? $(grep -h '^harness' "$logs/gaps-queues.log")"
  grep -E '^FAIL' "$logs/gaps-queues.log" | cut -c1-200
  for tool in memcheck racecheck synccheck; do
    (OMP_NUM_THREADS=1 DUET_BACKEND=cuda DUET_TEST_REDUCE_LAUNCHES=20 timeout 240 \
      compute-sanitizer --tool $tool --error-exitcode 9 tests/test_reduce_once \
      >"$logs/gaps-sanitizer-$tool.log" 2>&1
    echo "compute-sanitizer --tool $tool test_reduce_once: rc=$? $(grep -h -E 'ERROR SUMMARY|RACECHECK SUMMARY|^harness:' "$logs/gaps-sanitizer-$tool.log" | tr '\n' ' ')" \
      >"$logs/gaps-sanitizer-$tool.summary") &
  done
  wait
  cat "$logs"/gaps-sanitizer-*.summary
  unset DUET_OPENCL_PLATFORM
fi

# program: users' kernels (issue 20) on CUDA and NVIDIA's OpenCL: test_program as built, then on
# CUDA through the PTX path (DUET_TEST_NVRTC_PTX=1: compute_XY PTX the driver compiles, as for a
# device newer than NVRTC), then memcheck on CUDA, which must report 0 errors (parameters are
# counted from the CUBIN, so cuKernelGetParamInfo is never asked past the last), and VERBOSE notes
# that a second context's program was "reused from memory".
# kernelsrc: the GEMM kernels written once (kernels_cl/gemm_fast.cl, gemm_skinny.cl) as nvcc built
# them into libduet.so: each kernel's registers, stack and spills (cuobjdump -res-usage), and the
# SASS of every gemm_fast and gemm_skinny kernel of the device's architecture in
# $OUT/logs/kernelsrc-sass.txt, to diff against the same file of an earlier tarball (one fast
# kernel per transpose combination: its k loop should match the old kernel's body of that
# combination). The cold start of these kernels is the coldstart stage's.
# The fences of the ticket protocols on NVIDIA's OpenCL (docs/correctness.md, "The fence's scope"):
# test_streamk builds stream-K, the fused split-K and GEMV through NVIDIA's OpenCL into a fresh
# program cache; duet-sweep --dump writes each entry's binary out (PTX, or a CUBIN), whose fences
# are counted by kind: membar.gl / fence.sc.gpu in PTX, MEMBAR...GPU in SASS (device scope), and
# membar.cta / MEMBAR...CTA (the work-group's).
if has fence; then
  echo "=== fence"
  rm -rf /tmp/fence-cache /tmp/fence-bin && mkdir -p /tmp/fence-bin
  DUET_CACHE_DIR=/tmp/fence-cache DUET_OPENCL_WERROR=1 DUET_OPENCL_PLATFORM=NVIDIA DUET_BACKEND=opencl \
    DUET_TEST_STREAMK_REPEAT=${FENCE_REPEAT:-10} timeout ${CHECK_TIMEOUT:-480} tests/test_streamk >"$logs/fence.log" 2>&1
  echo "test_streamk on NVIDIA's OpenCL rc=$?"
  grep -E '^(FAIL|SKIP)|^harness' "$logs/fence.log" | cut -c1-160
  tools/duet-sweep --dump /tmp/fence-cache /tmp/fence-bin >/dev/null
  fences() { # the fence instructions of one dumped binary, by kind
    case $1 in
    *.cubin) /usr/local/cuda/bin/cuobjdump -sass "$1" 2>&1 | grep -o -E 'MEMBAR[.A-Z]*' ;;
    *) grep -o -E 'membar\.[a-z]+|fence\.[a-z.]+' "$1" ;;
    esac | sort | uniq -c | tr -s ' \n' ' '
  }
  for f in /tmp/fence-bin/*; do echo "$(basename "$f"): $(fences "$f")"; done | tee "$logs/fence-sass.txt"
  cp /tmp/fence-bin/*.ptx "$logs/" 2>/dev/null
fi

if has kernelsrc; then
  echo "=== kernelsrc"
  PATH=$PATH:/usr/local/cuda/bin
  arch=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
  cuobjdump -res-usage .libs/libduet.so 2>/dev/null |
    awk '/arch =/ { a = $0 } /Function/ { f = $0; next } f != "" && /REG:/ {
      if (f ~ /sgemm_fast|sgemm_skinny|splitk_reduce|sgemv/) print a " " f " " $0; f = "" }' |
    sed 's/  */ /g' | tee "$logs/kernelsrc-res-usage.txt"
  cuobjdump -sass -arch $arch .libs/libduet.so 2>/dev/null |
    awk '/Function :/ { keep = $0 ~ /sgemm_fast|sgemm_skinny|splitk_reduce|sgemv/ } keep' \
      >"$logs/kernelsrc-sass.txt"
  echo "kernelsrc-sass.txt: $(grep -c 'Function :' "$logs/kernelsrc-sass.txt") kernels, $(wc -l <"$logs/kernelsrc-sass.txt") lines"
fi

# ab: an earlier tarball (.carry/old/duet-old.tar.gz) built beside this one and the same rows
# timed on both in this call, so that a change is measured against its before on one machine
# (the ninth session's regressions were found so). AB_GEMM, AB_STENCIL and AB_REDUCE give the
# sizes. Set CUDA_ARCH="-gencode=arch=compute_90,code=sm_90" to build both in about a minute.
if has ab; then
  echo "=== ab: $(ls "$repo"/.carry/old/*.tar.gz 2>/dev/null) against this tarball"
  old=/tmp/duet-old
  build $old "$(echo "$repo"/.carry/old/*.tar.gz)" || { tail -20 "$logs/make-duet-old.log"; exit 1; }
  export DUET_OPENCL_PLATFORM=NVIDIA
  ab() { # ab TAG ARGS...: the same duet-bench rows, earlier tarball then this one
    local t b
    for t in old new; do
      echo "--- $1 $t"
      if [ $t = old ]; then b=$old/tools/duet-bench; else b=tools/duet-bench; fi
      $b "${@:2}" 2>"$logs/ab-$1-$t.err" | tee "$logs/ab-$1-$t.txt" | grep -E '^[0-9]'
    done
  }
  ab gemm gemm --backend all --variant fast,cublas --sizes ${AB_GEMM:-1024,4096,4097,1000,512}
  ab stencil stencil --backend all --variant register-r3,auto-r3,register-r16,auto-r16 \
    --sizes ${AB_STENCIL:-8192,16384}
  ab reduce reduce --backend all --variant shuffle,cub,clblast-sum --sizes ${AB_REDUCE:-8192,16384} \
    --reps 50
  unset DUET_OPENCL_PLATFORM
fi

if has onesource; then
  echo "=== onesource"
  export DUET_OPENCL_PLATFORM=NVIDIA
  # fast (big and small tile, split-K, stream-K, strips) and auto at the bench's gemm sizes, then
  # skinny (thin rows) and skinny-dot (thin columns) strips
  tools/duet-bench gemm --backend all --variant fast,auto --sizes 1024,2048,4096,8192,4095,4097 \
    2>"$logs/onesource-gemm.err" | tee "$logs/onesource-gemm.txt"
  tools/duet-bench gemm --backend all --variant fast,auto \
    --sizes 1x4096x4096,4x4096x4096,4096x1x4096,4096x4x4096,1x4097x4097,4097x4x4097 \
    2>"$logs/onesource-skinny.err" | tee "$logs/onesource-skinny.txt"
fi

# suite: the shapes of issue 22 on both backends in one process, so that each OpenCL line is set
# against the same inputs' cuBLAS on the same GPU; the bench picks each row's reps by its time
# (25 at most, 5 at least, fewer past half a second), and each run's calls (--batch auto: enough
# for 0.2 ms). SUITE_ARGS adds options (e.g. --reps 50, or --batch 1 for one call a run).
# docs/results/suite.gp draws a before and an after run's CSV files in one plot.
if has suite; then
  tag=${SUITE_TAG:-suite}
  echo "=== suite (issue 22): $tag"
  start=$(date +%s)
  DUET_OPENCL_PLATFORM=NVIDIA timeout ${SUITE_TIMEOUT:-480} tools/duet-bench gemm --suite \
    --backend all --save "$logs/$tag" ${SUITE_ARGS:-} 2>"$logs/$tag.err" | tee "$logs/$tag.txt"
  echo "suite rc=${PIPESTATUS[0]} in $(($(date +%s) - start)) s"
  grep -v '^duet-bench: wrote' "$logs/$tag.err" | head -20
fi

# gemv: a row (m = 1) or a column (n = 1) of C, the four transposes (a run each), sizes from 1024
# (launch-bound) to 16384 and deep k, AUTO (the GEMV plan) beside cuBLAS and CLBlast on both
# backends in one run;
# A's (or B's) read rate is 2 x the GFLOP/s column (4 bytes per multiply-add), to set beside
# duet_buf_copy's GB/s printed first (the device copy's: 2.9-3.0 TB/s on the H100, 4.1-4.2 on the
# H200). Then the plans, skinny's times (GEMM_FAST_GEMV=0, the before), and each DUET_TUNE spec of
# GEMV_SWEEP (';' separated) at GEMV_TUNE_SIZES: plan values (GEMV_SPLIT_PER_CU for sgemv-dot,
# GEMV_ALONG_PER_CU for sgemv, GEMV_SPLIT_MIN_K) on both
# backends, kernel values (GEMV_THREADS, GEMV_LX, GEMV_DOT_LANES, GEMV_UNROLL) on NVIDIA's OpenCL
# alone (CUDA's are compiled in). compute-sanitizer runs the GEMV kernels in the sanitize stage
# (test_manifest reaches both, in k slices too).
if has gemv; then
  echo "=== gemv (issue 22)"
  export DUET_OPENCL_PLATFORM=NVIDIA
  B=tools/duet-bench
  ops() { # ops nn|nt|tn|tt: duet-bench's flags for op(A), op(B)
    case $1 in nn) ;; nt) echo --tb ;; tn) echo --ta ;; tt) echo --ta --tb ;; esac
  }
  sizes=${GEMV_SIZES:-1x1024x1024,1024x1x1024,1x2048x2048,2048x1x2048,1x4096x4096,4096x1x4096,1x8192x8192,8192x1x8192,1x16384x16384,16384x1x16384,1x4097x4099,4099x1x4097,16x1x262144,1x16x262144,1x1x1048576}
  tsizes=${GEMV_TUNE_SIZES:-1x1024x1024,1024x1x1024,1x4096x4096,4096x1x4096,1x16384x16384,16384x1x16384}
  $B copy --backend all --variant buf_copy --sizes 4096,8192,16384 2>/dev/null | tee "$logs/gemv-copy.txt"
  # nn and tt reach both kernels on both sides: a row by sgemv (nn) and sgemv-dot (tt), a column
  # by sgemv-dot (nn) and sgemv (tt); nt and tn the same kernels with the other operand's layout
  for t in nn nt tn tt; do
    echo "--- gemv $t"
    $B gemm --backend all --variant auto,cublas,clblast --sizes "$sizes" $(ops $t) \
      2>"$logs/gemv-$t.err" | tee "$logs/gemv-$t.txt"
  done
  for shape in "1 4096 4096" "1 4096 4096 --tb" "4096 1 4096" "4096 1 4096 --ta" "1 1024 1024" \
    "16 1 262144" "1 16384 16384"; do
    set -- $shape
    $B plan --backend all -m $1 -n $2 -k $3 "${@:4}" 2>&1 | tee -a "$logs/gemv-plan.txt"
  done
  for t in nn tt; do
    echo "=== gemv $t: GEMM_FAST_GEMV=0 (skinny, as before GEMV)"
    DUET_TUNE=GEMM_FAST_GEMV=0 $B gemm --backend all --variant auto --sizes "$tsizes" $(ops $t) \
      2>/dev/null | tee "$logs/gemv-skinny-$t.txt"
  done
  IFS=';' read -ra specs <<<"${GEMV_SWEEP:-GEMV_SPLIT_PER_CU=1;GEMV_SPLIT_PER_CU=4;GEMV_SPLIT_PER_CU=16;GEMV_ALONG_PER_CU=2;GEMV_ALONG_PER_CU=8;GEMV_SPLIT_MIN_K=64;GEMV_SPLIT_MIN_K=512;GEMV_UNROLL=2;GEMV_UNROLL=8;GEMV_THREADS=128;GEMV_THREADS=512;GEMV_LX=64;GEMV_LX=128;GEMV_DOT_LANES=8;GEMV_DOT_LANES=16}"
  for spec in "${specs[@]}"; do
    tag=$(echo "$spec" | tr -c 'A-Za-z0-9=\n' '_' | sed 's/__*/_/g')
    backends=all
    case $spec in *GEMV_THREADS* | *GEMV_LX* | *GEMV_DOT_LANES* | *GEMV_UNROLL*) backends=opencl ;; esac
    for t in nn tt; do
      echo "=== gemv $t: DUET_TUNE=$spec ($backends)"
      DUET_TUNE=$spec $B gemm --backend $backends --variant auto --sizes "$tsizes" $(ops $t) \
        2>&1 | tee "$logs/gemv-tune-$tag-$t.txt"
    done
  done
  unset DUET_OPENCL_PLATFORM
fi

# shapes (issue 22): AUTO's plans for deep k, small squares, shallow k and the transposes, timed
# beside cuBLAS (CLBlast too on OpenCL), one process per spec: the device's own values first, then
# each DUET_TUNE spec of SHAPES_TUNE (';'-separated), plan tunables only, which CUDA takes too
# (src/duet_tunables.h says what each means; docs/results/tuning-notes.md why the defaults), at
# SHAPES_SIZES (nn; a single N is N^3). The first spec is about the plans before issue 22's rules
# (8 slices of at least 256, no tiny tile); the one with GEMM_FAST_SHALLOW_TINY_K=0 is the plans
# before the eleventh session's rules (docs/results/h200.md), and the last ones are its open
# leads (the tiny tile at k = 64 on OpenCL, the big tile from 20% of a wave, 512^3 in at most 2
# or 4 slices). Then the plans of the classes' examples (the suite stage times every class,
# transposes included, at the defaults).
if has shapes; then
  echo "=== shapes (issue 22)"
  export DUET_OPENCL_PLATFORM=NVIDIA
  sizes=${SHAPES_SIZES:-128x128x65536,128x128x16384,64x64x262144,512x512x65536,32,64,128,256,512,1000,1024,2048,8192x8192x64,4096x4096x64,4096x4096x16,4096x4096x1,1531x2039x1021,16384x128x1024,8x4096x4096,4096x16x4096}
  IFS=';' read -ra specs <<<"${SHAPES_TUNE-GEMM_SPLITK_MAX=8,GEMM_SPLITK_MIN_K=256,GEMM_FAST_TINY_PCT=1;GEMM_SPLITK_MIN_K=32;GEMM_SPLITK_MIN_K=128;GEMM_SPLITK_LAUNCH=3;GEMM_SPLITK_LAUNCH=16;GEMM_FAST_TINY_PCT=50;GEMM_FAST_TINY_PCT=120;GEMM_COST_LAT=250;GEMM_COST_LAT=1000;GEMM_FAST_SHALLOW_TINY_K=0,GEMM_FAST_SHALLOW_K=0,GEMM_FAST_BIG_PCT=75;GEMM_FAST_SHALLOW_TINY_K=64;GEMM_FAST_BIG_PCT=20;GEMM_SPLITK_MAX=2;GEMM_SPLITK_MAX=4}"
  for spec in "" "${specs[@]}"; do
    tag=$(echo "${spec:-defaults}" | tr -c 'A-Za-z0-9=\n' '_' | sed 's/__*/_/g')
    echo "=== shapes DUET_TUNE=${spec:-(none: the device set values)}"
    start=$(date +%s)
    DUET_TUNE=$spec timeout ${SHAPES_TIMEOUT:-60} tools/duet-bench gemm --backend ${SHAPES_BACKEND:-all} \
      --variant ${SHAPES_VARIANTS:-auto,cublas,clblast} --sizes $sizes 2>"$logs/shapes-$tag.err" |
      tee "$logs/shapes-$tag.txt"
    echo "($(($(date +%s) - start)) s)"
  done
  for shape in "128 128 65536" "64 64 262144" "256 256 256" "512 512 512" "1000 1000 1000 --ta --tb" \
    "1000 1000 1000" "4096 4096 4096 --tb" "8192 8192 64" "32 32 32"; do
    set -- $shape
    tools/duet-bench plan --backend cuda -m $1 -n $2 -k $3 "${@:4}" 2>&1 | tee -a "$logs/shapes-plan.txt"
  done
  unset DUET_OPENCL_PLATFORM
fi

if has program; then
  echo "=== test_program (issue 20)"
  DUET_CACHE_DIR=off tests/test_program >"$logs/program.log" 2>&1
  echo "test_program rc=$?"
  DUET_CACHE_DIR=off DUET_BACKEND=cuda DUET_TEST_NVRTC_PTX=1 tests/test_program >"$logs/program-ptx.log" 2>&1
  echo "test_program PTX rc=$?"
  DUET_CACHE_DIR=off DUET_BACKEND=cuda OMP_NUM_THREADS=1 compute-sanitizer --tool memcheck --error-exitcode 9 \
    tests/test_program >"$logs/program-memcheck.log" 2>&1
  echo "memcheck test_program rc=$?"
  DUET_CACHE_DIR=off DUET_BACKEND=cuda DUET_VERBOSE=1 tests/test_program >"$logs/program-verbose.log" 2>&1
  echo "reused from memory: $(grep -c 'cuda: duet_program_create: reused from memory' "$logs/program-verbose.log")"
  grep -h -E '^(FAIL|SKIP)|^harness|ERROR SUMMARY' "$logs"/program*.log | cut -c1-200
fi

# plan: what AUTO runs at issue 22's shapes (its table's examples, and 4095/4097), as the plan
# says on this device; then test_plan (host only) and test_manifest on each backend.
if has plan; then
  echo "=== plan (issue 21, item 3)"
  export DUET_OPENCL_PLATFORM=NVIDIA
  for shape in "1 4096 4096" "4096 1 4096" "128 128 65536" "256 256 256" "512 512 512" \
    "1000 1000 1000 --ta --tb" "8192 8192 64" "4096 4096 4096 --tb" "3072 3072 3072" \
    "6144 6144 6144" "2300 1530 999" "4096 4 4096" "4095 4095 4095" "4097 4097 4097"; do
    set -- $shape
    tools/duet-bench plan --backend all -m $1 -n $2 -k $3 "${@:4}" 2>&1 | tee -a "$logs/plan.txt"
  done
  tests/test_plan >"$logs/test_plan.log" 2>&1
  echo "test_plan rc=$?"
  for b in cuda opencl; do
    CUDA_CACHE_DISABLE=1 DUET_OPENCL_WERROR=1 DUET_BACKEND=$b timeout ${CHECK_TIMEOUT:-480} \
      tests/test_manifest >"$logs/manifest-$b.log" 2>&1
    echo "test_manifest $b rc=$?"
  done
  grep -h -E '^(FAIL|SKIP)|^harness' "$logs"/test_plan.log "$logs"/manifest-*.log | cut -c1-200
  unset DUET_OPENCL_PLATFORM
fi

if has sanitize; then
  wait
  echo "=== compute-sanitizer"
  cat "$logs"/sanitizer-*.summary | tee "$logs/sanitizer-summary.txt"
fi

if has bench; then
  echo "=== bench"
  B=tools/duet-bench
  $B list | tee "$logs/bench-list.txt"
  export DUET_OPENCL_PLATFORM=NVIDIA
  for r in ${BENCH_ROUTINES:-gemm transpose copy vadd reduce stencil}; do
    sizes=1024,4095,4096,4097,8192 variants=all
    [ $r = gemm ] && sizes=1024,2048,4096,8192,4095,4097
    # vadd, reduce, stencil: N x N floats as one array, 2^10 to 2^28 (the small-n end too)
    case $r in vadd | reduce | stencil) sizes=32,128,512,1024,4096,8192,16384 ;; esac
    [ $r = reduce ] && variants=naive,sequential,shuffle,atomic,auto,cub,clblast-sum
    [ $r = stencil ] && variants=naive-r3,shared-r3,register-r3,auto-r3,naive-r16,shared-r16,register-r16,auto-r16
    $B $r --backend all --variant $variants --sizes $sizes --plot "$logs/$r.png" 2>"$logs/bench-$r.err" |
      tee "$logs/bench-$r.txt"
  done
  # Small calls: host cost per call against the raw launch, and the 1024^2 transpose timed
  # one launch per event pair and 20 back-to-back.
  $B launch --backend all 2>&1 | tee "$logs/bench-launch.txt"
  for batch in 1 20; do
    $B transpose --backend all --variant padded,auto --sizes 1024 --batch $batch 2>/dev/null |
      tee "$logs/bench-transpose-1024-batch$batch.txt"
  done
  # Copies overlapped with kernels over a family's queues (pageable, pinned, pinned on three
  # queues, and the bound), and what the compiler made of each kernel (occupancy).
  for n in 4096 8192; do
    $B overlap --backend all -n $n --reps 7 2>&1 | tee "$logs/bench-overlap-$n.txt"
  done
  # kernels reads libduet's internals: a build of its own with --enable-bench-internals, so that
  # every other row times the bench as installed, on libduet.so.
  [ /tmp/duet-internals/tools/duet-bench -nt /tmp/duet.tar.gz ] ||
    build /tmp/duet-internals "$tarball" --enable-bench-internals --disable-static ||
    tail -30 "$logs"/make-duet-internals.log
  /tmp/duet-internals/tools/duet-bench kernels --backend all 2>&1 | tee "$logs/bench-kernels.txt"
  # A kernel of your own (duet_kernel.h), through NVRTC and NVIDIA's OpenCL: 2^26 floats scaled
  # in place, 512 MiB moved per launch.
  printf '%s\n' 'DUET_KERNEL void scale(DUET_GLOBAL float *x, float a, int n) {' \
    '  const size_t i = DUET_GLOBAL_IDX(0);' '  if (i < (size_t)n) x[i] = a * x[i];' '}' >/tmp/scale.cl
  $B kernel /tmp/scale.cl scale --backend all --grid 262144 --block 256 --arg buf:268435456 \
    --arg f32:2 --arg i32:67108864 --bytes 536870912 2>&1 | tee "$logs/bench-kernel-scale.txt"
fi

# Tuning without rebuilding: the device's own set first, then each DUET_TUNE spec of TUNE_SETS
# (separated by ';'), which only the OpenCL backend honours (its kernels compile at run time);
# each times TUNE_ROUTINE at TUNE_SIZES with TUNE_VARIANTS, in the same run.
if has tune; then
  routine=${TUNE_ROUTINE:-gemm} sizes=${TUNE_SIZES:-1024,2048,4096} variants=${TUNE_VARIANTS:-tiled}
  echo "=== tuning $routine: the device's set first, for the same-run comparison"
  tools/duet-bench $routine --backend all --variant $variants --sizes $sizes 2>/dev/null |
    tee "$logs/tune-$routine-default.txt"
  IFS=';' read -ra sets <<<"${TUNE_SETS:-GEMM_TILE=16;GEMM_TILE=8}"
  for spec in "${sets[@]}"; do
    tag=$(echo "$spec" | tr -c 'A-Za-z0-9=\n' '_' | sed 's/__*/_/g')
    echo "=== DUET_TUNE=$spec"
    DUET_TUNE=$spec tools/duet-bench $routine --backend opencl --variant $variants --sizes $sizes \
      2>/dev/null | tee "$logs/tune-$routine-$tag.txt"
  done
fi
# A fresh process's context and first fast 1024^3 sgemm with the program cache cold, warm and
# off, and a second context's (docs/results/cache.md); NVIDIA's own cache off, so that a cold
# build is a real one. Each cell is the median of COLDSTART_RUNS processes (-r). Then -k: the
# first call a kernel of one's own through duet_program_create, which on CUDA is NVRTC's (and
# the CUBIN duet's disk cache keeps), on both backends. DUET_VERBOSE=1 says where each program
# came from and how long it took.
# bodies: for each body count, a fresh process with an empty duet cache and the driver's cache off
# (DUET_VERBOSE: each kernel's build time, stored as a CUBIN), then one loading those CUBINs, then
# one with duet's cache off (the driver's build): fast at 1024 (small tile, split-K) to 4097 (big).
if has bodies; then
  echo "=== bodies: fast with one, two and four bodies, the driver's build and a CUBIN"
  export DUET_OPENCL_PLATFORM=NVIDIA
  for fb in 1 2 4; do
    d=/tmp/bodies-$fb && rm -rf $d && mkdir -p $d
    for run in cold cubin driver; do
      dir=$d
      [ $run = driver ] && dir=off
      echo "--- GEMM_FAST_BODIES=$fb, $run"
      CUDA_CACHE_DISABLE=1 DUET_CACHE_DIR=$dir DUET_VERBOSE=1 DUET_TUNE=GEMM_FAST_BODIES=$fb \
        tools/duet-bench gemm --backend opencl --variant fast --sizes 1024,2048,4096,4097 \
        2>"$logs/bodies-$fb-$run.err" | grep -E '^[0-9]'
      grep -h -o 'duet_sgemm_fast[a-z_]* of kernel group [a-z_]*: built from source in [0-9.]* s' \
        "$logs/bodies-$fb-$run.err" | sort -u
    done
  done 2>&1 | tee "$logs/bodies.txt"
  unset DUET_OPENCL_PLATFORM
fi

if has coldstart; then
  echo "=== coldstart"
  runs=${COLDSTART_RUNS:-3}
  for k in "" -k; do
    CUDA_CACHE_DISABLE=1 DUET_VERBOSE=1 DUET_OPENCL_PLATFORM=NVIDIA tools/duet-coldstart -b opencl \
      -n ${COLDSTART_N:-1024} -r $runs $k 2>"$logs/coldstart-opencl$k.err" | tee "$logs/coldstart-opencl$k.txt"
    CUDA_CACHE_DISABLE=1 DUET_VERBOSE=1 tools/duet-coldstart -b cuda -n ${COLDSTART_N:-1024} -r $runs $k \
      2>"$logs/coldstart-cuda$k.err" | tee "$logs/coldstart-cuda$k.txt"
  done
  for f in "$logs"/coldstart-*.err; do # where each program came from, and how long it took
    echo "--- $(basename "$f" .err): DUET_VERBOSE's notes, with the times of each"
    grep -E 'built from source|loaded from the disk cache|reused from memory' "$f" |
      sed -E 's/[0-9]+\.[0-9]+ s/@/g' | sort | uniq -c | cut -c1-200
    grep -o -E '(built from source|loaded from the disk cache) in [0-9.]+ s' "$f" | sort | uniq -c | head -12
  done
fi
# overlap: copies and kernels over a family's queues (issue 19 item 1), both backends: each way's
# median, both bounds (the slower direction alone; copies in and out at once), and the timeline
# of one run of each family layout from device events.
if has overlap; then
  echo "=== overlap"
  for n in ${OVERLAP_SIZES:-8192}; do
    DUET_OPENCL_PLATFORM=NVIDIA tools/duet-bench overlap --backend all -n $n --reps 7 2>&1 |
      tee "$logs/overlap-$n.txt"
  done
fi

# cache: test_cache alone on NVIDIA's OpenCL (issue 20: its two-process case failed inside make
# check there, its children seeing PoCL alone; they now start from tests/zygote.c, forked before
# OpenCL is loaded); a failing child's exit, time, device and output are in the log, and the
# lines "the environment gained/lost/changed" say what loading the drivers did to the process's
# environment. Then on PoCL, which CI covers, for the same build.
if has cache; then
  echo "=== test_cache on NVIDIA OpenCL"
  CUDA_CACHE_DISABLE=1 DUET_OPENCL_WERROR=1 DUET_OPENCL_PLATFORM=NVIDIA tests/test_cache \
    >"$logs/cache.log" 2>&1
  echo "test_cache rc=$?"
  grep -E -A12 '^FAIL' "$logs/cache.log" | cut -c1-240 | head -60
  grep -E '^test_cache: the environment|^PASS.*two processes|^harness' "$logs/cache.log"
  DUET_OPENCL_PLATFORM=Portable tests/test_cache >"$logs/cache-pocl.log" 2>&1
  echo "test_cache on PoCL rc=$?"
  grep -E '^FAIL|^harness' "$logs/cache-pocl.log"
fi

# sweep: variants of the stencil, vector add and reduction (tools/sweep_kernels.h) through
# duet_program_create, checked, then timed beside duet's routines and duet_buf_copy at 2^28
# floats on CUDA (NVRTC) and NVIDIA's OpenCL (issue 19 items 3 and 5). Their programs land in an
# empty disk cache; each binary is dumped (PTX on OpenCL, CUBIN on CUDA), OpenCL's PTX assembled
# for the device by ptxas, and every kernel's SASS summarised: registers, stack and spills, 128-
# and 32-bit global loads and stores, local-memory loads and stores, FFMAs. duet's own CUDA
# kernels (nvcc, in libduet) get the same summary.
if has sweep; then
  echo "=== sweep"
  PATH=$PATH:/usr/local/cuda/bin
  sw=/tmp/sweep && rm -rf $sw && mkdir -p $sw/cache $sw/bin
  DUET_CACHE_DIR=$sw/cache DUET_OPENCL_PLATFORM=NVIDIA timeout ${SWEEP_TIMEOUT:-300} \
    tools/duet-sweep ${SWEEP_ARGS:-} 2>&1 | tee "$logs/sweep.txt"
  tools/duet-sweep --dump $sw/cache $sw/bin >$sw/list.txt
  arch=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
  sass() { # sass CUBIN: one line per kernel
    cuobjdump -sass "$1" 2>/dev/null | awk '
      function out() { if (f != "") printf "    %-44s LDG128 %3d LDG32 %3d STG128 %3d STG32 %3d LDL %3d STL %3d FFMA %4d instr %5d\n", f, l4, l1, s4, s1, ll, sl, fm, n }
      /Function :/ { out(); f = $3; l4 = l1 = s4 = s1 = ll = sl = fm = n = 0; next }
      /\/\*[0-9a-f]+\*\// && !/NOP/ { n++ }
      /LDG\.E\.128/ { l4++ } /LDG\.E(\.CONSTANT)? / { l1++ } /STG\.E\.128/ { s4++ } /STG\.E / { s1++ }
      /LDL/ { ll++ } /STL/ { sl++ } /FFMA/ { fm++ }
      END { out() }'
  }
  ptxcount() { # ptxcount PTX: its global and local accesses, by width
    printf '    ptx: ld.global v4 %d, f32 %d; st.global v4 %d, f32 %d; ld/st.local %d; mul.wide/cvt 64 %d\n' \
      "$(grep -Ec 'ld\.global(\.nc)?\.v4\.f32' "$1")" "$(grep -Ec 'ld\.global(\.nc)?\.f32' "$1")" \
      "$(grep -Ec 'st\.global\.v4\.f32' "$1")" "$(grep -Ec 'st\.global\.f32' "$1")" \
      "$(grep -Ec '(ld|st)\.local' "$1")" "$(grep -Ec 'mul\.wide|cvt\.[su]64' "$1")"
  }
  echo "--- SASS of each program the sweep built (OpenCL: its PTX through ptxas -arch=$arch)"
  while IFS=$'\t' read -r f bytes opts; do
    case $f in
      *.ptx)
        echo "opencl $(basename "$f") $opts"
        ptxcount "$f"
        ptxas -arch=$arch -v "$f" -o "${f%.ptx}.sass.cubin" 2>&1 | grep -E 'registers|spill' | sed 's/^/    /'
        sass "${f%.ptx}.sass.cubin" ;;
      *.cubin)
        echo "cuda $(basename "$f") $opts"
        cuobjdump -res-usage "$f" 2>/dev/null | grep -E 'REG|STACK' | sed 's/^/    /'
        sass "$f" ;;
    esac
  done <$sw/list.txt | tee "$logs/sweep-sass.txt"
  echo "--- SASS of duet's own CUDA kernels (nvcc): stencil, vector add, reduction"
  sass .libs/libduet.so | grep -E 'stencil|vector|reduce' | tee -a "$logs/sweep-sass.txt"
  cp -r $sw/bin "$logs/sweep-bin"
  # The routines as duet-bench times them beside their peers, at 2^26 and 2^28 floats.
  export DUET_OPENCL_PLATFORM=NVIDIA
  tools/duet-bench vadd --backend all --sizes 8192,16384 2>/dev/null | tee "$logs/sweep-bench-vadd.txt"
  tools/duet-bench stencil --backend all --variant register-r3,auto-r3,register-r16,auto-r16 \
    --sizes 8192,16384 2>/dev/null | tee "$logs/sweep-bench-stencil.txt"
  tools/duet-bench reduce --backend all --variant shuffle,cub,clblast-sum --sizes 16384 --reps 30 \
    2>/dev/null | tee "$logs/sweep-bench-reduce.txt"
  unset DUET_OPENCL_PLATFORM
fi
if has vendor; then
  echo "=== vendor (ncu: cuBLAS and AUTO per shape)"
  PATH=$PATH:/usr/local/cuda/bin
  metrics=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__cluster_dim_x
  metrics=$metrics,launch__registers_per_thread,launch__shared_mem_per_block_dynamic
  metrics=$metrics,sm__throughput.avg.pct_of_peak_sustained_elapsed
  metrics=$metrics,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum
  for shape in $(echo "${VENDOR_SHAPES:-256x256x16384,512x512x32768,997x997x997,128x16384x1024}" | tr , ' '); do
    IFS=x read -r m n k <<<"$shape"
    for v in cublas auto; do
      # --warmup 1 --reps 2: the kernels of one warm-up and two timed calls (and the inputs' fill)
      timeout 120 ncu --clock-control none --metrics "$metrics" --launch-count 16 \
        tools/duet-bench gemm --backend cuda --variant $v -m "$m" -n "$n" -k "$k" --reps 2 \
        --warmup 1 --no-verify >"$logs/vendor-$v-$shape.txt" 2>&1
      echo "--- $v $shape (ncu rc=$?)"
      # a kernel's line: "  [void ]name<...>(args) (grid)x(block), Context ...": its name, whole
      awk '/^  [A-Za-z_].*\(/ { name = $0; sub(/^  (void )?/, "", name); sub(/\(.*/, "", name) }
        /gpu__time_duration|launch__grid_size|launch__cluster/ {
        print "    " name " " $1 " " $(NF - 1) " " $NF }' "$logs/vendor-$v-$shape.txt" | head -24
    done
  done
fi
cd "$OUT" && tar -czf logs.tar.gz logs && rm -rf logs
