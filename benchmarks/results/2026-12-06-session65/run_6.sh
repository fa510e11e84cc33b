#!/usr/bin/env bash
# Session 65 run 6 (any sm_90 card, ~3 min): the small wide-reduction calls' chunks of 4
# output channels (NARROW_SMALL_CHUNK_COG 4, chosen on run 5's calls) against chunks of 8
# (the variant "off"), out of sample: every float32 call of draws 4-11 that the
# dispatcher gives ct1d_narrow on the small route (narrow_small_calls_4_11.txt; 29 of the
# 32 move), forced ct1d_narrow, 5 rounds; then the narrow family's GPU tests.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
R=benchmarks/results/2026-12-06-session65
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
calls=(); while read -r s; do calls+=(--call "$s"); done < $R/narrow_small_calls_4_11.txt
timeout 300 python3 benchmarks/ab_variant.py ct1d_narrow "${calls[@]}" --rounds 5 \
  --variant off=dispatch.NARROW_SMALL_CHUNK_COG:8 > "$OUT/ab_small_chunks.txt" 2>&1
echo "ab rc $?"; grep -c median "$OUT/ab_small_chunks.txt"
timeout 150 python3 -m pytest -m gpu -q -rs -n 16 -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "narrow_family or narrow_small" > "$OUT/tests_narrow.log" 2>&1
echo "tests rc $?"; tail -n 3 "$OUT/tests_narrow.log" | cut -c1-300
