#!/usr/bin/env bash
# For a later session (any sm_90 card, ~3 min; prepared in session 63, not run): ct1d_gemm
# with its per-thread copy tables (weight and x element offsets, sizes, sources) rederived
# from opaque(tid) where each chunk uses them instead of held across the tile loop
# (benchmarks/variants/ct1d_gemm_s63_rederive.patch; NVRTC 13 spilled loads: 1024 -> 192
# K7 S3 D2 161 -> 148, 1024 -> 96 K11 S5 44 -> 31, 128 -> 128 K5 S3 D2 33 -> 18, 768 ->
# 1024 K6 S3 D2 25 -> 12, 96 -> 1024 K20 S10 22 -> 11), forced ct1d_gemm, on the 13
# spilling 3xFP16 calls of shape_scan draw 0 (gemm_spill_calls.txt, cpu/spill_census_s0.txt)
# and the sweep's two ct1d_gemm layers.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
cp kernels/ct1d_gemm.cu /tmp/ct1d_gemm_rederive.cu
patch -s /tmp/ct1d_gemm_rederive.cu < benchmarks/variants/ct1d_gemm_s63_rederive.patch || { echo "patch failed"; exit 1; }
calls=(); while read -r s; do calls+=(--call "$s"); done < benchmarks/results/2026-12-06-session63/gemm_spill_calls.txt
timeout 200 python3 benchmarks/ab_variant.py ct1d_gemm hifigan-u1-b16 small-512-256-s8 "${calls[@]}" --rounds 3 \
  --variant rederive=source:/tmp/ct1d_gemm_rederive.cu > "$OUT/ab_gemm_rederive.txt" 2>&1
echo "ab rc $?"; grep -E "median|largest" "$OUT/ab_gemm_rederive.txt"
