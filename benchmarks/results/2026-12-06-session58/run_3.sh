#!/usr/bin/env bash
# Session 58 run 3: every cluster size of ct1d_gemm_split on the ct1d_gemm calls of few tiles
# of draws 3 and 0, timed through _gpu.run_pointers (run 2's launcher timing was host-bound
# on small calls).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
cd benchmarks
export PYTHONPATH=$PWD/..:$PWD
for seed in 3 0; do
  timeout 280 python3 split_scan.py --n 1000 --seed $seed --splits 1,2,3,4,5,6,8 \
    --json "$OUT/split_scan_s$seed.json" > "$OUT/split_scan_s$seed.txt" 2>&1
  echo "split scan $seed rc $?"; tail -n 2 "$OUT/split_scan_s$seed.txt"
done
