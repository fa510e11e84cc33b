#!/usr/bin/env bash
# Session 62 run 5 (any sm_90 card): the LEAN code against CT1D_WGMMA_LEAN=0 (session 61's
# kernel) on session 60's 24 random ct1d_wgmma calls of 2-5 column offsets, where NVRTC
# now spills a few registers at 3+ offsets.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
calls=(); while read -r s; do calls+=(--call "$s"); done < benchmarks/results/2026-12-06-session60/wgmma_calls_2_5.txt
timeout 330 python3 benchmarks/ab_variant.py ct1d_wgmma "${calls[@]}" --rounds 3 \
  --variant unlean=CT1D_WGMMA_LEAN:0 > "$OUT/ab_lean_calls_2_5.txt" 2>&1
echo "ab rc $?"; grep -c median "$OUT/ab_lean_calls_2_5.txt"
