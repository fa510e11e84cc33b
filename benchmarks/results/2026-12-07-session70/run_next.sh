#!/usr/bin/env bash
# For the next session with device time (prepared in session 70, not run).
# Usage: run_next.sh f64 | dmma | suite K/2 | h200
#   f64    (any sm_90 card, ~2 min; run it first) run_8.sh: session 70's float64 rule
#          (float64 calls only ct1d_scatter would take on ct1d_narrow) out of sample, 80
#          fresh scan calls against torch fp64, then with the old rule
#   dmma   (any sm_80+ card, < 1 min) benchmarks/dmma_probe.py: float64 on the tensor cores
#          (DMMA m8n8k4) against FP64 FMAs, and the m16n8k8 -> 4 DMMA fragment mapping
#   suite  (any card; K = 1 or 2, one command each, ~5.5 min on an H100) the whole GPU
#          suite in two shards: float64's default route moved (its random calls, the
#          large-reach test's dispatcher route)
#   h200   (an H200 only) the benchmark sweep that refreshes results/h200/, then the scan
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
case ${1:-} in
  f64) OUT=$OUT bash benchmarks/results/2026-12-07-session70/run_8.sh ;;
  dmma)
    export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1
    timeout 120 python3 benchmarks/dmma_probe.py "$OUT/dmma.json" 2>&1 | tee "$OUT/dmma.txt"; echo "dmma rc $?" ;;
  suite)
    nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
    GPU_TEST_SHARD=${2:?K/2} OUT=$OUT timeout 570 bash benchmarks/device_run.sh tests > /dev/null 2>&1
    echo "suite rc $?"; tail -n 3 "$OUT/gpu_tests.log" | cut -c1-300 ;;
  h200) OUT=$OUT bash benchmarks/results/2026-12-06-session67/run_10.sh ;;
  *) echo "usage: run_next.sh f64 | dmma | suite K/2 | h200"; exit 2 ;;
esac
