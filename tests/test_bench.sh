#!/bin/sh
# SPDX-License-Identifier: MIT
# duet-bench's command line and output formats (table, CSV, JSON, plot files) on tiny sizes, the
# launch command's rows and numbers, the overlap and kernels commands, the kernel command (a
# kernel of the user's own), and that a wrong kernel result is reported as "verified: no",
# untimed, with exit status 1. The wrong result comes from a test-only hook
# (DUET_BENCH_TEST_WRONG_SIZE=1 makes duet-bench call the duet kernels one column, or for gemm one
# k, short), never from a broken kernel.
# Exits 77 (SKIP) when duet-bench lists no device at all.
set -u

bench=${DUET_BENCH:-./tools/duet-bench}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_bench.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
failed=0

pass() { echo "PASS: $1"; }
fail() {
  echo "FAIL: $1"
  failed=1
}
# expect DESCRIPTION COMMAND...: the command must succeed.
expect() {
  what=$1
  shift
  if "$@"; then pass "$what"; else fail "$what"; fi
}
# count_is DESCRIPTION WANT GOT
count_is() {
  if [ "$2" -eq "$3" ]; then pass "$1 ($3)"; else fail "$1: want $2, got $3"; fi
}
# run NAME ARGS...: runs duet-bench with stdout to $tmp/NAME.out, stderr to $tmp/NAME.err;
# leaves the exit status in $rc.
run() {
  name=$1
  shift
  "$bench" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
  rc=$?
}
show() {
  echo "--- $1 (exit $rc): stdout"
  cat "$tmp/$1.out"
  echo "--- stderr"
  cat "$tmp/$1.err"
}

# ---- list, and which device the rest runs on -----------------------------------------------
run list list
show list
[ "$rc" -eq 0 ] || { fail "duet-bench list exits 0"; exit 1; }
backend=
for b in opencl cuda; do
  if grep -Eq "^$b +[0-9]+ " "$tmp/list.out"; then
    backend=$b
    break
  fi
done
# A backend this build lacks is bad usage, exit 2, as a peer it lacks is.
for b in cuda opencl; do
  if ! grep -q "^backends compiled in:.* $b" "$tmp/list.out"; then
    run nobackend gemm --backend $b -n 4
    count_is "--backend $b, not built: exit status 2" 2 "$rc"
    expect "--backend $b, not built: says so" grep -q 'not built into this duet' "$tmp/nobackend.err"
  fi
done
if [ -z "$backend" ]; then
  echo "SKIP: duet-bench list shows no device (no GPU and no OpenCL platform here)"
  exit 77
fi
pass "list shows a $backend device"
# Where PoCL is installed (and not filtered out), list must show its device by name.
if [ -z "${DUET_OPENCL_PLATFORM:-}" ] && command -v clinfo >/dev/null 2>&1; then
  pocl=$(clinfo -l 2>/dev/null | awk '/^Platform/ { p = /Portable Computing Language/; next }
    p && /Device #/ { sub(/.*Device #[0-9]+: */, ""); print; exit }')
  if [ -n "$pocl" ]; then
    expect "list shows the PoCL device '$pocl'" grep -Fq -- "$pocl" "$tmp/list.out"
  fi
fi
sel="--backend $backend --device 0"

# ---- CSV ---------------------------------------------------------------------------------------
header='routine,m,n,k,backend,device,device_name,variant,median_ms,min_ms,max_ms,reps,warmup,sets,rate,rate_unit,vs_ref,reference,verified,verify_mode,rel_error,tolerance,total_median_ms,total_min_ms,total_max_ms,note,op,lda,ldb,ldc,batch,warmup_ms'
# shellcheck disable=SC2086
run csv transpose $sel --sizes 16,33 --reps 2 --warmup 1 --variant naive,padded --csv
[ "$rc" -eq 0 ] || show csv
count_is "transpose --csv exits 0" 0 "$rc"
expect "CSV header" test "$(head -n 1 "$tmp/csv.out")" = "$header"
count_is "CSV lines: header + naive, padded, buf_copy (ref) for 2 sizes" 7 "$(wc -l <"$tmp/csv.out")"
count_is "CSV transpose rows verified exactly" 6 "$(grep -c ',yes,exact,' "$tmp/csv.out")"
count_is "CSV rows of size 33x33" 3 "$(grep -c '^transpose,33,33,,' "$tmp/csv.out")"
expect "no progress on a redirected stderr" test ! -s "$tmp/csv.err"

# --plot to a path that cannot be written is bad usage, said before the run: no table.
# shellcheck disable=SC2086
run badplot transpose $sel --sizes 16 --reps 2 --plot "$tmp/no-such-dir/x.png"
count_is "--plot into a missing folder exits 2" 2 "$rc"
count_is "... before any row is printed" 0 "$(grep -c '^16x16' "$tmp/badplot.out")"

# A peer this build lacks is bad usage, not an empty table.
for peer in cublas clblast; do
  case $peer in cublas) have=cuBLAS routine=gemm ;; clblast) have=CLBlast routine=transpose ;; esac
  grep -q "peers compiled in:.*$have" "$tmp/list.out" && continue
  # shellcheck disable=SC2086
  run nopeer $routine $sel --sizes 16 --reps 2 --variant $peer
  count_is "--variant $peer without $have exits 2" 2 "$rc"
done

