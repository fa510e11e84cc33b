#!/usr/bin/env bash
# Session 59 run 8 (any sm_90 card): the final code: GPU tests of the host path and of
# random calls through the dispatcher, then the 160-call scan (seed 0; one call, r098,
# changes plan with the small wide-reduction route).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
timeout 150 python3 -m pytest -m gpu -n 16 -q -rs -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "random_configurations or public_api or repeat_call or edge_cases" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 2 "$OUT/tests.log" | cut -c1-300
(cd benchmarks && timeout 100 python3 shape_scan.py --no-compare --json "$OUT/scan.json" > "$OUT/scan.txt" 2>&1)
echo "scan rc $?"; grep -E "calls:|^r098" "$OUT/scan.txt"
