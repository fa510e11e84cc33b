#!/usr/bin/env bash
# Session 48 run 9: on an H200 run_h200.sh; on an H100 the first half of the GPU suite on
# this tree (session 47's kernels and per-card rules: the H100's own routes on random calls)
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
if grep -q H200 "$OUT/gpu.txt"; then exec bash benchmarks/results/2026-12-05-session48/run_h200.sh; fi
export CUPY_CACHE_DIR=/tmp/cupyconv-cache
OUT=$OUT/tests1 GPU_TEST_SHARD=${SHARD:-1/2} timeout 420 bash benchmarks/device_run.sh tests > /dev/null 2>&1
echo "tests rc $?"; tail -3 "$OUT/tests1/gpu_tests.log"; grep -E "FAILED|ERROR" "$OUT/tests1/gpu_tests.log" | head