# Peers are opened at run time. Asked for by name, one whose library cannot be opened is bad
# usage, naming the file and dlerror(); included by default, it is left out, said once.
for peer in cublas clblast; do
  case $peer in
    cublas) have=cuBLAS routine=gemm var=DUET_BENCH_CUBLAS_LIBRARY peer_backend=cuda ;;
    clblast) have=CLBlast routine=transpose var=DUET_BENCH_CLBLAST_LIBRARY peer_backend=opencl ;;
  esac
  grep -q "peers compiled in:.*$have" "$tmp/list.out" || continue
  missing=/nonexistent/lib$peer.so
  # shellcheck disable=SC2086
  env "$var=$missing" "$bench" $routine $sel --sizes 16 --reps 2 --variant $peer \
    >"$tmp/nolib.out" 2>"$tmp/nolib.err"
  rc=$?
  count_is "--variant $peer with $var=$missing exits 2" 2 "$rc"
  expect "... naming the file and why it did not open" \
    grep -q "^duet-bench: --variant '$peer': cannot open $missing.*: $missing: " "$tmp/nolib.err"
  [ "$peer_backend" = "$backend" ] || continue
  # shellcheck disable=SC2086
  env "$var=$missing" "$bench" $routine $sel --sizes 16,17 --reps 2 --warmup 0 --csv \
    >"$tmp/nolib.out" 2>"$tmp/nolib.err"
  rc=$?
  count_is "$routine with $have missing, by default: exits 0" 0 "$rc"
  count_is "... says once that $have is left out" 1 "$(grep -c "$have is left out: .*$missing" "$tmp/nolib.err")"
  count_is "... and runs no $peer row" 0 "$(grep -c ",$peer," "$tmp/nolib.out")"
done

# Without an OpenCL loader, duet-bench still starts: OpenCL just has no device.
if grep -q '^backends compiled in:.* opencl' "$tmp/list.out"; then
  DUET_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1 "$bench" list >"$tmp/nocl.out" 2>"$tmp/nocl.err"
  rc=$?
  count_is "list without an OpenCL loader exits 0" 0 "$rc"
  expect "... and shows OpenCL without a device" grep -Eq '^opencl +\(no device\)' "$tmp/nocl.out"
fi

# --batch: N launches per timed run, divided by N; the table says so.
# shellcheck disable=SC2086
run batch transpose $sel --sizes 16 --reps 2 --warmup 1 --variant padded --batch 3
count_is "transpose --batch 3 exits 0" 0 "$rc"
expect "the table names the batch" grep -q "3 back-to-back launches" "$tmp/batch.out"
# The rotation of inputs reads the device's cache size, and the device line shows it.
expect "the device line shows its cache" grep -Eq 'compute units, [0-9]+ MiB cache' "$tmp/batch.out"
# shellcheck disable=SC2086
run badbatch transpose $sel --sizes 16 --batch 0
count_is "--batch 0 is bad usage" 2 "$rc"
# --batch auto: per row, enough launches for a run of 0.2 ms by the warm-up's estimate a launch
# (at most 100); the CSV's batch column says how many and warmup_ms holds the estimate, so the
# rule is checked exactly (give or take one for warmup_ms's six printed digits), not against the
# timed median, which a loaded machine can move far from the warm-up's.
# shellcheck disable=SC2086
run batchauto gemm $sel --sizes 16 --reps 3 --warmup 3 --variant tiled --batch auto --csv
count_is "gemm --batch auto exits 0" 0 "$rc"
expect "--batch auto's batch column: ceil(0.2 ms / warmup_ms), at most 100" awk -F, '
  function ceil(x) { return x == int(x) ? x : int(x) + 1 }
  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  $col["variant"] == "tiled" { n++; b = $col["batch"]; w = $col["warmup_ms"]
    want = w > 0 ? ceil(0.2 / w) : 0; if (want > 100) want = 100
    if (!(w > 0 && b >= 1 && b - want <= 1 && want - b <= 1)) bad = 1 }
  END { exit !(n == 1 && !bad) }' "$tmp/batchauto.out"
run batchfixed gemm $sel --sizes 16 --reps 2 --warmup 2 --variant tiled --batch 3 --csv
expect "--batch 3's rows: batch 3, warmup_ms the warm-up's estimate" awk -F, '
  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  $col["variant"] == "tiled" { n++; if (!($col["batch"] == 3 && $col["warmup_ms"] > 0)) bad = 1 }
  END { exit !(n == 1 && !bad) }' "$tmp/batchfixed.out"
run batchnowarm gemm $sel --sizes 16 --reps 2 --warmup 0 --variant tiled --batch auto --csv
expect "--batch auto with --warmup 0: no estimate (warmup_ms empty), batch 1" awk -F, '
  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  $col["variant"] == "tiled" { n++; if (!($col["batch"] == 1 && $col["warmup_ms"] == "")) bad = 1 }
  END { exit !(n == 1 && !bad) }' "$tmp/batchnowarm.out"
# shellcheck disable=SC2086
run batchauto_table gemm $sel --sizes 16 --reps 2 --warmup 1 --variant tiled --batch auto
expect "the table names --batch auto" grep -q "back-to-back launches to last 0.2 ms, at most 100" \
  "$tmp/batchauto_table.out"

# shellcheck disable=SC2086
run gemm gemm $sel -m 8 -n 12 -k 5 --reps 2 --warmup 1 --variant naive,coalesced,tiled --csv --total
[ "$rc" -eq 0 ] || show gemm
count_is "gemm -m -n -k --total exits 0" 0 "$rc"
count_is "gemm rows naive, coalesced, tiled at 8x12x5" 3 \
  "$(grep -Ec '^gemm,8,12,5,.*,(naive|coalesced|tiled),[0-9]' "$tmp/gemm.out")"
count_is "gemm rows fully verified" "$(($(wc -l <"$tmp/gemm.out") - 1))" \
  "$(grep -c ',yes,full,' "$tmp/gemm.out")"
