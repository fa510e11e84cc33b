#!/usr/bin/env bash
# Session 61, run 2 (any sm_90 card): Nsight Compute on the shipped float32 ct1d_wgmma
# (3xTF32, 2 column offsets) and on its 3xFP16 instance, hifigan-u2-b16: where the warps
# stall (is the HGMMA issue blocking the staging that should overlap it?)
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
export CUPY_CACHE_DIR=/tmp/cupyconv-cache
OUT=$OUT/tf32 bash benchmarks/ncu_stalls.sh ct1d_wgmma hifigan-u2-b16
OUT=$OUT/f3 DISPATCH="WGMMA_F16X3_MIN_NC=1" bash benchmarks/ncu_stalls.sh ct1d_wgmma hifigan-u2-b16
