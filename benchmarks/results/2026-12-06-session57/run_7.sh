#!/usr/bin/env bash
# Session 57 run 7: run 6's GPU test again (its bfloat16 case now lets a call that neither
# ct1d_stream nor ct1d_gemm covers keep ct1d_mma, as the dispatcher does).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
PYTHONPATH=$PWD CUPYCONV_REPORT_DIR=$OUT/stats timeout 150 python3 -m pytest -m gpu -n 16 -q -rs -W ignore \
  tests/test_gpu.py -p no:cacheprovider -k "mma_partial or gemm_ck8" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 3 "$OUT/tests.log" | cut -c1-400
python3 benchmarks/merge_gpu_stats.py "$OUT/stats"
