#!/usr/bin/env bash
# Session 63, run 5 (any sm_90 card, ~2 min): 3xFP16 ct1d_wgmma instances of many column
# offsets on 64-position tiles (WGMMA_F16X3_NARROW_NC: shape (1, 64), where NVRTC's
# (1, 128) instances spill) against the shipped shapes, forced ct1d_wgmma, on 12 calls of
# 7-10 offsets (f16x3_many_offsets.txt)
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
calls=(); while read -r s; do calls+=(--call "$s"); done < benchmarks/results/2026-12-06-session63/f16x3_many_offsets.txt
timeout 300 python3 benchmarks/ab_variant.py ct1d_wgmma "${calls[@]}" --rounds 3 \
  --variant n8=dispatch.WGMMA_F16X3_NARROW_NC:8 --variant n7=dispatch.WGMMA_F16X3_NARROW_NC:7 \
  > "$OUT/ab_narrow.txt" 2>&1
echo "ab rc $?"; grep -E "median|largest" "$OUT/ab_narrow.txt"
