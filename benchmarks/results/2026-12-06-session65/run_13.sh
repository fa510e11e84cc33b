#!/usr/bin/env bash
# Session 65 run 13 (prepared, not run; any sm_90 card, ~2 min): the small wide-reduction
# calls on ct1d_narrow whose plan has the most channel groups (8 of 256 threads) in blocks
# of 512 threads and 16 groups (dispatch.NARROW_SMALL_THREADS 512: the same tiles, twice
# the warps per block, half the input channels per thread) against the shipped 256, forced
# ct1d_narrow, 5 rounds, on the small-route calls of draws 0, 1, 3 (12) and 4-11 (32).
# NVRTC builds those instances in <= 128 registers with 0-41 spilled loads.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
R=benchmarks/results/2026-12-06-session65
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
calls=(); while read -r s; do calls+=(--call "$s"); done < <(cat $R/narrow_small_calls_0_3.txt $R/narrow_small_calls_4_11.txt)
timeout 300 python3 benchmarks/ab_variant.py ct1d_narrow "${calls[@]}" --rounds 5 \
  --variant t512=dispatch.NARROW_SMALL_THREADS:512 > "$OUT/ab_small_threads.txt" 2>&1
echo "ab rc $?"; grep -c median "$OUT/ab_small_threads.txt"
