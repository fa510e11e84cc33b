#!/usr/bin/env bash
# Session 58 run 8: split plans whose key caps registers for two blocks per SM (min_blocks 2)
# compiled for one block per SM instead (their clusters run one wave of one block per SM
# anyway; NVRTC's SASS: 1024 -> 96 K3's 7-block instance 69 spill loads at the 128-register
# cap, its unsplit one 7), draws 4 and 5, against the shipped split and no split.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
cd benchmarks
export PYTHONPATH=$PWD/..:$PWD
for seed in 4 5; do
  timeout 100 python3 split_scan.py --n 1000 --seed $seed --splits 1 --one-block \
    --json "$OUT/one_block_s$seed.json" > "$OUT/one_block_s$seed.txt" 2>&1
  echo "seed $seed rc $?"; tail -n 3 "$OUT/one_block_s$seed.txt"
done
