#!/usr/bin/env bash
# Session 58 run 5: out of sample for the split rule chosen on runs 3-4 (draws 3, 0, 1, 2)
# (GEMM_SPLIT_MIN_MACS 128, GEMM_SPLIT_WIDE_BLOCK_MACS 320, one wave of one block per SM):
# every cluster size on draws 4 and 5.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
cd benchmarks
export PYTHONPATH=$PWD/..:$PWD
for seed in 4 5; do
  timeout 270 python3 split_scan.py --n 1000 --seed $seed --splits 1,2,3,4,5,6,7,8 \
    --json "$OUT/split_scan_s$seed.json" > "$OUT/split_scan_s$seed.txt" 2>&1
  echo "split scan $seed rc $?"; tail -n 2 "$OUT/split_scan_s$seed.txt"
done
