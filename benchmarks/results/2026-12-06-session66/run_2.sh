#!/usr/bin/env bash
# Session 66 run 2 (any sm_90 card, <= 6 min): session 65's CONTIG follow-ups (run_12.sh
# out: the 43 narrow calls not looked at; run_12.sh tests: the narrow family's GPU tests
# with CT1D_NARROW_CONTIG on), then every family on the narrow-output calls in bfloat16
# (family_compare.py narrow --dtype bfloat16: NVRTC spills 133 loads in the bfloat16
# ct1d_mma instance of in256-out8-k16d2).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
R=benchmarks/results/2026-12-06-session65
OUT=$OUT bash $R/run_12.sh out
OUT=$OUT bash $R/run_12.sh tests
timeout 120 python3 benchmarks/family_compare.py narrow --dtype bfloat16 > "$OUT/fc_narrow_bf16.txt" 2>&1
echo "fc rc $?"; tail -n 16 "$OUT/fc_narrow_bf16.txt" | cut -c1-250
