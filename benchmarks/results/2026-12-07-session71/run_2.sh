#!/usr/bin/env bash
# Session 71 run 2 (any sm_90 card, one 10-minute command; run 1 was taken back unfinished).
# On an H200 first: the sweep that refreshes results/h200/ and the scan. Then on any card:
#   h16    the GPU tests of ct1d_gemm's native 16-bit MMA path (m16n8k16 from channel-pair
#          stages, CT1D_GEMM_H16=1) for bfloat16/float16: random forced calls, splits, edges
#   ab     the bfloat16 scan's calls that plan to ct1d_gemm (seed 0, 320 draws), each against
#          torch bf16 in the same process, new path then CT1D_GEMM_H16=0 (the TF32 path)
#   dmma   benchmarks/dmma_probe.py (float64 DMMA against DFMA; fragment mapping)
#   f64    session 70's float64 rule out of sample (run_next.sh f64)
#   tests  the GPU tests of float64 and large reach (session 70's route) in the time left
# Each step starts only if its cap fits the time left. One tarball back (the device
# returns at most 8 files) plus summary.txt.
set -uo pipefail
FINAL=${OUT:-benchmarks/results/local}; W=/tmp/s71run; rm -rf "$W"; mkdir -p "$W" "$FINAL"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
NEXT=benchmarks/results/2026-12-07-session70/run_next.sh
BUDGET=${BUDGET:-580}
trap 'tar -czf "$FINAL/run.tgz" -C "$W" .; cp "$W/summary.txt" "$FINAL/" 2>/dev/null' EXIT
fits() { local left=$((BUDGET - SECONDS)); if (( left < $1 )); then echo "skip $2 ($left s left)"; return 1; fi; echo "== $2 at ${SECONDS}s"; }
gpu_py() { local cap=$1 log=$2; shift 2; timeout "$cap" python3 -m pytest -q -m gpu -p no:cacheprovider -W ignore tests/test_gpu.py "$@" > "$W/$log" 2>&1; echo "rc $?"; tail -n 2 "$W/$log" | cut -c1-300; }
{
  nvidia-smi --query-gpu=name,uuid --format=csv,noheader
  if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
    fits 260 h200 && OUT=$W/h200 BENCH_S=150 SCAN_S=90 bash $NEXT h200
  fi
  fits 100 h16 && gpu_py 150 h16_tests.log -k "gemm and not float32"
  for v in h16 tf32; do
    def=(); [[ $v == tf32 ]] && def=(--variant "tf32=CT1D_GEMM_H16:0")
    fits 60 "ab $v" && (cd benchmarks && timeout 90 python3 shape_scan.py --no-compare --dtype bfloat16 \
      --n 320 --seed 0 --select ct1d_gemm "${def[@]}" --json "$W/ab_$v.json" > "$W/ab_$v.txt" 2>&1;
      echo "rc $?"; grep -E "calls:" "$W/ab_$v.txt")
  done
  fits 60 dmma && OUT=$W/dmma bash $NEXT dmma | tail -n 30
  fits 150 f64 && OUT=$W/f64 bash $NEXT f64
  left=$((BUDGET - SECONDS))
  fits 60 tests && gpu_py $left f64_tests.log -k "float64 or large_reach or random_configurations"
} 2>&1 | tee "$W/summary.txt"
