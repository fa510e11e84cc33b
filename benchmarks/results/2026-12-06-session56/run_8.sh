#!/usr/bin/env bash
# Session 56 run 8 (the last ~4 device minutes): run 4's scan with the final rules
# (NARROW_MAX_CHAIN 2048 too), then the GPU test of the experimental GEMM_CK8 rings.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
(cd benchmarks && PYTHONPATH=$PWD/..:$PWD timeout 70 python3 shape_scan.py --no-compare \
  --json "$OUT/scan.json" > "$OUT/scan.txt" 2>&1)
echo "scan rc $?"; grep -E "calls:" "$OUT/scan.txt"
PYTHONPATH=$PWD timeout 50 python3 -m pytest -m gpu -q -rs -W ignore tests/test_gpu.py \
  -p no:cacheprovider -k "gemm_ck8" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 3 "$OUT/tests.log" | cut -c1-400
