#!/usr/bin/env bash
# Session 56 run 7: GPU tests with the final rules (NARROW_MAX_CHAIN 2048, the partial-
# weight route, float32 scatter -> narrow): ct1d_narrow's, the route's, determinism.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
PYTHONPATH=$PWD CUPYCONV_REPORT_DIR=$OUT/stats timeout 280 python3 -m pytest -m gpu -n 16 -q -rs -W ignore \
  tests/test_gpu.py -p no:cacheprovider -k "narrow or mma_partial or determinism" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 4 "$OUT/tests.log" | cut -c1-400