count_is "gemm rows with a total time" 0 "$(grep -c ',,,,[^,]*,nn,5,12,12,1,[^,]*$' "$tmp/gemm.out")"
count_is "gemm rows name op nn and the packed leading dimensions, batch 1" 3 "$(grep -c ',nn,5,12,12,1,[^,]*$' "$tmp/gemm.out")"
# Transposed operands and leading dimensions beyond the matrix: every row verified, C's padding
# checked, the layout in the CSV.
# shellcheck disable=SC2086
run gemm_ld gemm $sel -m 9 -n 12 -k 7 --ta --tb --lda 16 --ldb 8 --ldc 20 --reps 1 --warmup 0 --variant all,auto --csv
[ "$rc" -eq 0 ] || show gemm_ld
count_is "gemm --ta --tb --lda --ldb --ldc exits 0" 0 "$rc"
count_is "... every row verified in full, with op tt and the leading dimensions" \
  "$(($(wc -l <"$tmp/gemm_ld.out") - 1))" "$(grep -c '^gemm,9,12,7,.*,yes,full,.*,tt,16,8,20,1,[^,]*$' "$tmp/gemm_ld.out")"

# ---- JSON --------------------------------------------------------------------------------------
# shellcheck disable=SC2086
run json all $sel --sizes 16 --reps 2 --warmup 1 --json
[ "$rc" -eq 0 ] || show json
count_is "all --json exits 0" 0 "$rc"
if command -v python3 >/dev/null 2>&1; then
  expect "JSON parses (python3 -m json.tool)" python3 -m json.tool "$tmp/json.out" /dev/null
else
  expect "JSON has a results array" grep -q '"results": \[' "$tmp/json.out"
fi
expect "JSON has gemm, transpose and copy rows" sh -c "grep -q '\"routine\": \"gemm\"' '$tmp/json.out' &&
  grep -q '\"routine\": \"transpose\"' '$tmp/json.out' && grep -q '\"routine\": \"copy\"' '$tmp/json.out'"
# The axpy peers add into vadd's input in place: they are the one kind of row not checked.
expect "JSON rows are all verified, but the axpy peers" \
  test "$(grep -c '"verified": "yes"' "$tmp/json.out")" -eq \
  "$(($(grep -c '"variant": ' "$tmp/json.out") - $(grep -c '"variant": "[a-z]*-saxpy"' "$tmp/json.out")))"

# ---- table, --no-verify, --plot ------------------------------------------------------------------
# shellcheck disable=SC2086
run table copy $sel -n 24 --reps 2 --warmup 0 --no-verify --plot "$tmp/p.png"
[ "$rc" -eq 0 ] || show table
count_is "copy --no-verify --plot exits 0" 0 "$rc"
expect "table says verification was skipped" grep -q 'VERIFICATION SKIPPED' "$tmp/table.out"
expect "table has the copy and buf_copy rows" sh -c \
  "grep -Eq '^24x24 +$backend:0 +copy ' '$tmp/table.out' && grep -Eq '^24x24 +$backend:0 +buf_copy \\(ref\\) ' '$tmp/table.out'"
expect "--plot wrote the .dat and .gp files" test -s "$tmp/p.dat" -a -s "$tmp/p.gp"
if command -v gnuplot >/dev/null 2>&1; then
  expect "--plot rendered the PNG with gnuplot" test -s "$tmp/p.png"
  # One size is one x value: gnuplot must not warn of an empty range, neither under duet-bench
  # nor when the saved script is redrawn.
  count_is "--plot of one size: nothing on stderr but duet-bench's own line" 0 \
    "$(grep -vc '^duet-bench: wrote ' "$tmp/table.err")"
  (cd "$tmp" && gnuplot p.gp) 2>"$tmp/gnuplot.err"
  expect "gnuplot p.gp prints nothing on stderr" test ! -s "$tmp/gnuplot.err"
  [ -s "$tmp/gnuplot.err" ] && cat "$tmp/gnuplot.err"
else
  echo "SKIP: gnuplot is not installed: the rendered plot is not checked"
fi

# ---- vadd, reduce, stencil: every variant and peer checked, a wrong result caught ------------
# 40 x 40 = 1600 floats: not a multiple of a block, so every edge path runs.
for r in vadd reduce stencil; do
  # shellcheck disable=SC2086
  run vec_$r $r $sel --sizes 40 --reps 2 --warmup 1 --csv
  [ "$rc" -eq 0 ] || show vec_$r
  count_is "$r --csv exits 0" 0 "$rc"
  count_is "$r: no row says verified no or error" 0 "$(grep -Ec ',(no|error),' "$tmp/vec_$r.out")"
  expect "$r: buf_copy is the reference, and a duet row verified yes" sh -c \
    "grep -q '^$r,.*,buf_copy (ref),.*,yes,' '$tmp/vec_$r.out' &&
     grep -Eq '^$r,40,40,,.*,(vadd|shuffle|register-r16),.*,buf_copy \\(ref\\),yes,' '$tmp/vec_$r.out'"
done
count_is "stencil: 6 duet rows at radius 3 and 16, and buf_copy" 7 \
  "$(grep -c '^stencil,' "$tmp/vec_stencil.out")"
DUET_BENCH_TEST_WRONG_SIZE=1
export DUET_BENCH_TEST_WRONG_SIZE
for r in vadd reduce stencil; do
  # shellcheck disable=SC2086
  run vec_wrong_$r $r $sel --sizes 40 --reps 2 --warmup 0 --variant all --csv
  count_is "$r with a wrong result: exit status 1" 1 "$rc"
  expect "$r with a wrong result: a duet row says verified no" \
    grep -Eq '^'$r',.*,no,' "$tmp/vec_wrong_$r.out"
done
unset DUET_BENCH_TEST_WRONG_SIZE

