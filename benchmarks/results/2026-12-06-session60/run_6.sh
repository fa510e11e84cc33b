#!/usr/bin/env bash
# Session 60 run 6 (any sm_90 card): the float32 calls the dispatcher sends to ct1d_wgmma
# although fewer than half its GEMM rows hold taps (_wgmma_row_use < 0.5: narrow outputs at
# strides 1-2, where 64*2/S channels per block leave most rows empty; the rule for >= 128
# input channels checks only blocks and tile ends), shape_scan draws 0-5
# (wgmma_low_row_use_names.txt), on ct1d_wgmma and ct1d_gemm forced (prepared
# launches) beside torch and the API. Data for a row-use rule: choose on draws 0-2, check
# on 3-5.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT/rows"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
cd benchmarks
while read -r seed names; do
  timeout 65 python3 shape_scan.py --n 1000 --seed "$seed" --names "$names" --compare-all --prepared \
    --families ct1d_wgmma,ct1d_gemm --json "$OUT/rows/s$seed.json" > "$OUT/rows/s$seed.txt" 2>&1
  echo "seed $seed rc $?"; grep "calls:" "$OUT/rows/s$seed.txt"
done < results/2026-12-06-session60/wgmma_low_row_use_names.txt
tar -C "$OUT" -czf "$OUT/rows.tgz" rows && rm -rf "$OUT/rows"
