#!/usr/bin/env bash
# Session 63, run 8 (any sm_90 card, ~4 min): ct1d_wgmma's 3xFP16 instances with one A
# fragment set, refilled after each chunk's products (CT1D_WGMMA_F3_ONE_A: NVRTC spills
# 0 where two sets spill 75 / 161 loads at 8 / 9 offsets), at >= 8 and every
# 3xFP16 instance, against the shipped two sets, forced ct1d_wgmma, on the 29 calls of
# runs 1 and 5; then the wgmma GPU tests with it in every 3xFP16 instance.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
calls=(); while read -r s; do calls+=(--call "$s"); done < <(cat benchmarks/results/2026-12-06-session62/f16x3_calls.txt benchmarks/results/2026-12-06-session63/f16x3_many_offsets.txt)
timeout 170 python3 benchmarks/ab_variant.py ct1d_wgmma "${calls[@]}" --rounds 3 \
  --variant a8=CT1D_WGMMA_F3_ONE_A:8 --variant a4=CT1D_WGMMA_F3_ONE_A:4 \
  > "$OUT/ab_one_a.txt" 2>&1
echo "ab rc $?"; grep -c median "$OUT/ab_one_a.txt"
cp kernels/ct1d_wgmma.cu /tmp/keep.cu
sed -i 's/^#define CT1D_WGMMA_F3_ONE_A 99$/#define CT1D_WGMMA_F3_ONE_A 4/' kernels/ct1d_wgmma.cu
grep -c "CT1D_WGMMA_F3_ONE_A 4" kernels/ct1d_wgmma.cu
CUPY_CACHE_DIR=/tmp/cupyconv-cache-one-a timeout 100 python3 -m pytest -m gpu -q -rs -W ignore tests/ \
  -p no:cacheprovider -n 16 -k wgmma > "$OUT/tests_wgmma_one_a.log" 2>&1
echo "tests rc $?"; tail -n 1 "$OUT/tests_wgmma_one_a.log" | cut -c1-300
cp /tmp/keep.cu kernels/ct1d_wgmma.cu
