#!/usr/bin/env bash
# Session 67 run 1 (<= 9.5 min). On an H200: session 65's run_4.sh (the sweep that refreshes
# results/h200/, then the 160-call scan). On any other card: the GPU tests sessions 66
# could not finish (the dispatcher's random calls with the 16-bit narrow route, the narrow
# family's and small wide-reduction tests), then the scan with the contiguous positions.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
R=benchmarks/results/2026-12-06-session66/run_next.sh
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  OUT=$OUT bash $R h200
else
  OUT=$OUT bash $R tests
  export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
  left=$((570 - SECONDS)); echo "scan with ${left} s left"
  (cd benchmarks && timeout $left python3 shape_scan.py --no-compare --json "$OUT/scan.json" > "$OUT/scan.txt" 2>&1)
  echo "scan rc $?"; grep -E "calls:" "$OUT/scan.txt"
fi