# ---- --variant all and auto: all leaves auto out and the table says so; all,auto adds it -----
# shellcheck disable=SC2086
run autonote transpose $sel --sizes 16 --reps 1 --warmup 0
expect "the table says that all leaves out auto" grep -q '^auto is left out of all' "$tmp/autonote.out"
count_is "no auto row by default" 0 "$(grep -Ec '^16x16 +[a-z]+:0 +auto ' "$tmp/autonote.out")"
# shellcheck disable=SC2086
run allauto transpose $sel --sizes 16 --reps 1 --warmup 0 --variant all,auto
count_is "--variant all,auto exits 0" 0 "$rc"
count_is "--variant all,auto has the auto row" 1 "$(grep -Ec '^16x16 +[a-z]+:0 +auto ' "$tmp/allauto.out")"
count_is "--variant all,auto has the default's rows and auto" \
  "$(($(grep -Ec '^16x16 +[a-z]+:0 ' "$tmp/autonote.out") + 1))" \
  "$(grep -Ec '^16x16 +[a-z]+:0 ' "$tmp/allauto.out")"
expect "--variant all,auto: no note" sh -c "! grep -q 'auto is left out' '$tmp/allauto.out'"

# ---- progress: forced on for a redirected stderr, one line per update ---------------------------
# transpose at 2 sizes with naive, padded and the buf_copy reference: 6 rows.
DUET_BENCH_PROGRESS=1
export DUET_BENCH_PROGRESS
# shellcheck disable=SC2086
run progress transpose $sel --sizes 16,33 --reps 2 --warmup 0 --variant naive,padded --csv
unset DUET_BENCH_PROGRESS
count_is "DUET_BENCH_PROGRESS=1 run exits 0" 0 "$rc"
expect "progress starts at row 1 of 6, before any estimate" \
  grep -q '^\[row 1 of 6, estimating time left\] transpose 16x16' "$tmp/progress.err"
expect "progress reaches row 6 of 6 with an estimate of the time left" \
  grep -Eq '^\[row 6 of 6, ~[0-9]+s left\] transpose 33x33 .*buf_copy' "$tmp/progress.err"
count_is "every progress line has the row count" 0 "$(grep -vc '^\[row [1-6] of 6, ' "$tmp/progress.err")"
count_is "no escape codes when stderr is not a terminal" 0 "$(tr -cd '\033\r' <"$tmp/progress.err" | wc -c)"
expect "progress leaves stdout alone" test "$(wc -l <"$tmp/progress.out")" -eq 7

# ---- launch: the host cost per call, against raw launches on the same queue -------------------
# Few calls per round: the test checks the rows and their numbers, not the speed. The baseline
# (raw = 1) and the same kernel through duet_launch both name bench_raw_copy; the three duet
# calls follow.
# shellcheck disable=SC2086
run launch launch $sel --reps 20 --warmup 5 --csv
[ "$rc" -eq 0 ] || show launch
count_is "launch --csv exits 0" 0 "$rc"
expect "launch CSV header" test "$(head -n 1 "$tmp/launch.out")" = \
  'backend,device,device_name,call,raw,kernel,m,n,k,calls,rounds,warmup,host_us,host_min_us,host_max_us,host_finish_us,device_us,above_raw_us,backlog,verified,note'
raw_call=clEnqueueNDRangeKernel
[ "$backend" = cuda ] && raw_call=cudaLaunchKernel
timed_row=',1,1,[1]*,20,[0-9]*,5,.*,yes,$'
count_is "launch has one verified, timed baseline row" 1 \
  "$(grep -c "^$backend,0,.*,$raw_call,1,bench_raw_copy$timed_row" "$tmp/launch.out")"
for call in duet_launch duet_copy "duet_transpose auto" "duet_sgemm auto"; do
  count_is "launch has one verified, timed row for $call" 1 \
    "$(grep -c "^$backend,0,.*,$call,0,[a-z_]*$timed_row" "$tmp/launch.out")"
done
count_is "launch: duet_launch runs the baseline's kernel" 1 \
  "$(grep -c "^$backend,0,.*,duet_launch,0,bench_raw_copy," "$tmp/launch.out")"
# host_us, its min and max, host_finish_us and device_us: positive numbers on every row;
# above_raw_us: a number (it may be negative) on every row but the baseline.
# shellcheck disable=SC2016
expect "launch times parse as positive numbers" awk -F, 'NR > 1 {
    for (i = 13; i <= 17; i++) if ($i !~ /^[0-9.e+-]+$/ || $i + 0 <= 0) exit 1
    if (($5 == 1) != ($18 == "") || ($18 != "" && $18 !~ /^-?[0-9.e+-]+$/)) exit 1
    n++ } END { exit n != 5 }' "$tmp/launch.out"
# shellcheck disable=SC2086
run launch_table launch $sel -n 4 --reps 10 --warmup 0
[ "$rc" -eq 0 ] || show launch_table
count_is "launch -n 4 (table) exits 0" 0 "$rc"
count_is "launch table: 5 rows on $backend:0, all verified" 5 \
  "$(grep -Ec "^$backend:0 +($raw_call bench_raw_copy|duet_launch bench_raw_copy|duet_copy|duet_transpose auto|duet_sgemm auto) +[0-9.]+ +[0-9.]+ +[0-9.]+ +(-|-?[0-9.]+) +yes" \
    "$tmp/launch_table.out")"
expect "launch table names the shape" grep -q '4x4 matrices (sgemm 4x4x4)' "$tmp/launch_table.out"
# shellcheck disable=SC2086
run launch_json launch $sel --reps 5 --warmup 1 --json
count_is "launch --json exits 0" 0 "$rc"
if command -v python3 >/dev/null 2>&1; then
  expect "launch JSON parses" python3 -m json.tool "$tmp/launch_json.out" /dev/null
fi
count_is "launch JSON has 5 verified rows" 5 "$(grep -c '"verified": "yes"' "$tmp/launch_json.out")"
count_is "launch JSON has 4 rows above the raw launch" 4 \
  "$(grep -c '"above_raw_us": -\{0,1\}[0-9]' "$tmp/launch_json.out")"
