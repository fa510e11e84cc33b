#!/usr/bin/env bash
# Session 61 runs 4-5 (any sm_90 card): the whole GPU suite on the tree as it stands (session
# 60's final code: its row-use rule had not been through the full suite), in two shards
# (run_suite.sh 1/2, run_suite.sh 2/2).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
OUT=$OUT GPU_TEST_SHARD=${1:-1/2} timeout 540 bash benchmarks/device_run.sh tests > /dev/null 2>&1
echo "suite ${1:-1/2} rc $?"; tail -n 3 "$OUT/gpu_tests.log" | cut -c1-300
grep -E "FAILED|ERROR" "$OUT/gpu_tests.log" | head -20 | cut -c1-250
