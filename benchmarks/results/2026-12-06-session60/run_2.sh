#!/usr/bin/env bash
# Session 60 run 2 (any sm_90 card): run 1 again on the second version of the 3xFP16 split (each thread measures its own copies before the chunk barrier: no barrier of its own)
# Run 1: ct1d_wgmma's float32 path by the scaled 3xFP16 split
# (CT1D_WGMMA_F16X3) against the shipped 3xTF32, forced ct1d_wgmma, medians of 3 rounds in
# one process: the sweep's 12 wide layers, then 28 random calls the dispatcher sends to
# ct1d_wgmma (wgmma_calls.txt: 14 each of shape_scan draws 0 and 1, output padding 0, no
# bias). Then the variant as the default and its GPU tests.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
R=benchmarks/results/2026-12-06-session60
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
V=(--variant f3=CT1D_WGMMA_F16X3:1 --rounds 3)
timeout 170 python3 benchmarks/ab_variant.py ct1d_wgmma hifigan-u1-b16 hifigan-u2-b16 hifigan-u3-b16 \
  hifigan-u1-b4-long hifigan-u2-b4-long hifigan-u3-b4-long encodec-s8 encodec-s5 encodec-s4 \
  up-256-256-s2 up-512-512-s2 small-512-256-s8 "${V[@]}" > "$OUT/ab_sweep.txt" 2>&1
echo "ab sweep rc $?"; grep -B3 "median" "$OUT/ab_sweep.txt" | grep -E "^[a-z].*torch|median" | cut -c1-150
calls=(); while read -r s; do calls+=(--call "$s"); done < $R/wgmma_calls.txt
timeout 200 python3 benchmarks/ab_variant.py ct1d_wgmma "${calls[@]}" "${V[@]}" > "$OUT/ab_calls.txt" 2>&1
echo "ab calls rc $?"; grep -c median "$OUT/ab_calls.txt"
sed -i 's/^#define CT1D_WGMMA_F16X3 0/#define CT1D_WGMMA_F16X3 1/' kernels/ct1d_wgmma.cu
grep -n "^#define CT1D_WGMMA_F16X3" kernels/ct1d_wgmma.cu
timeout 170 python3 -m pytest -m gpu -n 16 -q -rs -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "wgmma_family or split_over or extreme_magnitudes or nonfinite or determinism" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 4 "$OUT/tests.log" | cut -c1-300