DUET_BENCH_TEST_WRONG_SIZE=1
export DUET_BENCH_TEST_WRONG_SIZE
# shellcheck disable=SC2086
run launch_wrong launch $sel --reps 5 --warmup 1 --csv
unset DUET_BENCH_TEST_WRONG_SIZE
count_is "launch with a wrong result: exit status 1" 1 "$rc"
count_is "launch: the three duet calls say verified no, untimed" 3 \
  "$(grep -c ',0,,1,1,1*,,,,,,,,,,,no,' "$tmp/launch_wrong.out")"
count_is "launch: the baseline and duet_launch are still verified and timed" 2 \
  "$(grep -c ",bench_raw_copy,.*,[0-9.e+-]*,[01],yes,$" "$tmp/launch_wrong.out")"

# ---- overlap: copies and kernels over the queues of a family -------------------------------------
# shellcheck disable=SC2086
run overlap overlap $sel -n 64 --reps 2 --warmup 1
[ "$rc" -eq 0 ] || show overlap
count_is "overlap -n 64 exits 0" 0 "$rc"
count_is "overlap: the four whole ways are verified and timed" 4 \
  "$(grep -Ec '^ +(pageable, one queue|pinned, one queue|pinned, chunks dealt to queues|pinned, a queue per stage) +[0-9.]+ .* yes ' \
    "$tmp/overlap.out")"
count_is "overlap: each stage alone, and copies in and out at once, timed" 4 \
  "$(grep -Ec '^ +(copies in alone \(pinned\)|kernels alone|copies out alone \(pinned\)|copies in and out at once) +[0-9.]+ ' \
    "$tmp/overlap.out")"
expect "overlap: both bounds" sh -c \
  "grep -Eq '^ +bound: max\(in, kernels, out\) +[0-9.]+$' '$tmp/overlap.out' &&
   grep -Eq '^ +link: max\(in & out, kernels\) +[0-9.]+$' '$tmp/overlap.out'"
count_is "overlap: each family way's share of both bounds" 2 \
  "$(grep -Ec '[0-9.]+ of the bound, [0-9.]+ of the link' "$tmp/overlap.out")"
count_is "overlap: three timelines" 3 "$(grep -c '^ *timeline of one run of ' "$tmp/overlap.out")"
count_is "overlap: every timeline row (2 + 3 + 3) has a time for each of the 16 chunks" 8 \
  "$(grep -Ec '^ +(in|kernel|out)( +-?[0-9]+\.[0-9]{2}){16}$' "$tmp/overlap.out")"
count_is "overlap: no timeline failed" 0 "$(grep -c 'cannot time it' "$tmp/overlap.out")"
# chunks dealt to 5 queues: every whole way still verified; 2 queues is refused
DUET_BENCH_OVERLAP_QUEUES=5
export DUET_BENCH_OVERLAP_QUEUES
# shellcheck disable=SC2086
run overlap_q5 overlap $sel -n 64 --reps 1 --warmup 0
[ "$rc" -eq 0 ] || show overlap_q5
count_is "overlap on 5 queues: exit status 0" 0 "$rc"
count_is "overlap on 5 queues: said" 1 "$(grep -c ' floats (.*), 5 queues$' "$tmp/overlap_q5.out")"
count_is "overlap on 5 queues: the four whole ways are verified" 4 \
  "$(grep -Ec ' [0-9.]+ .* yes ' "$tmp/overlap_q5.out")"
DUET_BENCH_OVERLAP_QUEUES=2
# shellcheck disable=SC2086
run overlap_q2 overlap $sel -n 64 --reps 1 --warmup 0
unset DUET_BENCH_OVERLAP_QUEUES
count_is "overlap with DUET_BENCH_OVERLAP_QUEUES=2: exit status 1" 1 "$rc"
count_is "overlap with DUET_BENCH_OVERLAP_QUEUES=2: says the range" 1 \
  "$(grep -c "DUET_BENCH_OVERLAP_QUEUES='2': give 3 to 8" "$tmp/overlap_q2.out")"
DUET_BENCH_TEST_WRONG_SIZE=1
export DUET_BENCH_TEST_WRONG_SIZE
# shellcheck disable=SC2086
run overlap_wrong overlap $sel -n 64 --reps 2 --warmup 0
unset DUET_BENCH_TEST_WRONG_SIZE
count_is "overlap with a wrong result: exit status 1" 1 "$rc"
count_is "overlap: the four whole ways say verified no, untimed" 4 "$(grep -Ec ' +- +no ' "$tmp/overlap_wrong.out")"

# ---- kernels: what the compiler made of each kernel ----------------------------------------------
# Built with --enable-bench-internals only (DUET_BENCH_INTERNALS=1 from tests/bench.mk); without
# it the command is refused as bad usage, saying what would build it.
# shellcheck disable=SC2086
run kernels kernels $sel
if [ "${DUET_BENCH_INTERNALS:-0}" = 1 ]; then
  [ "$rc" -eq 0 ] || show kernels
  count_is "kernels exits 0" 0 "$rc"
  count_is "kernels: no kernel failed to load" 0 "$(grep -c 'not loaded' "$tmp/kernels.out")"
  expect "kernels: duet_copy and fast's kernel with their blocks" sh -c \
    "grep -Eq '^duet_copy +copy +[0-9]+x[0-9]+ ' '$tmp/kernels.out' &&
     grep -Eq '^duet_sgemm_fast_nn +gemm_fast +[0-9]+x[0-9]+ ' '$tmp/kernels.out'"
else
  count_is "kernels without --enable-bench-internals: exit status 2" 2 "$rc"
  expect "kernels says how to build it" grep -q 'configure --enable-bench-internals' "$tmp/kernels.err"
fi

