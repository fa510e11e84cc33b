#!/usr/bin/env bash
# For the next session with device time (prepared in session 67, not run).
# Usage: run_next.sh h200 | suite K/2 | profile
#   h200     (an H200 only) run_10.sh: the benchmark sweep that refreshes results/h200/
#            (about 40 s there in session 48), then the 160-call scan
#   suite    (an H200 only; K = 1 or 2, one command each, ~6 min) the whole GPU suite in two
#            shards: on the H200 it last ran in session 46 (on an H100 in session 67)
#   profile  (any sm_90 card, ~2 min) Nsight Compute profiles of ct1d_narrow's two thread
#            layouts (CT1D_NARROW_CONTIG 0 and 1) on the calls the contiguous layout lost
#            in runs 8-9 (r024 0.82x, r140 0.95x) and one it won (s1d2k5c1 1.11x): what
#            the losses share (L1 wavefronts of the strided x loads, shared-memory bank
#            conflicts in the epilogue, or neither)
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
calls=(r024=16,128,16,7,2606,1,1,3,16 r140=8,192,1,7,30612,4,1,1 s1d2k5c1=16,128,16,5,8192,1,2,2,16)
case ${1:-} in
  h200) OUT=$OUT bash benchmarks/results/2026-12-06-session67/run_10.sh ;;
  suite)
    nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
    grep -q H200 "$OUT/gpu.txt" || exit 0
    GPU_TEST_SHARD=${2:?K/2} OUT=$OUT timeout 560 bash benchmarks/device_run.sh tests > /dev/null 2>&1
    echo "suite rc $?"; tail -n 3 "$OUT/gpu_tests.log" | cut -c1-300 ;;
  profile)
    for v in 0 1; do
      OUT=$OUT TAG=contig$v DISPATCH=CT1D_NARROW_CONTIG:$v timeout 140 bash benchmarks/ncu_stalls.sh ct1d_narrow "${calls[@]}"
    done ;;
  *) echo "usage: run_next.sh h200 | suite K/2 | profile"; exit 2 ;;
esac
