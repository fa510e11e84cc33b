#!/usr/bin/env bash
# Session 57 run 8 (the last ~5 device minutes): the dispatcher's own choice on random calls
# of all four dtypes (test_random_configurations[auto], 120 calls for time: cold compiles)
# with this session's rules.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
PYTHONPATH=$PWD CUPYCONV_REPORT_DIR=$OUT/stats CUPYCONV_GPU_RANDOM_CONFIGS=120 timeout 190 \
  python3 -m pytest -m gpu -q -rs -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "test_random_configurations and auto" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 3 "$OUT/tests.log" | cut -c1-400
ls "$OUT/stats" 2>/dev/null | head -3
