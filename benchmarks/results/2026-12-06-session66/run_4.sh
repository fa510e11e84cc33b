#!/usr/bin/env bash
# Session 66 run 4 (any sm_90 card, <= 4 min): contiguous positions in ct1d_narrow where
# the kernel's rule takes them (narrow::contig_pays: U > 1 and fewer x loads, now the
# default) against none (CT1D_NARROW_CONTIG 0, the session-65 kernel), out of sample: the
# 72 float32 calls of draws 4-7 whose default plan is such a ct1d_narrow instance
# (contig_calls.py), forced ct1d_narrow, 3 rounds.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
R=benchmarks/results/2026-12-06-session66
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
calls=(); while read -r s; do calls+=(--call "$s"); done < $R/contig_calls_4_7.txt
timeout ${AB_TIMEOUT:-220} python3 benchmarks/ab_variant.py ct1d_narrow "${calls[@]}" --rounds 3 \
  --variant off=CT1D_NARROW_CONTIG:0 > "$OUT/ab_contig_4_7.txt" 2>&1
echo "ab rc $?"; grep -c median "$OUT/ab_contig_4_7.txt"
