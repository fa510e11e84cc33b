#!/usr/bin/env bash
# Session 60 run 3 (any sm_90 card): the shipped rule (float32 ct1d_wgmma instances of >= 4
# column offsets on the scaled 3xFP16 split, WGMMA_F16X3_MIN_NC) out of sample: 24 calls
# the dispatcher sends to ct1d_wgmma from shape_scan draws 2-5 (wgmma_calls_2_5.txt: 16
# of >= 4 offsets, 8 of 3; output padding 0, no bias), forced ct1d_wgmma, against 3xTF32
# everywhere (tf32) and 3xFP16 everywhere (f3), medians of 3 rounds in one process. Then
# the GPU tests of ct1d_wgmma and of the float32 splits.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
R=benchmarks/results/2026-12-06-session60
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
calls=(); while read -r s; do calls+=(--call "$s"); done < $R/wgmma_calls_2_5.txt
timeout 300 python3 benchmarks/ab_variant.py ct1d_wgmma "${calls[@]}" --rounds 3 \
  --variant tf32=dispatch.WGMMA_F16X3_MIN_NC:99 --variant f3=dispatch.WGMMA_F16X3_MIN_NC:1 \
  > "$OUT/ab_calls_2_5.txt" 2>&1
echo "ab rc $?"; grep -c median "$OUT/ab_calls_2_5.txt"
timeout 200 python3 -m pytest -m gpu -n 16 -q -rs -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "wgmma_family or split_over or extreme_magnitudes or nonfinite or determinism" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 4 "$OUT/tests.log" | cut -c1-300
