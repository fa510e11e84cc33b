#!/usr/bin/env bash
# ct1d_narrow's first GPU run: its GPU tests, every family on the narrow-output calls
# (float32, bfloat16) next to torch, and shape_scan.py with the family routed.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
timeout ${TEST_S:-150} python3 -m pytest -m gpu -n 16 -q -rs -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "narrow" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 8 "$OUT/tests.log" | cut -c1-700
cd benchmarks
export PYTHONPATH=$PWD/..:$PWD
timeout 150 python3 family_compare.py narrow > "$OUT/fc_f32.txt" 2>&1
echo "fc rc $?"; cut -c1-330 "$OUT/fc_f32.txt"
[[ ${QUICK:-} ]] && exit 0
timeout 100 python3 family_compare.py narrow --dtype bfloat16 \
  --families ct1d_narrow,ct1d_mma,ct1d_wgmma,ct1d_depthwise > "$OUT/fc_bf16.txt" 2>&1
echo "fc bf16 rc $?"; cut -c1-200 "$OUT/fc_bf16.txt"
timeout 150 python3 shape_scan.py --variant "narrow=dispatch.NARROW_ROUTE:True" \
  --json "$OUT/scan_narrow.json" > "$OUT/scan_narrow.txt" 2>&1
echo "scan rc $?"; grep -E "narrow|calls:" "$OUT/scan_narrow.txt" | cut -c1-200 | head -40