# ---- bad usage: a message on stderr and exit 2 --------------------------------------------------
bad_usage() {
  run bad "$@"
  if [ "$rc" -eq 2 ] && grep -q '^duet-bench: ' "$tmp/bad.err"; then
    pass "rejects: $*"
  else
    show bad
    fail "rejects with exit 2 and a message: $*"
  fi
}
bad_usage --bogus
bad_usage gemm --reps 0
bad_usage gemm --reps
bad_usage gemm --warmup -1
bad_usage gemm --sizes 0
bad_usage gemm --sizes 12,,3
bad_usage gemm --sizes 8x
bad_usage gemm -n 8 --sizes 8
bad_usage gemm --backend metal
bad_usage gemm --device first
bad_usage gemm --variant padded
bad_usage transpose --variant tiled
bad_usage frobnicate
bad_usage gemm transpose
bad_usage gemm --csv --json
bad_usage launch --variant copy
bad_usage launch --sizes 1,2
bad_usage launch --total
bad_usage launch --reps 0
bad_usage overlap --variant copy
bad_usage overlap -m 4 -n 5
bad_usage overlap --csv
bad_usage kernels -n 4
# Sizes beyond the host's memory are refused before anything is allocated (not left to the
# out-of-memory killer): 200000^2 floats are 160 GB a matrix.
# shellcheck disable=SC2086
for cmd in "gemm $sel -n 200000" "transpose $sel -n 200000" "launch $sel -n 200000"; do
  # shellcheck disable=SC2086
  run huge $cmd
  count_is "$cmd: refused, exit status 2" 2 "$rc"
  expect "$cmd: says what it needs and what there is" \
    grep -q 'needs [0-9.]* [KMGTP]*i*B of host memory, which has .*refused before allocating' \
    "$tmp/huge.err"
done
run version --version
expect "--version exits 0 and prints the package version" \
  test "$rc $(cat "$tmp/version.out")" = "0 duet-bench (duet) ${PACKAGE_VERSION:-unknown}"
run help --help
expect "--help exits 0 with usage" sh -c "[ $rc -eq 0 ] && grep -q '^Usage: duet-bench' '$tmp/help.out'"
expect "--help documents launch" grep -q '^  launch  ' "$tmp/help.out"
expect "--help documents kernel" grep -q '^  kernel FILE NAME  ' "$tmp/help.out"
expect "--help documents overlap and kernels" sh -c \
  "grep -q '^  overlap  ' '$tmp/help.out' && grep -q '^  kernels  ' '$tmp/help.out'"

# ---- kernel: a kernel of your own, timed as the routines are -------------------------------------
cat >"$tmp/scale.cl" <<'EOF'
DUET_KERNEL void scale(DUET_GLOBAL float *x, float a, int n) {
  const size_t i = DUET_GLOBAL_IDX(0);
  if (i < (size_t)n) x[i] = a * x[i] + OFFSET;
}
EOF
kernel_args="--grid 4 --block 64 --arg buf:1024 --arg f32:2 --arg i32:256 --options -DOFFSET=1"
# shellcheck disable=SC2086
run kernel kernel "$tmp/scale.cl" scale $sel $kernel_args --bytes 2048 --reps 3 --warmup 1 --csv
[ "$rc" -eq 0 ] || show kernel
count_is "kernel --csv exits 0" 0 "$rc"
expect "kernel CSV header" test "$(head -n 1 "$tmp/kernel.out")" = \
  "backend,device,device_name,file,kernel,grid,block,shared_bytes,median_ms,min_ms,max_ms,reps,warmup,batch,rate,rate_unit,verified,note"
count_is "kernel has one timed row, not claimed verified" 1 \
  "$(grep -c "^$backend,0,.*,scale,4x1x1,64x1x1,0,[0-9][^,]*,[0-9][^,]*,[0-9][^,]*,3,2,1,[0-9][^,]*,GB/s,skipped," "$tmp/kernel.out")"
# shellcheck disable=SC2086
run kernel_json kernel "$tmp/scale.cl" scale $sel $kernel_args --reps 2 --warmup 0 --json
expect "kernel --json names the command and the kernel, rate null without --bytes" sh -c \
  "[ $rc -eq 0 ] && grep -q '\"command\": \"kernel\"' '$tmp/kernel_json.out' &&
   grep -q '\"kernel\": \"scale\".*\"rate\": null' '$tmp/kernel_json.out'"
# shellcheck disable=SC2086
bad_usage kernel "$tmp/scale.cl" scale $sel $kernel_args --batch auto
# shellcheck disable=SC2086
run kernel_table kernel "$tmp/scale.cl" scale $sel $kernel_args --reps 2 --batch 2
expect "kernel table row says skipped, with the reason" sh -c \
  "[ $rc -eq 0 ] && grep -Eq '^$backend:0 +scale +[0-9].*skipped: a kernel of your own' '$tmp/kernel_table.out'"
# A launch duet refuses, and a source that does not build: the row says error, exit 1.
# shellcheck disable=SC2086
run kernel_args kernel "$tmp/scale.cl" scale $sel --grid 4 --block 64 --arg buf:1024 --options -DOFFSET=1 --reps 2
expect "kernel with too few --arg: exit 1, the row quotes duet_launch" sh -c \
  "[ $rc -eq 1 ] && grep -q 'error: duet_launch: scale takes 3 arguments, 1 given' '$tmp/kernel_args.out'"
# shellcheck disable=SC2086
run kernel_build kernel "$tmp/scale.cl" scale $sel $kernel_args --options -DNO_OFFSET --reps 2 --csv
expect "kernel that does not build: exit 1, the row says error" sh -c \
  "[ $rc -eq 1 ] && grep -q ',scale,.*,error,.*duet_program_create' '$tmp/kernel_build.out'"
