#!/usr/bin/env bash
# Session 45 run 1: the sweep on session 44's final code (warp-specialised ct1d_pipe rule),
# then the first half of the GPU tests on the same machine (compiled kernels cached).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
OUT=$OUT/bench timeout 260 bash benchmarks/device_run.sh bench > /dev/null 2>&1
grep -A14 "issue 4's targets" "$OUT/bench/bench.log" | head -16
OUT=$OUT/tests1 GPU_TEST_SHARD=1/2 timeout 300 bash benchmarks/device_run.sh tests > /dev/null 2>&1
tail -3 "$OUT/tests1/gpu_tests.log"; grep -E "FAILED|ERROR" "$OUT/tests1/gpu_tests.log" | head
