#!/usr/bin/env bash
# Session 70 run 8 (any sm_90 card, ~2 min, the session's last device time): the float64
# rule (SCATTER_TO_NARROW_DTYPES with float64, shipped) out of sample: 80 fresh scan calls
# (seed 1) in float64 through the dispatcher, each NaN-poisoned and checked against torch
# fp64, then the same calls with the old rule, each next to torch in the same process.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
cd benchmarks
scan() {  # scan NAME [--variant SPEC]
  local name=$1; shift
  timeout 75 python3 shape_scan.py --no-compare --dtype float64 --n 80 --seed 1 "$@" \
    --json "$OUT/f64s1_$name.json" > "$OUT/f64s1_$name.txt" 2>&1
  echo "$name rc $?"; grep -E "calls:" "$OUT/f64s1_$name.txt"
}
scan shipped
scan old --variant 'old=dispatch.SCATTER_TO_NARROW_DTYPES:("float32",)'