bad_usage kernel "$tmp/scale.cl"
bad_usage kernel "$tmp/scale.cl" scale --block 64
bad_usage kernel "$tmp/scale.cl" scale --grid 4
bad_usage kernel "$tmp/scale.cl" scale --grid 0 --block 64
bad_usage kernel "$tmp/scale.cl" scale --grid 4 --block 64 --arg int:3
bad_usage kernel "$tmp/no-such-file.cl" scale --grid 4 --block 64
bad_usage kernel "$tmp/scale.cl" scale --grid 4 --block 64 --variant naive
bad_usage transpose --grid 4

# ---- gemm --suite: every shape verified, the summary, CSV, JSON and plot from one run ------------
# DUET_BENCH_TEST_SUITE_SCALE=4 gives every device the CPU's list with dimensions above 16 divided
# by 4 (their classes' thin sides kept): the same shapes and rows, in seconds on PoCL.
DUET_BENCH_TEST_SUITE_SCALE=4
export DUET_BENCH_TEST_SUITE_SCALE
# shellcheck disable=SC2086
run suite gemm --suite $sel --reps 1 --warmup 0 --save "$tmp/suite"
[ "$rc" -eq 0 ] || show suite
count_is "gemm --suite exits 0" 0 "$rc"
shapes=$(sed -n 's/.* \([0-9][0-9]*\) shapes on every device (the CPUs. list, dimensions over 16 divided by 4)$/\1/p' "$tmp/suite.out")
expect "the suite's header counts 30 or more shapes (${shapes:-none})" test "${shapes:-0}" -ge 30
lines=$(grep -Ec "^ *[0-9]+ .* $backend:0 " "$tmp/suite.out")
count_is "a table line per shape" "${shapes:-0}" "$lines"
count_is "every shape numbered once, in order" "${shapes:-0}" \
  "$(grep -Eo "^ *[0-9]+ " "$tmp/suite.out" | awk '$1 == NR { n++ } END { print n + 0 }')"
count_is "every shape verified yes" "${shapes:-0}" "$(grep -Ec "^ *[0-9]+ .* $backend:0 .* yes$" "$tmp/suite.out")"
for class in "m = 1" "n = 1" "thin m" "thin n" "shallow k" "deep k" square odd transposed tall wide ld; do
  expect "the suite has the class '$class'" grep -Eq "^ *[0-9]+ +[0-9x]+[ a-z0-9/]* +$class +$backend:0 " "$tmp/suite.out"
done
for ops in nt tn tt; do
  expect "the suite has a shape with op $ops" grep -Eq "^ *[0-9]+ +[0-9x]+ $ops " "$tmp/suite.out"
done
expect "the suite has leading dimensions beyond the matrix" grep -Eq "^ *[0-9]+ +[0-9x]+( tt)? ld [0-9]+/[0-9]+/[0-9]+ " "$tmp/suite.out"
# AUTO and the best of duet's own variants are timed on every shape.
count_is "every line has AUTO's time and pick, the best variant and its time" "${shapes:-0}" \
  "$(grep -Ec "^ *[0-9]+ .* $backend:0 +[0-9.]+ +[a-z]+ +[0-9.]+ +(naive|coalesced|tiled|register|fast) " "$tmp/suite.out")"
expect "the summary names the device" grep -q "^summary $backend:0 (.*): ${shapes:-0} shapes, [0-9]* rows, 0 failed" "$tmp/suite.out"
if grep -q '^  CLBlast: opens' "$tmp/list.out" && [ "$backend" = opencl ]; then
  expect "the summary has CLBlast's geometric mean over every shape" \
    grep -Eq "^    vs CLBlast +geomean [0-9.]+ over ${shapes:-0} shapes, [0-9]+ under 0.85" "$tmp/suite.out"
fi
if grep -q '^  cuBLAS: opens' "$tmp/list.out" && [ "$backend" = cuda ]; then
  expect "the summary has cuBLAS's geometric mean over every shape" \
    grep -Eq "^    vs cuBLAS +geomean [0-9.]+ over ${shapes:-0} shapes, [0-9]+ under 0.85" "$tmp/suite.out"
fi
expect "the summary compares AUTO with duet's best variant and with tiled" sh -c \
  "grep -Eq '^    AUTO slower than duet.s best variant on [0-9]+ shapes: ' '$tmp/suite.out' &&
   grep -Eq '^    AUTO slower than tiled on [0-9]+ shapes: ' '$tmp/suite.out'"
# ... and lists only shapes where AUTO runs another variant (else the two rows are one plan)
expect "the summary lists no shape where AUTO runs the best variant itself" sh -c \
  "! grep -Eq '\(([0-9.]+), ([a-z]+); AUTO runs \2\)' '$tmp/suite.out'"
count_is "m = 1 and n = 1 read against buf_copy's bandwidth" 9 \
  "$(grep -Ec '^      [0-9]+x[0-9]+x[0-9]+( nt| tn)? +[0-9.]+ GB/s, [0-9.]+ of the copy \([0-9.]+ GB/s at [0-9]+x[0-9]+\)$' "$tmp/suite.out")"
# ... each against the copy of as many bytes as its matrix (m = 1 reads k x n, n = 1 m x k; the
# odd size within a tenth of it)
count_is "... each beside the copy of its matrix's size" 9 \
  "$(awk '/of the copy \(/ { split($1, s, "x"); big = s[1] == 1 ? s[2] * s[3] : s[1] * s[3];
    c = $NF; sub(/\)$/, "", c); split(c, z, "x"); r = z[1] * z[2] / big; if (r > 0.9 && r < 1.1) n++ } END { print n + 0 }' "$tmp/suite.out")"
expect "--save wrote the CSV, JSON, plot data and script" \
  test -s "$tmp/suite.csv" -a -s "$tmp/suite.json" -a -s "$tmp/suite.dat" -a -s "$tmp/suite.gp"
