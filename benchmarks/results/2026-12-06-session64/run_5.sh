#!/usr/bin/env bash
# Session 64, run 5 (any sm_90 card, ~4 min): the 160-call random scan (shape_scan.py
# --no-compare, draw 0) with ONE_A and its dispatch rule (the kernel code is run 3's, whose wgmma tests passed).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
(cd benchmarks && timeout 240 python3 shape_scan.py --no-compare --json "$OUT/scan.json" > "$OUT/scan.txt" 2>&1)
echo "scan rc $?"; tail -n 2 "$OUT/scan.txt" | cut -c1-200
