#!/usr/bin/env bash
# Session 58 run 6: the final code on the GPU: the tests that reach ct1d_gemm_split (forced,
# and through the dispatcher: gemm family, random configurations, small calls, long
# reductions, infinities, determinism, graphs, repeat calls, edge cases), then the 160-call
# float32 scan (seed 0) with the shipped rules.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
PYTHONPATH=$PWD CUPYCONV_REPORT_DIR=$OUT/stats timeout 300 python3 -m pytest -m gpu -n 16 -q -rs -W ignore \
  tests/test_gpu.py -p no:cacheprovider -k "gemm or random_configurations or small_calls or determinism \
  or long_reductions or nonfinite or graph or repeat_call or edge_cases or public_api" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 4 "$OUT/tests.log" | cut -c1-600
python3 benchmarks/merge_gpu_stats.py "$OUT/stats"
(cd benchmarks && PYTHONPATH=$PWD/..:$PWD timeout 120 python3 shape_scan.py --no-compare \
  --json "$OUT/scan.json" > "$OUT/scan.txt" 2>&1)
echo "scan rc $?"; grep -E "calls:" "$OUT/scan.txt"
