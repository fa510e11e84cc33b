#!/usr/bin/env bash
# For the next session with device time (any sm_90 card; ~2 min; not run in session 62:
# no device time left): LEAN's copy-out alone in the 3xFP16 instances
# (benchmarks/variants/ct1d_wgmma_s62_lean_f16x3.patch, CT1D_WGMMA_LEAN_F16X3=1: NVRTC
# builds it without spills where the unclamped copies spill), against the shipped kernel
# on run 5's 16 random 3xFP16 calls and nc4.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
cp kernels/ct1d_wgmma.cu /tmp/ct1d_wgmma_v.cu
patch -s /tmp/ct1d_wgmma_v.cu < benchmarks/variants/ct1d_wgmma_s62_lean_f16x3.patch || { echo "patch failed"; exit 1; }
calls=(); while read -r s; do calls+=(--call "$s"); done < benchmarks/results/2026-12-06-session62/f16x3_calls.txt
timeout 170 python3 benchmarks/ab_variant.py ct1d_wgmma "${calls[@]}" --rounds 4 \
  --variant out=source:/tmp/ct1d_wgmma_v.cu,CT1D_WGMMA_LEAN_F16X3:1 > "$OUT/ab_lean_out_f16x3.txt" 2>&1
echo "ab rc $?"; grep median "$OUT/ab_lean_out_f16x3.txt"
