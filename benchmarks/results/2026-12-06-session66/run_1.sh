#!/usr/bin/env bash
# Session 66 run 1 (<= 9 min). On an H200: session 65's run_4.sh (the sweep that refreshes
# results/h200/, then the 160-call scan). On any other sm_90 card: session 65's `narrow`
# runs (run_12.sh in: CT1D_NARROW_CONTIG; run_13.sh: 512-thread small-route blocks).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
R=benchmarks/results/2026-12-06-session65
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  OUT=$OUT bash $R/run_next.sh h200
else
  OUT=$OUT bash $R/run_next.sh narrow
fi
