#!/usr/bin/env bash
# Session 55 run 2: the scan again with NARROW_WAVES on (compare run_1/scan.txt), then
# session 54 run_4.sh's bf16 and float64 family comparisons on the narrow calls.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
cd benchmarks
export PYTHONPATH=$PWD/..:$PWD
timeout 150 python3 shape_scan.py --variant waves=dispatch.NARROW_WAVES:True --json "$OUT/scan_waves.json" > "$OUT/scan_waves.txt" 2>&1
echo "scan rc $?"; grep -E "narrow|calls:" "$OUT/scan_waves.txt" | cut -c1-130 | head -40
timeout 80 python3 family_compare.py narrow --dtype bfloat16 \
  --families ct1d_narrow,ct1d_mma,ct1d_wgmma,ct1d_depthwise > "$OUT/fc_bf16.txt" 2>&1
echo "fc bf16 rc $?"; cut -c1-200 "$OUT/fc_bf16.txt"
timeout 80 python3 family_compare.py narrow --dtype float64 \
  --families ct1d_narrow,ct1d_scatter,ct1d_depthwise > "$OUT/fc_f64.txt" 2>&1
echo "fc f64 rc $?"; cut -c1-200 "$OUT/fc_f64.txt"
