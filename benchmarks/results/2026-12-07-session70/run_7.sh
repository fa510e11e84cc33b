#!/usr/bin/env bash
# Session 70 run 7 (any sm_90 card, ~4 min): float64 calls on ct1d_narrow instead of
# ct1d_scatter. run 6's float64 scan had 43 of 160 calls slower than torch fp64 (0.04x at
# worst), 42 of them on ct1d_scatter: wide reductions its CUDA-core tiles run serially.
# The same 160 calls three times, each next to torch in the same process:
#   shipped   the dispatcher as it is
#   narrow8   SCATTER_TO_NARROW_DTYPES + float64: what ct1d_scatter would take goes to
#             ct1d_narrow (chunks of <= 8 output channels), as float32 calls already do
#   narrow4   the same with chunks of <= 4 (NARROW_MAX_COG 4: half the sums per thread;
#             the S = 8-10 instances of 8 spill 10-68 loads under NVRTC 13)
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
cd benchmarks
V='dispatch.SCATTER_TO_NARROW_DTYPES:("float32","float64")'
scan() {  # scan NAME [--variant SPEC]
  local name=$1; shift
  timeout 150 python3 shape_scan.py --no-compare --dtype float64 "$@" --json "$OUT/f64_$name.json" \
    > "$OUT/f64_$name.txt" 2>&1
  echo "$name rc $?"; grep -E "calls:" "$OUT/f64_$name.txt"
}
scan shipped
scan narrow8 --variant "narrow8=$V"
scan narrow4 --variant "narrow4=$V,dispatch.NARROW_MAX_COG:4"
