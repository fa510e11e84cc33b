#!/usr/bin/env bash
# Session 56 run 6: run 5's calls with NARROW_MAX_CHAIN 2048 (shipped) against 512 and no
# bound, in one process.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
R=benchmarks/results/2026-12-06-session56
(cd benchmarks && PYTHONPATH=$PWD/..:$PWD timeout 300 python3 ab_variant.py auto \
  $(cat ../$R/run_5_calls.txt) --variant c512=dispatch.NARROW_MAX_CHAIN:512 \
  --variant unbounded=dispatch.NARROW_MAX_CHAIN:1000000 > "$OUT/ab_chain.txt" 2>&1)
echo "ab rc $?"; grep -E "^r[0-9]|median|largest" "$OUT/ab_chain.txt" | cut -c1-120
