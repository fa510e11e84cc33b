#!/usr/bin/env bash
# Session 65 run 12 (any sm_90 card, ~2 min): ct1d_narrow with each thread's U positions
# contiguous (CT1D_NARROW_CONTIG 1: they share their taps' x columns, U + SPAN - 1 loads
# per input channel instead of U*SPAN) against the shipped kernel, forced ct1d_narrow on
# run 2's 38 calls (narrow_calls_in.txt; `out` for the other 43), 3 rounds.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
R=benchmarks/results/2026-12-06-session65; set=${1:-in}
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
calls=(); while read -r s; do calls+=(--call "$s"); done < $R/narrow_calls_$set.txt
timeout 200 python3 benchmarks/ab_variant.py ct1d_narrow "${calls[@]}" --rounds 3 \
  --variant contig=CT1D_NARROW_CONTIG:1 > "$OUT/ab_contig_$set.txt" 2>&1
echo "ab rc $?"; grep -c median "$OUT/ab_contig_$set.txt"