expect "suite CSV header" test "$(head -n 1 "$tmp/suite.csv")" = \
  'index,shape,class,m,n,k,ta,tb,lda,ldb,ldc,backend,device,device_name,auto_ms,auto_runs,naive_ms,coalesced_ms,tiled_ms,register_ms,fast_ms,best_variant,best_ms,cublas_ms,clblast_ms,vs_cublas,vs_clblast,vs_best,vs_tiled,gbps,vs_copy,verified,note,auto_batch,auto_plan'
# --warmup 0 leaves --batch auto (the suite's default) no estimate: one launch a run; AUTO's plan
# follows, from the variant it runs on ("fast: 1 piece, ..."; "tiled: C = duet_sgemm_tiled ...").
count_is "suite CSV: a verified row per shape, AUTO's batch 1, its plan" "${shapes:-0}" \
  "$(grep -Ec ",$backend,0,.*,yes,,1,\"?[a-z]+: .*duet_sge" "$tmp/suite.csv")"
if command -v python3 >/dev/null 2>&1; then
  expect "suite JSON: every shape, verified, with the summary" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
shapes, want = d["shapes"], int(sys.argv[2])
assert len(shapes) == want and [s["index"] for s in shapes] == list(range(1, want + 1))
assert all(x["verified"] == "yes" and x["auto_ms"] > 0 and x["rows"] for s in shapes for x in s["devices"])
assert all(x["auto_plan"].startswith(x["auto_runs"] + ": ") for s in shapes for x in s["devices"])
assert d["summary"] and d["summary"][0]["shapes"] == want and d["summary"][0]["failed_rows"] == 0
' "$tmp/suite.json" "${shapes:-0}"
fi
if command -v gnuplot >/dev/null 2>&1; then
  expect "--save rendered the suite's plot" test -s "$tmp/suite.png"
  (cd "$tmp" && gnuplot suite.gp) 2>"$tmp/suite-gnuplot.err"
  expect "gnuplot suite.gp prints nothing on stderr" test ! -s "$tmp/suite-gnuplot.err"
  [ -s "$tmp/suite-gnuplot.err" ] && cat "$tmp/suite-gnuplot.err"
fi
# A wrong result in the suite: the shape says no, the run exits 1.
DUET_BENCH_TEST_WRONG_SIZE=1
export DUET_BENCH_TEST_WRONG_SIZE
# shellcheck disable=SC2086
run suite_wrong gemm --suite $sel --reps 1 --warmup 0 --variant tiled --csv
unset DUET_BENCH_TEST_WRONG_SIZE DUET_BENCH_TEST_SUITE_SCALE
count_is "gemm --suite with a wrong result: exit status 1" 1 "$rc"
count_is "... every shape's CSV row says no" "${shapes:-0}" "$(grep -c ",no,tiled: relative error" "$tmp/suite_wrong.out")"
bad_usage gemm --suite --sizes 8
bad_usage gemm --sizes 8 --batch automatic
bad_usage gemm --suite -n 8
bad_usage gemm --suite --cpu
bad_usage transpose --suite
bad_usage --suite
bad_usage gemm --save "$tmp/x"
bad_usage gemm --suite --save "$tmp/x" --csv
bad_usage gemm --suite --save "$tmp/no-such-dir/x"
bad_usage gemm --suite --ta
bad_usage gemm -m 9 -n 12 -k 7 --ta --lda 8
bad_usage gemm -m 9 -n 12 -k 7 --ldc 11
bad_usage gemm --lda 64
bad_usage transpose -n 8 --ta
bad_usage plan -n 8 --ldc 8

# ---- a wrong result: verified no, not timed, exit 1 -----------------------------------------------
wrong() {
  name=$1
  variant=$2
  unit=$3
  shift 3
  DUET_BENCH_TEST_WRONG_SIZE=1
  export DUET_BENCH_TEST_WRONG_SIZE
  # shellcheck disable=SC2086
  run "$name" "$@" $sel --reps 2 --warmup 1 --variant "$variant" --csv
  unset DUET_BENCH_TEST_WRONG_SIZE
  count_is "$name: exit status 1 after a failed verification" 1 "$rc"
  # variant, then median, min, max, reps, warmup, sets and rate all empty, then the unit
  count_is "$name: the $variant row says verified no and has no timing" 1 \
    "$(grep -c ",$variant,,,,,,,,$unit,,[^,]*,no," "$tmp/$name.out")"
  count_is "$name: no row with a throughput says no" 0 \
    "$(grep -c ",[0-9][^,]*,$unit,[^,]*,[^,]*,no," "$tmp/$name.out")"
}
wrong wrong_transpose naive GB/s transpose --sizes 33
expect "the buf_copy reference is still verified" grep -q ',buf_copy (ref),[0-9].*,yes,exact,' \
  "$tmp/wrong_transpose.out"
wrong wrong_gemm tiled GFLOP/s gemm --sizes 33
wrong wrong_copy copy GB/s copy --sizes 20x33
# And in the table: the row says "no" and its numbers are dashes.
DUET_BENCH_TEST_WRONG_SIZE=1
export DUET_BENCH_TEST_WRONG_SIZE
# shellcheck disable=SC2086
run wrong_table transpose $sel --sizes 33 --reps 2 --warmup 1 --variant coalesced
unset DUET_BENCH_TEST_WRONG_SIZE
count_is "wrong result in a table: exit status 1" 1 "$rc"
expect "the table row reads verified no, untimed" grep -Eq \
  "^33x33 +$backend:0 +coalesced +- +- +- +- +no: " "$tmp/wrong_table.out"

[ "$failed" -eq 0 ] || { echo "test_bench: FAILED"; exit 1; }
echo "test_bench: all passed"
