#!/usr/bin/env bash
# For the next session with device time (any sm_90 card, best an H200; about 6 min):
#  - the 160-call scan with exactly the shipped rules (session 55's scans ran its knobs as
#    variants: run_2 waves, run_3 waves + cap + AHEAD 2; never waves + AHEAD 2 alone, nor
#    the chunked small-call route and the 16-bit fallback through the dispatcher);
#  - GPU tests: ct1d_narrow's, the random configurations (float64/16-bit narrow-output
#    calls now on ct1d_narrow), determinism;
#  - float16 narrow-output calls on ct1d_narrow against ct1d_scatter (shipped untimed);
#  - the two-GPU test where a two-GPU kind is lent (a separate call: -k multi_gpu).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
PYTHONPATH=$PWD timeout 280 python3 -m pytest -m gpu -n 16 -q -rs -W ignore tests/test_gpu.py \
  -p no:cacheprovider -k "narrow or random_configurations or determinism" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 4 "$OUT/tests.log" | cut -c1-400
cd benchmarks
export PYTHONPATH=$PWD/..:$PWD
timeout 150 python3 shape_scan.py --json "$OUT/scan.json" > "$OUT/scan.txt" 2>&1
echo "scan rc $?"; grep -E "calls:" -A 30 "$OUT/scan.txt" | cut -c1-200
timeout 80 python3 family_compare.py narrow --dtype float16 --families ct1d_narrow,ct1d_scatter \
  > "$OUT/fc_f16.txt" 2>&1
echo "fc rc $?"; cut -c1-160 "$OUT/fc_f16.txt"
