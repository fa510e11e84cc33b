#!/usr/bin/env bash
# Session 56 run 2: every family on the calls where ct1d_mma keeps mma.sync tiles (or the
# dispatcher falls to ct1d_scatter), 1000 random draws (run 1's scan: those are 6-20x off
# their floors, r104 4x slower than ct1d_stream); then the random-configuration GPU tests
# that run 1's 280 s test limit cut off.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
(cd benchmarks && PYTHONPATH=$PWD/..:$PWD timeout 330 python3 shape_scan.py --n 1000 \
  --select ct1d_mma-sync,ct1d_scatter --compare-all \
  --families ct1d_mma,ct1d_stream,ct1d_gemm,ct1d_narrow --json "$OUT/sync_scan.json" \
  > "$OUT/sync_scan.txt" 2>&1)
echo "scan rc $?"; grep -E "calls:" "$OUT/sync_scan.txt"
PYTHONPATH=$PWD timeout 200 python3 -m pytest -m gpu -n 16 -q -rs -W ignore tests/test_gpu.py \
  -p no:cacheprovider -k "random_configurations" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 4 "$OUT/tests.log" | cut -c1-400
