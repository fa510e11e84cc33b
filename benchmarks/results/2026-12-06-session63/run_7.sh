#!/usr/bin/env bash
# Session 63, run 7 (any sm_90 card, ~4 min): ct1d_gemm's 3xFP16 wide tiles (8 n8 tiles
# per warp: two accumulator sets, NVRTC spills 33-161 loads at 10-12 warps) against 4-tile
# ones: GEMM_F16X3_WIDE_MAX_WARPS 8 (the 10-12-warp blocks, 22 calls of shape_scan draws
# 0-3) and 4 (every 3xFP16 wide tile; draws 0-1), family left to the dispatcher
# (gemm_f16x3_wide_calls.txt). Then the wgmma tests and the a_rows mutation check (run_7_wgmma_tests.sh).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
calls=(); while read -r s; do calls+=(--call "$s"); done < benchmarks/results/2026-12-06-session63/gemm_f16x3_wide_calls.txt
timeout 330 python3 benchmarks/ab_variant.py auto "${calls[@]}" --rounds 3 \
  --variant w8=dispatch.GEMM_F16X3_WIDE_MAX_WARPS:8 --variant w4=dispatch.GEMM_F16X3_WIDE_MAX_WARPS:4 \
  > "$OUT/ab_gemm_wide.txt" 2>&1
echo "ab rc $?"; grep -c median "$OUT/ab_gemm_wide.txt"
OUT=$OUT/wgmma bash benchmarks/results/2026-12-06-session63/run_7_wgmma_tests.sh
