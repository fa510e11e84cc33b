#!/usr/bin/env bash
# Session 56 run 5: NARROW_MAX_CHAIN (ct1d_narrow's threads take enough input-channel
# groups that each float32 sum chain is <= 512 additions) against no bound, in one
# process: run 4's r018 (1.15e-6 at cs = 1) and the 12 calls of seed 1's draw whose plan
# it changes (run_5_calls.txt); time and error per variant.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
R=benchmarks/results/2026-12-06-session56
(cd benchmarks && PYTHONPATH=$PWD/..:$PWD timeout 300 python3 ab_variant.py auto \
  $(cat ../$R/run_5_calls.txt) --variant unbounded=dispatch.NARROW_MAX_CHAIN:1000000 \
  > "$OUT/ab_chain.txt" 2>&1)
echo "ab rc $?"; tail -n 30 "$OUT/ab_chain.txt" | cut -c1-200
