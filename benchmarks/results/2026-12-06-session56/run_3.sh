#!/usr/bin/env bash
# Session 56 run 3: the partial-weight route (MMA_PARTIAL_ROUTE) and the float32
# scatter -> narrow fallback out of sample: the 52 calls of a second 1000-call draw
# (seed 1) whose plan they change (run_3_calls.txt), default against every family; then
# the new GPU test and the random-configuration tests (run 1 and 2 cut them off).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
R=benchmarks/results/2026-12-06-session56
(cd benchmarks && PYTHONPATH=$PWD/..:$PWD timeout 200 python3 shape_scan.py --n 1000 --seed 1 \
  --names @../$R/run_3_calls.txt --compare-all \
  --families ct1d_mma,ct1d_scatter,ct1d_stream,ct1d_gemm,ct1d_narrow --json "$OUT/route_scan.json" \
  > "$OUT/route_scan.txt" 2>&1)
echo "scan rc $?"; grep -E "calls:" "$OUT/route_scan.txt"
PYTHONPATH=$PWD timeout 300 python3 -m pytest -m gpu -n 16 -q -rs -W ignore tests/test_gpu.py \
  -p no:cacheprovider -k "random_configurations or mma_partial" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 4 "$OUT/tests.log" | cut -c1-400
