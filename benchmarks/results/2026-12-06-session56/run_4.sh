#!/usr/bin/env bash
# Session 56 run 4: run 1's 160-call scan (seed 0) with the partial-weight route and the
# float32 scatter -> narrow fallback (default plans only).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
(cd benchmarks && PYTHONPATH=$PWD/..:$PWD timeout 220 python3 shape_scan.py --no-compare \
  --json "$OUT/scan.json" > "$OUT/scan.txt" 2>&1)
echo "scan rc $?"; grep -E "calls:" "$OUT/scan.txt"
